"""CN112 misplaced-break: a --- that does not separate sections."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    tags=("structure",),
    summary="A --- break sits inside a section instead of between sections",
    rationale="confnotes reads `---` as the boundary between sections. Inside a section it splits "
    "nothing and renders as a stray rule; a heading or a new section says what was meant.",
    bad="## Results\n\nFirst part.\n\n---\n\nSecond part.\n",
    good="## Results\n\nFirst part.\n\n## Follow-up\n\nSecond part.\n",
)


Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    blocks = list(ctx.doc.lede)
    for node, _ in ctx.walked:
        blocks += node.body
    for block in blocks:
        if block.kind == "break":
            yield Report(block.span.start, 1, "'---' inside a section does not separate sections")
