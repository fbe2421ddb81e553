"""CN105 numbering: numbered points are not 1, 2, 3, …"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal, NamedTuple, get_args

from confnotes.lint.types import Edit, Fix, LintContext, Report, RuleMeta

META = RuleMeta.of(
    __name__,
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


Style = Literal["one_or_ordered", "ordered", "one"]
STYLES: tuple[str, ...] = get_args(Style)


class Options(NamedTuple):
    #: as markdownlint's MD029: ``ordered`` (1. 2. 3.), ``one`` (1. 1. 1., numbering left to the
    #: renderer) or ``one_or_ordered`` (either, as the list's first two items show)
    style: Style = "one_or_ordered"
    start: int | None = None  # None: each list counts from its own first number


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    if options.style not in STYLES:
        from confnotes.errors import config_error

        raise config_error(f"numbering style must be one of {', '.join(STYLES)}, not {options.style!r}")
    lines = ctx.lines
    for _, lst in ctx.lists:
        points = [node for node in lst.items if node.is_point]
        if not points:
            continue
        actual = [node.number or "0" for node in points]
        values = [int(number) for number in actual]
        first = options.start if options.start is not None else values[0]
        style = options.style
        if style == "one_or_ordered":
            style = "one" if len(values) > 1 and values[1] == values[0] else "ordered"
        wanted = [first] * len(values) if style == "one" else [first + index for index in range(len(values))]
        if values == wanted:
            continue  # "01. 02." counts as written
        expected = [str(want) for want in wanted]
        edits: list[Edit] = []
        for node, want in zip(points, expected, strict=True):
            if int(node.number or 0) == int(want):
                continue
            line = lines[node.span.start - 1]
            col = node.col - 1
            if line[col : col + len(node.number or "")] == node.number:
                start = ctx.offset(node.span.start, node.col)
                edits.append(Edit(start, start + len(node.number or ""), want))
        first_bad = next(i for i, (a, b) in enumerate(zip(values, wanted, strict=True)) if a != b)
        node = points[first_bad]
        if first_bad == 0:
            message = f"points start at {actual[0]}, not {expected[0]}"
        elif style == "one":
            message = f"point {actual[first_bad]} in a list numbered {expected[0]}. {expected[0]}. {expected[0]}."
        else:
            message = f"points jump from {actual[first_bad - 1]} to {actual[first_bad]}"
        fix = Fix("renumber points " + ", ".join(expected), tuple(edits)) if edits else None
        yield Report(node.span.start, node.col, message, fix)
