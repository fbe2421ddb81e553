"""CN302 dense-slide: a slide would hold more words than the slide limit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from confnotes.lint.types import LintContext, Report, RuleMeta
from confnotes.slides import slide_words

META = RuleMeta.of(
    __name__,
    summary="A slide would have more words than slides.max_words (default 60)",
    rationale="A slide with a paragraph's worth of words gets read instead of listened to. Cut the "
    "text, or keep the detail in speaker notes.",
    bad="## Conclusion\n\n(a paragraph of eighty words)\n",
    good="## Conclusion\n\nShip small, measure, repeat.\n\nNote: the longer version goes in the notes.\n",
)


class Options(NamedTuple):
    max_words: int | None = None  # default: slides.max_words


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    limit = options.max_words or ctx.slides.max_words
    for slide in ctx.unsplit_deck.slides:
        if slide.kind in ("title", "agenda", "divider") or not slide.line:
            continue
        count = slide_words(slide)
        if count > limit:
            yield Report(slide.line, 1, f"slide '{slide.title}' has {count} words (limit {limit})")
