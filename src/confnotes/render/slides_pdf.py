"""The deck as a 16:9 PDF, one slide a page (``--to slides-pdf``)."""

from __future__ import annotations

from pathlib import Path

from confnotes.model import Document
from confnotes.render.deck import deck_pdf
from confnotes.render.options import RenderOptions
from confnotes.render.pdf import PrintJob


def prepare(doc: Document, options: RenderOptions, base_dir: Path | None) -> PrintJob:
    # an incremental list: one page a step only when asked (slides.steps, --steps); else the whole list
    return deck_pdf("deck.html", doc, options, base_dir, mode="pdf", steps=options.slides.steps)


def render(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[bytes, list[str]]:
    return prepare(doc, options, base_dir)()
