"""CN401 duplicate-entry: the same talk or entry appears in two notes."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="The same talk title or reading-list entry appears in two notes",
    rationale="When a conference's notes are published together, the same talk written up twice "
    "(or a paper listed in two reading lists) is a merge waiting to happen. Checked across all the "
    "notes of one lint run.",
    bad="day1.md: # Scaling Postgres\nday2.md: # Scaling Postgres\n",
    good="day1.md: # Scaling Postgres\nday2.md: # Postgres at the edge\n",
)

#: (kind, title, line, col): what one note contributes to the project check.
Fact = tuple[str, str, int, int]


Options = NoOptions


def facts(ctx: LintContext) -> list[Fact]:
    """The talk title and reading-list entries of one note (small, cacheable, picklable)."""
    doc = ctx.doc
    out: list[Fact] = []
    if doc.meta.title_origin != "stem":
        line = doc.meta.title_span.start if doc.meta.title_span else 1
        out.append(("talk", doc.meta.title, line, 1))
    if doc.is_reading_list:
        out += [("entry", node.title, node.span.start, node.col) for node in doc.nodes if node.is_section]
    return out


def check_project(notes: Iterable[tuple[str, list[Fact]]], _options: Options) -> Iterator[tuple[str, Report]]:
    first: dict[tuple[str, str], tuple[str, int]] = {}
    for path, note_facts in notes:
        for kind, title, line, col in note_facts:
            key = (kind, " ".join(title.casefold().split()))
            if key in first and first[key][0] != path:
                where = f"{first[key][0]}:{first[key][1]}"
                yield path, Report(line, col, f"{kind} '{title}' also appears in {where}")
            else:
                first.setdefault(key, (path, line))
