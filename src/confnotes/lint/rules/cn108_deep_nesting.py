"""CN108 deep-nesting: items nested deeper than a limit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from confnotes.lint.types import LintContext, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="Items are nested deeper than the limit (default 3 levels below a point)",
    rationale="Deeply nested bullets do not fit on a slide or a handout and usually hide a missing "
    "section. Slides keep two levels; deeper ones are folded into their parent.",
    bad="1. Point\n   - a\n     - b\n       - c\n         - d\n",
    good="1. Point\n   - a\n     - b\n\n2. Another point\n   - c\n",
)


class Options(NamedTuple):
    max_depth: int = 3


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    too_deep = options.max_depth + 2  # an item's level counts itself: 1 is directly under a section
    for node, _ in ctx.item_nodes:
        if node.level == too_deep:  # reported once, at the first level past the limit
            depth = node.level - 1
            yield Report(node.span.start, node.col, f"item nested {depth} levels deep (limit {options.max_depth})")
