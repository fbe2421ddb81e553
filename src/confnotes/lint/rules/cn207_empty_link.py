"""CN207 empty-link: a link with no destination, ``[slides]()``, ``[slides](<>)``, ``[slides](#)``,
or a reference link whose definition is one (``[slides][deck]`` with ``[deck]: #``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.lint.rules._util import text_hits
from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A link has no destination: [slides](), [slides](<>), [slides](#) or [slides][ref] with [ref]: #",
    rationale="An empty link is a placeholder that was never filled in: readers click it and "
    "nothing happens, and the PDF and decks show link text that goes nowhere. An empty fragment (`#`) "
    "goes nowhere either, and a title does not make a destination; nor does a reference to a definition "
    "that is one (`[deck]: #`). Like markdownlint's MD042, and an empty `<>` definition too.",
    bad="Slides: [deck]()\n",
    good="Slides: [deck](https://example.org/deck.pdf)\n",
)

#: ``[text](`` then no destination (nothing, ``<>``, or a bare ``#`` fragment) and ``)``; a title
#: (``"t"``, ``'t'`` or ``(t)``) may follow ``<>`` or ``#`` (after nothing, CommonMark reads it as the destination)
_EMPTY = re.compile(r"""(?<!!)\[([^\]\n]*)\]\(\s*(?:(?:<\s*>|<#>|#)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?)?\s*\)""")

#: A link reference definition with no destination: ``[deck]: #``, ``[deck]: <>`` (a title may follow).
_EMPTY_DEFINITION = re.compile(r"""^ {0,3}\[([^\]\n]+)\]:\s*(?:<\s*>|<#>|#)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*$""", re.MULTILINE)
#: A reference link: full ``[text][label]``, collapsed ``[label][]`` or shortcut ``[label]`` (not an
#: image, not an inline link, not a definition, not a footnote).
_REFERENCE = re.compile(r"(?<![!\]\\])\[([^\]\n^][^\]\n]*)\](?:\[([^\]\n]*)\])?(?![(\[:])")

Options = NoOptions


def _label(text: str) -> str:
    return " ".join(text.split()).casefold()


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    for match, line, col in text_hits(ctx, _EMPTY, "]("):
        yield Report(line, col, f"link '{match.group(1).strip() or '(no text)'}' has no destination")
    from confnotes.model import Block, walk_content

    empty = {
        _label(match.group(1))
        for entry in walk_content(ctx.doc.content)
        if type(entry) is Block and entry.kind == "reference" and "]:" in entry.text
        for match in _EMPTY_DEFINITION.finditer(entry.text)
    }
    if not empty:
        return
    for match, line, col in text_hits(ctx, _REFERENCE, "["):
        text, label = match.group(1), match.group(2)
        if _label(label or text) in empty:
            yield Report(line, col, f"link '{text.strip()}' has no destination (its definition [{(label or text).strip()}] is empty)")
