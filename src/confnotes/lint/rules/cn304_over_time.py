"""CN304 over-time: the talk runs past its slot, or a section past its budget."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from confnotes.lint.types import LintContext, Report, RuleMeta
from confnotes.timing import Tolerance, front_matter_line, spoken_minutes

META = RuleMeta.of(
    __name__,
    summary="The talk's estimate is above its slot (front matter duration) or a section's above its budget",
    rationale="A talk that runs long loses its last section, usually the conclusion, or the questions. "
    "The estimate counts what will be spoken (speaker notes, else the slide text) at the speaking "
    "rate (slides.wpm, default 130) plus slides.slide_seconds per slide; 'confnotes time' shows "
    "the table.",
    bad="---\nduration: 1min\n---\n# Talk\n\n## Why\n\n- (a hundred and fifty words of bullets)\n",
    good="---\nduration: 5min\n---\n# Talk\n\n## Why\n\n- (a hundred and fifty words of bullets)\n",
)


class Options(NamedTuple):
    slot_percent: int = round(Tolerance().slot * 100)  # the total may run this far into the slot
    budget_percent: int = round(Tolerance().budget * 100)  # a section may run this far into its budget

    @property
    def tolerance(self) -> Tolerance:
        """The thresholds as ``confnotes time`` reads them, so its verdicts agree with this rule's."""
        return Tolerance(self.slot_percent / 100, self.budget_percent / 100)


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    timing = ctx.timing
    slot = timing.slot_minutes
    if slot is not None and timing.total_minutes > slot * options.slot_percent / 100:
        line = front_matter_line(ctx.doc, "duration") or 1
        yield Report(
            line,
            1,
            f"the talk runs about {spoken_minutes(timing.total_minutes)} for a {spoken_minutes(slot)} slot "
            f"({timing.total_minutes / slot:.0%}) at {timing.wpm} words a minute",
        )
    budgeted = [section.budget_minutes for section in timing.sections if section.budget_minutes is not None]
    if slot is not None and sum(budgeted) > slot + 1e-9:
        yield Report(
            front_matter_line(ctx.doc, "duration") or 1,
            1,
            f"the section budgets add up to {spoken_minutes(sum(budgeted))}, more than the {spoken_minutes(slot)} slot",
        )
    for section in timing.sections:
        budget = section.budget_minutes
        if budget is not None and section.minutes > budget * options.budget_percent / 100:
            yield Report(
                section.line,
                1,
                f"section '{section.title}' runs about {spoken_minutes(section.minutes)} for a "
                f"{spoken_minutes(budget)} budget ({section.minutes / budget:.0%})",
            )
