"""CN109 lone-subpoint: an item with exactly one child."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="An item has exactly one sub-item (no A without a B)",
    rationale="A single sub-point is usually part of its parent's sentence, or a sign that a second "
    "point is missing. Outlining guides call it 'no A without a B'.",
    bad="1. Cache at the edge\n   - to cut latency\n",
    good="1. Cache at the edge to cut latency\n",
)


Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    for node, _ in ctx.item_nodes:
        if len(node.children) == 1 and not node.children[0].is_section:
            child = node.children[0]
            if child.label is not None and not child.text and child.children:
                continue  # "Benefits:" grouping its own list is a heading, not a lone point
            yield Report(child.span.start, child.col, f"'{_short(node.title)}' has a single sub-item")


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:39] + "…"
