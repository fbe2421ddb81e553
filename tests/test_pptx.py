"""PPTX people can present: 16:9 with a matching sldSz, every text box inside the slide and none
overlapping, pictures, tables and code as real shapes, a user's template, and LibreOffice's
reading of the file (one page per slide, no text outside the page)."""

from __future__ import annotations

import copy
import subprocess
from itertools import combinations
from pathlib import Path

import pytest

from conftest import FIXTURES, NOTES
from helpers import copied_note, rendered_deck, require_program

STRESS = FIXTURES / "slides" / "stress.md"
DECKS = [
    STRESS,
    *sorted(NOTES.glob("*.md")),
    FIXTURES / "real" / "session-k8s-scheduler.md",
    FIXTURES / "real" / "table-heavy.md",
    *sorted((FIXTURES / "slides" / "with-images").glob("*.md")),
    *sorted((FIXTURES / "directed").glob("*.md")),
]


def _pptx(cli, note: Path, tmp_path: Path, *args: str) -> Path:
    folder = tmp_path / note.stem
    folder.mkdir(exist_ok=True)
    copy = copied_note(note, folder)
    out = folder / f"{note.stem}.pptx"
    result = cli("render", str(copy), "--to", "pptx", "-o", str(out), *args)
    assert result.exit_code == 0, result.stderr
    return out


def _boxes(shape) -> tuple[int, int, int, int]:
    return int(shape.left), int(shape.top), int(shape.left + shape.width), int(shape.top + shape.height)


@pytest.mark.parametrize("note", DECKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_geometry_inside_the_slide_and_nothing_overlaps(cli, tmp_path, note, processes):
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    prs = Presentation(str(_pptx(cli, note, tmp_path)))
    assert (prs.slide_width, prs.slide_height) == (12192000, 6858000)
    size = prs.part._element.sldSz
    assert size.get("type") is None, "sldSz must not claim screen4x3 on a 16:9 size"
    assert len(prs.slides) == len(rendered_deck(note).slides)
    for number, slide in enumerate(prs.slides, start=1):
        boxes = []
        for shape in slide.shapes:
            left, top, right, bottom = _boxes(shape)
            assert right > left and bottom > top, f"slide {number}: {shape.name} has no size"
            assert left >= 0 and top >= 0 and right <= prs.slide_width and bottom <= prs.slide_height, (
                f"slide {number}: {shape.name} off the slide"
            )
            assert shape.shape_type != MSO_SHAPE_TYPE.PLACEHOLDER or shape.has_text_frame
            if (left, top, right, bottom) == (0, 0, prs.slide_width, prs.slide_height) and shape in list(slide.shapes)[:2]:
                continue  # a background picture and its veil (<!-- slide background: … -->): behind everything by design
            if shape.name.startswith("Layout "):
                continue  # an image layout's picture and the band under its text: behind the text by design
            boxes.append((shape.name, (left, top, right, bottom)))
        for (a, (l1, t1, r1, b1)), (b, (l2, t2, r2, b2)) in combinations(boxes, 2):
            assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, f"slide {number}: {a} and {b} overlap"


def test_shrunk_text_carries_powerpoints_font_scale(cli, tmp_path):
    """A slide the fit engine shrank is written as PowerPoint writes an autofitted body: runs at their
    unshrunk size and normAutofit fontScale, which together give the fitted size (46 px title × scale)."""
    from pptx import Presentation
    from pptx.oxml.ns import qn

    deck = rendered_deck(STRESS)
    prs = Presentation(str(_pptx(cli, STRESS, tmp_path)))
    shrunk = 0
    for slide, page in zip(deck.slides, prs.slides, strict=True):
        title = page.shapes.title
        if title is None or slide.kind in ("title", "divider"):
            continue
        fit = title.text_frame._txBody.bodyPr.find(qn("a:normAutofit"))
        assert fit is not None
        scale = int(fit.get("fontScale", "100000")) / 100000
        assert abs(scale - slide.scale) <= 0.005, (slide.title, scale, slide.scale)
        for run in (run for paragraph in title.text_frame.paragraphs for run in paragraph.runs):
            assert abs(run.font.size.pt * scale - 46 * slide.scale * 0.75) <= 0.5
        shrunk += scale < 1
    assert shrunk >= 3, "the stress note has slides the fit engine shrinks"


def test_pictures_tables_and_code_are_real_shapes(cli, tmp_path):
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    prs = Presentation(str(_pptx(cli, STRESS, tmp_path)))
    kinds = [shape.shape_type for slide in prs.slides for shape in slide.shapes]
    assert MSO_SHAPE_TYPE.PICTURE in kinds and MSO_SHAPE_TYPE.TABLE in kinds
    picture = next(shape for slide in prs.slides for shape in slide.shapes if shape.shape_type == MSO_SHAPE_TYPE.PICTURE)
    assert abs(picture.width / picture.height - 3000 / 2400) < 0.01, "scaled, not stretched or cropped"
    assert picture._element.nvPicPr.cNvPr.get("descr").startswith("Grafana board")
    table = next(shape.table for slide in prs.slides for shape in slide.shapes if shape.has_table)
    assert len(table.columns) == 12 and table.cell(0, 0).text == "Col 1"
    code = [
        shape
        for slide in prs.slides
        for shape in slide.shapes
        if shape.has_text_frame and any(run.font.name == "DejaVu Sans Mono" for p in shape.text_frame.paragraphs for run in p.runs)
    ]
    assert code
    text = "\n".join(shape.text_frame.text for shape in code)
    assert "python" not in text.split("\n")[0], "the language is not shown as text"
    assert "↪" in text, "long lines wrap behind a mark"


LAID_OUT = [FIXTURES / "directed" / "keynote-stage.md", FIXTURES / "directed" / "golden-path-columns.md"]


@pytest.mark.parametrize(
    "note", [STRESS, NOTES / "scale2025.md", FIXTURES / "directed" / "ml-calibration.md", *LAID_OUT], ids=lambda p: p.name
)
def test_libreoffice_opens_it_with_a_page_per_slide_and_nothing_outside(cli, tmp_path, note, libreoffice):
    import re

    soffice = libreoffice
    require_program("pdftotext", install="apt-get install poppler-utils")
    pptx = _pptx(cli, note, tmp_path)
    profile = tmp_path / "lo-profile"
    subprocess.run(
        [soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf", "--outdir", str(pptx.parent), str(pptx)],
        check=True,
        capture_output=True,
        timeout=180,
    )
    pdf = pptx.with_suffix(".pdf")
    from pypdf import PdfReader

    reader = PdfReader(str(pdf))
    assert len(reader.pages) == len(rendered_deck(note).slides)
    bbox = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', bbox, re.S)
    assert len(pages) == len(reader.pages)
    words = 0
    for number, (width, height, body) in enumerate(pages, start=1):
        for x0, y0, x1, y1, word in re.findall(
            r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)</word>', body
        ):
            words += 1
            assert float(x0) >= 0 and float(y0) >= 0, f"page {number}: {word!r} outside"
            assert float(x1) <= float(width) + 0.5 and float(y1) <= float(height) + 0.5, f"page {number}: {word!r} outside the page"
    assert words > 100


def test_a_reference_template_is_used(cli, tmp_path):
    from pptx import Presentation
    from pptx.util import Inches, Pt

    template = Presentation()
    template.slide_width, template.slide_height = Inches(13.333), Inches(7.5)
    scratch = template.slides.add_slide(template.slide_layouts[6])
    mark = scratch.shapes.add_textbox(Inches(0.2), Inches(7.0), Inches(4), Inches(0.4))
    mark.text_frame.text = "ACME CONFIDENTIAL"
    mark.text_frame.paragraphs[0].runs[0].font.size = Pt(10)
    template.slide_master.shapes._spTree.append(copy.deepcopy(mark._element))  # python-pptx adds no shapes to masters
    layouts = list(template.slide_layouts)
    layouts[1].name, layouts[5].name = "Title Only", "Title and Content"  # found by name, not position
    template.slides.add_slide(layouts[0]).shapes.title.text = "A slide of the template's own"
    reference = tmp_path / "acme.pptx"
    template.save(str(reference))
    note = tmp_path / "talk.md"
    note.write_text("# Quarterly review\n\n## Numbers\n\n- Revenue up\n- Costs down\n\n## Code\n\n```sh\nmake release\n```\n")
    out = tmp_path / "talk.pptx"
    result = cli("render", str(note), "--to", "pptx", "--reference-pptx", str(reference), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    prs = Presentation(str(out))
    assert "ACME CONFIDENTIAL" in [s.text_frame.text for s in prs.slide_master.shapes if s.has_text_frame]
    titles = [slide.shapes.title.text for slide in prs.slides]
    assert "A slide of the template's own" not in titles
    by_title = {slide.shapes.title.text: slide for slide in prs.slides}
    assert by_title["Numbers"].slide_layout.name == "Title and Content"
    assert by_title["Code"].slide_layout.name == "Title Only"
    assert by_title["Quarterly review"].slide_layout.name == "Title Slide"
    # the config names it too, relative to the config file
    (tmp_path / "confnotes.toml").write_text('reference_pptx = "acme.pptx"\n')
    assert cli("render", str(note), "--to", "pptx", "-o", str(out)).exit_code == 0
    assert "ACME CONFIDENTIAL" in [s.text_frame.text for s in Presentation(str(out)).slide_master.shapes if s.has_text_frame]
    bad = cli("render", str(note), "--to", "pptx", "--reference-pptx", str(note), "-o", str(out))
    assert bad.exit_code == 2 and "cannot read reference PPTX" in bad.stderr


def test_a_title_longer_than_any_slide_still_makes_a_valid_pptx(cli, tmp_path):
    """The content keeps a strip below even an endless title; no crash, every shape on the slide."""
    from pptx import Presentation

    note = tmp_path / "long.md"
    note.write_text("# Long\n\n## " + " ".join(["Extraordinarily"] * 60) + "\n\n- a point\n- another point\n")
    out = tmp_path / "long.pptx"
    assert cli("render", str(note), "--to", "pptx", "-o", str(out)).exit_code == 0
    prs = Presentation(str(out))
    for slide in prs.slides:
        for shape in slide.shapes:
            left, top, right, bottom = _boxes(shape)
            assert right > left and bottom > top and top >= 0 and bottom <= prs.slide_height, shape.name


def test_text_keeps_its_inline_markup_line_breaks_and_links(cli, tmp_path):
    from pptx import Presentation

    note = tmp_path / "talk.md"
    note.write_text(
        "# Observability at Scale\n\n"
        "Speaker : Priya Raman\nSlides : https://example.org/otel.pdf\nTrack : Observability\n\n"
        "## Sampling\n\n"
        "- **Head sampling**: cheap but *blind* to errors\n"
        "- drop `user_id` from metrics, see [the docs](https://example.org/docs) or [this](javascript:alert(1))\n\n"
        "> Keep every error trace.\n\n"
        "## Cardinality\n\n"
        "### Labels\n\n- every label set is a new series\n\n"
        "### Budgets\n\n- one budget a team\n"
    )
    out = tmp_path / "talk.pptx"
    assert cli("render", str(note), "--to", "pptx", "-o", str(out)).exit_code == 0
    slides = list(Presentation(str(out)).slides)

    def paragraphs(slide):
        return [p for shape in slide.shapes if shape.has_text_frame for p in shape.text_frame.paragraphs]

    # the title slide: the author's lines stay lines, and the URL is a link
    opening = next(p for p in paragraphs(slides[0]) if "Speaker" in "".join(r.text for r in p.runs))
    assert len(opening._p.xpath("./a:br")) == 2
    assert [r.hyperlink.address for r in opening.runs if r.hyperlink.address] == ["https://example.org/otel.pdf"]
    runs = {r.text: r for slide in slides for p in paragraphs(slide) for r in p.runs}
    assert runs["Head sampling"].font.bold and runs["blind"].font.italic
    assert runs["user_id"].font.name == "DejaVu Sans Mono" and runs["drop "].font.name == "DejaVu Sans"
    assert runs["the docs"].hyperlink.address == "https://example.org/docs"
    assert runs["this"].hyperlink.address is None  # an unsafe link keeps its text, not its target
    assert str(runs["Keep every error trace."].font.color.rgb) == "4F5B6B"  # a quote is muted, as in the deck
    # a dark section divider's footer is white, as in the HTML deck
    divider = next(s for s in slides if s.shapes.title is not None and s.shapes.title.text_frame.text == "Cardinality")
    footer = [r for p in paragraphs(divider) for r in p.runs if " / " in r.text]
    assert footer and str(footer[0].font.color.rgb) == "FFFFFF"


def test_an_image_that_will_not_show_is_a_visible_frame_and_a_warning(cli, tmp_path):
    from pptx import Presentation
    from pptx.enum.dml import MSO_LINE_DASH_STYLE

    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## Architecture\n\n- the scheduler loop\n\n![scheduling cycle](img/missing.png)\n")
    out = tmp_path / "talk.pptx"
    result = cli("render", str(note), "--to", "pptx", "-o", str(out))
    assert result.exit_code == 0
    assert f"{note}: warning: image 'img/missing.png' not found" in result.stderr.splitlines()
    frames = [
        shape
        for slide in Presentation(str(out)).slides
        for shape in slide.shapes
        if shape.has_text_frame and shape.text_frame.text == "[image: scheduling cycle]"
    ]
    assert len(frames) == 1
    line = frames[0].line
    assert line.dash_style == MSO_LINE_DASH_STYLE.DASH and line.width > 0 and str(line.color.rgb) == "4F5B6B"


def test_a_soft_line_break_is_a_space_as_in_the_html_deck(cli, tmp_path):
    from pptx import Presentation

    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## Why\n\nA paragraph written\nover two lines.\n\n- a point\n")
    out = tmp_path / "talk.pptx"
    assert cli("render", str(note), "--to", "pptx", "-o", str(out)).exit_code == 0
    texts = [shape.text_frame for slide in Presentation(str(out)).slides for shape in slide.shapes if shape.has_text_frame]
    frame = next(f for f in texts if "paragraph written" in f.text)
    assert "A paragraph written over two lines." in frame.text and not frame.paragraphs[0]._p.xpath("./a:br")


def test_a_data_image_is_a_picture_and_a_broken_one_a_short_warning(cli, tmp_path):
    import base64

    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    from helpers import tiny_png

    good = "data:image/png;base64," + base64.b64encode(tiny_png()).decode()
    bad = "data:image/png;base64," + "A" * 400
    note = tmp_path / "talk.md"
    note.write_text(f"# Talk\n\n## Inline\n\n- a point\n\n![red square]({good})\n\n## Broken\n\n- another\n\n![noise]({bad})\n")
    out = tmp_path / "talk.pptx"
    result = cli("render", str(note), "--to", "pptx", "-o", str(out))
    assert result.exit_code == 0
    pictures = [s for slide in Presentation(str(out)).slides for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.PICTURE]
    assert len(pictures) == 1
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "could not be read" in warnings[0] and len(warnings[0]) < len(str(note)) + 120
    marp = cli("render", str(note), "--to", "marp", "-o", str(tmp_path / "talk.marp.md"))
    assert "warning" not in marp.stderr  # marp-cli shows data: images itself


def test_a_deck_writes_the_same_pptx_first_and_later_in_a_process(tmp_path, processes):
    """The default template's 16:9 boxes are worked out once a process (they were 40% of a deck's
    PPTX, for every note of a build): the deck written after others is byte for byte the one a
    fresh process writes first, and its layouts keep those boxes."""
    import subprocess
    import sys

    from pptx import Presentation

    from confnotes.load import load_note
    from confnotes.render.formats import render_note
    from confnotes.render.options import RenderOptions

    def written(note: Path) -> bytes:
        return bytes(render_note(load_note(str(note)).doc, "pptx", RenderOptions(), note.parent)[0])

    talk = NOTES / "scale2025.md"
    for other in (NOTES / "scaling-reading-list.md", talk):
        written(other)
    later = written(talk)
    fresh = tmp_path / "fresh.pptx"
    run = subprocess.run(
        [sys.executable, "-m", "confnotes", "render", str(talk), "--to", "pptx", "-o", str(fresh)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert later == fresh.read_bytes()
    prs = Presentation(str(fresh))
    title = prs.slide_layouts[0].placeholders[0]
    assert (prs.slide_width, prs.slide_height) == (12192000, 6858000)
    assert title.left + title.width <= prs.slide_width and title.width > prs.slide_width // 2


def test_a_theme_pptx_cannot_show_is_said_once(cli, tmp_path):
    """``--theme dark`` left PPTX light with no word."""
    note = tmp_path / "talk.md"
    note.write_text("# Deploys\n\n## Why\n\n- Weekend pages doubled\n", encoding="utf-8")
    result = cli("render", str(note), "--to", "pptx", "--theme", "dark", "-o", str(tmp_path / "talk.pptx"))
    assert result.exit_code == 0 and result.stderr.count("the dark theme styles the HTML page") == 1, result.stderr
    plain = cli("render", str(note), "--to", "pptx", "-o", str(tmp_path / "plain.pptx"))
    assert "warning" not in plain.stderr


def test_code_on_an_invert_slide_keeps_its_dark_ink_on_its_light_box(cli, tmp_path):
    """The dark slide's light ink was set on every text, the code's too: light on its light box."""
    from pptx import Presentation

    note = tmp_path / "deploys.md"
    note.write_text(
        "# Deploys\n\n## The one-liner\n<!-- slide class: invert -->\n\n```sh\nkubectl rollout undo deployment/checkout\n```\n\n"
        "- Undo is one command away\n",
        encoding="utf-8",
    )
    assert cli("render", str(note), "--to", "pptx", "-o", str(tmp_path / "d.pptx")).exit_code == 0
    slide = next(
        s for s in Presentation(str(tmp_path / "d.pptx")).slides if s.shapes.title is not None and s.shapes.title.text == "The one-liner"
    )

    def colours(shape):
        return {str(run.font.color.rgb) for p in shape.text_frame.paragraphs for run in p.runs if run.font.color.type is not None}

    code = next(shape for shape in slide.shapes if shape.has_text_frame and "kubectl" in shape.text_frame.text)
    bullet = next(shape for shape in slide.shapes if shape.has_text_frame and "Undo is one" in shape.text_frame.text)
    assert "EEF0F6" not in colours(code) and colours(bullet) == {"EEF0F6"}
    assert colours(slide.shapes.title) == {"EEF0F6"}
