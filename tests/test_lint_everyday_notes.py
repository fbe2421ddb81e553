"""Lint on notes as people write them: bullets of a sentence or two, `---` under the title and between
talks, placeholder links, lightning talks under empty headings, titles that wrap over two lines — and
one-line messages from every rule, whatever text a rule quotes."""

from __future__ import annotations

import json
import re

import pytest

from confnotes.lint.rules import CATALOGUE, load_note_rule
from confnotes.lint.types import Report
from conftest import FIXTURES

REAL = sorted((FIXTURES / "real").glob("*.md"))

SESSION_NOTES = """\
# SREcon EMEA, day two

## Keynote: reliability is a team sport

- The speaker opened with an outage where three teams each assumed another one owned the failing \
queue, and nobody was paged for forty minutes. The fix was not a tool but a named owner on every alert.
- Ownership maps only help if they are kept current; theirs is generated from the service catalogue \
every night and reviewed in the weekly ops meeting, so a stale entry is noticed within days.

## Lunch talk: cheap load tests

- k6 in CI on every merge to main
"""


def _findings(cli, *args: str) -> list[dict]:
    result = cli("lint", "--format", "json", "--no-cache", "--fail-on", "info", *args)
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)


def _rule_lines(findings: list[dict], name: str) -> list[int]:
    return [f["line"] for f in findings if f["name"] == name]


# ---------------------------------------------------------------- long-item is slide advice


def test_long_bullets_in_session_notes_are_not_reported(cli, tmp_path):
    note = tmp_path / "srecon-day2.md"
    note.write_text(SESSION_NOTES, encoding="utf-8")
    assert _rule_lines(_findings(cli, str(note)), "long-item") == []
    assert _rule_lines(_findings(cli, "--select", "long-item", str(note)), "long-item") == []


@pytest.mark.parametrize("how", ["front matter", "profile"])
def test_long_bullets_in_a_talk_are_still_reported(cli, tmp_path, how):
    talk = tmp_path / "talk.md"
    front = "---\nkind: talk\n---\n\n" if how == "front matter" else ""
    talk.write_text(front + SESSION_NOTES, encoding="utf-8")
    extra = ("--profile", "talk") if how == "profile" else ()
    offset = front.count("\n")
    assert _rule_lines(_findings(cli, *extra, str(talk)), "long-item") == [5 + offset, 6 + offset]


def test_long_item_runs_with_the_talk_rules():
    entry = next(entry for entry in CATALOGUE if entry.name == "long-item")
    assert entry.profile == "talk" and entry.default


# ---------------------------------------------------------------- misplaced-break

CONFERENCE_DAY = """\
# KubeCon EU 2024 — day one

---

Notes typed during the talks; slides linked where I found them.

## Keynote: the state of cloud native

- Adoption is flat in Europe, rising in Asia
- Most clusters still run one team's workloads

---

## Platform engineering panel

- Golden paths beat mandates
- Nobody agrees on what a platform team owns

Half the room left for lunch here.

---

Q&A went long, mostly about cost allocation.

### Follow-ups

- Read the CNCF platform white paper

---

<!-- notes: ask Sam about the white paper -->

## Closing

- See you in Salt Lake City

---
"""


def test_breaks_under_the_title_and_between_talks_are_fine_one_mid_section_is_not(cli, tmp_path):
    note = tmp_path / "kubecon-day1.md"
    note.write_text(CONFERENCE_DAY, encoding="utf-8")
    lines = CONFERENCE_DAY.splitlines()
    middle = lines.index("Q&A went long, mostly about cost allocation.") - 1  # 1-based: the --- before it
    assert lines[middle - 1] == "---"
    findings = _findings(cli, str(note))
    assert _rule_lines(findings, "misplaced-break") == [middle]
    message = next(f["message"] for f in findings if f["name"] == "misplaced-break")
    assert message == "'---' in the middle of a section does not separate sections"


def test_a_break_under_a_talk_pages_own_title_is_fine(cli, tmp_path):
    """A talk page that opens with its `## Talk title` (the note's title) and a rule under it."""
    note = tmp_path / "talk-page.md"
    note.write_text(
        "## Zero-downtime Postgres upgrades\n\n---\n\nSpeaker: Ana Ruiz, Tuesday 11:00\n\n"
        "### Logical replication\n\n- Replicate, then switch writers\n\n---\n\n### What broke\n\n- Sequences\n",
        encoding="utf-8",
    )
    assert _rule_lines(_findings(cli, str(note)), "misplaced-break") == []


# ---------------------------------------------------------------- empty-link


def test_empty_links_include_a_bare_fragment_and_a_title_without_destination(cli, tmp_path):
    note = tmp_path / "links.md"
    note.write_text(
        "# Links from the data track\n\n## Slides and papers\n\n"
        "- Slides: [deck](#) — the speaker will post them\n"
        '- Paper: [PDF](<> "coming soon")\n'
        "- Notebook: [Colab](<#>)\n"
        "- Recording: [video](https://example.org/v) and the [Q&A](#questions) below\n"
        '- Quoted: [title only]( "not a title") is a link to a file called "not a title"\n\n'
        "## Questions\n\n- On cost\n",
        encoding="utf-8",
    )
    findings = [f for f in _findings(cli, str(note)) if f["name"] == "empty-link"]
    assert [(f["line"], f["message"]) for f in findings] == [
        (5, "link 'deck' has no destination"),
        (6, "link 'PDF' has no destination"),
        (7, "link 'Colab' has no destination"),
    ]


# ---------------------------------------------------------------- duplicate-heading

LIGHTNING = """\
# Lightning talks, Thursday

##

- Rust in the kernel, five minutes flat

##

- Nix for data science

## Sponsors

- Thanks to the venue

## Sponsors

- And to the coffee cart
"""


def test_empty_headings_are_not_duplicates_of_each_other(cli, tmp_path):
    note = tmp_path / "lightning.md"
    note.write_text(LIGHTNING, encoding="utf-8")
    findings = _findings(cli, str(note))
    duplicates = [f for f in findings if f["name"] == "duplicate-heading"]
    assert [(f["line"], f["message"]) for f in duplicates] == [(15, "duplicate heading 'Sponsors' (first on line 11)")]
    assert _rule_lines(findings, "empty-section") == []  # they have talks under them


# ---------------------------------------------------------------- one-line messages

WRAPPED_TITLES = """\
---
kind: talk
---

# Platform day

Why our platform team
stopped writing YAML
--------------------

- Templates beat copy-paste

Why our platform team
stopped   writing YAML
--------------------

- Second session, same title

What is next for the
internal developer portal?
--------------------------
"""


def test_messages_quoting_wrapped_titles_are_one_line(cli, tmp_path):
    note = tmp_path / "platform-day.md"
    note.write_text(WRAPPED_TITLES, encoding="utf-8")
    findings = _findings(cli, "--select", "ALL", str(note))
    by_rule = {f["name"]: f["message"] for f in findings}
    assert by_rule["duplicate-heading"] == "duplicate heading 'Why our platform team stopped writing YAML' (first on line 7)"
    assert by_rule["empty-section"] == "section 'What is next for the internal developer portal?' is empty"
    text = cli("lint", "--no-cache", "--select", "ALL", str(note)).stdout.splitlines()
    assert len(text) == len(findings) + 1  # one line a finding, then the summary


def test_the_engine_puts_every_rules_message_on_one_line(cli, tmp_path, monkeypatch):
    """Whatever a rule quotes (a title, a paragraph, a link text), its finding is one line: the engine
    collapses the whitespace, for every rule, in every output format."""
    note = tmp_path / "n.md"
    needs = " ".join(f"`{entry.needs}`" for entry in CATALOGUE if entry.needs)  # what each rule needs to run at all
    note.write_text(f"# T\n\n## A\n\n- a point {needs}\n", encoding="utf-8")
    for entry in CATALOGUE:
        if entry.project:
            continue
        rule = load_note_rule(entry.id)
        monkeypatch.setattr(rule, "check", lambda _ctx, _options: iter([Report(1, 1, "title 'two\nlines'\r\n\tand  more")]))
    every = ",".join(entry.id for entry in CATALOGUE)  # the opt-in rules too
    findings = _findings(cli, "--select", every, "--profile", "talk", str(note))
    assert {f["rule"] for f in findings} == {entry.id for entry in CATALOGUE if not entry.project}
    assert {f["message"] for f in findings} == {"title 'two lines' and more"}
    github = cli("lint", "--no-cache", "--select", every, "--profile", "talk", "--format", "github", str(note)).stdout
    assert "%0A" not in github and "%0D" not in github


def test_no_message_of_any_rule_spans_lines_on_realistic_notes(cli, tmp_path):
    wrapped = tmp_path / "platform-day.md"
    wrapped.write_text(WRAPPED_TITLES, encoding="utf-8")
    every = ",".join(entry.id for entry in CATALOGUE)
    findings = _findings(cli, "--select", every, "--profile", "talk", str(wrapped), *map(str, REAL))
    assert findings
    assert [f for f in findings if re.search(r"\s\s|[\n\r\t]", f["message"])] == []


# ---------------------------------------------------------------- the reading list's page agrees with lint

READING_LIST = """\
---
title: Papers from SREcon
kind: reading-list
---

## The Tail at Scale

Dean and Barroso on why the slowest one percent decides latency at fan-out.

## Metastable Failures in Distributed Systems

- Sustaining effect: retries keep the system down after the trigger is gone
- Recovery needs load shedding, not more capacity

## Wide Attention Is The Way Forward for Transformers
"""


def test_an_entry_annotated_with_bullets_is_annotated_on_the_page(cli, tmp_path):
    note = tmp_path / "papers.md"
    note.write_text(READING_LIST, encoding="utf-8")
    page = cli("render", str(note), "--to", "html", "-o", "-").stdout
    classes = re.findall(r'<section id="[^"]*" class="section depth-1 entry( no-annotation)?"', page)
    assert classes == ["", "", " no-annotation"]
    empty = [f["message"] for f in _findings(cli, str(note)) if f["name"] == "empty-section"]
    assert empty == ["entry 'Wide Attention Is The Way Forward for Transformers' has no annotation"]
