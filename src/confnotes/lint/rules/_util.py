"""Helpers shared by rules: walking sections and items, plain words."""

from __future__ import annotations

import re

from confnotes.lint.types import LintContext
from confnotes.model import Node

WORD = re.compile(r"\w+(?:['’.-]\w+)*")


def sections(ctx: LintContext) -> list[tuple[Node, tuple[Node, ...]]]:
    return ctx.section_nodes


def items(ctx: LintContext) -> list[tuple[Node, tuple[Node, ...]]]:
    return ctx.item_nodes


def sibling_groups(ctx: LintContext) -> list[tuple[Node | None, tuple[Node, ...]]]:
    """Every list of children (the document's top level included) with its parent."""
    return ctx.parents


def word_count(text: str) -> int:
    return len(text.split())


