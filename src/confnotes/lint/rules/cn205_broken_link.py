"""CN205 broken-link: a relative link or image points to a missing file."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A relative link or image points to a file that does not exist",
    rationale="A missing image leaves a hole in the PDF and the deck, and a broken link fails on "
    "the published site. Relative paths are resolved from the note's folder.",
    bad="![architecture](diagrams/arch.png)   <!-- no such file -->\n",
    good="![architecture](diagram.png)\n",
)

Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    for link in ctx.local_links:
        if not ctx.exists(link.path):
            yield Report(link.line, link.col, f"'{link.path}' does not exist (relative to the note's folder)")
