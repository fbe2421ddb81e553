"""CN105 numbering: numbered points are not 1, 2, 3, …"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from confnotes.lint.rules._util import sibling_groups
from confnotes.lint.types import Edit, Fix, LintContext, Report, RuleMeta

META = RuleMeta(
    id="CN105", name="numbering", severity="warning", tags=("structure",), fixable=True,
    summary="Numbered points are not numbered 1..n",
    rationale="People cite points by number (\"as point 3 said\"). A gap or a repeat makes the "
    "printed numbers disagree with the count, and Markdown renderers silently renumber some lists "
    "but not others.",
    bad="1. Install\n2. Configure\n4. Run\n",
    good="1. Install\n2. Configure\n3. Run\n",
    fix_note="Renumbers the points 1..n in place (safe: only the numbers change).",
)


@dataclass(frozen=True)
class Options:
    start: int = 1


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    lines = ctx.lines
    for _, children in sibling_groups(ctx):
        points = [node for node in children if node.is_point]
        if not points:
            continue
        expected = [str(options.start + index) for index in range(len(points))]
        actual = [node.number for node in points]
        if actual == expected:
            continue
        edits: list[Edit] = []
        for node, want in zip(points, expected, strict=True):
            if node.number == want:
                continue
            line = lines[node.span.start - 1]
            col = node.col - 1
            if line[col : col + len(node.number or "")] == node.number:
                start = ctx.offset(node.span.start, node.col)
                edits.append(Edit(start, start + len(node.number or ""), want))
        first_bad = next(i for i, (a, b) in enumerate(zip(actual, expected, strict=True)) if a != b)
        node = points[first_bad]
        if first_bad == 0:
            message = f"points start at {actual[0]}, not {expected[0]}"
        else:
            message = f"points jump from {actual[first_bad - 1]} to {actual[first_bad]}"
        fix = Fix("renumber points " + ", ".join(expected), tuple(edits)) if edits else None
        yield Report(node.span.start, node.col, message, fix)
