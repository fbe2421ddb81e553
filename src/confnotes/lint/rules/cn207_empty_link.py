"""CN207 empty-link: a link with no destination, ``[slides]()``, ``[slides](<>)`` or ``[slides](#)``."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.lint.rules._util import text_hits
from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A link has no destination: [slides](), [slides](<>) or [slides](#)",
    rationale="An empty link is a placeholder that was never filled in: readers click it and "
    "nothing happens, and the PDF and decks show link text that goes nowhere. An empty fragment (`#`) "
    "goes nowhere either, and a title does not make a destination. Like markdownlint's MD042.",
    bad="Slides: [deck]()\n",
    good="Slides: [deck](https://example.org/deck.pdf)\n",
)

#: ``[text](`` then no destination (nothing, ``<>``, or a bare ``#`` fragment) and ``)``; a title
#: (``"t"``, ``'t'`` or ``(t)``) may follow ``<>`` or ``#`` (after nothing, CommonMark reads it as the destination)
_EMPTY = re.compile(r"""(?<!!)\[([^\]\n]*)\]\(\s*(?:(?:<\s*>|<#>|#)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?)?\s*\)""")

Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    for match, line, col in text_hits(ctx, _EMPTY, "]("):
        yield Report(line, col, f"link '{match.group(1).strip() or '(no text)'}' has no destination")
