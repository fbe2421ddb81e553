"""CN306 slide-overflow: a slide holds more than fits even at the smallest text, so the deck splits it."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta
from confnotes.slides.fit import overflow_message, overflowing

META = RuleMeta.of(
    __name__,
    summary="A slide does not fit even at the smallest text size, so the deck splits it",
    rationale="The deck measures every slide (the same fit engine every deck output uses) and "
    "shrinks text down to 24 px before it splits a slide into '(cont.)' slides: a 45-line code "
    "sample, a long table or a 200-word paragraph. This reports each slide the deck splits, so you "
    "can cut it, or split it where you would rather have the break.",
    bad="## Setup\n\n```sh\n(sixty lines of shell)\n```\n",
    good="## Setup\n\n```sh\n(the twelve lines that matter)\n```\n",
)


Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    for slide in overflowing(ctx.fitted_deck.slides):
        yield Report(slide.line or 1, 1, overflow_message(slide))
