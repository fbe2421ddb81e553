"""A plain-text plan of the deck: number, kind, title, bullets, word count, split and dense marks (``--to outline``)."""

from __future__ import annotations

from pathlib import Path

from confnotes.model import Document
from confnotes.render.deck import render_template_deck, slide_lines
from confnotes.render.markdown import InlineRenderer
from confnotes.render.options import RenderOptions


def render(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[str, list[str]]:
    md = InlineRenderer(base_dir=base_dir, allow_html=options.allow_html)
    md.load_note(doc, None)

    def plain_with_urls(text: str) -> str:
        return md.plain(text, urls=True)

    return render_template_deck("slides.txt", doc, options, base_dir, plain=plain_with_urls, lines=slide_lines)
