"""Hostile sizes (issue "Hardening, round 3"): every command on any note finishes in bounded time and
memory, and says where a limit (docs/security.md, "Limits") cut something.

Wall-clock time is never asserted: each row asserts the limit's cap or its message, and runs in
a fresh process with a generous ``timeout=`` and an address-space limit, so a regression fails
(or is killed) instead of hanging the suite.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

#: every row's process: killed past this, so a hang fails the test rather than the suite
TIMEOUT = 300
#: and refused memory past this (address space; Python and WeasyPrint map ~0.5 GB before any note)
MEMORY = 2 * 1024**3


def confnotes(*args: str, cwd: Path | None = None, memory: int = MEMORY) -> subprocess.CompletedProcess[str]:
    """confnotes in a fresh process, with a bound on its memory and a generous time-out."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = {**os.environ, "CONFNOTES_TEMPLATE_CACHE": ""}
    return subprocess.run(
        [sys.executable, "-m", "confnotes", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=TIMEOUT,
        preexec_fn=limit,
        env=env,
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr[-2000:]
    return lines[0]


# ------------------------------------------------------------------ user templates


NESTED_LOOPS = {
    "nested-range": ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", "loop turns"),
    "nested-output": ("{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}", "loop turns"),
}
TEMPLATE_BOMBS = {
    "doubling": (
        "{% set ns = namespace(s='0123456789') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}",
        "characters of text",
    ),
    "repeat": ("{{ 'x' * 1000000000 }}", "longer than"),
    "center": ("{{ 'x'|center(1000000000) }}", "a number larger than 100,000"),
    "ljust": ("{{ 'x'.ljust(1000000000) }}", "a number larger than 100,000"),
    "format-width": ("{{ '{:>1000000000}'.format(1) }}", "a format width"),
    "percent-width": ("{{ '%1000000000d' % 1 }}", "a format width"),
    "power": ("{% set ns = namespace(x=3) %}{% for i in range(60) %}{% set ns.x = ns.x * ns.x %}{% endfor %}{{ ns.x }}", "bits"),
}


@pytest.mark.parametrize("bomb", list(NESTED_LOOPS))
def test_nested_loops_in_a_user_template_stop(tmp_path, bomb, processes):
    """They ran for ever; they stop at the loop-turn limit (about 6 s: slow)."""
    _stopped(tmp_path, *NESTED_LOOPS[bomb])


@pytest.mark.parametrize("bomb", list(TEMPLATE_BOMBS))
def test_a_user_template_that_would_run_for_ever_is_stopped(tmp_path, bomb, processes):
    _stopped(tmp_path, *TEMPLATE_BOMBS[bomb])


def _stopped(tmp_path: Path, text: str, says: str) -> None:
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "note.html").write_text(text)
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## A\n\n- a\n")
    result = confnotes("render", str(note), "-o", "-", "--templates", str(folder))
    assert result.returncode == 2
    line = one_line(result)
    assert "template note.html: stopped:" in line and says in line, line
    assert "(a limit for user templates; see docs/security.md)" in line


def test_limits_leave_ordinary_user_templates_alone(tmp_path, cli):
    """What templates do (loops, ``~``, filters with widths, ``%`` and ``format``) renders as Jinja renders it."""
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "note.html").write_text(
        "{% for i in range(3) %}{{ i ~ '<' }}{% endfor %}|{{ '%5d'|format(3) }}|{{ 123456|filesizeformat }}|"
        "{{ '{:>4}'.format(7) }}|{{ 'ab'|center(6) }}|{{ ('a' ~ 'b')|upper }}|{{ [1, 2] * 2 }}|{{ 2 ** 10 }}|"
        "{% for s in doc.sections %}{{ loop.index }}/{{ loop.length }} {{ s.title }}{% else %}none{% endfor %}"
    )
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## A\n\n- a\n\n## B <b>\n\n- b\n")
    result = cli("render", str(note), "-o", "-", "--templates", str(folder))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "0&lt;1&lt;2&lt;|    3|123.5 kB|   7|  ab  |AB|[1, 2, 1, 2]|1024|1/2 A2/2 B &lt;b&gt;"


def test_trusted_templates_have_no_template_limits(tmp_path, cli):
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "note.html").write_text("{{ ('x' * 200000)|length }}")
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n")
    result = cli("render", str(note), "-o", "-", "--templates", str(folder), "--trust-templates")
    assert result.exit_code == 0 and result.stdout == "200000"


# ------------------------------------------------------------------ decks: blocks, slides


def _deck(text: str):
    from confnotes.config.settings import SlideSettings
    from confnotes.parse import parse
    from confnotes.slides import DeckOptions, build_deck, slide_settings

    doc = parse(text, "big.md")
    return build_deck(doc, DeckOptions.from_settings(slide_settings(SlideSettings(), doc)))


def _code_lines_on(deck) -> list[str]:
    from confnotes.slides.fit import code_lines

    return [line for slide in deck.slides for entry in slide.content if entry.kind == "code" for line in code_lines(entry)]


def test_a_long_code_block_is_cut_on_slides():
    from confnotes.slides.limits import MAX_CODE_LINES

    deck = _deck("# Code\n\n## A\n\n```python\n" + "".join(f"x_{i} = {i}\n" for i in range(3 * MAX_CODE_LINES)) + "```\n")
    lines = _code_lines_on(deck)
    assert len(lines) == MAX_CODE_LINES + 1 and lines[-1] == f"⋯ {2 * MAX_CODE_LINES:,} more lines not on slides"
    assert lines[:3] == ["x_0 = 0", "x_1 = 1", "x_2 = 2"]
    assert deck.cut == (
        f"slide 'A': code block cut to its first {MAX_CODE_LINES:,} lines on slides ({2 * MAX_CODE_LINES:,} more; "
        f"the limit is {MAX_CODE_LINES:,} lines or {100 * MAX_CODE_LINES:,} characters a block: [slides] max_code_lines)",
    )


def test_a_code_block_of_long_lines_is_cut_by_its_characters():
    from confnotes.slides.limits import MAX_CODE_CHARS

    deck = _deck("# Code\n\n## A\n\n```\n" + ("y" * 1000 + "\n") * 300 + "```\n")
    lines = _code_lines_on(deck)
    assert sum(len(line) for line in lines[:-1]) <= MAX_CODE_CHARS
    assert lines[-1].endswith("more lines not on slides") and "characters a block" in deck.cut[0]


def test_a_long_paragraph_is_cut_on_slides():
    from confnotes.slides.limits import MAX_TEXT_WORDS

    words = [f"w{i}" + ("." if i % 12 == 11 else "") for i in range(3 * MAX_TEXT_WORDS)]
    deck = _deck("# Para\n\n## A\n\n" + " ".join(words) + "\n")
    shown = " ".join(entry.text for slide in deck.slides for entry in slide.content if entry.kind == "paragraph").split()
    assert shown[:MAX_TEXT_WORDS] == words[:MAX_TEXT_WORDS]
    assert f"[{2 * MAX_TEXT_WORDS:,} more words not on slides]" in " ".join(shown)
    assert len(shown) < MAX_TEXT_WORDS + 10
    assert deck.cut[0].startswith(f"slide 'A': paragraph cut to its first {MAX_TEXT_WORDS:,} words on slides")


def test_a_wide_long_table_is_cut_on_slides():
    from confnotes.slides.limits import MAX_TABLE_CELLS, MAX_TABLE_COLUMNS

    columns, rows = 40, 300
    table = "| " + " | ".join(f"c{j}" for j in range(columns)) + " |\n|" + "---|" * columns + "\n"
    table += "".join("| " + " | ".join(f"r{i}c{j}" for j in range(columns)) + " |\n" for i in range(rows))
    deck = _deck("# Table\n\n## A\n\n" + table)
    parts = [entry.table.all_rows for slide in deck.slides for entry in slide.content if entry.kind == "table"]
    assert all(len(row) == MAX_TABLE_COLUMNS for part in parts for row in part)
    body = [row for part in parts for row in part[1:]]
    assert (len(body) + 1) * MAX_TABLE_COLUMNS <= MAX_TABLE_CELLS and body[0][0] == "r0c0"
    assert deck.cut[0].startswith(f"slide 'A': table cut to {len(body)} of {rows} rows and {MAX_TABLE_COLUMNS} of {columns} columns")


@pytest.mark.parametrize(
    "note",
    [
        "---\nslides:\n  max_items: 1\n---\n# Points\n\n## A\n\n" + "".join(f"{i + 1}. point {i}\n" for i in range(1200)),
        "# Sections\n\n" + "".join(f"## Section {i}\n\ntext {i}\n\n" for i in range(1200)),
    ],
    ids=["points", "sections"],
)
def test_a_deck_stops_at_its_slide_limit_and_says_what_is_left_out(note):
    from confnotes.slides.limits import MAX_SLIDES

    deck = _deck(note)
    assert len(deck.slides) == MAX_SLIDES
    last = deck.slides[-1]
    assert last.title == "More in the notes" and f"stops at {MAX_SLIDES:,} slides" in last.content[0].text
    assert any(f"the deck stops at {MAX_SLIDES:,} slides (the limit for one deck: [slides] max_slides)" in warning for warning in deck.cut)


def test_limits_leave_an_ordinary_deck_alone():
    from conftest import NOTES

    for note in sorted(NOTES.glob("*.md")):
        assert _deck(note.read_text()).cut == (), note.name


def test_the_limits_cuts_are_warnings_of_every_deck_format(cli, tmp_path):
    note = tmp_path / "code.md"
    note.write_text(
        "---\nslides:\n  max_code_lines: 400\n---\n# Code\n\n## A\n\n```\n" + "".join(f"line {i}\n" for i in range(2000)) + "```\n"
    )
    for to in ("outline", "marp"):
        result = cli("render", str(note), "--to", to, "-o", str(tmp_path / f"out.{to}"))
        assert result.exit_code == 0
        assert f"{note}: warning: slide 'A': code block cut to its first 400 lines on slides (1,600 more;" in result.stderr


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_time_says_what_the_deck_limits_cut_as_render_does(cli, tmp_path, fmt):
    """``time`` counts the deck's slides: past the slide limit the rest of the note is not timed,
    and ``time`` says so in the line ``render`` prints."""
    from confnotes.slides.limits import MAX_SLIDES

    note = tmp_path / "sections.md"
    note.write_text("# Sections\n\n" + "".join(f"## Section {i}\n\ntext {i}\n\n" for i in range(MAX_SLIDES + 100)))
    rendered = cli("render", str(note), "--to", "outline", "-o", str(tmp_path / "out.txt"))
    timed = cli("time", str(note), "--format", fmt)
    assert rendered.exit_code == timed.exit_code == 0
    warning = f"{note}: warning: the deck stops at {MAX_SLIDES:,} slides (the limit for one deck"
    said = [line for line in timed.stderr.splitlines() if line.startswith(warning)]
    assert len(said) == 1 and said[0] in rendered.stderr.splitlines()


#: the notes of the issue, at their size: each deck format once, bounded and saying what it cut
ISSUE_NOTES = {
    "code": (
        lambda: "# Code\n\n## A\n\n```python\n" + "".join(f"x_{i} = {i} * 2  # line {i}\n" for i in range(100_000)) + "```\n",
        "code block cut to its first 2,000 lines on slides",
    ),
    "paragraph": (
        lambda: "# Para\n\n## A\n\n" + " ".join(f"word{i % 11}" + ("." if i % 12 == 11 else "") for i in range(200_000)) + "\n",
        "paragraph cut to its first 2,000 words on slides",
    ),
    "table": (
        lambda: (
            "# Table\n\n## A\n\n| "
            + " | ".join(f"c{j}" for j in range(300))
            + " |\n|"
            + "---|" * 300
            + "\n"
            + "".join("| " + " | ".join(f"r{i}c{j}" for j in range(300)) + " |\n" for i in range(2000))
        ),
        "table cut to 82 of 2,000 rows and 24 of 300 columns",
    ),
    "points": (
        lambda: "---\nslides:\n  max_items: 1\n---\n# Points\n\n## A\n\n" + "".join(f"{i + 1}. point number {i}\n" for i in range(10_000)),
        "the deck stops at 1,000 slides",
    ),
    "sections": (
        lambda: "# Sections\n\n" + "".join(f"## Section {i}\n\ntext {i}\n\n" for i in range(20_000)),
        "the deck stops at 1,000 slides",
    ),
}


@pytest.mark.parametrize("to", ["slides", "pptx"])
@pytest.mark.parametrize("name", list(ISSUE_NOTES))
def test_the_issues_huge_notes_make_bounded_decks(tmp_path, name, to, processes, stress):
    make, says = ISSUE_NOTES[name]
    note = tmp_path / f"{name}.md"
    note.write_text(make())
    result = confnotes("render", str(note), "--to", to, "-o", str(tmp_path / f"out.{to}"))
    assert result.returncode == 0, result.stderr[-2000:]
    assert says in result.stderr


# ------------------------------------------------------------------ printing: code and SVG


def test_a_long_code_block_is_cut_in_a_pdf():
    from confnotes.render.inline.code import MAX_PRINTED_CODE_LINES
    from confnotes.render.markdown import InlineRenderer

    md = InlineRenderer(printed=True, code_columns=76)
    html = str(md.blocks("```\n" + "".join(f"line {i}\n" for i in range(3 * MAX_PRINTED_CODE_LINES)) + "```\n"))
    assert html.count("\n") <= MAX_PRINTED_CODE_LINES + 5
    assert f"⋯ {2 * MAX_PRINTED_CODE_LINES:,} more lines not printed" in html
    assert md.warnings == [
        f"code block cut to its first {MAX_PRINTED_CODE_LINES} lines in the PDF ({2 * MAX_PRINTED_CODE_LINES:,} more; "
        f"the limit is {MAX_PRINTED_CODE_LINES} lines or 40,000 characters a printed block)"
    ]
    screen = InlineRenderer()
    assert "more lines not printed" not in str(screen.blocks("```\n" + "x\n" * 3 * MAX_PRINTED_CODE_LINES + "```\n"))


def test_twenty_thousand_code_lines_print_in_bounded_time(tmp_path, processes, stress):
    note = tmp_path / "code.md"
    note.write_text("# Code\n\n## A\n\n```python\n" + "".join(f"x_{i} = {i} * 2  # line {i}\n" for i in range(20_000)) + "```\n")
    result = confnotes("render", str(note), "--to", "pdf", "-o", str(tmp_path / "code.pdf"))
    assert result.returncode == 0, result.stderr[-2000:]
    assert "code block cut to its first 500 lines in the PDF (19,500 more;" in result.stderr


def _svg_note(tmp_path: Path, svg: str, copies: int = 1) -> Path:
    (tmp_path / "chart.svg").write_text(svg)
    note = tmp_path / "chart.md"
    note.write_text("# Chart\n\n" + "".join(f"![the chart, copy {k}](chart.svg)\n\n" for k in range(copies)))
    return note


SVG_BOMBS = {
    # 200,000 elements in about 6 MB (under the 8 MB image limit): a minute and 800 MB in WeasyPrint
    "many-elements": "".join(f'<circle cx="{i % 500}" cy="{i // 500}" r="1"/>' for i in range(200_000)),
    # ten uses of a group of ten uses of ...: a hundred million shapes from 2 KB
    "nested-use": "<defs><g id='a0'><rect width='1' height='1'/></g>"
    + "".join(f"<g id='a{k}'>" + f"<use href='#a{k - 1}'/>" * 10 + "</g>" for k in range(1, 9))
    + "</defs><use href='#a8'/>",
    "use-loop": "<g id='a'><use href='#a'/></g>",
}


@pytest.mark.parametrize("bomb", list(SVG_BOMBS))
def test_an_svg_too_heavy_to_draw_is_its_alt_text_in_a_pdf(tmp_path, bomb, processes):
    note = _svg_note(tmp_path, f'<svg xmlns="http://www.w3.org/2000/svg" width="500" height="400">{SVG_BOMBS[bomb]}</svg>')
    result = confnotes("render", str(note), "--to", "pdf", "-o", str(tmp_path / "chart.pdf"))
    assert result.returncode == 0, result.stderr[-2000:]
    assert "image 'chart.svg' not drawn in the PDF: its SVG would draw more than 20,000 elements" in result.stderr
    from pypdf import PdfReader

    assert "the chart, copy 0" in PdfReader(str(tmp_path / "chart.pdf")).pages[0].extract_text()


def test_the_pages_svg_budget_counts_every_copy():
    from confnotes.render.inline.pictures import MAX_PRINTED_SVG_ELEMENTS
    from confnotes.render.markdown import InlineRenderer

    svg = '<svg xmlns="http://www.w3.org/2000/svg">' + "<rect/>" * (MAX_PRINTED_SVG_ELEMENTS // 3) + "</svg>"
    import base64

    src = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
    md = InlineRenderer(printed=True)
    html = str(md.blocks("".join(f"![copy {k}]({src})\n\n" for k in range(4))))
    assert html.count("<img") == 2 and "copy 3" in html
    assert len(md.warnings) == 2 and all("not drawn in the PDF" in warning for warning in md.warnings)
    assert InlineRenderer().blocks(f"![x]({src})").count("<img") == 1  # pages on screen are not limited


# ------------------------------------------------------------------ reference PPTX


def test_a_zip_bomb_reference_pptx_is_refused_saying_why(tmp_path, cli):
    import zipfile

    bomb = tmp_path / "reference.pptx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("ppt/media/image1.png", "w") as member:
            for _ in range(32):
                member.write(bytes(1024 * 1024))
    assert bomb.stat().st_size < 200 * 1024
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## A\n\n- a\n")
    result = cli("render", str(note), "--to", "pptx", "-o", str(tmp_path / "talk.pptx"), "--reference-pptx", str(bomb))
    assert result.exit_code == 2
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith(f"{bomb}: cannot read reference PPTX: reference PPTX member 'ppt/media/image1.png' unpacks")
    assert line.endswith("× its size: refused as a zip bomb")


def test_a_reference_pptx_that_is_no_zip_says_why(tmp_path, cli):
    reference = tmp_path / "reference.pptx"
    reference.write_text("not a presentation")
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n")
    result = cli("render", str(note), "--to", "pptx", "-o", str(tmp_path / "talk.pptx"), "--reference-pptx", str(reference))
    assert result.exit_code == 2
    message = result.stderr.strip().splitlines()[-1].split("cannot read reference PPTX:", 1)[1]
    assert message.strip(), "nothing after 'cannot read reference PPTX:'"


# ------------------------------------------------------------------ rehearsal files


#: one timing of about 1 KB: 5,000 of them are past the 4 MB a timings file is read up to
HUGE_TIMING = '{"slide": 1, "seconds": 1, "section": "' + "x" * 1000 + '"}'

REHEARSALS = {
    "huge-slide": ('[{"slide": 1e30, "seconds": 3}]', "every timing needs a slide number (1 to 5,000)"),
    "float-slide": ('[{"slide": 1e8, "seconds": 3}]', "every timing needs a slide number (1 to 5,000)"),
    "past-any-deck": ('[{"slide": 100000000, "seconds": 3}]', "every timing needs a slide number (1 to 5,000)"),
    "nan": ('[{"slide": 1, "seconds": NaN}]', "NaN is not a number JSON allows"),
    "infinity": ('[{"slide": 1, "seconds": Infinity}]', "Infinity is not a number JSON allows"),
    "deep": ("[" * 100_000 + "]" * 100_000, "not a confnotes timings file"),
    "nested-entry": ('[{"slide": 1, "seconds": 3, "title": [[[["x"]]]]}]', "a timing holds nested data"),
    "digits": ('[{"slide": ' + "9" * 5000 + ', "seconds": 3}]', "it holds a number too long to read"),
    "many": ("[" + ",".join(['{"slide": 1, "seconds": 1}'] * 20_000) + "]", "at most 10,000 timings"),
    "huge-file": ("[" + ",".join([HUGE_TIMING] * 5_000) + "]", "more than the 4 MiB (4,194,304-byte) limit"),
    "occurrence-zero": ('[{"slide": 3, "seconds": 9, "section": "A", "title": "A", "occurrence": 0}]', "an occurrence counted from 1"),
    "timed-twice": (
        '[{"slide": 3, "seconds": 9, "section": "A", "title": "A", "occurrence": 1},'
        ' {"slide": 4, "seconds": 5, "section": "A", "title": "A", "occurrence": 1}]',
        "slide 'A' (A, occurrence 1) is timed twice",
    ),
    "latin-1": ('[{"slide": 1, "seconds": 3, "section": "Caf\xe9", "title": "A", "occurrence": 1}]', "it is not UTF-8 text"),
}


@pytest.mark.parametrize("row", list(REHEARSALS))
def test_a_tampered_rehearsal_file_is_one_error_line(cli, tmp_path, row):
    slides, says = REHEARSALS[row]
    timings = tmp_path / "timings.json"
    timings.write_bytes(('{"format": "confnotes.rehearsal/1", "title": "Talk", "slides": ' + slides + "}").encode("latin-1"))
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## A\n\n- one\n- two\n\n## B\n\ntext\n")
    for fmt in ("text", "json"):
        result = cli("time", str(note), "--rehearsal", str(timings), "--format", fmt)
        assert result.exit_code == 2
        line = result.stderr.strip()
        assert "\n" not in line and line.startswith(f"{timings}: ") and says in line, line


def test_a_timings_file_an_editor_saved_with_a_byte_order_mark_is_read(cli, tmp_path):
    timings = tmp_path / "timings.json"
    timings.write_bytes(b"\xef\xbb\xbf" + b'{"format": "confnotes.rehearsal/1", "slides": [{"slide": 1, "seconds": 30}]}')
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## A\n\n- one\n- two\n")
    result = cli("time", str(note), "--rehearsal", str(timings))
    assert result.exit_code == 0, result.stderr


def test_a_rehearsal_of_slides_past_the_deck_is_read(cli, tmp_path):
    """A slide number past the deck (slides removed since) is within the limits: it is reported, not an error."""
    timings = tmp_path / "timings.json"
    timings.write_text('{"format": "confnotes.rehearsal/1", "slides": [{"slide": 1, "seconds": 30}, {"slide": 250, "seconds": 3}]}')
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## A\n\n- one\n- two\n")
    result = cli("time", str(note), "--rehearsal", str(timings))
    assert result.exit_code == 0 and "The rehearsal timed 250 slides; the deck now has" in result.stdout


# ------------------------------------------------------------------ nesting: the limit the docs claim


def _lists(depth: int) -> str:
    return "# T\n\n" + "".join("  " * level + f"- item {level}\n" for level in range(depth))


def _mixed(depth: int) -> str:
    return "# T\n\n" + "".join("> " if level % 2 == 0 else "- " for level in range(depth)) + "deepest\n"


@pytest.mark.parametrize("make", [_lists, _mixed], ids=["lists", "quotes-and-lists"])
def test_nesting_is_refused_past_32_levels_and_not_before(cli, tmp_path, make):
    note = tmp_path / "deep.md"
    note.write_text(make(32))
    assert cli("outline", str(note)).exit_code == 0
    note.write_text(make(33))
    result = cli("outline", str(note))
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("nesting deeper than 32 levels; flatten the list or quote")


def test_thirty_two_levels_keep_every_word(cli, tmp_path):
    note = tmp_path / "deep.md"
    note.write_text(_lists(32))
    data = cli("outline", str(note), "--format", "json").stdout
    assert all(f"item {level}" in data for level in range(32))
