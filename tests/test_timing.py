"""`confnotes time`: the talk's length from its words, budgets in the note, rehearsals and lint."""

from __future__ import annotations

import json
import re

import pytest

from confnotes.timing import DurationError, parse_duration
from conftest import FIXTURES, NOTES

TALK = FIXTURES / "rules" / "CN304-over-time" / "good.md"


def _json(cli, *args: str) -> dict:
    result = cli("time", "--format", "json", *args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_scale2025_sections_add_up_to_the_total(cli):
    plan = _json(cli, str(NOTES / "scale2025.md"))
    assert [s["title"] for s in plan["sections"]] == [
        "Core Principles for Scaling Systems",
        "Key Challenges in Scaling",
        "Case Studies & Strategies",
        "Future Directions",
        "Conclusion",
    ]
    assert plan["wpm"] == 130 and plan["slot_minutes"] is None
    assert round(sum(s["minutes"] for s in plan["sections"]), 2) == plan["total_minutes"]
    # every slide of the deck is counted once, in its section
    deck = cli("render", str(NOTES / "scale2025.md"), "--to", "outline", "-o", "-").stdout
    slides = int(re.search(r"— (\d+) slides", deck).group(1))
    assert sum(s["slides"] for s in plan["sections"]) == slides == len(plan["slide_marks"])
    assert all(s["budget_minutes"] is None for s in plan["sections"])


def test_doubling_the_rate_halves_the_spoken_part(cli):
    slow = _json(cli, str(NOTES / "scale2025.md"))
    fast = _json(cli, str(NOTES / "scale2025.md"), "--wpm", "260")
    slides = sum(s["slides"] for s in slow["sections"])
    allowance = slides * 2 / 60

    def spoken(plan: dict) -> float:
        return plan["total_minutes"] - allowance

    assert spoken(fast) == pytest.approx(spoken(slow) / 2, abs=0.02)
    assert spoken(slow) == pytest.approx(sum(s["words"] for s in slow["sections"]) / 130, abs=0.02)
    assert "most speakers talk at 100–200" in cli("time", "--wpm", "260", str(NOTES / "scale2025.md")).stdout
    assert cli("time", "--wpm", "1000", str(NOTES / "scale2025.md")).exit_code == 2


def test_speaker_notes_are_what_is_spoken(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## Part\n\n- short bullet\n\n<!-- notes: " + "word " * 130 + "-->\n")
    plan = _json(cli, str(note), "--slide-seconds", "0")
    part = plan["sections"][0]
    # title slide ("Talk") and agenda ("Agenda", "Part"): 3 words; the slide with notes: 130
    assert part["words"] == 133 and part["minutes"] == pytest.approx(133 / 130, abs=0.01)


def test_code_is_not_spoken(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text("# T\n\n## Demo\n\n```python\n" + "print('hello world')\n" * 40 + "```\n")
    plan = _json(cli, str(note), "--slide-seconds", "0")
    assert plan["sections"][0]["words"] == 1 + 2 + 1  # "T"; "Agenda Demo"; the slide title "Demo"


def test_pace_from_config_and_front_matter(cli, tmp_path):
    (tmp_path / "confnotes.toml").write_text("[slides]\nwpm = 150\nslide_seconds = 0\n")
    note = tmp_path / "talk.md"
    note.write_text("# T\n\n## Part\n\n- one two three\n")
    assert _json(cli, str(note))["wpm"] == 150
    note.write_text("---\nslides:\n  wpm: 110\n---\n# T\n\n## Part\n\n- one two three\n")
    assert _json(cli, str(note))["wpm"] == 110
    assert _json(cli, str(note), "--wpm", "120")["wpm"] == 120
    (tmp_path / "confnotes.toml").write_text("[slides]\nwpm = 900\n")
    note.write_text("# T\n\n## Part\n\n- one\n")
    bad = cli("time", str(note))
    assert bad.exit_code == 2 and "Traceback" not in bad.stderr
    assert "'slides.wpm' must be a whole number from 50 to 400, not 900" in bad.stderr


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("20min", 20),
        ("20 min", 20),
        ("20m", 20),
        ("20 minutes", 20),
        ("1h", 60),
        ("1h30m", 90),
        ("1h 30min", 90),
        ("20:00", 20),
        ("0:20:00", 20),
        ("1:05", 1 + 5 / 60),
        ("4:30", 4.5),
        ("0:04:30", 4.5),
        ("90s", 1.5),
        ("7.5", 7.5),
        (20, 20),
        (2.5, 2.5),
    ],
)
def test_durations_in_every_listed_form(text, minutes):
    assert parse_duration(text) == pytest.approx(minutes)


@pytest.mark.parametrize("text", ["soon", "20 mins of fun", "0min", "-5m", "", "25h", True, "m20"])
def test_unreadable_durations(text):
    with pytest.raises(DurationError):
        parse_duration(text)


@pytest.mark.parametrize(
    ("head", "body", "where", "message"),
    [
        ("duration: twenty minutes\n", "", ":3:1:", "front matter 'duration'"),
        ("duration: 20min\n", "<!-- time: soonish -->\n", ":7:1:", "budget comment"),
        ("budgets:\n  Part: lots\n", "", ":3:1:", "front matter 'budgets' for 'Part'"),
        ("budgets:\n  Nowhere: 5min\n", "", ":3:1:", "no section titled 'Nowhere'"),
    ],
)
def test_bad_budget_values_are_exit_2_with_the_line(cli, tmp_path, head, body, where, message):
    note = tmp_path / "talk.md"
    note.write_text(f"---\ntitle: Talk\n{head}---\n\n## Part\n{body}\n- point\n")
    for command in (("time", str(note)), ("lint", "--no-cache", str(note))):
        result = cli(*command)
        assert result.exit_code == 2, (command, result.output)
        line = result.stderr.strip().splitlines()[-1]
        assert line.startswith(str(note) + where) and message in line, line
        assert "Traceback" not in result.stderr


def test_budgets_from_comments_and_front_matter(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text(
        "---\ntitle: Talk\nduration: 20:00\nbudgets:\n  Intro: 2min\n---\n\n# Talk\n\n"
        "## Intro\n\n- hello\n\n## Middle\n<!-- time: 1h -->\n\n- the meat\n\n## End\n\n<!-- time: 90s -->\n\n- bye\n"
    )
    plan = _json(cli, str(note))
    assert plan["slot_minutes"] == 20
    assert [s["budget_minutes"] for s in plan["sections"]] == [2, 60, 1.5]
    assert [s["title"] for s in plan["sections"]] == ["Intro", "Middle", "End"]  # under the repeated '# Talk'


def test_lint_over_time_for_a_talk_past_its_slot(cli, tmp_path):
    note = tmp_path / "scale2025.md"
    note.write_text("---\nduration: 2min\n---\n" + (NOTES / "scale2025.md").read_text(encoding="utf-8"))
    result = cli("lint", "--no-cache", "--format", "json", str(note))
    found = [f for f in json.loads(result.stdout) if f["name"] == "over-time"]
    assert len(found) == 1 and found[0]["line"] == 2 and found[0]["severity"] == "warning"
    assert re.search(r"runs about 3 min( \d\d? s)? for a 2 min slot \(1\d\d%\)", found[0]["message"])
    note.write_text("---\nduration: 5min\n---\n" + (NOTES / "scale2025.md").read_text(encoding="utf-8"))
    result = cli("lint", "--no-cache", "--format", "json", str(note))
    assert "over-time" not in {f["name"] for f in json.loads(result.stdout)}


def test_text_table(cli):
    out = cli("time", str(TALK)).stdout
    lines = out.splitlines()
    assert lines[0].split() == ["Section", "Slides", "Words", "Time", "Budget", "Status"]
    # 1:05 against a 1:00 budget: over (a section above its budget is never "ok"), within lint's 125%
    assert lines[1].startswith("Why we stopped buying dashboards") and lines[1].endswith("1:00  over, within tolerance")
    assert lines[4].startswith("Total")
    assert "of a 2:00 slot" in out and "130 words a minute" in out


def _without_budget_lines(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not re.fullmatch(r"\s*<!-- time: .* -->", line))


WRITABLE = [
    NOTES / "scale2025.md",  # bare-line headings of a pasted note
    FIXTURES / "real" / "setext-notes.md",
    FIXTURES / "real" / "front-matter-talk.md",
    FIXTURES / "real" / "session-k8s-scheduler.md",
    FIXTURES / "real" / "interleaved-session.md",
    FIXTURES / "real" / "reading-list-bare.md",  # a reading list's bare-line titles stay titles
]


@pytest.mark.parametrize("source", WRITABLE, ids=lambda p: p.name)
def test_write_budgets_changes_only_the_budget_comments(cli, tmp_path, source):
    note = tmp_path / "talk.md"
    original = source.read_bytes()
    note.write_bytes(original)
    before = _json(cli, str(note))
    result = cli("time", "--write-budgets", str(note))
    assert result.exit_code == 0, result.stderr
    written = note.read_text(encoding="utf-8")
    assert written != original.decode()
    assert _without_budget_lines(written) == _without_budget_lines(original.decode())
    after = _json(cli, str(note))
    assert [s["title"] for s in after["sections"]] == [s["title"] for s in before["sections"]]
    assert all(s["budget_minutes"] is not None for s in after["sections"])
    assert cli("outline", "--format", "json", str(note)).exit_code == 0
    # a second run replaces the comments in place: nothing else moves
    cli("time", "--write-budgets", "--wpm", "100", str(note))
    again = note.read_text(encoding="utf-8")
    assert again.count("<!-- time:") == written.count("<!-- time:")
    assert _without_budget_lines(again) == _without_budget_lines(original.decode())


def test_rehearsal_compared_and_written_back(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_bytes(TALK.read_bytes())
    plan = _json(cli, str(note))
    count = len(plan["slide_marks"])
    timings = tmp_path / "timings.json"
    timings.write_text(
        json.dumps({"format": "confnotes.rehearsal/1", "slides": [{"slide": n, "seconds": 30} for n in range(1, count + 1)]})
    )
    out = cli("time", str(note), "--rehearsal", str(timings)).stdout
    assert out.splitlines()[0].split() == ["Section", "Planned", "Actual", "Diff"]
    assert "Total" in out and "words a minute" in out
    data = _json(cli, str(note), "--rehearsal", str(timings))
    assert data["rehearsal"]["total_minutes"] == pytest.approx(count * 0.5)
    assert cli("time", "--write-budgets", "--rehearsal", str(timings), str(note)).exit_code == 0
    budgets = [s["budget_minutes"] for s in _json(cli, str(note))["sections"]]
    slides = [s["slides"] for s in plan["sections"]]
    assert budgets == [max(0.5, round(n * 0.5 * 2) / 2) for n in slides]
    timings.write_text('{"slides": []}')
    bad = cli("time", str(note), "--rehearsal", str(timings))
    assert bad.exit_code == 2 and "not a confnotes timings file" in bad.stderr


def test_the_plan_shows_on_the_agenda_handout_outline_and_site_index(cli, tmp_path, weasyprint):
    from helpers import pdf_reading_text

    notes = tmp_path / "notes"
    notes.mkdir()
    note = notes / "talk.md"
    note.write_bytes(TALK.read_bytes())
    (notes / "plain.md").write_text("# Hallway notes\n\n## Lunch\n\n- good soup\n")
    plan = _json(cli, str(note))
    planned = [s["budget_minutes"] or s["minutes"] for s in plan["sections"]]  # the budget where there is one
    labels = [("<1 min" if m < 0.75 else f"{round(m)} min") for m in planned]
    deck = cli("render", str(note), "--to", "slides", "-o", "-").stdout
    agenda = re.search(r'<section class="slide kind-agenda".*?</section>', deck, re.S).group(0)
    assert re.findall(r'<span class="minutes">([^<]*)</span>', agenda) == [label.replace("<", "&lt;") for label in labels]
    # not a talk (no duration, kind or slides settings): no minutes on its agenda
    assert 'class="minutes"' not in cli("render", str(notes / "plain.md"), "--to", "slides", "-o", "-").stdout
    outline = cli("render", str(note), "--to", "outline", "-o", "-").stdout
    marks = re.findall(r"^\s+\d+\. \[(\d+:\d\d)\] ", outline, re.M)
    assert len(marks) == len(plan["slide_marks"]) and marks[0] == "0:00"
    assert marks == sorted(marks, key=lambda m: int(m.split(":")[0]) * 60 + int(m.split(":")[1]))
    assert "for a 2:00 slot" in outline.splitlines()[0]
    handout = tmp_path / "talk.handout.pdf"
    assert cli("render", str(note), "--to", "handout", "-o", str(handout)).exit_code == 0
    text = pdf_reading_text(handout)
    if text is not None:
        flat = " ".join(text.split())
        assert all(f"{s['title']} {label}" in flat for s, label in zip(plan["sections"], labels, strict=True)), flat[:400]
    site = tmp_path / "site"
    built = cli("build", str(notes), "-o", str(site), "--to", "html")
    assert built.exit_code == 0, built.output
    index = (site / "index.html").read_text()
    assert f"about {max(1, round(plan['total_minutes']))} min of a 2-minute slot" in index
    assert index.count('class="talk-time"') == 1


def test_what_new_users_tripped_on(cli, tmp_path):
    """20:00 is not twenty hours; a budget under a notes comment counts; budgets over the slot and
    a clicked-through rehearsal are called out."""
    note = tmp_path / "talk.md"
    note.write_text('---\nduration: "00:20"\n---\n# Talk\n\n## Part\n\n- point\n')
    bad = cli("time", str(note))
    assert bad.exit_code == 2 and "is 20 seconds (minutes:seconds)" in bad.stderr and "write 20:00 or 20min" in bad.stderr
    assert bad.stderr.startswith(f"{note}:2:1: ")
    note.write_text(
        "---\nduration: 10min\n---\n# Talk\n\n## Intro\n<!-- notes: wave -->\n<!-- time: 6min -->\n\n- point\n\n"
        "## Outro\n<!-- time: 6min -->\n\n- bye\n"
    )
    plan = _json(cli, str(note))
    assert [s["budget_minutes"] for s in plan["sections"]] == [6, 6]
    found = json.loads(cli("lint", "--no-cache", "--format", "json", str(note)).stdout)
    assert any("budgets add up to 12 min, more than the 10 min slot" in f["message"] for f in found)
    timings = tmp_path / "quick.json"
    timings.write_text(json.dumps({"format": "confnotes.rehearsal/1", "slides": [{"slide": 3, "seconds": 1}, {"slide": 4, "seconds": 1}]}))
    out = cli("time", "--rehearsal", str(timings), str(note)).stdout
    assert "a partial rehearsal" in out and "try --wpm" not in out


@pytest.mark.parametrize("written", ["20:00", '"20:00"', "0:20:00", "'0:20:00'", "20min", "1200s", "20"])
def test_durations_read_as_written_quoted_or_not(cli, tmp_path, written):
    """YAML reads an unquoted 20:00 (and 0:20:00) as the base-60 integer 1200: a 20-hour slot over
    which nothing could ever run. confnotes reads the value as written in the front matter."""
    note = tmp_path / "talk.md"
    budgets = "budgets:\n  Intro: 4:30\n  'Demo': 12:00\n"
    note.write_text(f"---\nduration: {written}  # the slot\n{budgets}---\n# Talk\n\n## Intro\n\n- hi\n\n## Demo\n\n- go\n")
    plan = _json(cli, str(note))
    assert plan["slot_minutes"] == 20
    assert [s["budget_minutes"] for s in plan["sections"]] == [4.5, 12]


def test_a_long_talk_over_an_unquoted_slot_is_over_time(cli, tmp_path):
    note = tmp_path / "talk.md"
    words = " ".join(["word"] * 400)
    note.write_text(f"---\nduration: 1:00\n---\n# Talk\n\n## Part\n\n- {words}\n")
    found = json.loads(cli("lint", "--no-cache", "--format", "json", str(note)).stdout)
    assert any(f["name"] == "over-time" for f in found)


# ---------------------------------------------------------------- rehearsal data that is safe

REHEARSED_TALK = """---
title: Talk
duration: 10min
budgets:
  Middle: 3min   # agreed with the host
---
# Talk

## Intro

- hello there

## Middle

- the meat of it

## End

- goodbye
"""


def _timings(tmp_path, slides):
    path = tmp_path / "talk.timings.json"
    path.write_text(json.dumps({"format": "confnotes.rehearsal/1", "slides": slides}))
    return str(path)


def test_write_budgets_after_a_partial_rehearsal_leaves_untimed_sections(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text(REHEARSED_TALK)
    # only the End section's slide was timed (90 s); Intro and Middle were not
    timings = _timings(
        tmp_path, [{"slide": 1, "seconds": 0}, {"slide": 5, "section": "End", "title": "End", "occurrence": 1, "seconds": 90}]
    )
    result = cli("time", str(note), "--rehearsal", timings, "--write-budgets")
    assert result.exit_code == 0, result.stderr
    text = note.read_text()
    assert "<!-- time: 1.5min -->" in text
    assert text.count("<!-- time:") == 1, "untimed sections got no budget"
    assert "  Middle: 3min   # agreed with the host" in text, "an untimed front-matter budget is left as it is"
    assert "left 2 untimed section budget(s) as they were: Intro, Middle" in result.stderr
    assert "wrote 1 section budget" in result.stderr


def test_a_front_matter_budget_is_updated_in_place_and_nothing_else_changes(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text(REHEARSED_TALK)
    assert cli("time", str(note), "--write-budgets").exit_code == 0
    before, after = REHEARSED_TALK.split("\n"), note.read_text().split("\n")
    budget_line = next(line for line in after if line.startswith("  Middle:"))
    assert budget_line.endswith("# agreed with the host") and "3min" not in budget_line
    assert "<!-- time:" not in "\n".join(after[after.index("## Middle") : after.index("## End")]), "no second budget beside it"
    changed = [line for line in after if line not in before]
    assert all(line.startswith("<!-- time:") or line == budget_line for line in changed), changed
    again = cli("time", str(note), "--write-budgets")
    assert "nothing changed" in again.stderr and "wrote" not in again.stderr


def test_timings_are_matched_to_slides_by_identity(cli, tmp_path):
    """One slide added after the rehearsal used to shift every later time to the wrong slide."""
    note = tmp_path / "talk.md"
    note.write_text(REHEARSED_TALK.replace("  Middle: 3min   # agreed with the host\n", "  Middle: 3min\n"))
    saved = [
        {"slide": 3, "section": "Intro", "title": "Intro", "occurrence": 1, "seconds": 60},
        {"slide": 4, "section": "Middle", "title": "Middle", "occurrence": 1, "seconds": 120},
        {"slide": 5, "section": "End", "title": "End", "occurrence": 1, "seconds": 30},
    ]
    timings = _timings(tmp_path, saved)
    note.write_text(note.read_text().replace("## Middle", "## Warm-up\n\n- a new story\n\n## Middle"))
    result = cli("time", str(note), "--rehearsal", timings, "--format", "json")
    actual = json.loads(result.stdout)["rehearsal"]["sections"]
    titles = [s["title"] for s in json.loads(result.stdout)["sections"]]
    assert dict(zip(titles, actual, strict=True)) == {"Intro": 1.0, "Warm-up": 0.0, "Middle": 2.0, "End": 0.5}
    table = cli("time", str(note), "--rehearsal", timings).stdout
    added = next(line for line in table.splitlines() if "added since the rehearsal (not timed)" in line)
    assert added.endswith("; Warm-up.") or added.endswith(": Warm-up.")


def test_write_wpm_keeps_the_measured_rate(cli, tmp_path):
    note = tmp_path / "talk.md"
    words = " ".join(["word"] * 150)
    note.write_text(f"---\ntitle: Talk\nslides:\n  max_items: 6\n---\n# Talk\n\n## Part\n\n- {words}\n")
    timings = _timings(tmp_path, [{"slide": n, "seconds": 62 if n == 3 else 0} for n in (1, 2, 3)])
    result = cli("time", str(note), "--rehearsal", timings, "--write-wpm")
    assert result.exit_code == 0, result.stderr
    text = note.read_text()
    assert "slides:\n  wpm: " in text and "  max_items: 6" in text
    assert _json(cli, str(note))["wpm"] == int(text.split("wpm: ")[1].split("\n")[0])


@pytest.mark.parametrize(
    ("share", "verdict"),
    [
        (0.5, "well under the slot"),
        (0.95, "fits the slot"),
        (1.0, "fits the slot"),
        (1.05, "over the slot, within tolerance"),
        (1.2, "over the slot"),
    ],
)
def test_the_slot_verdict_speaks_plainly(share, verdict):
    from confnotes.timing import slot_verdict

    assert slot_verdict(share) == verdict


@pytest.mark.parametrize(
    "bad",
    [
        '{"slide": 1e30, "seconds": 5}',
        '{"slide": 1, "seconds": NaN}',
        '{"slide": 1, "seconds": Infinity}',
        '{"slide": 100000000, "seconds": 1}',
    ],
)
def test_a_tampered_timings_file_is_one_error(cli, tmp_path, bad):
    note = tmp_path / "talk.md"
    note.write_text(REHEARSED_TALK)
    path = tmp_path / "bad.json"
    path.write_text('{"format": "confnotes.rehearsal/1", "slides": [' + bad + "]}")
    result = cli("time", str(note), "--rehearsal", str(path))
    assert result.exit_code == 2 and "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_flow_style_front_matter_is_read_and_edited_in_place(cli, tmp_path):
    """budgets: {…} and slides: {…} on one line: an unquoted 4:00 inside is four minutes, and the
    write-back edits inside the braces instead of adding a second key or a contradicting comment."""
    note = tmp_path / "talk.md"
    words = " ".join(["word"] * 150)
    note.write_text(
        '---\nduration: 20:00\nbudgets: {Intro: 5min, "Main part": 4:00}\nslides: {max_items: 2}\n---\n'
        f"# Talk\n\n## Intro\n\n- {words}\n\n## Main part\n\n- one\n- two\n- three\n"
    )
    plan = _json(cli, str(note))
    assert [s["budget_minutes"] for s in plan["sections"]] == [5, 4]
    slides = len(plan["slide_marks"])
    timings = _timings(tmp_path, [{"slide": m["slide"], "seconds": m["minutes"] * 60 * 1.1} for m in plan["slide_marks"]])
    result = cli("time", str(note), "--rehearsal", timings, "--write-budgets", "--write-wpm")
    assert result.exit_code == 0, result.stderr
    text = note.read_text()
    assert text.count("slides:") == 1 and "max_items: 2" in text and "wpm: " in text.split("slides:")[1].split("\n")[0]
    assert "<!-- time:" not in text, "budgets that live in the front matter are changed there"
    assert len(_json(cli, str(note))["slide_marks"]) == slides, "the deck's settings survive"


def test_durations_in_messages_read_as_durations():
    """A lint message says "59 s" or "1 min 34 s", never a clock followed by a unit ("0:59 min")."""
    from confnotes.timing import spoken_minutes

    assert [spoken_minutes(m) for m in (0.98, 1.5666, 30, 4.1, 0)] == ["59 s", "1 min 34 s", "30 min", "4 min 6 s", "0 s"]


def test_time_and_lint_agree_on_when_a_talk_is_over_under_a_configured_tolerance(cli, tmp_path):
    """With ``slot_percent = 100`` lint reported over-time while ``time`` still said "within tolerance"."""
    points = "".join(f"- Week {n}: weekend pages doubled after the Friday deploys and nobody owned the rollback\n" for n in range(40))
    body = f"# Deploys\n\n## Why\n\n{points}"
    note = tmp_path / "talk.md"
    note.write_text(body, encoding="utf-8")
    seconds = round(_json(cli, str(note))["total_minutes"] * 60 / 1.05)  # the estimate is 105% of the slot
    note.write_text(f"---\nduration: {seconds // 60}:{seconds % 60:02d}\n---\n{body}", encoding="utf-8")
    assert "within tolerance" in cli("time", str(note)).stdout
    assert "CN304" not in cli("lint", str(note), "--no-cache", "--select", "CN304", "--profile", "talk").stdout
    (tmp_path / "confnotes.toml").write_text("[lint.rules.over-time]\nslot_percent = 100\n", encoding="utf-8")
    said = cli("time", str(note)).stdout
    assert "over the slot," in said and "within tolerance" not in said, said
    assert "CN304" in cli("lint", str(note), "--no-cache", "--select", "CN304", "--profile", "talk").stdout


def test_a_partial_rehearsal_says_so_instead_of_minus_the_plan(cli, tmp_path):
    """Sections the rehearsal skipped showed "0:00 −3:00" and the total ran negative, with no word of it."""
    note = tmp_path / "talk.md"
    note.write_text(REHEARSED_TALK)
    timings = _timings(tmp_path, [{"slide": 5, "section": "End", "title": "End", "occurrence": 1, "seconds": 90}])
    result = cli("time", str(note), "--rehearsal", timings)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[2].split() == ["Middle", "3:00", "-", "-"] and lines[3].split() == ["End", "0:03", "1:30", "+1:27"]
    assert lines[4].split() == ["Total", "of", "1", "timed", "0:03", "1:30", "+1:27"]  # not the whole plan's minus
    assert len({len(line) for line in lines[:5]}) == 1  # the columns line up
    assert "A partial rehearsal: 2 of 3 sections not timed (Intro; Middle)." in result.stdout


HIDDEN_BACKUP = """---
title: Error budgets
duration: 20min
---

# Error budgets

## Why budgets fail
<!-- time: 5 -->

- product never agreed to them

## Backup: the raw numbers
<!-- slide hide -->
<!-- time: 3 -->

- burn rates per team, if someone asks

## Takeaways

- agree on the policy first
"""


def test_a_rehearsal_of_every_shown_slide_is_whole_though_a_part_is_hidden(cli, tmp_path):
    """A hidden part (``<!-- slide hide -->``) is in no deck, so no rehearsal can time it: it was
    called "a partial rehearsal: 1 of 3 sections not timed" after a full run-through."""
    note = tmp_path / "talk.md"
    note.write_text(HIDDEN_BACKUP, encoding="utf-8")
    count = len(json.loads(cli("time", str(note), "--format", "json").stdout)["slide_marks"])
    timings = _timings(tmp_path, [{"slide": n, "seconds": 40} for n in range(1, count + 1)])
    out = cli("time", str(note), "--rehearsal", timings).stdout
    assert "partial" not in out and "not timed" not in out, out
    assert "Not in the deck (hidden), so not rehearsed: Backup: the raw numbers." in out
    assert "Backup: the raw numbers " not in out.split("Planned:")[0]  # no row of its own
    result = cli("time", str(note), "--rehearsal", timings, "--write-budgets")
    assert result.exit_code == 0 and "untimed" not in result.stderr, result.stderr
    assert "<!-- time: 3 -->" in note.read_text(encoding="utf-8")  # its budget as it was


def test_a_hidden_part_takes_no_time_in_the_presenter_s_plan():
    from confnotes.config import Config
    from confnotes.load import read_text
    from confnotes.render.deck import talk_plan_for
    from confnotes.render.options import resolve_render_options
    from confnotes.timing.talk import schedule

    doc = read_text(HIDDEN_BACKUP, "talk.md", Config())
    plan = schedule(talk_plan_for(doc, resolve_render_options(Config(), doc), None).timing)
    why, backup, takeaways = plan["sections"]
    assert backup == {"title": "Backup: the raw numbers", "start": why["start"] + 5, "minutes": 0, "hidden": True}
    assert takeaways["start"] == why["start"] + 5 and "hidden" not in why and "hidden" not in takeaways
    assert plan["total"] == pytest.approx(5 + takeaways["minutes"], abs=0.001)
