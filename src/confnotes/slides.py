"""Outline to Deck: the slide model every slide output (HTML deck, PDF, handout, Marp, PPTX, outline) shares.

Mapping: a title slide; an agenda of the sections; per section with points a divider
and one slide per point with its bullets (two levels; deeper ones folded into their
parent); a section with only text becomes one slide; a section's body paragraphs get a
slide of their own; a reading-list entry is one slide with its annotation. Slides with
more than ``max_items`` items or ``max_words`` words are split at item boundaries into
"(cont.)" slides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from confnotes.model import Block, Document, Node

DEFAULT_MAX_ITEMS = 6
DEFAULT_MAX_WORDS = 60
UNLIMITED = 10**9


@dataclass(frozen=True, slots=True)
class DeckOptions:
    max_items: int = DEFAULT_MAX_ITEMS
    max_words: int = DEFAULT_MAX_WORDS
    agenda: bool | None = None  # None: an agenda for talk notes, none for a reading list

    @classmethod
    def from_mapping(cls, values: dict[str, Any]) -> DeckOptions:
        known = {key: values[key] for key in ("max_items", "max_words", "agenda") if key in values}
        return cls(**known)


@dataclass(frozen=True, slots=True)
class SlideItem:
    """One bullet on a slide: inline Markdown ``text``, an optional bold ``label``, level 0 or 1."""

    text: str
    label: str | None = None
    level: int = 0
    number: str | None = None

    @property
    def full(self) -> str:
        if self.label is None:
            return self.text
        return f"{self.label}: {self.text}".rstrip() if self.text else f"{self.label}:"


@dataclass(frozen=True, slots=True)
class Slide:
    kind: str  # title | agenda | divider | point | text | entry | bullets
    title: str
    subtitle: str = ""
    items: tuple[SlideItem, ...] = ()
    body: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    continued: bool = False
    part: int = 1
    parts: int = 1
    dense: bool = False
    line: int = 0
    anchor: str = ""

    @property
    def display_title(self) -> str:
        return f"{self.title} (cont.)" if self.continued else self.title


@dataclass(frozen=True, slots=True)
class Deck:
    title: str
    subtitle: str
    lang: str
    slides: tuple[Slide, ...]
    options: DeckOptions = field(default_factory=DeckOptions)

    def __len__(self) -> int:
        return len(self.slides)


def count_words(text: str) -> int:
    """Words as a reader counts them: runs of non-space characters."""
    return len(text.split())


def slide_words(slide: Slide) -> int:
    return sum(count_words(item.full) for item in slide.items) + sum(count_words(p) for p in slide.body)


def _notes_text(blocks: tuple[Block, ...]) -> tuple[str, ...]:
    if not blocks:
        return ()
    from confnotes.render.markdown import note_text

    return tuple(text for text in (note_text(block) for block in blocks) if text)


def _body_text(blocks: tuple[Block, ...]) -> tuple[str, ...]:
    if not blocks:
        return ()
    return tuple(block.text for block in blocks if block.kind not in ("reference", "break", "note"))


def _fold(node: Node) -> str:
    """A node's text with everything below it folded in (for levels deeper than two)."""
    parts = [node.title]
    stack = list(reversed(node.children))
    while stack:
        child = stack.pop()
        parts.append(child.title)
        parts += _bodies(child)
        stack.extend(reversed(child.children))
    return "; ".join(part for part in parts if part)


def _block_line(block: Block) -> str:
    """A body block (quote, code, table, paragraph) of an item as one line of slide text."""
    lines = [line[1:].lstrip() if block.kind == "quote" and line.startswith(">") else line
             for line in block.text.split("\n")]
    return " ".join(" ".join(lines).split())


def _bodies(node: Node) -> list[str]:
    return [_block_line(b) for b in node.body if b.kind not in ("reference", "break")]


def _items(children: tuple[Node, ...]) -> list[SlideItem]:
    items: list[SlideItem] = []
    for child in children:
        if child.kind == "section":
            continue
        items.append(SlideItem(child.text if child.label is not None else child.title, child.label, 0, child.number))
        if child.body:
            items += [SlideItem(text, None, 1) for text in _bodies(child)]
        for grandchild in child.children:
            if grandchild.kind == "section":
                continue
            if grandchild.children:
                text = "; ".join([_fold(replace(grandchild, label=None)), *_bodies(grandchild)])
                items.append(SlideItem(text, None, 1, grandchild.number))
            else:
                text = grandchild.text if grandchild.label is not None else grandchild.title
                if grandchild.body:
                    text = "; ".join(part for part in (text, *_bodies(grandchild)) if part)
                items.append(SlideItem(text, grandchild.label, 1, grandchild.number))
    return items


def split_slide(slide: Slide, options: DeckOptions) -> list[Slide]:
    """Split an overfull slide into continued slides at item boundaries, never inside an item."""
    if options.max_words >= UNLIMITED and len(slide.items) <= options.max_items:
        return [slide]  # nothing to measure (lint's unsplit deck)
    body_words = sum(count_words(p) for p in slide.body)
    if len(slide.items) <= options.max_items and body_words + sum(count_words(i.full) for i in slide.items) <= options.max_words:
        return [slide]
    pages: list[list[SlideItem]] = [[]]
    words = body_words
    for item in slide.items:
        item_words = count_words(item.full)
        current = pages[-1]
        if current and (len(current) + 1 > options.max_items or words + item_words > options.max_words):
            pages.append([])
            words = 0
        pages[-1].append(item)
        words += item_words
    if not pages[0] and len(pages) > 1 and not slide.body:
        pages.pop(0)
    parts = len(pages)
    out: list[Slide] = []
    for index, page in enumerate(pages):
        part = replace(
            slide, items=tuple(page), body=slide.body if index == 0 else (), notes=slide.notes if index == 0 else (),
            continued=index > 0, part=index + 1, parts=parts,
        )
        dense = slide_words(part) > options.max_words or len(page) > options.max_items
        out.append(replace(part, dense=dense))
    return out


def build_deck(doc: Document, options: DeckOptions | None = None, plain: Callable[[str], str] | None = None) -> Deck:
    """The deck for ``doc``: pure, built once, shared by every slide renderer."""
    options = options or DeckOptions()
    meta = doc.meta
    subtitle = " · ".join(part for part in (meta.event, meta.date, ", ".join(meta.speakers)) if part)
    slides: list[Slide] = [Slide("title", meta.title, subtitle, body=_body_text(doc.lede), notes=_notes_text(doc.notes))]
    sections = [node for node in doc.nodes if node.is_section]
    agenda = options.agenda if options.agenda is not None else not doc.is_reading_list
    if agenda and sections:
        slides.append(Slide("agenda", "Agenda", items=tuple(SlideItem(s.title) for s in sections)))
    loose = [node for node in doc.nodes if not node.is_section]
    if loose:
        slides.append(Slide("bullets", meta.title, items=tuple(_items(tuple(loose))), line=loose[0].span.start))
    for section in sections:
        if doc.is_reading_list:
            slides.append(Slide("entry", section.title, body=_body_text(section.body),
                                notes=_notes_text(section.notes), line=section.span.start))
            continue
        _section_slides(section, slides)
    expanded: list[Slide] = []
    for slide in slides:
        expanded.extend(split_slide(slide, options) if slide.kind not in ("title", "divider") else [slide])
    return Deck(meta.title, subtitle, meta.lang, tuple(expanded), options)


def _section_slides(section: Node, slides: list[Slide]) -> None:
    """Slides for one section (and, depth-first, its subsections) without recursion limits in practice."""
    stack = [section]
    while stack:
        node = stack.pop()
        children = node.children
        has_points = any(child.kind == "item" and child.number is not None for child in children)
        has_bullets = any(child.kind == "item" and child.number is None for child in children)
        subsections = [child for child in children if child.kind == "section"]
        body = _body_text(node.body)
        notes = _notes_text(node.notes)
        line = node.span.start
        if has_points:
            slides.append(Slide("divider", node.title, notes=notes, line=line))
            if body:
                slides.append(Slide("text", node.title, body=body, line=line))
            for point in children:
                if point.kind == "section":
                    continue
                is_point = point.number is not None
                kind = "point" if is_point else "bullets"
                title = point.title if is_point else node.title
                items = _items(point.children) if is_point else _items((point,))
                slides.append(Slide(kind, title, node.title, items=tuple(items), body=_body_text(point.body),
                                    notes=_notes_text(point.notes), line=point.span.start))
        elif has_bullets or body or not subsections:
            slides.append(Slide("bullets" if has_bullets else "text", node.title, items=tuple(_items(children)),
                                body=body, notes=notes, line=line))
        stack.extend(reversed(subsections))
