"""The hardest shapes of real notes, in every output they touch (tests/fixtures/slides/hard): a heading
that holds a link, screenshots side by side in a table, a setext heading holding a whole paragraph, a
tall phone screenshot, `1. 1. 1.` lists, a wide table and a long URL, fences opened in list items
and soft line breaks, and a lead-in sentence before a list."""

from __future__ import annotations

import io
import re
import shutil

import pytest

from conftest import FIXTURES
from helpers import rendered_deck

HARD = FIXTURES / "slides" / "hard"


def _copy(note_name, tmp_path):
    """The note and its screenshots in a folder of their own, as a user keeps them."""
    shutil.copytree(HARD / "img", tmp_path / "img", dirs_exist_ok=True)
    note = tmp_path / note_name
    note.write_bytes((HARD / note_name).read_bytes())
    return note


def _words(text):
    return re.findall(r"[^\W_]+", text)


# ---------------------------------------------------------------- a heading that holds a link


def test_a_linked_heading_has_a_plain_toc_entry_that_goes_to_its_section(cli, tmp_path):
    note = _copy("linked-headings.md", tmp_path)
    result = cli("render", str(note), "--to", "html", "-o", str(tmp_path / "page.html"))
    assert result.exit_code == 0 and "warning" not in result.stderr
    html = (tmp_path / "page.html").read_text()
    toc = re.search(r'<nav class="toc".*?</nav>', html, re.S).group(0)
    entries = re.findall(r"<li>(.*?)</li>", toc, re.S)
    assert len(entries) == 3
    for entry in entries:  # one link per entry, to a section of the page: no link inside a link
        links = re.findall(r'<a [^>]*href="([^"]+)"', entry)
        assert len(links) == 1 and links[0].startswith("#") and f'id="{links[0][1:]}"' in html
    assert "Async Rust in 2025 — where we are" in toc and "example.org" not in toc
    # the heading itself keeps its link
    assert '<h2><a href="https://example.org/talks/async-rust-2025">Async Rust in 2025</a> — where we are</h2>' in html


def test_a_linked_heading_prints_a_clean_contents_page(cli, tmp_path, weasyprint):
    from pypdf import PdfReader

    note = _copy("linked-headings.md", tmp_path)
    result = cli("render", str(note), "--to", "pdf", "-o", str(tmp_path / "note.pdf"))
    assert result.exit_code == 0
    assert "undefined anchor" not in result.stderr and "warning" not in result.stderr
    first = PdfReader(str(tmp_path / "note.pdf")).pages[0].extract_text()
    contents = first.split("Contents", 1)[1].split("Async Rust in 2025 — where we are\n", 1)[0]
    assert "example.org" not in contents


# ---------------------------------------------------------------- screenshots in a table


def test_images_in_a_table_share_the_room_the_slide_leaves(tmp_path):
    from confnotes.slides.fit import box_height, content_height, images_in

    note = _copy("images-in-table.md", tmp_path)
    deck = rendered_deck(note)
    slide = next(s for s in deck.slides if s.title == "Before and after")
    table = next(e for e in slide.content if getattr(e, "kind", "") == "table")
    assert images_in(table) == 1  # two screenshots side by side: one row of images
    assert 220 <= slide.image_px <= 400
    # the bullets after the table stay on the slide, and the slide fits
    assert [i.text for i in slide.items] == [
        "Forty panels down to six",
        "Every panel answers one question, written as its title",
        "Red only for things a person must act on",
    ]
    assert content_height(slide, slide.scale) <= box_height(slide)


def test_pptx_lays_the_table_s_screenshots_on_their_cells(cli, tmp_path):
    from pptx import Presentation

    note = _copy("images-in-table.md", tmp_path)
    out = tmp_path / "deck.pptx"
    result = cli("render", str(note), "--to", "pptx", "-o", str(out))
    assert result.exit_code == 0 and "warning" not in result.stderr
    slide = next(s for s in Presentation(str(out)).slides if s.shapes.title is not None and s.shapes.title.text == "Before and after")
    table = next(shape for shape in slide.shapes if shape.has_table)
    pictures = [shape for shape in slide.shapes if shape.shape_type == 13]  # MSO_SHAPE_TYPE.PICTURE
    assert [p._element.nvPicPr.cNvPr.get("descr") for p in pictures] == [
        "The old dashboard with 40 panels",
        "The new dashboard with 6 panels",
    ]
    for index, picture in enumerate(pictures):  # each inside its own cell, under the header row
        left = table.left + sum(table.table.columns[c].width for c in range(index))
        top = table.top + table.table.rows[0].height
        assert left <= picture.left and picture.left + picture.width <= left + table.table.columns[index].width
        assert top <= picture.top and picture.top + picture.height <= top + table.table.rows[1].height
    bullets = [shape for shape in slide.shapes if shape.has_text_frame and "Forty panels" in shape.text_frame.text]
    assert bullets and bullets[0].top >= table.top + sum(row.height for row in table.table.rows)


# ---------------------------------------------------------------- a heading holding a paragraph


def test_a_giant_heading_is_cut_and_its_rest_opens_the_slide(tmp_path):
    from confnotes.slides.fit import box_height, content_height

    note = _copy("giant-heading.md", tmp_path)
    deck = rendered_deck(note)
    slides = [s for s in deck.slides if s.title.startswith("What the keynote speaker")]
    assert slides and all(s.title.endswith(" …") and len(s.title) < 120 for s in slides)
    opening = slides[0].content[0]
    assert opening.kind == "paragraph" and opening.text.startswith("… ")
    heading = next(
        n for n in __import__("confnotes.load", fromlist=["load_note"]).load_note(str(note)).doc.sections if n.title.startswith("What")
    )
    # no word lost, none moved: the title's words, then the rest's, are the heading's
    assert _words(slides[0].title) + _words(opening.text) == _words(heading.title)
    for slide in deck.slides:
        assert content_height(slide, slide.scale) <= box_height(slide) + 1, slide.display_title
    agenda = next(s for s in deck.slides if s.kind == "agenda")
    from confnotes.slides.fit import plain
    from confnotes.slides.widths import wrap_count

    entry = agenda.items[1].text  # cut to two lines of an agenda bullet
    assert entry.endswith("…") and wrap_count(plain(entry), 1104 - 33, 30) == 2


def test_render_warns_of_slides_that_do_not_fit_in_lint_s_words(cli, tmp_path):
    note = _copy("giant-heading.md", tmp_path)
    lint = cli("lint", "--no-cache", "--profile", "talk", "--select", "CN306", str(note))
    said = re.findall(r"CN306 slide-overflow (.*)", lint.stdout)
    render = cli("render", str(note), "--to", "slides", "-o", str(tmp_path / "deck.html"))
    warned = re.findall(r"warning: (slide '.*)", render.stderr)
    stress = FIXTURES / "slides" / "stress.md"
    lint_stress = re.findall(
        r"CN306 slide-overflow (.*)", cli("lint", "--no-cache", "--profile", "talk", "--select", "CN306", str(stress)).stdout
    )
    render_stress = cli("render", str(stress), "--to", "outline", "-o", str(tmp_path / "stress.txt")).stderr
    assert warned == said
    assert lint_stress and re.findall(r"warning: (slide '.*)", render_stress) == lint_stress


# ---------------------------------------------------------------- a tall screenshot on paper


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_tall_screenshot_stays_inside_the_page(cli, tmp_path, paper, weasyprint):
    """The PDF as a picture: the 600x1200 phone screenshot (its red) lies inside the page's margins
    (22 mm top, 20 mm bottom, 18 mm sides), whole, at its own aspect."""
    import subprocess

    from PIL import Image
    from pypdf import PdfReader

    from helpers import require_program

    require_program("pdftoppm", install="apt-get install poppler-utils")
    note = _copy("tall-screenshot.md", tmp_path)
    pdf = tmp_path / "note.pdf"
    assert cli("render", str(note), "--to", "pdf", "--paper", paper, "-o", str(pdf)).exit_code == 0
    dpi, shown = 50, []
    for number in range(1, len(PdfReader(str(pdf)).pages) + 1):
        png = subprocess.run(
            ["pdftoppm", "-r", str(dpi), "-f", str(number), "-l", str(number), "-png", str(pdf)], capture_output=True, check=True
        )
        image = Image.open(io.BytesIO(png.stdout)).convert("RGB")
        red = [(x, y) for y in range(image.height) for x in range(image.width) if _near(image.getpixel((x, y)), (140, 60, 60))]
        if not red:
            continue
        mm = dpi / 25.4
        left, right = min(x for x, _ in red), max(x for x, _ in red)
        top, bottom = min(y for _, y in red), max(y for _, y in red)
        assert top >= 22 * mm - 2 and bottom <= image.height - 20 * mm + 2, (paper, top, bottom, image.height)
        assert left >= 18 * mm - 2 and right <= image.width - 18 * mm + 2
        shown.append((right - left + 1) / (bottom - top + 1))
    assert len(shown) == 1 and abs(shown[0] - 0.5) < 0.04  # on one page, whole, aspect kept


def _near(colour, target, tolerance=24):
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target, strict=True))


# ---------------------------------------------------------------- `1. 1. 1.`


def test_one_one_one_is_numbered_one_two_three_in_every_output(cli, tmp_path):
    from pptx import Presentation

    note = _copy("numbered-ones.md", tmp_path)
    shown = {}
    for fmt, name in (
        ("html", "page.html"),
        ("slides", "deck.html"),
        ("outline", "deck.txt"),
        ("marp", "deck.marp.md"),
        ("pptx", "deck.pptx"),
    ):
        assert cli("render", str(note), "--to", fmt, "-o", str(tmp_path / name)).exit_code == 0
    page = (tmp_path / "page.html").read_text()
    shown["html"] = re.findall(r"<li value=\"(\d+)\" style=\"list-style-type: '(\d+)\. '", page)
    assert shown["html"] == [(n, n) for n in "123412"]
    deck = (tmp_path / "deck.html").read_text()
    assert re.findall(r'<span class="num">(\d+)\.</span>', deck) == list("123412")
    assert re.findall(r"^     - (\d)\. ", (tmp_path / "deck.txt").read_text(), re.M) == list("123412")
    assert "1. Install kind and kubectl\n2. Create a cluster" in (tmp_path / "deck.marp.md").read_text()
    numbers = [
        run.text
        for slide in Presentation(str(tmp_path / "deck.pptx")).slides
        for shape in slide.shapes
        if shape.has_text_frame
        for paragraph in shape.text_frame.paragraphs
        for run in paragraph.runs[:1]
        if re.fullmatch(r"\d+\. ", run.text)
    ]
    assert numbers == ["1. ", "2. ", "3. ", "4. ", "1. ", "2. "]


def test_numbering_rule_still_reports_by_its_style(cli, tmp_path):
    note = _copy("numbered-ones.md", tmp_path)
    (tmp_path / "confnotes.toml").write_text('[lint.rules.numbering]\nstyle = "ordered"\n')
    result = cli("lint", "--no-cache", "--select", "CN105", str(note))
    assert result.stdout.count("CN105") == 2  # each list, as written, against the configured style


# ---------------------------------------------------------------- Marp: fences and soft breaks


def test_marp_closes_every_fence_and_runs_soft_breaks_on(cli, tmp_path):
    from markdown_it import MarkdownIt

    note = _copy("marp-edge.md", tmp_path)
    out = tmp_path / "deck.marp.md"
    assert cli("render", str(note), "--to", "marp", "-o", str(out)).exit_code == 0
    text = out.read_text()
    assert "```sh\nmake release\n```\n" in text and "```\n\n```\n" in text
    tokens = MarkdownIt("commonmark").parse(text.split("\n---\n", 1)[1])  # after the front matter
    assert [t.type for t in tokens].count("hr") == len(rendered_deck(note).slides) - 1
    assert "These notes were typed with a line break after every few words, the way a phone keyboard" in text


def test_marp_keeps_hard_breaks_and_quotes_whole():
    from confnotes.render.marp import joined_lines

    assert joined_lines("one\ntwo  \nthree\\\nfour\nfive") == "one two  \nthree\\\nfour five"
    assert joined_lines("> a quote\n> that wraps\n>\n> and a second paragraph") == "> a quote that wraps\n>\n> and a second paragraph"


def test_a_fence_left_open_in_a_list_item_is_closed_with_a_long_enough_fence():
    from confnotes.slides.fit import closed_fence
    from helpers import slide_text

    assert closed_fence(slide_text("```sh\nmake release", "code", "sh")) == "```sh\nmake release\n```"
    assert closed_fence(slide_text("````md\n```\nx\n```\n````", "code", "md")) == "````md\n```\nx\n```\n````"


# ---------------------------------------------------------------- splits


def test_a_lead_in_that_introduces_a_list_is_never_alone_on_a_slide():
    from confnotes.parse import parse
    from confnotes.slides import build_deck

    lead = " ".join(["The team went through three stages before the budgets stuck and each taught them something"] * 5)
    doc = parse(
        f"# T\n\n## Budgets\n\n{lead}:\n\n"
        "- Stage one: set by SRE alone\n- Stage two: agreed per service\n- Stage three: tied to launches\n",
        "t.md",
    )
    slides = [s for s in build_deck(doc).slides if s.title == "Budgets"]
    assert slides[0].content[0].text.endswith(":") and slides[0].items, "the lead-in has its first item with it"


def test_repeated_titles_say_cont_and_split_marks_count_on(cli, tmp_path):
    from confnotes.parse import parse
    from confnotes.slides import build_deck

    code = "\n".join(f"deploy --step {n} --region eu-west-{n % 3} --canary 5%" for n in range(60))
    items = "".join(f"- check {n} before the rollout goes on\n" for n in range(1, 10))
    text = f"# T\n\n## Rollout\n\n{items}\n```sh\n{code}\n```\n\n"
    text += "## Measured\n\n1. Deploys\n\n   Daily.\n\n2. Lead time\n\n   Hours.\n\n- and one more thing\n"
    deck = build_deck(parse(text, "t.md"))
    rollout = [s for s in deck.slides if s.title == "Rollout"]
    assert [(s.part, s.parts) for s in rollout] == [(n, len(rollout)) for n in range(1, len(rollout) + 1)] and len(rollout) > 2
    measured = [s for s in deck.slides if s.title == "Measured"]
    assert measured[-1].display_title == "Measured (cont.)"
    assert sum(not s.continued for s in measured) == 1


# ---------------------------------------------------------------- wide content on the page


@pytest.mark.parametrize("width", [1280, 390])
def test_the_page_never_scrolls_sideways_and_a_wide_table_scrolls_in_its_box(cli, tmp_path, open_page, width):
    wide = []
    for note in sorted(HARD.glob("*.md")):
        copy = _copy(note.name, tmp_path)
        page_file = tmp_path / f"{note.stem}.html"
        assert cli("render", str(copy), "--to", "html", "-o", str(page_file)).exit_code == 0
        page, errors, _ = open_page(page_file, viewport=(width, 800))
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), (note.name, width)
        wide += page.evaluate(
            "[...document.querySelectorAll('.table-scroll')].filter(b => b.scrollWidth > b.clientWidth).length ? [1] : []"
        )
        assert errors == []
    assert wide  # the 10-column table is wider than the page: it scrolls in its own box


@pytest.mark.parametrize("fmt", ["pdf", "slides-pdf", "handout"])
def test_table_headers_never_break_inside_a_word_in_a_pdf(cli, tmp_path, fmt, weasyprint):
    from pypdf import PdfReader

    note = _copy("wide-content.md", tmp_path)
    pdf = tmp_path / "out.pdf"
    assert cli("render", str(note), "--to", fmt, "-o", str(pdf)).exit_code == 0
    text = "\n".join(page.extract_text() for page in PdfReader(str(pdf)).pages)
    header = "Query | Rows scanned before | Rows scanned after | Plan before | Plan after | p50 before (ms) | Index added"
    words = {word for cell in header.split(" | ") for word in cell.split()}
    broken = [word for word in words if not re.search(rf"(?<![\w(-]){re.escape(word)}(?![\w)])", text)]
    assert broken == []


def test_a_tall_screenshot_fits_the_window_on_the_page(cli, tmp_path, open_page):
    """A phone screenshot (600 x 1200) was shown at full height on the page, taller than the window."""
    copy = _copy("tall-screenshot.md", tmp_path)
    page_file = tmp_path / "tall.html"
    assert cli("render", str(copy), "--to", "html", "-o", str(page_file)).exit_code == 0
    page, errors, _ = open_page(page_file, viewport=(1280, 600))
    heights = page.evaluate("[...document.querySelectorAll('img')].map(img => [img.getBoundingClientRect().height, img.naturalHeight])")
    assert heights and all(0 < height <= 0.9 * 600 + 1 for height, _natural in heights), heights
    assert any(natural > 600 for _height, natural in heights)  # the picture is taller than the window
    assert errors == []


COST_TABLE = """# Capacity review

## Cost per service

| Service | Team | Region | Nodes | CPU | Memory | Cost | Share |
|---|---|---|---|---|---|---|---|
| Search and recommendations for the storefront | Discovery | eu-west-1 | 48 | 93.6% | 71.2% | $41,200 | 38% |
| Checkout | Payments | us-east-1 | 22 | 61.0% | 55.4% | $22,900 | 20% |
"""


def test_a_tables_columns_are_shared_by_what_they_hold():
    """Columns were shared equally: "93.6%" broke inside while the long first column had room to give."""
    from confnotes.parse.values import table_value
    from confnotes.slides.fit import table_widths
    from confnotes.slides.widths import text_em

    table = table_value(COST_TABLE.split("\n\n", 2)[2])
    widths = table_widths(table, 22.0, 1104.0)
    assert abs(sum(widths) - 1104.0) < 0.01
    for row in table.all_rows:
        for width, cell in zip(widths, row, strict=True):
            assert all(text_em(word) * 22.0 < width - 20 for word in cell.split()), (cell, width)
    assert widths[0] == max(widths)  # the long first column takes what the others leave


@pytest.mark.parametrize("fmt", ["slides-pdf", "pptx"])
def test_numbers_in_a_wide_table_stay_whole_on_the_slide(cli, tmp_path, fmt, weasyprint):
    note = tmp_path / "capacity.md"
    note.write_text(COST_TABLE, encoding="utf-8")
    out = tmp_path / f"capacity.{fmt}"
    assert cli("render", str(note), "--to", fmt, "-o", str(out)).exit_code == 0
    if fmt == "pptx":
        from pptx import Presentation

        table = next(shape.table for slide in Presentation(str(out)).slides for shape in slide.shapes if shape.has_table)
        widths = [column.width for column in table.columns]
        assert widths[0] == max(widths) and widths[4] < widths[0] / 2  # CPU takes less room than the service's name
        return
    from pypdf import PdfReader

    text = " ".join(page.extract_text() for page in PdfReader(str(out)).pages)
    for number in ("93.6%", "71.2%", "$41,200", "eu-west-1", "Discovery"):
        assert number in text, (number, text)
