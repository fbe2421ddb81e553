"""Nothing lost, nothing moved: every word of every note, in the author's order, in the model, in
``fmt`` output, on the HTML page, in the PDF's text and in the decks (docs/design.md, "Lossless").

The model and ``fmt`` output must give exactly the source's word sequence; a rendered page or
deck may add words (the title, a table of contents, dividers, page numbers) but must hold the
source's words as a subsequence, in order.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from confnotes.edges.source import read_source
from confnotes.fmt import format_markdown
from confnotes.model import Block, walk_content
from confnotes.parse import parse_source
from confnotes.render.markdown import note_text
from conftest import FIXTURES, NOTES
from helpers import (
    assert_same_words,
    assert_words_in_order,
    model_words,
    page_words,
    pdf_reading_text,
    require_font_for,
    source_words,
    text_words,
    without_rtl,
)

ALL = sorted((FIXTURES / "notes").glob("*.md")) + sorted((FIXTURES / "real").glob("*.md")) + sorted(NOTES.glob("*.md"))
_NOTES_ASIDE = re.compile(r'<aside class="notes(?:-panel)?"[^>]*>.*?</aside>', re.S)


def _load(path: Path):
    source = read_source(path)
    return source.text, parse_source(source)


def test_enough_notes_checked():
    assert len(ALL) >= 60


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_model_reads_in_source_order(path):
    text, doc = _load(path)
    assert_same_words(source_words(text), model_words(doc), "the model")


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_fmt_writes_the_same_words_in_the_same_order(path):
    text, doc = _load(path)
    assert_same_words(source_words(text), source_words(format_markdown(doc, source=text)), "fmt output")
    assert_same_words(source_words(text), source_words(format_markdown(doc, convert=True)), "lint --fix (CN110) output")


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_html_page_keeps_the_order(cli, path):
    text, _ = _load(path)
    result = cli("render", str(path), "--to", "html", "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert_words_in_order(source_words(text, notes=False), page_words(result.stdout), "the HTML page")


def _speaker_note_words(doc) -> set[str]:
    return set(
        text_words("\n".join(note_text(entry) for entry in walk_content(doc.content) if type(entry) is Block and entry.kind == "note"))
    )


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_html_page_with_notes_shows_every_speaker_note(cli, path):
    _, doc = _load(path)
    result = cli("render", str(path), "--to", "html", "--notes", "-o", "-")
    assert not _speaker_note_words(doc) - set(page_words(result.stdout))


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_pdf_text_keeps_the_order(cli, tmp_path, path, processes, weasyprint):
    text, _ = _load(path)
    require_font_for(text)
    out = tmp_path / "note.pdf"
    result = cli("render", str(path), "--to", "pdf", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    # poppler joins a word hyphenated at a line's end ("co-" "evolution" → "coevolution")
    joined = re.compile(r"(?<=\w)-(?=\w)")
    page = pdf_reading_text(out)
    expected, got = source_words(joined.sub("", text), notes=False), text_words(joined.sub("", page))
    assert_words_in_order(without_rtl(expected), without_rtl(got), "the PDF text")
    # right-to-left runs come out in visual order: for those, every word is there
    assert not set(source_words(text, notes=False)) - set(without_rtl(source_words(text))) - set(text_words(page))


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_deck_keeps_the_order(cli, path):
    """The HTML deck (and so the slides PDF and handout, which share its slides) in slide order;
    the agenda and dividers only add words."""
    text, doc = _load(path)
    result = cli("render", str(path), "--to", "slides", "-o", "-")
    assert result.exit_code == 0, result.stderr
    deck = _NOTES_ASIDE.sub(" ", result.stdout)
    assert_words_in_order(source_words(text, notes=False), page_words(deck), "the deck")
    assert not _speaker_note_words(doc) - set(page_words(result.stdout))


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
@pytest.mark.parametrize("fmt", ["marp", "outline"])
def test_text_decks_keep_the_order(cli, path, fmt):
    text, doc = _load(path)
    result = cli("render", str(path), "--to", fmt, "-o", "-")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    if fmt == "marp":
        out = re.sub(r"<!--.*?-->", " ", out.split("\n---\n", 1)[1], flags=re.S)  # front matter, notes
        assert_words_in_order(source_words(text, notes=False), source_words(out), "the Marp deck")
    else:
        out = "\n".join(line for line in out.splitlines() if not line.lstrip().startswith("notes:"))
        assert_words_in_order(source_words(text, notes=False), source_words(out), "the slide outline")
    assert not _speaker_note_words(doc) - set(text_words(result.stdout))
