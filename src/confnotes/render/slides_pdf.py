"""The deck as a 16:9 PDF, one slide a page (``--to slides-pdf``); with ``--notes``, each page's
speaker notes as a PDF text annotation, and (``render`` writes it beside the PDF) a ``.pdfpc``
file: the presenter consoles pdfpc and pympress show the notes from either."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from confnotes.model import Document
from confnotes.render.deck import deck_pdf, talk_plan_for
from confnotes.render.options import RenderOptions
from confnotes.render.pdf import PrintJob

#: The version of pdfpc's file format that ``pdfpc`` writes (pdfpc 4.5 and later read it).
PDFPC_FORMAT = 2


class PageNotes(NamedTuple):
    """One page of the slides PDF: the slide number it shows, its step of an incremental list
    (0: the slide as it arrives), and its speaker notes (Markdown, as written)."""

    label: str
    overlay: int
    notes: str
    private: bool  # ``<!-- slide notes: presenter -->``: for the presenter's console alone


def prepare(doc: Document, options: RenderOptions, base_dir: Path | None) -> PrintJob:
    # an incremental list: one page a step only when asked (slides.steps, --steps); else the whole list
    job = deck_pdf("deck.html", doc, options, base_dir, mode="pdf", steps=options.slides.steps)
    if not options.notes:
        return job
    # notes in the PDF itself travel with it: the presenter's own (``notes: presenter``) do not
    return replace(job, notes=tuple("" if page.private else page.notes for page in page_notes(doc, options, base_dir)))


def render(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[bytes, list[str]]:
    return prepare(doc, options, base_dir)()


def page_notes(doc: Document, options: RenderOptions, base_dir: Path | None) -> list[PageNotes]:
    """Each page of the slides PDF as ``prepare`` lays it out (the deck a PDF prints, a page a step
    when ``slides.steps``), with its speaker notes."""
    from confnotes.render.printed import printed_deck
    from confnotes.slides.build import stepped

    deck, _ = printed_deck(talk_plan_for(doc, options, base_dir).deck)
    slides = stepped(deck).slides if options.slides.steps else deck.slides
    pages: list[PageNotes] = []
    number = overlay = 0
    for index, slide in enumerate(slides):
        same = index > 0 and slide.later_step
        number, overlay = (number, overlay + 1) if same else (number + 1, 0)
        notes = "\n\n".join(note.strip() for note in slide.notes if note.strip())
        pages.append(PageNotes(str(number), overlay, notes, slide.private_notes))
    return pages


def pdfpc(doc: Document, options: RenderOptions, base_dir: Path | None) -> str:
    """The ``.pdfpc`` file of the slides PDF (pdfpc's JSON format 2): each page with its slide's
    number, its step as an overlay, and its notes (Markdown, which pdfpc renders); the talk's slot
    as its duration in minutes."""
    timing = talk_plan_for(doc, options, base_dir).timing
    pages = []
    for index, page in enumerate(page_notes(doc, options, base_dir)):
        entry: dict[str, object] = {"idx": index, "label": page.label, "overlay": page.overlay, "forcedOverlay": page.overlay > 0}
        if page.notes:
            entry["note"] = page.notes
        pages.append(entry)
    data: dict[str, object] = {"pdfpcFormat": PDFPC_FORMAT, "disableMarkdown": False}
    if doc.is_talk and timing.slot_minutes:
        data["duration"] = round(timing.slot_minutes)
    data["pages"] = pages
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
