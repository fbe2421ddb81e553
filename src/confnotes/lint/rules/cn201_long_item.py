"""CN201 long-item: an item with more words than a limit (slide advice: the talk profile)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from confnotes.lint.types import LintContext, Report, RuleMeta
from confnotes.model import count_words

META = RuleMeta.of(
    __name__,
    summary="An item has more words than the limit (default 30)",
    rationale="On a slide a bullet is a cue, not a paragraph: long items crowd slides and handouts; split "
    "the item, or move the prose into a paragraph under it. Notes are read, not presented, and a one- or "
    "two-sentence bullet is how people take them, so the rule is for talks only.",
    bad="- This bullet keeps going with every detail of the incident, the timeline, the people involved, "
    "the tools that failed, the dashboards we looked at and the lessons we drew from all of it afterwards\n",
    good="- Incident timeline\n- Tools that failed\n- Lessons learned\n",
)


class Options(NamedTuple):
    max_words: int = 30


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    for node, _ in ctx.item_nodes:
        count = count_words(node.title)  # words as slides count them
        if count > options.max_words:
            yield Report(node.span.start, node.col, f"item has {count} words (limit {options.max_words})")
