"""CN203 empty-item: a bullet or point with no text."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A bullet or point has no text",
    rationale="An empty bullet renders as a lone dot on the page and an empty line on a slide; it "
    "is usually a stray marker left after editing.",
    bad="- Alpha\n-\n- Beta\n",
    good="- Alpha\n- Beta\n",
)


Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    for node, _ in ctx.item_nodes:
        if not node.title.strip() and not node.children and not node.body:
            kind = "point" if node.is_point else "bullet"
            yield Report(node.span.start, node.col, f"empty {kind}")
