"""The design lives in the repository (docs/design.md) and stays true: its drawing of the layers is
the layer test's table, and every citation of it in the code names one of its sections."""

from __future__ import annotations

import re
from pathlib import Path

from test_layers import LAYERS

ROOT = Path(__file__).resolve().parent.parent
DESIGN = ROOT / "docs" / "design.md"
MARKER = "<!-- layers: drawn from tests/test_layers.LAYERS -->"


def drawn_layers(text: str) -> dict[str, int]:
    """The layer of each module as the drawing below ``MARKER`` shows it (``5  render  edges.fonts``)."""
    block = text.split(MARKER, 1)[1].split("```", 2)[1]
    drawn: dict[str, int] = {}
    for line in block.strip("\n").splitlines()[0:]:
        number, *names = line.split()
        drawn.update({name if name == "confnotes" else f"confnotes.{name}": int(number) for name in names})
    return drawn


def test_the_drawing_of_the_layers_is_the_layer_tests_table():
    assert drawn_layers(DESIGN.read_text(encoding="utf-8")) == LAYERS


def test_a_drawing_that_differs_is_caught():
    text = DESIGN.read_text(encoding="utf-8").replace(" 4  lint  schedule", " 4  lint\n 6  schedule")
    assert drawn_layers(text) != LAYERS


def test_every_citation_names_a_section_and_none_names_a_design_outside_the_repository():
    """Nine docstrings cited a ``DESIGN.md`` that was never committed."""
    headings = set(re.findall(r"^## (.+)$", DESIGN.read_text(encoding="utf-8"), re.M))
    cited, stray = [], []
    for path in [*sorted((ROOT / "src").rglob("*.py")), *sorted((ROOT / "tests").glob("*.py"))]:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r'docs/design\.md, "([^"]+)"(?: and "([^"]+)")?', text):
            cited += [(path.name, name) for name in match.groups() if name]
        if re.search(r"(?<!docs/)\bDESIGN\.md", text) and path.name != "test_design_doc.py":
            stray.append(path.name)
    assert cited and [(name, section) for name, section in cited if section not in headings] == []
    assert stray == []
