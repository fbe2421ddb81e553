"""CN303 long-title: a slide title longer than a limit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from confnotes.lint.types import LintContext, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A slide title is longer than the limit (default 70 characters)",
    rationale="Slide titles wrap onto three lines and push the content down when they run past "
    "about seventy characters; the detail belongs in the bullets.",
    bad="1. How we moved every one of our services to a new deployment system without downtime\n",
    good="1. Moving every service without downtime\n",
)


class Options(NamedTuple):
    max_length: int = 70


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    seen: set[int] = set()
    for slide in ctx.unsplit_deck.slides:
        if slide.kind in ("title", "agenda") or not slide.line or slide.line in seen:
            continue
        if len(slide.title) > options.max_length:
            seen.add(slide.line)
            yield Report(slide.line, 1, f"slide title is {len(slide.title)} characters (limit {options.max_length})")
