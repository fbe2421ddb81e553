"""CN301 too-many-items: a slide would hold more items than the slide limit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from confnotes.lint.types import LintContext, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A slide would have more items than slides.max_items (default 6)",
    rationale="Six bullets is about what an audience reads while listening. confnotes splits "
    "longer slides into '(cont.)' slides; splitting the point yourself usually reads better.",
    bad="1. Point\n   - a\n   - b\n   - c\n   - d\n   - e\n   - f\n   - g\n",
    good="1. Point\n   - a\n   - b\n   - c\n\n2. Next point\n   - d\n   - e\n",
)


class Options(NamedTuple):
    max_items: int | None = None  # default: slides.max_items


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    limit = options.max_items or ctx.slides.max_items
    for slide in ctx.unsplit_deck.slides:
        if slide.kind in ("title", "agenda", "divider") or not slide.line:
            continue
        if len(slide.items) > limit:
            yield Report(slide.line, 1, f"slide '{slide.title}' has {len(slide.items)} items (limit {limit})")
