"""Imports go one way, down the pipeline (docs/design.md, "The folders and their layers"): a stage never imports a later one.

Every ``confnotes`` import in the source — at the top of a module or inside a function —
is checked against the layer table below. Adding a module means giving it a layer here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "confnotes"

#: Lower layers never import higher ones; a layer may import itself and anything below.
#: The package ``confnotes`` is the public facade (docs/api.md): the top layer, which no module of
#: confnotes imports (its version is ``confnotes._version``).
LAYERS: dict[str, int] = {
    "confnotes": 10,
    # 0: the ground floor, which imports nothing of confnotes but itself
    "confnotes._version": 0,
    "confnotes.errors": 0,
    "confnotes.names": 0,
    "confnotes.model": 0,
    "confnotes.markup.escape": 0,
    "confnotes.edges.xmlread": 0,
    # 1: the model's markup, the edges that touch files and processes, configuration
    "confnotes.markup": 1,
    "confnotes.edges": 1,
    "confnotes.config": 1,
    # 2-3: reading a note, and what is made from its outline
    "confnotes.parse": 2,
    "confnotes.load": 3,
    "confnotes.slides": 3,
    "confnotes.timing": 3,
    "confnotes.export": 3,
    "confnotes.fmt": 3,
    # 4-6: findings, schedules, outputs, readers and the runs of many notes
    "confnotes.lint": 4,
    "confnotes.schedule": 4,
    "confnotes.templating": 5,
    "confnotes.edges.sandbox": 5,
    "confnotes.edges.fonts": 5,
    "confnotes.config.schema": 5,
    "confnotes.render": 5,
    "confnotes.check": 6,
    "confnotes.reformat": 6,
    "confnotes.importers": 6,
    # 7-9: a folder into a site, the public API, the long-running servers, the command line
    "confnotes.build": 7,
    "confnotes.api": 7,
    "confnotes.audience": 7,
    "confnotes.serve": 8,
    "confnotes.lsp": 8,
    "confnotes.doctor": 8,
    "confnotes.cli": 9,
    "confnotes.commands": 9,
    "confnotes.__main__": 9,
    "confnotes.limits": 9,
}


def layer(module: str) -> int:
    """The layer of a module: its own entry, or its package's (``confnotes.render.pdf`` → render). The
    package ``confnotes`` itself stands for no module below it: a module with no entry has no layer."""
    parts = module.split(".")
    for end in range(len(parts), 1, -1):
        name = ".".join(parts[:end])
        if name in LAYERS:
            return LAYERS[name]
    if module == "confnotes":
        return LAYERS[module]
    raise KeyError(f"{module} has no layer: give it one in tests/test_layers.py")


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node but those under ``if TYPE_CHECKING:``: imports for type checkers never run, so
    they make no layer or cycle (``confnotes/__init__`` names the public API for them only)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(child) for part in node.body for child in ast.walk(part)}
    return [node for node in ast.walk(tree) if id(node) not in skipped]


def ours(module: str) -> bool:
    return module == "confnotes" or module.startswith("confnotes.")


def imports(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` for every confnotes import in ``path``, wherever it stands (``from confnotes
    import __version__`` imports the package itself)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in runtime_nodes(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and ours(node.module):
            if node.module == "confnotes":
                found += [(node.lineno, "confnotes" if alias.name.startswith("_") else f"confnotes.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if ours(alias.name)]
    return found


SOURCES = sorted(SRC.rglob("*.py"))


def wrong_way(path: Path, me: str) -> list[str]:
    """Each import in ``path`` (the module ``me``) of a module in a higher layer."""
    return [
        f"{path.name}:{line} imports {target} (layer {layer(target)} > {layer(me)})"
        for line, target in imports(path)
        if layer(target) > layer(me)
    ]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_imports_go_down_the_pipeline(path: Path):
    assert not wrong_way(path, module_name(path))


def test_every_module_has_a_layer():
    missing = []
    for path in SOURCES:
        try:
            layer(module_name(path))
        except KeyError as exc:
            missing.append(str(exc))
    assert not missing


def test_a_module_without_a_layer_is_caught():
    with pytest.raises(KeyError, match="confnotes.newthing has no layer"):
        layer("confnotes.newthing")


@pytest.mark.parametrize(
    ("me", "source"),
    [
        ("confnotes.model", "def f():\n    from confnotes.render.html import render_html\n"),
        ("confnotes.parse.build", "from confnotes.lint import engine\n"),
        ("confnotes.markup.escape", "import confnotes.cli\n"),
        ("confnotes.slides.fit", "from confnotes import build\n"),
        ("confnotes.check", "from confnotes import __version__\n"),  # the facade is the top layer
        ("confnotes.schedule.notes", "from confnotes.render.html import anchors\n"),  # names are confnotes.names
    ],
)
def test_a_wrong_way_import_is_caught(tmp_path, me, source):
    """The check itself, on a module as the suite reads it: a wrong-way import (at the top or in a
    function) fails the check that every source module passes."""
    bad = tmp_path / "bad.py"
    bad.write_text(source)
    assert len(wrong_way(bad, me)) == 1
    bad.write_text("def f():\n    from confnotes.errors import NotesError\n")  # the ground floor: any module may
    assert wrong_way(bad, me) == []


def import_graph() -> dict[str, set[str]]:
    """Module → the confnotes modules it imports, at the top or inside a function (``from
    confnotes.parse import recover`` imports the module ``confnotes.parse.recover``)."""
    known = {module_name(path) for path in SOURCES}
    graph: dict[str, set[str]] = {}
    for path in SOURCES:
        me = module_name(path)
        targets: set[str] = set()
        for node in runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.startswith("confnotes"):
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    targets.add(full if full in known else node.module)
            elif isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names if alias.name.startswith("confnotes")}
        graph[me] = targets - {me}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every module that can reach itself through imports, with one such path (Tarjan's SCCs)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles_even_through_function_level_imports():
    """A function-level import hides a cycle from Python but not from a reader: ``fit`` and ``slides``
    used to import each other. No group of modules may import one another in a circle."""
    assert cycles(import_graph()) == []


def test_a_cycle_is_caught():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
