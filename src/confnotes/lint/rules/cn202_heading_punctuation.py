"""CN202 heading-punctuation: a heading ends with punctuation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from confnotes.lint.types import Edit, Fix, LintContext, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    fixable=True,
    summary="A heading (or a bold line heading a list) ends with . , ; : or !",
    rationale="Headings are labels, not sentences; trailing punctuation reads oddly in a table of "
    "contents and on slide titles. A question mark is fine.",
    bad="## Lessons learned:\n",
    good="## Lessons learned\n",
    fix_note="Removes the trailing punctuation (safe).",
)


class Options(NamedTuple):
    punctuation: str = ".,;:!"


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    lines = ctx.lines
    for node, _ in ctx.section_nodes:
        title = node.title.rstrip()
        if not title or title[-1] not in options.punctuation or title.endswith("..."):
            continue
        if node.origin == "bold" and _speakers_follow(node):
            continue  # a talk's title over its speakers is the talk's name, punctuation and all
        fix = None
        if node.origin == "atx":
            line = lines[node.span.start - 1]
            position = line.rfind(title)
            if position >= 0:
                start = ctx.offset(node.span.start, position + len(title))
                fix = Fix(f"remove the trailing '{title[-1]}'", (Edit(start, start + 1, ""),))
        yield Report(node.span.start, node.col, f"heading ends with '{title[-1]}'", fix)
    yield from _bold_headings(ctx, options)


def _speakers_follow(node: object) -> bool:
    from confnotes.model import Block

    first = next(iter(getattr(node, "content", ())), None)
    return type(first) is Block and first.info == "speakers"


def _bold_headings(ctx: LintContext, options: Options) -> Iterator[Report]:
    """A bold line heading the list below it (``**Session 2: Caching:**``) is a heading too."""
    from confnotes.model import Block, walk_content

    for entry in walk_content(ctx.doc.content):
        if type(entry) is not Block or entry.info != "group":
            continue
        line = ctx.lines[entry.span.start - 1]
        inner = line.rstrip().rstrip("*_").rstrip()
        if not inner or inner[-1] not in options.punctuation or inner.endswith("..."):
            continue
        start = ctx.offset(entry.span.start, len(inner))
        yield Report(
            entry.span.start,
            1,
            f"heading ends with '{inner[-1]}'",
            Fix(f"remove the trailing '{inner[-1]}'", (Edit(start, start + 1, ""),)),
        )
