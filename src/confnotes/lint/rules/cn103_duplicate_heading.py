"""CN103 duplicate-heading: the same title twice under one parent."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from confnotes.lint.types import LintContext, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="Two sections under one parent have the same title",
    rationale="Two sections called the same thing under one parent are usually a paste accident or "
    "two halves of one topic; readers and the table of contents cannot tell them apart.",
    bad="## Questions\n\n- a\n\n## Questions\n\n- b\n",
    good="## Questions\n\n- a\n- b\n",
)


class Options(NamedTuple):
    #: True: only headings under the same parent must differ (markdownlint MD024's siblings_only);
    #: False: no two headings of the note may be the same.
    siblings_only: bool = True


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    groups = [children for _, children in ctx.parents] if options.siblings_only else [tuple(node for node, _ in ctx.walked)]
    for children in groups:
        seen: dict[str, int] = {}
        for node in children:
            if not node.is_section or node.origin not in ("atx", "setext"):
                continue  # only headings the author wrote; confnotes' own inferred ones say nothing of the note
            key = " ".join(node.title.casefold().split())
            if not key:
                continue  # an empty heading repeats no title (empty-section reports it when nothing is under it)
            if key in seen:
                yield Report(node.span.start, node.col, f"duplicate heading '{node.title}' (first on line {seen[key]})")
            else:
                seen[key] = node.span.start
