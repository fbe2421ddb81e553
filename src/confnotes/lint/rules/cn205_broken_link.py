"""CN205 broken-link: a relative link or image points to a missing file."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import unquote, urlsplit

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    tags=("text",),
    summary="A relative link or image points to a file that does not exist",
    rationale="A missing image leaves a hole in the PDF and the deck, and a broken link fails on "
    "the published site. Relative paths are resolved from the note's folder.",
    bad="![architecture](diagrams/arch.png)   <!-- no such file -->\n",
    good="![architecture](diagram.png)\n",
)

_TARGET = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s<>]+)>?(?:\s+[\"'(][^)]*)?\)")


Options = NoOptions


def _targets(text: str, line: int, col: int) -> Iterator[tuple[str, int, int]]:
    if "](" not in text:
        return
    for number, part in enumerate(text.split("\n")):
        for match in _TARGET.finditer(part):
            yield match.group(1), line + number, (col if number == 0 else 1) + match.start()


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    if "](" not in ctx.text:
        return  # no inline link or image anywhere in the note
    for kind, text, line, col in ctx.texts:
        if kind == "code":
            continue
        for target, at_line, at_col in _targets(text, line, col):
            parts = urlsplit(target)
            if parts.scheme or parts.netloc or target.startswith("#") or not parts.path:
                continue
            path = unquote(parts.path)
            if not ctx.exists(path):
                yield Report(at_line, at_col, f"'{path}' does not exist (relative to the note's folder)")
