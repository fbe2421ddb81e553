"""TeX math in notes: ``$…$`` and ``$$…$$`` typeset in every output, kept verbatim by outline and fmt.

The fixtures in ``fixtures/directed`` are talks written the way pandoc, Marp and Quarto users
write math: inline symbols in bullets, display formulas between them, prices beside formulas, a
typo in one formula.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURES
from helpers import pdf_reading_text, rendered, require_marp, source_words
from strategies import examples

DIRECTED = FIXTURES / "directed"
ML = DIRECTED / "ml-calibration.md"
QUEUES = DIRECTED / "little-law.md"


# ---------------------------------------------------------------- reading: outline and fmt


def test_a_display_formula_is_one_math_block_whose_lines_are_never_a_list():
    from confnotes.model import Block, walk_content
    from confnotes.parse import parse

    doc = parse("# Talk\n\n## Loss\n\nThe loss:\n\n$$\nL = a\n- b\n+ c\n$$\n\n- an item\n")
    blocks = [entry for entry in walk_content(doc.content) if type(entry) is Block]
    assert [(block.kind, block.text) for block in blocks] == [("paragraph", "The loss:"), ("math", "$$\nL = a\n- b\n+ c\n$$")]
    assert len(doc.sections[0].items) == 1


@pytest.mark.parametrize("note", [ML, QUEUES], ids=lambda path: path.stem)
def test_fmt_keeps_every_formula_byte_for_byte(cli, tmp_path, note):
    copy = tmp_path / note.name
    copy.write_bytes(note.read_bytes())
    result = cli("fmt", str(copy))
    assert result.exit_code == 0, result.stderr
    formulas = re.compile(r"\$\$.*?\$\$|\$[^$\s][^$]*?\$", re.S)
    assert formulas.findall(copy.read_text(encoding="utf-8")) == formulas.findall(note.read_text(encoding="utf-8"))
    assert source_words(copy.read_text(encoding="utf-8")) == source_words(note.read_text(encoding="utf-8"))


def test_outline_json_keeps_formulas_in_place(cli):
    import json

    result = cli("outline", str(ML), "--format", "json")
    data = json.loads(result.stdout)
    dumped = json.dumps(data, ensure_ascii=False)
    order = [dumped.index(piece) for piece in (r"\\mathcal{L}(\\theta)", r"\\mathrm{ECE}", r"\\hat{q}_i", r"\\begin{pmatrix}", r"p<0.05")]
    assert order == sorted(order)
    assert '"kind": "math"' in dumped


# ---------------------------------------------------------------- the page: MathML, and prices stay prices


def test_an_operator_name_latex2mathml_does_not_know_is_written_as_its_name():
    from confnotes.markup.math import mathml

    assert "<mi>arg</mi>" in mathml(r"\arg\max_k z_i", False) and "\\arg" not in mathml(r"\arg\max_k z_i", False)


def test_the_page_typesets_math_as_mathml_and_leaves_prices_alone(cli, tmp_path):
    out = tmp_path / "ml.html"
    result = rendered(cli, ML, "html", out)
    html = out.read_text(encoding="utf-8")
    assert html.count('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">') == 3
    assert html.count('display="inline"') >= 8
    assert "$5 per 1,000 predictions, now $12" in html  # prices are text
    assert '<code class="math-error"' in html and r"$\frac{p}{$" in html
    warnings = [line for line in result.stderr.splitlines() if "math not typeset" in line]
    assert len(warnings) == 1 and "a { is never closed" in warnings[0]
    assert "<mi>p</mi><mo>&lt;</mo><mn>0.05</mn>" in html  # p<0.05 is a formula, not a tag


def test_chromium_lays_out_the_mathml_of_the_page(cli, tmp_path, open_page):
    out = tmp_path / "ml.html"
    rendered(cli, ML, "html", out)
    page, errors, requests = open_page(out)
    assert not errors and not requests
    boxes = page.eval_on_selector_all(
        "math", "nodes => nodes.map(n => [n.getBoundingClientRect().width, n.getBoundingClientRect().height])"
    )
    assert len(boxes) >= 11 and all(width > 4 and height > 8 for width, height in boxes)
    fraction = page.eval_on_selector("math[display=block] mfrac", "n => n.getBoundingClientRect().height")
    assert fraction > 30  # a real fraction: numerator over denominator, not a line of text


# ---------------------------------------------------------------- print: SVG in the text's colour


def test_the_pdf_draws_formulas_as_vectors_in_the_themes_ink(cli, tmp_path, weasyprint):
    from confnotes.render.markdown import InlineRenderer

    printed = InlineRenderer(printed=True)
    html = str(printed.blocks("The loss $\\mathcal{L}$ and\n\n$$\n\\frac{a}{b}\n$$\n"))
    assert html.count("<svg ") == 2 and 'fill="#1d2430"' in html and "currentColor" not in html  # WeasyPrint draws currentColor black
    assert 'aria-label="\\mathcal{L}"' in html and "vertical-align:" in html
    out = tmp_path / "ml.pdf"
    rendered(cli, ML, "pdf", out)
    text = pdf_reading_text(out)
    assert "rewards confidence, not honesty" in text and "$5 per 1,000 predictions" in text
    assert "\\mathcal" not in text  # typeset, not printed as TeX
    assert "$\\frac{p}{$" in text  # the typo, shown as written


def test_a_dark_themed_slides_pdf_draws_formulas_in_the_themes_ink(cli, tmp_path, weasyprint):
    out = tmp_path / "q.slides.pdf"
    rendered(cli, QUEUES, "slides-pdf", out, "--theme", "dark")
    pages = _png_pages(out, tmp_path, first=3, last=3)
    from PIL import Image

    image = Image.open(pages[0]).convert("L")
    # the formula L = λW sits in the middle of the slide, drawn light on the dark paper
    width, height = image.size
    middle = image.crop((width // 3, height // 4, 2 * width // 3, height // 2))
    assert middle.getextrema()[1] > 180, "no light ink where the formula is"


def _png_pages(pdf: Path, folder: Path, first: int, last: int) -> list[Path]:
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm not installed: apt-get install poppler-utils")
    subprocess.run(["pdftoppm", "-r", "40", "-f", str(first), "-l", str(last), "-png", str(pdf), str(folder / "page")], check=True)
    return sorted(folder.glob("page-*.png"))


# ---------------------------------------------------------------- slides: measured, and the same in every deck


def test_the_fit_engine_measures_a_formula_by_its_drawing():
    from confnotes.slides.fit import entry_height
    from helpers import slide_text

    flat = slide_text("$$\nL = \\lambda W\n$$", "math")
    tall = slide_text("$$\n\\begin{pmatrix} a \\\\ b \\\\ c \\\\ d \\end{pmatrix}\n$$", "math")
    as_text = slide_text("L = \\lambda W", "paragraph")
    assert entry_height(tall, 1.0) > 2.5 * entry_height(flat, 1.0)
    assert entry_height(flat, 1.0) < 1.5 * entry_height(as_text, 1.0)


def test_the_slides_pdf_shows_every_formula_and_nothing_overflows(cli, tmp_path, weasyprint):
    from confnotes.slides.fit import overflowing
    from helpers import rendered_deck

    deck = rendered_deck(ML)
    assert not overflowing(deck.slides)
    kinds = [entry.kind for slide in deck.slides for entry in slide.content if hasattr(entry, "kind") and entry.kind == "math"]
    assert len(kinds) == 3
    out = tmp_path / "ml.slides.pdf"
    rendered(cli, ML, "slides-pdf", out)
    text = pdf_reading_text(out)
    assert "\\begin{pmatrix}" not in text and "Dirichlet calibration" in text


def test_pptx_shows_display_formulas_as_pictures_and_inline_ones_as_text(cli, tmp_path):
    from pptx import Presentation

    out = tmp_path / "ml.pptx"
    rendered(cli, ML, "pptx", out)
    prs = Presentation(str(out))
    pictures = [shape for slide in prs.slides for shape in slide.shapes if shape.shape_type == 13]
    alts = [picture._element.nvPicPr.cNvPr.get("descr") for picture in pictures]
    assert len([alt for alt in alts if alt.startswith("$$")]) == 3
    assert any("\\mathrm{ECE}" in alt for alt in alts)
    texts = " ".join(shape.text_frame.text for slide in prs.slides for shape in slide.shapes if shape.has_text_frame)
    assert "Cross-entropy ℒ(θ) = − ∑ᵢyᵢ log ŷᵢ rewards confidence" in texts
    typo = next(
        run
        for slide in prs.slides
        for shape in slide.shapes
        if shape.has_text_frame
        for p in shape.text_frame.paragraphs
        for run in p.runs
        if "frac{p}" in run.text
    )
    assert typo.text == "$\\frac{p}{$" and typo.font.name == "DejaVu Sans Mono"  # as code, as every output shows it
    assert "$\\mathcal" not in texts  # inline math is written as text a reader reads, not as TeX
    assert "2K parameters for K classes" in texts
    with zipfile.ZipFile(out) as archive:
        media = [name for name in archive.namelist() if name.startswith("ppt/media/")]
        from PIL import Image

        sizes = [Image.open(io.BytesIO(archive.read(name))).size for name in media]
    assert all(width >= 150 for width, _ in sizes)  # drawn at three times its size: sharp when projected


def test_inline_math_in_plain_text_reads_as_a_person_would_write_it():
    from confnotes.markup.math import linear

    assert linear("x^2 + y^2 = r^2") == "x² + y² = r²"
    assert linear(r"\frac{a}{b}") == "a/b"
    assert linear(r"\theta_i") == "θᵢ"
    assert linear(r"\sqrt{x^2+1}") == "√(x² + 1)"
    assert linear(r"O(n \log n)") == "O(n log n)"
    assert linear(r"\log \hat{y}_i") == "log ŷᵢ" and linear(r"\bar{W}") == "W̄"  # an accent is kept: ŷ is not y
    assert linear(r"\sqrt[n]{0.99}") == "ⁿ√(0.99)"  # the root's index too
    assert linear(r"\arg\max_k z") == "arg maxₖz"  # an operator latex2mathml does not know: its name, no backslash
    assert linear(r"\frac{p}{") == r"\frac{p}{"  # unreadable: as written


def test_marp_gets_formulas_it_can_typeset_and_never_html_in_them(cli, tmp_path):
    out = tmp_path / "ml.marp.md"
    result = rendered(cli, ML, "marp", out)
    text = out.read_text(encoding="utf-8")
    assert "math: mathjax" in text
    assert "$p\\lt 0.05$" in text  # not "<0.05": a reader of the Markdown could take "<0" for a tag
    assert "`$\\frac{p}{$`" in text  # shown as code, as every other output shows it
    assert "$5 per 1,000 predictions, now $12" in text
    assert "math not typeset" in result.stderr


def test_marp_cli_typesets_every_formula_with_no_network(tmp_path, cli, processes):
    marp = require_marp()
    deck = tmp_path / "ml.marp.md"
    rendered(cli, ML, "marp", deck)
    html = tmp_path / "ml.marp.html"
    subprocess.run([marp, "--no-stdin", str(deck), "-o", str(html)], check=True, capture_output=True, timeout=180)
    page = html.read_text(encoding="utf-8")
    assert page.count('<mjx-container class="MathJax" jax="SVG" display="true"') == 3
    assert page.count('<mjx-container class="MathJax" jax="SVG">') >= 8
    assert "data-mjx-error" not in page


# ---------------------------------------------------------------- bad input: bounded, one line each


@pytest.mark.parametrize(
    "tex, reason",
    [
        ("x" * 5000, "5,000 characters"),
        ("{" * 60 + "x" + "}" * 60, "nested 60 levels deep"),
        ("\\left( x", "a \\left has no \\right"),
        ("x^", "a ^ or _ has nothing after it"),
    ],
    ids=["long", "deep", "left", "script"],
)
def test_unreadable_tex_is_one_warning_and_shown_as_code(tex, reason):
    from confnotes.render.markdown import InlineRenderer

    for printed in (False, True):
        renderer = InlineRenderer(printed=printed)
        html = str(renderer.inline(f"see ${tex}$ here"))
        assert '<code class="math-error"' in html
        assert len(renderer.warnings) == 1 and reason in renderer.warnings[0]


def test_an_unterminated_display_formula_stays_text(cli, tmp_path):
    note = tmp_path / "open.md"
    note.write_text("# Talk\n\n## Loss\n\n$$\nL = \\sum_i x_i\n\n- an item after it\n", encoding="utf-8")
    out = tmp_path / "open.html"
    rendered(cli, note, "html", out)
    html = out.read_text(encoding="utf-8")
    assert "<math" not in html and "$$" in html and "an item after it" in html


# ---------------------------------------------------------------- one reading of where a formula is


@settings(max_examples=examples(400), deadline=None)
@given(st.text(alphabet="$ ab1\\{}<.", max_size=14))
def test_marp_output_cuts_formulas_where_the_renderer_reads_them(text):
    from confnotes.markup.math import math_pieces
    from confnotes.parse.markdown import render_parser

    md = _RENDER.get("md") or _RENDER.setdefault("md", render_parser())
    read = [child.content for token in md.parseInline(text) for child in token.children or [] if child.type.startswith("math")]
    cut = [
        piece[2:-2] if piece.startswith("$$") and len(piece) > 3 and piece.endswith("$$") else piece[1:-1]
        for math, piece in math_pieces(text)
        if math
    ]
    assert cut == read
    assert "".join(piece for _, piece in math_pieces(text)) == text


_RENDER: dict[str, object] = {}


def test_a_formula_at_the_start_of_a_line_is_math_whatever_the_line_ends_with():
    """mdit-py-plugins' dollarmath reads the text's last character as the one before its first:
    "$x$ costs 5" would not be math. confnotes reads it as pandoc does."""
    from confnotes.render.markdown import InlineRenderer

    renderer = InlineRenderer()
    for text in ("$x$ costs 5", "$x$ ends in \\", "\\\\$x$ after an escaped backslash, ending in 5"):
        assert "<math" in str(renderer.inline(text)), text


def test_words_around_formulas_keep_their_order_in_the_page(cli, tmp_path):
    from helpers import assert_words_in_order, page_words

    out = tmp_path / "q.html"
    rendered(cli, QUEUES, "html", out)
    source = QUEUES.read_text(encoding="utf-8")
    prose = "".join(" " if math else piece for math, piece in _formula_pieces(source))
    assert_words_in_order(source_words(prose), page_words(out.read_text(encoding="utf-8")), "the page")


def _formula_pieces(text: str) -> list[tuple[bool, str]]:
    from confnotes.markup.math import math_pieces

    return math_pieces(text)


def test_a_rebuild_takes_its_formulas_from_the_cache_and_imports_no_typesetter(tmp_path, processes):
    import os
    import sys

    probe = (
        "import sys; from confnotes.cli import main\n"
        "try: main(['render', sys.argv[1], '--to', sys.argv[2], '-o', sys.argv[3]])\n"
        "except SystemExit: pass\n"
        "print(sorted(name for name in ('latex2mathml', 'ziamath') if name in sys.modules))"
    )
    env = {**os.environ, "CONFNOTES_CACHE_DIR": str(tmp_path / "cache")}
    seen = []
    runs = (("slides", "a.slides.html"), ("slides", "b.slides.html"), ("slides-pdf", "c.slides.pdf"), ("slides-pdf", "d.slides.pdf"))
    for to, out in runs:
        done = subprocess.run([sys.executable, "-c", probe, str(ML), to, str(tmp_path / out)], capture_output=True, text=True, env=env)
        seen.append(done.stdout.strip().splitlines()[-1])
    assert seen[0] == "['latex2mathml', 'ziamath']"  # the first run typesets (the fit engine measures by the drawing)
    assert seen[1] == "[]"  # the second, nothing: MathML and sizes from .confnotes_cache/math
    assert seen[3] == "[]"  # a PDF again: its drawings too
    assert (tmp_path / "b.slides.html").read_bytes() == (tmp_path / "a.slides.html").read_bytes()


def test_a_binomial_in_a_line_of_text_reads_as_one_not_as_a_division():
    """Where a formula is a line of text (PPTX's inline math, the outline), ``\\binom{n}{k}`` was
    ``(n/k)``, a division; it is ``(n k)`` now, the numbers one beside the other as they stand."""
    from confnotes.markup.math import linear

    assert linear(r"\binom{n}{k} p^k") == "(n k)p^k" and linear(r"\frac{n}{k}") == "n/k"
