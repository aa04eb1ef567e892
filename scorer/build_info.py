"""Which build of the scorer runs: compiled by mypyc (what `pip install` builds where a C compiler
works, see setup.py) or the Python sources. Not compiled itself.

In a checkout built in place (`pip install -e .`), a source edited after the build makes the build
stale: the compiled modules would still run the old code. `import scorer` then runs the sources
instead, every module of them (compiled modules call each other directly, so a mix would still run
old code), and warns once, until `pip install -e .` (or `python tools/compile_scorer.py`) builds
again, or `python tools/compile_scorer.py --clean` removes the build.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

COMPILED = "compiled (mypyc)"
PURE = "pure Python"
PACKAGE = Path(__file__).resolve().parent


def build() -> str:
    """"compiled (mypyc)" or "pure Python": what `import scorer.score` runs in this process."""
    module = sys.modules.get("scorer.score")
    spec = module.__spec__ if module is not None else importlib.util.find_spec("scorer.score")
    origin = (spec.origin if spec is not None else None) or ""
    return PURE if origin.endswith(".py") else COMPILED


def stale_sources(package: Path = PACKAGE) -> list[str]:
    """The compiled modules' sources changed after an in-place build of a checkout (none in an
    installed copy, whose files are all written at install time)."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    if not (package.parent / "pyproject.toml").is_file() or not any(
            (package / f"score{suffix}").is_file() for suffix in suffixes):
        return []
    built = {p for suffix in suffixes for p in package.rglob(f"*{suffix}")}
    built.update(package.parent.glob("scorer__mypyc*"))
    oldest = min(p.stat().st_mtime for p in built)
    sources = {p.with_name(p.name.split(".")[0] + ".py") for p in built
               if p.parent != package.parent}
    return sorted(p.relative_to(package.parent).as_posix() for p in sources
                  if p.is_file() and p.stat().st_mtime > oldest)


class SourcesFirst(MetaPathFinder):
    """Finds the scorer's modules among the sources only, passing over a stale build."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not fullname.startswith("scorer.") or not path:
            return None
        details = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, details).find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def skip_a_stale_build() -> None:
    """Run the sources where the compiled build is older than one of them (see the docstring)."""
    if any(isinstance(finder, SourcesFirst) for finder in sys.meta_path):
        return
    stale = stale_sources()
    if stale:
        sys.meta_path.insert(0, SourcesFirst())
        more = f" and {len(stale) - 1} more" if len(stale) > 1 else ""
        warnings.warn(f"the compiled scorer is older than {stale[0]}{more}: running the sources; "
                      "`pip install -e .` rebuilds it, `python tools/compile_scorer.py --clean` "
                      "removes it", RuntimeWarning, stacklevel=2)
