"""Helpers shared by rules: the sections, items and sibling lists of a note."""

from __future__ import annotations

from confnotes.lint.types import LintContext
from confnotes.model import Node


def sections(ctx: LintContext) -> list[tuple[Node, tuple[Node, ...]]]:
    return ctx.section_nodes


def items(ctx: LintContext) -> list[tuple[Node, tuple[Node, ...]]]:
    return ctx.item_nodes


def sibling_groups(ctx: LintContext) -> list[tuple[Node | None, tuple[Node, ...]]]:
    """Every list of children (the document's top level included) with its parent."""
    return ctx.parents
