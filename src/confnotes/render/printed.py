"""The part of a note a PDF prints: all of it, up to a budget of parts, boxes and characters.

WeasyPrint lays out every box of a page, and its cost grows with them: 100 KB of sections and
bullets took 42 s and 500 KB took 222 s and 2.2 GB, so a 20 MB note would never finish. A PDF
prints the note's parts (sections, items and blocks) in source order until ``MAX_PRINTED_PARTS``,
``MAX_PRINTED_BOXES`` or ``MAX_PRINTED_CHARS`` is reached; the rest is named on a last line of the
PDF and in a warning. The HTML page shows all of it. docs/security.md ("Limits") lists the values.

Boxes are what a part costs WeasyPrint beyond being one: a highlighted code line is a box per
token (about 25 on a line of Python), a table a box per cell, a paragraph one per printed line.
Measured on this 2-core machine, a box costs about 1 ms of layout and 20 KB while it lasts: 1,800
lines of highlighted Python (50,000 tokens) took 47 s and 1.1 GB, six tables of 1,200 cells 12 s
and 230 MB. Parts and characters alone let a 20 MB note of code or tables run past 600 s and 3 GB.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from confnotes.model import Block, Document, Entry, List, Node, Span, count_words, walk_content

if TYPE_CHECKING:
    from confnotes.slides import Deck, Slide

#: sections, items and blocks printed in one PDF (a long real conference note has about 1,500;
#: a 20 MB note's PDF peaked at 1.2 GB with 5,000 and 0.9 GB with 3,000, its outline included)
MAX_PRINTED_PARTS = 3_000
#: characters of text printed in one PDF (about 600 pages)
MAX_PRINTED_CHARS = 1_000_000
#: boxes laid out for a PDF's code and tables (tokens of highlighted code, lines of plain code,
#: table cells) and its paragraphs' lines: about 20 s and 450 MB of layout at most
MAX_PRINTED_BOXES = 20_000
#: a token as a highlighter splits code: a name, a number, a run of punctuation
_TOKEN = re.compile(r"\w+|[^\w\s]+")


@dataclass(frozen=True)
class Limits:
    """What one output lays out of a note: parts, characters and boxes, and its words for itself
    and for the output that shows all of it."""

    parts: int
    chars: int
    boxes: int
    name: str = "PDF"
    verb: str = "prints"
    left_out: str = "not printed"
    whole: str = "Its HTML page shows all of it."


def pdf_limits() -> Limits:
    """A PDF's (read when used: a test lowers the module's values)."""
    return Limits(MAX_PRINTED_PARTS, MAX_PRINTED_CHARS, MAX_PRINTED_BOXES)


#: A Word document: python-docx writes a part in about 0.1 ms (40,000 list items in 4.9 s) and
#: Word opens 30,000 paragraphs (about 1,000 pages) readily; its cells are cheaper than a PDF's
#: boxes (a table past 20,000 cells is its text in every output).
WORD_PARTS, WORD_CHARS, WORD_BOXES = 30_000, 5_000_000, 200_000
WORD = Limits(WORD_PARTS, WORD_CHARS, WORD_BOXES, "Word document", "holds", "left out")


@dataclass
class _Budget:
    parts: int
    chars: int
    boxes: int
    #: words of the note not printed yet: once the budget is spent, the words it leaves out
    words_left: int
    limits: Limits

    def spend(self, text: str, boxes: int = 1) -> bool:
        """Take one part of ``text``'s length and ``boxes``; False when the budget cannot hold it."""
        if self.parts <= 0 or len(text) > self.chars or boxes > self.boxes:
            return False
        self.parts -= 1
        self.chars -= len(text)
        self.boxes -= boxes
        self.words_left -= count_words(text)
        return True

    def note(self) -> str:
        """The last line of a PDF (or Word document) cut short."""
        left = f"{self.words_left:,} words"
        what = self.limits
        return f"⋯ The rest of this note ({left}) is {what.left_out}: a {what.name} {what.verb} at most {_limits(what)}. {what.whole}"


def _limits(limits: Limits) -> str:
    return (
        f"{limits.parts:,} sections, items and blocks, {limits.chars:,} characters, "
        f"or {limits.boxes:,} pieces of code, table cells and lines"
    )


def boxes(block: Block) -> int:
    """What ``block`` costs a PDF's layout, in boxes (see the module's docstring)."""
    return _cost(block.kind, block.text, block.info)


def _cost(kind: str, text: str, info: str) -> int:
    from confnotes.render.inline.code import MAX_PRINTED_CODE_CHARS

    if kind == "code":
        text = text[:MAX_PRINTED_CODE_CHARS]  # what a PDF prints of a block at most
        return max(1, len(_TOKEN.findall(text)) if info.strip() else text.count("\n"))
    if kind == "table":
        return max(1, sum(line.count("|") for line in text.splitlines()))
    return 1 + len(text) // 100


def slide_boxes(slide: Slide) -> int:
    """What a slide costs a slides PDF's or handout's layout: its title, entries and speaker notes."""
    from confnotes.slides import SlideText

    total = 1 + sum(1 + len(note) // 100 for note in slide.notes)
    for entry in slide.content:
        total += _cost(entry.kind, entry.text, entry.info) if isinstance(entry, SlideText) else 1 + len(entry.text) // 100
    return total


def printed_deck(deck: Deck) -> tuple[Deck, str | None]:
    """``deck`` cut to the slides a PDF lays out within ``MAX_PRINTED_BOXES`` (a last slide says
    what is left out), and a warning when it was cut. A deck's own limits (``max_slides``) come
    first; this one is for its PDF: a thousand slides of highlighted code are 375,000 boxes."""
    from confnotes.slides import Slide, SlideText

    left = MAX_PRINTED_BOXES
    for index, slide in enumerate(deck.slides):
        left -= slide_boxes(slide)
        if left < 0 and index > 0:
            rest = len(deck.slides) - index
            text = (
                f"This PDF stops here: its {rest:,} further slides are not printed, as a PDF lays out at most "
                f"{MAX_PRINTED_BOXES:,} pieces of code, table cells and lines. The HTML deck and the PPTX show every slide."
            )
            final = Slide("text", "More in the deck", content=(SlideText(text),), line=slide.line)
            warning = (
                f"slides PDF cut: {rest:,} slides not printed, from slide {index + 1:,} on "
                f"(at most {MAX_PRINTED_BOXES:,} pieces of code, table cells and lines a PDF)"
            )
            return replace(deck, slides=(*deck.slides[:index], final)), warning
    return deck, None


def printed_part(doc: Document, limits: Limits | None = None) -> tuple[Document, str | None]:
    """``doc`` cut to what a PDF prints (or another output lays out: ``WORD``), and a warning when
    something was left out (None: all of it). The last line, where the cut is, says how much is left out."""
    limits = limits or pdf_limits()
    budget = _Budget(limits.parts, limits.chars, limits.boxes, _words(doc.content), limits)
    kept, cut = _take(doc.content, budget)
    if not cut:
        return doc, None
    warning = f"{limits.name} cut: {budget.words_left:,} more words {limits.left_out} (at most {_limits(limits)} a {limits.name})"
    return replace(doc, content=kept), warning


def _take(content: tuple[Entry, ...], budget: _Budget, in_list: bool = False) -> tuple[tuple[Entry, ...], bool]:
    """The entries of ``content`` the budget holds, in order, and whether any were left out; where
    the cut is, a paragraph saying what is left out closes the content (a list's items hold none:
    the content holding the list gets it). Nothing is spent after the cut, so its count is final."""
    kept: list[Entry] = []

    def cut() -> tuple[tuple[Entry, ...], bool]:
        if not in_list:
            line = kept[-1].span.end + 1 if kept else 1
            kept.append(Block("paragraph", budget.note(), Span(line, line)))
        return tuple(kept), True

    for entry in content:
        if type(entry) is Block:
            if not budget.spend(entry.text, boxes(entry)):
                return cut()
            kept.append(entry)
        elif type(entry) is List:
            items, was_cut = _take(entry.items, budget, in_list=True)
            if items:
                kept.append(replace(entry, items=items))  # type: ignore[arg-type]
            if was_cut:
                return cut()
        else:
            node: Node = entry  # type: ignore[assignment]
            if not budget.spend(node.title):
                return cut()
            inner, was_cut = _take(node.content, budget)
            kept.append(replace(node, content=inner))
            if was_cut:
                return tuple(kept), True
    return tuple(kept), False


def _words(content: tuple[Entry, ...]) -> int:
    total = 0
    for entry in walk_content(content):
        if type(entry) is Block:
            total += count_words(entry.text)
        elif type(entry) is Node:
            total += count_words(entry.title)
    return total
