"""CN204 bare-url: a URL written without link syntax."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A bare URL (write <https://…> or [text](https://…))",
    rationale="CommonMark does not turn bare URLs into links, so they print as plain text in HTML "
    "and PDF. Angle brackets or a link with a name make them clickable.",
    bad="- Slides at https://example.org/deck\n",
    good="- Slides at <https://example.org/deck>\n",
)

_BARE = re.compile(r"(?<![<(\[\"'=])\bhttps?://[^\s<>()\]]+")
_CODE = re.compile(r"`[^`]*`")


Options = NoOptions


def _scan(text: str, line: int, col: int) -> Iterator[Report]:
    if "http" not in text:
        return
    cleaned = _CODE.sub(lambda m: " " * len(m.group(0)), text)
    for number, part in enumerate(cleaned.split("\n")):
        for match in _BARE.finditer(part):
            before = part[: match.start()]
            if before.endswith("](") or before.endswith("<"):
                continue
            yield Report(
                line + number, (col if number == 0 else 1) + match.start(), f"bare URL {match.group(0)[:60]}; wrap it in <…> or a [link](…)"
            )


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    if "http" not in ctx.text:
        return
    for kind, text, line, col in ctx.texts:
        if kind in ("title", "paragraph"):
            yield from _scan(text, line, col)
