"""Fresh pastes of Docs, Word, e-mail and chat notes get their real title and their sessions as sections."""

from __future__ import annotations

import json
import re

import pytest

from confnotes.fmt import format_markdown
from confnotes.model import List, Node
from confnotes.parse import parse
from conftest import FIXTURES
from helpers import assert_lossless, assert_same_words, model_words, source_words

PASTES = FIXTURES / "import" / "pastes"
EXPECTED = json.loads((FIXTURES / "import" / "pastes.json").read_text(encoding="utf-8"))
NAMES = sorted(name for name in EXPECTED if name != "about")


def read(name: str):
    text = (PASTES / name).read_text(encoding="utf-8")
    return text, parse(text, name)


def test_there_are_ten_pastes_or_more():
    assert len(NAMES) >= 10 and sorted(path.name for path in PASTES.iterdir()) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_paste_gets_its_title_and_sessions(name):
    expected = EXPECTED[name]
    _, doc = read(name)
    assert doc.meta.title == expected["title"]
    if "sections" in expected:
        assert [section.title for section in doc.sections] == expected["sections"]
    if "date" in expected:
        assert doc.meta.date == expected["date"]
    if "last_bullets" in expected:  # a chat message after a bullet is no part of it
        lists = [[entry for entry in section.content if type(entry) is List] for section in doc.sections]
        assert [found[0].items[-1].title for found in lists] == expected["last_bullets"]
    if "points" in expected:
        (points,) = [entry for entry in doc.content if type(entry) is List and entry.ordered]
        assert [item.title for item in points.items] == expected["points"]
        assert [sum(len(lst.items) for lst in item.lists) for item in points.items] == expected["bullets_under_points"]


@pytest.mark.parametrize("name", NAMES)
def test_paste_loses_nothing_and_formats_to_the_same_outline(name):
    text, doc = read(name)
    assert_lossless(text, doc)
    o_markers = re.compile(r"^[ \t]*o\t", re.M)  # Word's second-level bullet, pasted as an "o" and a tab
    assert_same_words(source_words(o_markers.sub("", text)), model_words(doc), f"outline of {name}")
    formatted = format_markdown(doc, convert=True)
    again = parse(formatted, name)
    assert again.meta.title == doc.meta.title
    assert [node.title for node in again.sections] == [node.title for node in doc.sections]
    assert format_markdown(again, convert=True) == formatted


@pytest.mark.parametrize("name", [name for name in NAMES if EXPECTED[name].get("sections")])
def test_lint_finds_no_title_or_paste_problem_after_fmt(cli, tmp_path, name):
    _, doc = read(name)
    note = tmp_path / "note.md"
    note.write_text(format_markdown(doc, convert=True), encoding="utf-8")
    result = cli("lint", str(note), "--select", "CN101,CN110", "--no-cache")
    assert result.exit_code == 0, result.stdout


def test_a_session_word_in_a_sentence_is_not_a_section():
    _, doc = read("docs-one-talk-sentence.txt")
    assert doc.sections == ()
    assert not any(type(node) is Node and node.is_section for node in doc.content)


def test_heading_marks_fixture_precision_stays_full_and_recall_reaches_95_percent():
    """The reader-marked headings of tests/fixtures/headings.json, as test_recovery measures them."""
    from confnotes.edges.source import read_source
    from confnotes.parse import parse_source
    from conftest import ROOT
    from test_recovery import CHECKED, _inferred

    truth = json.loads((FIXTURES / "headings.json").read_text(encoding="utf-8"))
    found = expected_total = wrong = 0
    for path in CHECKED:
        expected = set(truth.get(path.relative_to(ROOT).as_posix(), []))
        got = _inferred(parse_source(read_source(path)))
        found += len(got & expected)
        wrong += len(got - expected)
        expected_total += len(expected)
    assert wrong == 0
    assert found / expected_total >= 0.95, f"recall {found}/{expected_total}"


@pytest.mark.parametrize(
    "line", ["build_deck(doc)", "parse_options", "client.retry(3)", "x = compute()", "--- lunch break", "$ make bench"]
)
def test_code_and_rule_lines_are_never_headings(line):
    from confnotes.parse import recover

    assert not recover.is_heading_candidate(line)
    text = f"Velocity 2026\n\n• caching at the edge\n\n{line}\n\n• keys include the device class\n• stale while revalidate\n"
    doc = parse(text, "paste.md")
    assert [section.title for section in doc.sections] == []


@pytest.mark.parametrize(
    ("title", "label"),
    [
        ("name(arg: value) returns early", None),
        ('"Quote: this" was the slide', None),
        ("Ana's take: ship it", "Ana's take"),
        ("Speaker (remote): Ana", "Speaker (remote)"),
    ],
)
def test_a_colon_inside_a_call_or_quote_is_no_label(title, label):
    from confnotes.parse import recover

    assert recover.split_label(title) == label


def test_the_first_of_several_level_one_headings_heading_nothing_is_the_title():
    text = "# KubeCon 2026\n# Day 1\n\n- keynote\n\n# Day 2\n\n- panels\n"
    doc = parse(text, "kubecon.md")
    assert doc.meta.title == "KubeCon 2026" and doc.meta.title_origin == "heading"
    assert [section.title for section in doc.sections] == ["Day 1", "Day 2"]
    assert format_markdown(doc, source=text) == text  # the headings stay as written, one right below the other
    two_sections = parse("# Day 1\n\n- keynote\n\n# Day 2\n\n- panels\n", "days.md")
    assert two_sections.meta.title_origin == "stem"  # a "#" that heads text is a section, as before
