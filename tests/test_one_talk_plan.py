"""One talk plan for every deck output: the HTML deck, slides PDF, handout, PPTX, Marp and the
slide outline agree on the slides, their titles, the agenda's minutes and which slides carry notes
(checked for every combination of features by tests/test_matrix.py; here, the plan's own cases)."""

from __future__ import annotations

import io
import re

import pytest

from helpers import formats_where

TALK = """---
title: Shipping on Fridays
duration: 10min
budgets:
  Why we stopped: 4:30
---
Notes from the platform track.

## Why we stopped

1. Deploys broke weekends
   - pager load doubled
2. Nobody owned rollbacks

::: notes
Tell the story of the March outage.
:::

## What we kept
<!-- time: 3.5min -->

- Small changes
- Feature flags
- Canaries
- Dashboards
- Runbooks
- Pairing
- Blameless reviews
- On-call handover

## Questions

```python
def rollback(release):
    return deploy(release.previous, note="rolled back on a Friday, on purpose")
```
"""


#: 4.5 and 3.5 minutes: Python's round() made both "4 min" (to even), so the agenda disagreed with the budgets
def test_agenda_minutes_round_halves_up_one_way():
    from confnotes.timing import agenda_label

    assert [agenda_label(m) for m in (4.5, 3.5, 4.24, 4.25, 0.5, 1.0)] == ["4.5 min", "3.5 min", "4 min", "4.5 min", "<1 min", "1 min"]


def test_notes_follow_the_content_they_were_written_after_onto_cont_slides():
    """A note written after the last items of a list that the limits split goes with those items to
    the "(cont.)" slide, instead of leaving the cont. slide with no notes."""
    from confnotes.api import build_deck, parse_text

    doc = parse_text(
        "# Talk\n\n## Tools\n\n- one\n- two\n- three\n\n::: notes\nabout the first three\n:::\n\n"
        "- four\n- five\n- six\n- seven\n- eight\n\n::: notes\nabout the last ones\n:::\n"
    )
    deck = build_deck(doc, max_items=4, agenda=False)
    parts = [slide for slide in deck.slides if slide.title == "Tools"]
    assert [slide.display_title for slide in parts] == ["Tools", "Tools (cont.)"]
    assert parts[0].notes == ("about the first three",)
    assert parts[1].notes == ("about the last ones",)


def test_a_split_code_block_is_highlighted_whole_then_split(cli, tmp_path):
    """A docstring that runs across the fit engine's cut stays a string on the '(cont.)' slide;
    highlighted part by part, its words lit up as keywords there."""
    lines = "\n".join(f"    line {n} of the docstring: if for while return" for n in range(40))
    note = tmp_path / "talk.md"
    note.write_text(
        f'# Talk\n\n## The script\n\n```python\ndef migrate(db):\n    """Move every row.\n{lines}\n    """\n    return True\n```\n'
    )
    out = tmp_path / "talk.slides.html"
    assert cli("render", str(note), "--to", "slides", "-o", str(out)).exit_code == 0
    parts = re.findall(r'<pre class="code highlight"[^>]*><code>(.*?)</code></pre>', out.read_text(), re.S)
    assert len(parts) >= 2, "the block is split"
    inside = [line for line in parts[1].split("\n") if "of the docstring" in line]
    assert inside and all('class="sd"' in line and 'class="k"' not in line for line in inside)
    from pptx import Presentation

    deck = tmp_path / "talk.pptx"
    assert cli("render", str(note), "--to", "pptx", "-o", str(deck)).exit_code == 0
    prs = Presentation(str(deck))
    colours = set()
    for slide in list(prs.slides)[1:]:
        for shape in slide.shapes:
            if shape.has_text_frame and "of the docstring" in shape.text_frame.text:
                for paragraph in shape.text_frame.paragraphs:
                    if "of the docstring" in "".join(run.text for run in paragraph.runs):
                        colours |= {str(run.font.color.rgb) for run in paragraph.runs if run.text.strip() and run.font.color.type}
    assert len(colours) == 1, f"docstring lines are one colour on every slide, not keyword-coloured: {colours}"


def test_a_build_makes_one_talk_plan_per_note(cli, tmp_path, monkeypatch, weasyprint):
    """Lint's timing rules, every deck format and the index read one plan, made once."""
    import confnotes.timing.talk as timing

    made: list[str] = []
    real = timing.plan

    def counting(doc, deck, wpm=timing.DEFAULT_WPM, slide_seconds=timing.DEFAULT_SLIDE_SECONDS):
        made.append(doc.path)
        return real(doc, deck, wpm, slide_seconds)

    monkeypatch.setattr(timing, "plan", counting)
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text(TALK, encoding="utf-8")
    result = cli("build", str(notes), "-o", str(tmp_path / "site"), "--to", "slides,pptx,marp,outline,handout", "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    assert len(made) == 1, made


def test_notes_after_a_block_the_fit_engine_cut_go_where_it_ends():
    from confnotes.api import build_deck, parse_text

    code = "\n".join(f"step_{n} = run(step_{n - 1})" for n in range(1, 70))
    doc = parse_text(
        f"# Talk\n\n## Pipeline\n\n::: notes\nopen with the why\n:::\n\n```python\n{code}\n```\n\n::: notes\nafter the code\n:::\n"
    )
    parts = [slide for slide in build_deck(doc, agenda=False).slides if slide.title == "Pipeline"]
    assert len(parts) >= 2, "the code block is cut over slides"
    assert parts[0].notes == ("open with the why",)
    assert parts[-1].notes == ("after the code",)
    assert all(not slide.notes for slide in parts[1:-1])


def test_the_handout_indents_sub_points_as_the_deck_does(cli, tmp_path, weasyprint):
    from pypdf import PdfReader

    note = tmp_path / "costs.md"
    note.write_text("# Costs\n\n## What we pay for\n\n- Vendors\n  - Licences per seat\n- People\n  - Oncall hours\n", encoding="utf-8")
    out = tmp_path / "costs.handout.pdf"
    assert cli("render", str(note), "--to", "handout", "-o", str(out)).exit_code == 0
    starts: dict[str, float] = {}

    def visit(text, _cm, tm, _font, _size):
        for word in ("Vendors", "Licences"):
            if text.strip().startswith(word) and word not in starts:
                starts[word] = tm[4]

    for page in PdfReader(str(out)).pages:
        page.extract_text(visitor_text=visit)
    assert set(starts) == {"Vendors", "Licences"}
    assert starts["Licences"] > starts["Vendors"] + 5, starts


def test_a_talk_with_its_own_agenda_gets_no_second_one(cli, tmp_path):
    from confnotes.api import build_deck, parse_text

    doc = parse_text("---\nduration: 20min\n---\n# Platform day\n\n## Agenda\n\n1. Why\n2. How\n\n## Why\n\n- costs\n\n## How\n\n- first\n")
    titles = [slide.title for slide in build_deck(doc).slides]
    assert titles.count("Agenda") == 1 and "Agenda" in titles
    assert [slide.kind for slide in build_deck(doc, agenda=True).slides].count("agenda") == 1  # asked for, it is made


def test_pptx_text_box_bullets_state_their_size_and_face(cli, tmp_path):
    """Bullets in text boxes (slides with code beside a list) without a size and face showed small
    and raised in LibreOffice."""
    from pptx import Presentation

    note = tmp_path / "talk.md"
    note.write_text('# Talk\n\n## How\n\n```python\nprint("x")\n```\n\n- first\n  - nested detail\n- second\n', encoding="utf-8")
    out = tmp_path / "talk.pptx"
    assert cli("render", str(note), "--to", "pptx", "-o", str(out)).exit_code == 0
    ns = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
    found = 0
    for slide in Presentation(str(out)).slides:
        for shape in slide.shapes:
            if not shape.has_text_frame:
                continue
            for paragraph in shape.text_frame.paragraphs:
                properties = paragraph._p.pPr
                if properties is not None and properties.find(f"{ns}buChar") is not None:
                    found += 1
                    assert properties.find(f"{ns}buSzPct") is not None and properties.find(f"{ns}buFont") is not None
    assert found == 3


#: ten parts budgeted 1 to 10 minutes (an agenda of two slides), and a hidden backup part at the end
TEN_PARTS = "\n".join(
    [
        "---",
        "title: Platform migration, ten steps",
        "speakers: [Priya Raman]",
        "duration: 60min",
        "---",
        "",
        "Notes for the platform track, kept as the slides.",
        "",
        *(
            line
            for n in range(1, 11)
            for line in (f"## Step {n} of the migration", f"<!-- time: {n}min -->", "", f"- What changes in step {n}", "- Sign-off", "")
        ),
        "## Backup: the numbers",
        "<!-- slide hide -->",
        "",
        "- p99 went from 900 ms to 240 ms",
        "",
    ]
)
EVERY_FORMAT = formats_where()


@pytest.fixture(scope="module")
def ten_parts(tmp_path_factory, weasyprint):
    """The note rendered once in every format: format -> (exit code, error output, the file's text)."""
    from click.testing import CliRunner

    from confnotes.cli import main
    from helpers import output_text, pdf_text

    folder = tmp_path_factory.mktemp("ten-parts")
    note = folder / "migration.md"
    note.write_text(TEN_PARTS, encoding="utf-8")
    out = {}
    for fmt in EVERY_FORMAT:
        target = folder / f"out.{fmt}"
        result = CliRunner().invoke(main, ["render", str(note), "--to", fmt, "-o", str(target)])
        if result.exit_code != 0:
            out[fmt] = (result.exit_code, result.stderr, "")
            continue
        data = target.read_bytes()
        if fmt == "pptx":
            from pptx import Presentation

            slides = Presentation(io.BytesIO(data)).slides
            text = "\n".join(shape.text_frame.text for slide in slides for shape in slide.shapes if shape.has_text_frame)
        elif fmt == "docx":
            text = output_text(target, fmt)
        else:
            text = pdf_text(data) if fmt.endswith("pdf") or fmt == "handout" else data.decode()
        out[fmt] = (result.exit_code, result.stderr, text)
    return out


@pytest.mark.parametrize("fmt", EVERY_FORMAT)
def test_a_talk_with_a_hidden_backup_part_renders_in_every_format(ten_parts, fmt):
    code, stderr, _text = ten_parts[fmt]
    assert code == 0, stderr


@pytest.mark.parametrize("fmt", formats_where(deck=True))
def test_an_agenda_of_two_slides_shows_each_parts_own_minutes(ten_parts, fmt):
    """The "(cont.)" agenda slide once showed the first slide's minutes again (the seventh part: 1 min)."""
    _code, stderr, text = ten_parts[fmt]
    words = " ".join(re.sub(r"<[^>]+>", " ", text).split())  # the HTML deck's minutes are a span of their own
    shown = re.findall(r"Step (\d+) of the migration\W{0,8}(\d+) min", words)
    assert shown, (fmt, stderr)
    assert sorted({(int(step), int(minutes)) for step, minutes in shown}) == [(n, n) for n in range(1, 11)], fmt
