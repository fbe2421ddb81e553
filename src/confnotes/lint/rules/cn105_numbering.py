"""CN105 numbering: numbered points are not 1, 2, 3, …"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from confnotes.lint.types import Edit, Fix, LintContext, Report, RuleMeta

META = RuleMeta(
    id="CN105",
    name="numbering",
    severity="warning",
    tags=("structure",),
    fixable=True,
    summary="A numbered list skips or repeats a number",
    rationale='People cite points by number ("as point 3 said"). A gap or a repeat makes the '
    "printed numbers disagree with the count, and Markdown renderers silently renumber some lists "
    "but not others. Each list is checked as written: a list may start at any number (one that "
    "continues after a paragraph starts at 2), and `1. 1. 1.` (numbering left to the renderer) is fine.",
    bad="1. Install\n2. Configure\n4. Run\n",
    good="1. Install\n2. Configure\n3. Run\n",
    fix_note="Renumbers the list's points from its first number in place (safe: only the numbers change).",
)


@dataclass(frozen=True)
class Options:
    start: int | None = None  # None: each list counts from its own first number


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    lines = ctx.lines
    for _, lst in ctx.lists:
        points = [node for node in lst.items if node.is_point]
        if not points:
            continue
        actual = [node.number for node in points]
        if len(points) > 1 and len(set(actual)) == 1:
            continue  # "1. 1. 1.": the author leaves the numbering to the renderer
        first = options.start if options.start is not None else int(actual[0] or 1)
        expected = [str(first + index) for index in range(len(points))]
        if [int(number or 0) for number in actual] == [int(number) for number in expected]:
            continue  # "01. 02." counts as written
        edits: list[Edit] = []
        for node, want in zip(points, expected, strict=True):
            if node.number is not None and int(node.number) == int(want):
                continue
            line = lines[node.span.start - 1]
            col = node.col - 1
            if line[col : col + len(node.number or "")] == node.number:
                start = ctx.offset(node.span.start, node.col)
                edits.append(Edit(start, start + len(node.number or ""), want))
        first_bad = next(i for i, (a, b) in enumerate(zip(actual, expected, strict=True)) if int(a or 0) != int(b))
        node = points[first_bad]
        if first_bad == 0:
            message = f"points start at {actual[0]}, not {expected[0]}"
        else:
            message = f"points jump from {actual[first_bad - 1]} to {actual[first_bad]}"
        fix = Fix("renumber points " + ", ".join(expected), tuple(edits)) if edits else None
        yield Report(node.span.start, node.col, message, fix)
