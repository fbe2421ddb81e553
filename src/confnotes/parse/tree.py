"""Nodes and lists under construction, frozen into the model once everything under them is known."""

from __future__ import annotations

from confnotes.model import ITEM, Entry, List, Node, Span
from confnotes.parse import recover


class ListBuilder:
    """One list as written: its items are appended in order, then frozen into a ``List``."""

    __slots__ = ("items", "ordered", "start", "marker", "tight", "origin")

    def __init__(self, ordered: bool, start: str | None, marker: str, origin: str = "list") -> None:
        self.items: list[Node] = []
        self.ordered = ordered
        self.start = start
        self.marker = marker
        self.tight = True
        self.origin = origin

    def freeze(self) -> List:
        items = tuple(self.items)
        return List(
            items,
            Span(items[0].span.start, max(item.span.end for item in items)),
            self.ordered,
            self.start,
            self.marker,
            self.tight,
            self.origin,
        )


class NodeBuilder:
    """A section or item under construction: its ``content`` grows in source order."""

    __slots__ = (
        "kind",
        "title",
        "start",
        "end",
        "origin",
        "level",
        "col",
        "number",
        "delimiter",
        "marker",
        "content",
        "indent",
        "content_col",
        "has_block",
        "glyphs",
        "recording",
        "peer",
    )

    def __init__(
        self,
        kind: str,
        title: str,
        start: int,
        end: int,
        origin: str,
        level: int,
        *,
        col: int = 1,
        number: str | None = None,
        delimiter: str | None = None,
        marker: str | None = None,
        indent: int = 0,
        content_col: int = 0,
    ) -> None:
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
        self.content: list[Entry] = []
        self.has_block = False
        self.glyphs: object | None = None  # an open glyph run (parse.glyphs.GlyphRun)
        self.recording: object | None = None  # a clean section's record for the next reading (parse.reuse.Recording)
        #: a bold session line standing as a peer of the author's session headings (``**Talk: B**``
        #: after ``## Talk: A``); a flag, not the builder's id in a set: a closed builder's id is
        #: another's later, and the nesting then depended on what the process had freed
        self.peer = False

    def end_glyphs(self) -> None:
        if self.glyphs is not None:
            self.glyphs.close()  # type: ignore[attr-defined]
            self.glyphs = None

    def grow(self, span: Span) -> None:
        if span.end > self.end:
            self.end = span.end

    def add(self, entry: Entry) -> None:
        """Append a block, list or sub-section to the content, in source order."""
        self.content.append(entry)
        self.grow(entry.span)

    def freeze(self) -> Node:
        self.end_glyphs()
        label = recover.split_label(self.title) if self.kind == ITEM else None
        # positional, in Node's field order: this runs once per node of every note
        return Node(
            self.kind,
            self.title,
            Span(self.start, self.end),
            self.origin,
            self.level,
            self.col,
            self.number,
            self.delimiter,
            self.marker,
            label,
            tuple(self.content) if self.content else (),
            self.indent,
        )
