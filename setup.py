"""Build hook: `pip install .` / `pip install -e .` compile the rules core (`scorer/`) with mypyc
where they can, as black and mypy ship their wheels; the metadata is in pyproject.toml.

mypyc comes with mypy, a build requirement (`[build-system] requires`). Where no C compiler
works (or Python's headers are missing), mypy is not importable (`--no-build-isolation` without
it), the sources do not type-check or the C does not build, the install still succeeds: one line
says the pure-Python scorer is used, and `python -m scorer --version` says which build runs.

    SCORER_MYPYC=0         pure Python, no compile attempted (a quick install)
    SCORER_MYPYC=required  a failed compile fails the build (tools/compile_scorer.py sets it)

An editable install (`pip install -e .`) builds in place: the extension modules land beside the
sources (`scorer/**/*.so`) and the shared library `scorer__mypyc*.so` beside the package, all
git-ignored. A source edited after that build makes the build stale; `import scorer` then runs the
sources, with a warning, until `pip install -e .` runs again (or `python tools/compile_scorer.py`;
`--clean` removes the build).
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
GROUP = "scorer"                       # one shared library for all modules: scorer__mypyc*.so
LIBRARY = f"{GROUP}__mypyc"

# Not compiled: the package's lazy public face (a module-level __getattr__, which mypyc does not
# support) and its build check, the command line (argparse; its help is the modules' docstrings,
# which compiled modules do not keep), the benchmark and its peer adapters (they import other
# libraries), and the table (one event at a time, nothing to gain; mypyc's dataclasses refuse its
# events' ClassVar TYPE), and the words (catalogues read from files once; nothing to gain).
SKIPPED = {"scorer/__init__.py", "scorer/__main__.py", "scorer/bench.py", "scorer/build_info.py",
           "scorer/words.py", "scorer/names.py"}
SKIPPED_PREFIXES = ("scorer/cli_", "scorer/peer_", "scorer/table/")


def modules(root: Path = ROOT) -> list[str]:
    """The scorer's source files to compile, relative to `root`."""
    found = sorted(p.relative_to(root).as_posix() for p in (root / "scorer").rglob("*.py"))
    return [path for path in found
            if path not in SKIPPED and not path.startswith(SKIPPED_PREFIXES)]


def built_files(root: Path = ROOT) -> list[Path]:
    """The extension modules and the shared library an in-place build leaves."""
    return sorted([*(root / "scorer").rglob("*.so"), *(root / "scorer").rglob("*.pyd"),
                   *root.glob(f"{LIBRARY}*.so"), *root.glob(f"{LIBRARY}*.pyd")])


def clean(root: Path = ROOT) -> None:
    for path in built_files(root):
        path.unlink()


def _say(line: str) -> None:
    print(f"scorer: {line}", file=sys.stderr, flush=True)


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0][:160]}" if lines else type(error).__name__


def _mode() -> str:
    return os.environ.get("SCORER_MYPYC", "").strip().lower()


_decided: list[Extension] | None = None  # once per run of this file, however many commands ask


def scorer_extensions() -> list[Extension]:
    """The mypyc build's extension modules, or none (having said why) for pure Python."""
    global _decided
    if _decided is None:
        _decided = _decide()
    return list(_decided)


def _decide() -> list[Extension]:
    if _mode() in ("0", "no", "false", "off"):
        _say("SCORER_MYPYC=0: the pure-Python scorer is used")
        return []
    problem = _compiler_problem()
    if problem is None:
        try:
            from mypyc.build import mypycify
        except ImportError:
            problem = "mypyc (part of mypy) is not installed"
    if problem is None:
        try:  # paths relative to the project, where pip and tools/ run this
            return list(mypycify(modules(), opt_level="3", group_name=GROUP))
        except (Exception, SystemExit) as e:  # mypy's errors end in SystemExit
            problem = f"mypyc could not compile it ({_first_line(e)})"
    if _mode() == "required":
        raise SystemExit(f"scorer: {problem}")
    _say(f"{problem}: the pure-Python scorer is used")
    return []


class BuildScorer(build_ext):
    """build_ext whose extensions are the mypyc build of the scorer, made only when it runs (so
    that pip's metadata steps, which run this file too, do not compile), or none at all."""

    def finalize_options(self) -> None:
        # The placeholder stood for the build until now; the real extensions must be in place
        # before setuptools' build_ext sees them. pip's metadata steps (egg_info, dist_info)
        # look at build_ext too: no compile for them.
        extensions = self.distribution.ext_modules
        assert extensions is not None
        if set(self.distribution.commands) <= {"egg_info", "dist_info", "sdist"}:
            super().finalize_options()
            return
        built = scorer_extensions()
        if built:
            extensions[:] = built
        super().finalize_options()
        if not built:
            # Pure Python; the placeholder stays in the distribution so that build_ext still
            # runs, to remove an earlier build.
            self.extensions = []

    def run(self) -> None:
        in_place = bool(self.inplace or self.editable_mode)
        if in_place:
            clean()  # a build that half-matches the sources would mix versions
        # The build folder may hold an earlier build: keep only what this one makes.
        keep = {Path(self.build_lib, self.get_ext_filename(self.get_ext_fullname(ext.name)))
                for ext in self.extensions}
        for path in built_files(Path(self.build_lib)):
            if path not in keep:
                path.unlink()
        if not self.extensions:
            return
        try:
            super().run()
            if in_place:
                # build_ext copies a library it found up to date with its old time; the build is
                # of today's sources (scorer/build_info.py compares the times).
                for path in built_files():
                    os.utime(path)
        except (Exception, SystemExit) as e:
            if _mode() == "required":
                raise
            clean(Path(self.build_lib))  # no half build in the wheel or beside the sources
            if in_place:
                clean()
            self.extensions[:] = []
            _say(f"the C build failed ({_first_line(e)}): the pure-Python scorer is used")


def _compiler_problem() -> str | None:
    """None where a C compiler builds a Python extension here, else why not."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    compiler: Any = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp, "probe.c")
        source.write_text("#include <Python.h>\nint probe(void) { return PY_MAJOR_VERSION; }\n")
        try:
            objects = compiler.compile([str(source)], output_dir=tmp,
                                       include_dirs=[sysconfig.get_paths()["include"]])
            compiler.link_shared_object(objects, str(Path(tmp, "probe.so")))
        except Exception:
            command = (getattr(compiler, "compiler_so", None) or ["the C compiler"])[0]
            return f"no working C compiler or no Python headers ({command} cannot build a probe)"
    return None


if __name__ == "__main__":
    setup(ext_modules=[Extension(LIBRARY, sources=[])],  # the build, decided by BuildScorer
          cmdclass={"build_ext": BuildScorer})
