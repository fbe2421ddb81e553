"""Bold topic lines (``**Day 1**``, ``**Q&A**``) as sub-headings in notes with headings: where they are
read so and where they stay paragraphs, their place in the tree, fmt and lint (tests/fixtures/real)."""

from __future__ import annotations

import json

import pytest

from confnotes.config.settings import FmtSettings
from confnotes.edges.source import read_source
from confnotes.export import to_dict
from confnotes.fmt import format_markdown
from confnotes.model import Block, walk
from confnotes.parse import ParseOptions, parse, parse_source
from conftest import FIXTURES

REAL = FIXTURES / "real"


def _doc(name: str):
    return parse_source(read_source(REAL / name))


def _bold(doc) -> list[tuple[str, int]]:
    return [(node.title, node.level) for node, _ in walk(doc.nodes) if node.is_section and node.origin == "bold"]


def _paragraphs(doc) -> list[str]:
    from confnotes.model import walk_content

    return [entry.text for entry in walk_content(doc.content) if type(entry) is Block and entry.kind == "paragraph"]


def test_two_day_note_gets_its_talks_as_sub_sections_of_each_day():
    doc = _doc("two-day-bold-talks.md")
    day1, day2 = doc.sections
    assert [(s.title, s.origin) for s in doc.sections] == [("Day 1", "atx"), ("Day 2", "atx")]
    assert [(s.title, s.level, s.origin, s.marker) for s in day1.sections] == [
        ("Keynote: The next ten years of cloud native", 3, "bold", "**"),
        ("Gateway API in practice — Luis Ortega, Tetrate", 3, "bold", "**"),
        ("Hallway track", 3, "bold", "**"),
    ]
    assert [s.title for s in day2.sections] == ["Cells at scale: isolating blast radius", "Q&A", "Lightning talks"]
    # each holds what follows it up to the next bold line or heading: bullets, code, text, points
    keynote, gateway, hallway = day1.sections
    assert [len(s.items) for s in day1.sections] == [3, 3, 0]
    assert [type(entry).__name__ for entry in gateway.content] == ["List", "Block"] and gateway.content[1].kind == "code"
    assert hallway.body[0].text.startswith("Talked to the Grafana folks")
    assert [len(s.points) for s in day2.sections] == [0, 0, 3]
    # the day's own text and lists stay before its sub-sections: nothing is left flat under "Day 1"
    assert day1.lists == () and day1.body == ()
    assert "bold-headings" in doc.recovered


def test_talk_page_q_and_a_and_takeaways_are_sub_sections_of_the_notes():
    doc = _doc("talk-page-qa-takeaways.md")
    (notes,) = doc.sections
    assert len(notes.items) == 3 and notes.body[0].text.startswith("Started with a show of hands")
    qa, takeaways = notes.sections
    assert (qa.title, qa.level, takeaways.title, takeaways.level) == ("Q&A", 3, "Takeaways", 3)
    assert [type(entry).__name__ for entry in qa.content] == ["Block", "List"]
    assert [p.number for p in takeaways.points] == ["1", "2", "3"]


def test_bold_sentences_and_a_lone_bold_line_stay_paragraphs():
    doc = _doc("prose-bold-sentences.md")
    assert _bold(doc) == [] and "bold-headings" not in doc.recovered
    paragraphs = _paragraphs(doc)
    assert "**We should have load tested the failover path before the migration, not after.**" in paragraphs
    assert "**this is where it went wrong for us the first time**" in paragraphs
    assert "**Update**" in paragraphs  # the note's only bold topic line: emphasis, not a pattern
    assert [s.title for s in doc.sections] == ["Why we moved", "What the migration looked like", "Postscript"]


def test_paste_without_headings_keeps_its_bold_lines_as_paragraphs():
    doc = _doc("paste-meetup-bold-talks.md")
    assert _bold(doc) == [] and doc.sections == ()
    assert [entry.info for entry in doc.content if type(entry) is Block and entry.text.startswith("**")] == ["group", "group"]


def test_paste_whose_first_line_names_the_notes_gets_its_bold_lines_as_sections():
    """Converted (``lint --fix``, import), that first line becomes the ``#`` title, so the note has a
    heading before and after; fmt, which only tidies, leaves it the bare line it was."""
    doc = _doc("paste-named-bold-days.md")
    assert (doc.meta.title, doc.meta.title_origin) == ("DevOpsDays Amsterdam 2025 notes", "inferred")
    assert _bold(doc) == [("Day 1", 2), ("Day 2", 2)]
    again = parse(format_markdown(doc, convert=True))
    assert again.meta.title_origin == "heading" and _bold(again) == [("Day 1", 2), ("Day 2", 2)]
    text = (REAL / "paste-named-bold-days.md").read_text(encoding="utf-8")
    assert format_markdown(doc, source=text).startswith("DevOpsDays Amsterdam 2025 notes\n")


def test_title_is_the_text_inside_the_bold_marks_and_no_output_shows_them(cli):
    doc = _doc("two-day-bold-talks.md")
    data = to_dict(doc)
    day2 = data["content"][-1]
    assert [s["title"] for s in day2["content"] if s["kind"] == "section"][1] == "Q&A"
    assert all("**" not in s["title"] for s in day2["content"] if s["kind"] == "section")
    result = cli("render", str(REAL / "two-day-bold-talks.md"), "--to", "html", "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert "**" not in result.stdout and "Q&amp;A</h3>" in result.stdout
    outline = cli("render", str(REAL / "two-day-bold-talks.md"), "--to", "outline", "-o", "-").stdout
    assert "Cells at scale" in outline and "**" not in outline
    assert json.loads(cli("outline", str(REAL / "bold-subheadings.md"), "--format", "json").stdout)["content"][0]["origin"] == "bold"


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("**We moved the whole fleet in one night.**", "a sentence"),
        ("**Speaker: Priya Raman, CNCF**", "a label line"),
        ("**Blog:** https://example.org/post", "a bold label and its text"),
        ("**Outline:**", "a lead-in"),
        ("**Gateway API** (Luis, Tetrate)", "bold and more on the line"),
        ("**kubectl get pods -A**", "a command"),
    ],
)
def test_lines_that_do_not_read_as_headings_stay_paragraphs(line, why):
    doc = parse(f"# Notes\n\n## Day 1\n\n**Keynote**\n\n- a\n\n{line}\n\n- b\n\n**Q&A**\n\n- c\n")
    (day,) = doc.sections
    assert [s.title for s in day.sections] == ["Keynote", "Q&A"], why
    assert line in [entry.text for entry in day.sections[0].content if type(entry) is Block], why


def test_a_bold_point_keeps_its_behaviour():
    doc = parse("# Notes\n\n## Answer\n\n**1. Why Rust?**\n\n- safety\n\n**2. What it costs**\n\n- compile times\n")
    (answer,) = doc.sections
    assert answer.sections == ()
    (points,) = answer.lists
    assert [(p.number, p.title, p.origin) for p in points.items] == [("1", "Why Rust?", "bold"), ("2", "What it costs", "bold")]


def test_a_bold_line_that_heads_nothing_stays_a_paragraph():
    doc = parse("# Notes\n\n## Day 1\n\n**Keynote**\n\n- a\n\n**Lunch**\n\n## Day 2\n\n**Q&A**\n\n- b\n\n**Wrap-up**\n")
    assert _bold(doc) == [("Keynote", 3), ("Q&A", 3)]
    assert "**Lunch**" in [entry.text for entry in doc.sections[0].sections[0].content if type(entry) is Block]


def test_two_bold_lines_in_a_row_the_first_heads_nothing():
    doc = parse("# Notes\n\n## Day 1\n\n**Track A**\n\n**Keynote**\n\n- a\n\n**Q&A**\n\n- b\n")
    assert _bold(doc) == [("Keynote", 3), ("Q&A", 3)]
    assert doc.sections[0].body[0].text == "**Track A**"


def test_a_sub_section_ends_at_a_heading_of_its_level_or_higher_and_holds_deeper_ones():
    text = "# Notes\n\n## Day 1\n\n**Keynote**\n\n- a\n\n#### Detail\n\ntext\n\n### Workshops\n\n- b\n\n**Q&A**\n\n- c\n\n## Day 2\n\nd\n"
    doc = parse(text)
    day1, day2 = doc.sections
    keynote, workshops = day1.sections
    assert (keynote.title, keynote.level, [s.title for s in keynote.sections]) == ("Keynote", 3, ["Detail"])
    assert (workshops.title, workshops.origin, [(s.title, s.level) for s in workshops.sections]) == ("Workshops", "atx", [("Q&A", 4)])
    assert day2.sections == () and day2.body[0].text == "d"


def test_bold_lines_in_the_lede_stand_below_the_title_heading():
    doc = parse("## GopherCon — Generics\n\n**Morning**\n\n- a\n\n**Afternoon**\n\n- b\n\n### Hallway\n\n- c\n")
    assert doc.meta.title == "GopherCon — Generics"
    assert [(s.title, s.level, s.origin) for s in doc.sections] == [("Morning", 3, "bold"), ("Afternoon", 3, "bold"), ("Hallway", 3, "atx")]


def test_the_lede_ends_at_the_first_bold_sub_heading():
    """A line ending in ``:`` titles the note by its emphasised phrase only in the lede, before the first section."""
    text = "**Morning**\n\n- a\n\nnotes for the **Platform Summit**, day one:\n\n**Afternoon**\n\n- b\n\n## Hallway\n\n- c\n"
    doc = parse(text, "summit.md")
    assert (doc.meta.title, doc.meta.title_origin) == ("summit", "stem")
    assert [s.title for s in doc.sections] == ["Morning", "Afternoon", "Hallway"]


def test_past_the_deepest_heading_level_bold_lines_stay_paragraphs():
    doc = parse("# Notes\n\n###### Deep\n\n**Keynote**\n\n- a\n\n**Q&A**\n\n- b\n")
    (deep,) = doc.sections
    assert deep.sections == () and [entry.info for entry in deep.body] == ["group", "group"]


def test_never_inferring_headings_keeps_bold_lines_paragraphs():
    text = (REAL / "two-day-bold-talks.md").read_text(encoding="utf-8")
    doc = parse(text, options=ParseOptions(infer_headings="never"))
    assert _bold(doc) == [] and [s.title for s in doc.sections] == ["Day 1", "Day 2"]


def test_underscores_and_the_span_columns():
    doc = parse("# Notes\n\n## Day 1\n\n__Keynote__\n\nSome text.\n\n  **Q&A**\n\n- b\n")
    keynote, qa = doc.sections[0].sections
    assert (keynote.marker, keynote.span, qa.marker, qa.col) == ("__", (5, 7), "**", 3)


# ------------------------------------------------------------------ fmt


@pytest.mark.parametrize("name", ["two-day-bold-talks.md", "talk-page-qa-takeaways.md", "bold-subheadings.md"])
def test_fmt_writes_the_bold_lines_back_as_written(name):
    text = (REAL / name).read_text(encoding="utf-8")
    assert format_markdown(parse(text)) == text


def test_fmt_keeps_underscores_and_the_strong_setting_changes_them():
    text = "# Notes\n\n## Day 1\n\n__Keynote__\n- a\n\n__Q&A__\n- b\n"
    assert format_markdown(parse(text)) == text
    starred = format_markdown(parse(text), ParseOptions(fmt=FmtSettings(strong="*")))
    assert starred == text.replace("__", "**")


def test_fmt_setext_style_leaves_bold_lines_bold():
    text = "Notes\n=====\n\n**Keynote**\n- a\n\n**Q&A**\n- b\n\nDay 2\n-----\n\nc\n"
    assert [(s.title, s.level) for s in parse(text).sections] == [("Keynote", 2), ("Q&A", 2), ("Day 2", 2)]
    assert format_markdown(parse(text)) == text  # the note's setext style is still its own
    atx = format_markdown(parse(text), ParseOptions(fmt=FmtSettings(heading="atx")))
    assert atx == "# Notes\n\n**Keynote**\n- a\n\n**Q&A**\n- b\n\n## Day 2\n\nc\n"


def test_fmt_parts_a_bold_line_from_what_stands_above_and_is_idempotent():
    doc = parse("Team notes 2025\n\n**Day 1**\n• a\n• b\n\n**Day 2**\n\n- c\n", "team.md")
    once = format_markdown(doc, convert=True)
    assert "\n\n**Day 2**\n\n- c" in once
    again = parse(once, "team.md")
    assert _bold(again) == _bold(doc) and format_markdown(again, convert=True) == once == format_markdown(again, source=once)


# ------------------------------------------------------------------ lint


def _rules(name: str, **kwargs) -> list[str]:
    from confnotes.api import lint_note

    return [f"{finding.rule} {finding.line}" for finding in lint_note(REAL / name, **kwargs)]


def test_lint_finds_nothing_new_in_notes_with_bold_sub_headings():
    for name in ("two-day-bold-talks.md", "talk-page-qa-takeaways.md", "bold-subheadings.md"):
        assert _rules(name) == [], name
        assert not [rule for rule in _rules(name, profile="talk") if rule.startswith(("CN102", "CN104", "CN110", "CN202"))], name


def test_heading_skip_still_measures_the_headings_the_author_wrote():
    from confnotes.api import lint_note

    text = "# Notes\n\n## Day 1\n\n**Keynote**\n\n- a\n\n#### Detail\n\n- b\n\n**Q&A**\n\n- c\n"
    assert [(f.rule, f.line) for f in lint_note("n.md", text, select=["CN102"])] == [("CN102", 9)]


def test_pasted_structure_points_at_the_pasted_bullets_not_a_bold_sub_heading():
    from confnotes.api import lint_note

    text = "# Notes\n\n## Day 1\n\n**Keynote**\n\n- a\n\n**Q&A**\n\n• pasted\n• bullets\n"
    assert [(f.rule, f.line) for f in lint_note("n.md", text, select=["CN110"])] == [("CN110", 11)]


def test_a_bold_sub_heading_is_a_slide_of_its_own():
    from confnotes.api import build_deck

    deck = build_deck(_doc("two-day-bold-talks.md"))
    titles = [slide.title for slide in deck.slides]
    assert "Q&A" in titles and "Cells at scale: isolating blast radius" in titles


def test_every_section_holds_its_content_in_source_order():
    doc = _doc("two-day-bold-talks.md")
    for node, _ in walk(doc.nodes):
        spans = [entry.span.start for entry in node.content]
        assert spans == sorted(spans), node.title
        assert all(node.span.start <= start <= node.span.end for start in spans), node.title
