"""CN208 missing-alt-text: an image without alt text, ``![](diagram.png)``."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta(
    id="CN208",
    name="missing-alt-text",
    severity="error",
    tags=("links", "accessibility"),
    summary="An image has no alt text: ![](diagram.png)",
    rationale="Alt text is what a screen reader says, what the tagged PDF carries for the image, and "
    "what stays on a slide when the image cannot load. An image without it is invisible to some "
    "readers (PDF/UA requires it). Like markdownlint's MD045.",
    bad="![](img/architecture.png)\n",
    good="![Request path from the edge to the database](img/architecture.png)\n",
)

_NO_ALT = re.compile(r"!\[\s*\]\(\s*<?([^)\s<>]*)")

Options = NoOptions


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    if "![" not in ctx.text:
        return
    for kind, text, line, col in ctx.texts:
        if kind == "code" or "![" not in text:
            continue
        for number, part in enumerate(text.split("\n")):
            for match in _NO_ALT.finditer(part):
                at = ctx.lines[line + number - 1].find(match.group(0)) if line + number <= len(ctx.lines) else -1
                where = at + 1 if at >= 0 else (col if number == 0 else 1) + match.start()
                yield Report(line + number, where, f"image '{match.group(1) or '(no source)'}' has no alt text")
