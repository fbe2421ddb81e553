"""The conformance matrix: features combined in notes, every note rendered to every output, and the
invariants that must hold in every cell checked mechanically (docs/design.md, "Proving it").

Each feature is a piece of a talk as people write one. ``NOTES`` combines them so that every pair
of features meets in at least one note (a covering design, made greedily and checked), each note in
a theme and on a paper. Each note is rendered once in every format (a module-scoped fixture), and
every invariant reads those files:

- every format renders, with no warning but the ones its features announce;
- the HTML deck, PPTX, Marp and slide outline show the same slides with the same titles, the
  slides PDF a page a slide, the handout three slides a page;
- the agenda shows the same minutes in every deck output;
- the HTML page keeps every word of the note in order; notes turned off reach no file;
- nothing on a slide is clipped in Chromium, and LibreOffice prints every PPTX a page a slide with
  every shape on its slide.

A new feature is a new entry of ``FEATURES``; a new output a new column of the invariants.
"""

from __future__ import annotations

import itertools
import math
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from helpers import formats_where, html_deck, make_video, marp_deck, outline_deck, page_words, pdf_text, pptx_deck, source_words, text_words

FORMATS = formats_where()


@dataclass(frozen=True)
class Feature:
    """A piece of a talk: what it adds to the front matter, the opening (lede) and the sections."""

    sections: str = ""
    lede: str = ""
    front: tuple[str, ...] = ()
    #: warnings its render may give (a regular expression each)
    warns: tuple[str, ...] = field(default=())


CODE = "\n".join(
    [
        "```python",
        "def rollout(cluster, stages, pause=300):",
        '    """Move a release through the stages, stopping on the first bad signal."""',
        *(
            line
            for n in range(1, 23)
            for line in (f"    wait_for(cluster, stage={n}, seconds=pause)", f"    check_error_rate(cluster, {n})")
        ),
        "    for stage in stages:",
        "        if not healthy(cluster, stage):",
        "            rollback(cluster, stage)",
        "            return False",
        "    return True",
        "```",
    ]
)
SPLIT = r"does not fit at the smallest text size; the deck shows it as \d+ slides"

FEATURES: dict[str, Feature] = {
    "agenda": Feature(
        "".join(
            f"## Step {n}: {name}\n\n- {name} in one region first\n\n"
            for n, name in enumerate(("Inventory", "Ownership", "Dashboards", "Alerts", "Runbooks", "Drills", "Retros"), start=1)
        )
    ),
    "budgets": Feature(
        "## Rollout plan\n<!-- time: 4min -->\n\n- Canary, then half, then all\n- A day between stages\n\n", front=("duration: 30min",)
    ),
    "hidden": Feature("## Backup: raw numbers\n<!-- slide hide -->\n\n- p99 went from 900 ms to 240 ms\n\n"),
    "notes": Feature("## The first outage\n\n- Friday deploy, Saturday page\n\n::: notes\nTell the zebrafish story here.\n:::\n\n"),
    "notes-off": Feature(
        "## Paging policy\n\n- Symptoms, not causes\n\n::: notes\nMention the okapi runbook.\n:::\n\n", front=("slides:", "  notes: false")
    ),
    "incremental": Feature("## Rollout steps\n<!-- slide incremental -->\n\n1. Canary in one region\n2. Half the fleet\n3. Everywhere\n\n"),
    "columns": Feature(
        "## Before and after\n\n:::: columns\n::: column\n**Before**\n\n- Pages at night\n:::\n::: column\n"
        "**After**\n\n- Pages by day\n:::\n::::\n\n"
    ),
    "math": Feature("## The error budget\n\n$$\nB = 1 - \\frac{good}{total}\n$$\n\nWe spend it on releases.\n\n"),
    "footnote": Feature(
        "## Where the numbers come from\n\nThey come from our postmortems.[^pm]\n\n[^pm]: The postmortem archive, 2016 to 2026.\n\n"
    ),
    "title-picture": Feature(lede="![The on-call team at the offsite](team.png)\n\n"),
    "tall-picture": Feature("## The dashboard\n\n![The whole dashboard, top to bottom](tall.png)\n\n- Read it top to bottom\n\n"),
    "wide-table": Feature(
        "## Cost per service\n\n| Service | Team | Region | Nodes | CPU | Memory | Cost | Share |\n"
        "|---|---|---|---|---|---|---|---|\n| Search | Discovery | eu-west-1 | 48 | 93.6% | 71.2% | $41,200 | 38% |\n"
        "| Checkout | Payments | us-east-1 | 22 | 61.0% | 55.4% | $22,900 | 20% |\n\n"
    ),
    "long-code": Feature(f"## The rollout script\n\n{CODE}\n\n- It has run every release since 2019\n\n", warns=(SPLIT,)),
    "code-steps": Feature(
        "## Walking through the fix\n\n```python {2|4-5|all}\ndef retry(call):\n    for attempt in range(3):\n"
        "        try:\n            return call()\n        except TimeoutError:\n            backoff(attempt)\n```\n\n"
        "- The fix shipped in release 4.2\n\n"
    ),
    "invert": Feature(
        "## Costs at a glance\n<!-- slide class: invert -->\n\n| Service | Cost |\n|---|---|\n| Search | $41k |\n| Checkout | $22k |\n\n"
    ),
    "callout": Feature(
        "## Pager fatigue\n\n> [!WARNING] Three pages a night\n> burns people out within a quarter.\n\n"
        "- Quiet hours for non-urgent alerts\n\n> [!tip]- Try it\n> Mute one noisy alert this week.\n\n"
    ),
    "citation": Feature(
        "## Where clocks come from\n\n- Logical clocks order events without a shared time [@lamport1978, p. 559]\n\n",
        front=("bibliography: refs.bib",),
    ),
    "emoji": Feature("## Launch day :rocket:\n\n- Shipped on time :tada: :+1:\n- `:rocket:` in code stays as typed\n\n"),
    "callout-div": Feature(
        '## Handovers\n\n::: {.callout-note title="Every Monday"}\nThe outgoing person writes the handover note.\n\n'
        "- open incidents\n- noisy alerts\n:::\n\n"
    ),
    "quote": Feature("## What we learned\n<!-- slide layout: quote -->\n\n> Every page is a bug report against the system.\n\n"),
    "big-number": Feature("## The number\n<!-- slide layout: big-number -->\n\n93%\n\nof pages were noise in 2016\n\n"),
    "image-right": Feature(
        "## The on-call room\n<!-- slide layout: image-right -->\n\n![The on-call room](room.png)\n\n"
        "- Two screens per person\n- A red phone nobody uses\n\n"
    ),
    "video": Feature("## The canary in motion\n\n![The canary turning green](demo.mp4)\n\n- Thirty seconds, start to finish\n\n"),
    "cropped-picture": Feature(
        "## The whole architecture\n<!-- slide layout: image-left -->\n\n![Every service, left to right](wide.png)\n\n"
        "- Twelve services, one queue\n\n",
        warns=(r"layout image-left shows \d+% of its picture \(2400 x 600\)",),
    ),
}
THEMES, PAPERS = ("default", "dark"), ("a4", "letter")
NOTE_SIZE = 12  # features a note combines


def covering(features: list[str], size: int) -> list[tuple[str, ...]]:
    """Notes of ``size`` features such that every pair of features meets in one of them (greedy:
    each note takes, one at a time, the feature that meets the most pairs not met yet)."""
    left = set(itertools.combinations(features, 2))
    notes: list[tuple[str, ...]] = []
    while left:
        first = next(pair for pair in sorted(left))
        chosen = list(first)
        while len(chosen) < size:
            gain = {name: sum(tuple(sorted((name, other), key=features.index)) in left for other in chosen) for name in features}
            best = max((name for name in features if name not in chosen), key=lambda name: (gain[name], -features.index(name)))
            chosen.append(best)
        chosen.sort(key=features.index)
        left -= set(itertools.combinations(chosen, 2))
        notes.append(tuple(chosen))
    return notes


NOTES = covering(list(FEATURES), NOTE_SIZE)


def note_text(names: tuple[str, ...], number: int) -> str:
    front = ["---", f"title: Ten years of on-call, part {number}", "speakers: [Kenji Watanabe]", "event: SREcon Americas 2026"]
    front += [line for name in names for line in FEATURES[name].front]
    lede = "".join(FEATURES[name].lede for name in names) + "What a decade of pages taught one platform team.\n\n"
    return "\n".join(front) + "\n---\n\n" + lede + "".join(FEATURES[name].sections for name in names)


@dataclass
class Rendered:
    names: tuple[str, ...]
    note: Path
    theme: str
    paper: str
    results: dict[str, tuple[int, str]] = field(default_factory=dict)  # format -> (exit code, stderr)

    def file(self, fmt: str) -> Path:
        return self.note.with_name(f"{self.note.stem}.out.{fmt}")


@pytest.fixture(scope="module")
def matrix(tmp_path_factory, weasyprint) -> list[Rendered]:
    """Every note of the matrix rendered once in every format (in this process: click's runner)."""
    from click.testing import CliRunner
    from PIL import Image

    from confnotes.cli import main

    folder = tmp_path_factory.mktemp("matrix")
    Image.new("RGB", (1600, 900), (40, 90, 140)).save(folder / "team.png")
    Image.new("RGB", (400, 1800), (200, 120, 60)).save(folder / "tall.png")
    Image.new("RGB", (900, 1200), (90, 140, 60)).save(folder / "room.png")
    Image.new("RGB", (2400, 600), (60, 60, 160)).save(folder / "wide.png")
    make_video(folder / "demo.mp4")
    (folder / "refs.bib").write_text(
        "@article{lamport1978, author = {Lamport, Leslie}, title = {Time, Clocks, and the Ordering of Events},"
        " journal = {Communications of the ACM}, year = {1978}}\n",
        encoding="utf-8",
    )
    out = []
    for number, names in enumerate(NOTES, start=1):
        note = folder / f"on-call-{number}.md"
        note.write_text(note_text(names, number), encoding="utf-8")
        cell = Rendered(names, note, THEMES[number % 2], PAPERS[number // 2 % 2])
        for fmt in FORMATS:
            args = ["render", str(note), "--to", fmt, "-o", str(cell.file(fmt)), "--theme", cell.theme]
            if fmt in ("pdf", "handout"):
                args += ["--paper", cell.paper]
            result = CliRunner().invoke(main, args)
            cell.results[fmt] = (result.exit_code, result.stderr)
        out.append(cell)
    return out


IDS = [f"note{number}" for number in range(1, len(NOTES) + 1)]


def test_every_pair_of_features_meets_in_a_note():
    met = {pair for names in NOTES for pair in itertools.combinations(sorted(names), 2)}
    assert met == set(itertools.combinations(sorted(FEATURES), 2))
    cells = len(met) * len(FORMATS)
    print(f"matrix: {len(FEATURES)} features in {len(NOTES)} notes, {len(met)} pairs x {len(FORMATS)} outputs = {cells} cells")


@pytest.mark.parametrize("index", range(len(NOTES)), ids=IDS)
def test_every_format_renders_with_only_the_warnings_its_features_give(matrix, index):
    cell = matrix[index]
    expected = [pattern for name in cell.names for pattern in FEATURES[name].warns]
    if cell.theme != "default":  # PPTX cannot show a theme, and says so (docs/slides.md)
        expected.append(rf"PPTX keeps its own look: the {cell.theme} theme")
    for fmt, (code, stderr) in cell.results.items():
        assert code == 0, (fmt, stderr)
        warnings = [line for line in stderr.splitlines() if "warning:" in line]
        unexpected = [line for line in warnings if not any(re.search(pattern, line) for pattern in expected)]
        assert unexpected == [], (fmt, unexpected)


@pytest.mark.parametrize("index", range(len(NOTES)), ids=IDS)
def test_the_deck_outputs_show_the_same_slides(matrix, index):
    from pypdf import PdfReader

    cell = matrix[index]
    decks = {
        "slides": html_deck(cell.file("slides").read_bytes()),
        "pptx": pptx_deck(cell.file("pptx").read_bytes()),
        "marp": marp_deck(cell.file("marp").read_bytes()),
        "outline": outline_deck(cell.file("outline").read_bytes()),
    }
    titles = [title for title, _ in decks["slides"]]
    for fmt, deck in decks.items():  # the same slides, titles and which of them carry speaker notes
        assert deck == decks["slides"], fmt
    assert len(PdfReader(str(cell.file("slides-pdf"))).pages) == len(titles)
    assert len(PdfReader(str(cell.file("handout"))).pages) == math.ceil(len(titles) / 3)


_MINUTES = re.compile(r"(<1|\d+(?:\.5)?) min\b")


@pytest.mark.parametrize("index", range(len(NOTES)), ids=IDS)
def test_the_agenda_shows_the_same_minutes_in_every_deck_output(matrix, index):
    from pptx import Presentation

    cell = matrix[index]
    outline = cell.file("outline").read_text(encoding="utf-8")
    agendas = [part for part in re.split(r"(?m)^\s*\d+\. \[", outline) if "] [agenda] " in part[:20]]
    expected = [m for part in agendas for m in _MINUTES.findall(part.split("words)", 1)[1])]
    html = cell.file("slides").read_text(encoding="utf-8")
    shown = {
        "slides": re.findall(r'<span class="minutes">(<1|\d+(?:\.5)?) min</span>', html.replace("&lt;", "<")),
        "marp": re.findall(r"· \*(<1|\d+(?:\.5)?) min\*", cell.file("marp").read_text(encoding="utf-8")),
        "pptx": [
            m
            for slide in Presentation(str(cell.file("pptx"))).slides
            if slide.shapes.title is not None and slide.shapes.title.text.startswith("Agenda")
            for shape in slide.shapes
            if shape.has_text_frame and shape is not slide.shapes.title
            for m in _MINUTES.findall(shape.text_frame.text)
        ],
    }
    for fmt, minutes in shown.items():
        assert minutes == expected, fmt


_DEFINITION = re.compile(r"^\[\^[^\]]+\]:.*$", re.M)


def _as_printed(text: str) -> str:
    """A note's text in the order the page prints it: a formula typeset (its TeX is no words), the
    text of each footnote at the page's foot."""
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)
    return _DEFINITION.sub(" ", text) + "\n\n" + "\n\n".join(_DEFINITION.findall(text))


@pytest.mark.parametrize("index", range(len(NOTES)), ids=IDS)
def test_the_page_keeps_every_word_in_order_and_notes_off_reach_no_file(matrix, index):
    from helpers import assert_words_in_order

    cell = matrix[index]
    text = _as_printed(cell.note.read_text(encoding="utf-8"))
    page = re.sub(r"<math\b.*?</math>", " ", cell.file("html").read_text(encoding="utf-8"), flags=re.S)
    assert_words_in_order(source_words(text, notes=False), page_words(page), "the page")
    if "notes-off" not in cell.names:
        return
    for fmt in FORMATS:
        data = cell.file(fmt).read_bytes()
        if fmt in ("pdf", "slides-pdf", "handout"):
            words = text_words(pdf_text(data))
        elif fmt == "pptx":
            from pptx import Presentation

            prs = Presentation(str(cell.file(fmt)))
            words = text_words(" ".join(s.notes_slide.notes_text_frame.text for s in prs.slides if s.has_notes_slide))
        elif fmt == "docx":
            words = text_words(_output_text(cell, fmt) + " " + " ".join(c.text for c in _word(cell).comments))
        else:
            words = text_words(data.decode("utf-8"))
        assert "okapi" not in words and "zebrafish" not in words, fmt


@pytest.mark.parametrize("index", range(len(NOTES)), ids=IDS)
def test_nothing_on_a_slide_is_clipped_in_chromium(matrix, index, open_page):
    from test_fit import MEASURE

    cell = matrix[index]
    deck = cell.file("slides").with_suffix(".deck.html")  # beside the page (.out.html), never over it
    deck.write_bytes(cell.file("slides").read_bytes())
    page, errors, _ = open_page(deck, viewport=(1280, 720))
    bad = [f"slide {slide['slide']} ({slide['title']}): {', '.join(slide['bad'])}" for slide in page.evaluate(MEASURE) if slide["bad"]]
    assert bad == [] and errors == []


def test_libreoffice_prints_every_pptx_a_page_a_slide_with_every_shape_on_its_slide(matrix, libreoffice, tmp_path):
    from pptx import Presentation
    from pypdf import PdfReader

    decks = []
    for cell in matrix:
        copy = tmp_path / f"{cell.note.stem}.pptx"
        copy.write_bytes(cell.file("pptx").read_bytes())
        decks.append(copy)
    profile = tmp_path / "profile"
    command = [libreoffice, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path)]
    proc = subprocess.run([*command, *map(str, decks)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    for deck in decks:
        prs = Presentation(str(deck))
        assert len(PdfReader(str(deck.with_suffix(".pdf"))).pages) == len(prs.slides), deck.name
        for number, slide in enumerate(prs.slides, start=1):
            for shape in slide.shapes:
                inside = shape.left >= 0 and shape.top >= 0
                inside = inside and shape.left + shape.width <= prs.slide_width and shape.top + shape.height <= prs.slide_height
                assert inside, f"{deck.name} slide {number}: {shape.name} off the slide"


@pytest.mark.parametrize("index", range(len(NOTES)), ids=IDS)
def test_a_split_code_block_and_an_inverted_tables_header_read_well(matrix, index, open_page):
    """No "(cont.)" part of code starts on a closing bracket; a table's header on an invert slide
    is legible (at least 4.5:1) in Chromium."""
    from helpers import rendered_deck
    from test_layouts import _HEADER_CONTRAST

    cell = matrix[index]
    for slide in rendered_deck(cell.note).slides:
        for entry in slide.content:
            if getattr(entry, "kind", "") == "code":
                from confnotes.slides.fit import code_lines

                first = next((line for line in code_lines(entry) if line.strip()), "")
                assert not first.lstrip().startswith(("}", ")", "]")), slide.display_title
    if "invert" in cell.names:
        deck = cell.file("slides").with_suffix(".invert.html")
        deck.write_bytes(cell.file("slides").read_bytes())
        page, _errors, _ = open_page(deck, viewport=(1280, 720))
        page.evaluate("() => { document.querySelectorAll('.slide').forEach(s => s.style.display = 'block'); }")
        contrasts = page.evaluate(_HEADER_CONTRAST)
        assert contrasts and min(contrasts) >= 4.5, contrasts


def test_marp_cli_centres_every_lead_slide_of_every_note(matrix, browser, processes, tmp_path):
    from helpers import require_marp
    from test_layouts import _MARP_SIDES

    folder = tmp_path / "marp"
    folder.mkdir()
    for cell in matrix:
        (folder / f"{cell.note.stem}.md").write_bytes(cell.file("marp").read_bytes())
        for picture in ("team.png", "tall.png", "room.png", "wide.png", "demo.mp4"):
            (folder / picture).write_bytes((cell.note.parent / picture).read_bytes())
    command = [require_marp(), "--input-dir", str(folder), "-o", str(tmp_path / "html"), "--allow-local-files"]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        for cell in matrix:
            page.goto((tmp_path / "html" / f"{cell.note.stem}.html").as_uri())
            for classes, sides in page.evaluate(_MARP_SIDES):
                if "lead" in classes.split() and "invert" not in classes.split():
                    assert all(abs(left - right) <= 2 for left, right in sides), (cell.note.stem, classes, sides)
    finally:
        page.close()


def _word(cell: Rendered):  # -> docx.Document
    import docx

    return docx.Document(str(cell.file("docx")))


def _output_text(cell: Rendered, fmt: str) -> str:
    """Everything an output shows as text (PDFs' text layer, PPTX's shapes, Word's paragraphs and
    tables, the files' text)."""
    if fmt == "docx":
        word = _word(cell)
        cells = [c.text for table in word.tables for row in table.rows for c in row.cells]
        return "\n".join([p.text for p in word.paragraphs] + cells)
    data = cell.file(fmt).read_bytes()
    if fmt in ("pdf", "slides-pdf", "handout"):
        return pdf_text(data)
    if fmt == "pptx":
        from pptx import Presentation

        return " ".join(
            shape.text_frame.text for slide in Presentation(str(cell.file(fmt))).slides for shape in slide.shapes if shape.has_text_frame
        )
    return data.decode("utf-8")


@pytest.mark.parametrize("index", [n for n, names in enumerate(NOTES) if "callout" in names or "callout-div" in names], ids=str)
def test_callouts_are_boxes_with_their_titles_in_every_output(matrix, index):
    """GitHub's and Obsidian's ``> [!TYPE] title`` and Quarto's ``::: {.callout-note title=…}``: every
    output shows the title and none shows the marker; the page and the deck draw boxes of the kind
    (a foldable one folds on the page), PPTX a tinted box, Marp a quote with the title in bold."""
    from pptx import Presentation

    cell = matrix[index]
    titles = [("callout", "Three pages a night"), ("callout", "Try it"), ("callout-div", "Every Monday")]
    wanted = [title for name, title in titles if name in cell.names]
    for fmt in FORMATS:
        text = " ".join(_output_text(cell, fmt).split())
        assert "[!WARNING]" not in text and "[!tip]" not in text, fmt
        for title in wanted:
            assert title in text, (fmt, title)
    page, deck = cell.file("html").read_text(encoding="utf-8"), cell.file("slides").read_text(encoding="utf-8")
    if "callout" in cell.names:
        assert '<div class="callout callout-warning' in page and '<details class="callout callout-tip' in page
        assert '<div class="callout callout-warning' in deck and '<div class="callout callout-tip' in deck  # a deck shows it open
        assert "> **⚠ Three pages a night**" in cell.file("marp").read_text(encoding="utf-8")
        boxes = [
            shape
            for slide in Presentation(str(cell.file("pptx"))).slides
            for shape in slide.shapes
            if shape.has_text_frame and shape.text_frame.text.startswith("Three pages a night")
        ]
        assert len(boxes) == 1 and str(boxes[0].fill.fore_color.rgb) != "FFFFFF"
    if "callout-div" in cell.names:
        assert '<div class="callout callout-note" role="note"><p class="callout-title">Every Monday</p>' in page
        assert 'class="callout callout-note' in deck


@pytest.mark.parametrize("index", [n for n, names in enumerate(NOTES) if "citation" in names], ids=str)
def test_citations_and_references_in_every_output(matrix, index):
    """``[@key, p. 559]`` with a BibTeX bibliography: every output shows the formatted citation and a
    References section (a slide in the decks) with the entry; none shows the key."""
    cell = matrix[index]
    for fmt in FORMATS:
        text = " ".join(_output_text(cell, fmt).replace("&#x27;", "'").split())
        assert "(Lamport, 1978, p. 559)" in text and "[@lamport1978" not in text, fmt
        assert "References" in text and "Lamport, L. (1978)" in text, fmt


def test_slide_pictures_and_the_book_of_the_matrix_notes(matrix, tmp_path):
    """Every matrix note as slide pictures (a picture a slides-PDF page, each 1920x1080 at scale 1,
    here 480x270 at 0.25) and all of them as one book (each talk where the contents say)."""
    from click.testing import CliRunner
    from PIL import Image
    from pypdf import PdfReader

    from confnotes.cli import main

    for cell in matrix:
        result = CliRunner().invoke(
            main, ["render", str(cell.note), "--to", "png", "--scale", "0.25", "-o", str(tmp_path / cell.note.stem) + "/"]
        )
        assert result.exit_code == 0, result.output
        pictures = sorted((tmp_path / cell.note.stem).glob("*.png"))
        assert len(pictures) == len(PdfReader(str(cell.file("slides-pdf"))).pages)
        assert {Image.open(p).size for p in pictures} == {(480, 270)}
    book = tmp_path / "book.pdf"
    result = CliRunner().invoke(main, ["render", *(str(cell.note) for cell in matrix), "--to", "book", "-o", str(book)])
    assert result.exit_code == 0, result.output
    reader = PdfReader(str(book))
    talks = [item for item in reader.outline if not isinstance(item, list)][2:]  # after the cover and the contents
    assert len(talks) == len(matrix)
    for talk in talks:
        start = reader.get_destination_page_number(talk)
        assert start % 2 == 0 and talk.title in reader.pages[start].extract_text()  # a right-hand page (0-based even)


@pytest.mark.parametrize("index", [n for n, names in enumerate(NOTES) if "math" in names], ids=str)
def test_formulas_are_typeset_in_every_output(matrix, index):
    """``$$B = 1 - \\frac{good}{total}$$`` beside the other features: MathML in the page and the deck,
    a picture with the TeX as its description in PPTX, a Word equation with its fraction in Word,
    the TeX itself in Marp (its own math) and the outline; never the TeX as text in the page."""
    import zipfile

    cell = matrix[index]
    for fmt in ("html", "slides"):
        shown = cell.file(fmt).read_text(encoding="utf-8")
        assert "<mfrac>" in shown and "\\frac{good}" not in re.sub(r"<math\b.*?</math>|<!--.*?-->", "", shown, flags=re.S), fmt
    slides = zipfile.ZipFile(cell.file("pptx"))
    names = [name for name in slides.namelist() if name.startswith("ppt/slides/slide")]
    described = [name for name in names if "\\frac{good}{total}" in slides.read(name).decode()]
    assert described and all("r:embed" in slides.read(name).decode() for name in described)
    document = zipfile.ZipFile(cell.file("docx")).read("word/document.xml").decode()
    fraction = re.search(r"<m:oMathPara>.*?<m:f>.*?<m:t[^>]*>g</m:t>.*?</m:oMathPara>", document, flags=re.S)
    assert fraction is not None and "\\frac" not in document
    for fmt in ("marp", "outline"):
        assert "\\frac{good}{total}" in cell.file(fmt).read_text(encoding="utf-8"), fmt
