"""CN104 empty-section: a heading with nothing under it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from confnotes.lint.types import LintContext, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A section or reading-list entry has nothing under it",
    rationale="An empty section is a placeholder that was never filled in: it shows up in the "
    "table of contents and as an empty slide. In a reading list it is an entry without its "
    "annotation.",
    bad="## Conclusion\n\n## Questions\n\n- None\n",
    good="## Conclusion\n\nShip small changes often.\n\n## Questions\n\n- None\n",
)


class Options(NamedTuple):
    ignore_titles: tuple[str, ...] = ()


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    ignored = {title.casefold() for title in options.ignore_titles}
    for node, _ in ctx.section_nodes:
        if node.children or node.body or node.notes or node.title.casefold() in ignored:
            continue
        if ctx.doc.is_reading_list:
            yield Report(node.span.start, node.col, f"entry '{node.title}' has no annotation")
        else:
            yield Report(node.span.start, node.col, f"section '{node.title}' is empty")
