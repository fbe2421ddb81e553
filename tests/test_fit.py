"""Slides that fit: the fit engine's decks measured in Chromium, printed by WeasyPrint, and checked
for title-only slides and orphans, on a stress note and every realistic fixture."""

from __future__ import annotations

import json
import shutil
import time

import pytest

from confnotes.load import load_note
from confnotes.slides import SlideItem, build_deck
from conftest import FIXTURES, NOTES
from helpers import copied_note, rendered_deck, require_marp

STRESS = FIXTURES / "slides" / "stress.md"
#: real notes with their screenshots (stand-ins of the same sizes): a wide diagram, a graph
WITH_IMAGES = sorted((FIXTURES / "slides" / "with-images").glob("*.md"))
#: the hardest shapes of real notes: linked headings, images in a table, a giant setext heading, a tall
#: screenshot, `1. 1. 1.` lists, wide tables and URLs, fences in list items, lead-in sentences
HARD = sorted((FIXTURES / "slides" / "hard").glob("*.md"))
#: talks that direct their slides: math, footnotes, diagrams, layouts, columns (issue 27's fixtures)
DIRECTED = sorted((FIXTURES / "directed").glob("*.md"))
NOTES_ALL = [STRESS, *sorted(NOTES.glob("*.md")), *sorted((FIXTURES / "real").glob("*.md")), *WITH_IMAGES, *HARD, *DIRECTED]

#: every slide shown in turn; a slide overflows when its content is taller or wider than its box
#: (the slide clips with overflow: hidden, so nothing else would tell), or a code block's lines
#: are wider than the block.
MEASURE = """() => {
  const out = [];
  for (const slide of document.querySelectorAll("main.slides > .slide")) {
    document.querySelectorAll("main.slides > .slide").forEach(s => s.classList.toggle("current", s === slide));
    const body = slide.querySelector(".slide-body");
    const bad = [];
    const title = slide.querySelector(".slide-title");
    if (title && title.getBoundingClientRect().bottom > slide.getBoundingClientRect().bottom - 60) bad.push("title runs off the slide");
    if (body.scrollHeight > body.clientHeight + 1) bad.push(`height ${body.scrollHeight} > ${body.clientHeight}`);
    if (body.scrollWidth > body.clientWidth + 1) bad.push(`width ${body.scrollWidth} > ${body.clientWidth}`);
    const box = body.getBoundingClientRect();
    for (const el of body.querySelectorAll("pre, table, img, li, p, .math-display")) {
      if (el.closest(".layout-picture")) continue;  // an image layout's picture fills its side or the slide
      const r = el.getBoundingClientRect();
      if (r.bottom > box.bottom - 60 + 1 || r.right > box.right - 88 + 1) bad.push(`${el.tagName} out of the box`);
      if (el.tagName === "PRE" && el.scrollWidth > el.clientWidth + 1) bad.push("code wider than its block");
    }
    out.push({slide: slide.dataset.index, title: (slide.querySelector(".slide-title") || {}).textContent, bad});
  }
  return out;
}"""


def _deck(cli, note, tmp_path, to="slides"):
    from confnotes.render.formats import output_format

    out = tmp_path / (note.stem + output_format(to).suffix)
    if note.parent != tmp_path:
        note = copied_note(note, tmp_path)
    result = cli("render", str(note), "--to", to, "-o", str(out))
    assert result.exit_code == 0, result.stderr
    return out


@pytest.mark.parametrize("note", NOTES_ALL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_slide_overflows_in_chromium(cli, tmp_path, open_page, note):
    deck = _deck(cli, note, tmp_path)
    page, errors, _ = open_page(deck, viewport=(1280, 720))
    measured = page.evaluate(MEASURE)
    assert len(measured) == len(rendered_deck(note).slides), note.name
    failures = [f"slide {slide['slide']} ({slide['title']}): {', '.join(slide['bad'])}" for slide in measured if slide["bad"]]
    assert errors == []
    assert failures == []


def test_stress_note_is_split_where_it_should_be(cli):
    doc = load_note(str(STRESS)).doc
    deck = build_deck(doc)
    kinds = [slide.kind for slide in deck.slides]
    code = [s for s in deck.slides if any(getattr(e, "kind", "") == "code" for e in s.content)]
    assert len(code) >= 2 and all(s.title == "The rollout script" for s in code)
    # the lead-in stays with the first part of the code
    assert code[0].content[0].text.startswith("Here is the whole rollout script")
    tables = [s for s in deck.slides if any(getattr(e, "kind", "") == "table" for e in s.content)]
    assert len(tables) >= 2
    for slide in tables:  # every part of the table repeats its header
        table = next(e for e in slide.content if getattr(e, "kind", "") == "table")
        assert table.text.startswith("| Col 1 | Col 2 |")
    image = next(s for s in deck.slides if s.title == "The screenshot")
    assert image.image_px >= 220
    assert all(0.8 <= s.scale <= 1.0 for s in deck.slides)
    assert kinds[0] == "title" and kinds.count("title") == 1
    # no near-empty "(cont.)" slide: the last part of a cut block is not a sliver of it
    from confnotes.slides.fit import code_lines

    last_code = next(e for e in code[-1].content if getattr(e, "kind", "") == "code")
    assert len(code_lines(last_code)) >= 4
    story = [s for s in deck.slides if s.title == "The long story"]
    sizes = [len(s.content[0].text.split()) for s in story]
    assert len(story) == 2 and min(sizes) * 2 >= max(sizes), sizes


@pytest.mark.parametrize("note", NOTES_ALL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_title_only_slides_and_no_orphans(note):
    deck = build_deck(load_note(str(note)).doc)
    slides = deck.slides
    for index, slide in enumerate(slides):
        if slide.kind not in ("title", "divider"):
            assert slide.content, f"slide {index + 1} '{slide.title}' has only a title"
        if index and slides[index - 1].kind not in ("title",) and slide.kind != "divider":
            assert not (slide.title == slides[index - 1].title and not slide.continued and slides[index - 1].kind == "divider"), (
                f"slides {index} and {index + 1} are both '{slide.title}'"
            )
        if slide.continued and not slide.forced and len(slide.content) == 1 and type(slide.content[0]) is SlideItem:
            before = slides[index - 1]
            assert not (before.content and type(before.content[-1]) is SlideItem and before.title == slide.title), (
                f"slide {index + 1} '{slide.display_title}' holds one item torn from the slide before"
            )


@pytest.mark.parametrize("note", NOTES_ALL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_slides_pdf_has_a_page_per_slide_and_the_handout_three_slides_a_page(cli, tmp_path, weasyprint, note):
    """No slide spills over onto a second page, every page is 16:9, and the handout holds three slides
    on each page (a row was once paged by its slide's unscaled content, and 9 of 15 notes took extra pages)."""
    import math

    from pypdf import PdfReader

    slides = len(rendered_deck(note).slides)
    reader = PdfReader(str(_deck(cli, note, tmp_path, "slides-pdf")))
    assert len(reader.pages) == slides
    box = reader.pages[0].mediabox
    assert round(float(box.width) / float(box.height), 3) == round(16 / 9, 3)
    assert len(PdfReader(str(_deck(cli, note, tmp_path, "handout"))).pages) == math.ceil(slides / 3)


def test_the_handout_of_a_110_slide_talk_has_37_pages(cli, tmp_path, weasyprint):
    """A long talk as people write one: sections of points with sub-points, code, a table and notes."""
    import math

    from pypdf import PdfReader

    parts = ["---", "title: Running Postgres at scale, a year in", "speakers: [Ana Costa]", "duration: 45min", "---", ""]
    for quarter, weeks in enumerate((9, 9, 8, 8), start=1):
        parts += [f"## Quarter {quarter}", ""]
        for n in range(1, weeks + 1):
            parts += [f"### Week {n}: what broke", "", f"1. The page at 03:{n:02d} was a replication lag alert"]
            parts += ["   - the replica was 40 s behind", f"2. Root cause: vacuum on table_{n} held a lock", "3. Fix shipped"]
            parts += ["", "::: notes", f"Tell the story of week {n} of quarter {quarter}.", ":::", ""]
        parts += ["```sql", f"SELECT pid, state FROM pg_stat_activity WHERE wait_event = 'Lock{quarter}';", "```", ""]
    parts += ["## Questions", "", "What would you automate first?", "", "## Thanks", "", "Slides and the runbook: ask me after the talk."]
    note = tmp_path / "postgres-year.md"
    note.write_text("\n".join(parts), encoding="utf-8")
    slides = len(rendered_deck(note).slides)
    assert slides == 110
    handout = _deck(cli, note, tmp_path, "handout")
    assert len(PdfReader(str(handout)).pages) == math.ceil(slides / 3) == 37


def test_marp_cli_shows_as_many_slides_as_the_deck_for_every_fixture(marp_html, processes):
    """Every fixture's Marp file has as many sections as the deck has slides (a fence left open in a
    list item once turned the rest of a deck into code)."""
    import re

    # a slide's number once: a background picture (![bg]) makes marp-cli draw its slide in three layers
    shown = {note: len(set(re.findall(r'<section\b[^>]* id="(\d+)"', html.read_text()))) for note, html in marp_html[0].items()}
    assert shown == {note: len(rendered_deck(note).slides) for note in NOTES_ALL}


def test_fitting_a_100_slide_deck_is_quick(tmp_path):
    note = tmp_path / "big.md"
    parts = ["# Big talk\n"]
    for n in range(50):
        parts.append(f"\n## Part {n}\n\n1. A point with a long bullet list\n")
        parts += [f"   - bullet {k} of part {n} with enough words to wrap across the slide once or twice\n" for k in range(8)]
        parts.append("\n```python\n" + "\n".join(f"print({k})" for k in range(30)) + "\n```\n")
    note.write_text("".join(parts))
    doc = load_note(str(note)).doc
    started = time.perf_counter()
    deck = build_deck(doc)
    elapsed = time.perf_counter() - started
    assert len(deck.slides) >= 100
    # recorded, not asserted as a timing (make bench measures it): the deck is built and fitted
    print(json.dumps({"slides": len(deck.slides), "seconds": round(elapsed, 3)}))


def test_marp_from_another_folder_finds_its_image_and_escapes_raw_html(cli, tmp_path, processes):
    import re
    import subprocess

    folder = tmp_path / "talk"
    folder.mkdir()
    for name in ("stress.md", "board.png"):
        shutil.copy(FIXTURES / "slides" / name, folder / name)
    note = folder / "stress.md"
    note.write_text(note.read_text() + '\n## Raw\n\nA <span style="font-size: 50px">big</span> word and `<b>code</b>`.\n')
    out_dir = tmp_path / "decks"
    out_dir.mkdir()
    out = out_dir / "stress.marp.md"
    assert cli("render", str(note), "--to", "marp", "-o", str(out)).exit_code == 0
    text = out.read_text()
    links = re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", text)
    assert links and all((out_dir / src).resolve().is_file() for _, src in links)
    alt, _ = links[0]
    width, height = (int(v) for v in re.match(r"w:(\d+) h:(\d+) ", alt).groups())
    assert abs(width / height - 3000 / 2400) < 0.01 and width <= 1104
    assert '&lt;span style="font-size: 50px">big&lt;/span>' in text and "`<b>code</b>`" in text
    marp = require_marp()
    md = out.with_suffix(".md")
    out.rename(md)
    html = out_dir / "stress.html"
    proc = subprocess.run([marp, str(md), "-o", str(html)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "WARN" not in proc.stdout + proc.stderr, proc.stderr
    sources = re.findall(r'<img[^>]* src="([^"]+)"', html.read_text())
    assert sources and all((out_dir / src).resolve().is_file() for src in sources)
    assert "font-size: 50px" not in re.sub(r"&lt;span[^<]*", "", html.read_text())


@pytest.mark.parametrize("note", NOTES_ALL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_slide_lint_reports_what_the_deck_does(cli, note):
    """Every slide the deck splits or marks dense is reported, and every report is such a slide: by
    the limits (too-many-items, dense-slide) or by the fit engine (slide-overflow)."""
    result = cli("lint", "--no-cache", "--profile", "talk", "--format", "json", "--select", "CN301,CN302,CN306", str(note))
    found = json.loads(result.stdout)
    deck = rendered_deck(note)
    # (an agenda the deck writes is no slide of the author's: a long one is split, and not reported)
    by_limits = {s.line or 1 for s in deck.slides if s.kind != "agenda" and ((s.parts > 1 and not s.overflow) or s.dense)}
    by_fit = {s.line or 1 for s in deck.slides if s.overflow}
    assert {f["line"] for f in found if f["rule"] in ("CN301", "CN302")} == by_limits
    assert {f["line"] for f in found if f["rule"] == "CN306"} == by_fit


@pytest.mark.parametrize("viewport", [(1920, 1080), (1280, 720), (390, 844)], ids=lambda v: f"{v[0]}x{v[1]}")
def test_the_title_slide_is_centred_and_whole_at_every_size(cli, tmp_path, open_page, viewport):
    deck = _deck(cli, NOTES / "scale2025.md", tmp_path)
    page, errors, _ = open_page(deck, viewport=viewport)
    for number in (1, 4):
        page.goto(deck.resolve().as_uri() + f"#{number}")
        page.reload()
        box = page.locator(f"#slide-{number}").bounding_box()
        width, height = viewport
        assert box["x"] >= -1 and box["y"] >= -1 and box["x"] + box["width"] <= width + 1 and box["y"] + box["height"] <= height + 1
        assert abs(box["x"] + box["width"] / 2 - width / 2) <= 2 and abs(box["y"] + box["height"] / 2 - height / 2) <= 2
        assert box["width"] >= min(width, height * 16 / 9) - 2  # as large as the window allows
        title = page.locator(f"#slide-{number} .slide-title").bounding_box()
        assert box["x"] <= title["x"] and title["x"] + title["width"] <= box["x"] + box["width"]
        assert box["y"] <= title["y"] and title["y"] + title["height"] <= box["y"] + box["height"]
    assert errors == []


#: the seeds, the stress note and real notes with code blocks, tables and images between their points
MARP_DECKS = [
    STRESS,
    *sorted(NOTES.glob("*.md")),
    *(FIXTURES / "real" / name for name in ("table-heavy.md", "workshop-steps.md", "interleaved-session.md", "ordered-with-code.md")),
    FIXTURES / "real" / "session-k8s-scheduler.md",
    *WITH_IMAGES,
    *HARD,
]

#: Each slide measured as a viewer sees it: made the current slide (marp-cli's deck hides the others
#: with content-visibility, and Marp sizes code blocks only once they are shown), after two frames.
_MARP_MEASURE = """async () => {
  const frame = () => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  const sections = [...document.querySelectorAll('svg > foreignObject > section')];
  const sizes = [];
  for (let n = 1; n <= sections.length; n++) {
    location.hash = '#' + n;
    await frame();
    await frame();
    const section = sections[n - 1];
    // a table Marp lets scroll inside itself hides columns: its overflow counts as the slide's
    const inner = Math.max(0, ...[...section.querySelectorAll('table, pre')].map(el => el.scrollWidth - el.clientWidth));
    sizes.push([section.scrollHeight - section.clientHeight, Math.max(section.scrollWidth - section.clientWidth, inner)]);
  }
  return sizes;
}"""


@pytest.fixture(scope="module")
def marp_html(tmp_path_factory):
    """Every fixture's deck as marp-cli's HTML, from one marp-cli run over a folder of them (a run a
    deck started Node and marp-cli's bundle again for each), with what marp-cli printed."""
    import subprocess

    from click.testing import CliRunner

    from confnotes.cli import main

    marp = require_marp()
    decks = tmp_path_factory.mktemp("marp-decks")  # written elsewhere: images are linked back to the note's folder
    names = {}
    for note in NOTES_ALL:
        names[note] = name = f"{note.parent.name}-{note.stem}"
        result = CliRunner().invoke(main, ["render", str(note), "--to", "marp", "-o", str(decks / f"{name}.md")])
        assert result.exit_code == 0, result.stderr
    out = tmp_path_factory.mktemp("marp-html")
    proc = subprocess.run(
        [marp, "--input-dir", str(decks), "-o", str(out), "--allow-local-files"], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr
    return {note: out / f"{name}.html" for note, name in names.items()}, proc.stdout + proc.stderr


def test_marp_cli_renders_every_deck_without_a_warning(marp_html, processes):
    _html, printed = marp_html
    assert "WARN" not in printed, printed


@pytest.mark.parametrize("note", MARP_DECKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_marp_slides_fit_as_marp_cli_renders_them(marp_html, browser, note, processes):
    """Each Marp slide carries the fit engine's sizes for it (a scoped style), so marp-cli's slides do
    not overflow either (tables of 12 columns ran 38 % past the slide at Marp's own sizes)."""
    html = marp_html[0][note]
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto(html.as_uri())
        sizes = page.evaluate(_MARP_MEASURE)
    finally:
        page.close()
    assert sizes and len(sizes) == len(rendered_deck(note).slides)
    overflowing = [number for number, (down, across) in enumerate(sizes, start=1) if down > 1 or across > 1]
    assert overflowing == [], f"slides past the edge in marp-cli's HTML: {overflowing}"


RETRY_LOOP = """---
title: Go services at scale
---

## The retry loop we ship

Every client wraps its calls in this:

```go
func (c *Client) Do(ctx context.Context, req *Request) (*Response, error) {
\tvar lastErr error
\tfor attempt := 0; attempt < c.maxAttempts; attempt++ {
\t\tif attempt > 0 {
\t\t\tdelay := c.backoff(attempt)
\t\t\tselect {
\t\t\tcase <-ctx.Done():
\t\t\t\treturn nil, ctx.Err()
\t\t\tcase <-time.After(delay):
\t\t\t}
\t\t}
\t\tresp, err := c.send(ctx, req)
\t\tif err == nil && resp.StatusCode < 500 {
\t\t\treturn resp, nil
\t\t}
\t\tif err != nil {
\t\t\tlastErr = err
\t\t} else {
\t\t\tlastErr = fmt.Errorf("server error: %d", resp.StatusCode)
\t\t\tresp.Body.Close()
\t\t}
\t\tc.metrics.Retries.Inc()
\t\tif !c.retryable(err, resp) {
\t\t\tbreak
\t\t}
\t}
\treturn nil, fmt.Errorf("after %d attempts: %w", c.maxAttempts, lastErr)
}
```

- Budgets cap the retries per caller
"""


def _code_parts(doc):
    from confnotes.slides.fit import code_lines

    return [code_lines(entry) for slide in build_deck(doc).slides for entry in slide.content if getattr(entry, "kind", "") == "code"]


@pytest.mark.parametrize("source", ["retry-loop", *NOTES_ALL], ids=lambda p: p if isinstance(p, str) else f"{p.parent.name}/{p.name}")
def test_a_split_code_block_never_starts_a_slide_with_a_closing_bracket(source):
    """Each part of a code block the fit engine cuts starts where a reader would turn the page: not on
    a lone ``}`` (the retry loop's "(cont.)" slide began with ``} else {``)."""
    from confnotes.api import parse_text

    doc = parse_text(RETRY_LOOP) if source == "retry-loop" else load_note(str(source)).doc
    parts = _code_parts(doc)
    assert source != "retry-loop" or len(parts) == 2
    for lines in parts:
        first = next((line for line in lines if line.strip()), "")
        assert not first.lstrip().startswith(("}", ")", "]")), lines[:3]
