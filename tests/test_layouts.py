"""Slides the author lays out: ``:::: columns``, ``<!-- slide layout: … -->``, incremental lists and
presenter-only notes, in the outline, ``fmt``, every deck format, and as pictures.

The fixtures in ``fixtures/directed`` are written the way pandoc, Marp and Slidev users write
talks: columns with code beside bullets, a full-image opening, a whiteboard photo beside its
points, a timeline revealed line by line (``> - ``), a big number and a quote."""

from __future__ import annotations

import io
import re
import subprocess

import pytest

from conftest import FIXTURES
from helpers import assert_words_in_order, check_golden, copied_note, model_words, rendered, rendered_deck, require_marp, source_words

DIRECTED = FIXTURES / "directed"
COLUMNS = DIRECTED / "golden-path-columns.md"
STAGE = DIRECTED / "keynote-stage.md"
STEPS = DIRECTED / "incident-review-steps.md"
RUST = DIRECTED / "rust-async-columns.md"
PRICING = DIRECTED / "pricing-model-math.md"
LAID_OUT = [COLUMNS, STAGE, STEPS, RUST, PRICING]


def _copy(note, tmp_path):
    """The note and the pictures beside it, in ``tmp_path`` (renders resolve images there)."""
    return copied_note(note, tmp_path)


def _page_picture(pdf, number, dpi):
    """Page ``number`` of ``pdf`` as pdftoppm draws it at ``dpi``, in grey levels (PIL)."""
    from PIL import Image

    drawn = subprocess.run(
        ["pdftoppm", "-r", f"{dpi:.3f}", "-f", str(number), "-l", str(number), "-png", str(pdf)], capture_output=True, check=True
    )
    return Image.open(io.BytesIO(drawn.stdout)).convert("L")


def _region(picture, box):
    """The part of ``picture`` in ``box``, given as fractions of its width and height."""
    width, height = picture.size
    return picture.crop((int(box[0] * width), int(box[1] * height), int(box[2] * width), int(box[3] * height)))


def _slide(deck, title):
    return next(slide for slide in deck.slides if slide.title == title)


# ------------------------------------------------------------------ the outline and fmt


@pytest.mark.parametrize("note", LAID_OUT, ids=lambda path: path.name)
def test_fmt_keeps_every_fence_and_directive_byte_for_byte(cli, tmp_path, note):
    copy = _copy(note, tmp_path)
    assert cli("fmt", str(copy)).exit_code == 0
    assert copy.read_bytes() == note.read_bytes()


def test_each_fence_is_a_div_block_where_it_stands():
    from confnotes.load import load_note
    from confnotes.model import Block, walk_content

    doc = load_note(str(COLUMNS)).doc
    blocks = [entry for entry in walk_content(doc.content) if type(entry) is Block]
    fences = [(entry.info, entry.text, entry.span.start) for entry in blocks if entry.kind == "div"]
    assert fences[:6] == [
        ("columns", ":::: columns", 13),
        ("column", '::: {.column width="45%"}', 14),
        ("end", ":::", 20),
        ("column", '::: {.column width="55%"}', 21),
        ("end", ":::", 31),
        ("end", "::::", 32),
    ]
    before = next(section for section in doc.sections if section.title == "Before and after")
    assert not before.sections  # "**Before**" over a list, inside a column, stays in the column


def test_words_keep_their_order_in_the_outline_and_the_deck():
    from confnotes.load import load_note

    text = COLUMNS.read_text(encoding="utf-8")
    deck = rendered_deck(COLUMNS)
    slides = [slide for slide in deck.slides if slide.kind != "agenda"]
    shown = " ".join(entry.full if hasattr(entry, "full") else entry.text for slide in slides for entry in slide.content)
    words = re.findall(r"[A-Za-z]{4,}", shown)
    at = [text.find(word) for word in dict.fromkeys(words)]
    assert all(position >= 0 for position in at)
    doc = load_note(str(COLUMNS)).doc
    assert doc.meta.title == "The Golden Path, One Year In"
    assert_words_in_order(source_words(text), model_words(doc), "the outline")  # fences and columns where written


def test_a_fence_that_pairs_with_nothing_is_text_and_a_finding(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## Side by side\n\n:::: columns\n::: column\n- left\n:::\n\n## Next\n\n- a point\n", encoding="utf-8")
    deck = rendered_deck(note)
    side = _slide(deck, "Side by side")
    assert side.grid is None and [getattr(entry, "text", "") for entry in side.content] == [":::: columns", "::: column", "left", ":::"]
    result = cli("lint", "--no-cache", "--select", "CN114", str(note))
    assert "5:1: CN114 slide-directive ':::: columns' is never closed by ':::' in its section" in result.stdout


def test_fences_pair_as_pandoc_reads_them(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text(
        "# Talk\n\n## Open\n\n::: incremental\n- one\n\n## Points\n\n**1. Why Rust?**\n\n- memory safety\n\n"
        "## Nested\n\n:::: columns\n::: column\n:::: columns\n::: column\n- inner\n:::\n::::\n:::\n::::\n\n"
        "## Tip\n\n:::tip\nUse `--steps` for handouts.\n:::\n\n## Inside\n\n::: incremental\n::: column\n- x\n:::\n- y\n:::\n",
        encoding="utf-8",
    )
    from confnotes.load import load_note
    from confnotes.model import Block, walk_content

    doc = load_note(str(note)).doc
    points = next(section for section in doc.sections if section.title == "Points")
    assert [point.title for point in points.points] == ["Why Rust?"]  # an unclosed div above ends at its section
    fences = {}
    for section in doc.sections:
        fences[section.title] = [entry.info for entry in walk_content(section.content) if type(entry) is Block and entry.kind == "div"]
    # columns in a column: the inner ones are text (no deck nests columns), the outer ones pair
    assert fences["Nested"] == ["columns", "column", "", "", "", "", "end", "end"]
    assert fences["Tip"] == ["tip", "end"]  # any other div pairs too (pandoc's ::: tip)
    assert fences["Inside"] == ["incremental", "", "", "end"]  # a column outside columns is text; the list still steps
    inside = _slide(rendered_deck(note), "Inside")
    assert [item.step for item in inside.items] == [1, 2]
    rendered(cli, note, "html", tmp_path / "talk.html")
    assert '<div class="tip">' in (tmp_path / "talk.html").read_text(encoding="utf-8")


def test_a_quote_with_an_attribution_is_a_quote_and_steps_count_per_part(tmp_path):
    note = tmp_path / "talk.md"
    items = "\n".join(f"- step {n}" for n in range(1, 10))
    quote = "> - make it work\n> - make it right\n>\n> Kent Beck\n"
    note.write_text(f"# Talk\n\n## Said\n\n{quote}\n## Many\n\n::: incremental\n{items}\n:::\n", encoding="utf-8")
    deck = rendered_deck(note)
    said = _slide(deck, "Said")
    assert [entry.kind for entry in said.content] == ["quote"] and not said.steps
    many = [slide for slide in deck.slides if slide.title == "Many"]
    assert len(many) == 2 and [slide.steps for slide in many] == [5, 4]  # the limits split it: each part counts its own


# ------------------------------------------------------------------ the deck model


def test_columns_give_the_slide_a_grid_with_the_authors_widths():
    deck = rendered_deck(COLUMNS)
    started = _slide(deck, "Where we started")
    assert started.grid is not None and started.grid.widths == (0.45, 0.55)
    assert [entry.kind for entry in started.content[started.grid.stops[0] :]] == ["code"]  # the pipeline, beside the bullets
    template = _slide(deck, "What a template gives you")  # layout: two-column, no fences: shared out evenly
    assert template.grid is not None and template.grid.stops == (3, 6)


def test_incremental_lists_number_their_steps_however_they_are_written():
    deck = rendered_deck(STEPS)
    timeline = _slide(deck, "Timeline")  # > - item, as pandoc reads it
    assert [item.step for item in timeline.items] == [1, 2, 3, 4, 5]
    well = _slide(deck, "What went well")  # <!-- slide incremental -->: a sub-item shows with its item
    assert [(item.level, item.step) for item in well.items] == [(0, 1), (1, 1), (0, 2), (0, 3)]
    rollout = _slide(rendered_deck(COLUMNS), "The rollout, step by step")  # ::: incremental over a section's points
    assert [item.step for item in rollout.items] == [1, 2, 3, 4] and not rollout.continued


def test_layouts_are_read_and_fitted_in_their_boxes():
    deck = rendered_deck(STAGE)
    layouts = {slide.title: slide.layout for slide in deck.slides if slide.layout}
    assert layouts == {
        "Ten Years of On-Call": "full-image",
        "It started with a pager": "full-image",
        "What we measured": "big-number",
        "The architecture we drew on a whiteboard": "image-left",
        "What the dashboard showed": "image-right",
        "What I believe now": "quote",
        "Part two: the next ten years": "section",
        "Thank you": "title",
    }
    assert deck.cut == ()
    assert _slide(deck, "What we measured").big.text == "73%"


def test_a_layout_without_what_it_needs_or_too_full_warns_and_falls_back(cli, tmp_path):
    """Each warning names the slide's line, as lint's findings do, and lint (CN114) finds the
    layout a slide cannot use before any deck is made."""
    note = tmp_path / "talk.md"
    items = "\n".join(f"- point {n} with a few more words to read on the slide" for n in range(14))
    photo = "## Photo\n\n<!-- slide layout: image-left -->\n\n- no photo here\n\n"
    note.write_text(f"# Talk\n\n{photo}## Crowded\n\n<!-- slide layout: two-column -->\n\n{items}\n", encoding="utf-8")
    deck = rendered_deck(note)
    assert "3:1: slide 'Photo': layout image-left needs an image on the slide; laid out as a plain slide" in deck.cut
    assert "9:1: slide 'Crowded': too much for its layout two-column at the smallest text; laid out one block under another" in deck.cut
    crowded = [slide for slide in deck.slides if slide.title == "Crowded"]
    assert len(crowded) == 2 and all(not slide.layout and slide.grid is None for slide in crowded)
    result = cli("render", str(note), "--to", "slides", "-o", str(tmp_path / "deck.html"))
    assert f"{note}:3:1: warning: slide 'Photo': layout image-left needs an image on the slide" in result.stderr
    result = cli("lint", "--no-cache", "--select", "CN114", str(note))
    assert f"{note}:3:1: CN114 slide-directive slide 'Photo': layout image-left needs an image on the slide" in result.stdout
    assert "Crowded" not in result.stdout  # too full is the fit engine's to say (render, the talk profile's CN306)


def test_presenter_notes_stay_out_of_every_file_handed_out(cli, tmp_path, weasyprint):
    from pptx import Presentation

    copy = _copy(STEPS, tmp_path)
    secret = "the database team is in the room"
    rendered(cli, copy, "pptx", tmp_path / "deck.pptx")
    notes = [slide.notes_slide.notes_text_frame.text for slide in Presentation(str(tmp_path / "deck.pptx")).slides if slide.has_notes_slide]
    assert notes and not any(secret in text for text in notes)
    assert any("Read the timeline slowly" in text for text in notes)  # other slides keep theirs
    for to, out in (("handout", "h.pdf"), ("marp", "m.md"), ("outline", "o.txt")):
        rendered(cli, copy, to, tmp_path / out)
    from pypdf import PdfReader

    assert secret not in " ".join(page.extract_text() for page in PdfReader(str(tmp_path / "h.pdf")).pages).replace("\n", " ")
    assert secret not in (tmp_path / "m.md").read_text(encoding="utf-8") and secret not in (tmp_path / "o.txt").read_text(encoding="utf-8")
    rendered(cli, copy, "slides", tmp_path / "deck.html")
    assert secret in (tmp_path / "deck.html").read_text(encoding="utf-8")  # the presenter view's own


def test_a_directive_under_a_slides_points_directs_that_slide(tmp_path):
    """``<!-- slide notes: presenter -->`` written after a slide's points (where an author decides
    it) directs that slide: no empty "(cont.)" slide opens after it, and its notes stay the
    presenter's. A directive with points after it still starts a new slide."""
    note = tmp_path / "talk.md"
    note.write_text(
        "# Retro: the March outage\n\n## What we tell the team\n\n- The page fired at 02:10\n- Rollback took 40 minutes\n\n"
        "<!-- slide notes: presenter -->\n\n<!-- notes: The vendor's name stays out of the handout. -->\n\n"
        "## What changes\n\n- Canary first\n\n<!-- slide class: lead -->\n\n- Then the fleet\n\n<!-- slide -->\n",
        encoding="utf-8",
    )
    deck = rendered_deck(note)
    titles = [slide.display_title for slide in deck.slides]
    assert titles == ["Retro: the March outage", "Agenda", "What we tell the team", "What changes", "What changes (cont.)"]
    told = _slide(deck, "What we tell the team")
    assert told.private_notes and not told.shared_notes and "vendor" in " ".join(told.notes)
    changes = [slide for slide in deck.slides if slide.title == "What changes"]
    assert changes[0].classes == () and changes[1].classes == ("lead",)


def test_text_and_notes_after_a_break_among_numbered_points_reach_the_deck(tmp_path):
    """Among numbered points (a slide each), a break's text before the next point is a slide of
    its own, in its place, and a note after the break goes with it; a directive after the last
    point directs that point's slide and keeps the note under it. Nothing is dropped."""
    note = tmp_path / "talk.md"
    note.write_text(
        "# Postmortem habits\n\n## Three lessons\n\n1. Page less\n   - only what a human must do\n\n<!-- slide -->\n\n"
        "A paragraph after the break.\n\n<!-- notes: a note after the break -->\n\n2. Page better\n   - every page links its runbook\n\n"
        "<!-- slide notes: presenter; class: lead -->\n\n<!-- notes: the vendor stays out of this -->\n",
        encoding="utf-8",
    )
    deck = rendered_deck(note)
    shown = [(slide.display_title, [entry.text for entry in slide.content], list(slide.notes)) for slide in deck.slides[2:]]
    assert shown == [
        ("Three lessons", [], []),  # the divider
        ("Page less", ["only what a human must do"], []),
        ("Three lessons (cont.)", ["A paragraph after the break."], ["a note after the break"]),
        ("Page better", ["every page links its runbook"], ["the vendor stays out of this"]),
    ], shown
    last = deck.slides[-1]
    assert last.private_notes and last.classes == ("lead",) and not last.shared_notes


def test_a_second_columns_set_gets_a_slide_of_its_own(tmp_path):
    """Two ``:::: columns`` sets under one heading (before/after steps, then before/after cost): each
    is laid out side by side on its own slide, the text between them and each note in place."""
    note = tmp_path / "talk.md"
    sets = (
        ":::: columns\n::: column\n- Before: 11 steps\n:::\n::: column\n- After: 2 steps\n:::\n::::\n\n"
        "And the bill came down with it.\n\n<!-- notes: say the bill before the cost -->\n\n"
        ':::: columns\n::: {.column width="40%"}\n- Old cost: $4k a month\n:::\n::: column\n- New cost: $1k a month\n:::\n::::\n\n'
        "<!-- notes: the cost is per cluster -->\n"
    )
    note.write_text(f"# Platform day\n\n## Compare\n\n{sets}", encoding="utf-8")
    deck = rendered_deck(note)
    compare = [slide for slide in deck.slides if slide.title == "Compare"]
    assert [slide.display_title for slide in compare] == ["Compare", "Compare (cont.)"]
    assert [slide.grid.widths for slide in compare] == [(0.5, 0.5), (0.4, 0.6)]
    from confnotes.slides.model import SlideItem

    shown = [
        [entry.full if type(entry) is SlideItem else entry.text for entry in slide.content if entry.kind != "div"] for slide in compare
    ]
    assert shown == [
        ["Before: 11 steps", "After: 2 steps", "And the bill came down with it."],
        ["Old cost: $4k a month", "New cost: $1k a month"],
    ]
    assert [slide.notes for slide in compare] == [("say the bill before the cost",), ("the cost is per cluster",)]
    assert not deck.cut


# ------------------------------------------------------------------ the slides PDF's steps


def test_the_slides_pdf_gets_a_page_a_step_only_when_asked(cli, tmp_path, weasyprint):
    from pypdf import PdfReader

    copy = _copy(STEPS, tmp_path)
    slides = len(rendered_deck(STEPS).slides)
    rendered(cli, copy, "slides-pdf", tmp_path / "one.pdf")
    assert len(PdfReader(str(tmp_path / "one.pdf")).pages) == slides
    rendered(cli, copy, "slides-pdf", tmp_path / "steps.pdf", "--steps")
    pages = PdfReader(str(tmp_path / "steps.pdf")).pages
    assert len(pages) == slides + 5 + 3 + 3  # timeline 5 steps, went well 3, went badly 3, each after none shown
    timeline = [page.extract_text() for page in pages if page.extract_text().startswith("Timeline")]
    assert len(timeline) == 6
    # as the HTML deck arrives on the slide: none of the list, then one item more a page
    assert "09:12" not in timeline[0] and "09:12" in timeline[1] and "09:14" not in timeline[1] and "12:09" in timeline[-1]
    # each step is the same slide: it shows that slide's number, out of the deck's slides
    assert all(re.search(rf"\b3\s*/\s*{slides}(?!\d)", page) for page in timeline)


# ------------------------------------------------------------------ PPTX and Marp


def test_pptx_uses_the_templates_layouts_and_places_pictures(cli, tmp_path):
    from pptx import Presentation
    from pptx.util import Emu

    copy = _copy(STAGE, tmp_path)
    rendered(cli, copy, "pptx", tmp_path / "deck.pptx")
    prs = Presentation(str(tmp_path / "deck.pptx"))
    width, height = prs.slide_width, prs.slide_height
    slides = list(prs.slides)
    by_title = {slide.shapes.title.text_frame.text: slide for slide in slides if slide.shapes.title is not None}
    left = [shape for shape in by_title["The architecture we drew on a whiteboard"].shapes if shape.shape_type == 13]
    assert len(left) == 1 and left[0].left == 0 and abs(left[0].width - Emu(int(width * 0.4))) < width * 0.01 and left[0].height == height
    right = [shape for shape in by_title["What the dashboard showed"].shapes if shape.shape_type == 13][0]
    assert right.left + right.width == width and right.crop_left > 0  # cropped to fill its side, as the deck's cover
    full = [shape for shape in by_title["It started with a pager"].shapes if shape.shape_type == 13][0]
    assert (full.left, full.top, full.width, full.height) == (0, 0, width, height)
    assert by_title["Part two: the next ten years"].slide_layout.name == "Section Header"
    assert by_title["Thank you"].slide_layout.name == "Title Slide"
    copy = _copy(COLUMNS, tmp_path)
    rendered(cli, copy, "pptx", tmp_path / "columns.pptx")
    columns = Presentation(str(tmp_path / "columns.pptx")).slides
    template = next(s for s in columns if s.shapes.title.text_frame.text == "What a template gives you")
    assert template.slide_layout.name == "Two Content"
    boxes = sorted((shape.left, shape.width) for shape in template.placeholders if shape.placeholder_format.idx != 0)
    assert len(boxes) == 2 and boxes[0][0] + boxes[0][1] < boxes[1][0]  # side by side, a gap between


def test_marp_gets_grids_split_backgrounds_and_fragmented_lists(cli, tmp_path):
    copy = _copy(STAGE, tmp_path)
    rendered(cli, copy, "marp", tmp_path / "stage.md")
    stage = (tmp_path / "stage.md").read_text(encoding="utf-8")
    assert "![bg left:40% Whiteboard sketch" in stage and "![bg right:40% Checkout p99 latency" in stage
    assert "<!-- _class: lead layout-big-number -->" in stage
    copy = _copy(STEPS, tmp_path)
    rendered(cli, copy, "marp", tmp_path / "steps.md")
    steps = (tmp_path / "steps.md").read_text(encoding="utf-8")
    assert "* 09:12 deploy of `cart-svc` 4.18.0 starts" in steps and "1) The rollback ran a down-migration" in steps
    copy = _copy(COLUMNS, tmp_path)
    rendered(cli, copy, "marp", tmp_path / "columns.md")
    columns = (tmp_path / "columns.md").read_text(encoding="utf-8")
    assert "grid-template-columns: 45.00fr 55.00fr" in columns


def test_marp_cli_lays_columns_side_by_side(cli, tmp_path, open_page):
    marp = require_marp()
    copy = _copy(COLUMNS, tmp_path)
    rendered(cli, copy, "marp", tmp_path / "columns.md")
    html = tmp_path / "columns.html"
    subprocess.run([marp, "--no-stdin", str(tmp_path / "columns.md"), "-o", str(html)], check=True, capture_output=True, timeout=180)
    page, errors, _ = open_page(html, viewport=(1280, 720))
    boxes = page.evaluate(
        """() => {
        const slide = document.querySelector("h2#where-we-started").parentElement;
        const list = slide.querySelector("ul").getBoundingClientRect(), code = slide.querySelector("marp-pre, pre").getBoundingClientRect();
        return [list.left, list.right, list.top, code.left, code.top];
    }"""
    )
    list_left, list_right, list_top, code_left, code_top = boxes
    assert code_left > list_right and abs(code_top - list_top) < 120, boxes
    # layout two-column over one list: the list shared out, half in each column, as in the decks
    halves = page.evaluate(
        """() => [...document.querySelector("h2#what-a-template-gives-you").parentElement.querySelectorAll("ul")].map(list => {
        const box = list.getBoundingClientRect();
        return [box.left, box.top, list.children.length];
    })"""
    )
    assert len(halves) == 2 and halves[1][0] > halves[0][0] + 300 and abs(halves[1][1] - halves[0][1]) < 5, halves
    assert [count for _, _, count in halves] == [3, 3]
    assert not errors


FIGURES = """---
title: Error budgets in practice
speakers: [Dana Whit]
---

## How often we paged

<!-- slide layout: big-number -->

- 4.2×
- more pages before the rota change

## What the SLO bought us

<!-- slide layout: big-number -->

99.95%

Measured over the last four quarters.

## What the rota taught us

<!-- slide layout: quote -->

> A page you cannot act on is a bug in the pager.

Said at every retro, by someone new each time.

## Part two: the rota people choose

<!-- slide layout: section -->

Fewer pages, better pages.
"""


def test_pptx_sets_the_figure_large_and_the_section_dark_as_the_decks_do(cli, tmp_path):
    """python-pptx's own reading of the file: a big number that is a list's first item is one
    paragraph at the figure's size, bold, in the accent colour, with no bullet (the next item is
    a bullet at the item size); a section layout is the dark ground with the title in white, as
    written (the template's capitals off), above its text in light grey."""
    from pptx import Presentation
    from pptx.util import Pt

    from confnotes.slides.geometry import BIG

    note = tmp_path / "figures.md"
    note.write_text(FIGURES, encoding="utf-8")
    rendered(cli, note, "pptx", tmp_path / "figures.pptx")
    slides = {
        slide.shapes.title.text_frame.text: slide for slide in Presentation(str(tmp_path / "figures.pptx")).slides if slide.shapes.title
    }
    paragraphs = [p for shape in slides["How often we paged"].shapes if shape.has_text_frame for p in shape.text_frame.paragraphs]
    figure = next(p for p in paragraphs if "".join(r.text for r in p.runs) == "4.2×")
    assert {run.font.size for run in figure.runs} == {Pt(BIG[0] * 0.75)} and all(run.font.bold for run in figure.runs)
    assert {str(run.font.color.rgb) for run in figure.runs} == {"1F5FBF"}
    assert figure._p.pPr.find("{http://schemas.openxmlformats.org/drawingml/2006/main}buNone") is not None
    after = next(p for p in paragraphs if "rota change" in "".join(r.text for r in p.runs))
    assert {run.font.size for run in after.runs} == {Pt(30 * 0.75)}
    quote = next(
        shape for shape in slides["What the rota taught us"].shapes if shape.has_text_frame and "bug in the pager" in shape.text_frame.text
    )
    runs = [run for paragraph in quote.text_frame.paragraphs for run in paragraph.runs]
    assert all(run.font.italic for run in runs) and all(run.font.color.type is None for run in runs)  # as the decks set it
    section = slides["Part two: the rota people choose"]
    assert str(section.background.fill.fore_color.rgb) == "0F2547"
    title = section.shapes.title
    assert {(str(r.font.color.rgb), r.font._rPr.get("cap")) for p in title.text_frame.paragraphs for r in p.runs} == {("FFFFFF", "none")}
    text = next(shape for shape in section.shapes if shape.has_text_frame and "Fewer pages" in shape.text_frame.text)
    assert text.top > title.top + title.height // 2
    assert {str(r.font.color.rgb) for p in text.text_frame.paragraphs for r in p.runs} == {"C3C8D6"}


def test_marp_cli_sets_the_quote_and_the_figure_at_the_layouts_sizes(cli, tmp_path, open_page):
    """In Marp, as in the decks: the quote's words (a paragraph in the blockquote) at the quote's
    size, the big number (a paragraph, or a list's first item) at the figure's, the line under it
    at the slide's own item size."""
    from confnotes.slides.geometry import BIG, QUOTE

    marp = require_marp()
    note = tmp_path / "figures.md"
    note.write_text(FIGURES, encoding="utf-8")
    rendered(cli, note, "marp", tmp_path / "figures.marp.md")
    html = tmp_path / "figures.html"
    subprocess.run([marp, "--no-stdin", str(tmp_path / "figures.marp.md"), "-o", str(html)], check=True, capture_output=True, timeout=180)
    page, errors, _ = open_page(html, viewport=(1280, 720))
    sizes = page.evaluate(
        """() => {
        const size = (element) => getComputedStyle(element).fontSize;
        const slide = (id) => document.querySelector(`h2#${id}`).parentElement;
        const items = slide("how-often-we-paged").querySelectorAll("li");
        return [size(items[0]), size(items[1]), size(slide("what-the-slo-bought-us").querySelector("p")),
                size(slide("what-the-rota-taught-us").querySelector("blockquote p"))];
    }"""
    )
    assert sizes == [f"{BIG[0]}px", "30px", f"{BIG[0]}px", f"{QUOTE[0]}px"], sizes
    assert not errors


# ------------------------------------------------------------------ as pictures, in Chromium


def test_columns_and_pictures_are_where_the_layout_puts_them(cli, tmp_path, open_page):
    copy = _copy(COLUMNS, tmp_path)
    rendered(cli, copy, "slides", tmp_path / "columns.html")
    page, errors, _ = open_page(tmp_path / "columns.html", viewport=(1280, 720))
    columns = page.evaluate(
        """() => [...document.querySelectorAll(".slide")].filter(s => s.querySelector(".slide-columns")).map(s => {
        s.classList.add("current");
        const boxes = [...s.querySelectorAll(".slide-column")].map(c => c.getBoundingClientRect());
        s.classList.remove("current");
        return boxes.map(b => [Math.round(b.left), Math.round(b.right), Math.round(b.top)]);
    })"""
    )
    assert len(columns) == 3
    for first, second in columns:
        assert second[0] >= first[1] + 40 and first[2] == second[2]  # side by side, the gap between, tops level
    assert not errors
    copy = _copy(STAGE, tmp_path)
    rendered(cli, copy, "slides", tmp_path / "stage.html")
    page, errors, _ = open_page(tmp_path / "stage.html", viewport=(1280, 720))
    pictures = page.evaluate(
        """() => [...document.querySelectorAll(".slide")].filter(s => s.querySelector(".layout-picture img")).map(s => {
        s.classList.add("current");
        const slide = s.getBoundingClientRect(), img = s.querySelector(".layout-picture img").getBoundingClientRect();
        const text = s.querySelector(".slide-title").getBoundingClientRect();
        s.classList.remove("current");
        return [s.className.match(/layout-[a-z-]+/)[0], img.left - slide.left, img.width, img.height, text.left - slide.left];
    })"""
    )
    found = {layout: (round(left), round(width), round(height), round(text)) for layout, left, width, height, text in pictures}
    assert found["layout-image-left"][:3] == (0, 512, 720) and found["layout-image-left"][3] >= 512
    assert found["layout-image-right"][:3] == (768, 512, 720) and found["layout-image-right"][3] < 768
    assert found["layout-full-image"][:3] == (0, 1280, 720)
    assert not errors


def test_the_deck_reveals_a_list_step_by_step_and_the_presenter_sees_what_comes(cli, tmp_path, open_page):
    copy = _copy(STEPS, tmp_path)
    rendered(cli, copy, "slides", tmp_path / "steps.html")
    deck = rendered_deck(STEPS)
    timeline = next(index for index, slide in enumerate(deck.slides, 1) if slide.title == "Timeline")
    page, errors, _ = open_page(tmp_path / "steps.html", viewport=(1280, 720))
    page.evaluate(f"() => {{ window.location.hash = '#{timeline}'; }}")
    page.wait_for_function(f"() => document.body.dataset.slide === '{timeline}'")
    shown = "() => [...document.querySelectorAll('.slide.current .fragment')].map(li => getComputedStyle(li).visibility)"
    assert page.evaluate(shown) == ["hidden"] * 5
    page.keyboard.press("ArrowRight")
    assert page.evaluate(shown) == ["visible"] + ["hidden"] * 4
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert page.evaluate(shown) == ["visible"] * 5 and page.evaluate("() => document.body.dataset.slide") == str(timeline)
    page.keyboard.press("ArrowRight")  # every step shown: on to the next slide
    assert page.evaluate("() => document.body.dataset.slide") == str(timeline + 1)
    page.keyboard.press("ArrowLeft")  # back: the slide before, whole
    assert page.evaluate(shown) == ["visible"] * 5
    assert not errors
    presenter, errors, _ = open_page(tmp_path / "steps.html", viewport=(1280, 800))
    presenter.evaluate(f"() => {{ window.location.hash = '#presenter:{timeline}'; window.location.reload(); }}")
    presenter.wait_for_selector(".pv-next-notes")
    presenter.wait_for_function("() => document.querySelector('.pv-next-notes').textContent.startsWith('Next item')")
    first = presenter.evaluate("() => document.querySelector('.pv-next-notes').textContent")
    assert first == "Next item (1 of 5): 09:12 deploy of cart-svc 4.18.0 starts"
    presenter.keyboard.press("ArrowRight")
    assert presenter.evaluate("() => document.querySelector('.pv-next-notes').textContent").startswith("Next item (2 of 5): 09:14")
    assert not errors


# ------------------------------------------------------------------ LibreOffice's picture of the PPTX


def test_libreoffice_draws_the_picture_beside_the_text_and_the_columns_apart(cli, tmp_path, libreoffice):
    """The PPTX as LibreOffice draws it: on the image-left slide the left 40% is the photo (dark
    strokes on its paper) and every word of the slide stands right of it; on a columns slide the
    right column's words start right of the left column's."""
    from PIL import ImageStat

    from helpers import require_program

    soffice = libreoffice
    require_program("pdftoppm", install="apt-get install poppler-utils")
    copy = _copy(STAGE, tmp_path)
    rendered(cli, copy, "pptx", tmp_path / "stage.pptx")
    profile = tmp_path / "lo-profile"
    command = [soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path)]
    subprocess.run([*command, str(tmp_path / "stage.pptx")], check=True, capture_output=True, timeout=180)
    number = next(index for index, slide in enumerate(rendered_deck(STAGE).slides, 1) if slide.layout == "image-left")
    left = _region(_page_picture(tmp_path / "stage.pdf", number, 24), (0, 0, 0.38, 1))
    assert ImageStat.Stat(left).mean[0] < 245  # the whiteboard photo, not blank paper
    words = _words_on(tmp_path / "stage.pdf", number)
    assert words and all(x0 >= 0.4 * page_width for x0, _, page_width, _ in words if _ != "Ten")
    copy = _copy(COLUMNS, tmp_path)
    rendered(cli, copy, "pptx", tmp_path / "columns.pptx")
    subprocess.run([*command, str(tmp_path / "columns.pptx")], check=True, capture_output=True, timeout=180)
    number = next(index for index, slide in enumerate(rendered_deck(COLUMNS).slides, 1) if slide.title == "Before and after")
    words = {word: x0 for x0, _, _, word in _words_on(tmp_path / "columns.pdf", number)}
    assert words["After"] > words["Before"] + 200 and words["2"] > words["11"] + 200  # the right column stands apart


def _words_on(pdf, number):
    """Each word on page ``number`` of ``pdf``: (left, top, page width, word), by pdftotext."""
    bbox = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(number), "-l", str(number), str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    width = float(re.search(r'<page width="([\d.]+)"', bbox).group(1))
    found = re.findall(r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="[\d.-]+" yMax="[\d.-]+">([^<]*)</word>', bbox)
    footer = max((float(y) for _, y, _ in found), default=0) - 5  # the footer's line: the deck's title and number
    return [(float(x), float(y), width, word) for x, y, word in found if float(y) < footer]


# ------------------------------------------------------------------ golden slide outlines


@pytest.mark.parametrize("note", sorted(DIRECTED.glob("*.md")), ids=lambda path: path.name)
def test_the_slide_outline_is_the_golden_one(cli, tmp_path, note, update_goldens):
    """What each slide shows, in order (``--to outline``): layouts, columns and steps change where
    things go on a slide, never which slide a word is on or in what order."""
    copy = _copy(note, tmp_path)
    out = tmp_path / "outline.txt"
    rendered(cli, copy, "outline", out)
    check_golden(DIRECTED / "golden" / f"{note.stem}.outline.txt", out.read_text(encoding="utf-8"), update_goldens)


def test_html_in_a_directive_or_a_fence_reaches_no_output(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text(
        "# Talk\n\n## Hostile\n\n"
        '<!-- slide layout: <b>quote</b>; class: x"><script>alert(1)</script>; background: javascript:alert(1).png -->\n\n'
        ':::: columns\n::: {.column width="40%" onmouseover="alert(2)"}\n- left\n:::\n::: {.column}\n- right\n:::\n::::\n\n'
        '::: {.tip"><img src=x onerror=alert(3)>}\ntext\n:::\n',
        encoding="utf-8",
    )
    result = cli("lint", "--no-cache", "--select", "CN114", str(note))
    assert "layout '<b>quote</b>' is not one of title, section" in result.stdout
    assert "background 'javascript:alert(1).png' is not a colour or an image file below the note's folder (no URLs)" in result.stdout
    for to, out in (("html", "p.html"), ("slides", "d.html"), ("marp", "m.md"), ("pptx", "d.pptx"), ("outline", "o.txt")):
        rendered(cli, note, to, tmp_path / out)
    for out in ("p.html", "d.html", "m.md", "o.txt"):
        text = (tmp_path / out).read_text(encoding="utf-8")
        assert "alert(" not in text and "onmouseover" not in text and "onerror" not in text and "javascript:" not in text, out
    deck = rendered_deck(note)
    hostile = _slide(deck, "Hostile")
    assert hostile.layout == "" and hostile.background == "" and hostile.grid is not None and hostile.grid.widths == (0.4, 0.6)


def test_the_slides_pdf_shows_each_layout_as_drawn(cli, tmp_path, weasyprint):
    """pdftoppm's pictures of WeasyPrint's slides PDF: the full-image slide is the photo (dark,
    under its band), the image-left slide has the photo in its left 40% and blank paper right
    of its text, the section layout is the dark colour, the big number is large ink."""
    from PIL import ImageStat

    from helpers import require_program

    require_program("pdftoppm", install="apt-get install poppler-utils")
    copy = _copy(STAGE, tmp_path)
    rendered(cli, copy, "slides-pdf", tmp_path / "stage.pdf")
    deck = rendered_deck(STAGE)

    def page(layout):
        number = next(index for index, slide in enumerate(deck.slides, 1) if slide.layout == layout and slide.kind != "title")
        return _page_picture(tmp_path / "stage.pdf", number, 24)

    def mean(picture, box):
        return ImageStat.Stat(_region(picture, box)).mean[0]

    full = page("full-image")
    assert mean(full, (0, 0, 1, 1)) < 120  # the hall's photo fills the slide
    left = page("image-left")
    assert mean(left, (0, 0, 0.38, 1)) < 245 and mean(left, (0.42, 0.75, 1, 0.9)) > 250  # photo left, paper right
    assert mean(page("section"), (0, 0, 1, 1)) < 80  # the dark divider colour
    big = page("big-number")
    assert mean(big, (0.05, 0.35, 0.3, 0.6)) < mean(big, (0.05, 0.75, 0.3, 0.85))  # the figure's ink, above blank paper


def test_the_audience_window_follows_the_presenters_steps(cli, tmp_path, browser):
    copy = _copy(STEPS, tmp_path)
    rendered(cli, copy, "slides", tmp_path / "steps.html")
    timeline = next(index for index, slide in enumerate(rendered_deck(STEPS).slides, 1) if slide.title == "Timeline")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.clock.install(time=1_800_000_000_000)
    context.clock.pause_at(1_800_000_000_000)
    try:
        audience = context.new_page()
        audience.goto((tmp_path / "steps.html").resolve().as_uri() + f"#{timeline}")
        with context.expect_page() as opened:
            audience.keyboard.press("p")
        presenter = opened.value
        presenter.wait_for_selector(".presenter-view")
        shown = "() => [...document.querySelectorAll('.slide.current .fragment.shown')].length"
        for step in (1, 2, 3):
            presenter.keyboard.press("ArrowRight")
            audience.wait_for_function(f"() => document.querySelectorAll('.slide.current .fragment.shown').length === {step}", timeout=5000)
        audience.keyboard.press("ArrowLeft")  # the audience window steps back: the presenter follows
        presenter.wait_for_function(
            "() => document.querySelector('.pv-next-notes').textContent.startsWith('Next item (3 of 5)')", timeout=5000
        )
        assert audience.evaluate(shown) == 2
    finally:
        context.close()


@pytest.mark.parametrize("note", [STAGE, DIRECTED / "keynote-directed.md"], ids=lambda path: path.stem)
def test_the_handouts_thumbnails_are_the_slides_pdfs_pages(cli, tmp_path, note, weasyprint):
    """pdftoppm's pictures: each directed slide's thumbnail in the handout (one a page, so each
    after the first stands at the page's top margin) is its slides-PDF page scaled down, to a few
    grey levels a pixel: the quote whole, the section dark, the picture beside the title, the
    figure large, an invert slide's light text, a background picture filling the slide. The
    footer's band is left out: the handout numbers a slide in its own corner."""
    from PIL import ImageChops, ImageStat

    from helpers import require_program

    require_program("pdftoppm", install="apt-get install poppler-utils")
    copy = _copy(note, tmp_path)
    rendered(cli, copy, "slides-pdf", tmp_path / "deck.pdf")
    rendered(cli, copy, "handout", tmp_path / "deck.handout.pdf", "--per-page", "1")
    deck = rendered_deck(note)
    k, dpi, margin = 0.5315, 96, 14  # per-page 1's scale, CSS px, the page margin (mm)

    compared = 0
    for number, slide in enumerate(deck.slides, 1):
        if number == 1 or not (slide.layout or slide.background or slide.classes):
            continue
        page = _page_picture(tmp_path / "deck.pdf", number, dpi * k)
        sheet = _page_picture(tmp_path / "deck.handout.pdf", number, dpi)
        at = round(margin / 25.4 * dpi)
        thumb = sheet.crop((at, at, at + page.width, at + page.height))
        band = (0, 0, page.width, int(page.height * 0.86))
        size = (128, 62)
        difference = ImageChops.difference(page.crop(band).resize(size), thumb.crop(band).resize(size))
        assert ImageStat.Stat(difference).mean[0] < 6, (slide.layout, slide.title, ImageStat.Stat(difference).mean[0])
        compared += 1
    assert compared >= (6 if note == STAGE else 2)


def test_the_footer_keeps_off_a_side_picture_and_reads_over_a_full_one(cli, tmp_path, open_page):
    copy = _copy(STAGE, tmp_path)
    rendered(cli, copy, "slides", tmp_path / "stage.html")
    page, errors, _ = open_page(tmp_path / "stage.html", viewport=(1280, 720))
    boxes = page.evaluate(
        """() => Object.fromEntries(["image-left", "image-right", "full-image"].map(layout => {
        const slide = document.querySelector(`.slide.layout-${layout}:not(.kind-title)`);
        slide.classList.add("current");
        const box = (selector) => { const b = slide.querySelector(selector).getBoundingClientRect(); return [b.left, b.right]; };
        const spans = [...slide.querySelectorAll(".slide-footer span")].map(s => getComputedStyle(s).backgroundColor);
        const found = [box(".layout-picture"), box(".slide-footer"), getComputedStyle(slide.querySelector(".slide-footer")).color, spans];
        slide.classList.remove("current");
        return [layout, found];
    }))"""
    )
    (picture, footer, _, _) = boxes["image-left"]
    assert footer[0] >= picture[1], boxes["image-left"]
    (picture, footer, _, _) = boxes["image-right"]
    assert footer[1] <= picture[0], boxes["image-right"]
    _, _, colour, bands = boxes["full-image"]
    assert colour == "rgb(213, 217, 228)" and bands == ["rgba(12, 18, 32, 0.78)"] * 2, boxes["full-image"]
    assert not errors


def test_the_pptx_footer_keeps_off_a_side_picture_and_is_light_over_a_full_one(cli, tmp_path):
    from pptx import Presentation

    copy = _copy(STAGE, tmp_path)
    rendered(cli, copy, "pptx", tmp_path / "stage.pptx")
    prs = Presentation(str(tmp_path / "stage.pptx"))
    deck = rendered_deck(STAGE)
    width = prs.slide_width
    for slide, page in zip(deck.slides, prs.slides, strict=True):
        footer = [
            shape
            for shape in page.shapes
            if shape.has_text_frame and re.fullmatch(r"\d+ / \d+|Ten Years of On-Call", shape.text_frame.text)
        ]
        if slide.kind == "title":
            continue
        assert len(footer) == 2, slide.title
        if slide.layout == "image-left":
            assert all(shape.left >= 0.4 * width for shape in footer), slide.title
        if slide.layout == "image-right":
            assert all(shape.left + shape.width <= 0.6 * width for shape in footer), slide.title
        if slide.layout == "full-image":
            colours = {str(run.font.color.rgb) for shape in footer for p in shape.text_frame.paragraphs for run in p.runs}
            assert colours == {"FFFFFF"}, slide.title


def test_an_invert_slides_text_is_light_and_a_background_picture_fills_the_thumbnail(cli, tmp_path, weasyprint):
    """pdftoppm's pictures of keynote-directed: on the ``class: invert`` slide the point under the
    title is light ink on the dark ground (slides PDF and handout); the ``background:`` picture's
    curve, which rises at the slide's right edge, is there in the handout's thumbnail as on the page."""

    from helpers import require_program

    require_program("pdftoppm", install="apt-get install poppler-utils")
    note = DIRECTED / "keynote-directed.md"
    copy = _copy(note, tmp_path)
    rendered(cli, copy, "slides-pdf", tmp_path / "deck.pdf")
    rendered(cli, copy, "handout", tmp_path / "deck.handout.pdf", "--per-page", "1")
    slides = rendered_deck(note).slides
    invert = next(n for n, slide in enumerate(slides, 1) if "invert" in slide.classes)
    ground = next(n for n, slide in enumerate(slides, 1) if slide.background.endswith(".png"))
    k, dpi, at = 0.5315, 96, round(14 / 25.4 * 96)

    def picture(pdf, number, resolution, thumb):
        image = _page_picture(pdf, number, resolution)
        return image.crop((at, at, at + round(1280 * k), at + round(720 * k))) if thumb else image

    for image in (picture(tmp_path / "deck.pdf", invert, dpi * k, False), picture(tmp_path / "deck.handout.pdf", invert, dpi, True)):
        under_title = _region(image, (0.05, 0.19, 0.7, 0.3))
        assert sum(1 for value in under_title.tobytes() if value > 180) > 20  # light letters
    for image in (picture(tmp_path / "deck.pdf", ground, dpi * k, False), picture(tmp_path / "deck.handout.pdf", ground, dpi, True)):
        assert min(_region(image, (0.85, 0.12, 0.97, 0.6)).tobytes()) < 240  # the curve's rise, under the veil


def test_a_full_image_title_slide_sets_its_title_on_the_band_at_the_foot_in_pptx(cli, tmp_path):
    """As in the decks: the photo whole, the talk's title and its line under it at the slide's
    foot, set left, light, on the dark band (not centred over the photo under a veil)."""
    from pptx import Presentation
    from pptx.enum.text import PP_ALIGN

    copy = _copy(STAGE, tmp_path)
    rendered(cli, copy, "pptx", tmp_path / "stage.pptx")
    prs = Presentation(str(tmp_path / "stage.pptx"))
    first, height = prs.slides[0], prs.slide_height
    title = first.shapes.title
    assert title.text_frame.text == "Ten Years of On-Call" and title.top > 0.6 * height
    assert all(paragraph.alignment == PP_ALIGN.LEFT for paragraph in title.text_frame.paragraphs)
    bands = [shape for shape in first.shapes if shape.shape_type == 1 and shape.width == prs.slide_width]  # autoshapes
    assert len(bands) == 1 and bands[0].top <= title.top and bands[0].height < 0.5 * height
    subtitle = next(shape for shape in first.placeholders if shape.placeholder_format.idx != 0)
    assert subtitle.top >= title.top + title.height - 1 and "SREcon EMEA 2026" in subtitle.text_frame.text


def test_a_background_picture_is_veiled_in_the_themes_paper_colour(cli, tmp_path, weasyprint):
    """Under the dark theme a deck's light text stands on a dark veil over the picture (a white one
    would hide it); the handout, printed in the light palette, keeps the white veil."""
    from PIL import ImageStat

    from helpers import require_program

    require_program("pdftoppm", install="apt-get install poppler-utils")
    note = DIRECTED / "keynote-directed.md"
    copy = _copy(note, tmp_path)
    rendered(cli, copy, "slides-pdf", tmp_path / "dark.pdf", "--theme", "dark")
    rendered(cli, copy, "slides-pdf", tmp_path / "light.pdf")
    ground = next(n for n, slide in enumerate(rendered_deck(note).slides, 1) if slide.background.endswith(".png"))

    def mean(pdf):
        return ImageStat.Stat(_page_picture(pdf, ground, 20)).mean[0]

    assert mean(tmp_path / "dark.pdf") < 110 and mean(tmp_path / "light.pdf") > 200


def test_a_section_layouts_points_keep_their_labels_and_markers_in_pptx(cli, tmp_path):
    """The Section Header's text box holds a section layout's points as the decks show them: each
    with its bullet (or number), its bold label and its words, a sub-point set in under it."""
    from pptx import Presentation

    note = tmp_path / "rota.md"
    note.write_text(
        "---\ntitle: Rota review\n---\n\n## Part two: what changes\n\n<!-- slide layout: section -->\n\n"
        "- **Owner:** the platform team\n- Fewer pages\n  - only what a human must do\n\n## Next\n\n1. Page less\n",
        encoding="utf-8",
    )
    rendered(cli, note, "pptx", tmp_path / "rota.pptx")
    section = Presentation(str(tmp_path / "rota.pptx")).slides[2]
    box = next(shape for shape in section.placeholders if shape.placeholder_format.idx != 0)
    paragraphs = box.text_frame.paragraphs
    assert [paragraph.text for paragraph in paragraphs] == [
        "• Owner: the platform team",
        "• Fewer pages",
        "\u2003◦ only what a human must do",
    ]
    assert next(run for run in paragraphs[0].runs if "Owner" in run.text).font.bold  # the label, bold


INVERTED_TABLE = """---
title: Capacity review, Q3
---

## Where the money goes
<!-- slide class: invert -->

| Service | Monthly cost | Share |
|---|---|---|
| Search | $41k | 38% |
| Checkout | $22k | 20% |
| Recommendations | $19k | 17% |
"""

#: the contrast of each header cell's text with what is under it (its fill over the slide's ground)
_HEADER_CONTRAST = """() => {
  const rgba = text => { const v = text.match(/[\\d.]+/g).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
  const f = c => (c /= 255) <= .03928 ? c / 12.92 : ((c + .055) / 1.055) ** 2.4;
  const lum = ([r, g, b]) => .2126 * f(r) + .7152 * f(g) + .0722 * f(b);
  const slide = document.querySelector('.slide.invert');
  const ground = rgba(getComputedStyle(slide).backgroundColor);
  return [...slide.querySelectorAll('th')].map(th => {
    const fill = rgba(getComputedStyle(th).backgroundColor), ink = rgba(getComputedStyle(th).color);
    const under = [0, 1, 2].map(i => fill[i] * fill[3] + ground[i] * (1 - fill[3]));
    const [a, b] = [lum(ink), lum(under)].sort((x, y) => y - x);
    return (a + .05) / (b + .05);
  });
}"""


@pytest.mark.parametrize("theme", ["default", "dark"])
def test_a_tables_header_on_an_invert_slide_is_legible(cli, tmp_path, open_page, theme):
    """The header row's light fill once sat under the invert slide's white ink (white on white)."""
    note = tmp_path / "capacity.md"
    note.write_text(INVERTED_TABLE, encoding="utf-8")
    deck = tmp_path / "capacity.slides.html"
    rendered(cli, note, "slides", deck, "--theme", theme)
    page, errors, _ = open_page(deck, viewport=(1280, 720))
    page.evaluate("() => { document.querySelectorAll('.slide').forEach(s => s.style.display = 'block'); }")
    contrasts = page.evaluate(_HEADER_CONTRAST)
    assert len(contrasts) == 3 and min(contrasts) >= 4.5, contrasts
    assert errors == []


LEAD_SLIDES = """---
title: Ten Years of On-Call
speakers: [Kenji Watanabe]
event: SREcon Americas
duration: 20min
---

## What we learned

<!-- slide layout: quote -->

> Every page is a bug report against the system.

## The numbers

<!-- slide layout: big-number -->

93%

of pages were noise in 2016
"""

#: for each slide marp-cli drew, its classes and each text's room to the slide's left and right edges
_MARP_SIDES = """() => [...document.querySelectorAll('svg > foreignObject > section')].map(section => {
  const box = section.getBoundingClientRect();
  const sides = [...section.querySelectorAll('h1, h2, p')].map(el => {
    const range = document.createRange(); range.selectNodeContents(el); const text = range.getBoundingClientRect();
    return [text.left - box.left, box.right - text.right];
  });
  return [section.className, sides];
})"""


def test_marps_lead_slides_are_centred_in_its_default_theme(tmp_path, browser, processes):
    """Marp's default theme has no ``lead`` rule: the title, quote and big-number slides sat at the left."""
    from click.testing import CliRunner

    from confnotes.cli import main

    note = tmp_path / "on-call.md"
    note.write_text(LEAD_SLIDES, encoding="utf-8")
    assert CliRunner().invoke(main, ["render", str(note), "--to", "marp", "-o", str(tmp_path / "on-call.marp.md")]).exit_code == 0
    proc = subprocess.run(
        [require_marp(), str(tmp_path / "on-call.marp.md"), "-o", str(tmp_path / "on-call.html")], capture_output=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto((tmp_path / "on-call.html").as_uri())
        slides = page.evaluate(_MARP_SIDES)
    finally:
        page.close()
    lead = [sides for classes, sides in slides if "lead" in classes.split()]
    assert len(lead) == 3  # the title, the quote and the big number
    for sides in lead:
        assert sides and all(abs(left - right) <= 2 for left, right in sides), sides


TITLE_PICTURE = """---
title: Ten Years of On-Call
speakers: [Kenji Watanabe]
event: SREcon Americas 2026
duration: 20min
---

![The on-call team at the 2016 offsite](team.png)

What a decade of pages taught one platform team.

## Where we started

- 40 pages a week for a team of six
- Every alert went to everyone
"""


@pytest.fixture
def title_picture(tmp_path):
    from PIL import Image

    Image.new("RGB", (1600, 900), (40, 90, 140)).save(tmp_path / "team.png")
    note = tmp_path / "talk.md"
    note.write_text(TITLE_PICTURE, encoding="utf-8")
    return note


def test_a_picture_in_the_opening_goes_beside_the_title(title_picture):
    """It once took the title's room: over the title in the deck, a second page in the slides PDF."""
    deck = rendered_deck(title_picture)
    first = deck.slides[0]
    assert first.kind == "title" and first.layout == "image-right" and first.parts == 1
    assert not any(slide.continued and slide.title == first.title for slide in deck.slides)


def test_the_title_picture_is_a_picture_beside_the_title_in_pptx(cli, title_picture, tmp_path):
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    rendered(cli, title_picture, "pptx", tmp_path / "talk.pptx")
    first = Presentation(str(tmp_path / "talk.pptx")).slides[0]
    pictures = [shape for shape in first.shapes if shape.shape_type == MSO_SHAPE_TYPE.PICTURE]
    assert len(pictures) == 1, [shape.shape_type for shape in first.shapes]  # not its alt text
    assert "2016 offsite" not in " ".join(shape.text_frame.text for shape in first.shapes if shape.has_text_frame)
    for shape in first.placeholders:  # the title and its lines stay on the picture's left
        assert shape.left >= 0 and shape.left + shape.width <= pictures[0].left, shape.name


def test_the_title_picture_leaves_the_title_clear_in_the_deck_and_the_slides_pdf(cli, title_picture, tmp_path, open_page, weasyprint):
    from pypdf import PdfReader

    rendered(cli, title_picture, "slides", tmp_path / "talk.slides.html")
    page, errors, _ = open_page(tmp_path / "talk.slides.html", viewport=(1280, 720))
    title, picture = page.evaluate(
        """() => ['.slide.kind-title .slide-title', '.slide.kind-title img'].map(sel => {
             const r = document.querySelector(sel).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""
    )
    assert title[2] <= picture[0] and picture[2] - picture[0] > 300, (title, picture)
    assert errors == []
    rendered(cli, title_picture, "slides-pdf", tmp_path / "talk.pdf")
    assert len(PdfReader(str(tmp_path / "talk.pdf")).pages) == len(rendered_deck(title_picture).slides)


@pytest.mark.parametrize(("size", "warned"), [((2400, 600), True), ((900, 1200), False), ((1600, 900), True)])
def test_an_image_layout_that_crops_its_picture_to_a_strip_says_so(cli, tmp_path, size, warned):
    """image-left and image-right fill a tall side: a wide picture was cut to its middle with no word."""
    from PIL import Image

    Image.new("RGB", size, (60, 60, 160)).save(tmp_path / "arch.png")
    note = tmp_path / "talk.md"
    note.write_text(
        "# Platform day\n\n## The whole architecture\n<!-- slide layout: image-left -->\n\n"
        "![Every service, left to right](arch.png)\n\n- Twelve services, one queue\n",
        encoding="utf-8",
    )
    for fmt in ("slides", "pptx", "marp"):
        result = rendered(cli, note, fmt, tmp_path / f"out.{fmt}")
        said = "layout image-left shows" in result.stderr
        assert said == warned, (fmt, result.stderr)
        assert not warned or f"({size[0]} x {size[1]})" in result.stderr
