"""Marp Markdown of the deck (``--to marp``).

Marp reads HTML comments as directives (``<!-- backgroundImage: url(…) -->``) and honours
``<style>``, so the author's own comments and style elements are neutralised (shown as
text) unless the config sets ``allow_html``: opening a deck never fetches what a note smuggled in.
"""

from __future__ import annotations

import re
from pathlib import Path

from confnotes.model import Document
from confnotes.render.deck import render_template_deck
from confnotes.render.options import RenderOptions

_ACTIVE = re.compile(r"<(!--|/?style\b|/?script\b)", re.IGNORECASE)


def neutralise(text: str) -> str:
    """Author text that Marp would obey rather than show: comments, ``<style>`` and ``<script>``."""
    return _ACTIVE.sub(lambda match: "&lt;" + match.group(1), text)


def render(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[str, list[str]]:
    safe = (lambda text: text) if options.allow_html else neutralise
    return render_template_deck("marp.md", doc, options, base_dir, safe=safe)
