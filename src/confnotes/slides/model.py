"""The slide model: slides, their entries (bullets and blocks, in source order) and the deck."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from confnotes.model import count_words
from confnotes.parse.blocks import is_image_only
from confnotes.slides.options import DeckOptions


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
    #: a part of a code block the fit engine split: the whole block's code and the line this part
    #: starts at, so it is highlighted as part of the whole (a string open across the cut stays one)
    whole: str = ""
    first: int = 0


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
    #: for each note, how many of ``content``'s entries were written before it (empty: none, all
    #: notes open the slide); a split gives each note to the part holding the entry it follows
    notes_at: tuple[int, ...] = ()
    #: the footnotes the slide cites, ``(number, id, Markdown text)``, shown at its foot
    footnotes: tuple[tuple[int, str, str], ...] = ()
    #: what the author directed (``<!-- slide … -->``, ``slides.directives``): CSS classes, a
    #: background colour or image, and whether the slide is left out
    classes: tuple[str, ...] = ()
    background: str = ""
    hidden: bool = False
    #: the author started this slide (``<!-- slide -->`` inside a section), not a split
    forced: bool = False

    def note_positions(self) -> tuple[int, ...]:
        return self.notes_at or (0,) * len(self.notes)

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
    #: what the deck's limits (``slides.limits``) cut, one warning each
    cut: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.slides)


def entry_words(entry: SlideEntry) -> int:
    """Words an audience reads on a slide; code, tables and formulas are looked at, not read, so
    they count none (the fit engine measures them)."""
    if type(entry) is SlideItem:
        return _words(entry.full)
    return 0 if entry.kind in ("code", "table", "math") else _words(entry.text)


@lru_cache(maxsize=16384)  # the splitter, lint, timing and the deck count the same texts
def _words(text: str) -> int:
    return count_words(text)


def slide_words(slide: Slide) -> int:
    return sum(entry_words(entry) for entry in slide.content)


def is_image(entry: SlideEntry) -> bool:
    """Whether ``entry`` is an image block (a paragraph of nothing but images)."""
    return type(entry) is SlideText and entry.kind in ("image", "paragraph") and is_image_only(entry.text)


def is_picture(entry: SlideEntry) -> bool:
    """Whether ``entry`` takes a picture's room on the slide: an image block or a drawn diagram."""
    return type(entry) is SlideText and (entry.kind == "diagram" or is_image(entry))


def is_lead_in(entry: SlideEntry) -> bool:
    """Whether ``entry``, right before an item, introduces it (and goes to a new slide with it):
    text, not an image (a picture stands on its own)."""
    return type(entry) is SlideText and not is_image(entry)
