"""Sections reused as the editor types: a tracked note's sections that an edit left alone are not
assembled again (docs/design.md, "Incremental analysis").

After an edit, ``parse.incremental`` keeps markdown-it's tokens of the blocks the edit cannot have
changed; the outline is then assembled from the tokens, block by block. Here that assembly is
skipped for a section the last reading of the note already assembled:

- a *clean* section is one a Markdown heading (``#`` or setext) opens, running to the next such
  heading of its level or higher (or the note's end), with no line inside it that the assembler
  reads by what stands around it: a bare line or bold line read as a heading (their level comes
  from the section they stand in), a file-name line (only the note's first counts), the title;
- its *key* is its text, from its heading to where it ends, the blocks' kinds, roles and lines in
  it (the roles come from the whole note's reading, ``headings.classify``), and whether the note's
  pasted-bullet lines count (``ParseState.glyph_indexes``, decided over the whole note);
- a clean section whose key the last reading recorded is that reading's frozen section, its spans
  moved by the lines the edit added above it, with what it added on the side (slide directives,
  ``---`` breaks before a heading, the recoveries it made).

``tests/test_incremental_parse.py`` checks, after every edit of random edit scripts on real notes,
that the outline equals a fresh parse. The command line parses each note once and keeps nothing.
"""

from __future__ import annotations

from typing import NamedTuple

from confnotes.model import Block, Entry, List, Node, Span
from confnotes.parse.blocks import Top
from confnotes.parse.state import ParseOptions, ParseState

#: a section's key: its text, its blocks' (kind, role, first and last line from its heading), and
#: whether pasted-bullet lines count in the note
Key = tuple[str, tuple[tuple[str, str, int, int], ...], bool]


class Kept(NamedTuple):
    """A section as a reading assembled it, and what it added beside its node."""

    node: Node
    first: int  # the 0-based line of its heading in that reading (its spans count from there)
    recovered: frozenset[str]
    directives: tuple[Block, ...]
    breaks: tuple[Block, ...]
    inner: tuple[tuple[Key, Kept], ...]  # the clean sections inside it, for a later edit inside it


class Recording(NamedTuple):
    """A clean section being assembled: what it is recorded under once it closes."""

    key: Key
    first: int
    outer: set[str]  # the recoveries before it (its own are collected apart, then joined)
    directives: int
    breaks: int
    recorded: int  # how many sections were recorded before it (the ones after are inside it)


#: each section a reading moved, by its id: ``(the section, the one it was moved from, by how many lines)``
Moved = dict[int, tuple[Node, Node, int]]


class Memo(NamedTuple):
    """The clean sections of a note's last reading, by key, under the options it was read with, and
    the sections it moved (what a layer above made of the old one, moved, is what it makes of the new)."""

    options: ParseOptions
    sections: dict[Key, Kept]
    moved: Moved


def shifted(entry: Entry, lines: int, moved: Moved | None = None) -> Entry:
    """``entry`` with every span below it moved by ``lines`` (a new frozen tree; values are shared);
    each section moved is filed in ``moved``."""
    # positional, in each class's field order (twice as fast as dataclasses.replace; every field is
    # carried: tests/test_incremental_parse.py builds each with none at its default)
    span = Span(entry.span.start + lines, entry.span.end + lines)
    if type(entry) is Block:
        return Block(entry.kind, entry.text, span, entry.info, entry.value)
    if type(entry) is List:
        items = tuple(shifted(item, lines) for item in entry.items)
        return List(items, span, entry.ordered, entry.start, entry.marker, entry.tight, entry.origin)  # type: ignore[arg-type]
    assert type(entry) is Node
    e = entry
    content = tuple(shifted(inner, lines, moved) for inner in e.content) if e.content else ()
    node = Node(e.kind, e.title, span, e.origin, e.level, e.col, e.number, e.delimiter, e.marker, e.label, content, e.indent)
    if moved is not None and node.kind == "section":
        moved[id(node)] = (node, entry, lines)
    return node


def clean_ends(blocks: list[Top], title: Top | None) -> dict[int, int]:
    """For each heading block that opens a clean section, the position of the block after its end."""
    ends: dict[int, int] = {}
    for position, top in enumerate(blocks):
        if top.kind != "heading" or top is title:
            continue
        end: int | None = len(blocks)
        for following in range(position + 1, len(blocks)):
            other = blocks[following]
            # the title first: the assembler skips it without closing the section, which goes on after it
            if other is title or (other.kind == "paragraph" and other.role in ("heading", "bold-heading", "filename")):
                end = None
                break
            if other.kind == "heading" and other.level <= top.level:
                end = following
                break
        if end is not None:
            ends[position] = end
    return ends


class Reuse:
    """One assembly's reuse: the last reading's sections (``old``) and this one's (``new``)."""

    def __init__(self, memo: Memo | None, options: ParseOptions, blocks: list[Top], title: Top | None) -> None:
        self.old = memo.sections if memo is not None and memo.options == options else {}
        self.order: list[tuple[Key, Kept]] = []  # this reading's sections, in the order they closed or were taken
        self.moved: Moved = {}
        self.options = options
        self.blocks = blocks
        self.ends = clean_ends(blocks, title)
        self.taken = 0  # sections taken from the last reading (for tests and benchmarks)

    def key(self, position: int, state: ParseState) -> Key | None:
        """The key of the clean section the heading at ``position`` opens (None: not clean)."""
        end = self.ends.get(position)
        if end is None:
            return None
        blocks = self.blocks
        first = blocks[position].a
        stop = blocks[end].a if end < len(blocks) else blocks[-1].b
        shape = tuple((top.kind, top.role, top.a - first, top.b - first) for top in blocks[position:end])
        return "\n".join(state.lines[first:stop]), shape, bool(state.glyph_indexes)

    def end(self, position: int) -> int:
        return self.ends[position]

    def found(self, key: Key, first: int) -> Kept | None:
        """The section the last reading recorded under ``key``, moved to start at line ``first``
        (0-based), and recorded for the next reading; None when there is none."""
        kept = self.old.get(key)
        if kept is None:
            return None
        lines = first - kept.first
        if lines:
            kept = Kept(
                shifted(kept.node, lines, self.moved),  # type: ignore[arg-type]
                first,
                kept.recovered,
                tuple(shifted(block, lines) for block in kept.directives),  # type: ignore[misc]
                tuple(shifted(block, lines) for block in kept.breaks),  # type: ignore[misc]
                kept.inner,  # each with its own first line: moved if it is ever taken
            )
        self.order.append((key, kept))
        self.order += kept.inner
        self.taken += 1
        return kept

    def recording(self, key: Key, first: int, state: ParseState, breaks: list[Block]) -> Recording:
        """Start collecting what the section at line ``first`` adds on the side."""
        recording = Recording(key, first, state.recovered, len(state.directives), len(breaks), len(self.order))
        state.recovered = set()
        return recording

    def record(self, recording: Recording, node: Node, state: ParseState, breaks: list[Block]) -> None:
        """The section closed as ``node``: keep it, with what it added, for the next reading."""
        own = state.recovered
        recording.outer.update(own)
        state.recovered = recording.outer
        inner = tuple(self.order[recording.recorded :])
        directives, own_breaks = tuple(state.directives[recording.directives :]), tuple(breaks[recording.breaks :])
        self.order.append((recording.key, Kept(node, recording.first, frozenset(own), directives, own_breaks, inner)))

    def memo(self) -> Memo:
        """What the next reading may take: this reading's sections."""
        return Memo(self.options, dict(self.order), self.moved)
