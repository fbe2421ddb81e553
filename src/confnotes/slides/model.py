"""The slide model: slides, their entries (bullets and blocks, in source order) and the deck."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from confnotes.model import count_words
from confnotes.model.values import Code, Diagram, Pictures, Table, Value
from confnotes.slides.directives import is_dark
from confnotes.slides.options import DeckOptions


@dataclass(frozen=True, slots=True)
class SlideItem:
    """One bullet on a slide: inline Markdown ``text``, an optional bold ``label``, level 0 or 1."""

    text: str
    label: str | None = None
    level: int = 0
    number: str | None = None
    #: in an incremental list, the step that reveals it (1, 2, …; a sub-item its item's); 0: shown
    step: int = 0
    #: on an agenda, the part of the talk the item names (its index in ``Document.parts``): its minutes
    #: follow it onto whichever agenda slide it lands on
    part: int | None = None

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
    #: the block's typed value (``confnotes.model.values``), as ``parse`` read it or the fit engine
    #: cut it: a part of a table is a ``Table`` of its rows, a part of a code block a ``Code``
    value: Value | None = field(default=None, compare=False)
    #: a code walk-through's step this copy of the slide shows (``slides.build.stepped``): None as
    #: the output shows a whole block (the HTML deck walks it, a printed deck shows the last step),
    #: 0 not reached yet (no line marked), 1 the first step, …
    shown_step: int | None = None

    @property
    def code(self) -> Code | None:
        """The code a code block or diagram shows (a diagram not drawn here shows its source)."""
        value = self.value
        return value.code if type(value) is Diagram else value if type(value) is Code else None

    @property
    def table(self) -> Table | None:
        return self.value if type(self.value) is Table else None

    @property
    def steps(self) -> tuple[frozenset[int] | None, ...]:
        """The steps of a code walk-through (``{2|4-5}``) this block, or its part, shows (empty: none)."""
        from confnotes.markup.codesteps import steps_on

        code = self.code
        if self.kind != "code" or not self.info or code is None:
            return ()
        return steps_on(self.info, self.first, len(code.lines))

    @property
    def walked(self) -> bool:
        """Whether the block is a code walk-through."""
        return bool(self.steps)


def code_entry(code: Code, info: str, whole: str = "", first: int = 0) -> SlideText:
    """A code block of ``code``'s lines as a slide shows it (a fence of its language)."""
    return SlideText("```" + info + "\n" + "\n".join(code.lines) + "\n```", "code", info, whole, first, code)


def table_entry(table: Table, info: str = "") -> SlideText:
    """A table (a part of one, or one cut) as a slide shows it."""
    return SlideText(table.markdown(), "table", info, value=table)


SlideEntry = SlideItem | SlideText


@dataclass(frozen=True, slots=True)
class Columns:
    """Content shown side by side: ``content[start:stops[0]]`` is the first column,
    ``content[stops[0]:stops[1]]`` the second, …; what stands before ``start`` is above the
    columns, after ``stops[-1]`` below them. ``widths``: each column's share, together 1."""

    start: int
    stops: tuple[int, ...]
    widths: tuple[float, ...]

    def spans(self) -> list[tuple[int, int]]:
        return list(zip((self.start, *self.stops[:-1]), self.stops, strict=True))


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
    #: ``<!-- slide layout: … -->`` (``slides.layouts``), and content side by side (``:::: columns``
    #: or the two-column layout)
    layout: str = ""
    grid: Columns | None = None
    #: ``<!-- slide notes: presenter -->``: the notes are the presenter view's alone (no handout,
    #: PPTX or Marp file carries them)
    private_notes: bool = False
    #: the slides PDF's steps of an incremental list: the items up to this step are shown (None:
    #: all; the first step's page shows none of them, as the HTML deck does on arriving)
    upto: int | None = None
    #: which copy of the slide this is when a deck shows it a step a slide (``slides.build.stepped``):
    #: 0 the slide (or its first step), 1 the step after, …
    step_of: int = 0

    def note_positions(self) -> tuple[int, ...]:
        return self.notes_at or (0,) * len(self.notes)

    @property
    def dark_ground(self) -> bool:
        """Whether the slide's ground is dark in every theme, so its text and drawings are light: a
        section divider or layout, a full-image photo, a dark background colour, or the invert class
        with no background of the author's (a dark theme's slides are all dark besides)."""
        if self.kind == "divider" or self.layout in ("section", "full-image"):
            return True
        return is_dark(self.background) if self.background else "invert" in self.classes

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
        bullets, ``("text", SlideText)`` for a block; a run ends where a column does (``grid``), so
        a list shared out over two columns is two runs."""
        grid = self.grid
        if grid is None:
            return runs_of(self.content)
        cuts = (0, grid.start, *grid.stops, len(self.content))
        return [run for start, stop in zip(cuts, cuts[1:], strict=False) for run in runs_of(self.content[start:stop])]

    @property
    def rows(self) -> list[list[tuple[float, list[tuple[str, Any]]]]]:
        """The content as rows of columns, each ``(width, runs)``: one row of one column unless
        the slide has columns (``grid``): then what is above them, the columns, what is below."""
        grid = self.grid
        if grid is None:
            return [[(1.0, self.runs)]]
        out = []
        if grid.start:
            out.append([(1.0, runs_of(self.content[: grid.start]))])
        out.append([(width, runs_of(self.content[a:b])) for width, (a, b) in zip(grid.widths, grid.spans(), strict=True)])
        if grid.stops[-1] < len(self.content):
            out.append([(1.0, runs_of(self.content[grid.stops[-1] :]))])
        return out

    @property
    def picture(self) -> SlideEntry | None:
        """An image layout's picture (``image-left``, ``image-right``, ``full-image``): the first."""
        if self.layout not in ("image-left", "image-right", "full-image"):
            return None
        return next((entry for entry in self.content if is_picture(entry)), None)

    @property
    def big(self) -> SlideEntry | None:
        """The big-number layout's figure: the first entry that is not a picture."""
        if self.layout != "big-number":
            return None
        return next((entry for entry in self.content if not is_picture(entry)), None)

    @property
    def steps(self) -> int:
        """How many steps reveal the slide's incremental lists (0: none; a part of a split list
        counts its own)."""
        return len({entry.step for entry in self.content if type(entry) is SlideItem and entry.step})

    @property
    def code_steps(self) -> tuple[int, ...]:
        """The steps of each code walk-through on the slide (``{2|4-5}``), in order (a block the
        deck split counts the steps of its own lines); empty: none."""
        walks = (entry.steps for entry in self.content if type(entry) is SlideText)
        return tuple(len(steps) for steps in walks if steps)  # each block's steps read once

    @property
    def later_step(self) -> bool:
        """A step of a slide after its first, as a deck printed a page a step has it (``slides.build.stepped``):
        the same slide."""
        return self.step_of > 0

    @property
    def shared_notes(self) -> tuple[str, ...]:
        """The notes every output that is handed out carries (handout, PPTX, Marp, the outline):
        none when the author kept them to the presenter view (``notes: presenter``)."""
        return () if self.private_notes else self.notes


def runs_of(content: tuple[SlideEntry, ...]) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for entry in content:
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
    return 0 if entry.kind in ("code", "table", "math", "diagram") else _words(entry.text)


@lru_cache(maxsize=16384)  # the splitter, lint, timing and the deck count the same texts
def _words(text: str) -> int:
    return count_words(text)


def slide_words(slide: Slide) -> int:
    return sum(entry_words(entry) for entry in slide.content)


def is_image(entry: SlideEntry) -> bool:
    """Whether ``entry`` is an image block (a paragraph of nothing but images)."""
    return type(entry) is SlideText and entry.kind in ("image", "paragraph") and type(entry.value) is Pictures


def is_picture(entry: SlideEntry) -> bool:
    """Whether ``entry`` takes a picture's room on the slide: an image block or a drawn diagram."""
    return type(entry) is SlideText and (entry.kind == "diagram" or is_image(entry))


def is_lead_in(entry: SlideEntry) -> bool:
    """Whether ``entry``, right before an item, introduces it (and goes to a new slide with it):
    text, not an image (a picture stands on its own)."""
    return type(entry) is SlideText and not is_image(entry)
