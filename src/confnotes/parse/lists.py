"""Markdown lists to ``List``s of item nodes, nested lists and blocks kept in source order, without recursion."""

from __future__ import annotations

import re
from typing import Any

from confnotes.model import ITEM, List, Span
from confnotes.parse import recover
from confnotes.parse.blocks import make_block, paragraph_block
from confnotes.parse.glyphs import GlyphRun
from confnotes.parse.lines import after_close
from confnotes.parse.state import ParseState
from confnotes.parse.tree import ListBuilder, NodeBuilder

_MARKER = re.compile(r"([ \t]*)(\d{1,9}[.)]|[-*+])(?=[ \t]|$)[ \t]*")


def glyph_run(state: ParseState, item: NodeBuilder) -> GlyphRun:
    """The item's open run of pasted bullets (one is started if none is open)."""
    if item.glyphs is None:
        item.glyphs = GlyphRun(state.lines, item.level + 1, item.add, state.recovered)
    return item.glyphs  # type: ignore[return-value]


def read_list(state: ParseState, tokens: list[Any], start: int, stop: int, base_level: int) -> List:
    """The ``List`` of tokens ``[start, stop)`` (one ``*_list_open`` … ``*_list_close``)."""
    items: list[NodeBuilder] = []
    lists: list[ListBuilder] = []
    levels: list[int] = []  # token level of each open list, to tell its own paragraphs
    content_cols: list[int] = [0]
    result: List | None = None
    index = start
    while index < stop:
        token = tokens[index]
        kind = token.type
        if kind == "paragraph_open":  # the commonest token inside lists
            if not token.hidden and token.level == levels[-1] + 2:
                lists[-1].tight = False
            item_paragraph(state, tokens, index, items[-1])
            index += 3
            continue
        if kind == "list_item_open":
            builder = _open_item(state, token, lists[-1], content_cols[-1], base_level + len(items))
            items.append(builder)
            content_cols.append(builder.content_col)
        elif kind == "list_item_close":
            done = items.pop()
            content_cols.pop()
            lists[-1].items.append(done.freeze())
        elif kind == "bullet_list_open" or kind == "ordered_list_open":
            if items:
                items[-1].end_glyphs()
            ordered = kind == "ordered_list_open"
            first = tokens[index + 1]
            lists.append(ListBuilder(ordered, first.info if ordered else None, token.markup))
            levels.append(token.level)
        elif kind == "bullet_list_close" or kind == "ordered_list_close":
            levels.pop()
            done_list = lists.pop().freeze()
            if items:
                items[-1].add(done_list)
                items[-1].has_block = True
            else:
                result = done_list
        elif token.nesting == 1 or token.nesting == 0:
            index = _item_block(state, tokens, index, items[-1])
            continue
        index += 1
    assert result is not None
    return result


def _open_item(state: ParseState, token: Any, current: ListBuilder, parent_col: int, level: int) -> NodeBuilder:
    """The item a ``list_item_open`` starts: its marker's column, number or bullet, and indent."""
    a = token.map[0]
    line = state.lines[a]
    match = _MARKER.match(line, parent_col) or _MARKER.match(line)
    marker_col = match.start(2) if match else 0
    return NodeBuilder(
        ITEM,
        "",
        a + 1,
        a + 1,
        "list",
        level,
        col=marker_col + 1,
        number=token.info if current.ordered else None,
        delimiter=current.marker if current.ordered else None,
        marker=None if current.ordered else current.marker,
        indent=recover.tab_width(line[:marker_col]) if marker_col else 0,
        content_col=_content_col(line, match),
    )


def _content_col(line: str, match: re.Match[str] | None) -> int:
    """Where an item's content starts: after the marker and its spaces, or, when nothing follows the
    marker on its line, one column after it (CommonMark: content on the next lines is indented so)."""
    if match is None:
        return 0
    return match.end() if line[match.end() :].strip() else match.end(2) + 1


def _item_block(state: ParseState, tokens: list[Any], index: int, item: NodeBuilder) -> int:
    """A block inside a list item (code, quote, table, …; pasted bullets feed the item's glyph run);
    returns the index after it."""
    token = tokens[index]
    close = after_close(tokens, index)
    block_kind = token.type.removesuffix("_open")
    if block_kind == "code_block" and state.all_glyphs(*token.map):
        glyph_run(state, item).feed(token.map[0], token.map[1])
        item.has_block = True
        return close
    first_col = item.content_col if token.map and token.map[0] + 1 == item.start else 0
    block = make_block(state.lines, tokens, index, block_kind, state.options.note_lines, item.content_col, first_col)
    item.end_glyphs()
    if block.kind == "directive":
        state.directives.append(block)
        item.grow(block.span)  # it stands inside the item: fmt writes it back there
    else:
        item.add(block)
    item.has_block = True
    return close


#: what markdown-it trims from a line's end (as JavaScript's ``trim``) that is the author's text: a
#: no-break space (a word processor's ``&nbsp;`` before a line end, kept by fmt as every character is)
_KEPT_SPACES = "\u00a0\u202f"


def kept_tail(content: str, line: str) -> str:
    """``content`` (markdown-it's text of a line, trimmed) with the no-break spaces ``line`` ends in."""
    end = line.rstrip(" \t\r")
    tail = end[len(end.rstrip(_KEPT_SPACES)) :]
    return content + tail if tail and not content.endswith(tail) else content


def item_paragraph(state: ParseState, tokens: list[Any], index: int, item: NodeBuilder) -> None:
    """A paragraph inside a list item: the item's title if it comes first, else a block (or pasted bullets)."""
    a, b = tokens[index].map
    inline = tokens[index + 1]
    glyph_lines = state.has_glyph_line(a, b)
    lines = state.lines
    if not item.has_block:
        item.has_block = True
        if not glyph_lines:
            item.title = kept_tail(inline.content, lines[b - 1])
            item.end = max(item.end, b)
            return
        first_line = a + 1 == item.start
        if first_line and recover.is_glyph_line(lines[a][item.content_col :]):
            # "- • text": the glyph is doubled bullet syntax; the rest is the title
            bullet = recover.glyph_bullet(lines[a][item.content_col :])
            item.title = bullet[2] if bullet else ""
            a += 1
            first_line = False
        elif first_line:
            # "1) Point" directly followed by pasted bullets: the title is the text after the marker
            item.title = lines[a][item.content_col :].strip()
            a += 1
        lead = glyph_run(state, item).feed(a, b)
        if lead and (first_line or not item.title):
            item.title = "\n".join([item.title, *lead]).strip("\n")
        elif lead:
            item.add(paragraph_block("\n".join(lead), Span(a + 1, a + len(lead)), False))
        return
    if glyph_lines:
        lead = glyph_run(state, item).feed(a, b)
        if lead:
            item.add(paragraph_block("\n".join(lead), Span(a + 1, a + len(lead)), False))
        return
    item.end_glyphs()
    item.add(make_block(lines, tokens, index, "paragraph", state.options.note_lines, item.content_col))
