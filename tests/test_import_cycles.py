"""No import circles in our packages (see ARCHITECTURE.md): the module graph is built from the
sources with ast, and a circle fails here with its modules in order.

Every import counts, at module level or inside a function (a function's import still ties the
two modules together), except those under `if TYPE_CHECKING:`, which never run."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scorer", "vision", "kiosk", "device")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported_names(tree: ast.Module, module: str, is_package: bool) -> set[str]:
    """Every dotted name an import in the module reaches: `from a.b import c` gives `a.b.c`, which
    is the module `a.b.c` when there is one and a name in `a.b` otherwise (as import-linter reads
    it); relative imports resolved; `if TYPE_CHECKING:` bodies skipped."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                names.add(f"{source}.{alias.name}" if alias.name != "*" else source)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return names


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (a name that is not a module counts as its
    module; a package's own `__init__` is not counted as importing itself)."""
    paths = {module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        targets = set()
        for name in imported_names(tree, module, path.name == "__init__.py"):
            while name and name not in paths:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle per strongly connected component of more than one module (Tarjan), written as
    a path that returns to its start."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def strongconnect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                strongconnect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            strongconnect(node)
    return [circle_in(graph, set(component)) for component in components]


def circle_in(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest path from the component's first module back to itself."""
    start = min(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & component):
                if target == start:
                    return paths[node] + [start]
                if target not in paths:
                    paths[target] = paths[node] + [target]
                    following.append(target)
        frontier = following
    return sorted(component)


def test_the_graph_sees_relative_function_level_and_type_checking_imports() -> None:
    source = ("from typing import TYPE_CHECKING\nfrom . import b\nfrom .c import d\n"
              "if TYPE_CHECKING:\n    from . import e\n"
              "def f():\n    import kiosk.g\n")
    names = imported_names(ast.parse(source), "kiosk.a", is_package=False)
    assert names == {"typing.TYPE_CHECKING", "kiosk.b", "kiosk.c.d", "kiosk.g"}
    assert "kiosk.e" not in names
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


def test_no_import_circles() -> None:
    circles = find_cycles(import_graph())
    assert circles == [], "import circles:\n" + "\n".join(" -> ".join(c) for c in circles)


if __name__ == "__main__":  # the whole graph's circles, every module of each
    import sys

    sys.path.insert(0, str(ROOT))
    for circle in find_cycles(import_graph()):
        print(" -> ".join(circle))
