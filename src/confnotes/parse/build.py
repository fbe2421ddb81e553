"""Tokens to the outline model: the assembler behind ``parse(text) -> Document``.

The token stream is grouped into top-level blocks (``blocks.split_top``), paragraphs get
their roles (``headings.classify``), and the assembler places each block, in source
order, into the content of the open section (or the document's lede), dispatching on the
block's kind from one table. Lists are read by ``lists``, pasted bullets by ``glyphs``,
meta and the title by ``meta``. No recursion: time is linear in the input and deep nesting
cannot overflow Python's stack.
"""

from __future__ import annotations

import gc
import itertools
from collections.abc import Callable
from dataclasses import replace
from operator import attrgetter
from typing import Any

from confnotes.edges.source import Source
from confnotes.errors import input_error
from confnotes.model import ITEM, SECTION, Block, Document, Entry, List, Node, Span
from confnotes.parse import incremental, recover
from confnotes.parse.blocks import Top, make_block, paragraph_block, split_top
from confnotes.parse.glyphs import glyph_lists
from confnotes.parse.headings import classify, next_block
from confnotes.parse.lines import span_of, verbatim
from confnotes.parse.lists import kept_tail, read_list
from confnotes.parse.markdown import MAX_DEPTH
from confnotes.parse.meta import NotFrontMatter, build_meta, find_title, read_front_matter
from confnotes.parse.reuse import Reuse
from confnotes.parse.state import ParseOptions, ParseState
from confnotes.parse.tree import NodeBuilder

__all__ = ["ParseOptions", "parse", "parse_source"]


def _breaks_run(lines: list[str], index: int, stop: int) -> bool:
    """A plain line among pasted bullets that starts a block of its own rather than continuing the
    bullet above (Docs and Word pastes have no blank lines): a session line, a ``Speaker:`` line, or
    a title-case heading line right above more bullets."""
    line = lines[index]
    if not line.strip() or recover.tab_width(line) > 0:
        return False
    if recover.is_session_line(line) or recover.is_known_label_line(line) or recover.is_chat_header(line):
        return True
    following = next((lines[i] for i in range(index + 1, stop) if lines[i].strip()), None)
    return (
        following is not None
        and recover.is_glyph_line(following)
        and recover.is_heading_candidate(line)
        and recover.is_title_case(line)
        and len(line.split()) >= 2
    )


def _own_line(line: str, first: bool) -> bool:
    """A plain line of a paste that stands as a paragraph of its own: a session or label line, or
    the paste's first line when it reads as a heading (its title)."""
    return recover.is_session_line(line) or recover.is_known_label_line(line) or (first and recover.is_heading_candidate(line))


def _plain_tops(state: ParseState, top: Top, a: int, b: int, opening: bool) -> list[Top]:
    """Plain lines ``[a, b)`` of a paste: session, label and title lines alone, the rest one paragraph."""
    lines = state.lines
    out: list[Top] = []
    group: list[int] = []

    def flush() -> None:
        if group:
            text = "\n".join(lines[i].strip() for i in group)
            out.append(Top("paragraph", top.start, top.stop, group[0], group[-1] + 1, content=text, lead=True))
            group.clear()

    for index in range(a, b):
        if not lines[index].strip():
            continue
        first = opening and index == a and b - a > 1
        if recover.is_chat_header(lines[index]):
            flush()  # "Sam Lee  10:45 AM" opens a message: its lines are one paragraph with it
            group.append(index)
        elif _own_line(lines[index], first) or _breaks_run(lines, index, top.b):
            flush()
            group.append(index)
            flush()
        else:
            group.append(index)
    flush()
    return out


def split_glyph_paragraphs(state: ParseState, blocks: list[Top]) -> list[Top]:
    """A top-level paragraph with pasted bullets becomes its plain lines and its runs of bullets,
    in order; a plain line that continues the bullet above it stays in that bullet."""
    out: list[Top] = []
    lines = state.lines
    for top in blocks:
        if top.kind == "code_block" and state.all_glyphs(top.a, top.b):
            if out and out[-1].kind == "glyph":
                out[-1].b = top.b
                continue
            top.kind, top.role = "glyph", "glyph"
            out.append(top)
            continue
        if top.kind != "paragraph" or _attribution(lines, top, out):
            out.append(top)
            continue
        first_glyph = state.first_glyph_line(top.a, top.b)
        if first_glyph is None:
            out.append(top)
            continue
        if first_glyph > top.a:
            out += _plain_tops(state, top, top.a, first_glyph, opening=True)
        run_start = first_glyph
        index = first_glyph
        while index < top.b:
            if recover.is_glyph_line(lines[index]) or not _breaks_run(lines, index, top.b):
                index += 1
                continue
            plain_end = index
            while plain_end < top.b and not recover.is_glyph_line(lines[plain_end]):
                plain_end += 1
            _add_glyph_run(out, top, run_start, index, top.a)
            out += _plain_tops(state, top, index, plain_end, opening=False)
            run_start = index = plain_end
        if run_start < top.b:
            _add_glyph_run(out, top, run_start, top.b, top.a)
    return out


def _attribution(lines: list[str], top: Top, before: list[Top]) -> bool:
    """A quote's attribution: one line that starts with a dash (``— Maya Okafor``) right under a
    quote, which stays a paragraph (pandoc and Markdown writers set it so), not a pasted bullet."""
    return top.b - top.a == 1 and bool(before) and before[-1].kind == "blockquote" and lines[top.a].lstrip().startswith(("—", "―", "–"))


def _add_glyph_run(out: list[Top], top: Top, a: int, b: int, paragraph_start: int) -> None:
    if a == paragraph_start and out and out[-1].kind == "glyph":
        out[-1].b = b  # blank-separated pasted bullets are one run
        return
    out.append(Top("glyph", top.start, top.stop, a, b, role="glyph"))


class Assembler:
    """Places top-level blocks, in order, into the open section's content or the lede."""

    def __init__(
        self, state: ParseState, tokens: list[Any], blocks: list[Top], title_block: Top | None, reuse: Reuse | None = None
    ) -> None:
        self.state = state
        self.reuse = reuse  # a tracked note's last reading's sections (parse.reuse)
        self.tokens = tokens
        self.blocks = blocks
        self.title_block = title_block
        self.root: list[Entry] = []
        self.sections: list[NodeBuilder] = []
        self.breaks: list[Block] = []
        self.source_name: str | None = None
        self.source_span: Span | None = None
        self.absorbed = False  # this block was taken in by the point above it (pasted bullets, a bold point)
        self.after_absorbed = False  # the previous block was
        self.talk_points_seen: set[int] = set()  # first lines of points that took the bullets below them
        self.open_divs = 0  # fenced divs open here (:::: columns): a line in one never becomes a heading

    # ------------------------------------------------------------ where entries go

    def container(self) -> list[Entry]:
        return self.sections[-1].content if self.sections else self.root

    def add(self, entry: Entry) -> None:
        if self.sections:
            self.sections[-1].add(entry)
        else:
            self.root.append(entry)

    def replace_last(self, entry: Entry) -> None:
        container = self.container()
        container[-1] = entry
        if self.sections:
            self.sections[-1].grow(entry.span)

    def close_sections(self, level: int) -> None:
        while self.sections and self.sections[-1].level >= level:
            builder = self.sections.pop()
            node = builder.freeze()
            if builder.recording is not None:
                self.reuse.record(builder.recording, node, self.state, self.breaks)  # type: ignore[union-attr, arg-type]
            self.add(node)

    def last_point_list(self) -> List | None:
        """The list just placed, when it is numbered: pasted bullets after it belong to its last point."""
        container = self.container()
        if container and type(container[-1]) is List and container[-1].ordered:
            return container[-1]
        return None

    # ------------------------------------------------------------ handlers

    def run(self) -> list[Entry]:
        handlers: dict[str, Callable[[int, Top], int | None]] = {
            "heading": self.on_heading,
            "hr": self.on_break,
            "bullet_list": self.on_list,
            "ordered_list": self.on_list,
            "glyph": self.on_glyphs,
            "paragraph": self.on_paragraph,
            "reference": self.on_reference,
        }
        if self.reuse is not None:
            handlers["heading"] = self.reusing
        blocks, tokens, lines = self.blocks, self.tokens, self.state.lines
        freed = freed_lines = position = 0
        while position < len(blocks):
            top = blocks[position]
            after = position + 1
            if top is not self.title_block:
                self.after_absorbed, self.absorbed = self.absorbed, False
                after = handlers.get(top.kind, self.on_block)(position, top) or after  # a section reused: past it
            if after >= len(blocks):
                break
            # The tokens and source lines before the next block's are read no more (handlers look
            # ahead, never back; the outline holds its own text): let them go, so a big note's
            # tokens, its lines and its outline are not all held at once.
            following = blocks[after]
            if following.start > freed:
                tokens[freed : following.start] = itertools.repeat(None, following.start - freed)
                freed = following.start
            if following.a > freed_lines:
                lines[freed_lines : following.a] = itertools.repeat(None, following.a - freed_lines)  # type: ignore[arg-type]
                freed_lines = following.a
            position = after
        self.close_sections(0)
        return self.root

    def reusing(self, position: int, top: Top) -> int:
        """A Markdown heading in a tracked note: the section it opens as the last reading assembled it,
        when it is clean and unchanged (``parse.reuse``), else read and recorded for the next reading.
        The position of the block after what was placed."""
        reuse = self.reuse
        assert reuse is not None
        key = reuse.key(position, self.state)
        kept = reuse.found(key, top.a) if key is not None else None
        if kept is None:
            self.on_heading(position, top)
            if key is not None:
                self.sections[-1].recording = reuse.recording(key, top.a, self.state, self.breaks)
            return position + 1
        self.open_divs = 0
        self.close_sections(top.level)
        self.add(kept.node)
        self.state.recovered |= kept.recovered
        self.state.directives += kept.directives
        self.breaks += kept.breaks
        return reuse.end(position)

    def on_heading(self, _position: int, top: Top) -> None:
        inferred = top.kind == "paragraph"
        level = 2 if inferred else top.level
        if inferred and recover.is_talk_part(top.content) and self.in_talk():
            level = 3  # a bare "Q&A" after a talk among talks: that talk's questions, not a talk
        origin = "inferred" if inferred else ("setext" if top.markup in ("=", "-") else "atx")
        if inferred:
            self.state.recovered.add("inferred-headings")
        self.open_divs = 0  # a heading ends every div (parse.divs pairs fences within a section)
        self.close_sections(level)
        span = span_of(self.state.lines, top.a, top.b)
        last = top.b - 2 if origin == "setext" else top.b - 1  # the title's last line (a setext one's is above its underline)
        title = kept_tail(top.content, self.state.lines[last]) if origin != "inferred" and last >= top.a else top.content
        if inferred and (wrapped := recover.emphasised_title(title)) is not None and "\n" not in wrapped[1]:
            title = wrapped[1]  # a bare bold line read as a heading: its title is the words, the bold its look
        self.sections.append(NodeBuilder(SECTION, title, span.start, span.end, origin, level))

    def in_talk(self) -> bool:
        """Whether the innermost open section is a talk at level 2 (``recover.names_talk``)."""
        section = self.sections[-1] if self.sections else None
        if section is None or section.level != 2:
            return False
        first = section.content[0] if section.content else None
        return recover.names_talk(section.title, first.text if type(first) is Block else "")

    def on_break(self, position: int, top: Top) -> None:
        lines = self.state.lines
        span = span_of(lines, top.a, top.b)
        following = self.blocks[position + 1] if position + 1 < len(self.blocks) else None
        block = Block("break", verbatim(lines, top.a, top.b), span)
        if following is None or following.kind == "heading" or following.role in ("heading", "bold-heading"):
            self.breaks.append(replace(block, text=block.text.strip()))
            if self.sections:
                self.state.recovered.add("breaks")
        else:
            self.add(block)

    def on_list(self, position: int, top: Top) -> None:
        previous = self.last_point_list()
        if self.after_absorbed and previous is not None and previous.items[-1].origin == "bold":
            self.add_to_last_point(previous, read_list(self.state, self.tokens, top.start, top.stop, 2))
            return
        if previous is not None and top.kind == "bullet_list" and self.talk_points(position, previous):
            # "1. Talk title" with bullets below it, unindented (an e-mail, a chat): the talk's own points
            self.state.recovered.add("numbered-talks")
            self.talk_points_seen.add(previous.items[-1].span.start)
            self.add_to_last_point(previous, read_list(self.state, self.tokens, top.start, top.stop, 2))
            return
        new = read_list(self.state, self.tokens, top.start, top.stop, 1)
        if self.after_absorbed and previous is not None and new.ordered and new.marker == previous.marker:
            # the pasted bullets that split these numbers were taken into the point above: one list again
            self.replace_last(
                replace(
                    previous,
                    items=previous.items + new.items,
                    span=Span(previous.span.start, new.span.end),
                    tight=previous.tight and new.tight,
                )
            )
            return
        self.add(new)

    def talk_points(self, position: int, previous: List) -> bool:
        """Whether bullets right after a numbered list belong to its last point: the numbers go on
        after them (``1.`` bullets ``2.``), or the point before took its bullets the same way."""
        last = previous.items[-1]
        if previous.origin != "list" or any(type(entry) is List for entry in last.content):
            return False
        if len(previous.items) >= 2 and previous.items[-2].span.start in self.talk_points_seen:
            return True
        following = self.blocks[position + 1] if position + 1 < len(self.blocks) else None
        if following is None or following.kind != "ordered_list" or not (last.number or "").isdigit():
            return False
        token = self.tokens[following.start]
        start = token.attrGet("start") if hasattr(token, "attrGet") else None
        return int(start or 1) == int(last.number or 0) + 1 and (token.markup or ".") == (previous.marker or ".")

    def on_glyphs(self, _position: int, top: Top) -> None:
        previous = self.last_point_list()
        if previous is not None:
            # pasted bullets right after a numbered point are its own, one level below it
            point = previous.items[-1]
            _, lists = glyph_lists(self.state.lines, top.a, top.b, point.level + 1, self.state.recovered)
            self.add_to_last_point(previous, *lists)
            return
        _, lists = glyph_lists(self.state.lines, top.a, top.b, 1, self.state.recovered)
        for lst in lists:
            self.add(lst)

    def add_to_last_point(self, previous: List, *lists: List) -> None:
        """Append ``lists`` to the content of the last point of ``previous`` (the list just placed)."""
        point = previous.items[-1]
        end = max(point.span.end, *(lst.span.end for lst in lists))
        point = replace(point, content=point.content + lists, span=Span(point.span.start, end))
        self.replace_last(replace(previous, items=(*previous.items[:-1], point), span=Span(previous.span.start, end)))
        self.absorbed = True

    def on_paragraph(self, position: int, top: Top) -> None:
        state = self.state
        lines = state.lines
        role = top.role
        if self.open_divs and role in ("heading", "bold-heading", "bold-point"):
            role = "group" if role == "bold-heading" and self.heads_list(position) else ""  # a column's own lines stay in it
        if role == "heading":
            self.on_heading(position, top)
            return
        if role == "filename" and self.source_name is None:
            self.source_name = top.content.strip()
            self.source_span = span_of(lines, top.a, top.b)
            state.recovered.add("filename-line")
            return
        if role == "bold-point":
            self.on_bold_point(position, top)
            return
        if role == "bold-heading" and self.on_bold_heading(position, top):
            return
        span = span_of(lines, top.a, top.b)
        if top.lead:
            block = paragraph_block(top.content, span, state.options.note_lines)
        else:
            block = make_block(lines, self.tokens, top.start, "paragraph", state.options.note_lines)
        if role == "group" or (role == "bold-heading" and self.heads_list(position)):
            block = replace(block, info="group")
        elif role == "speakers":
            block = replace(block, info="speakers")  # the line naming a talk's speakers, under its title
        self.add(block)

    def on_bold_heading(self, _position: int, top: Top) -> bool:
        """``**Q&A**`` over what it heads, in a note with headings: a sub-section one level below the
        section it stands in (in the lede, below the title), holding what follows up to the next bold
        topic line or heading of its level or higher. Its title is the text inside the ``**``, and its
        marker the ``**`` or ``__`` it was written with, so fmt writes the bold line back. False when
        that level would pass Markdown's deepest (6): the line stays a paragraph."""
        line = self.state.lines[top.a]
        text = "\n".join(part.strip() for part in self.state.lines[top.a : top.b])  # a talk's title may wrap
        found = recover.emphasised_title(text)
        marker, inner = found if found is not None else (text[:2], text[2:-2])
        # the section it stands in: one the author headed, or a bold session line standing as a peer of one
        author = next((section for section in reversed(self.sections) if section.origin != "bold" or section.peer), None)
        peer = author is not None and recover.is_session_line(author.title) and recover.is_session_line(inner.strip())
        if peer:
            level = author.level  # type: ignore[union-attr]  # **Talk: B** after ## Talk: A is A's peer, not a part of it
        else:
            parent = author.level if author is not None else None
            if parent is None:
                title = self.title_block
                parent = title.level if title is not None and title.kind == "heading" else 1
            level = parent + 1
        if level > 6:
            return False
        self.close_sections(level)
        span = span_of(self.state.lines, top.a, top.b)
        col = len(line) - len(line.lstrip()) + 1
        builder = NodeBuilder(SECTION, inner.strip(), span.start, span.end, "bold", level, col=col, marker=marker)
        if peer:
            builder.peer = True
        self.sections.append(builder)
        self.state.recovered.add("bold-headings")
        return True

    def heads_list(self, position: int) -> bool:
        """Whether a list comes next (comments aside): a bold line left a paragraph then heads it."""
        following = next_block(self.blocks, position)
        return following is not None and following.kind in ("bullet_list", "ordered_list")

    def on_bold_point(self, _position: int, top: Top) -> None:
        """``**1. Why Rust?**`` becomes point 1, with the list right below it as its own."""
        number, delimiter, title = recover.bold_point(top.content)  # type: ignore[misc]
        self.state.recovered.add("bold-points")
        span = span_of(self.state.lines, top.a, top.b)
        point = Node(ITEM, title, span, "bold", 1, 1, number, delimiter, None, recover.split_label(title), ())
        previous = self.last_point_list()
        if previous is not None and previous.items[-1].origin == "bold" and previous.marker == delimiter:
            self.replace_last(replace(previous, items=(*previous.items, point), span=Span(previous.span.start, span.end)))
        else:
            self.add(List((point,), span, True, number, delimiter, True, "bold"))
        self.absorbed = True  # the list below joins the point

    def on_reference(self, _position: int, top: Top) -> None:
        lines = self.state.lines
        self.add(Block("reference", verbatim(lines, top.a, top.b), span_of(lines, top.a, top.b)))

    def on_block(self, _position: int, top: Top) -> None:
        block = make_block(self.state.lines, self.tokens, top.start, top.kind, self.state.options.note_lines)
        if block.kind == "div":
            self.open_divs = max(0, self.open_divs + (-1 if block.info == "end" else 1))
        if block.kind == "directive":
            self.state.directives.append(block)
            return
        self.add(block)


_NESTS = {"bullet_list_open": 1, "ordered_list_open": 1, "blockquote_open": 1, "bullet_list_close": -1, "ordered_list_close": -1}


def _check_nesting(tokens: list[Any], path: str) -> None:
    """Lists and quotes nested deeper than ``MAX_DEPTH`` levels, counted together, are refused, not
    silently cut off (markdown-it keeps room for that many: ``MAX_NESTING``)."""
    # an opening token's level counts the containers around it, each list twice (list and item), so
    # a list or quote opened past MAX_DEPTH stands at a level of MAX_DEPTH or more: with none, the
    # count below (5 ms on a 5,000-line note, at every key the editor reads it) cannot refuse
    if max(map(attrgetter("level"), tokens), default=0) < MAX_DEPTH:
        return
    depth = quotes = 0
    for token in tokens:
        if token.type == "blockquote_close":
            depth, quotes = depth - 1, quotes - 1
            continue
        depth += _NESTS.get(token.type, 0)
        quotes += token.type == "blockquote_open"
        if depth > MAX_DEPTH and token.type.endswith("_open"):
            line, col = (token.map[0] + 1, 1) if token.map else (None, None)
            if quotes == depth:
                raise input_error(f"quotes nested deeper than {MAX_DEPTH} levels; flatten them", path, line, col)
            raise input_error(f"nesting deeper than {MAX_DEPTH} levels; flatten the list or quote", path, line, col)


def _reuse(path: str, options: ParseOptions, blocks: list[Top], title_block: Top | None) -> Reuse | None:
    """For a note the editor has open, the sections of its last reading (``parse.reuse``)."""
    return Reuse(incremental.sections(path), options, blocks, title_block) if incremental.tracked(path) else None


def _assembled(assembler: Assembler, text: str) -> list[Entry]:
    content = assembler.run()
    reuse = assembler.reuse
    if reuse is not None:  # kept for the next reading only once this one is whole
        incremental.keep_sections(assembler.state.path, reuse.memo())
        incremental.last_reading.update(sections_taken=reuse.taken, sections_clean=len(reuse.ends))
    if ":::" in text:  # fenced divs pair up within each content sequence (parse.divs)
        from confnotes.parse.divs import pair_all

        content = list(pair_all(tuple(content)))
    return content


def _parse(text: str, path: str, options: ParseOptions) -> Document:
    try:
        tokens = incremental.tokens(text, path)  # markdown-it's, reusing a tracked note's last reading
    except RecursionError:
        raise input_error("notes nested too deeply to read", path, 1, 1) from None
    _check_nesting(tokens, path)
    state = ParseState(text, path, options)  # its lines are made once markdown-it's line tables are gone
    blocks = split_top(tokens, state.lines)
    fm: dict[str, Any] = {}
    fm_span: Span | None = None
    fm_text: str | None = None
    if blocks and blocks[0].kind == "front_matter":
        token = tokens[blocks[0].start]
        try:
            fm, fm_span = read_front_matter(state, token)
        except NotFrontMatter:
            # text between two rules, not YAML: read it as the note's text (the rules dropped, lines kept)
            lines = list(state.lines)
            first, stop = token.map or (0, 0)
            lines[first] = lines[stop - 1] = ""
            doc = _parse("\n".join(lines), path, options)
            return replace(doc, recovered=tuple(sorted({*doc.recovered, "front-matter-text"})))
        fm_text = token.content
        blocks = blocks[1:]
    blocks = split_glyph_paragraphs(state, blocks)
    classify(tokens, blocks, state, fm["title"].strip() if isinstance(fm.get("title"), str) else "")
    email = next((top for top in blocks if top.role == "email"), None)
    if email is not None and "date" not in fm:
        date = (recover.email_headers(email.content) or {}).get("date") or (recover.email_headers(email.content) or {}).get("sent")
        if date:
            fm = {**fm, "date": date}  # a pasted e-mail's Date: header dates the note
    title_text, title_origin, title_span, title_block = find_title(state, blocks, fm)
    assembler = Assembler(state, tokens, blocks, title_block, _reuse(path, options, blocks, title_block))
    content = _assembled(assembler, text)
    source_name = fm.get("source_name", assembler.source_name)
    source_span = assembler.source_span if "source_name" not in fm else None
    title_level = title_block.level if title_block is not None and title_block.level else 1
    marker = ""
    if title_origin in ("heading", "inferred") and (wrapped := recover.emphasised_title(title_text)) and "\n" not in wrapped[1]:
        # "# **Title**", or a bold first line: the emphasis is presentation (a title pasted bold)
        marker, title_text = wrapped
    meta = build_meta(
        fm, fm_span, fm_text, (title_text, title_origin, title_span, title_level), source_name, source_span, content, options.lang
    )
    if marker:
        meta = replace(meta, title_marker=marker)
    lines = state.lines
    return Document(
        path=path,
        meta=meta,
        content=tuple(content),
        breaks=tuple(assembler.breaks),
        directives=tuple(sorted(state.directives, key=lambda block: block.span.start)),
        line_count=len(lines) - (1 if lines and lines[-1] == "" else 0),
        recovered=tuple(sorted(state.recovered)),
    )


def parse(text: str, path: str = "<string>", options: ParseOptions | None = None) -> Document:
    """Build the outline of a note's text; raises ``NotesError`` for notes it cannot read.

    Parsing allocates many small objects and no reference cycles worth collecting, so the
    cyclic garbage collector is paused meanwhile: on a 4 MB note its passes otherwise cost
    as much as the parse and make time grow faster than the input.
    """
    if "\r" in text:  # markdown-it ends lines at CR too; source.decode normalises, but text may come from anywhere
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _parse(text, path, options or ParseOptions())
    finally:
        if was_enabled:
            gc.enable()


def parse_source(source: Source, options: ParseOptions | None = None) -> Document:
    return parse(source.text, source.path, options)
