"""Helpers shared by rules: walking sections and items, plain words."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.model import Document, Node, walk

WORD = re.compile(r"\w+(?:['’.-]\w+)*")


def sections(doc: Document) -> Iterator[tuple[Node, tuple[Node, ...]]]:
    for node, ancestors in walk(doc.nodes):
        if node.is_section:
            yield node, ancestors


def items(doc: Document) -> Iterator[tuple[Node, tuple[Node, ...]]]:
    for node, ancestors in walk(doc.nodes):
        if not node.is_section:
            yield node, ancestors


def sibling_groups(doc: Document) -> Iterator[tuple[Node | None, tuple[Node, ...]]]:
    """Every list of children (the document's top level included) with its parent."""
    yield None, doc.nodes
    for node, _ in walk(doc.nodes):
        if node.children:
            yield node, node.children


def word_count(text: str) -> int:
    return len(WORD.findall(text))


