"""The HTML deck: one self-contained page, keyboard navigation, speaker notes (``--to slides``)."""

from __future__ import annotations

from pathlib import Path

from confnotes.model import Document
from confnotes.render.deck import render_template_deck
from confnotes.render.options import RenderOptions


def render(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[str, list[str]]:
    return render_template_deck("deck.html", doc, options, base_dir, mode="html")
