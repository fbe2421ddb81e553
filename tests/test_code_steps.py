"""Code walked through step by step (``{2|4-5|all}`` on a fence, as reveal.js and Slidev write it):
the HTML deck highlights the first step's lines as the slide arrives and each next step on the next
key, in the audience's window and the presenter's; a deck printed whole shows the last step."""

from __future__ import annotations

import json
import re

import pytest

from confnotes.markup.codesteps import code_steps

TALK = """---
title: Retries done right
duration: 10min
---

# Retries done right

## The retry loop

```python {2|4-5|all}
def fetch(url):
    session = make_session()
    for attempt in range(5):
        response = session.get(url, timeout=2)
        if response.ok:
            return response
    raise TimeoutError(url)
```

<!-- notes: Walk through the loop: the session, the call, then the whole. -->

## Takeaways

- back off, with jitter
"""


@pytest.mark.parametrize(
    ("info", "lines", "steps"),
    [
        ("python {2|4-5}", 7, ({2}, {4, 5})),
        ("python {all|2}", 7, (None, {2})),
        ("js {1,3-4|6}", 7, ({1, 3, 4}, {6})),
        ("python {2|40-50}", 7, ({2}, set())),  # lines past the end are left out
        ("python {2}", 7, ()),  # one group: no walk-through
        ("python {.numberLines}", 7, ()),
        ("python", 7, ()),
    ],
)
def test_the_steps_a_fence_names(info, lines, steps):
    assert code_steps(info, lines) == tuple(None if step is None else frozenset(step) for step in steps)


def _deck(cli, tmp_path, to="slides"):
    note = tmp_path / "retries.md"
    note.write_text(TALK, encoding="utf-8")
    out = tmp_path / ("retries.slides.html" if to == "slides" else "retries.slides.pdf")
    result = cli("render", str(note), "--to", to, "-o", str(out))
    assert result.exit_code == 0, result.output
    return out


def _lines(page, state: str) -> list[int]:
    return page.locator(f"section.slide:has(pre.code-steps) .line.{state}").evaluate_all("all => all.map(l => Number(l.dataset.line))")


def _code_slide(page) -> int:
    return int(page.locator("section.slide:has(pre.code-steps)").get_attribute("data-index"))


def test_the_deck_highlights_each_step_in_turn(cli, tmp_path, open_page):
    deck = _deck(cli, tmp_path)
    page, errors, _ = open_page(deck)
    number = _code_slide(page)
    page.keyboard.press("End")
    page.keyboard.press("Home")
    for _ in range(number - 1):
        page.keyboard.press("ArrowRight")
    assert page.locator("body").get_attribute("data-slide") == str(number)
    assert _lines(page, "hl") == [2] and _lines(page, "dim") == [1, 3, 4, 5, 6, 7]  # the first step as it arrives
    page.keyboard.press("ArrowRight")
    assert _lines(page, "hl") == [4, 5] and page.locator("body").get_attribute("data-slide") == str(number)
    page.keyboard.press("ArrowRight")
    assert _lines(page, "hl") == [] and _lines(page, "dim") == []  # all: the whole block, plain
    page.keyboard.press("ArrowLeft")
    assert _lines(page, "hl") == [4, 5]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # past the last step: the next slide
    assert page.locator("body").get_attribute("data-slide") == str(number + 1)
    # the code is one line per line of the fence: a copied command stays whole
    assert page.locator("section.slide:has(pre.code-steps) .line").count() == 7 and errors == []


def test_the_presenter_names_the_next_step_s_lines(cli, tmp_path, browser):
    deck = _deck(cli, tmp_path)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        html = deck.read_text(encoding="utf-8")
        number = html[: html.index('<pre class="code highlight code-steps"')].count('<section class="slide')  # the code's slide
        page.goto(deck.resolve().as_uri() + f"#presenter:{number}")
        page.wait_for_selector(".presenter-view")
        assert "Next item (1 of 2): lines 4\u20135" in page.locator(".pv-next-notes").inner_text()
        page.keyboard.press("ArrowRight")
        assert "Next item (2 of 2): all lines" in page.locator(".pv-next-notes").inner_text()
    finally:
        context.close()


def test_a_printed_deck_shows_the_last_step(cli, tmp_path, weasyprint):
    """The slides PDF lays the deck out once (no key moves it on): the walk-through's last step."""
    from confnotes.load import load_note
    from confnotes.render.formats import render_note
    from confnotes.render.options import resolve_render_options

    note = tmp_path / "retries.md"
    note.write_text(TALK.replace("{2|4-5|all}", "{2|4-5}"), encoding="utf-8")
    loaded = load_note(str(note))
    from confnotes.render.deck import deck_pdf

    job = deck_pdf("deck.html", loaded.doc, resolve_render_options(loaded.config, loaded.doc), tmp_path, mode="pdf")
    assert 'class="line hl" data-line="4"' in job.html and 'class="line" data-line="2"' in job.html
    assert 'class="fragment code-step"' not in job.html  # nothing to step through on paper
    data, _ = render_note(loaded.doc, "slides-pdf", resolve_render_options(loaded.config, loaded.doc), tmp_path)
    assert data.startswith(b"%PDF")


TWO_BLOCKS = """---
title: Two walk-throughs
---

# Two walk-throughs

## Client and server

```python {2|4}
def client():
    connect()
    send()
    close()
```

```python {1|3}
def server():
    accept()
    reply()
```

## A list, then code
<!-- slide incremental -->

- first, the idea
- then, the code

```python {1|2}
x = 1
y = 2
```
"""


def test_a_second_block_and_a_block_after_a_list_wait_their_turn(cli, tmp_path, browser):
    note = tmp_path / "two.md"
    note.write_text(TWO_BLOCKS, encoding="utf-8")
    deck = tmp_path / "two.slides.html"
    assert cli("render", str(note), "--to", "slides", "-o", str(deck)).exit_code == 0
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        html = deck.read_text(encoding="utf-8")
        number = html[: html.index('<pre class="code highlight code-steps"')].count('<section class="slide')
        page.goto(deck.resolve().as_uri() + f"#presenter:{number}")
        page.wait_for_selector(".presenter-view")
        blocks = page.locator(f"main.slides #slide-{number} pre.code-steps")

        def marked(block: int) -> list[int]:
            return blocks.nth(block).locator(".line.hl").evaluate_all("all => all.map(l => Number(l.dataset.line))")

        assert marked(0) == [2] and marked(1) == [] and blocks.nth(1).locator(".line.dim").count() == 0  # plain until its turn
        assert "Next item (1 of 3): code block 1, line 4" in page.locator(".pv-next-notes").inner_text()
        page.keyboard.press("ArrowRight")
        assert marked(0) == [4] and marked(1) == []
        assert "code block 2, line 1" in page.locator(".pv-next-notes").inner_text()
        page.keyboard.press("ArrowRight")
        assert marked(1) == [1]
        page.keyboard.press("ArrowRight")
        assert marked(1) == [3]
        # a list first: the code is plain until the list's items are out
        page.keyboard.press("ArrowRight")
        code = page.locator(f"main.slides #slide-{number + 1} pre.code-steps")
        assert code.locator(".line.hl").count() == 0
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        assert code.locator(".line.hl").evaluate_all("all => all.map(l => Number(l.dataset.line))") == [1]
    finally:
        context.close()


def test_a_split_block_keeps_on_each_slide_the_steps_of_its_lines(cli, tmp_path):
    """A long block the deck splits: each piece walks through the steps whose lines it shows, and
    a step of lines on another piece is not announced here."""
    body = "\n".join(f"line_{n} = {n}" for n in range(1, 61))
    note = tmp_path / "long.md"
    note.write_text(f"# Long\n\n## A long example\n\n```python {{3|10-12|55|all}}\n{body}\n```\n", encoding="utf-8")
    deck = tmp_path / "long.slides.html"
    assert cli("render", str(note), "--to", "slides", "-o", str(deck)).exit_code == 0
    html = deck.read_text(encoding="utf-8")
    pieces = re.findall(r'<pre class="code highlight(?: code-steps)?"[^>]*?(?: data-code-steps="([^"]*)")?><code>(.*?)</code>', html, re.S)
    assert len(pieces) >= 2, "the test needs a block the deck splits"
    for steps, code in pieces:
        numbers = [int(n) for n in re.findall(r'data-line="(\d+)"', code)]
        if not steps:
            continue
        for group in json.loads(steps.replace("&#34;", '"')):
            assert group is None or set(group) <= set(numbers)  # every step's lines are on this piece
    assert "lines 10\u201312" in html and 'data-label="lines "' not in html


def test_a_printed_walk_through_passes_the_pdf_ua_checker(cli, tmp_path, weasyprint):
    from pdfua import Severity, validate

    pdf = _deck(cli, tmp_path, "slides-pdf")
    errors = [f for f in validate(str(pdf)).findings if f.severity == Severity.ERROR]
    assert errors == [], [(f.rule_id, f.message) for f in errors][:3]


def test_pptx_gives_each_step_a_slide_its_lines_in_bold(cli, tmp_path):
    """PPTX has no fragments: a slide a step, the step's lines in bold, each later step named as a
    step of the slide, with the slide's number and notes (it showed only the last step)."""
    from pptx import Presentation

    note = tmp_path / "retries.md"
    note.write_text(TALK.replace("{2|4-5|all}", "{2|4-5}"), encoding="utf-8")
    out = tmp_path / "retries.pptx"
    assert cli("render", str(note), "--to", "pptx", "-o", str(out)).exit_code == 0
    slides = [
        slide
        for slide in Presentation(str(out)).slides
        if any("def fetch(url):" in s.text_frame.text for s in slide.shapes if s.has_text_frame)
    ]
    assert [slide.name for slide in slides] == ["", "The retry loop (step 2)"]
    bold = []
    for slide in slides:
        (frame,) = [s.text_frame for s in slide.shapes if s.has_text_frame and "def fetch(url):" in s.text_frame.text]
        runs = [[run for run in paragraph.runs if run.text.strip()] for paragraph in frame.paragraphs]
        bold.append([n for n, line in enumerate(runs, 1) if any(run.font.bold for run in line)])
        footer = [s.text_frame.text for s in slide.shapes if s.has_text_frame and re.fullmatch(r"\d+ / \d+", s.text_frame.text)]
        assert footer == ["3 / 4"]  # title, agenda, this slide, takeaways: a step is no slide of its own
        assert "Walk through the loop" in slide.notes_slide.notes_text_frame.text
    assert bold == [[2], [4, 5]]


def test_the_slides_pdf_gives_each_step_a_page_with_steps(cli, tmp_path, weasyprint):
    """``--steps``: a page a step, the step's lines marked, each later page an overlay of its slide in
    the ``.pdfpc`` file; without it, one page with the last step."""
    from pypdf import PdfReader

    note = tmp_path / "retries.md"
    note.write_text(TALK, encoding="utf-8")
    whole, stepped = tmp_path / "whole.slides.pdf", tmp_path / "stepped.slides.pdf"
    assert cli("render", str(note), "--to", "slides-pdf", "-o", str(whole)).exit_code == 0
    result = cli("render", str(note), "--to", "slides-pdf", "--steps", "--notes", "-o", str(stepped))
    assert result.exit_code == 0, result.stderr
    assert len(PdfReader(str(stepped)).pages) == len(PdfReader(str(whole)).pages) + 2  # three steps: two pages more
    pages = json.loads(stepped.with_suffix(".pdfpc").read_text(encoding="utf-8"))["pages"]
    assert [(page["label"], page["overlay"]) for page in pages] == [("1", 0), ("2", 0), ("3", 0), ("3", 1), ("3", 2), ("4", 0)]


def test_marp_gives_each_step_a_slide_with_a_band_behind_its_lines(cli, tmp_path, browser, processes):
    """Marp has no fragments and its code no line elements: a slide a step (its page number held),
    a band behind the step's lines, drawn where marp-cli sets those lines."""
    import subprocess

    from helpers import marp_deck, require_marp

    note = tmp_path / "retries.md"
    note.write_text(TALK, encoding="utf-8")
    out = tmp_path / "retries.marp.md"
    assert cli("render", str(note), "--to", "marp", "-o", str(out)).exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert text.count("def fetch(url):") == 3 and text.count("<!-- _paginate: hold -->") == 2
    assert [title for title, _ in marp_deck(text.encode())].count("The retry loop") == 1  # one slide, three steps
    html = tmp_path / "retries.html"
    proc = subprocess.run([require_marp(), str(out), "-o", str(html)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        bands = []
        for number in (3, 4, 5):  # title, agenda, then the loop's three steps
            page.goto(html.resolve().as_uri() + f"#{number}")
            code = page.locator("section").nth(number - 1).locator("code").first
            code.wait_for(state="visible")
            line = float(code.evaluate("code => parseFloat(getComputedStyle(code).lineHeight)"))
            shot = tmp_path / f"code-{number}.png"
            code.screenshot(path=str(shot))
            bands.append(_banded_lines(shot, line))
        assert bands == [[2], [4, 5], []]  # the "all" step: every line, no band
        assert page.evaluate("() => document.querySelectorAll('section')[4].getAttribute('data-marpit-pagination')") == "3"
    finally:
        page.close()


def _banded_lines(shot, line: float) -> list[int]:
    """The lines (1-based) of a code block's picture with the step band behind them: the band's
    amber at the block's left edge, in the middle of the line (where no letter stands at x=1)."""
    from PIL import Image

    with Image.open(shot) as picture:
        rgb = picture.convert("RGB")
        found = []
        for row in range(1, round(rgb.height / line) + 1):
            r, g, b = rgb.getpixel((1, int((row - 0.5) * line)))
            if r > 230 and 200 < g < 240 and b < 190:  # amber over the code's light ground
                found.append(row)
        return found


def test_the_slide_outline_counts_a_walk_throughs_steps(cli, tmp_path):
    note = tmp_path / "retries.md"
    note.write_text(TALK, encoding="utf-8")
    result = cli("render", str(note), "--to", "outline", "-o", "-")
    assert result.exit_code == 0
    (line,) = [line for line in result.stdout.splitlines() if "The retry loop" in line and "[text]" in line]
    assert line.endswith("3 steps")


def test_lint_names_code_steps_that_cannot_be_read_or_name_no_line(cli, tmp_path):
    """A typo in the steps turned the walk-through off in every deck, and nothing said so."""
    note = tmp_path / "steps.md"
    fence = "```python {steps}\nretry(call)\nbackoff(attempt)\n```\n"
    body = "".join(
        f"## Part {n}\n\n" + fence.replace("{steps}", steps) + "\n" for n, steps in enumerate(("{x|0}", "{1|9}", "{1|2}", "{all|1}"), 1)
    )
    note.write_text("---\nkind: talk\n---\n\n# Retries\n\n" + body, encoding="utf-8")
    result = cli("lint", str(note), "--select", "CN114")
    assert result.exit_code == 1
    lines = [line.split(": ", 1)[1] for line in result.stdout.splitlines() if "CN114" in line]
    assert lines == [
        "CN114 slide-directive code steps {x|0} cannot be read (write lines, ranges such as 4-5, or all, between |); no step is shown",
        "CN114 slide-directive code step 2 ({9}) names no line of the block (2 lines); it highlights nothing",
    ]


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        # the code first: the deck shows its first step on arriving, then the list, then its next step
        ("code-list", [(0, 1), (1, 1), (2, 1), (None, 2)]),
        # the list first: the code stays plain until the list is shown, then walks through
        ("list-code", [(0, 0), (1, 0), (2, 0), (None, 1), (None, 2)]),
    ],
)
def test_a_page_a_step_follows_the_decks_order_of_list_and_code(tmp_path, order, expected):
    """The slides PDF's ``--steps`` pages in the order the HTML deck reveals them: it showed the code
    plain while the list's steps came, and a page twice."""
    from confnotes.slides import SlideItem
    from confnotes.slides.build import stepped
    from helpers import rendered_deck

    code, items = "```python {1|2}\nretry(call)\nbackoff(attempt)\n```\n\n", "- Canary first\n- Then half\n\n"
    body = code + items if order == "code-list" else items + code
    note = tmp_path / "steps.md"
    note.write_text(f"---\nkind: talk\n---\n\n# Retries\n\n## The loop\n<!-- slide incremental -->\n\n{body}", encoding="utf-8")
    deck = rendered_deck(note)
    (slide,) = [slide for slide in deck.slides if slide.title == "The loop"]
    steps = sorted({entry.step for entry in slide.content if type(entry) is SlideItem and entry.step})
    pages = [page for page in stepped(deck).slides if page.title == "The loop"]
    shown = [
        (
            None if page.upto is None else steps.index(page.upto) + 1 if page.upto in steps else 0,
            next(e.shown_step for e in page.content if getattr(e, "walked", False)),
        )
        for page in pages
    ]
    assert shown == expected
    assert [page.step_of for page in pages] == list(range(len(expected)))
