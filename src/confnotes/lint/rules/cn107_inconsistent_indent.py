"""CN107 inconsistent-indent: sibling items start at different columns (block quotes included)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.lint.types import Edit, Fix, LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    fixable=True,
    summary="Sibling items are indented differently",
    rationale="Indentation decides nesting. Siblings at different columns are one keystroke away "
    "from becoming a child of the item above, in pasted notes as much as in Markdown.",
    bad="- Alpha\n - Beta\n",
    good="- Alpha\n- Beta\n",
    fix_note="Re-indents single-line items to their first sibling's column (safe); items spanning "
    "several lines, and lists inside block quotes, are reported but left alone.",
)


Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    lines = ctx.lines
    for _, children in ctx.parents:
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
            _message(odd.indent, want),
            Fix(f"indent sibling items by {want}", tuple(edits)) if edits else None,
        )
    yield from _quoted(ctx)


def _message(indent: int, want: int) -> str:
    return f"item indented {indent} column{'s' if indent != 1 else ''}; its siblings use {want}"


#: A line's block-quote markers (``> > ``), the indent after them and an item's number or bullet.
_QUOTED_ITEM = re.compile(r"^((?: {0,3}>[ \t]?)+)([ \t]*)(\d*)")


def _quoted(ctx: LintContext) -> Iterator[Report]:
    """Lists inside block quotes: the outline keeps a quote as one block, so its lists are read
    here from markdown-it's tokens of the quote's lines."""
    if ">" not in ctx.text:
        return
    from confnotes.parse.markdown import markdown_parser

    for kind, text, first, _ in ctx.texts:
        if kind != "quote":
            continue
        source = "\n".join(ctx.lines[first - 1 : first + text.count("\n")])
        stack: list[list[tuple[int, int, int, int]]] = []  # per open list: (line, col, indent, number width)
        for token in markdown_parser(source).parse(source):
            if token.type in ("bullet_list_open", "ordered_list_open"):
                stack.append([])
            elif token.type == "list_item_open" and token.map and stack:
                line = first + token.map[0]
                match = _QUOTED_ITEM.match(ctx.lines[line - 1])
                if match:
                    stack[-1].append((line, match.end(2) + 1, len(match.group(2).expandtabs(4)), len(match.group(3))))
            elif token.type in ("bullet_list_close", "ordered_list_close") and stack:
                siblings = stack.pop()
                if len({indent for _, _, indent, _ in siblings}) < 2:
                    continue
                if len({indent + width for _, _, indent, width in siblings}) == 1 and all(w for *_, w in siblings):
                    continue  # right-aligned numbers
                want = siblings[0][2]
                line, col, indent, _ = next(s for s in siblings if s[2] != want)
                yield Report(line, col, _message(indent, want))
