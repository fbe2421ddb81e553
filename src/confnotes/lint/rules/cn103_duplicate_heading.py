"""CN103 duplicate-heading: the same title twice under one parent."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.rules._util import sibling_groups
from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta(
    id="CN103",
    name="duplicate-heading",
    severity="warning",
    tags=("structure",),
    summary="Two sections under one parent have the same title",
    rationale="Two sections called the same thing under one parent are usually a paste accident or "
    "two halves of one topic; readers and the table of contents cannot tell them apart.",
    bad="## Questions\n\n- a\n\n## Questions\n\n- b\n",
    good="## Questions\n\n- a\n- b\n",
)


Options = NoOptions


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    for _, children in sibling_groups(ctx):
        seen: dict[str, int] = {}
        for node in children:
            if not node.is_section:
                continue
            key = " ".join(node.title.casefold().split())
            if key in seen:
                yield Report(node.span.start, node.col, f"duplicate heading '{node.title}' (first on line {seen[key]})")
            else:
                seen[key] = node.span.start
