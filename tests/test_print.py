"""Documents that print right: themes on paper, pages that fill, code, paper sizes, language and
script, the handout, and tagged PDFs checked by the PDF/UA checker pdfua."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from confnotes.config import Config
from confnotes.load import read_text
from confnotes.render.formats import render_note
from confnotes.render.options import RenderOverrides, resolve_render_options
from conftest import FIXTURES, NOTES
from helpers import require, require_program

STRESS = FIXTURES / "slides" / "stress.md"
EVERY = [STRESS, *sorted(NOTES.glob("*.md")), *sorted((FIXTURES / "real").glob("*.md"))]
MM = 72 / 25.4


def _needs(program: str, package: str) -> None:
    require_program(program, install=f"apt-get install {package}")


def _render(note: Path, fmt: str, tmp_path: Path, **overrides) -> Path:
    """In-process, as ``confnotes render`` does it."""
    text = note.read_text(encoding="utf-8")
    doc = read_text(text, str(note), Config())
    options = resolve_render_options(Config(), doc, RenderOverrides(**overrides))
    data, _ = render_note(doc, fmt, options, note.parent)
    out = tmp_path / f"{note.stem}.{fmt}.{overrides.get('theme', 'default')}.pdf"
    out.write_bytes(data if isinstance(data, bytes) else data.encode())
    return out


def _ink(pdf: Path, page: int = 1) -> int:
    """Pixels far from the page's background colour: what a reader can see on the page."""
    from PIL import Image

    _needs("pdftoppm", "poppler-utils")
    png = subprocess.run(
        ["pdftoppm", "-r", "40", "-gray", "-f", str(page), "-l", str(page), "-png", str(pdf)], capture_output=True, check=True
    ).stdout
    histogram = Image.open(io.BytesIO(png)).convert("L").histogram()
    background = max(range(256), key=lambda value: histogram[value])
    return sum(count for value, count in enumerate(histogram) if abs(value - background) > 80)


@pytest.mark.parametrize("fmt", ["pdf", "handout"])
def test_every_theme_prints_visibly(tmp_path, fmt, weasyprint):
    from confnotes.templating import themes

    note = NOTES / "scale2025.md"
    baseline = _ink(_render(note, fmt, tmp_path, theme="default"))
    for theme in themes():
        ink = _ink(_render(note, fmt, tmp_path, theme=theme))
        assert ink >= 0.6 * baseline, f"{theme}: page 1 has {ink} visible pixels, the default theme {baseline}"


def test_dark_decks_keep_dark_dividers(tmp_path, weasyprint):
    from PIL import Image

    _needs("pdftoppm", "poppler-utils")
    pdf = _render(NOTES / "scale2025.md", "slides-pdf", tmp_path, theme="dark")
    png = subprocess.run(["pdftoppm", "-r", "20", "-gray", "-f", "3", "-l", "3", "-png", str(pdf)], capture_output=True, check=True).stdout
    histogram = Image.open(io.BytesIO(png)).convert("L").histogram()
    mean = sum(value * count for value, count in enumerate(histogram)) / sum(histogram)
    assert mean < 80, "slide 3 (a divider) of the dark deck is dark, not a white flash"


def _fills(pdf: Path) -> list[tuple[float, str]]:
    """Per page: how far down the text area the text reaches (0–1), and the page's first words."""
    _needs("pdftotext", "poppler-utils")
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, check=True).stdout.decode("utf-8", "replace")
    fills = []
    for _, height, body in re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', out, re.S):
        top, bottom = 22 * MM, float(height) - 20 * MM
        words = [(float(y0), float(y1), w) for y0, y1, w in re.findall(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<', body)]
        words = [(a, b, w) for a, b, w in words if a >= top - 2 and b <= bottom + 2]
        last = max((b for _, b, _ in words), default=top)
        first = " ".join(w for _, _, w in sorted(words)[:6])
        fills.append(((last - top) / (bottom - top), first))
    return fills


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pages_fill_before_they_break(tmp_path, paper, weasyprint):
    """No page is less than half full, except a document's last page and a section's last page
    (the next page then opens with a section heading)."""
    from confnotes.load import load_note

    failures = []
    notes = EVERY if paper == "a4" else [STRESS, NOTES / "scale2025.md", FIXTURES / "real" / "session-k8s-scheduler.md"]
    for note in notes:
        pdf = _render(note, "pdf", tmp_path, paper=paper)
        titles = [section.title for section in load_note(str(note)).doc.sections]
        fills = _fills(pdf)
        for index, (fill, _) in enumerate(fills[:-1]):
            next_first = fills[index + 1][1]
            if fill < 0.5 and not any(next_first.startswith(" ".join(title.split()[:3])) for title in titles):
                failures.append(f"{note.name} page {index + 1} is {fill:.0%} full")
    assert failures == []


def test_paper_letter_for_pdf_and_handout(tmp_path, weasyprint):
    from pypdf import PdfReader

    for fmt in ("pdf", "handout"):
        for paper, size in (("letter", (612, 792)), ("a4", (595, 842))):
            box = PdfReader(str(_render(NOTES / "scale2025.md", fmt, tmp_path, paper=paper))).pages[0].mediabox
            assert (round(float(box.width)), round(float(box.height))) == size, (fmt, paper)


def test_code_is_highlighted_and_wrapped_lines_are_marked(cli, tmp_path, weasyprint):
    from helpers import pdf_reading_text

    note = tmp_path / "code.md"
    note.write_text(
        "# Rollout\n\n## Script\n\n```python\n"
        "def rollout(cluster, stage, retries=3, timeout_seconds=600, dry_run=False, notify_channel='#deploys'):\n"
        "    return apply(cluster, stage)\n```\n"
    )
    html = cli("render", str(note), "--to", "html", "-o", "-").stdout
    assert '<span class="k">def</span>' in html and ".highlight .k" in html
    deck = cli("render", str(note), "--to", "slides", "-o", "-").stdout
    assert '<span class="k">def</span>' in deck
    pdf = tmp_path / "code.pdf"
    assert cli("render", str(note), "--to", "pdf", "-o", str(pdf)).exit_code == 0
    text = pdf_reading_text(pdf)
    if text is not None:
        lines = [line for line in text.splitlines() if "notify_channel" in line or "dry_run" in line]
        assert any(line.lstrip().startswith("↪") for line in lines), text
        assert "timeout_seconds=600" in text


def test_language_direction_and_missing_fonts(cli, tmp_path, weasyprint):
    from pypdf import PdfReader

    from confnotes.edges import fonts

    note = tmp_path / "ar.md"
    note.write_text("---\nlang: ar\n---\n# ملاحظات المؤتمر\n\n## الجلسة الأولى\n\nهذه فقرة باللغة العربية.\n\nAn English paragraph.\n")
    html = cli("render", str(note), "--to", "html", "-o", "-").stdout
    assert '<html lang="ar">' in html and '<p dir="rtl">' in html and '<p dir="auto">An English' in html
    pdf = tmp_path / "ar.pdf"
    assert cli("render", str(note), "--to", "pdf", "-o", str(pdf)).exit_code == 0
    assert PdfReader(str(pdf)).trailer["/Root"]["/Lang"] == "ar"
    if shutil.which("pdftotext"):
        out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, check=True).stdout.decode()
        starts = {w: float(x0) for x0, w in re.findall(r'xMin="([\d.]+)" yMin="[\d.]+" xMax="[\d.]+" yMax="[\d.]+">([^<]*)<', out)}
        arabic = [x for w, x in starts.items() if re.search("[\u0600-\u06ff]", w)]
        assert starts["An"] < 100, "the English paragraph starts at the left margin"
        assert arabic and min(arabic) > 250, "short Arabic lines sit against the right margin"
    # a script without a font here (WeasyPrint prints its characters as .notdef boxes): one line
    # naming the package, once per script and note, and no line of WeasyPrint's per character
    require_program("fc-list", install="apt-get install fontconfig")
    samples = {"th": "ภาษาไทยสำหรับการประชุม", "hi": "सम्मेलन के नोट्स", "ko": "안녕하세요 여러분, 회의를 시작합니다"}
    lang = next((lang for lang in samples if not fonts.families(lang)), None)
    require(lang, "this machine has fonts for Thai, Devanagari and Hangul: the missing-font warning needs a script without one")
    name, _lang, _chars, package = next(script for script in fonts.SCRIPTS if script[1] == lang)
    other = tmp_path / "other.md"
    other.write_text(f"# Notes\n\n## Summary\n\n{samples[lang]}\n\n{samples[lang]} again, with ᱚᱞ ᱪᱤᱠᱤ.\n")
    result = cli("render", str(other), "--to", "pdf", "-o", str(tmp_path / "other.pdf"))
    lines = [line for line in result.stderr.splitlines() if f"no font for {name}" in line]
    assert len(lines) == 1 and f"apt-get install {package}" in lines[0]
    assert sum(1 for line in result.stderr.splitlines() if ".notdef" in line) == 0
    # a note whose every character has a font says nothing about fonts
    quiet = cli("render", str(note), "--to", "pdf", "-o", str(tmp_path / "ar2.pdf"))
    assert "font" not in quiet.stderr


def test_missing_glyph_warnings_name_each_script_once():
    from confnotes.edges.fonts import missing_glyph_warnings

    lines = missing_glyph_warnings(["안", "녕", "ภ", "🎉", "ᱚ", "ᱞ"])
    assert lines[0].startswith("no font for Hangul text") and "apt-get install fonts-noto-cjk" in lines[0]
    assert lines[1].startswith("no font for Thai text") and "apt-get install fonts-thai-tlwg" in lines[1]
    assert lines[2].startswith("no font for Emoji text") and "apt-get install fonts-noto-color-emoji" in lines[2]
    assert lines[3].startswith("2 characters have no font on this machine and print as empty boxes: ᱚ ᱞ")
    assert "fonts-noto-core" in lines[3] and "doctor" not in lines[3]
    assert len(lines) == 4
    assert missing_glyph_warnings([]) == []
    assert missing_glyph_warnings(["ᱚ"])[0].startswith("1 character has no font on this machine and prints as empty boxes: ᱚ")
    assert missing_glyph_warnings(["🇫"])[0].startswith("no font for Emoji text")  # a flag's letters


def test_handout_per_page_and_notes_that_flow(cli, tmp_path, weasyprint):
    from pypdf import PdfReader

    from helpers import pdf_reading_text

    note = tmp_path / "talk.md"
    long_note = " ".join(f"Sentence {n} of the speaker's long story about the outage." for n in range(60))
    note.write_text(
        f"# Talk\n\n## Part\n\n- point one\n\n<!-- notes: {long_note} -->\n\n## Second\n\n- point two\n\n## Third\n\n- point three\n"
    )
    counts = {}
    for per_page in (1, 2, 3):
        out = tmp_path / f"h{per_page}.pdf"
        assert cli("render", str(note), "--to", "handout", "--per-page", str(per_page), "-o", str(out)).exit_code == 0
        counts[per_page] = len(PdfReader(str(out)).pages)
    assert counts[1] > counts[2] >= counts[3]
    text = pdf_reading_text(tmp_path / "h3.pdf")
    if text is not None:
        assert "Sentence 59 of the speaker's long story" in " ".join(text.split()), "notes flow on, never cut"


@pytest.mark.parametrize("note", EVERY, ids=lambda p: p.name)
def test_pdfs_pass_the_pdf_ua_checker(tmp_path, note, weasyprint):
    """pdfua (a machine-checkable subset of PDF/UA-1): 0 errors on the document, slides PDF and
    handout; the slides PDF has one page per slide."""
    from pdfua import Severity, validate
    from pypdf import PdfReader

    from confnotes.load import load_note
    from confnotes.slides import DeckOptions, build_deck

    for fmt in ("pdf", "slides-pdf", "handout"):
        pdf = _render(note, fmt, tmp_path)
        errors = [f for f in validate(str(pdf)).findings if f.severity == Severity.ERROR]
        assert errors == [], f"{fmt}: {[(f.rule_id, f.message) for f in errors][:3]}"
        if fmt == "slides-pdf":  # and the slides PDF has exactly a page per slide of the deck
            deck = build_deck(load_note(str(note)).doc, DeckOptions(image_root=str(note.parent)))
            assert len(PdfReader(str(pdf)).pages) == len(deck.slides)


def test_contents_leaders_keep_clear_and_numbers_line_up(tmp_path, weasyprint):
    _needs("pdftotext", "poppler-utils")
    note = tmp_path / "reading.md"
    note.write_text(
        "---\ntitle: Reading list\n---\n# Reading list\n\n## Attention Is All You Need\n\nText.\n\n"
        "## Efficient Memory Management for Large Language Model Serving with PagedAttention, and a subtitle long enough to wrap\n\n"
        "Text.\n\n## FlashAttention\n\nText.\n"
    )
    pdf = _render(note, "pdf", tmp_path)
    out = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", str(pdf), "-"], capture_output=True, check=True).stdout.decode()
    words = [
        (float(x0), float(y0), float(x1), w)
        for x0, y0, x1, w in re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<', out)
    ]
    lines: dict[int, list[tuple[float, float, str]]] = {}
    for x0, y0, x1, w in words:
        lines.setdefault(round(y0), []).append((x0, x1, w))
    leader_lines = [sorted(line) for line in lines.values() if sum(1 for _, _, w in line if w == ".") >= 5]
    assert len(leader_lines) == 3
    numbers = []
    for line in leader_lines:
        texts = [(x0, x1, w) for x0, x1, w in line if w != "."]
        dots = [x0 for x0, _, w in line if w == "."]
        last_text = max(x1 for x0, x1, w in texts if x0 < dots[0])
        assert dots[0] - last_text >= 4, "the first leader dot keeps clear of the entry"
        numbers.append(texts[-1][1])
    assert max(numbers) - min(numbers) < 1, "page numbers line up"
    heading = next(w for w in words if w[3] == "Contents")
    assert heading[0] - 51 >= 10, "the frame is padded"


def test_tagged_pdf_table_headers_and_link_descriptions(tmp_path, weasyprint):
    from pypdf import PdfReader

    note = tmp_path / "t.md"
    note.write_text(
        "# Results\n\n## Numbers\n\n| Engine | p95 (ms) |\n|---|---|\n| A | 12 |\n\n"
        "See [the benchmark notes](https://example.org/bench) and [Numbers](#numbers).\n\n## More\n\nText.\n"
    )
    reader = PdfReader(str(_render(note, "pdf", tmp_path)))
    scopes, stack = [], [reader.trailer["/Root"]["/StructTreeRoot"]]
    while stack:
        node = stack.pop()
        node = node.get_object() if hasattr(node, "get_object") else node
        if isinstance(node, dict):
            if node.get("/S") == "/TH":
                scopes.append(node["/A"].get_object().get("/Scope"))
            if "/K" in node:
                stack.append(node["/K"])
        elif isinstance(node, list):
            stack.extend(node)
    assert scopes == ["/Column", "/Column"]
    contents = [annot.get_object().get("/Contents") for page in reader.pages for annot in page.get("/Annots", [])]
    assert "the benchmark notes (https://example.org/bench)" in contents
    assert "Numbers" in contents and "numbers" not in contents, "a link inside the page is described by its text, not its slug"


def test_a_wide_table_stays_inside_the_margins(tmp_path, weasyprint):
    _needs("pdftotext", "poppler-utils")
    for paper in ("a4", "letter"):
        pdf = _render(STRESS, "pdf", tmp_path, paper=paper)
        out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, check=True).stdout.decode("utf-8", "replace")
        width = float(re.search(r'<page width="([\d.]+)"', out).group(1))
        right = max(float(x) for x in re.findall(r'xMax="([\d.]+)"', out))
        assert right <= width - 18 * MM + 1, f"{paper}: text reaches {right:.0f} of {width:.0f} pt"
        assert "r18c12" in out, "the table's last cell is printed"


def test_a_handout_lays_out_no_flex_box(cli, tmp_path, monkeypatch, processes):
    """A handout's rows were flex boxes (the slide, then its notes): WeasyPrint measured every
    slide's and note's narrowest and widest widths for each one, three quarters of a long
    handout's layout (3x its slides PDF; 11x on one long real note). The slide now floats beside
    its notes, which WeasyPrint lays out in one pass, and the handout lays out no flex box at all,
    on any paper and any number of slides a page."""
    from pypdf import PdfReader
    from weasyprint.layout import block, flex

    from helpers import pdf_reading_text

    laid_out = []
    real = flex.flex_layout

    def counted(*args, **kwargs):
        laid_out.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(block, "flex_layout", counted)
    note = tmp_path / "talk.md"
    story = " ".join(f"Sentence {n} about the incident." for n in range(40))
    note.write_text(f"# Talk\n\n## Part\n\n- point one\n  - detail\n\n<!-- notes: {story} -->\n\n## Second\n\n- point two\n")
    for per_page in (1, 2, 3):
        out = tmp_path / f"h{per_page}.pdf"
        assert cli("render", str(note), "--to", "handout", "--per-page", str(per_page), "-o", str(out)).exit_code == 0
        assert len(PdfReader(str(out)).pages) >= 1
    assert laid_out == [], f"{len(laid_out)} flex layouts in three handouts"
    text = pdf_reading_text(tmp_path / "h3.pdf")
    if text is not None:  # the notes beside their slide, whole
        assert "Sentence 39 about the incident." in " ".join(text.split())
