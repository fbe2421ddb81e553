"""Helpers shared by rules: the sections, items and sibling lists of a note, and pattern hits in its text."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.lint.types import LintContext
from confnotes.model import Node


def sections(ctx: LintContext) -> list[tuple[Node, tuple[Node, ...]]]:
    return ctx.section_nodes


def items(ctx: LintContext) -> list[tuple[Node, tuple[Node, ...]]]:
    return ctx.item_nodes


def sibling_groups(ctx: LintContext) -> list[tuple[Node | None, tuple[Node, ...]]]:
    """Every list of children (the document's top level included) with its parent."""
    return ctx.parents


def text_hits(ctx: LintContext, pattern: re.Pattern[str], needle: str) -> Iterator[tuple[re.Match[str], int, int]]:
    """``(match, line, col)`` for each match of ``pattern`` in the note's titles and blocks (code
    excluded), line by line; ``needle`` is a substring every match contains, to skip text quickly.
    The column is where the match stands in the source line."""
    if needle not in ctx.text:
        return
    for kind, text, line, col in ctx.texts:
        if kind == "code" or needle not in text:
            continue
        for number, part in enumerate(text.split("\n")):
            for match in pattern.finditer(part):
                at = ctx.lines[line + number - 1].find(match.group(0)) if line + number <= len(ctx.lines) else -1
                yield match, line + number, at + 1 if at >= 0 else (col if number == 0 else 1) + match.start()
