"""Outline to Deck: the slide model every slide output (HTML deck, PDF, handout, Marp, PPTX, outline) shares.

Mapping: a title slide (with the lede's opening text); the lede's lists on a slide of
their own; an agenda of the sections; per section with points a divider, the section's
opening text, and one slide per point; a section without points becomes one slide; a
reading-list entry is one slide with its annotation. A slide's ``content`` keeps the
source order: bullets (``SlideItem``) and blocks (``SlideText``) stand where the author put
them, and text that follows a point stays on that point's slide. Slides with more than
``max_items`` items or ``max_words`` words are split between entries into "(cont.)" slides.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from confnotes.errors import NotesError
from confnotes.model import UNPRINTED, Block, Document, Entry, List, Node, count_words, note_text, walk_content
from confnotes.parse.blocks import is_image_only
from confnotes.settings import SlideSettings

DEFAULT_MAX_ITEMS = 6
DEFAULT_MAX_WORDS = 60
UNLIMITED = 10**9
#: Blocks a slide leaves to the speaker notes or drops (they say nothing on screen).
_OFF_SLIDE = frozenset(("reference", "break", *UNPRINTED))


@dataclass(frozen=True, slots=True)
class DeckOptions:
    max_items: int = DEFAULT_MAX_ITEMS
    max_words: int = DEFAULT_MAX_WORDS
    agenda: bool | None = None  # None: an agenda for talk notes, none for a reading list
    notes: bool = True  # False: decks without speaker notes (config slides.notes), e.g. to publish them
    fit: bool = True  # measure every slide against its box (fit.py): shrink, then split
    image_root: str | None = None  # the note's folder: images not found there are not measured as images

    @classmethod
    def from_settings(cls, settings: SlideSettings, image_root: str | os.PathLike[str] | None = None) -> DeckOptions:
        """Deck options from a note's slide settings (``slide_settings``); ``image_root``: the note's
        folder, so images that will not show are measured as the text in their place, as renderers show them."""
        return cls(
            max_items=settings.max_items,
            max_words=settings.max_words,
            agenda=settings.agenda,
            notes=settings.notes,
            image_root=None if image_root is None else os.fspath(image_root),
        )


def slide_settings(configured: SlideSettings, doc: Document) -> SlideSettings:
    """The one merge of slide settings: the config's, then the note's own front matter ``slides:``
    (checked like the config's). Render, lint, ``time`` and ``build`` all read a note's slide settings here."""
    value = doc.meta.extra.get("slides")
    if value is None:
        return configured
    if not isinstance(value, dict):
        raise NotesError("front matter 'slides' must be a mapping", path=doc.path)
    return configured.merged(value, "slides.", doc.path)


@dataclass(frozen=True, slots=True)
class SlideItem:
    """One bullet on a slide: inline Markdown ``text``, an optional bold ``label``, level 0 or 1."""

    text: str
    label: str | None = None
    level: int = 0
    number: str | None = None

    @property
    def kind(self) -> str:
        return "item"

    @property
    def full(self) -> str:
        if self.label is None:
            return self.text
        return f"{self.label}: {self.text}".rstrip() if self.text else f"{self.label}:"


@dataclass(frozen=True, slots=True)
class SlideText:
    """A block shown on a slide as written (Markdown source): paragraph, code, quote, table, image, html."""

    text: str
    kind: str = "paragraph"
    info: str = ""


SlideEntry = SlideItem | SlideText


@dataclass(frozen=True, slots=True)
class Slide:
    kind: str  # title | agenda | divider | point | text | entry | bullets
    title: str
    subtitle: str = ""
    content: tuple[SlideEntry, ...] = ()
    notes: tuple[str, ...] = ()
    continued: bool = False
    part: int = 1
    parts: int = 1
    dense: bool = False
    line: int = 0
    anchor: str = ""
    scale: float = 1.0  # the fit engine's text scale (1 down to fit.FLOOR)
    image_px: int = 0  # the height each image on the slide may take (fit engine), 0: no images
    overflow: bool = False  # split by the fit engine: too much for one slide even at the smallest text

    @property
    def display_title(self) -> str:
        return f"{self.title} (cont.)" if self.continued else self.title

    @property
    def items(self) -> tuple[SlideItem, ...]:
        return tuple(entry for entry in self.content if type(entry) is SlideItem)

    @property
    def body(self) -> tuple[str, ...]:
        """The Markdown source of the slide's blocks, in order."""
        return tuple(entry.text for entry in self.content if type(entry) is SlideText)

    @property
    def runs(self) -> list[tuple[str, Any]]:
        """The content as renderers draw it, in order: ``("items", (SlideItem, …))`` for a run of
        bullets, ``("text", SlideText)`` for a block."""
        out: list[tuple[str, Any]] = []
        for entry in self.content:
            if type(entry) is SlideItem:
                if out and out[-1][0] == "items":
                    out[-1] = ("items", (*out[-1][1], entry))
                else:
                    out.append(("items", (entry,)))
            else:
                out.append(("text", entry))
        return out


@dataclass(frozen=True, slots=True)
class Deck:
    title: str
    subtitle: str
    lang: str
    slides: tuple[Slide, ...]
    options: DeckOptions = field(default_factory=DeckOptions)

    def __len__(self) -> int:
        return len(self.slides)


class Decks:
    """The decks built for one note, by their options. A build hands one ``Decks`` to the note's lint
    run and to each deck format it renders, so the deck is built and fitted once, not once a format;
    lint's unsplit deck and the rendered deck start from the same ``base_slides``."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._built: dict[DeckOptions, Deck] = {}
        self._bases: dict[bool, tuple[Slide, ...]] = {}

    def get(self, options: DeckOptions) -> Deck:
        if options not in self._built:
            if options.notes not in self._bases:
                self._bases[options.notes] = base_slides(self.doc, options.notes)
            self._built[options] = build_deck(self.doc, options, self._bases[options.notes])
        return self._built[options]


def entry_words(entry: SlideEntry) -> int:
    """Words an audience reads on a slide; code and tables are looked at, not read, so they count
    none (the fit engine measures them)."""
    if type(entry) is SlideItem:
        return _words(entry.full)
    return 0 if entry.kind in ("code", "table") else _words(entry.text)


@lru_cache(maxsize=16384)  # the splitter, lint, timing and the deck count the same texts
def _words(text: str) -> int:
    return count_words(text)


def slide_words(slide: Slide) -> int:
    return sum(entry_words(entry) for entry in slide.content)


def _notes_text(blocks: tuple[Block, ...] | list[Block]) -> tuple[str, ...]:
    if not blocks:
        return ()
    return tuple(text for text in (note_text(block) for block in blocks) if text)


def _notes_in(content: tuple[Entry, ...]) -> tuple[str, ...]:
    """Every speaker note in ``content``, depth-first (a slide's notes, wherever they were written)."""
    return _notes_text([entry for entry in walk_content(content) if type(entry) is Block and entry.kind == "note"])


def _no_notes(content: tuple[Entry, ...]) -> tuple[str, ...]:
    return ()


NotesOf = Callable[[tuple[Entry, ...]], tuple[str, ...]]


def _block_line(block: Block) -> str:
    """A block under an item (quote, code, table, paragraph) as one line of slide text."""
    lines = [line[1:].lstrip() if block.kind == "quote" and line.startswith(">") else line for line in block.text.split("\n")]
    return " ".join(" ".join(lines).split())


def _fold(node: Node) -> str:
    """A node's text with everything below it folded in, in order (for levels deeper than two)."""
    parts = [node.text if node.label is None else node.title]
    for entry in walk_content(node.content):
        if type(entry) is Node:
            parts.append(entry.title)
        elif type(entry) is Block and entry.kind not in _OFF_SLIDE:
            parts.append(_block_line(entry))
    return "; ".join(part for part in parts if part)


#: Blocks under an item that keep their own form on a slide (a code sample is not a bullet).
_SHOWN_AS_IS = frozenset(("code", "table", "image"))


def _item_entries(node: Node) -> Iterator[SlideEntry]:
    """A list item as slide bullets: the item (level 0), then what is under it in order (level 1;
    code, tables and images as themselves)."""
    yield SlideItem(node.text if node.label is not None else node.title, node.label, 0, node.number)
    for entry in node.content:
        if type(entry) is Block:
            if entry.kind in _SHOWN_AS_IS:
                yield SlideText(entry.text, entry.kind, entry.info)
            elif entry.kind not in _OFF_SLIDE:
                yield SlideItem(_block_line(entry), None, 1)
        elif type(entry) is List:
            for child in entry.items:
                if child.lists or child.body:
                    yield SlideItem(_fold(replace(child, label=None)), None, 1, child.number)
                else:
                    yield SlideItem(child.text if child.label is not None else child.title, child.label, 1, child.number)


def _slide_entries(content: tuple[Entry, ...]) -> list[SlideEntry]:
    """Blocks and lists as slide content, in source order (sections are not slide content)."""
    out: list[SlideEntry] = []
    for entry in content:
        if type(entry) is Block:
            if entry.kind not in _OFF_SLIDE:
                out.append(SlideText(entry.text, entry.kind, entry.info))
        elif type(entry) is List:
            for item in entry.items:
                out.extend(_item_entries(item))
    return out


def carry_over(page: list[SlideEntry], entry: SlideEntry) -> list[SlideEntry]:
    """When ``entry`` starts a new slide, what moves over with it from the end of ``page`` (which
    loses it): a sub-point's point and what follows that point, else the lead-in (``is_lead_in``)
    of an item. The fit engine breaks slides this way; the limits' split keeps the same runs
    together (``_groups``)."""
    if isinstance(entry, SlideItem) and entry.level > 0:
        start = max((i for i, e in enumerate(page) if isinstance(e, SlideItem) and e.level == 0), default=-1)
        if start > 0:
            carried = page[start:]
            del page[start:]
            return carried
    if type(entry) is SlideItem and len(page) > 1 and is_lead_in(page[-1]):
        return [page.pop()]
    return []


def split_slide(slide: Slide, options: DeckOptions) -> list[Slide]:
    """Split an overfull slide into continued slides between entries, never inside one.

    The entries are first grouped as they must stay together (a point with its sub-points; a
    lead-in text with the item it introduces), then the groups are shared out over as few slides
    as the limits allow, as evenly as they can be (7 items at 6 a slide: 4 + 3; a point with two
    sub-points is not left alone on a slide while the rest crowd the next)."""
    items = sum(1 for entry in slide.content if type(entry) is SlideItem)
    if options.max_words >= UNLIMITED and items <= options.max_items:
        return [slide]  # nothing to measure (lint's unsplit deck)
    if items <= options.max_items and slide_words(slide) <= options.max_words:
        return [slide]
    groups = [part for group in _groups(slide.content) for part in _within_limits(group, options)]
    pages = _share_out(groups, options)
    last, before = pages[-1], pages[-2] if len(pages) > 1 else []
    if len(last) == 1 and type(last[0]) is SlideItem and before and type(before[-1]) is SlideItem:
        # never one item alone when its siblings are on the slide before: take one of them if that
        # leaves the slide before with two, else join it (a denser slide beats an orphan)
        if len(before) > 2 and sum(entry_words(e) for e in (before[-1], last[0])) <= options.max_words:
            pages[-1] = [before.pop(), last[0]]
        elif sum(1 for e in before if type(e) is SlideItem) < options.max_items:
            before.append(pages.pop()[0])
    parts = len(pages)
    out: list[Slide] = []
    for index, page in enumerate(pages):
        part = replace(
            slide, content=tuple(page), notes=slide.notes if index == 0 else (), continued=index > 0, part=index + 1, parts=parts
        )
        page_items = sum(1 for entry in page if type(entry) is SlideItem)
        out.append(replace(part, dense=slide_words(part) > options.max_words or page_items > options.max_items))
    return out


def is_image(entry: SlideEntry) -> bool:
    """Whether ``entry`` is an image block (a paragraph of nothing but images)."""
    return type(entry) is SlideText and entry.kind in ("image", "paragraph") and is_image_only(entry.text)


def is_lead_in(entry: SlideEntry) -> bool:
    """Whether ``entry``, right before an item, introduces it (and goes to a new slide with it):
    text, not an image (a picture stands on its own)."""
    return type(entry) is SlideText and not is_image(entry)


def _groups(content: tuple[SlideEntry, ...]) -> list[list[SlideEntry]]:
    """The entries in the runs a split keeps together: a point and its sub-points; a lead-in right
    before an item and that item (as ``carry_over`` keeps them)."""
    groups: list[list[SlideEntry]] = []
    for entry in content:
        if type(entry) is SlideItem and entry.level > 0 and groups:
            groups[-1].append(entry)
        elif type(entry) is SlideItem and groups and len(groups[-1]) == 1 and is_lead_in(groups[-1][0]):
            groups[-1].append(entry)  # the lead-in's item
        else:
            groups.append([entry])
    return groups


def _within_limits(group: list[SlideEntry], options: DeckOptions) -> list[list[SlideEntry]]:
    """``group`` in parts that each fit the limits, as even as they can be (a point with more
    sub-points than a slide holds goes on over the next slide), or whole."""
    items = sum(1 for entry in group if type(entry) is SlideItem)
    if items <= options.max_items and sum(entry_words(entry) for entry in group) <= options.max_words:
        return [group]
    per_part = min(options.max_items, -(-items // max(1, -(-items // max(options.max_items, 1)))))
    parts: list[list[SlideEntry]] = [[]]
    words = count = 0
    for entry in group:
        size, is_item = entry_words(entry), type(entry) is SlideItem
        if parts[-1] and ((is_item and count + 1 > per_part) or words + size > options.max_words):
            parts.append([])
            words = count = 0
        parts[-1].append(entry)
        words += size
        count += is_item
    return parts


def _share_out(groups: list[list[SlideEntry]], options: DeckOptions) -> list[list[SlideEntry]]:
    """The groups, in order, on the fewest slides within the limits, shared out so the fullest slide
    is as empty as it can be (the earlier slides the fuller). A group over the limits on its own (a
    paragraph longer than ``max_words``) has a slide to itself."""
    weights = [(sum(1 for e in group if type(e) is SlideItem), sum(entry_words(e) for e in group)) for group in groups]
    most_items, most_words = max(options.max_items, 1), max(options.max_words, 1)

    def alone(weight: tuple[int, int]) -> bool:
        return weight[0] > most_items or weight[1] > most_words

    def pack(share: float) -> list[int]:
        """Where each slide starts when every slide takes groups up to ``share`` of the limits."""
        items_cap, words_cap = share * most_items + 1e-9, share * most_words + 1e-9
        starts: list[int] = []
        items = words = 0
        for index, weight in enumerate(weights):
            full = items + weight[0] > items_cap or words + weight[1] > words_cap
            if not starts or alone(weight) or alone(weights[index - 1]) or full:
                starts.append(index)
                items = words = 0
            items += weight[0]
            words += weight[1]
        return starts

    fewest = len(pack(1.0))
    low, high = 0.0, 1.0  # the smallest share that still needs no more slides: the evenest split
    for _ in range(30):
        middle = (low + high) / 2
        low, high = (low, middle) if len(pack(middle)) <= fewest else (middle, high)
    bounds = [*pack(high), len(groups)]
    return [[entry for group in groups[bounds[k] : bounds[k + 1]] for entry in group] for k in range(len(bounds) - 1)]


def _subtitle(meta: Any) -> str:
    return " · ".join(part for part in (meta.event, meta.date, ", ".join(meta.speakers)) if part)


def base_slides(doc: Document, notes: bool = True) -> tuple[Slide, ...]:
    """The deck's slides as the outline gives them: before the agenda, the limits' splits and the fit
    engine (lint's unsplit deck is these; every deck starts from them)."""
    meta = doc.meta
    # most notes have no speaker notes: then no slide needs to look for them
    notes_in: NotesOf = _notes_in if notes and _notes_in(doc.content) else _no_notes
    lede = doc.lede
    opening = 0
    while opening < len(lede) and type(lede[opening]) is Block:
        opening += 1
    slides: list[Slide] = [
        Slide("title", meta.title, _subtitle(meta), content=tuple(_slide_entries(lede[:opening])), notes=notes_in(lede[:opening]))
    ]
    if opening < len(lede):
        rest = lede[opening:]
        slides.append(Slide("bullets", meta.title, content=tuple(_slide_entries(rest)), notes=notes_in(rest), line=rest[0].span.start))
    bare: list[Node] = []  # reading-list entries without an annotation share one slide
    for section in doc.sections:
        if doc.is_reading_list:
            content = tuple(_slide_entries(section.content))
            if not content:
                bare.append(section)
                continue
            _flush_entries(bare, meta.title, slides)
            slides.append(Slide("entry", section.title, content=content, notes=notes_in(section.content), line=section.span.start))
            continue
        _section_slides(section, slides, notes_in)
    _flush_entries(bare, meta.title, slides)
    return tuple(slides)


def build_deck(doc: Document, options: DeckOptions | None = None, base: tuple[Slide, ...] | None = None) -> Deck:
    """The deck for ``doc``: pure, built once, shared by every slide renderer. ``base`` is
    ``base_slides(doc, options.notes)`` when the caller has it already."""
    options = options or DeckOptions()
    meta = doc.meta
    slides = list(base if base is not None else base_slides(doc, options.notes))
    agenda = options.agenda if options.agenda is not None else not doc.is_reading_list
    if agenda and doc.sections:  # right after the title slide
        slides.insert(1, Slide("agenda", "Agenda", content=tuple(SlideItem(s.title) for s in doc.parts)))
    expanded: list[Slide] = []
    for slide in slides:
        expanded.extend(split_slide(slide, options) if slide.kind not in ("title", "divider") else [slide])
    if options.fit:
        from confnotes.fit import fit_deck, unshown_images

        if options.image_root is not None:
            expanded = unshown_images(expanded, options.image_root)
        expanded = fit_deck(expanded)
    return Deck(meta.title, _subtitle(meta), meta.lang, tuple(expanded), options)


def _point_slides(node: Node, slides: list[Slide], notes_in: NotesOf) -> None:
    """A section with points: a divider, its opening text, a slide per point (text after a point stays
    on it), and a slide per bullet list, all in source order."""
    own = tuple(entry for entry in node.content if type(entry) is not Node)
    first_list = next((index for index, entry in enumerate(own) if type(entry) is List), len(own))
    line = node.span.start
    start = len(slides)
    opening = _slide_entries(own[:first_list])
    if opening:  # the section's own text opens it (a divider with the same title before it would repeat it)
        slides.append(Slide("text", node.title, content=tuple(opening), notes=notes_in(own[:first_list]), line=line))
    else:
        slides.append(Slide("divider", node.title, notes=notes_in(own[:first_list]), line=line))
    current: Slide | None = None
    for entry in own[first_list:]:
        if type(entry) is Block:
            if current is not None:
                if entry.kind == "note":
                    current = replace(current, notes=current.notes + _notes_text([entry]))
                elif entry.kind not in _OFF_SLIDE:
                    current = replace(current, content=current.content + (SlideText(entry.text, entry.kind, entry.info),))
            continue
        if current is not None:
            slides.append(current)
        lst: List = entry  # type: ignore[assignment]
        if not lst.ordered:
            current = Slide("bullets", node.title, content=tuple(_slide_entries((lst,))), notes=notes_in((lst,)), line=lst.span.start)
            continue
        point_slides = _points(lst, node.title, notes_in)
        slides.extend(point_slides[:-1])
        current = point_slides[-1]
    if current is not None:
        slides.append(current)
    divider = slides[start]
    if divider.kind == "divider" and len(slides) > start + 1 and slides[start + 1].title == divider.title:
        # the points were listed on one slide with the section's title: that slide opens the section
        slides[start + 1] = replace(slides[start + 1], notes=divider.notes + slides[start + 1].notes)
        del slides[start]


def _flush_entries(bare: list[Node], title: str, slides: list[Slide]) -> None:
    if bare:
        slides.append(Slide("bullets", title, content=tuple(SlideItem(entry.title) for entry in bare), line=bare[0].span.start))
        bare.clear()


def _points(lst: List, section_title: str, notes_in: NotesOf) -> list[Slide]:
    """A slide per point; consecutive points with nothing under them share one slide that lists
    them under the section's title (a slide with only a title says nothing)."""
    out: list[Slide] = []
    bare: list[Node] = []

    def flush() -> None:
        if bare:
            items = tuple(SlideItem(p.text if p.label is not None else p.title, p.label, 0, p.number) for p in bare)
            out.append(Slide("bullets", section_title, content=items, notes=notes_in(tuple(bare)), line=bare[0].span.start))
            bare.clear()

    for point in lst.items:
        slide = _point_slide(point, section_title, notes_in)
        if slide.content:
            flush()
            out.append(slide)
        else:
            bare.append(point)
    flush()
    return out


def _point_slide(point: Node, section_title: str, notes_in: NotesOf) -> Slide:
    return Slide(
        "point",
        point.title,
        section_title,
        content=tuple(_slide_entries(point.content)),
        notes=notes_in(point.content),
        line=point.span.start,
    )


def _section_slides(section: Node, slides: list[Slide], notes_in: NotesOf) -> None:
    """Slides for one section and, depth-first, its subsections (no recursion)."""
    stack = [section]
    while stack:
        node = stack.pop()
        subsections = node.sections
        if node.points:
            _point_slides(node, slides, notes_in)
        else:
            own = tuple(entry for entry in node.content if type(entry) is not Node)
            content = tuple(_slide_entries(own))
            if content or not subsections:
                kind = "bullets" if node.items else "text"
                slides.append(Slide(kind, node.title, content=content, notes=notes_in(own), line=node.span.start))
            else:  # a section that only groups sub-sections ("Day 2") opens them with a divider
                slides.append(Slide("divider", node.title, notes=notes_in(own), line=node.span.start))
        stack.extend(reversed(subsections))
