"""CN208 missing-alt-text: an image without alt text, ``![](diagram.png)``, ``![][ref]`` or an ``<img>``
without ``alt`` (markdownlint's MD045: ``alt=""`` and ``aria-hidden="true"`` mark a decorative image)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.lint.rules._util import text_hits
from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="An image has no alt text: ![](diagram.png), ![][ref] or <img> without alt",
    rationale="Alt text is what a screen reader says, what the tagged PDF carries for the image, and "
    "what stays on a slide when the image cannot load. An image without it is invisible to some "
    "readers (PDF/UA requires it). Reference images (`![][ref]`) and HTML `<img>` without `alt` count too; "
    '`alt=""` or `aria-hidden="true"` marks a decorative image. Like markdownlint\'s MD045.',
    bad="![](img/architecture.png)\n",
    good="![Request path from the edge to the database](img/architecture.png)\n",
)

_NO_ALT = re.compile(r"!\[\s*\](?:\(\s*<?([^)\s<>]*)|\[([^\]\n]*)\])")
_IMG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
_ALT = re.compile(r"\salt\s*=", re.IGNORECASE)
_HIDDEN = re.compile(r"""\saria-hidden\s*=\s*["']?true\b""", re.IGNORECASE)
_SRC = re.compile(r"""\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)

Options = NoOptions


def _img_tags(ctx: LintContext) -> Iterator[tuple[re.Match[str], int, int]]:
    """``(tag, line, col)`` of each ``<img …>`` in the note's text (code aside), as markdownlint reads
    them: in any case (``<IMG``), and a tag split over lines counts where it opens."""
    if "<img" not in ctx.text.lower():
        return
    for kind, text, line, col in ctx.texts:
        if kind == "code" or "<img" not in text.lower():
            continue
        for match in _IMG.finditer(text):
            before = text[: match.start()]
            number = before.count("\n")
            at = match.start() - (before.rfind("\n") + 1)
            yield match, line + number, (col + at if number == 0 else at + 1)


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    for match, line, col in text_hits(ctx, _NO_ALT, "!["):
        if match.group(2) is not None:  # ![][ref]: a reference image
            yield Report(line, col, f"image '[{match.group(2).strip()}]' has no alt text")
        else:
            yield Report(line, col, f"image '{match.group(1) or '(no source)'}' has no alt text")
    for match, line, col in _img_tags(ctx):
        tag = match.group(0)
        if _ALT.search(tag) or _HIDDEN.search(tag):
            continue
        src = _SRC.search(tag)
        source = next((group for group in src.groups() if group is not None), "") if src else ""
        yield Report(line, col, f"image '{source or '(no source)'}' has no alt attribute")
