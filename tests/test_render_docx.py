"""Word out (`render --to docx`): Word's own styles, numbering that restarts, links, pictures,
tables, code, callouts, speaker notes as comments; `import` of the result gives back the outline;
LibreOffice opens and prints it; `--reference-docx` keeps a team's styles and headers."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from helpers import one_error_line, tiny_png

TALK = """---
title: Zero-downtime migrations at Acme
event: PyConf Europe 2027
date: 2027-06-09
speakers: [Amara Okafor, Jürgen Weiß]
---

Notes from the talk, written during it.

## Why it matters

1. Deploys happen **twice a day**
   - Every one used to take the site down for *minutes*
2. Customers in 40 countries: there is no night
   - See [the status page](https://status.example.com)

## How

- **Expand**: add the new column, nullable
- **Backfill**: batches of 10,000 rows

![The three phases](phases.png)

```sql
ALTER TABLE orders ADD COLUMN region text;
UPDATE orders SET region = 'eu' WHERE id < 10000;
```

| Phase | Risk | Rollback |
|---|---|---|
| Expand | low | drop column |
| Contract | high | restore backup |

> [!WARNING] Locks
> An ALTER on a big table can lock it for minutes.

<!-- notes: Show the lock graph here. -->

### Questions

1. What about foreign keys?
2. What about MySQL?
"""


def _through_word(cli, tmp_path: Path, text: str) -> str:
    """``text`` as a note, rendered to Word and imported back: the Markdown import gives."""
    note = tmp_path / "note.md"
    note.write_text(text, encoding="utf-8")
    cli("render", str(note), "--to", "docx", "-o", str(tmp_path / "note.docx"))
    cli("import", str(tmp_path / "note.docx"), "-o", str(tmp_path / "back.md"))
    return (tmp_path / "back.md").read_text(encoding="utf-8")


def _render(cli, tmp_path: Path, *args: str) -> Path:
    note = tmp_path / "talk.md"
    note.write_text(TALK, encoding="utf-8")
    (tmp_path / "phases.png").write_bytes(tiny_png())
    out = tmp_path / "talk.docx"
    result = cli("render", str(note), "--to", "docx", "-o", str(out), *args)
    assert result.exit_code == 0, result.output
    return out


def test_word_styles_numbering_links_pictures_tables_and_code(cli, tmp_path):
    import docx
    from docx.oxml.ns import qn

    word = docx.Document(str(_render(cli, tmp_path)))
    styles = [(p.style.name, p.text) for p in word.paragraphs if p.text or p.style.name != "Normal"]
    assert styles[0] == ("Title", "Zero-downtime migrations at Acme")
    assert ("Normal", "Event: PyConf Europe 2027") in styles and ("Normal", "Speakers: Amara Okafor; Jürgen Weiß") in styles
    assert ("Heading 1", "Why it matters") in styles and ("Heading 2", "Questions") in styles
    assert ("List Number", "Deploys happen twice a day") in styles and ("List Bullet 2", "See the status page") in styles
    assert ("List Bullet", "Expand: add the new column, nullable") in styles
    assert ("Intense Quote", "⚠ Locks") in styles and (
        "Source Code",
        "ALTER TABLE orders ADD COLUMN region text;\nUPDATE orders SET region = 'eu' WHERE id < 10000;",
    ) in styles
    bold = [run.text for p in word.paragraphs for run in p.runs if run.bold]
    assert "twice a day" in bold and "Expand" in bold  # as the note has it: **Expand**: …
    # each numbered list restarts: "Why it matters" and "Questions" both count from 1
    numbered = [p for p in word.paragraphs if p.style.name == "List Number"]
    ids = {p._p.pPr.numPr.numId.val for p in numbered}
    assert len(numbered) == 4 and len(ids) == 2
    numbering = word.part.numbering_part.element
    for num_id in ids:
        num = next(n for n in numbering.findall(qn("w:num")) if int(n.get(qn("w:numId"))) == num_id)
        assert num.find(f"{qn('w:lvlOverride')}/{qn('w:startOverride')}").get(qn("w:val")) == "1"
    links = [rel.target_ref for rel in word.part.rels.values() if rel.reltype.endswith("/hyperlink")]
    assert links == ["https://status.example.com"]
    assert len(word.inline_shapes) == 1 and word.inline_shapes[0]._inline.docPr.get("descr") == "The three phases"
    (table,) = word.tables
    assert [[c.text for c in row.cells] for row in table.rows] == [
        ["Phase", "Risk", "Rollback"],
        ["Expand", "low", "drop column"],
        ["Contract", "high", "restore backup"],
    ]
    assert table.style.name == "Table Grid" and not word.comments  # speaker notes left out by default


def test_speaker_notes_become_comments_when_shown(cli, tmp_path):
    import docx

    word = docx.Document(str(_render(cli, tmp_path, "--notes")))
    assert [(c.author, c.text) for c in word.comments] == [("Speaker notes", "Show the lock graph here.")]


def test_import_gives_back_the_same_outline(cli, tmp_path):
    out = _render(cli, tmp_path)
    back = tmp_path / "back.md"
    assert cli("import", str(out), "-o", str(back)).exit_code == 0, back

    def shape(path: Path) -> list[tuple]:
        from confnotes.load import load_note
        from confnotes.model import walk

        doc = load_note(str(path)).doc
        return [(len(above), node.title, len(node.children)) for node, above in walk(doc.nodes) if node.is_section] + [
            ("items", len([n for n, _ in walk(doc.nodes) if not n.is_section]))
        ]

    assert shape(back) == shape(tmp_path / "talk.md")
    front = json.loads(cli("outline", str(back), "--format", "json").stdout)["meta"]
    assert front["title"] == "Zero-downtime migrations at Acme" and front["speakers"] == ["Amara Okafor", "Jürgen Weiß"]


def test_libreoffice_opens_and_prints_it(cli, tmp_path, libreoffice_writer):
    libreoffice = libreoffice_writer
    import subprocess

    from helpers import pdf_text

    out = _render(cli, tmp_path)
    proc = subprocess.run(
        [
            libreoffice,
            f"-env:UserInstallation=file://{tmp_path / 'profile'}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(tmp_path),
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    text = " ".join(pdf_text((tmp_path / "talk.pdf").read_bytes()).split())
    for shown in ("Zero-downtime migrations at Acme", "Why it matters", "1. Deploys happen twice a day", "Locks", "restore backup"):
        assert shown in text, shown


def test_a_reference_document_keeps_its_styles_and_header(cli, tmp_path):
    import docx
    from docx.shared import RGBColor

    reference = docx.Document()
    reference.styles["Heading 1"].font.color.rgb = RGBColor(0xAA, 0x00, 0x33)
    reference.sections[0].header.paragraphs[0].text = "ACME Engineering, internal"
    reference.add_paragraph("A template's own body text, which is replaced")
    path = tmp_path / "acme.docx"
    reference.save(str(path))
    word = docx.Document(str(_render(cli, tmp_path, "--reference-docx", str(path))))
    assert word.sections[0].header.paragraphs[0].text == "ACME Engineering, internal"
    assert word.styles["Heading 1"].font.color.rgb == RGBColor(0xAA, 0x00, 0x33)
    assert all("replaced" not in p.text for p in word.paragraphs)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda _p: None, "cannot read reference Word document"),
        (lambda p: p.write_bytes(b"not a zip"), "cannot read reference Word document"),
    ],
)
def test_a_bad_reference_is_one_line_and_writes_nothing(cli, tmp_path, make, message):
    reference = tmp_path / "ref.docx"
    make(reference)
    note = tmp_path / "talk.md"
    note.write_text(TALK, encoding="utf-8")
    line = one_error_line(cli("render", str(note), "--to", "docx", "--reference-docx", str(reference), "-o", str(tmp_path / "out.docx")))
    assert message in line and not (tmp_path / "out.docx").exists()


def test_the_docx_is_a_zip_word_reads(cli, tmp_path):
    import zipfile

    data = _render(cli, tmp_path).read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert "word/document.xml" in archive.namelist() and archive.testzip() is None


def test_footnotes_are_words_own(cli, tmp_path):
    import zipfile

    note = tmp_path / "failover.md"
    note.write_text(
        "# Failover\n\n## Numbers\n\n- CloudNativePG promoted a replica in 11 s[^p]\n- Patroni took 31 s[^p], on GKE[^gke]\n\n"
        "[^p]: Median of 20 runs, primary cut off with a NetworkPolicy.\n[^gke]: GKE 1.29, pd-ssd volumes.\n[^unused]: Never cited.\n",
        encoding="utf-8",
    )
    out = tmp_path / "failover.docx"
    assert cli("render", str(note), "--to", "docx", "-o", str(out)).exit_code == 0
    with zipfile.ZipFile(out) as archive:
        document = archive.read("word/document.xml").decode()
        footnotes = archive.read("word/footnotes.xml").decode()
        rels = archive.read("word/_rels/document.xml.rels").decode()
        types = archive.read("[Content_Types].xml").decode()
    assert document.count("<w:footnoteReference") == 2 and 'w:id="1"' in document and 'w:id="2"' in document
    assert "Median of 20 runs, primary cut off with a NetworkPolicy." in footnotes and "GKE 1.29, pd-ssd volumes." in footnotes
    assert "Never cited" not in footnotes and "relationships/footnotes" in rels and "footnotes+xml" in types
    import docx

    texts = [p.text for p in docx.Document(str(out)).paragraphs]
    assert "Notes" in texts and "3. Never cited." in texts  # a definition nothing cites: listed at the end
    # and import reads Word's footnotes back as Markdown's (they were dropped, and named as dropped)
    result = cli("import", str(out), "-o", str(tmp_path / "back.md"))
    back = (tmp_path / "back.md").read_text(encoding="utf-8")
    assert "promoted a replica in 11 s[^1]" in back and "on GKE[^2]" in back and "dropped" not in result.output
    assert "[^1]: Median of 20 runs, primary cut off with a NetworkPolicy.\n" in back and "[^2]: GKE 1.29, pd-ssd volumes." in back


BUDGET = (
    "# Error budgets\n\n## The budget\n\n$$\nB = 1 - \\frac{good}{total}\n$$\n\n"
    "- Inline $x^2 + y^2 = z^2$ works too, and $\\sum_{i=1}^{n} x_i$\n- Price stays $5 and $10\n\n"
    "## Burn rates\n\n$$\n\\lim_{t \\to 0} \\frac{\\Delta B}{\\Delta t} = \\sqrt{\\alpha} \\cdot \\hat{r}\n$$\n\n"
    "$$\n\\left( \\frac{a}{b} \\right)^2 \\le \\int_0^\\infty e^{-x^2}\\,dx + \\binom{n}{k}\n$$\n"
)


def test_formulas_are_word_equations_and_prices_stay_prices(cli, tmp_path):
    """Display formulas are Word equations on their own centred line, inline ones sit in their
    sentence (OMML: fractions, scripts, n-ary sums and integrals, radicals, accents, delimiters)."""
    import zipfile

    import docx

    note = tmp_path / "budget.md"
    note.write_text(BUDGET, encoding="utf-8")
    cli("render", str(note), "--to", "docx", "-o", str(tmp_path / "b.docx"))
    document = zipfile.ZipFile(tmp_path / "b.docx").read("word/document.xml").decode()
    assert document.count("<m:oMathPara") == 3 and document.count("<m:oMath>") == 5
    for shape in ("<m:f>", "<m:sSup>", "<m:nary>", "<m:rad>", "<m:acc>", "<m:d>", "<m:func>", 'm:val="noBar"'):
        assert shape in document, shape
    texts = [p.text for p in docx.Document(str(tmp_path / "b.docx")).paragraphs]
    assert "Price stays $5 and $10" in texts and "$" not in "".join(text for text in texts if "Price" not in text)


def test_word_equations_import_back_as_the_same_formulas(cli, tmp_path):
    """``import`` reads Word's equations as TeX: each formula of the round trip reads as the
    original does (the same Unicode line), in the same order."""
    import re

    from confnotes.markup.math import linear

    back = _through_word(cli, tmp_path, BUDGET)

    def formulas(text: str) -> list[str]:
        found = re.findall(r"\$\$\s*(.+?)\s*\$\$|(?<![$\w])\$([^$\s][^$]*?[^$\s]|[^$\s])\$(?![$\d])", text, flags=re.S)
        return [linear(display or inline) for display, inline in found]

    assert formulas(back) == formulas(BUDGET) and len(formulas(BUDGET)) == 5
    assert "Price stays $5 and $10" in back


def test_libreoffice_draws_the_equations(cli, tmp_path, libreoffice_math):
    """Writer (with its Math module) prints every formula: its letters and operators are in the PDF."""
    import subprocess

    from helpers import pdf_text

    note = tmp_path / "budget.md"
    note.write_text(BUDGET, encoding="utf-8")
    cli("render", str(note), "--to", "docx", "-o", str(tmp_path / "b.docx"))
    profile = f"-env:UserInstallation=file://{tmp_path / 'profile'}"
    command = [libreoffice_math, profile, "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path), str(tmp_path / "b.docx")]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    shown = "".join(pdf_text((tmp_path / "b.pdf").read_bytes()).split())
    for drawn in ("good", "total", "∑", "lim", "ΔB", "α", "∫", "∞"):
        assert drawn in shown, drawn


#: Formulas as statistics, ML and systems talks write them (and the shapes that once broke in Writer:
#: a power on a bracket, bars, \log_2 before a bracket, upright words, script letters).
FORMULAS = [
    r"\binom{n}{k} p^k (1-p)^{n-k}",
    r"(1-p)^n",
    r"|\mathrm{acc} - \mathrm{conf}|",
    r"\log_2(D/W + 1)",
    r"\log_2 x",
    r"\mathrm{ECE} = \sum_{m=1}^{M} \frac{|B_m|}{n} |\mathrm{acc}(B_m) - \mathrm{conf}(B_m)|",
    r"\hat{\theta} = \arg\max_\theta \sum_i \log p(x_i \mid \theta)",
    r"\mathcal{D} \sim \mathbb{R}^{n \times d}",
    r"\|w\|_2^2 + \lambda \|w\|_1",
    r"\lim_{n \to \infty} \left(1 + \frac{1}{n}\right)^n = e",
    r"\sigma(z) = \frac{1}{1 + e^{-z}}",
    r"\int_0^1 f(x)\,dx \approx \frac{1}{N} \sum_{i=1}^N f(x_i)",
    r"P(A \mid B) = \frac{P(B \mid A)\,P(A)}{P(B)}",
    r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
    r"x_{t+1} = x_t - \eta \nabla f(x_t)",
    r"\mathbb{E}[X] = \sum_x x\,p(x)",
    r"[0, 1)",
    r"\sqrt[3]{8} = 2",
    r"\max_i |x_i|",
]


@pytest.mark.parametrize("tex", FORMULAS)
def test_each_formula_goes_to_word_and_back_as_itself(tex):
    """TeX → Word equation → TeX reads as the original does (the same Unicode line)."""
    from confnotes.importers.equations import tex_of
    from confnotes.markup.math import linear
    from confnotes.markup.omml import omml

    back = tex_of(omml(tex, True))
    assert linear(back) == linear(tex), back


def test_libreoffice_draws_every_formula_with_no_error_mark(cli, tmp_path, libreoffice_math):
    """Writer marks what it cannot read in an equation with a red ¿; none of these has one, and
    every formula's letters are printed."""
    import subprocess

    from helpers import pdf_text

    note = tmp_path / "stats.md"
    lines = [f"- Inline ${tex}$ here" if index % 2 else f"$$\n{tex}\n$$\n" for index, tex in enumerate(FORMULAS)]
    note.write_text("# Statistics for engineers\n\n## Formulas\n\n" + "\n\n".join(lines) + "\n", encoding="utf-8")
    cli("render", str(note), "--to", "docx", "-o", str(tmp_path / "s.docx"))
    profile = f"-env:UserInstallation=file://{tmp_path / 'profile'}"
    command = [libreoffice_math, profile, "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path), str(tmp_path / "s.docx")]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    shown = pdf_text((tmp_path / "s.pdf").read_bytes())
    assert "¿" not in shown
    for word in ("ECE", "acc", "conf", "log", "lim"):
        assert word in shown, word


def test_quotes_and_callouts_come_back_from_word_as_written(cli, tmp_path):
    """A callout (its sign and title, a list inside) and a plain quote: Word gets each item a line
    and the callout's sign; ``import`` gives back the callout, its list and the quote; a
    ``Label:`` item the note did not make bold stays plain."""
    back = _through_word(
        cli,
        tmp_path,
        "# Incident reviews\n\n## What we changed\n\n> [!WARNING] Three habits\n> - Write the timeline first\n"
        "> - Name no one\n\n> Every page is a bug report.\n\n- Owner: the on-call lead\n",
    )
    assert "> [!WARNING] Three habits\n>\n> - Write the timeline first\n> - Name no one\n" in back
    assert "> - Name no one\n\n> Every page is a bug report.\n" in back and "- Owner: the on-call lead" in back


def test_a_tables_column_alignment_and_escaped_pipes_reach_word_and_pptx(cli, tmp_path):
    """``|:--|:-:|--:|`` aligns the columns in Word and PowerPoint as in the page (both dropped it);
    a ``\\|`` in a cell stays one cell's text."""
    import docx
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from pptx import Presentation
    from pptx.enum.text import PP_ALIGN

    note = tmp_path / "costs.md"
    note.write_text(
        "# Costs\n\n## Per region\n\n| Region | Tier | Monthly |\n|:--|:-:|--:|\n"
        "| eu-west | a \\| b | 1,200 € |\n| us-east | c | 980 € |\n",
        encoding="utf-8",
    )
    cli("render", str(note), "--to", "docx", "-o", str(tmp_path / "c.docx"))
    cli("render", str(note), "--to", "pptx", "-o", str(tmp_path / "c.pptx"))
    table = docx.Document(str(tmp_path / "c.docx")).tables[0]
    assert [table.cell(1, c).paragraphs[0].alignment for c in range(3)] == [
        WD_ALIGN_PARAGRAPH.LEFT,
        WD_ALIGN_PARAGRAPH.CENTER,
        WD_ALIGN_PARAGRAPH.RIGHT,
    ]
    assert table.cell(1, 1).text == "a | b" and len(table.columns) == 3
    shapes = [shape for slide in Presentation(str(tmp_path / "c.pptx")).slides for shape in slide.shapes if shape.has_table]
    cells = shapes[0].table
    assert [cells.cell(2, c).text_frame.paragraphs[0].alignment for c in range(3)] == [PP_ALIGN.LEFT, PP_ALIGN.CENTER, PP_ALIGN.RIGHT]


def test_a_footnotes_emphasis_and_code_reach_word_and_come_back(cli, tmp_path):
    text = "# Refs\n\n## Reading\n\nAs Kleppmann argues.[^k]\n\n[^k]: *Designing Data-Intensive Applications*, see `fsync`.\n"
    back = _through_word(cli, tmp_path, text)
    assert "[^1]: *Designing Data-Intensive Applications*, see `fsync`." in back


@pytest.mark.parametrize("char", ["\x0c", "\x01", "\x0b", "\x1b", "\ufffe"], ids=["form-feed", "soh", "vtab", "esc", "ufffe"])
def test_a_control_character_anywhere_becomes_a_replacement_not_a_crash(cli, tmp_path, char):
    """lxml refuses characters XML 1.0 cannot hold; the note's text is made XML-ready once, before
    Word is written (``escape.xml_ready``): titles, items, tables, callouts, the core properties."""
    import docx

    note = tmp_path / "ctl.md"
    note.write_text(
        f'---\ntitle: "Keynote\\u{ord(char):04x} day"\nspeakers: ["Ann\\u{ord(char):04x}"]\n---\n\n'
        f"## Part{char} one\n\n- item {char} red\n\n"
        f"| a{char} | b |\n|---|---|\n| c | d{char} |\n\n> [!NOTE] Ti{char}tle\n> body{char} text\n",
        encoding="utf-8",
    )
    out = tmp_path / "ctl.docx"
    result = cli("render", str(note), "--to", "docx", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    word = docx.Document(str(out))
    text = "\n".join([p.text for p in word.paragraphs] + [c.text for t in word.tables for r in t.rows for c in r.cells])
    assert char not in text and text.count("\ufffd") >= 5  # a trailing form feed or vertical tab is space, stripped
    title = word.core_properties.title  # the plain title: a form feed is space there
    assert title in ("Keynote\ufffd day", "Keynote day") and word.core_properties.author.startswith("Ann")
