"""CN102 heading-skip: a heading level jumps by more than one."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.rules._util import sections
from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta(
    id="CN102",
    name="heading-skip",
    severity="warning",
    tags=("structure",),
    summary="A heading skips a level (## followed by ####)",
    rationale="Heading levels are the outline. Skipping a level leaves a hole in the table of "
    "contents and the PDF bookmarks, and screen readers announce a structure that is not there.",
    bad="# Talk\n\n## Part one\n\n#### Detail\n",
    good="# Talk\n\n## Part one\n\n### Detail\n",
)


Options = NoOptions


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    title_level = 1 if ctx.doc.meta.title_origin in ("heading", "inferred", "front-matter", "lede") else 0
    for node, ancestors in sections(ctx):
        parents = [a for a in ancestors if a.is_section]
        expected_max = (parents[-1].level if parents else title_level) + 1
        if node.origin in ("atx", "setext") and node.level > expected_max:
            previous = parents[-1].level if parents else title_level
            yield Report(node.span.start, node.col, f"heading level jumps from {previous} to {node.level}; use level {expected_max}")
