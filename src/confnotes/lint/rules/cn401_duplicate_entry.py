"""CN401 duplicate-entry: the same talk or entry appears in two notes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from confnotes.lint.types import LintContext, Report, RuleMeta

META = RuleMeta(
    id="CN401", name="duplicate-entry", severity="warning", tags=("project",), project=True,
    summary="The same talk title or reading-list entry appears in two notes",
    rationale="When a conference's notes are published together, the same talk written up twice "
    "(or a paper listed in two reading lists) is a merge waiting to happen. Checked across all the "
    "notes of one lint run.",
    bad="day1.md: # Scaling Postgres\nday2.md: # Scaling Postgres\n",
    good="day1.md: # Scaling Postgres\nday2.md: # Postgres at the edge\n",
)


@dataclass(frozen=True)
class Options:
    pass


def _keys(ctx: LintContext) -> Iterator[tuple[str, str, int, int]]:
    doc = ctx.doc
    if doc.meta.title_origin != "stem":
        line = doc.meta.title_span.start if doc.meta.title_span else 1
        yield "talk", doc.meta.title, line, 1
    if doc.is_reading_list:
        for node in doc.nodes:
            if node.is_section:
                yield "entry", node.title, node.span.start, node.col


def check_project(contexts: list[LintContext], options: Options) -> Iterator[tuple[LintContext, Report]]:
    first: dict[tuple[str, str], tuple[str, int]] = {}
    for ctx in contexts:
        for kind, title, line, col in _keys(ctx):
            key = (kind, " ".join(title.casefold().split()))
            if key in first and first[key][0] != ctx.doc.path:
                where = f"{first[key][0]}:{first[key][1]}"
                yield ctx, Report(line, col, f"{kind} '{title}' also appears in {where}")
            else:
                first.setdefault(key, (ctx.doc.path, line))
