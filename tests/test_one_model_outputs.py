"""What one output learned, all show: the defects of outputs that recognised structure on their own.

Each test here failed before Model 2 (typed blocks read once by ``parse``, one preparation of the note
for every output): Word printed diagrams as source and ran a quoted list into one paragraph, its
table columns were equal; the book printed ``[@key]`` raw and lost its parts when some notes were
undated; the site's index and search showed a linked bold title as Markdown; the deck broke long
code lines with real newlines; table cells broke inside numbers.
"""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

import pytest

from helpers import pdf_text, require

DIAGRAM = """
## Who depends on what

```dot
digraph deps { api -> queue; queue -> worker }
```
"""
WORD_NOTE = """\
# Incident review

## Timeline

> - 09:12 pager fired
> - 09:20 rollback started
>
> Then it was quiet.

## Costs

| Service that runs the nightly reconciliation of every ledger | Tier | Cost |
|---|---|---|
| ledger-reconciler | a | 0.18/6 |
| queue | b | 12 |
"""


def _word(cli, tmp_path: Path, text: str = WORD_NOTE):
    import docx

    note = tmp_path / "review.md"
    note.write_text(text, encoding="utf-8")
    result = cli("render", str(note), "--to", "docx", "-o", str(tmp_path / "review.docx"))
    assert result.exit_code == 0, result.output
    return docx.Document(str(tmp_path / "review.docx")), result.output


def test_word_draws_a_diagram_as_the_picture_every_output_draws(cli, tmp_path, monkeypatch, processes):
    from confnotes.markup.diagrams import program

    require(program("dot"), "Graphviz is not installed (apt-get install graphviz)")
    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(tmp_path / "cache"))
    word, output = _word(cli, tmp_path, WORD_NOTE + DIAGRAM)
    text = "\n".join(paragraph.text for paragraph in word.paragraphs)
    assert "digraph" not in text and "shown as code" not in output
    pictures = word.element.body.xpath(".//wp:docPr")
    assert len(pictures) == 1 and pictures[0].get("descr").startswith("Graphviz diagram: digraph deps")


def test_word_without_the_tool_shows_the_code_and_says_so(cli, tmp_path, monkeypatch):
    from confnotes.markup import diagrams

    monkeypatch.setattr(diagrams, "program", lambda _tool: None)
    diagrams._drawn.cache_clear()
    word, output = _word(cli, tmp_path, WORD_NOTE + DIAGRAM)
    diagrams._drawn.cache_clear()
    assert "digraph deps" in "\n".join(paragraph.text for paragraph in word.paragraphs)
    assert "dot diagram (digraph deps" in output and "shown as code" in output


def test_word_keeps_a_list_inside_a_quote_as_its_items(cli, tmp_path):
    word, _ = _word(cli, tmp_path)
    quoted = [paragraph.text for paragraph in word.paragraphs if paragraph.style.name == "Quote"]
    assert quoted == ["• 09:12 pager fired", "• 09:20 rollback started", "Then it was quiet."]


def test_word_shares_a_tables_width_by_what_its_columns_hold(cli, tmp_path):
    word, _ = _word(cli, tmp_path)
    table = word.tables[0]
    widths = [table.cell(0, column).width for column in range(3)]
    assert widths[0] > 2 * widths[1] and widths[0] > 2 * widths[2]
    assert abs(sum(widths) - 6 * 914400) < 914400 // 100  # the text's width, shared


LONG_COMMAND = "kubectl --context production-eu-west-1 --namespace payments rollout restart deployment/ledger-reconciler-worker"


def test_the_deck_wraps_a_long_code_line_by_css_and_keeps_it_one_line(cli, tmp_path):
    note = tmp_path / "deploy.md"
    note.write_text(f"# Deploy\n\n## Restart\n\n```sh\n{LONG_COMMAND}\necho done\n```\n", encoding="utf-8")
    assert cli("render", str(note), "--to", "slides", "-o", str(tmp_path / "deck.html")).exit_code == 0
    page = (tmp_path / "deck.html").read_text(encoding="utf-8")
    code = re.search(r'<pre class="code highlight"[^>]*><code>(.*?)</code></pre>', page, re.S)
    assert code is not None
    lines = html_lib.unescape(re.sub(r"<[^>]+>", "", code.group(1))).split("\n")
    assert lines == [LONG_COMMAND, "echo done"]  # copied, the command is one line
    css = (Path(__file__).resolve().parent.parent / "templates" / "deck.css").read_text(encoding="utf-8")
    assert re.search(r"\.text-code \.code \{[^}]*white-space: pre-wrap", css)


def test_table_cells_break_between_words_never_inside_a_number():
    """Every stylesheet lets a cell break only between words (``overflow-wrap: break-word`` breaks a
    word only when it is wider than its whole column); ``anywhere`` broke "0.18/6" at its slash."""
    templates = Path(__file__).resolve().parent.parent / "templates"
    cells = re.compile(r"(?:^|[\s,}])(?:[.\w-]+\s+)*(?:td|th)\b[^{]*\{([^}]*)\}", re.M)
    found = {}
    for sheet in sorted(templates.rglob("*.css")):
        for rule in cells.finditer(sheet.read_text(encoding="utf-8")):
            found.setdefault(sheet.name, []).append(rule.group(1))
            assert "anywhere" not in rule.group(1), (sheet.name, rule.group(0))
    assert any("overflow-wrap: break-word" in body for body in found["print.css"])
    assert any("overflow-wrap: break-word" in body for body in found["deck.css"])  # the slide's own "anywhere" is overridden


def test_marps_table_cells_break_between_words(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text("# Costs\n\n## Per call\n\n| model | cost |\n|---|---:|\n| small | 0.18/6 |\n", encoding="utf-8")
    out = tmp_path / "talk.marp.md"
    assert cli("render", str(note), "--to", "marp", "-o", str(out)).exit_code == 0
    cells = re.findall(r"th, td \{([^}]*)\}", out.read_text(encoding="utf-8"))
    assert cells and all("overflow-wrap: break-word" in body for body in cells)


# ---------------------------------------------------------------- the book and the site

BIB = "@book{kleppmann2017,\n  author = {Kleppmann, Martin},\n  title = {Designing Data-Intensive Applications},\n  year = {2017}\n}\n"


def test_the_book_formats_citations_as_the_pdf_does(cli, tmp_path, weasyprint):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "refs.bib").write_text(BIB, encoding="utf-8")
    (notes / "reading.md").write_text(
        "---\ntitle: Reading group\ndate: 2027-06-09\nbibliography: refs.bib\n---\n\n## Logs\n\nThe log is the truth [@kleppmann2017].\n",
        encoding="utf-8",
    )
    result = cli("render", str(notes), "--to", "book", "-o", str(tmp_path / "book.pdf"))
    assert result.exit_code == 0, result.output
    text = " ".join(pdf_text((tmp_path / "book.pdf").read_bytes()).split())
    assert "[@kleppmann2017]" not in text and "Kleppmann" in text and "References" in text


def test_a_partly_dated_book_keeps_its_days_and_puts_the_rest_last(cli, tmp_path, weasyprint):
    from pypdf import PdfReader

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("---\ntitle: Keynote\ndate: 2027-06-09\n---\n\n## Opening\n\nWelcome.\n", encoding="utf-8")
    (notes / "b.md").write_text("---\ntitle: Hallway track\n---\n\n## Notes\n\nCoffee.\n", encoding="utf-8")
    assert cli("render", str(notes), "--to", "book", "-o", str(tmp_path / "book.pdf")).exit_code == 0
    parts = [item.title for item in PdfReader(str(tmp_path / "book.pdf")).outline if not isinstance(item, list)]
    assert parts[-2:] == ["Wednesday, 09 June 2027", "Other talks"]


def test_the_index_and_search_show_a_linked_bold_title_as_its_words(cli, tmp_path, weasyprint):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# [**Scaling the ledger**](https://example.org/talk)\n\n## Why\n\n- because\n", encoding="utf-8")
    result = cli("build", str(notes), "-o", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<a class="title" href="./talk.html">Scaling the ledger</a>' in index
    search = (tmp_path / "site" / "_site" / "search" / "d-0.js").read_text(encoding="utf-8")
    assert '"notes":{"0":["Scaling the ledger","./talk.html"]}' in search


@pytest.mark.parametrize("title", ["# [**Scaling the ledger**](https://example.org/talk)", "# **Scaling the ledger**"])
def test_a_notes_plain_title_is_its_words(title):
    from confnotes.parse import parse

    meta = parse(title + "\n\n## Why\n\n- because\n").meta
    assert meta.plain_title == "Scaling the ledger"
    if title.startswith("# **"):  # emphasis wrapping the whole title is its look: the title is its words (issue 59)
        assert (meta.title, meta.title_marker) == ("Scaling the ledger", "**")
    else:  # a link keeps its Markdown: the page links the title
        assert meta.title != meta.plain_title


TALK = """---
duration: 20min
---
# Shipping on Fridays

## :rocket: Launch

- Ship behind a flag
- Watch the error budget

## Rollback

- One command, rehearsed

## Backup: raw numbers
<!-- slide hide -->

- p99 went from 900 ms to 240 ms
"""


def _talk(tmp_path: Path):
    from confnotes.load import load_note
    from confnotes.render.options import RenderOverrides, resolve_render_options

    note = tmp_path / "fridays.md"
    note.write_text(TALK, encoding="utf-8")
    loaded = load_note(str(note))
    return loaded.doc, resolve_render_options(loaded.config, loaded.doc, RenderOverrides())


def test_the_handouts_plan_shows_the_parts_the_deck_shows(tmp_path):
    from confnotes.render import handout

    doc, options = _talk(tmp_path)
    page = handout.prepare(doc, options, tmp_path).html
    plan = re.search(r'<ol class="plan">(.*?)</ol>', page, re.S)
    assert plan is not None
    assert "Launch" in plan.group(1) and "Rollback" in plan.group(1) and "Backup" not in plan.group(1)


def test_the_presenters_plan_carries_a_parts_title_as_the_deck_shows_it(tmp_path):
    import json

    from confnotes.render.formats import render_note

    doc, options = _talk(tmp_path)
    page, _ = render_note(doc, "slides", options, tmp_path)
    data = re.search(r'<script type="application/json" id="talk-plan">(.*?)</script>', str(page), re.S)
    assert data is not None
    titles = [section["title"] for section in json.loads(data.group(1))["sections"]]
    assert titles[0] == "🚀 Launch" and ":rocket:" not in data.group(1)
