"""Exports other tools read back: confnotes' OPML imports as the same outline, and the Markdown
outline nests as CommonMark reads it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from confnotes.export import plain_text, to_opml, to_outline_markdown
from confnotes.model import Document, List, Node
from confnotes.parse import parse
from conftest import FIXTURES, NOTES

CASES = sorted(NOTES.glob("*.md")) + sorted((FIXTURES / "import").glob("*.docx.md"))


def tree(doc: Document) -> list[tuple[int, str, str]]:
    """Sections and items, depth first: (depth, kind, the title's words)."""
    out: list[tuple[int, str, str]] = []
    stack: list[tuple[object, int]] = [(entry, 0) for entry in reversed(doc.content)]
    while stack:
        entry, depth = stack.pop()
        if type(entry) is List:
            stack.extend((item, depth) for item in reversed(entry.items))
        elif type(entry) is Node:
            out.append((depth, entry.kind, plain_text(entry.title)))
            stack.extend((child, depth + 1) for child in reversed(entry.content))
    return out


def items_only(shape: list[tuple[int, str, str]]) -> list[tuple[int, str, str]]:
    return [node for node in shape if node[1] == "item"]


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.name)
def test_markdown_outline_reads_back_as_the_same_tree(path: Path):
    doc = parse(path.read_text(encoding="utf-8"), path.name)
    again = parse(to_outline_markdown(doc), path.name)
    assert tree(again) == tree(doc)


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.name)
def test_opml_text_is_the_items_own_text(path: Path):
    doc = parse(path.read_text(encoding="utf-8"), path.name)
    root = ET.fromstring(to_opml(doc).encode())
    texts = [outline.get("text", "") for outline in root.iter("outline")]
    for text in texts:
        assert not text.startswith(("- ", "* ")) and "**" not in text and "`" not in text
    assert [text for _, _, text in tree(doc)] == [text for text in texts if text in {title for _, _, title in tree(doc)}]


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.name)
def test_importing_confnotes_opml_gives_back_the_same_outline(path: Path):
    from confnotes.importers import convert

    doc = parse(path.read_text(encoding="utf-8"), path.name)
    result = convert(to_opml(doc).encode(), "export.opml", "export")
    again = parse(result.markdown, "export.md")
    assert again.meta.title == plain_text(doc.meta.title)
    assert tree(again) == tree(doc)


def test_code_or_math_after_a_list_stays_after_it_through_opml_and_back():
    """A block after a list went into its node's ``_note``, which an import puts before the list."""
    from confnotes.importers import convert
    from confnotes.model import Block, List

    source = (
        "# Capacity review\n\n## The budget\n\nWhat we spend:\n\n- Search\n- Checkout\n\n"
        "```sql\nSELECT service, sum(cost) FROM bills GROUP BY 1;\n```\n\n$$\nB = 1 - \\frac{good}{total}\n$$\n"
    )
    doc = parse(source, "capacity.md")
    again = parse(convert(to_opml(doc).encode(), "export.opml", "export").markdown, "export.md")

    def order(document):
        section = document.sections[0]
        return [entry.kind if type(entry) is Block else "list" if type(entry) is List else "node" for entry in section.content]

    assert order(doc) == ["paragraph", "list", "code", "math"]
    assert order(again) == order(doc)


def test_code_and_text_under_an_item_go_to_its_note():
    doc = parse("# T\n\n## S\n\n- **Bold** item\n\n  ```sh\n  make\n  ```\n\n1. Label: text\n")
    root = ET.fromstring(to_opml(doc).encode())
    item = root.find("body/outline/outline")
    assert item is not None and item.get("text") == "Bold item" and item.get("_note") == "```sh\nmake\n```"
    assert [outline.get("text") for outline in root.iter("outline")] == ["S", "Bold item", "Label: text"]
