"""The outline model: a lossless, order-true, immutable tree of sections, lists and items built from a note
(docs/design.md, "The outline model" and "Lossless").

A node's ``content`` is one ordered sequence of what stands under it, exactly as in the
source: ``Block``s, ``List``s (each list as written, with its item nodes) and, for
sections, sub-sections. ``body``, ``notes``, ``children``, ``items``, ``points`` and
``bullets`` are views derived from it, never separate stores, so no consumer can move a
paragraph past the list it follows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from confnotes.model.values import Value

SECTION = "section"
ITEM = "item"
LIST = "list"

#: How a node was recognised in the source.
ORIGINS = ("atx", "setext", "inferred", "list", "glyph", "bold")
#: Kinds of blocks; ``text`` always holds the block's source verbatim (de-indented).
BLOCK_KINDS = (
    "paragraph",
    "code",
    "quote",
    "table",
    "html",
    "image",
    "heading",
    "break",
    "note",
    "comment",
    "reference",
    "math",
    "footnote",
    "div",
)
#: Blocks that are kept (``fmt`` writes them back) but never printed: speaker notes and comments.
UNPRINTED = frozenset(("note", "comment"))


class Span(NamedTuple):
    """First and last source line, 1-based and inclusive."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph, code block, quote, table, image, raw HTML or speaker note: its source text, as
    written, and the typed ``value`` ``parse`` read it as (``confnotes.model.values``; None for a
    kind without structure of its own, such as a paragraph)."""

    kind: str
    text: str
    span: Span
    info: str = ""
    value: Value | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class List:
    """One list as the author wrote it: ordered or not, its first number, marker, tightness and items.

    ``marker`` is ``-``/``*``/``+`` or a pasted glyph (``•``) for bullets, ``.`` or ``)`` for
    numbered lists; ``start`` is the first item's number as written (None for bullets).
    """

    items: tuple[Node, ...]
    span: Span
    ordered: bool = False
    start: str | None = None
    marker: str = "-"
    tight: bool = True
    origin: str = "list"

    @property
    def kind(self) -> str:
        return LIST

    def shown_number(self, index: int) -> str | None:
        """The number a reader sees on item ``index``: as CommonMark, GitHub and pandoc show it, the
        list's first number counted up (``1. 1. 1.`` shows 1, 2, 3); the number as written stays
        on the item (``Node.number``) for lint and ``fmt``. Bullets have none."""
        number = self.items[index].number
        if not self.ordered or self.origin == "bold" or not (self.start or "").isdigit():
            return number  # pasted "**1. Title**" points show the number their author typed
        return str(int(self.start or "1") + index)


class ContentViews:
    """Views over an ordered ``content`` (a node's or the document's), never stores of their own."""

    __slots__ = ()
    content: tuple[Entry, ...]

    @property
    def body(self) -> tuple[Block, ...]:
        """The printed blocks (speaker notes and comments excluded), in source order."""
        return blocks_of(self.content)

    @property
    def notes(self) -> tuple[Block, ...]:
        """The speaker notes, in source order."""
        return notes_of(self.content)

    @property
    def lists(self) -> tuple[List, ...]:
        return tuple(entry for entry in self.content if type(entry) is List)

    @property
    def children(self) -> tuple[Node, ...]:
        """Items of every list, and sub-sections, in source order."""
        return children_of(self.content)

    @property
    def sections(self) -> tuple[Node, ...]:
        return tuple(entry for entry in self.content if type(entry) is Node)


@dataclass(frozen=True, slots=True)
class Node(ContentViews):
    """A section (from a heading) or an item (a numbered point or a bullet)."""

    kind: str
    title: str
    span: Span
    origin: str
    level: int
    col: int = 1
    number: str | None = None
    delimiter: str | None = None
    marker: str | None = None
    label: str | None = None
    content: tuple[Entry, ...] = ()
    indent: int = 0

    @property
    def is_section(self) -> bool:
        return self.kind == SECTION

    @property
    def is_point(self) -> bool:
        return self.kind == ITEM and self.number is not None

    @property
    def is_bullet(self) -> bool:
        return self.kind == ITEM and self.number is None

    @property
    def text(self) -> str:
        """The title without its ``Label:`` prefix."""
        if self.label is None:
            return self.title
        return after_label(self.title, self.label)

    @property
    def items(self) -> tuple[Node, ...]:
        return tuple(item for entry in self.content if type(entry) is List for item in entry.items)

    @property
    def points(self) -> tuple[Node, ...]:
        return tuple(item for item in self.items if item.number is not None)

    @property
    def bullets(self) -> tuple[Node, ...]:
        return tuple(item for item in self.items if item.number is None)


def after_label(title: str, label: str) -> str:
    """The text after a title's label: ``Speaker   : name`` → ``name``, ``**Blog:** text`` → ``text``."""
    if title.startswith(label):  # the common case: a plain "Label: text"
        rest = title[len(label) :]
        if rest[:1] == ":":
            return rest[1:].strip()
        return rest.lstrip().removeprefix(":").strip()
    for mark in ("**", "__", "*", "_"):
        for head in (f"{mark}{label}:{mark}", f"{mark}{label}{mark}:"):
            if title.startswith(head):
                return title[len(head) :].strip()
    return title[len(label) :].lstrip().removeprefix(":").strip()


_NOTE_PREFIX = re.compile(r"^(?:speaker[ -]?)?notes?:\s*", re.IGNORECASE)


def note_text(block: Block) -> str:
    """A speaker note without its delimiters: ``Note:``, ``::: notes``/``:::``, ``<!-- -->``."""
    text = block.text.strip()
    if block.info == "comment":
        text = _NOTE_PREFIX.sub("", re.sub(r"^<!--\s*|\s*-->$", "", text, flags=re.DOTALL), count=1)
    elif block.info == "container":
        lines = text.split("\n")
        if lines and lines[0].lstrip().startswith(":::"):
            lines = lines[1:]
        if lines and lines[-1].strip().startswith(":::"):
            lines = lines[:-1]
        text = "\n".join(lines)
    else:
        text = _NOTE_PREFIX.sub("", text, count=1)
    return text.strip()


#: What a node's (or the document's) content holds.
Entry = Block | List | Node


def blocks_of(content: tuple[Entry, ...]) -> tuple[Block, ...]:
    return tuple(entry for entry in content if type(entry) is Block and entry.kind not in UNPRINTED)


def notes_of(content: tuple[Entry, ...]) -> tuple[Block, ...]:
    return tuple(entry for entry in content if type(entry) is Block and entry.kind == "note")


def children_of(content: tuple[Entry, ...]) -> tuple[Node, ...]:
    out: list[Node] = []
    for entry in content:
        if type(entry) is List:
            out += entry.items
        elif type(entry) is Node:
            out.append(entry)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Meta:
    """What the note is: from YAML front matter, or inferred from the text."""

    title: str
    title_origin: str = "stem"
    title_span: Span | None = None
    title_level: int = 1
    event: str | None = None
    date: str | None = None
    speakers: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    lang: str = "en"
    kind: str = "notes"
    source_name: str | None = None
    source_name_span: Span | None = None
    front_matter: str | None = None
    front_matter_span: Span | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: the title as a reader sees it (``parse``: no emphasis marks, a link as its words); None: as ``title``
    title_plain: str | None = None
    #: the emphasis a title heading was wrapped in (``# **Title**``: ``**``): presentation, not the title's
    #: (``title`` is what is inside); fmt writes it back as the author wrote it
    title_marker: str = ""

    @property
    def plain_title(self) -> str:
        """The title in plain text, for the index, search, a book's contents and running heads."""
        return self.title if self.title_plain is None else self.title_plain


@dataclass(frozen=True, slots=True)
class Document(ContentViews):
    """A whole note: meta and one ordered ``content`` — the lede (blocks and lists), then the sections."""

    path: str
    meta: Meta
    content: tuple[Entry, ...] = ()
    breaks: tuple[Block, ...] = ()  # the ``---`` lines between sections (each right before a heading)
    directives: tuple[Block, ...] = ()
    line_count: int = 0
    recovered: tuple[str, ...] = ()

    @property
    def lede(self) -> tuple[Block | List, ...]:
        """Blocks and lists before the first section, in source order."""
        out: list[Block | List] = []
        for entry in self.content:
            if type(entry) is Node:
                break
            out.append(entry)  # type: ignore[arg-type]
        return tuple(out)

    @property
    def nodes(self) -> tuple[Node, ...]:
        """Top-level nodes: the lede's list items, then the sections, in source order."""
        return children_of(self.content)

    @property
    def is_reading_list(self) -> bool:
        return self.meta.kind == "reading-list"

    @property
    def parts(self) -> tuple[Node, ...]:
        """The note's parts as a talk has them (agenda entries, timing rows): its top-level sections,
        or the sections inside a single section that holds them all (``# Title`` repeating a front
        matter title)."""
        sections = self.sections
        while len(sections) == 1 and sections[0].sections:
            sections = sections[0].sections
        return sections

    @property
    def is_talk(self) -> bool:
        """A note meant as a talk: front matter ``kind: talk``, or ``slides:``, ``duration:`` or
        ``budgets:`` settings. Talks get slide advice in lint and minutes on their agenda."""
        extra = self.meta.extra
        return self.meta.kind == "talk" or "slides" in extra or "duration" in extra or "budgets" in extra


def walk(nodes: tuple[Node, ...]) -> Iterator[tuple[Node, tuple[Node, ...]]]:
    """Yield every node depth-first in source order with its ancestors (iteratively)."""
    stack: list[tuple[Node, tuple[Node, ...]]] = [(node, ()) for node in reversed(nodes)]
    while stack:
        node, ancestors = stack.pop()
        yield node, ancestors
        content = node.content
        if content:
            inner = (*ancestors, node)
            for entry in reversed(content):  # the children view, without building it
                if type(entry) is List:
                    stack.extend((item, inner) for item in reversed(entry.items))
                elif type(entry) is Node:
                    stack.append((entry, inner))


def walk_content(content: tuple[Entry, ...]) -> Iterator[Entry]:
    """Every entry below ``content`` depth-first in source order: blocks, lists, items and sections."""
    stack: list[Entry] = list(reversed(content))
    while stack:
        entry = stack.pop()
        yield entry
        if type(entry) is List:
            stack.extend(reversed(entry.items))
        elif type(entry) is Node:
            stack.extend(reversed(entry.content))


def count_words(text: str) -> int:
    """Words as a reader counts them: runs of non-space characters (slides, timing and lint agree)."""
    return len(text.split())
