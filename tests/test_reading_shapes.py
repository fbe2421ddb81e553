"""The shapes real notes come in, read as a reader reads them (issue 49): a conference day of bold
talk titles over their speakers, notes whose own ``#`` headings leave no room for invented ones, a
first heading that names the notes, and talks with a few links that are no reading list."""

from __future__ import annotations

import pytest

from confnotes.export import to_dict
from confnotes.fmt import format_text
from confnotes.model import Block
from confnotes.parse import parse
from confnotes.parse.recover import speaker_names
from conftest import FIXTURES, NOTES
from helpers import assert_same_words, model_words, source_words

REAL = FIXTURES / "real"


def _read(name: str):
    text = (REAL / name).read_text(encoding="utf-8")
    return text, parse(text, name)


def test_a_conference_day_of_bold_titles_over_speakers_has_a_section_a_talk():
    text, doc = _read("conference-day-bold-speakers.md")
    assert doc.meta.title == "KubeCon EU 2026, Wednesday – my notes"
    sections = to_dict(doc)["content"]
    assert len(sections) == 12 and all(section["kind"] == "section" and section["level"] == 2 for section in sections)
    assert [section["title"] for section in sections][:3] == [
        "Keynote: Ten years of Kubernetes",
        "Gateway API is GA, now what?",
        "Cells at scale: blast radius by design",
    ]
    speakers = {section["title"]: section["speakers"] for section in sections}
    assert speakers["Cells at scale: blast radius by design"] == ["Mara Lindqvist", "Tom Becker"]
    assert speakers["Multi-tenant clusters that stay fair"] == ["Fatima Zahra El Amrani"]
    assert speakers["GPU sharing on Kubernetes"] == ["Wei Chen", "Olga Petrova"]
    assert speakers["Lightning talks"] == []  # "various speakers": a byline, no names
    # the speaker line stays the section's first paragraph: nothing lost, nothing moved, fmt keeps it all
    first = doc.sections[0].content[0]
    assert type(first) is Block and first.text == "Priya Raman (CNCF)" and first.info == "speakers"
    assert_same_words(source_words(text), model_words(doc), "the outline")
    assert format_text(text, "day.md") == text


def test_one_bold_title_over_a_name_is_no_pattern():
    doc = parse("Notes from Tuesday\n\n**Great talk on caching**\nPriya Raman\n\n- a\n- b\n")
    assert doc.sections == ()


def test_a_note_with_its_own_headings_gets_no_invented_ones():
    """Bare lines over pasted bullets, below a ``#`` heading in the middle of the note: no section is
    inferred and the heading is no title printed above the text it follows."""
    text = (
        "Day one was workshops, nothing worth keeping.\n\nMorning keynote\n\n• numbers up\n• new fund\n\n"
        "# Day two\n\nObservability track\n\n• logs are stable\n"
    )
    doc = parse(text, "days.md")
    assert "inferred-headings" not in doc.recovered and doc.meta.title_origin == "stem"
    assert [section.title for section in doc.sections] == ["Day two"]
    _, doc = _read("headings-and-bare-lines.md")
    assert "inferred-headings" not in doc.recovered and [section.title for section in doc.sections] == ["Day 1", "Day 2"]


def test_a_hash_heading_with_bold_talks_below_a_lede():
    _, doc = _read("h1-days-bold-talks.md")
    assert doc.meta.title_origin == "stem"
    (day,) = doc.sections
    assert day.title == "Day two" and [talk.title for talk in day.sections] == ["Docs as a product", "Writing for translation"]
    assert "Quick aside" in [entry.text for entry in day.sections[0].content if type(entry) is Block]


def test_a_first_heading_that_names_the_notes_is_their_title():
    _, doc = _read("opens-with-named-h1.md")
    assert (doc.meta.title, doc.meta.title_origin) == ("Write the Docs Portland 2026 notes", "heading")
    assert [section.title for section in doc.sections] == ["Day 1", "Day 2", "Day 3"]
    days = parse("# Day 1\n\n- keynote\n\n# Day 2\n\n- panels\n", "days.md")
    assert days.meta.title_origin == "stem" and len(days.sections) == 2  # peers that name parts stay sections


def test_a_talk_with_a_few_links_is_notes_and_reading_lists_stay_reading_lists():
    assert _read("talk-three-links.md")[1].meta.kind == "notes"
    for path in (REAL / "reading-list-bare.md", REAL / "reading-list-links.md", NOTES / "scaling-reading-list.md"):
        assert parse(path.read_text(encoding="utf-8"), path.name).meta.kind == "reading-list", path.name


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ("Priya Raman (CNCF)", ("Priya Raman",)),
        ("Luis Ortega, Tetrate", ("Luis Ortega",)),
        ("Mara Lindqvist & Tom Becker", ("Mara Lindqvist", "Tom Becker")),
        ("Speaker: Kenji Watanabe", ("Kenji Watanabe",)),
        ("Ana de la Cruz - Grafana Labs", ("Ana de la Cruz",)),
        ("田中 愛子", ("田中 愛子",)),
        ("We moved to Kafka last year.", ()),
        ("various speakers", ()),
        ("Room: Hall B", ()),
    ],
)
def test_speaker_lines(line, names):
    assert speaker_names(line) == names
