"""Compile the rules core (`scorer/`) with mypyc in place, in this environment: what
`pip install -e .` does (setup.py's build hook), without reinstalling; the Python sources stay the
fallback and the reference.

    python tools/compile_scorer.py            # build the extension modules beside the sources
    python tools/compile_scorer.py --clean    # remove them: back to pure Python

It needs mypy (mypyc; the `test` and `compiled` extras have it), setuptools and a C compiler, and
unlike pip it fails where the compile fails. Python imports an extension module before a source
file of the same name, so once built every `import scorer...` takes the compiled code (no
dependency at run time: mypyc's runtime is compiled into the shared library). The built files
(`scorer/**/*.so`, the shared `scorer__mypyc*.so` beside the package) are git-ignored. A module
edited after the build makes it stale: `import scorer` then runs the sources, with a warning,
until the next build (scorer/build_info.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _setup(root: Path = ROOT) -> ModuleType:
    """setup.py as a module (its `setup()` runs only as a script)."""
    spec = importlib.util.spec_from_file_location("scorer_setup", root / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def modules(root: Path = ROOT) -> list[str]:
    """The scorer's source files to compile, relative to `root`."""
    return list(_setup(root).modules(root))


def built_files(root: Path = ROOT) -> list[Path]:
    """The extension modules and the shared library a build leaves."""
    return list(_setup(root).built_files(root))


def clean(root: Path = ROOT) -> None:
    _setup(root).clean(root)


def build(root: Path = ROOT) -> None:
    """Compile the scorer in place under `root` (a checkout, or a copy of one)."""
    env = {**os.environ, "SCORER_MYPYC": "required"}
    subprocess.run([sys.executable, "setup.py", "--quiet", "build_ext", "--inplace"], cwd=root,
                   env=env, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args(argv)
    if args.clean:
        clean()
        return 0
    if importlib.util.find_spec("mypyc") is None:
        print("mypyc is part of mypy: pip install -e '.[compiled]'", file=sys.stderr)
        return 2
    build()
    print(f"compiled {len(modules())} modules; `python tools/compile_scorer.py --clean` "
          "goes back to pure Python")
    return 0


if __name__ == "__main__":
    sys.exit(main())
