"""fmt only tidies (issue 49): whitespace outside code, blank-line runs, the final newline, and what is
inconsistent within the note, to the note's majority; it never writes a heading the author did not
write, never changes a byte of code or a no-break space, keeps setext underlines that are
consistent, and a second run changes nothing.

The corpus measure is the issue's acceptance on every realistic note this suite holds: at most 5%
of notes changed beyond whitespace, none with changed code, no heading written, idempotent on all.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from mdit_py_plugins.front_matter import front_matter_plugin

from confnotes.config.settings import FmtSettings
from confnotes.fmt import format_text
from confnotes.parse import ParseOptions
from conftest import FIXTURES, NOTES, note_fixtures
from helpers import assert_same_words, check_golden, source_words
from strategies import examples

TIDIED = sorted((FIXTURES / "fmt" / "tidied").glob("*.md"))
#: Every realistic note of the suite (the rule fixtures are minimal cases, not notes people write).
CORPUS = sorted(path for path in {*NOTES.glob("*.md"), *note_fixtures()} if "rules" not in path.parts)
_MD = MarkdownIt("commonmark").enable("table").use(front_matter_plugin)


def _fmt(text: str, path: str = "note.md", **styles: str) -> str:
    return format_text(text, path, ParseOptions(fmt=FmtSettings(**styles)))


def _code(text: str) -> list[str]:
    """Every code block's and code span's text, as CommonMark reads them."""
    tokens = _MD.parse(text)
    blocks = [token.content for token in tokens if token.type in ("fence", "code_block")]
    spans = [child.content for token in tokens if token.type == "inline" for child in token.children or () if child.type == "code_inline"]
    return blocks + spans


def _headings(text: str) -> int:
    return sum(token.type == "heading_open" for token in _MD.parse(text))


def _beyond_whitespace(before: str, after: str) -> bool:
    return before.split() != after.split()


# ---------------------------------------------------------------- goldens


def test_enough_realistic_notes():
    assert len(TIDIED) >= 4 and len(CORPUS) >= 150


@pytest.mark.parametrize("path", TIDIED, ids=lambda p: p.stem)
def test_fmt_tidies_each_realistic_note_as_its_golden_says(path: Path, update_goldens: bool):
    text = path.read_text(encoding="utf-8")
    out = _fmt(text, path.name)
    check_golden(path.with_suffix(".fmt"), out, update_goldens)
    assert _fmt(out, path.name) == out
    assert_same_words(source_words(text), source_words(out), f"fmt of {path.name}")
    assert _code(out) == _code(text)


def test_code_keeps_its_trailing_spaces_and_blank_lines_of_spaces():
    """YAML and Python whose lines end in spaces, or hold only spaces, are left to the byte; text
    around them loses its trailing spaces, but not a hard break's two nor a no-break space."""
    text = (FIXTURES / "fmt" / "tidied" / "helm-at-scale-code.md").read_text(encoding="utf-8")
    out = _fmt(text)
    for line in (
        "replicaCount: 3   ",
        "  \nresources:",
        "  limits:\t",
        "def apply(release):    ",
        "        \n",
        "    $ helm diff upgrade payments ./chart   ",
    ):
        assert line in out, repr(line)
    assert "Speaker : Ines Duarte (Adyen)  \nRoom" in out  # a hard line break
    assert "Q\u00a0: do you pin chart versions?\u00a0\n" in out and "Merci\u00a0!\n" in out
    assert "one pipeline\n" in out and "game over\n" in out and "\n\n\n" not in out


def test_a_paste_gets_no_heading_and_keeps_its_bullets():
    text = (FIXTURES / "fmt" / "tidied" / "conference-day-paste.md").read_text(encoding="utf-8")
    out = _fmt(text)
    assert _headings(out) == 0 and out.count("•") == text.count("•") and "◦ structured logs" in out
    assert out.split() == text.split()


def test_the_majority_numbering_wins_not_the_first_list():
    """Seven ``1. 1. 1.`` lists and one that counts up: the one is renumbered, the seven are not."""
    text = (FIXTURES / "fmt" / "tidied" / "workshop-one-one-one.md").read_text(encoding="utf-8")
    out = _fmt(text)
    assert "1. Clone the repo\n1. `terraform init`\n1. Export" in out
    assert out.count("\n1. ") == text.count("\n1. ") + 2 and "\n2. " not in out


def test_setext_underlines_written_one_length_are_kept_or_sized_to_the_title_when_asked():
    text = (FIXTURES / "fmt" / "kept" / "setext-fixed-underlines.md").read_text(encoding="utf-8")
    assert _fmt(text) == text
    titled = _fmt(text, setext_underline="title")
    assert "Postgres 19 in ten minutes\n--------------------------\n" in titled
    assert "DuckDB for the rest of us\n-------------------------\n" in titled
    # a heading that mixes in is written the note's way, underline included
    mixed = text.replace("SQLite in production\n------------------------------", "## SQLite in production")
    assert _fmt(mixed) == text


def test_underlines_that_disagree_are_sized_to_their_titles():
    text = "Day one\n==============\n\nKeynote\n---\n\n- a\n\nPanel\n-------------------\n\n- b\n"
    assert _fmt(text) == "Day one\n=======\n\nKeynote\n-------\n\n- a\n\nPanel\n-----\n\n- b\n"


# ---------------------------------------------------------------- the corpus: the acceptance


def _measure(paths: list[Path]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {"beyond whitespace": [], "code": [], "headings": [], "not idempotent": []}
    for path in paths:
        text = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
        out = _fmt(text, path.name)
        if _beyond_whitespace(text, out):
            found["beyond whitespace"].append(path.name)
        if _code(out) != _code(text):
            found["code"].append(path.name)
        if _headings(out) > _headings(text):
            found["headings"].append(path.name)
        if _fmt(out, path.name) != out:
            found["not idempotent"].append(path.name)
    return found


def test_on_realistic_notes_fmt_only_tidies():
    found = _measure(CORPUS)
    assert found["code"] == [] and found["headings"] == [] and found["not idempotent"] == [], found
    assert len(found["beyond whitespace"]) <= 0.05 * len(CORPUS), found["beyond whitespace"]


# ---------------------------------------------------------------- idempotent on generated variations


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(CORPUS), st.integers(0, 2**32 - 1))
def test_fmt_of_fmt_is_fmt_on_untidy_variations_of_real_notes(path: Path, seed: int):
    """A realistic note with trailing spaces, tabs and blank lines sprinkled outside and inside its
    code: fmt's output is its own fixed point, and the code is what the variation wrote."""
    rng = random.Random(seed)
    lines: list[str] = []
    source = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n").split("\n")
    front = source.index("---", 1) + 1 if source[0] == "---" and "---" in source[1:] else 0  # YAML holds no tab
    for index, line in enumerate(source):
        lines.append(line + rng.choice(("  ", " ", "\t", "   ")) if index >= front and rng.random() < 0.15 else line)
        if index >= front and rng.random() < 0.05:
            lines.append("")
    text = "\n".join(lines)
    once = _fmt(text, path.name)
    assert _fmt(once, path.name) == once
    assert _code(once) == _code(text)
    assert _headings(once) <= _headings(text)


def test_a_tab_only_line_in_code_under_an_item_stays_the_codes():
    """A tab-only line inside a fence under ``- `` is two spaces of code to CommonMark (the tab
    reaches column 4; the item's content starts at 2); fmt wrote it as an empty line, changing the
    code (found by the variation test above)."""
    text = "- In scikit-learn:\n\n  ```python\n  a = 1\n\t\n  b = 2\n  ```\n"
    once = _fmt(text, "tab.md")
    assert _code(once) == _code(text) == ["a = 1\n  \nb = 2\n"]
    assert _fmt(once, "tab.md") == once


def test_a_line_of_spaces_in_code_after_a_list_stays_the_codes():
    """fmt takes the indentation a fence right after a list shares off its lines, with
    ``textwrap.dedent``, which also emptied every line of only spaces: the code changed."""
    text = "# T\n\n1. Count untyped defs\n\n```toml\n[tool.mypy]\nstrict = true\n  \n[[tool.mypy.overrides]]\n```\n"
    once = _fmt(text, "t.md")
    assert _code(once) == _code(text) == ["[tool.mypy]\nstrict = true\n  \n[[tool.mypy.overrides]]\n"]


# ---------------------------------------------------------------- issue 59: what a real author writes, kept

LONG_UNDERLINES = """Platform day, notes
==============================================

Opening remarks from the organisers.

Keynote: shipping on Fridays
----------------------------------------------

- nobody stops shipping
- the pager rota is the product

Lightning talks
----------------------------------------------

- three of them, all on caching
"""


def test_underlines_an_author_writes_long_throughout_are_left_as_written():
    """252 notes of one author underline every heading to a column, past its title: fmt resized each
    underline to its title. Underlines that agree with each other are the author's style."""
    assert _fmt(LONG_UNDERLINES) == LONG_UNDERLINES


def test_a_no_break_space_ending_an_item_or_a_heading_is_kept():
    """A word processor's ``&nbsp;`` before a line end: fmt stripped it from items and headings (the
    docs say it never touches one), and markdown-it's trim had dropped it from the outline."""
    text = "# Notes from Docs\n\n## Agenda\u00a0\n\n- intros\u00a0\n- demos\n\nWrap-up at five.\u00a0\n"
    assert _fmt(text) == text


def test_a_sentence_over_dashes_is_a_paragraph_and_a_rule_not_a_heading():
    """``----`` typed under a line to separate: CommonMark reads ``Thanks to everyone who came.``
    as a heading, and fmt wrote ``## Thanks to everyone who came.`` into the note for good."""
    from confnotes.parse import parse

    text = "# Retro\n\n## What went well\n\n- deploys got boring\n\nThanks to everyone who came.\n----\n\n## Next time\n\n- start on time\n"
    doc = parse(text, "retro.md")
    assert [section.title for section in doc.sections] == ["What went well", "Next time"]
    assert [entry.text for entry in doc.sections[0].content if type(entry).__name__ == "Block"] == ["Thanks to everyone who came."]
    out = _fmt(text)
    assert "## Thanks" not in out and "Thanks to everyone who came.\n\n----\n" in out
    assert _fmt(out) == out
    heading = "# Retro\n\nWhat went well?\n----\n\n- deploys\n"  # a question, or a title-case line, still heads its part
    assert [section.title for section in parse(heading, "q.md").sections] == ["What went well?"]
