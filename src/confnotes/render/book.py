"""A conference's notes as one printable book (``render DIR --to book``): a proceedings PDF.

A cover (the conference's name, its dates, how many talks), a table of contents whose page
numbers WeasyPrint fills in (``target-counter``), then a part a day (or a track) when the notes
carry them, and each talk starting on a right-hand page with its title in the running head.
Each talk is its own note's printed page (``render --to pdf``'s HTML, its anchors made unique to
it); headings are the PDF's bookmarks (parts, talks, their sections), and the PDF is tagged as
every confnotes PDF is.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from confnotes.errors import ErrorKind, NotesError

#: A book lays out every page of every talk at once (WeasyPrint holds them all): past this many
#: notes, a book of a day or a track is the way (``render day1/ --to book``).
MAX_BOOK_NOTES = 200
_ID = re.compile(r'(\s(?:id|for|aria-labelledby|aria-describedby)=")([^"]+)(")')
#: Where an undated talk sorts: after every dated one.
UNDATED = "\uffff"
_HREF = re.compile(r'(\shref="#)([^"]+)(")')


@dataclass(frozen=True)
class Talk:
    """One note of the book, printed: its HTML body, and what the contents and parts show of it."""

    number: int
    title: str
    speakers: tuple[str, ...]
    part: str
    order: tuple[str, str, str]
    body: str


def book_pdf(notes: list[str], config_file: str | None, overrides: dict[str, Any]) -> tuple[bytes, list[str]]:
    """The book of ``notes`` (paths), each read with its own config; raises ``NotesError`` (one line,
    nothing written) for a note that cannot be read or a book too large to lay out."""
    if not notes:
        raise NotesError("no notes for the book (give a folder of notes, or notes)", kind=ErrorKind.USAGE)
    if len(notes) > MAX_BOOK_NOTES:
        raise NotesError(
            f"{len(notes)} notes: a book holds at most {MAX_BOOK_NOTES}; make a book a day or a track (render notes/day1 --to book)",
            kind=ErrorKind.USAGE,
        )
    from confnotes.render.pdf import html_to_pdf

    warnings: list[str] = []
    talks: list[Talk] = []
    styles = ""
    events: Counter[str] = Counter()
    for number, note in enumerate(notes, 1):
        talk, style, event, said = _talk(note, number, config_file, overrides)
        talks.append(talk)
        styles = styles or style
        events.update([event] if event else [])
        warnings += [f"{note}: {message}" for message in said]
    talks.sort(key=lambda talk: talk.order)
    title = events.most_common(1)[0][0] if events else "Proceedings"
    html = _book_html(title, talks, styles)
    pdf, more = html_to_pdf(html, Path.cwd(), tagged=overrides.get("tagged") is not False)
    return pdf, [*warnings, *more]


def _talk(note: str, number: int, config_file: str | None, overrides: dict[str, Any]) -> tuple[Talk, str, str | None, list[str]]:
    """A note as a chapter: its printed page's body with its ids made its own, and its stylesheet."""
    from confnotes.config import config_for_target
    from confnotes.edges.source import note_folder
    from confnotes.load import load_note
    from confnotes.render.formats import prepared
    from confnotes.render.html import render_html
    from confnotes.render.options import RenderOverrides, resolve_render_options
    from confnotes.render.printed import printed_part

    config = config_for_target(note, config_file)
    doc = load_note(note, config).doc
    options = replace(resolve_render_options(config, doc, RenderOverrides(**overrides)), mode="pdf")
    folder = note_folder(note) or Path.cwd()
    doc, prepared_said = prepared(doc, folder)  # citations and References, as render --to pdf has them
    doc, cut = printed_part(doc)
    html, said = render_html(doc, options, folder)
    style = html[html.find("<style>") : html.find("</style>") + len("</style>")]
    body = html[html.find(">", html.find("<body")) + 1 : html.rfind("</body>")]
    prefix = f"t{number}-"
    body = _ID.sub(lambda m: m.group(1) + " ".join(prefix + part for part in m.group(2).split()) + m.group(3), body)
    body = _HREF.sub(lambda m: m.group(1) + prefix + m.group(2) + m.group(3), body)
    extra = doc.meta.extra
    start = str(extra.get("start") or "")
    day = start[:10] or (doc.meta.date or "")
    part = day or str(extra.get("track") or "")
    title = doc.meta.plain_title  # the contents and running heads show a title's words
    talk = Talk(number, title, doc.meta.speakers, part, (day or UNDATED, start, title.casefold()), body)
    return talk, style, doc.meta.event, [*prepared_said, *([cut] if cut else []), *said]


def _book_html(title: str, talks: list[Talk], styles: str) -> str:
    from confnotes.templating import read_builtin, render_template

    parts = [talk.part for talk in talks]
    grouped = any(parts) and len(set(parts)) > 1  # undated talks, if any, in a part of their own, last
    days = sorted({talk.part[:10] for talk in talks if re.fullmatch(r"\d{4}-\d{2}-\d{2}", talk.part[:10])})
    return render_template(
        "book.html",
        (),
        title=title,
        talks=talks,
        grouped=grouped,
        dates=(days[0], days[-1]) if days else None,
        styles=styles,
        book_css=read_builtin("book.css"),
        part_name=_part_name,
    )


def _part_name(part: str) -> str:
    """A part's heading: a day as its weekday and date, a track as itself; the talks with neither
    are "Other talks"."""
    import datetime as dt

    if not part:
        return "Other talks"
    try:
        return dt.date.fromisoformat(part[:10]).strftime("%A, %d %B %Y")
    except ValueError:
        return part
