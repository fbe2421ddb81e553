"""CN107 inconsistent-indent: sibling items start at different columns."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.rules._util import sibling_groups
from confnotes.lint.types import Edit, Fix, LintContext, NoOptions, Report, RuleMeta

META = RuleMeta(
    id="CN107",
    name="inconsistent-indent",
    severity="warning",
    tags=("structure",),
    fixable=True,
    summary="Sibling items are indented differently",
    rationale="Indentation decides nesting. Siblings at different columns are one keystroke away "
    "from becoming a child of the item above, in pasted notes as much as in Markdown.",
    bad="- Alpha\n - Beta\n",
    good="- Alpha\n- Beta\n",
    fix_note="Re-indents single-line items to their first sibling's column (safe); items spanning "
    "several lines are reported but left alone.",
)


Options = NoOptions


def check(ctx: LintContext, options: Options) -> Iterator[Report]:
    lines = ctx.lines
    for _, children in sibling_groups(ctx):
        items = [n for n in children if not n.is_section]
        if len({n.indent for n in items}) < 2:
            continue
        if all(n.is_point for n in items) and len({n.indent + len(n.number or "") for n in items}) == 1:
            continue  # right-aligned numbers (" 9." over "10."): the text lines up, as intended
        want = items[0].indent
        edits = []
        for node in items:
            if node.indent == want:
                continue
            line = lines[node.span.start - 1]
            lead = len(line) - len(line.lstrip(" \t"))
            if node.span.start == node.span.end and lead == node.col - 1 and "\t" not in line[:lead]:
                start = ctx.offset(node.span.start, 1)
                edits.append(Edit(start, start + lead, " " * want))
        odd = next(n for n in items if n.indent != want)
        yield Report(
            odd.span.start,
            odd.col,
            f"item indented {odd.indent} column{'s' if odd.indent != 1 else ''}; its siblings use {want}",
            Fix(f"indent sibling items by {want}", tuple(edits)) if edits else None,
        )
