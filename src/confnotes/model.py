"""The outline model: a lossless, immutable tree of sections and items built from a note."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

SECTION = "section"
ITEM = "item"

#: How a node was recognised in the source.
ORIGINS = ("atx", "setext", "inferred", "list", "glyph")
#: Kinds of body blocks; ``text`` always holds the block's source verbatim (de-indented).
BLOCK_KINDS = ("paragraph", "code", "quote", "table", "html", "image", "heading", "break", "note", "reference")


@dataclass(frozen=True, slots=True)
class Span:
    """First and last source line, 1-based and inclusive."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph, code block, quote, table, image, raw HTML or speaker note, kept as source text."""

    kind: str
    text: str
    span: Span
    info: str = ""


@dataclass(frozen=True, slots=True)
class Node:
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
    body: tuple[Block, ...] = ()
    notes: tuple[Block, ...] = ()
    children: tuple[Node, ...] = ()
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
        return self.title[len(self.label) + 1 :].strip()

    @property
    def items(self) -> tuple[Node, ...]:
        return tuple(child for child in self.children if child.kind == ITEM)

    @property
    def sections(self) -> tuple[Node, ...]:
        return tuple(child for child in self.children if child.kind == SECTION)


@dataclass(frozen=True, slots=True)
class Meta:
    """What the note is: from YAML front matter, or inferred from the text."""

    title: str
    title_origin: str = "stem"
    title_span: Span | None = None
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


@dataclass(frozen=True, slots=True)
class Document:
    """A whole note: meta, the lede before the first section, and the node tree."""

    path: str
    meta: Meta
    lede: tuple[Block, ...] = ()
    nodes: tuple[Node, ...] = ()
    notes: tuple[Block, ...] = ()
    breaks: tuple[Span, ...] = ()
    directives: tuple[Block, ...] = ()
    line_count: int = 0
    recovered: tuple[str, ...] = ()

    @property
    def sections(self) -> tuple[Node, ...]:
        return tuple(node for node in self.nodes if node.kind == SECTION)

    @property
    def is_reading_list(self) -> bool:
        return self.meta.kind == "reading-list"


def walk(nodes: tuple[Node, ...]) -> Iterator[tuple[Node, tuple[Node, ...]]]:
    """Yield every node depth-first in source order with its ancestors (iteratively)."""
    stack: list[tuple[Node, tuple[Node, ...]]] = [(node, ()) for node in reversed(nodes)]
    while stack:
        node, ancestors = stack.pop()
        yield node, ancestors
        if node.children:
            inner = (*ancestors, node)
            stack.extend((child, inner) for child in reversed(node.children))
