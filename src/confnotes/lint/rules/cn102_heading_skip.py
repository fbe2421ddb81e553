"""CN102 heading-skip: a heading level jumps by more than one."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A heading skips a level (## followed by ####)",
    rationale="Heading levels are the outline. Skipping a level leaves a hole in the table of "
    "contents and the PDF bookmarks, and screen readers announce a structure that is not there. "
    "As markdownlint's MD001: the first heading may be at any level (a note may open with ## or ###), "
    "and a skip is reported once, at the heading that makes it.",
    bad="# Talk\n\n## Part one\n\n#### Detail\n",
    good="# Talk\n\n## Part one\n\n### Detail\n",
)


Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    """Like markdownlint's MD001: each heading against the one before it, in source order; the first
    heading may be at any level, and a skip is reported once, at the heading that makes it."""
    meta = ctx.doc.meta
    previous = meta.title_level if meta.title_origin == "heading" else None
    for node, _ in ctx.section_nodes:
        if node.origin == "bold":
            continue  # a bold sub-heading (**Q&A**) is no heading mark the author chose a level for
        if previous is not None and node.level > previous + 1 and node.origin in ("atx", "setext"):
            yield Report(node.span.start, node.col, f"heading level jumps from {previous} to {node.level}; use level {previous + 1}")
        previous = node.level
