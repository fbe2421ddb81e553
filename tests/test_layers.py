"""Imports go one way, down the pipeline (DESIGN.md, "Pipeline"): a stage never imports a later one.

Every ``confnotes`` import in the source — at the top of a module or inside a function —
is checked against the layer table below. Adding a module means giving it a layer here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "confnotes"

#: Lower layers never import higher ones; a layer may import itself and anything below.
LAYERS: dict[str, int] = {
    "confnotes": 0,
    "confnotes.errors": 0,
    "confnotes.model": 0,
    "confnotes.source": 1,
    "confnotes.ignore": 1,
    "confnotes.output": 1,
    "confnotes.config": 1,
    "confnotes.fonts": 1,
    "confnotes.parse": 2,
    "confnotes.load": 3,
    "confnotes.slides": 3,
    "confnotes.timing": 3,
    "confnotes.fit": 3,
    "confnotes._widths": 0,
    "confnotes.export": 3,
    "confnotes.fmt": 3,
    "confnotes.lint": 4,
    "confnotes.templating": 5,
    "confnotes.render": 5,
    "confnotes.check": 6,
    "confnotes.reformat": 6,
    "confnotes.build": 7,
    "confnotes.serve": 8,
    "confnotes.doctor": 8,
    "confnotes.cli": 9,
    "confnotes.commands": 9,
    "confnotes.__main__": 9,
}


def layer(module: str) -> int:
    """The layer of a module: its own entry, or its package's (``confnotes.render.pdf`` → render)."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        name = ".".join(parts[:end])
        if name in LAYERS:
            return LAYERS[name]
    raise KeyError(module)


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` for every confnotes import in ``path``, wherever it stands."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.startswith("confnotes"):
            if node.module == "confnotes":
                found += [(node.lineno, f"confnotes.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if alias.name.startswith("confnotes")]
    return found


SOURCES = sorted(SRC.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_imports_go_down_the_pipeline(path: Path):
    me = module_name(path)
    wrong = [
        f"{path.name}:{line} imports {target} (layer {layer(target)} > {layer(me)})"
        for line, target in imports(path)
        if layer(target) > layer(me)
    ]
    assert not wrong, wrong


def test_every_module_has_a_layer():
    for path in SOURCES:
        layer(module_name(path))


def test_a_wrong_way_import_is_caught(tmp_path):
    """The check itself: a model module importing a renderer is reported."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from confnotes.render.html import render_html\n")
    assert imports(bad) == [(2, "confnotes.render.html")]
    assert layer("confnotes.render.html") > layer("confnotes.model")
