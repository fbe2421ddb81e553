"""The matrix's model invariant: every kind of block the model types (``confnotes.model.values``)
shows in every output in that output's own form — a table as a table, a formula typeset, a diagram
drawn, a callout as a titled box — or is listed in docs/slides.md's table of what an output cannot
show, and says so in a warning where that table says it does.

One talk holds a block of each kind, the way people write them; it is rendered once in each of the
matrix's nine outputs. A PDF's form is read from the HTML WeasyPrint lays out (caught on its way
to the printer), and its words from the PDF itself. A new typed value without a row in ``KINDS``
fails ``test_every_typed_value_has_a_kind_here``.
"""

from __future__ import annotations

import base64
import dataclasses
import re
import zipfile
from pathlib import Path

import pytest

from helpers import pdf_text
from test_diagrams import _tools
from test_matrix import FORMATS

ROOT = Path(__file__).resolve().parent.parent

#: a block of each kind, and the typed value ``parse`` reads it as
KINDS = {
    "table": ("Table", "| Region | p99 (ms) |\n|:---|---:|\n| eu-west | 240 |\n| us-east | 310 |"),
    "code": ("Code", "```python\ndef rollout(stages):\n    return all(healthy(s) for s in stages)\n```"),
    "diagram": ("Diagram", "```mermaid\ngraph LR\n  A[Write] --> B[Ship]\n```"),
    "formula": ("Math", "$$\n\\mathrm{ECE} = \\sum_{m=1}^{M} \\frac{|B_m|}{n}\n$$"),
    "quote": ("Quote", "> Ship small changes often.\n>\n> - one region first\n> - then half"),
    "callout": ("Callout", "> [!WARNING] Mind the pager\n> Never deploy on a Friday afternoon."),
    "picture": ("Pictures", "![Latency chart](chart.png)"),
}
#: the words each kind must keep in every output, whatever its form
WORDS = {
    "table": "eu-west",
    "code": "rollout",
    "diagram": "",  # a drawing's labels are in its picture (each form checks them)
    "formula": "",
    "quote": "one region first",
    "callout": "Mind the pager",
    "picture": "",
}
#: how docs/slides.md names each output in its table (a row for "every deck" counts for each deck)
NAMES = {
    "html": ("HTML page",),
    "pdf": ("PDF",),
    "slides": ("HTML deck", "every deck"),
    "slides-pdf": ("slides PDF", "every deck"),
    "handout": ("handout", "every deck"),
    "marp": ("Marp", "every deck"),
    "pptx": ("PPTX", "every deck"),
    "outline": ("slide outline", "every deck"),
    "docx": ("Word",),
}
SUFFIX = {"html": ".html", "pdf": ".pdf", "slides": ".deck.html", "slides-pdf": ".slides.pdf", "handout": ".handout.pdf"}


def _talk() -> str:
    sections = "".join(f"## A {kind}\n\n{text}\n\n" for kind, (_, text) in KINDS.items())
    return f"---\ntitle: Every kind of block\n---\n\n# Every kind of block\n\n{sections}"


_drawings = re.compile(r'class="diagram diagram-mermaid"><img src="data:image/svg\+xml;base64,([^"]+)"')


def _html_forms(page: str) -> dict[str, bool]:
    return {
        "table": bool(re.search(r"<table.*?>eu-west<", page, re.S)),
        "code": bool(re.search(r"<pre\b.*?rollout", page, re.S)),
        "diagram": any("Write" in base64.b64decode(data).decode("utf-8") for data in _drawings.findall(page)),
        "formula": "<math " in page or bool(re.search(r'<svg role="img" aria-label="\\mathrm\{ECE\}', page)),
        "quote": bool(re.search(r"<blockquote\b[^>]*>(?:(?!</blockquote>).)*<li\b[^>]*>one region first</li>", page, re.S)),
        "callout": bool(re.search(r'class="callout callout-warning[^"]*".*?Mind the pager', page, re.S)),
        "picture": bool(re.search(r'<img [^>]*alt="Latency chart"', page)),
    }


def _marp_forms(text: str) -> dict[str, bool]:
    return {
        "table": "| eu-west | 240 |" in text,
        "code": "```python\ndef rollout(stages):" in text,
        "diagram": bool(re.search(r"!\[[^\]]*Mermaid diagram\]\(data:image/png;base64,", text)),
        "formula": "$$\n\\mathrm{ECE}" in text,  # marp-cli typesets it (math: mathjax)
        "quote": "> - one region first" in text,
        "callout": "> **⚠ Mind the pager**" in text,
        "picture": "Latency chart](chart.png)" in text,
    }


def _pptx_forms(path: Path) -> dict[str, bool]:
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    shapes = [shape for slide in Presentation(str(path)).slides for shape in slide.shapes]
    tables = [shape for shape in shapes if shape.has_table]
    pictures = [shape._element.nvPicPr.cNvPr.get("descr", "") for shape in shapes if shape.shape_type == MSO_SHAPE_TYPE.PICTURE]
    texts = [shape for shape in shapes if shape.has_text_frame]

    def runs_of(words: str) -> list:
        return [run for shape in texts for p in shape.text_frame.paragraphs for run in p.runs if words in run.text]

    return {
        "table": any(cell.text == "eu-west" for table in tables for row in table.table.rows for cell in row.cells),
        "code": any(run.font.name == "DejaVu Sans Mono" for run in runs_of("rollout")),
        "diagram": any(alt.startswith("Mermaid diagram: graph LR") for alt in pictures),
        "formula": any(alt.startswith("$$\\mathrm{ECE}") for alt in pictures),
        "quote": any(p.text.strip("-• ") == "one region first" for shape in texts for p in shape.text_frame.paragraphs),
        "callout": bool(runs_of("Mind the pager")) and any(run.font.bold for run in runs_of("Mind the pager")),
        "picture": "Latency chart" in pictures,
    }


def _word_forms(path: Path) -> dict[str, bool]:
    xml = zipfile.ZipFile(path).read("word/document.xml").decode("utf-8")
    paragraphs = re.findall(r"<w:p[ >].*?</w:p>", xml, re.S)

    def styled(style: str, words: str) -> bool:
        return any(f'w:pStyle w:val="{style}"' in p and words in p for p in paragraphs)

    return {
        "table": bool(re.search(r"<w:tbl>.*?eu-west", xml, re.S)),
        "code": styled("SourceCode", "rollout"),
        "diagram": bool(re.search(r'<w:drawing>.*?descr="Mermaid diagram', xml, re.S)),
        "formula": "<m:oMath" in xml,
        "quote": styled("Quote", "<w:t>• one region first</w:t>"),  # each item its own paragraph, behind its bullet
        "callout": styled("IntenseQuote", "Mind the pager"),
        "picture": bool(re.search(r'<w:drawing>.*?descr="Latency chart"', xml, re.S)),
    }


def _outline_forms(text: str) -> dict[str, bool]:
    """The slide outline is text: a table's cells, code's lines, a quote and a callout as text lines;
    a drawing, a formula and a picture it cannot show (docs/slides.md's table)."""
    return {
        "table": "Region p99 (ms) | eu-west 240" in text,
        "code": "def rollout(stages):" in text,
        "diagram": False,
        "formula": False,
        "quote": "> Ship small changes often." in text and "> - one region first" in text,
        "callout": "> ⚠ Mind the pager" in text,
        "picture": False,
    }


def _kinds_named(cell: str) -> list[str]:
    """The kinds a row is about: the cell opens with them ("a diagram, a formula or a picture (…)");
    a row about something else ("a wide picture whole in …") names none."""
    opening = re.match(r"((?:an? \w+(?:, | or |\b))+)", cell)
    words = re.findall(r"an? (\w+)", opening.group(1)) if opening else []
    return [word for word in words if word in KINDS] if all(word in KINDS for word in words) else []


def cannot_show() -> dict[tuple[str, str], str]:
    """docs/slides.md's table of what an output cannot show, as ``(output, kind): says so``."""
    doc = (ROOT / "docs" / "slides.md").read_text(encoding="utf-8")
    table = doc.split("What an output cannot show, and what it says:", 1)[1].split("\n\n", 2)[1]
    out: dict[tuple[str, str], str] = {}
    for line in table.splitlines()[2:]:
        output, missing, _, says = (cell.strip() for cell in line.strip("|").split("|"))
        for fmt, names in NAMES.items():
            if any(output == name or output.startswith(name + ",") or f", {name}" in output for name in names):
                for kind in _kinds_named(missing):
                    out[(fmt, kind)] = says
    return out


@pytest.fixture(scope="module")
def shown(tmp_path_factory) -> dict[str, tuple[dict[str, bool], str, list[str]]]:
    """Each output's forms of the kinds, its words as text, and its warnings: the talk rendered once
    in every format (module-scoped, as the matrix renders)."""
    from click.testing import CliRunner
    from PIL import Image

    from confnotes.cli import main
    from confnotes.render import pdf

    _tools()
    folder = tmp_path_factory.mktemp("kinds")
    Image.new("RGB", (640, 360), (30, 120, 200)).save(folder / "chart.png")
    note = folder / "talk.md"
    note.write_text(_talk(), encoding="utf-8")
    printed: list[str] = []
    real = pdf.html_to_pdf

    def caught(html: str, *args, **kwargs):
        printed.append(html)
        return real(html, *args, **kwargs)

    results = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pdf, "html_to_pdf", caught)
        for fmt in FORMATS:
            out = folder / f"talk{SUFFIX.get(fmt, '.' + fmt)}"
            printed.clear()
            result = CliRunner().invoke(main, ["render", str(note), "--to", fmt, "-o", str(out)], catch_exceptions=False)
            assert result.exit_code == 0, (fmt, result.stderr)
            warnings = [line for line in result.stderr.splitlines() if line.strip()]
            if fmt in ("html", "slides"):
                page = out.read_text(encoding="utf-8")
                results[fmt] = (_html_forms(page), re.sub(r"<[^>]+>", " ", page), warnings)
            elif fmt in ("pdf", "slides-pdf", "handout"):
                assert len(printed) == 1, fmt
                results[fmt] = (_html_forms(printed[0]), pdf_text(out.read_bytes()), warnings)
            elif fmt == "marp":
                text = out.read_text(encoding="utf-8")
                results[fmt] = (_marp_forms(text), text, warnings)
            elif fmt == "pptx":
                from pptx import Presentation

                from helpers import output_text

                cells = [
                    cell.text
                    for slide in Presentation(str(out)).slides
                    for shape in slide.shapes
                    if shape.has_table
                    for row in shape.table.rows
                    for cell in row.cells
                ]
                results[fmt] = (_pptx_forms(out), output_text(out, fmt) + "\n" + "\n".join(cells), warnings)
            elif fmt == "docx":
                from helpers import output_text

                results[fmt] = (_word_forms(out), output_text(out, fmt), warnings)
            else:
                text = out.read_text(encoding="utf-8")
                results[fmt] = (_outline_forms(text), text, warnings)
    return results


def test_every_typed_value_has_a_kind_here():
    from confnotes.model import values

    typed = {
        name
        for name, value in vars(values).items()
        if dataclasses.is_dataclass(value) and isinstance(value, type) and value.__module__ == values.__name__
    }
    # a Picture stands in its Pictures; Directives direct a slide, and show nothing themselves
    assert typed - {"Picture", "Directives"} == {value for value, _ in KINDS.values()}


def test_the_talk_is_read_as_one_block_of_each_kind():
    from confnotes.api import parse_text
    from confnotes.model import Block, walk_content

    doc = parse_text(_talk())
    values = [type(entry.value).__name__ for entry in walk_content(doc.content) if type(entry) is Block and entry.value is not None]
    assert values == [value for value, _ in KINDS.values()]


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_kind_shows_in_its_own_form_or_is_listed_and_said(shown, fmt, processes):
    forms, text, warnings = shown[fmt]
    listed = cannot_show()
    for kind in KINDS:
        assert WORDS[kind] in text, f"{fmt}: the {kind}'s words are lost"
        if forms[kind]:
            assert (fmt, kind) not in listed, f"{fmt} shows a {kind}, but docs/slides.md says it cannot"
            continue
        assert (fmt, kind) in listed, f"{fmt} does not show a {kind} in its own form, and docs/slides.md does not say so"
        if listed[(fmt, kind)] == "a warning":
            assert any(kind in warning for warning in warnings), f"{fmt}: no warning says the {kind} is not shown"
    assert not [line for line in warnings if "wrote" not in line], f"{fmt}: warnings on a talk every output shows: {warnings}"


def test_the_cannot_show_table_is_read_as_written():
    assert _kinds_named("a diagram, a formula or a picture (it is plain text)") == ["diagram", "formula", "picture"]
    assert _kinds_named("a wide picture whole in `image-left`") == []
    assert _kinds_named("a theme (`--theme dark`, `serif`)") == []
    listed = cannot_show()
    assert {("outline", "diagram"), ("outline", "formula"), ("outline", "picture")} <= set(listed)
    assert all(kind in KINDS and fmt in FORMATS for fmt, kind in listed)
