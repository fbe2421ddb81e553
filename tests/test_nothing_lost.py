"""Nothing lost: every word of every fixture survives into fmt output, the HTML page and each deck format."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from confnotes.fmt import format_markdown
from confnotes.model import walk
from confnotes.parse import parse_source
from confnotes.render.markdown import note_text
from confnotes.source import read_source
from conftest import FIXTURES, NOTES
from helpers import words

ALL = sorted((FIXTURES / "notes").glob("*.md")) + sorted(NOTES.glob("*.md"))
_DIRECTIVE = re.compile(r"<!--\s*confnotes-[^>]*-->")
#: Syntax that marks speaker notes, as list markers mark items: not words of the note.
_NOTE_MARKS = re.compile(r"^[ \t]*(?:(?:speaker[ -]?)?notes?:|:::\s*notes\s*$)", re.IGNORECASE | re.MULTILINE)


def _note_words(path: Path) -> tuple[set[str], object]:
    """Words a reader wrote: the note without its front matter and lint directives."""
    source = read_source(path)
    doc = parse_source(source)
    text = source.text
    if doc.meta.front_matter_span is not None:
        text = "\n".join(text.split("\n")[doc.meta.front_matter_span.end:])
    text = _NOTE_MARKS.sub(" ", _DIRECTIVE.sub(" ", text))
    return words(text), doc


class _AllText(HTMLParser):
    """Visible text plus attribute values (hrefs, alt and title texts keep what links point to)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs) -> None:  # noqa: ANN001
        if tag in ("script", "style"):
            self.skip += 1
        self.parts += [value for name, value in attrs if value and name in ("href", "src", "alt", "title")
                       and not value.startswith("data:")]

    def handle_endtag(self, tag) -> None:  # noqa: ANN001
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data) -> None:  # noqa: ANN001
        if not self.skip:
            self.parts.append(data)


def _html_words(html: str) -> set[str]:
    parser = _AllText()
    parser.feed(html)
    return words(" ".join(parser.parts))


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_fmt_keeps_every_word(path):
    expected, doc = _note_words(path)
    assert not expected - words(format_markdown(doc))


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_html_page_keeps_every_word(cli, path):
    expected, _ = _note_words(path)
    result = cli("render", str(path), "--to", "html", "--notes", "-o", "-")
    assert result.exit_code == 0
    assert not expected - _html_words(result.stdout)


def _outline_words(doc) -> set[str]:
    texts = [doc.meta.title] + [b.text for b in doc.lede if b.kind != "reference"]
    texts += [note_text(b) for b in doc.notes]
    for node, _ in walk(doc.nodes):
        texts.append(node.title)
        texts += [b.text for b in node.body if b.kind not in ("reference", "break")]
        texts += [note_text(b) for b in node.notes]
    return words("\n".join(texts))


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
@pytest.mark.parametrize("fmt", ["slides", "marp", "outline"])
def test_decks_keep_every_word_of_the_outline(cli, tmp_path, path, fmt):
    _, doc = _note_words(path)
    expected = _outline_words(doc)
    result = cli("render", str(path), "--to", fmt, "-o", "-")
    assert result.exit_code == 0
    got = _html_words(result.stdout) if fmt == "slides" else words(result.stdout)
    assert not expected - got, sorted(expected - got)[:12]
