"""Real notes, round 4 (issue 59): talks found however their titles end and wrap, with the shapes
people write them in (tests/fixtures/real4/)."""

from __future__ import annotations

from confnotes.parse import parse
from conftest import FIXTURES
from helpers import assert_same_words, source_words, text_words

REAL4 = FIXTURES / "real4"


def test_talks_are_found_whatever_ends_their_titles_and_however_they_wrap():
    """16 of 26 talks were found in three real conference notes: a bold title ending in ``!`` or
    ``?``, wrapped over two lines, or in italics over its speaker line was missed, its notes landed
    under the talk before, and each ``---`` between talks was a break inside a section."""
    doc = parse((REAL4 / "devopsdays-talks.md").read_text(encoding="utf-8"), "devopsdays-talks.md")
    assert [section.title for section in doc.sections] == [
        "Why we left Kafka!",
        "Is observability a data problem?",
        "Cells at scale: what a hundred regions taught us about\nblast radius and the cost of isolation",
        "Platform teams are product teams.",
    ]
    for section in doc.sections:
        first = section.content[0]
        assert getattr(first, "info", None) == "speakers", section.title
        assert not any(getattr(entry, "kind", None) == "break" for entry in section.content), section.title


def test_a_talk_title_keeps_its_punctuation_without_a_finding_and_fmt_keeps_the_talks(cli, tmp_path):
    note = tmp_path / "talks.md"
    text = (REAL4 / "devopsdays-talks.md").read_text(encoding="utf-8")
    note.write_text(text, encoding="utf-8")
    lint = cli("lint", "--no-cache", "--format", "json", str(note))
    assert "heading-punctuation" not in lint.stdout and "misplaced" not in lint.stdout, lint.stdout
    assert cli("fmt", str(note)).exit_code == 0
    assert note.read_text(encoding="utf-8") == text  # the titles, their wrapping, italics and speakers as written
    assert_same_words(source_words(text), text_words(note.read_text(encoding="utf-8")), "fmt")
