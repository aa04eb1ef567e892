"""Dependencies point one way (see ARCHITECTURE.md): a wrong-way import fails here."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = {"scorer", "vision", "kiosk", "device"}
ALLOWED = {
    "scorer": set(),
    "vision": {"scorer"},  # only scorer.tiles, scorer.words and scorer.cli_help, checked below
    "device": {"scorer"},
    "kiosk": {"scorer", "vision", "device"},
}


#: What vision takes from the rules core: the tile vocabulary, and the command lines' gettext
#: reader and help formatter (standard library only, no rules) for `python -m vision`'s own
#: catalogue and its --help.
VISION_MAY_USE = {"scorer.tiles", "scorer.words", "scorer.cli_help"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_imports_point_toward_scorer(package: str) -> None:
    wrong = []
    for path in (ROOT / package).rglob("*.py"):
        for name in imports_of(path):
            top = name.split(".")[0]
            if top in OURS and top != package and top not in ALLOWED[package]:
                wrong.append(f"{path.relative_to(ROOT)} imports {name}")
            if package == "vision" and top == "scorer" and name not in VISION_MAY_USE:
                wrong.append(f"{path.relative_to(ROOT)} imports {name} "
                             f"(only {', '.join(sorted(VISION_MAY_USE))})")
    assert wrong == []


# The exceptions: the adapters to the `mahjong` library (the oracle of the differential tests and a
# peer of `python -m scorer bench`) and to riichienv (a peer of the bench, the `bench` extra). Each
# imports its library only when called.
PEER_ADAPTERS = {ROOT / "scorer" / "peer_mahjong.py", ROOT / "scorer" / "peer_riichienv.py"}


def test_scorer_uses_the_standard_library_only() -> None:
    import sys

    third_party = []
    for path in (ROOT / "scorer").rglob("*.py"):
        if path in PEER_ADAPTERS:
            continue
        for name in imports_of(path):
            top = name.split(".")[0]
            if top != "scorer" and top not in sys.stdlib_module_names and top != "__future__":
                third_party.append(f"{path.relative_to(ROOT)} imports {name}")
    assert third_party == []


def test_the_scorer_package_loads_its_public_face_lazily() -> None:
    """`import scorer.tiles` (all vision needs) must not drag in the whole rules core, and every
    public name resolves to the module that defines it."""
    import subprocess
    import sys

    probe = "import sys, scorer.tiles; print('scorer.score' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"
    import scorer

    assert sorted(scorer.__all__) == sorted(scorer._MODULE_OF)
    for name in scorer.__all__:
        assert getattr(scorer, name) is not None
