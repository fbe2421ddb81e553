"""Footnotes and link references: loaded once for the note, shown at the end, at the foot of the
page or on the slide.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

from confnotes.model import Block, Document, walk_content
from confnotes.render.inline.base import InlineBase

_PARAGRAPH_BREAK = re.compile(r"</p>\s*<p\b[^>]*>")

_PARAGRAPH_EDGE = re.compile(r"\A<p\b[^>]*>|</p>\Z")


def reference_blocks(doc: Document) -> list[Block]:
    """The note's link reference definitions (``[deck]: https://…``), wherever they stand."""
    return [entry for entry in walk_content(doc.content) if type(entry) is Block and entry.kind == "reference"]


def references_of(blocks: list[Block], parser: Any) -> dict[str, Any]:
    """The definitions ``blocks`` hold, as ``parser`` (a markdown-it) reads them: label to
    ``{"href", "title"}``. They apply to the whole note, so they are collected once."""
    env: dict[str, Any] = {}
    for block in blocks:
        parser.parse(block.text, env)
    references: dict[str, Any] = env.get("references", {})
    return references


class NoteRules(InlineBase):
    # public API ----------------------------------------------------------------
    def load_note(self, doc: Document, footnotes_at: str | None) -> Any:
        """What every output's inline Markdown needs of the whole note: its link references (a
        ``[the deck][deck]`` link is a link in every output, not its brackets), and its footnotes,
        shown ``footnotes_at`` (None: not loaded). Returns the footnotes."""
        self.load_references(reference_blocks(doc))
        if footnotes_at is None:
            return None
        from confnotes.markup.footnotes import footnotes_of

        notes = footnotes_of(doc)
        self.load_footnotes(notes, footnotes_at)
        return notes

    def load_references(self, blocks: list[Block]) -> None:
        """Link reference definitions apply to the whole note, so collect them once."""
        self.references = references_of(blocks, self.md)

    def load_footnotes(self, footnotes: Any, where: str) -> None:
        """The note's footnotes (``confnotes.markup.footnotes.footnotes_of``), shown ``where`` (see the field)."""
        self.footnotes = footnotes
        self.footnotes_at = where

    def _env(self) -> dict[str, Any]:
        if self.footnotes:
            refs = {":" + label: -1 for label in self.footnotes.numbers}
            return {"references": dict(self.references), "footnotes": {"refs": refs, "list": {}}}
        return {"references": dict(self.references)}

    def footnote_html(self, text: str, inline: bool = False) -> Markup:
        """A footnote's text as HTML; a lone paragraph without its ``<p>`` (it stands in small print).
        ``inline``: paragraphs as lines of one inline box (a page-bottom footnote is a ``<span>``)."""
        html = str(self.blocks(text)).strip()
        if inline or html.count("<p") == 1:
            html = _PARAGRAPH_BREAK.sub("<br>", html)
            html = _PARAGRAPH_EDGE.sub("", html)
        return Markup(html)

    def _footnote_ref(self, _renderer: Any, tokens: list[Any], idx: int, _options: Any, _env: Any) -> str:
        label = str(tokens[idx].meta.get("label", ""))
        number = self.footnotes.numbers.get(label) if self.footnotes else None
        if number is None:
            return str(escape(f"[^{label}]"))
        if self.footnotes_at == "page" and number in self._called:  # cited again: its number, one note
            return f'<sup class="footnote-ref">{number}</sup>'
        if self.footnotes_at == "page":
            # WeasyPrint floats the text to the foot of the page and numbers the call and the note;
            # a footnote citing another shows that one's number (a footnote in a footnote cannot float)
            self._called.add(number)
            self.footnotes_at = "slide"
            try:
                text = self.footnote_html(self.footnotes.texts[label], inline=True)
            finally:
                self.footnotes_at = "page"
            return f'<span class="footnote">{text}</span>'
        if self.footnotes_at == "slide":
            return f'<sup class="footnote-ref">{number}</sup>'
        anchor = "" if number in self._called else f' id="fnref-{number}"'  # the first call is where its note links back to
        self._called.add(number)
        return f'<sup class="footnote-ref"><a href="#fn-{number}"{anchor} role="doc-noteref">{number}</a></sup>'
