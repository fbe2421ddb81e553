"""Helpers shared by rules: pattern hits in a note's text (its sections, items and sibling lists are
``LintContext.section_nodes``, ``item_nodes`` and ``parents``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.lint.types import LintContext


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
