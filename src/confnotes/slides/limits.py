"""Limits on the work one deck takes, so any note (up to 20 MB) gives a deck in seconds.

A note may hold a 100,000-line code block, a 200,000-word paragraph, a 300-column table or
20,000 sections; on slides each would be hundreds or thousands of slides that nobody presents,
and measuring them took the fit engine and PPTX minutes and gigabytes. Before a deck is split
and fitted, each slide's blocks are cut to what slides can show (``limit_slide``), and a deck
stops at its ``max_slides`` (``last_slide`` says what was left out). The two a real note meets —
slides in a deck and lines of a code block — are ``[slides]`` settings (``max_slides``,
``max_code_lines``) with defaults that keep a long talk whole: code past a slide's room is split
over slides by the fit, not cut. Every cut is a warning of the deck formats, naming the slide and
the limit; pages and PDFs of the note are not cut by these. docs/security.md ("Limits") lists each
value and the test that guards it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from confnotes.config.settings import SlideSettings
from confnotes.model.values import Code, Table
from confnotes.slides.model import Slide, SlideEntry, SlideItem, SlideText, code_entry, table_entry

#: slides in one deck by default (``[slides] max_slides``): the rest of the note is summed up on one last slide
MAX_SLIDES = SlideSettings().max_slides
#: the most ``max_slides`` may be: no deck has more slides (a rehearsal names no later one)
SLIDES_CEILING = 5000
#: a code block on slides by default (``[slides] max_code_lines``): its first lines, up to this many
#: lines, and characters: ``CODE_LINE_CHARS`` a line
MAX_CODE_LINES = SlideSettings().max_code_lines
CODE_LINE_CHARS = 100
MAX_CODE_CHARS = MAX_CODE_LINES * CODE_LINE_CHARS
#: a paragraph, quote or item on slides: its first words, up to this many words and characters
MAX_TEXT_WORDS = 2_000
MAX_TEXT_CHARS = 20_000
#: a table on slides: its first columns and the rows that fit this many cells
MAX_TABLE_COLUMNS = 24
MAX_TABLE_CELLS = 2_000
#: entries (items and blocks) on one slide before it is split: a list of more is cut
MAX_ENTRIES = 5_000

_WORD = re.compile(r"\S+")


def limit_slide(slide: Slide, code_lines: int = MAX_CODE_LINES) -> tuple[Slide, list[str]]:
    """``slide`` with each block cut to what slides show (a code block to ``code_lines`` lines), and
    a warning for each cut."""
    warnings: list[str] = []
    content: list[SlideEntry] = []
    for entry in slide.content[:MAX_ENTRIES]:
        cut, why = _limit_entry(entry, code_lines)
        content.append(cut)
        if why:
            warnings.append(f"slide '{_named(slide)}': {why}")
    if len(slide.content) > MAX_ENTRIES:
        left = len(slide.content) - MAX_ENTRIES
        warnings.append(f"slide '{_named(slide)}': {left:,} more items not on slides (at most {MAX_ENTRIES:,} a slide before it is split)")
    if not warnings:
        return slide, []
    return replace(slide, content=tuple(content)), warnings


def _named(slide: Slide) -> str:
    title = " ".join(slide.title.split())
    return title if len(title) <= 60 else title[:59] + "…"


def _limit_entry(entry: SlideEntry, code_lines: int) -> tuple[SlideEntry, str | None]:
    if type(entry) is SlideItem:
        text, why = _cut_text(entry.text, "item")
        return (entry if why is None else replace(entry, text=text)), why
    assert type(entry) is SlideText
    if entry.kind == "code":
        return _cut_code(entry, code_lines)
    if entry.kind == "table":
        return _cut_table(entry)
    if entry.kind in ("paragraph", "quote", "html"):
        text, why = _cut_text(entry.text, "paragraph" if entry.kind != "quote" else "quote")
        return (entry if why is None else replace(entry, text=text, value=None)), why  # the value read the whole text
    return entry, None


def _cut_text(text: str, what: str) -> tuple[str, str | None]:
    """The first ``MAX_TEXT_WORDS`` words (``MAX_TEXT_CHARS`` characters) of ``text``, cut at a word."""
    if len(text) <= MAX_TEXT_CHARS and text.count(" ") + text.count("\n") < MAX_TEXT_WORDS:
        return text, None  # most text is far below: no need to count its words
    words = 0
    end = len(text)
    for match in _WORD.finditer(text):
        words += 1
        if words > MAX_TEXT_WORDS or match.end() > MAX_TEXT_CHARS:
            end = match.start() if match.start() > 0 else MAX_TEXT_CHARS
            break
    else:
        return text, None
    left = len(_WORD.findall(text, end))
    kept = text[:end].rstrip()
    return (
        f"{kept} … [{left:,} more words not on slides]",
        f"{what} cut to its first {min(words - 1, MAX_TEXT_WORDS):,} words on slides ({left:,} more; the limit is "
        f"{MAX_TEXT_WORDS:,} words or {MAX_TEXT_CHARS:,} characters)",
    )


def _cut_code(entry: SlideText, most: int) -> tuple[SlideEntry, str | None]:
    """The code block's first ``most`` lines (``CODE_LINE_CHARS`` characters a line), and a last
    line that says how many more there are."""
    chars = most * CODE_LINE_CHARS
    if entry.text.count("\n") < most and len(entry.text) <= chars:
        return entry, None
    from confnotes.slides.fit import code_lines

    lines = code_lines(entry)
    kept: list[str] = []
    size = 0
    for line in lines[:most]:
        if size + len(line) > chars:
            if not kept:
                kept.append(line[:chars])
            break
        kept.append(line)
        size += len(line) + 1
    left = len(lines) - len(kept)
    if left <= 0 and size <= chars:
        return entry, None
    code = entry.code or Code("", "", ())
    shown = code_entry(replace(code, lines=(*kept, f"⋯ {left:,} more lines not on slides")), entry.info)
    why = (
        f"code block cut to its first {len(kept):,} lines on slides ({left:,} more; the limit is "
        f"{most:,} lines or {chars:,} characters a block: [slides] max_code_lines)"
    )
    return shown, why


def _cut_table(entry: SlideText) -> tuple[SlideEntry, str | None]:
    """The table's first ``MAX_TABLE_COLUMNS`` columns and the rows that fit ``MAX_TABLE_CELLS`` cells."""
    if entry.text.count("|") <= MAX_TABLE_CELLS or (table := entry.table) is None:  # a table has fewer cells than pipes
        return entry, None
    rows = table.all_rows
    columns = table.columns
    kept_columns = min(columns, MAX_TABLE_COLUMNS)
    kept_rows = max(2, min(len(rows), MAX_TABLE_CELLS // max(kept_columns, 1)))
    if kept_columns == columns and kept_rows == len(rows):
        return entry, None
    shown = Table(rows[0][:kept_columns], tuple(row[:kept_columns] for row in rows[1:kept_rows]), table.aligns[:kept_columns])
    why = (
        f"table cut to {kept_rows - 1:,} of {len(rows) - 1:,} rows and {kept_columns} of {columns} columns on slides "
        f"(the limit is {MAX_TABLE_COLUMNS} columns and {MAX_TABLE_CELLS:,} cells a table)"
    )
    return table_entry(shown, entry.info), why


def last_slide(rest: list[Slide], most: int = MAX_SLIDES) -> tuple[Slide, str]:
    """The slide that ends a deck cut at ``most`` slides, saying what of the note is not on slides,
    and the warning that says so."""
    first = rest[0]
    line = first.line or next((slide.line for slide in rest if slide.line), 0)
    where = f"from slide '{_named(first)}', line {line:,}, on" if line else f"from slide '{_named(first)}' on"
    text = (
        f"This deck stops at {most:,} slides, its limit ([slides] max_slides): the rest of the note ({where}) "
        "is not on slides. The note's page and PDF show all of it."
    )
    warning = (
        f"the deck stops at {most:,} slides (the limit for one deck: [slides] max_slides); the rest of the note ({where}) is not on slides"
    )
    return Slide("text", "More in the notes", content=(SlideText(text),), line=line), warning
