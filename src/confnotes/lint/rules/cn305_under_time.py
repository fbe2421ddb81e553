"""CN305 under-time: the talk fills less than 60% of its slot."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from confnotes.lint.types import LintContext, Report, RuleMeta
from confnotes.timing import front_matter_line, spoken_minutes

META = RuleMeta.of(
    __name__,
    summary="The talk's estimate fills less than 60% of its slot (front matter duration)",
    rationale="A 40-minute slot with 15 minutes of material is either a talk still being written or "
    "a slot with room for questions; worth a look before the day, not an error.",
    bad="---\nduration: 40min\n---\n# Talk\n\n## Why\n\n- One point\n",
    good="---\nduration: 2min\n---\n# Talk\n\n## Why\n\n- (two hundred words of bullets)\n",
)


class Options(NamedTuple):
    slot_percent: int = 60


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    timing = ctx.timing
    slot = timing.slot_minutes
    if slot is not None and timing.total_minutes < slot * options.slot_percent / 100:
        yield Report(
            front_matter_line(ctx.doc, "duration") or 1,
            1,
            f"the talk runs about {spoken_minutes(timing.total_minutes)} of a {spoken_minutes(slot)} slot "
            f"({timing.total_minutes / slot:.0%})",
        )
