"""A reference-style link (``[the deck][deck]``, its definition anywhere in the note) is a link in
every output that shows links, as it is on the page. Every output but the page showed its brackets
(found trying the editor end to end): each built its own inline renderer without the note's
definitions. They now load them in one place (``InlineRenderer.load_note``); Marp, which writes
Markdown, writes the definitions after the last slide."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from helpers import rendered

NOTE = """# Observability on a budget

## Links

- See [the deck][deck] and [docs], then [the runbook].
- An unsafe one: [click me][bad].

## More

A paragraph with [the deck][deck] again.

[deck]: https://example.org/deck "Slides"
[docs]: https://example.org/docs
[the runbook]: <https://example.org/run book>
[bad]: javascript:alert(1)
"""

BRACKETS = re.compile(r"\[(?:the deck|docs|the runbook)\](?:\[\w*\])?")


def _note(tmp_path: Path) -> Path:
    note = tmp_path / "talk.md"
    note.write_text(NOTE, encoding="utf-8")
    return note


def test_the_deck_and_the_slide_outline_show_reference_links(cli, tmp_path):
    note = _note(tmp_path)
    rendered(cli, note, "slides", tmp_path / "talk.slides.html")
    deck = (tmp_path / "talk.slides.html").read_text(encoding="utf-8")
    assert 'href="https://example.org/deck"' in deck and 'href="https://example.org/docs"' in deck
    assert 'href="https://example.org/run%20book"' in deck and "javascript:" not in deck
    assert not BRACKETS.search(deck)
    rendered(cli, note, "outline", tmp_path / "talk.txt")
    outline = (tmp_path / "talk.txt").read_text(encoding="utf-8")
    assert "the deck <https://example.org/deck>" in outline and not BRACKETS.search(outline)


def test_pptx_and_word_link_reference_links(cli, tmp_path):
    from pptx import Presentation

    note = _note(tmp_path)
    rendered(cli, note, "pptx", tmp_path / "talk.pptx")
    runs = {
        run.text: run.hyperlink.address
        for slide in Presentation(str(tmp_path / "talk.pptx")).slides
        for shape in slide.shapes
        if shape.has_text_frame
        for paragraph in shape.text_frame.paragraphs
        for run in paragraph.runs
    }
    assert runs["the deck"] == "https://example.org/deck" and runs["docs"] == "https://example.org/docs"
    assert not any(address and "javascript" in address for address in runs.values())  # (no definition: markdown-it refuses it)
    assert not any(BRACKETS.search(text) for text in runs)
    rendered(cli, note, "docx", tmp_path / "talk.docx")
    with zipfile.ZipFile(tmp_path / "talk.docx") as docx:
        body = docx.read("word/document.xml").decode()
        targets = docx.read("word/_rels/document.xml.rels").decode()
    assert "https://example.org/deck" in targets and "https://example.org/docs" in targets and "javascript" not in targets
    assert not BRACKETS.search(re.sub(r"<[^>]+>", "", body))


def test_marp_writes_the_definitions_after_the_last_slide(cli, tmp_path):
    """A definition shows nothing where it stands. (``[bad]: javascript:…`` is no definition at all:
    markdown-it refuses the address, so the line is a paragraph, shown as its text everywhere.)"""
    note = _note(tmp_path)
    rendered(cli, note, "marp", tmp_path / "talk.marp.md")
    marp = (tmp_path / "talk.marp.md").read_text(encoding="utf-8")
    tail = marp.rsplit("\n---\n", 1)[-1]
    assert '[DECK]: <https://example.org/deck> "Slides"' in tail and "[DOCS]: <https://example.org/docs>" in tail
    assert "[THE RUNBOOK]: <https://example.org/run%20book>" in tail and "[BAD]" not in tail
