"""Compile the rules core (`scorer/`) with mypyc: an optional build; the Python sources stay the
fallback and the reference.

    pip install -e '.[compiled]'              # mypy (which brings mypyc) and a C compiler
    python tools/compile_scorer.py            # build the extension modules beside the sources
    python tools/compile_scorer.py --clean    # remove them: back to pure Python

Python imports an extension module before a source file of the same name, so once built every
`import scorer...` takes the compiled code; nothing else changes (no dependency at run time:
mypyc's runtime is compiled into the shared library). The built files (`scorer/**/*.so`, the
shared `scorer__mypyc*.so` beside the package) are git-ignored. Rebuild after changing a module:
a stale build runs the old code. `tests/scorer/test_compiled.py` builds a copy and checks that
it writes the same bytes as the sources on every real hand.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Not compiled: the package's lazy public face (a module-level __getattr__, which mypyc does not
# support), the command line (argparse; its help is the modules' docstrings, which compiled
# modules do not keep), the benchmark and its peer adapters (they import other libraries), and
# the table (one event at a time, nothing to gain; mypyc's dataclasses refuse its events'
# ClassVar TYPE).
SKIPPED = {"scorer/__init__.py", "scorer/__main__.py", "scorer/bench.py"}
SKIPPED_PREFIXES = ("scorer/cli_", "scorer/peer_", "scorer/table/")


def modules(root: Path = ROOT) -> list[str]:
    """The scorer's source files to compile, relative to `root`."""
    found = sorted(p.relative_to(root).as_posix() for p in (root / "scorer").rglob("*.py"))
    return [path for path in found
            if path not in SKIPPED and not path.startswith(SKIPPED_PREFIXES)]


def built_files(root: Path = ROOT) -> list[Path]:
    """The extension modules and the shared library a build leaves."""
    return sorted([*(root / "scorer").rglob("*.so"), *(root / "scorer").rglob("*.pyd"),
                   *root.glob("scorer__mypyc*.so"), *root.glob("scorer__mypyc*.pyd")])


def clean(root: Path = ROOT) -> None:
    for path in built_files(root):
        path.unlink()


def build(root: Path = ROOT) -> None:
    """Compile the scorer in place under `root` (a checkout, or a copy of one)."""
    clean(root)  # a half-old build would mix versions
    # setuptools' build_ext --inplace, run in `root`: the shared library lands there, the
    # intermediate C files in `root/build`.
    subprocess.run([sys.executable, "-c", _SETUP, *modules(root)], cwd=root, check=True)


_SETUP = """
import sys
from mypyc.build import mypycify
from setuptools import setup
setup(name="scorer-compiled", script_args=["build_ext", "--inplace"],
      ext_modules=mypycify(sys.argv[1:], group_name="scorer", opt_level="3"))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args(argv)
    if args.clean:
        clean()
        return 0
    try:
        import mypyc  # noqa: F401
    except ImportError:
        print("mypyc is part of mypy: pip install -e '.[compiled]'", file=sys.stderr)
        return 2
    build()
    print(f"compiled {len(modules())} modules; `python tools/compile_scorer.py --clean` "
          "goes back to pure Python")
    return 0


if __name__ == "__main__":
    sys.exit(main())
