"""Renderers: each takes a Document (or a Deck) and returns text or bytes; none re-parses notes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from confnotes.model import Document


def render_note(doc: Document, to: str, options: Any, base_dir: Path | None) -> tuple[str | bytes, list[str]]:
    """Render ``doc`` in format ``to`` (html, pdf or a slide format); returns (data, warnings).

    Each renderer is imported only when asked for, so reading notes never loads WeasyPrint.
    """
    if to == "html":
        from confnotes.render.html import render_html

        return render_html(doc, options, base_dir)
    if to == "pdf":
        from confnotes.render.pdf import render_pdf

        return render_pdf(doc, options, base_dir)
    from confnotes.render.deck import render_deck

    return render_deck(doc, to, options, base_dir)
