"""The parity matrix of docs/slides.md: each feature of a directed slide × {HTML deck, slides PDF,
PPTX}, every cell checked on a realistic talk (``fixtures/directed``) in the file a speaker gets.

A cell passes when the feature's effect is there to see: in the HTML deck the elements it makes,
in the slides PDF where its words stand or how its page looks (pdftotext, pdftoppm), in the PPTX
the shapes python-pptx reads back (editable text where it is text)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from conftest import FIXTURES
from helpers import copied_note, rendered_deck, require_program

DIRECTED = FIXTURES / "directed"
FEATURES = {  # feature: the talk that shows it, and the slide it is on
    "columns": ("golden-path-columns.md", "Before and after"),
    "layouts": ("keynote-stage.md", "The architecture we drew on a whiteboard"),
    "incremental": ("incident-review-steps.md", "Timeline"),
    "footnotes": ("postgres-on-k8s.md", "The operator question"),
    "math": ("ml-calibration.md", "Why calibration"),
    "diagrams": ("zero-downtime.md", "The rollout"),
    "directives": ("keynote-directed.md", "The Boring Platform"),
}
OUTPUTS = ("slides", "slides-pdf", "pptx")
_made: dict[tuple[str, str, tuple[str, ...]], Path] = {}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("parity")


def _render(cli, folder: Path, name: str, to: str, *extra: str) -> Path:
    from confnotes.render.formats import output_format

    key = (name, to, extra)
    if key not in _made:
        note = copied_note(DIRECTED / name, folder)
        out = folder / f"{note.stem}{'-steps' if extra else ''}{output_format(to).suffix}"
        result = cli("render", str(note), "--to", to, "-o", str(out), *extra)
        assert result.exit_code == 0, result.stderr
        _made[key] = out
    return _made[key]


def _number(name: str, title: str) -> int:
    deck = rendered_deck(DIRECTED / name)
    return next(index for index, slide in enumerate(deck.slides, 1) if slide.title == title and not slide.continued)


def _section(html: str, number: int) -> str:
    """The HTML deck's ``<section>`` of slide ``number``."""
    start = html.index(f'id="slide-{number}"')
    return html[html.rindex("<section", 0, start) : html.index("</section>", start)]


def _words(pdf: Path, number: int) -> list[tuple[float, float, str]]:
    require_program("pdftotext", install="apt-get install poppler-utils")
    bbox = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(number), "-l", str(number), str(pdf), "-"], capture_output=True, text=True, check=True
    )
    return [
        (float(x), float(y), word) for x, y, word in re.findall(r'<word xMin="([\d.-]+)" yMin="([\d.-]+)"[^>]*>([^<]*)</word>', bbox.stdout)
    ]


def _page_mean(pdf: Path, number: int, box: tuple[float, float, float, float]) -> float:
    from PIL import Image, ImageStat

    require_program("pdftoppm", install="apt-get install poppler-utils")
    prefix = pdf.with_name(f"{pdf.stem}-page{number}")
    subprocess.run(["pdftoppm", "-r", "24", "-png", "-f", str(number), "-l", str(number), str(pdf), str(prefix)], check=True)
    picture = Image.open(next(pdf.parent.glob(f"{prefix.name}*.png"))).convert("L")
    w, h = picture.size
    return ImageStat.Stat(picture.crop((int(box[0] * w), int(box[1] * h), int(box[2] * w), int(box[3] * h)))).mean[0]


def _slide_shapes(pptx: Path, number: int):
    from pptx import Presentation

    prs = Presentation(str(pptx))
    return prs, list(prs.slides)[number - 1]


# ------------------------------------------------------------------ each cell


def _deck_cell(feature: str, html: str) -> None:
    if feature == "columns":
        assert html.count('class="slide-column"') == 2 and "slide-columns" in html
    elif feature == "layouts":
        assert "layout-image-left" in html and 'class="text text-image layout-picture"' in html
    elif feature == "incremental":
        assert len(re.findall(r'<li class="[^"]*\bfragment\b[^"]*" data-step="\d+"', html)) == 5
    elif feature == "footnotes":
        assert 'class="slide-footnotes"' in html and "CloudNativePG: 11 s" in html
    elif feature == "math":
        assert "<math" in html and "\\mathrm{ECE}" not in html.split("<annotation")[0]
    elif feature == "diagrams":
        assert "text-diagram" in html and "data:image/svg+xml" in html
    elif feature == "directives":
        assert 'style="background: #0b1f3a"' in html and "on-dark" in html


def _pdf_cell(feature: str, pdf: Path, number: int, cli, folder: Path) -> None:
    words = _words(pdf, number)
    text = " ".join(word for _, _, word in words)
    if feature == "columns":
        at = {word: x for x, _, word in words}
        assert at["After"] > at["Before"] + 200  # side by side on the page
    elif feature == "layouts":
        assert _page_mean(pdf, number, (0, 0, 0.38, 1)) < 245 and min(x for x, _, word in words if word == "Checkout") > 0.4 * 960
    elif feature == "incremental":
        steps = _render(cli, folder, FEATURES[feature][0], "slides-pdf", "--steps")
        from pypdf import PdfReader

        pages = [page.extract_text() for page in PdfReader(str(steps)).pages]
        assert sum(1 for page in pages if page.startswith("Timeline")) == 6  # none of its five items, then one more a page
    elif feature == "footnotes":
        assert "CloudNativePG:" in text and "Patroni:" in text  # the note at the foot of its slide's page
    elif feature == "math":
        assert "ECE" not in text and "\\mathrm" not in text and "confidence" in text  # drawn, not printed as TeX
    elif feature == "diagrams":
        assert "digraph" not in text and "rankdir" not in text and "Canary" in text
    elif feature == "directives":
        assert _page_mean(pdf, number, (0, 0, 1, 1)) < 90  # the dark background colour


def _pptx_cell(feature: str, pptx: Path, number: int) -> None:
    prs, slide = _slide_shapes(pptx, number)
    texts = {shape.text_frame.text: shape for shape in slide.shapes if shape.has_text_frame}
    pictures = [shape for shape in slide.shapes if shape.shape_type == 13]
    if feature == "columns":
        before = next(shape for text, shape in texts.items() if text.startswith("Before\n") or text == "Before")
        after = next(shape for text, shape in texts.items() if text.startswith("After\n") or text == "After")
        assert after.left >= before.left + before.width  # two boxes side by side, both editable text
    elif feature == "layouts":
        assert pictures and pictures[0].left == 0 and pictures[0].height == prs.slide_height
    elif feature == "incremental":
        frame = next(shape for text, shape in texts.items() if "09:12" in text).text_frame
        assert len(frame.paragraphs) == 5 and "<p:timing" not in slide.part.blob.decode("utf-8")  # the whole list, no animation
    elif feature == "footnotes":
        assert any("CloudNativePG: 11 s" in text for text in texts)
    elif feature == "math":
        assert any(picture._element.nvPicPr.cNvPr.get("descr", "").startswith("$$\\mathrm{ECE}") for picture in pictures)
    elif feature == "diagrams":
        assert any(picture._element.nvPicPr.cNvPr.get("descr", "").startswith("Graphviz") for picture in pictures)
    elif feature == "directives":
        assert str(slide.background.fill.fore_color.rgb) == "0B1F3A"


@pytest.mark.parametrize("to", OUTPUTS)
@pytest.mark.parametrize("feature", FEATURES)
def test_every_cell_of_the_parity_matrix(cli, folder, feature, to, processes, weasyprint):
    if feature == "diagrams":
        require_program("dot", install="apt-get install graphviz")
    name, title = FEATURES[feature]
    number = _number(name, title)
    out = _render(cli, folder, name, to)
    if to == "slides":
        _deck_cell(feature, _section(out.read_text(encoding="utf-8"), number))
    elif to == "slides-pdf":
        _pdf_cell(feature, out, number, cli, folder)
    else:
        _pptx_cell(feature, out, number)
