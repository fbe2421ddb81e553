"""Tokens to the outline model: the builder behind ``parse(text) -> Document``.

The builder walks markdown-it's flat token stream once, with explicit stacks instead
of recursion, so time is linear in the input and deep nesting cannot overflow Python's
stack. markdown-it's ``token.map`` is 0-based and half-open; spans are converted to
1-based inclusive lines here and nowhere else.
"""

from __future__ import annotations

import gc
import re
from bisect import bisect_left
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Any

from confnotes.errors import input_error
from confnotes.model import ITEM, SECTION, Block, Document, Meta, Node, Span
from confnotes.parse import recover
from confnotes.parse.markdown import MAX_NESTING, markdown_parser
from confnotes.source import Source

_MARKER = re.compile(r"([ \t]*)(\d{1,9}[.)]|[-*+])(?=[ \t]|$)[ \t]*")
_COMMENT = re.compile(r"^\s*<!--")
_DIRECTIVE = re.compile(r"^\s*<!--\s*confnotes-")
#: Pasted bullets nested deeper than this are kept, as siblings at this depth.
MAX_GLYPH_DEPTH = 32
_KNOWN_META = {"title", "event", "date", "speakers", "speaker", "author", "authors", "tags", "lang", "source_name", "kind"}


@dataclass(frozen=True, slots=True)
class ParseOptions:
    """How much structure to recover. ``infer_headings``: auto (pasted notes only), always, never."""

    max_heading_length: int = recover.DEFAULT_MAX_HEADING
    infer_headings: str = "auto"


# ---------------------------------------------------------------- helpers


def _last_content_line(lines: list[str], start: int, stop: int) -> int:
    """0-based index of the last non-blank line in ``lines[start:stop]`` (``start`` if none)."""
    for index in range(min(stop, len(lines)) - 1, start - 1, -1):
        if lines[index].strip():
            return index
    return start


def _span(lines: list[str], start: int, stop: int) -> Span:
    return Span(start + 1, _last_content_line(lines, start, stop) + 1)


def _strip_indent(line: str, width: int) -> str:
    """Remove up to ``width`` leading spaces or tabs (a container's content indentation)."""
    index = 0
    while index < len(line) and index < width and line[index] in " \t":
        index += 1
    return line[index:]


def _verbatim(lines: list[str], start: int, stop: int, strip: int = 0, first_col: int = 0) -> str:
    """Source lines ``[start, stop)`` without trailing blank lines or the container's indentation.

    ``strip`` is the enclosing list item's content column (0 at top level); ``first_col`` is
    where the block starts when it shares its first line with the item's marker.
    """
    end = _last_content_line(lines, start, stop) + 1
    chunk = lines[start:end]
    if not chunk:
        return ""
    if first_col:
        chunk[0] = " " * first_col + chunk[0][first_col:]
    if strip:
        chunk = [_strip_indent(line, strip) for line in chunk]
    return "\n".join(chunk).strip("\n")


class _Builder:
    """A node under construction; frozen into a ``Node`` once everything under it is known."""

    __slots__ = ("kind", "title", "start", "end", "origin", "level", "col", "number", "delimiter",
                 "marker", "body", "notes", "children", "indent", "content_col", "has_block", "glyphs")

    def __init__(self, kind: str, title: str, start: int, end: int, origin: str, level: int, *, col: int = 1,
                 number: str | None = None, delimiter: str | None = None, marker: str | None = None,
                 indent: int = 0, content_col: int = 0) -> None:
        self.kind = kind
        self.title = title
        self.start = start
        self.end = end
        self.origin = origin
        self.level = level
        self.col = col
        self.number = number
        self.delimiter = delimiter
        self.marker = marker
        self.indent = indent
        self.content_col = content_col
        self.body: list[Block] = []
        self.notes: list[Block] = []
        self.children: list[Node] = []
        self.has_block = False
        self.glyphs: _GlyphRun | None = None

    def end_glyphs(self) -> None:
        if self.glyphs is not None:
            self.glyphs.close()
            self.glyphs = None

    def glyph_run(self, parser: _Parser) -> _GlyphRun:
        if self.glyphs is None:
            self.glyphs = _GlyphRun(parser, self.level + 1, self.add_child)
        return self.glyphs

    def grow(self, span: Span) -> None:
        self.end = max(self.end, span.end)

    def add_block(self, block: Block) -> None:
        (self.notes if block.kind == "note" else self.body).append(block)
        self.grow(block.span)

    def add_child(self, node: Node) -> None:
        self.children.append(node)
        self.grow(node.span)

    def freeze(self) -> Node:
        if self.glyphs is not None:
            self.end_glyphs()
        label = recover.split_label(self.title) if self.kind == ITEM else None
        # positional, in Node's field order: this runs once per node of every note
        return Node(
            self.kind, self.title, Span(self.start, self.end), self.origin, self.level, self.col,
            self.number, self.delimiter, self.marker, label,
            tuple(self.body) if self.body else (), tuple(self.notes) if self.notes else (),
            tuple(self.children) if self.children else (), self.indent,
        )


class _GlyphRun:
    """Pasted bullets being recovered; stays open across blank lines so indentation still nests."""

    __slots__ = ("parser", "base_level", "sink", "stack")

    def __init__(self, parser: _Parser, base_level: int, sink: Any) -> None:
        self.parser = parser
        self.base_level = base_level
        self.sink = sink
        self.stack: list[tuple[int, _Builder]] = []  # (indent, builder)

    def _close_to(self, indent: int) -> None:
        stack = self.stack
        while stack and stack[-1][0] >= indent:
            _, done = stack.pop()
            node = done.freeze()
            if stack:
                stack[-1][1].add_child(node)
            else:
                self.sink(node)

    def close(self) -> None:
        self._close_to(-1)

    def feed(self, a: int, b: int) -> list[str]:
        """Take source lines ``[a, b)``; plain lines before the first bullet are returned as lead."""
        self.parser.recovered.add("glyph-bullets")
        lines = self.parser.lines
        lead: list[str] = []
        started = False
        for index in range(a, b):
            line = lines[index]
            bullet = recover.glyph_bullet(line)
            if bullet is None:
                if not line.strip():
                    continue
                if started and self.stack:
                    builder = self.stack[-1][1]
                    builder.title = (builder.title + "\n" + line.strip()).strip("\n")
                    builder.end = index + 1
                else:
                    self.close()
                    lead.append(line.strip())
                continue
            started = True
            indent, glyph, text = bullet
            self._close_to(indent)
            if len(self.stack) >= MAX_GLYPH_DEPTH:
                self._close_to(self.stack[-1][0])  # too deep: keep as a sibling at the deepest level
            level = self.base_level + len(self.stack)
            col = len(line) - len(line.lstrip(" \t")) + 1
            self.stack.append((indent, _Builder(ITEM, text, index + 1, index + 1, "glyph", level,
                                                col=col, marker=glyph, indent=indent)))
        return lead


@dataclass(slots=True)
class _Top:
    """One top-level block of the token stream: tokens ``[start, stop)``, source lines ``[a, b)``."""

    kind: str
    start: int
    stop: int
    a: int
    b: int
    content: str = ""
    level: int = 0
    markup: str = ""
    role: str = ""  # for paragraphs: heading, glyph, note, filename, image, text
    lead: bool = False  # plain lines split off the front of a paragraph of pasted bullets


def _after_close(tokens: list[Any], index: int) -> int:
    """The index just past the token that closes ``tokens[index]`` (the next one for a leaf)."""
    if tokens[index].nesting != 1:
        return index + 1
    depth = 0
    for probe in range(index, len(tokens)):
        depth += tokens[probe].nesting
        if depth == 0:
            return probe + 1
    return len(tokens)


def _split_top(tokens: list[Any], lines: list[str]) -> list[_Top]:
    """Group the token stream into top-level blocks, in source order.

    Source lines that no token covers (link reference definitions, which markdown-it
    consumes silently) become ``reference`` blocks so nothing is lost.
    """
    blocks: list[_Top] = []
    index = 0
    total = len(tokens)
    covered = 0

    def gap(until: int) -> None:
        first = next((i for i in range(covered, until) if lines[i].strip()), None)
        if first is not None:
            blocks.append(_Top("reference", -1, -1, first, until))

    while index < total:
        token = tokens[index]
        stop = _after_close(tokens, index)
        a, b = token.map if token.map else (covered, covered)
        kind = token.type.removesuffix("_open")
        if kind == "container_notes" and b < len(lines) and lines[b].strip().startswith(":::"):
            b += 1
        if a > covered:
            gap(a)
        top = _Top(kind, index, stop, a, b, markup=token.markup)
        if kind in ("paragraph", "heading"):
            top.content = tokens[index + 1].content
            top.level = int(token.tag[1]) if kind == "heading" else 0
        blocks.append(top)
        covered = max(covered, b)
        index = stop
    if covered < len(lines):
        gap(len(lines))
    return blocks


_IMAGES_ONLY = re.compile(r'^\s*(?:!\[(?:[^\]\\]|\\.)*\]\(\s*<?[^)\s>]*>?(?:\s+"[^"]*")?\s*\)\s*)+$')


def _is_image_only(inline: Any) -> bool:
    """A paragraph that is only images (``![alt](src)``), judged from its raw inline text."""
    return _IMAGES_ONLY.match(inline.content) is not None


def _may_have_glyphs(text: str) -> bool:
    return any(glyph in text for glyph in recover.BULLET_GLYPHS)


class _Parser:
    def __init__(self, text: str, path: str, options: ParseOptions) -> None:
        self.text = text
        self.path = path
        self.options = options
        self.lines = text.split("\n")
        self.recovered: set[str] = set()
        self.directives: list[Block] = []
        # 0-based indexes of pasted-bullet lines, found in one pass (most notes have none)
        self.glyph_indexes: list[int] = [index for index, line in enumerate(self.lines)
                                         if line and recover.is_glyph_line(line)] if _may_have_glyphs(text) else []

    def first_glyph_line(self, a: int, b: int) -> int | None:
        """The first pasted-bullet line in ``[a, b)``, or None."""
        if not self.glyph_indexes:
            return None
        position = bisect_left(self.glyph_indexes, a)
        if position < len(self.glyph_indexes) and self.glyph_indexes[position] < b:
            return self.glyph_indexes[position]
        return None

    def has_glyph_line(self, a: int, b: int) -> bool:
        return self.first_glyph_line(a, b) is not None

    # -------------------------------------------------------------- blocks

    def block(self, tokens: list[Any], start: int, stop: int, kind: str, strip: int = 0, first_col: int = 0) -> Block:
        a, b = tokens[start].map
        text = _verbatim(self.lines, a, b, strip, first_col)
        span = _span(self.lines, a, b)
        token = tokens[start]
        if kind in ("fence", "code_block"):
            return Block("code", text, span, token.info.strip() if kind == "fence" else "")
        if kind == "html_block":
            if _DIRECTIVE.match(token.content):
                return Block("directive", text, span)
            if _COMMENT.match(token.content):
                return Block("note", text, span, "comment")
            return Block("html", text, span)
        if kind == "container_notes":
            if b < len(self.lines) and self.lines[b].strip().startswith(":::"):
                text = _verbatim(self.lines, a, b + 1, strip, first_col)
                span = _span(self.lines, a, b + 1)
            return Block("note", text, span, "container")
        if kind == "blockquote":
            return Block("quote", text, span)
        if kind == "table":
            return Block("table", text, span)
        if kind == "heading":
            return Block("heading", text, span)
        if kind == "hr":
            return Block("break", text, span)
        if kind == "paragraph":
            inline = tokens[start + 1]
            if recover.is_note_paragraph(inline.content):
                return Block("note", text, span, "paragraph")
            if _is_image_only(inline):
                return Block("image", text, span)
            return Block("paragraph", text, span)
        return Block("html", text, span)

    def glyph_nodes(self, a: int, b: int, base_level: int) -> tuple[list[str], list[Node]]:
        """Recover ``•`` bullets from source lines ``[a, b)``; return leading plain lines and nodes."""
        nodes: list[Node] = []
        run = _GlyphRun(self, base_level, nodes.append)
        lead = run.feed(a, b)
        run.close()
        return lead, nodes

    # -------------------------------------------------------------- lists

    def list_nodes(self, tokens: list[Any], start: int, stop: int, base_level: int, parent_col: int = 0) -> list[Node]:
        """Build the items of one (possibly nested) list without recursion."""
        out: list[Node] = []
        items: list[_Builder] = []
        lists: list[tuple[bool, str]] = []
        content_cols: list[int] = [parent_col]
        index = start
        lines = self.lines
        while index < stop:
            token = tokens[index]
            kind = token.type
            if kind == "paragraph_open":  # the commonest token inside lists
                self.item_paragraph(tokens, index, items[-1])
                index += 3
                continue
            if kind == "list_item_open":
                a = token.map[0]
                line = lines[a]
                match = _MARKER.match(line, content_cols[-1]) or _MARKER.match(line)
                marker_col = match.start(2) if match else 0
                content_col = match.end() if match else 0
                ordered, markup = lists[-1]
                builder = _Builder(
                    ITEM, "", a + 1, a + 1, "list", base_level + len(items), col=marker_col + 1,
                    number=token.info if ordered else None, delimiter=markup if ordered else None,
                    marker=None if ordered else markup,
                    indent=recover.tab_width(line[:marker_col]) if marker_col else 0, content_col=content_col,
                )
                items.append(builder)
                content_cols.append(content_col)
            elif kind == "list_item_close":
                done = items.pop()
                content_cols.pop()
                node = done.freeze()
                if items:
                    items[-1].add_child(node)
                else:
                    out.append(node)
            elif kind == "bullet_list_open" or kind == "ordered_list_open":
                if items:
                    items[-1].end_glyphs()
                lists.append((kind == "ordered_list_open", token.markup))
            elif kind == "bullet_list_close" or kind == "ordered_list_close":
                lists.pop()
            elif token.nesting == 1 or token.nesting == 0:
                close = _after_close(tokens, index)
                block_kind = kind.removesuffix("_open")
                item = items[-1]
                first_col = item.content_col if token.map and token.map[0] + 1 == item.start else 0
                block = self.block(tokens, index, close, block_kind, item.content_col, first_col)
                if block_kind == "code_block" and self.all_glyphs(*token.map):
                    item.glyph_run(self).feed(token.map[0], token.map[1])
                    index = close
                    continue
                item.end_glyphs()
                if block.kind == "directive":
                    self.directives.append(block)
                else:
                    item.add_block(block)
                item.has_block = True
                index = close
                continue
            index += 1
        return out

    def item_paragraph(self, tokens: list[Any], index: int, item: _Builder) -> None:
        a, b = tokens[index].map
        inline = tokens[index + 1]
        glyph_lines = self.has_glyph_line(a, b)
        if not item.has_block:
            item.has_block = True
            if not glyph_lines:
                item.title = inline.content
                item.end = max(item.end, b)
                return
            if a + 1 == item.start and recover.is_glyph_line(self.lines[a][item.content_col:]):
                # "- • text": the glyph is doubled bullet syntax; the rest is the title
                bullet = recover.glyph_bullet(self.lines[a][item.content_col:])
                item.title = bullet[2] if bullet else ""
                a += 1
            lead = item.glyph_run(self).feed(a, b)
            if lead and not item.title:
                item.title = "\n".join(lead)
            elif lead:
                item.add_block(Block("paragraph", "\n".join(lead), Span(a + 1, a + len(lead))))
            return
        if glyph_lines:
            lead = item.glyph_run(self).feed(a, b)
            if lead:
                item.add_block(Block("paragraph", "\n".join(lead), Span(a + 1, a + len(lead))))
            return
        item.end_glyphs()
        item.add_block(self.block(tokens, index, index + 3, "paragraph", item.content_col))

    def all_glyphs(self, a: int, b: int) -> bool:
        lines = [line for line in self.lines[a:b] if line.strip()]
        return bool(lines) and all(recover.is_glyph_line(line) for line in lines)

    # -------------------------------------------------------------- document

    def front_matter(self, token: Any) -> tuple[dict[str, Any], Span]:
        a, b = token.map
        span = Span(a + 1, b)
        if not token.content.strip():
            return {}, span
        import yaml

        try:
            data = yaml.load(token.content, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            problem = getattr(exc, "problem", None) or "invalid YAML"
            line = mark.line + 2 if mark is not None else a + 1
            col = mark.column + 1 if mark is not None else 1
            raise input_error(f"front matter: {problem}", self.path, line, col) from None
        if data is None:
            return {}, span
        if not isinstance(data, dict):
            raise input_error("front matter must be a mapping of keys to values", self.path, a + 2, 1)
        return data, span

    def parse(self) -> Document:
        md = markdown_parser()
        try:
            tokens = md.parse(self.text)
        except RecursionError:
            raise input_error("notes nested too deeply to read", self.path, 1, 1) from None
        for token in tokens:
            if token.level >= MAX_NESTING - 2 and token.map:
                raise input_error(
                    f"nesting deeper than {MAX_NESTING // 2} levels; flatten the list or quote",
                    self.path, token.map[0] + 1, 1,
                )
        blocks = _split_top(tokens, self.lines)
        fm: dict[str, Any] = {}
        fm_span: Span | None = None
        fm_text: str | None = None
        if blocks and blocks[0].kind == "front_matter":
            fm, fm_span = self.front_matter(tokens[blocks[0].start])
            fm_text = tokens[blocks[0].start].content
            blocks = blocks[1:]
        blocks = self.split_glyph_paragraphs(tokens, blocks)
        self.classify(tokens, blocks)
        return self.assemble(tokens, blocks, fm, fm_span, fm_text)

    def split_glyph_paragraphs(self, tokens: list[Any], blocks: list[_Top]) -> list[_Top]:
        """A top-level paragraph with pasted bullets becomes its plain lead lines plus a glyph block."""
        out: list[_Top] = []
        for top in blocks:
            if top.kind == "code_block" and self.all_glyphs(top.a, top.b):
                if out and out[-1].kind == "glyph":
                    out[-1].b = top.b
                    continue
                top.kind, top.role = "glyph", "glyph"
                out.append(top)
                continue
            if top.kind != "paragraph":
                out.append(top)
                continue
            first_glyph = self.first_glyph_line(top.a, top.b)
            if first_glyph is None:
                out.append(top)
                continue
            if first_glyph > top.a:
                lead = "\n".join(self.lines[i].strip() for i in range(top.a, first_glyph))
                out.append(_Top("paragraph", top.start, top.stop, top.a, first_glyph, content=lead, lead=True))
            if first_glyph == top.a and out and out[-1].kind == "glyph":
                out[-1].b = top.b  # blank-separated pasted bullets are one run
                continue
            out.append(_Top("glyph", top.start, top.stop, first_glyph, top.b, role="glyph"))
        return out

    def classify(self, tokens: list[Any], blocks: list[_Top]) -> None:
        explicit = [top for top in blocks if top.kind == "heading"]
        mode = self.options.infer_headings
        infer = mode == "always" or (
            mode == "auto" and all(top.level == 1 for top in explicit) and len(explicit) <= 1
        )
        last = len(blocks) - 1
        while last >= 0 and blocks[last].kind == "html_block":
            last -= 1
        seen_section = False
        for position, top in enumerate(blocks):
            if top.kind == "heading":
                seen_section = True
                continue
            if top.kind != "paragraph":
                continue
            content = top.content
            if recover.is_note_paragraph(content):
                top.role = "note"
            elif not seen_section and top.b - top.a == 1 and recover.is_filename_line(content):
                top.role = "filename"
            elif (
                infer
                and position < last
                and top.b - top.a == 1
                and recover.is_heading_candidate(content, self.options.max_heading_length)
                and not (not top.lead and _is_image_only(tokens[top.start + 1]))
            ):
                top.role = "heading"
                seen_section = True
            else:
                top.role = top.role or "text"

    def assemble(self, tokens: list[Any], blocks: list[_Top], fm: dict[str, Any],
                 fm_span: Span | None, fm_text: str | None) -> Document:
        lines = self.lines
        title, title_origin, title_span, title_block = self.find_title(blocks, fm)
        source_name = fm.get("source_name")
        source_span: Span | None = None
        root: list[Node] = []
        lede: list[Block] = []
        doc_notes: list[Block] = []
        breaks: list[Span] = []
        sections: list[_Builder] = []
        continues = self.continuation_flags(tokens, blocks)
        previous_kind = ""

        def container_add_child(node: Node) -> None:
            (sections[-1].add_child if sections else root.append)(node)

        def container_children() -> list[Node]:
            return sections[-1].children if sections else root

        def add_block(block: Block) -> None:
            if sections:
                sections[-1].add_block(block)
            elif block.kind == "note":
                doc_notes.append(block)
            else:
                lede.append(block)

        def attach_to_last_point(block: Block | None, nodes: list[Node]) -> bool:
            children = container_children()
            if not children or not children[-1].is_point:
                return False
            point = children[-1]
            body = point.body + ((block,) if block and block.kind != "note" else ())
            notes = point.notes + ((block,) if block and block.kind == "note" else ())
            new_children = point.children + tuple(nodes)
            end = max([point.span.end] + [n.span.end for n in nodes] + ([block.span.end] if block else []))
            children[-1] = replace(point, body=body, notes=notes, children=new_children, span=Span(point.span.start, end))
            if sections:
                sections[-1].grow(children[-1].span)
            return True

        def close_sections(level: int) -> None:
            while sections and sections[-1].level >= level:
                node = sections.pop().freeze()
                container_add_child(node)

        for position, top in enumerate(blocks):
            kind = top.kind
            if top is title_block:
                previous_kind = "title"
                continue
            if kind == "heading" or (kind == "paragraph" and top.role == "heading"):
                inferred = kind == "paragraph"
                level = 2 if inferred else top.level
                origin = "inferred" if inferred else ("setext" if top.markup in ("=", "-") else "atx")
                if inferred:
                    self.recovered.add("inferred-headings")
                close_sections(level)
                span = _span(lines, top.a, top.b)
                sections.append(_Builder(SECTION, top.content, span.start, span.end, origin, level))
                previous_kind = "heading"
                continue
            if kind == "hr":
                span = _span(lines, top.a, top.b)
                following = blocks[position + 1] if position + 1 < len(blocks) else None
                separates = following is None or following.kind == "heading" or following.role == "heading"
                if separates:
                    breaks.append(span)
                    if sections:
                        self.recovered.add("breaks")
                else:
                    add_block(Block("break", _verbatim(lines, top.a, top.b), span))
                previous_kind = "hr"
                continue
            if kind in ("bullet_list", "ordered_list"):
                for node in self.list_nodes(tokens, top.start, top.stop, 1):
                    container_add_child(node)
                previous_kind = kind
                continue
            if kind == "glyph":
                siblings = container_children()
                under_point = (previous_kind == "ordered_list" or continues[position]) and bool(siblings) \
                    and siblings[-1].is_point
                # pasted bullets right after a point are its children, one level below it
                base_level = siblings[-1].level + 1 if under_point else 1
                _, nodes = self.glyph_nodes(top.a, top.b, base_level)
                if under_point and attach_to_last_point(None, nodes):
                    previous_kind = "ordered_list"
                    continue
                for node in nodes:
                    container_add_child(node)
                previous_kind = kind
                continue
            if kind == "paragraph" and top.role == "filename" and source_name is None:
                source_name = top.content.strip()
                source_span = _span(lines, top.a, top.b)
                self.recovered.add("filename-line")
                continue
            if top.lead:
                lead_kind = "note" if recover.is_note_paragraph(top.content) else "paragraph"
                block = Block(lead_kind, top.content, _span(lines, top.a, top.b), "paragraph" if lead_kind == "note" else "")
            elif kind == "reference":
                block = Block("reference", _verbatim(lines, top.a, top.b), _span(lines, top.a, top.b))
            else:
                block = self.block(tokens, top.start, top.stop, kind)
            if block.kind == "directive":
                self.directives.append(block)
                continue
            if continues[position] and attach_to_last_point(block, []):
                previous_kind = "ordered_list"
                continue
            add_block(block)
            previous_kind = kind
        close_sections(0)

        meta = self.meta(fm, fm_span, fm_text, title, title_origin, title_span, source_name, source_span, root)
        return Document(
            path=self.path, meta=meta, lede=tuple(lede), nodes=tuple(root), notes=tuple(doc_notes),
            breaks=tuple(breaks), directives=tuple(sorted(self.directives, key=lambda block: block.span.start)),
            line_count=len(lines) - (1 if lines and lines[-1] == "" else 0),
            recovered=tuple(sorted(self.recovered)),
        )

    def continuation_flags(self, tokens: list[Any], blocks: list[_Top]) -> list[bool]:
        """For each block, whether an ordered list that continues the numbering (``2.``…) follows it
        with only paragraphs, code, quotes, tables or pasted bullets in between."""
        flags = [False] * len(blocks)
        flag = False
        for position in range(len(blocks) - 1, -1, -1):
            top = blocks[position]
            if top.kind == "ordered_list":
                first = tokens[top.start + 1]
                flag = first.type == "list_item_open" and first.info.isdigit() and int(first.info) > 1
            elif top.kind in ("paragraph", "fence", "code_block", "glyph", "blockquote", "table", "reference") \
                    and top.role != "heading":
                flags[position] = flag
            else:
                flag = False
        return flags

    def find_title(self, blocks: list[_Top], fm: dict[str, Any]) -> tuple[str, str, Span | None, _Top | None]:
        lines = self.lines
        if isinstance(fm.get("title"), str) and fm["title"].strip():
            return fm["title"].strip(), "front-matter", None, None
        level_one = [top for top in blocks if top.kind == "heading" and top.level == 1]
        if len(level_one) == 1:
            top = level_one[0]
            return top.content, "heading", _span(lines, top.a, top.b), top
        content = [top for top in blocks if top.role != "filename" and top.kind != "html_block"]
        if len(content) >= 2 and content[0].role == "heading" and (
            content[1].kind == "heading" or content[1].role == "heading"
        ):
            top = content[0]
            self.recovered.add("inferred-title")
            return top.content, "inferred", _span(lines, top.a, top.b), top
        for top in blocks:
            if top.kind == "heading" or top.role == "heading":
                break
            if top.kind == "paragraph" and top.role == "text":
                phrase = recover.lede_title(top.content.split("\n")[-1] if top.content else "")
                if phrase:
                    self.recovered.add("lede-title")
                    return phrase, "lede", _span(lines, top.a, top.b), None
                break
        stem = PurePath(self.path).stem if not self.path.startswith("<") else "Untitled"
        return stem, "stem", None, None

    def meta(self, fm: dict[str, Any], fm_span: Span | None, fm_text: str | None, title: str,
             title_origin: str, title_span: Span | None, source_name: Any, source_span: Span | None,
             root: list[Node]) -> Meta:
        def text_of(key: str) -> str | None:
            value = fm.get(key)
            return None if value is None else str(value).strip()

        def list_of(*keys: str) -> tuple[str, ...]:
            for key in keys:
                value = fm.get(key)
                if value is None:
                    continue
                if isinstance(value, (list, tuple)):
                    return tuple(str(v).strip() for v in value if str(v).strip())
                return tuple(part.strip() for part in str(value).split(",") if part.strip())
            return ()

        kind = text_of("kind") or _infer_kind(root)
        extra = {key: value for key, value in fm.items() if key not in _KNOWN_META}
        return Meta(
            title=title, title_origin=title_origin, title_span=title_span,
            event=text_of("event"), date=text_of("date"),
            speakers=list_of("speakers", "speaker", "authors", "author"), tags=list_of("tags"),
            lang=text_of("lang") or "en", kind=kind,
            source_name=None if source_name is None else str(source_name), source_name_span=source_span,
            front_matter=fm_text, front_matter_span=fm_span, extra=extra,
        )


def _infer_kind(root: list[Node]) -> str:
    """A reading list: several sections, none with points or subsections, each at most one paragraph."""
    sections = [node for node in root if node.kind == SECTION]
    if len(sections) < 3 or len(sections) != len(root):
        return "notes"
    for section in sections:
        if section.children or section.notes or len(section.body) > 1:
            return "notes"
        if section.body and section.body[0].kind != "paragraph":
            return "notes"
    annotated = sum(1 for section in sections if section.body)
    return "reading-list" if annotated * 2 >= len(sections) else "notes"


def parse(text: str, path: str = "<string>", options: ParseOptions | None = None) -> Document:
    """Build the outline of a note's text; raises ``NotesError`` for notes it cannot read.

    Parsing allocates many small objects and no reference cycles worth collecting, so the
    cyclic garbage collector is paused meanwhile: on a 4 MB note its passes otherwise cost
    as much as the parse and make time grow faster than the input.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _Parser(text, path, options or ParseOptions()).parse()
    finally:
        if was_enabled:
            gc.enable()


def parse_source(source: Source, options: ParseOptions | None = None) -> Document:
    return parse(source.text, source.path, options)
