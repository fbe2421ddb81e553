"""CN208 missing-alt-text: an image without alt text, ``![](diagram.png)``."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.lint.rules._util import text_hits
from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="An image has no alt text: ![](diagram.png)",
    rationale="Alt text is what a screen reader says, what the tagged PDF carries for the image, and "
    "what stays on a slide when the image cannot load. An image without it is invisible to some "
    "readers (PDF/UA requires it). Like markdownlint's MD045.",
    bad="![](img/architecture.png)\n",
    good="![Request path from the edge to the database](img/architecture.png)\n",
)

_NO_ALT = re.compile(r"!\[\s*\]\(\s*<?([^)\s<>]*)")

Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    for match, line, col in text_hits(ctx, _NO_ALT, "!["):
        yield Report(line, col, f"image '{match.group(1) or '(no source)'}' has no alt text")
