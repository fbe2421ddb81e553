"""Helpers shared by rules: walking sections and items, plain words."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.lint.types import LintContext
from confnotes.model import Node

WORD = re.compile(r"\w+(?:['’.-]\w+)*")


def sections(ctx: LintContext) -> Iterator[tuple[Node, tuple[Node, ...]]]:
    for node, ancestors in ctx.walked:
        if node.kind == "section":
            yield node, ancestors


def items(ctx: LintContext) -> Iterator[tuple[Node, tuple[Node, ...]]]:
    for node, ancestors in ctx.walked:
        if node.kind != "section":
            yield node, ancestors


def sibling_groups(ctx: LintContext) -> Iterator[tuple[Node | None, tuple[Node, ...]]]:
    """Every list of children (the document's top level included) with its parent."""
    yield None, ctx.doc.nodes
    for node, _ in ctx.walked:
        if node.children:
            yield node, node.children


def word_count(text: str) -> int:
    return len(text.split())


