"""A handout PDF: each slide beside its speaker notes and lines for the reader's own (``--to handout``)."""

from __future__ import annotations

from pathlib import Path

from confnotes.model import Document
from confnotes.render.deck import deck_pdf
from confnotes.render.options import RenderOptions
from confnotes.render.pdf import PrintJob


def prepare(doc: Document, options: RenderOptions, base_dir: Path | None) -> PrintJob:
    return deck_pdf("handout.html", doc, options, base_dir)


def render(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[bytes, list[str]]:
    return prepare(doc, options, base_dir)()
