"""CN207 empty-link: a link with no destination, ``[slides]()`` or ``[slides](<>)``."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta(
    id="CN207",
    name="empty-link",
    severity="warning",
    tags=("links",),
    summary="A link has no destination: [slides]() or [slides](<>)",
    rationale="An empty link is a placeholder that was never filled in: readers click it and "
    "nothing happens, and the PDF and decks show link text that goes nowhere. Like markdownlint's MD042.",
    bad="Slides: [deck]()\n",
    good="Slides: [deck](https://example.org/deck.pdf)\n",
)

_EMPTY = re.compile(r"(?<!!)\[([^\]\n]*)\]\(\s*(?:<\s*>)?\s*\)")

Options = NoOptions


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    if "](" not in ctx.text:
        return
    for kind, text, line, col in ctx.texts:
        if kind == "code" or "](" not in text:
            continue
        for number, part in enumerate(text.split("\n")):
            for match in _EMPTY.finditer(part):
                label = match.group(1).strip() or "(no text)"
                at = ctx.lines[line + number - 1].find(match.group(0)) if line + number <= len(ctx.lines) else -1
                where = at + 1 if at >= 0 else (col if number == 0 else 1) + match.start()
                yield Report(line + number, where, f"link '{label}' has no destination")
