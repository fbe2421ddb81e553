"""The deck model and its six outputs."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from confnotes.edges.source import read_source
from confnotes.parse import parse_source
from confnotes.render.markdown import note_text
from confnotes.slides import DeckOptions, SlideItem, build_deck, slide_words
from conftest import NOTES
from helpers import html_text, pdf_text, require_marp, words

SEEDS = ["scale2025.md", "scaling-reading-list.md"]


def _doc(name: str | Path):
    return parse_source(read_source(NOTES / name if isinstance(name, str) else name))


def test_scale2025_deck_has_19_slides_in_order():
    deck = build_deck(_doc("scale2025.md"))
    assert [(s.kind, s.display_title) for s in deck.slides] == [
        ("title", "System & Reliability @scale Conference"),
        ("agenda", "Agenda"),
        ("divider", "Core Principles for Scaling Systems"),
        ("point", "Embrace Failure as Inevitable"),
        ("point", "Simplify to Scale"),
        ("point", "Co-Design Physics and Software"),
        ("divider", "Key Challenges in Scaling"),
        ("point", "Distributed Training"),
        ("point", "Distributed Inference"),
        ("point", "Reasoning Models at Scale"),
        ("divider", "Case Studies & Strategies"),
        ("point", "Scaling Reinforcement Learning (RL)"),
        ("point", "Twine Gang Scheduling"),
        ("point", "Microservices at Scale"),
        ("divider", "Future Directions"),
        ("point", "Hardware-Software Co-Innovation"),
        ("point", "Traffic-Aware Routing"),
        ("point", "Shift-Left for Inference"),
        ("text", "Conclusion"),
    ]
    agenda = deck.slides[1]
    assert [item.text for item in agenda.items] == [
        "Core Principles for Scaling Systems",
        "Key Challenges in Scaling",
        "Case Studies & Strategies",
        "Future Directions",
        "Conclusion",
    ]
    twine = deck.slides[12]
    assert [(i.label, i.text, i.level) for i in twine.items] == [
        ("Benefits", "", 0),
        ("Reliability", "Atomic task orchestration.", 1),
        ("Efficiency", "Optimize resource packing.", 1),
        ("Scalability", "Unified API for heterogenous workloads.", 1),
    ]
    assert deck.slides[-1].body[0].startswith("Scaling systems demands proactive design")
    assert deck.slides[0].body[0].startswith("notes for the **System & Reliability")


def test_overflow_splits_at_item_boundaries_without_loss():
    doc = _doc("scale2025.md")
    normal = build_deck(doc)
    split = build_deck(doc, DeckOptions(max_items=1))

    def bullets(deck):
        return [(s.title, i.full, i.level) for s in deck.slides if s.kind == "point" for i in s.items]

    assert bullets(split) == bullets(normal)  # nothing lost, nothing duplicated, same order
    assert all(len(s.items) <= 1 for s in split.slides if s.kind == "point")
    training = [s for s in split.slides if s.title == "Distributed Training"]
    assert [s.display_title for s in training] == ["Distributed Training", "Distributed Training (cont.)", "Distributed Training (cont.)"]
    assert [s.part for s in training] == [1, 2, 3] and {s.parts for s in training} == {3}
    single = [s for s in split.slides if s.title == "Reasoning Models at Scale"]
    assert len(single) == 1 and not single[0].continued


def test_a_split_shares_the_points_out_evenly_and_keeps_sub_points_with_their_point():
    """Live notes of 5 points, one with two sub-points, and a closing line: the old split put the first
    two points on one slide and crowded six entries onto the next."""
    from confnotes.parse import parse

    doc = parse(
        "# Keynote — live notes\n\n- 08:02 — the customer video, as always\n- 08:10 — a new Graviton generation\n"
        "- 08:25 — S3 Tables: managed Iceberg tables\n  - compaction is automatic\n  - query from Athena on day one\n"
        "- 08:41 — Aurora DSQL, distributed SQL across regions\n- 09:15 — a long segment on agents I skipped\n",
        "live.md",
    )
    slides = [s for s in build_deck(doc).slides if s.kind == "bullets"]
    assert [[(i.text.split(" — ")[0], i.level) for i in s.items] for s in slides] == [
        [("08:02", 0), ("08:10", 0), ("08:25", 0), ("compaction is automatic", 1), ("query from Athena on day one", 1)],
        [("08:41", 0), ("09:15", 0)],
    ]
    # seven points at six a slide: four and three, not six and one
    seven = parse("# T\n\n## Seven\n\n" + "".join(f"- point {n}\n" for n in range(1, 8)), "seven.md")
    parts = [len(s.items) for s in build_deck(seven).slides if s.title == "Seven"]
    assert parts == [4, 3]
    # a point with more sub-points than a slide holds goes on over the next slide
    many = parse("# T\n\n## Many\n\n- the point\n" + "".join(f"  - sub-point {n}\n" for n in range(1, 10)), "many.md")
    slides = [s for s in build_deck(many).slides if s.title == "Many"]
    assert [len(s.items) for s in slides] == [5, 5] and slides[0].items[0].text == "the point"
    assert [i.text for s in slides for i in s.items] == ["the point", *(f"sub-point {n}" for n in range(1, 10))]
    # a paragraph longer than the word limit has a slide to itself; the points after it are still
    # shared out evenly over the fewest slides (not one slide each)
    long = " ".join(["word"] * 70)
    mixed = parse(f"# T\n\n## Long\n\n{long}\n\n" + "".join(f"- point {n}\n" for n in range(1, 9)), "long.md")
    slides = [s for s in build_deck(mixed).slides if s.title == "Long"]
    assert [(len(s.items), s.dense) for s in slides] == [(0, True), (4, False), (4, False)]


def test_word_limit_splits_too():
    deck = build_deck(_doc("scale2025.md"), DeckOptions(max_words=20))
    for slide in deck.slides:
        if slide.kind == "point" and len(slide.items) > 1:
            # only a last part may pass the limit, marked dense: it took in an item that would
            # otherwise sit alone on a slide of its own
            assert slide_words(slide) <= 20 or (slide.dense and slide.part == slide.parts and slide.parts > 1)


def test_reading_list_gives_one_slide_per_entry():
    """Each annotated entry is a slide; entries without an annotation are listed on a slide of the
    list's title (a slide with only a title says nothing)."""
    doc = _doc("scaling-reading-list.md")
    deck = build_deck(doc)
    entries = [s for s in deck.slides if s.kind == "entry"]
    annotated = [n for n in doc.nodes if n.body]
    assert [s.title for s in entries] == [n.title for n in annotated]
    assert len(entries) == 13
    for slide, node in zip(entries, annotated, strict=True):
        assert list(slide.body) == [b.text for b in node.body]
    listed = [s for s in deck.slides if s.kind == "bullets"]
    assert len(listed) == 1 and listed[0].title == doc.meta.title
    assert [item.text for item in listed[0].items] == ["Wide Attention Is The Way Forward for Transformers"]


def test_options_from_front_matter_and_command_line(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text("---\nslides:\n  max_items: 2\n  agenda: false\n---\n\n# T\n\n## S\n\n1. P\n   - a\n   - b\n   - c\n")
    out = cli("render", str(note), "--to", "outline", "-o", "-").stdout
    assert "[agenda]" not in out and "P (cont.)" in out and "at most 2 items" in out
    out = cli("render", str(note), "--to", "outline", "-o", "-", "--max-items", "5", "--agenda").stdout
    assert "[agenda]" in out and "(cont.)" not in out
    bad = tmp_path / "bad.md"
    bad.write_text("---\nslides:\n  max_itemz: 2\n---\n\n# T\n")
    result = cli("render", str(bad), "--to", "outline", "-o", "-")
    assert result.exit_code == 2 and "unknown key 'slides.max_itemz'" in result.stderr


def _outline_words(doc) -> set[str]:
    from confnotes.model import Block, Node, walk_content

    texts = [doc.meta.title]
    for entry in walk_content(doc.content):
        if type(entry) is Node:
            texts.append(entry.title)
        elif type(entry) is Block:
            texts.append(note_text(entry) if entry.kind == "note" else entry.text)
    return words("\n".join(texts))


def _render(cli, note: Path, to: str, tmp_path: Path, *args: str) -> Path:
    out = tmp_path / f"{note.stem}.{to}"
    result = cli("render", str(note), "--to", to, "-o", str(out), *args)
    assert result.exit_code == 0, result.stderr
    return out


def _pptx_text(path: Path) -> tuple[str, str]:
    from pptx import Presentation

    prs = Presentation(str(path))
    text, notes = [], []
    for slide in prs.slides:
        for shape in slide.shapes:
            if shape.has_text_frame:
                text.append(shape.text_frame.text)
        if slide.has_notes_slide:
            notes.append(slide.notes_slide.notes_text_frame.text)
    return "\n".join(text), "\n".join(notes)


@pytest.mark.parametrize("name", [*SEEDS, "notes-talk"])
def test_every_outline_word_is_in_every_output(cli, tmp_path, name, talk_with_notes):
    note = talk_with_notes if name == "notes-talk" else NOTES / name
    expected = _outline_words(_doc(note))
    outputs = {
        "outline": _render(cli, note, "outline", tmp_path).read_text(),
        "marp": _render(cli, note, "marp", tmp_path).read_text(),
        "slides": html_text(_render(cli, note, "slides", tmp_path).read_text()),
        "pptx": "\n".join(_pptx_text(_render(cli, note, "pptx", tmp_path))),
    }
    for fmt, text in outputs.items():
        assert not expected - words(text), f"{fmt} lost words: {sorted(expected - words(text))[:10]}"


@pytest.fixture
def talk_with_notes(tmp_path) -> Path:
    note = tmp_path / "talk.md"
    note.write_text(
        "---\ntitle: Shipping Faster\nevent: DevDays\ndate: 2026-05-01\nspeakers: [Ada]\n---\n\n"
        "Welcome everyone.\n\n<!-- notes: greet the room -->\n\n"
        "## Deploys\n\n::: notes\nTell the pager story.\n:::\n\n"
        "1. Small batches\n   - Merge daily\n     - even on Fridays\n       - folded deeper level\n   - Flags: hide work in progress\n\n"
        "   <!-- notes: show the deploy graph here. -->\n\n"
        "2. Fast rollback\n\n## Wrap-up\n\nQuestions welcome.\n"
    )
    return note


def test_pptx_reads_back_like_the_deck(cli, tmp_path, talk_with_notes):
    from pptx import Presentation

    from confnotes.render.deck import slide_lines
    from confnotes.render.markdown import InlineRenderer

    for note in (talk_with_notes, NOTES / "scale2025.md", NOTES / "scaling-reading-list.md"):
        deck = build_deck(_doc(note))
        plain = InlineRenderer().plain
        prs = Presentation(str(_render(cli, note, "pptx", tmp_path)))
        assert len(prs.slides) == len(deck.slides)
        assert prs.slide_width * 9 == prs.slide_height * 16
        for slide, page in zip(deck.slides, prs.slides, strict=True):
            assert page.shapes.title.text == plain(slide.display_title)
            bodies = [s for s in page.placeholders if s.placeholder_format.idx != 0]
            if slide.kind == "title":
                continue
            expected = slide_lines(slide, plain)
            if not expected:
                assert not bodies
                continue
            if not all(type(entry) is SlideItem for entry in slide.content):
                # text, code, tables and images are shapes of their own, top to bottom
                shown = " ".join(
                    " ".join((shape.text_frame.text if shape.has_text_frame else "").split())
                    for shape in sorted(page.shapes, key=lambda shape: shape.top)
                    if shape != page.shapes.title
                )
                for text, _, _label in expected:
                    assert " ".join(text.split()) in shown
                continue
            paragraphs = bodies[0].text_frame.paragraphs
            got = [(p.text, p.level) for p in paragraphs]
            want = [(f"{label}:" + (f" {text}" if text else "") if label else text, level) for text, level, label in expected]
            assert got == want
            for paragraph, (_, _, label) in zip(paragraphs, expected, strict=True):
                if label:
                    assert paragraph.runs[0].font.bold is True
            notes = page.notes_slide.notes_text_frame.text if page.has_notes_slide else ""
            assert notes == "\n\n".join(slide.notes)
    deck = build_deck(_doc(talk_with_notes))
    assert deck.slides[0].notes == ("greet the room",)
    point = next(s for s in deck.slides if s.title == "Small batches")
    assert point.notes == ("show the deploy graph here.",)
    assert ("even on Fridays; folded deeper level", 1) in [(i.text, i.level) for i in point.items]


def test_slides_pdf_has_one_16_9_page_per_slide(cli, tmp_path, weasyprint):
    from pypdf import PdfReader

    path = _render(cli, NOTES / "scale2025.md", "slides-pdf", tmp_path)
    reader = PdfReader(str(path))
    assert len(reader.pages) == 19
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert abs(width / height - 16 / 9) < 0.01
    assert "Embrace Failure as Inevitable" in reader.pages[3].extract_text()
    assert "Conclusion" in reader.pages[18].extract_text()


def test_handout_pairs_slides_with_notes_and_space(cli, tmp_path, talk_with_notes, weasyprint):
    from pypdf import PdfReader

    path = _render(cli, talk_with_notes, "handout", tmp_path)
    reader = PdfReader(str(path))
    deck = build_deck(_doc(talk_with_notes))
    assert len(reader.pages) == -(-len(deck.slides) // 3)  # three slides a page
    text = pdf_text(path.read_bytes())
    assert "show the deploy graph here." in text and "Tell the pager story." in text
    assert words("Small batches Merge daily Fast rollback") <= words(text)


def test_marp_markdown_structure(cli, tmp_path, talk_with_notes):
    text = _render(cli, talk_with_notes, "marp", tmp_path).read_text()
    assert text.startswith("---\nmarp: true\n")
    deck = build_deck(_doc(talk_with_notes))
    body = text.split("\n---\n", 1)[1]
    assert len(re.findall(r"^---$", body, re.MULTILINE)) == len(deck.slides) - 1
    assert "<!--\nNotes\nshow the deploy graph here.\n-->" in text  # a note Marp cannot read as a directive
    assert "- **Flags:** hide work in progress" in text
    assert "## Small batches" in text


def test_marp_numbered_points_are_ordered_lists_with_their_sub_points_nested(cli, tmp_path):
    from markdown_it import MarkdownIt

    note = tmp_path / "steps.md"
    note.write_text(
        "# Workshop\n\n## Steps\n\n1. Install the tools\n2. Write a test\n3. Run it in CI\n\n"
        "## Notes\n\n- a bullet\n  1. first sub\n  2. second sub\n- another bullet\n  - its sub-bullet\n\n"
        "## Lazy\n\n1. one\n1. another\n7. seven\n"
    )
    text = _render(cli, note, "marp", tmp_path).read_text()
    assert "1. Install the tools\n2. Write a test\n3. Run it in CI\n" in text
    assert "- a bullet\n  1. first sub\n  2. second sub\n- another bullet\n  - its sub-bullet\n" in text
    # numbered as CommonMark, GitHub and pandoc number a list (and as every other output shows it)
    assert "1. one\n2. another\n3. seven\n" in text
    tokens = MarkdownIt("commonmark").parse(text)
    level = {tokens[i + 2].content: t.level for i, t in enumerate(tokens) if t.type == "list_item_open" and tokens[i + 2].type == "inline"}
    assert level["first sub"] > level["a bullet"] and level["its sub-bullet"] > level["another bullet"]
    ordered = [t for t in tokens if t.type == "ordered_list_open"]
    assert len(ordered) == 3


def test_marp_warns_about_images_that_will_not_show(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## Architecture\n\n- the loop\n\n![cycle](img/missing.png)\n\n![web](https://example.org/x.png)\n")
    result = cli("render", str(note), "--to", "marp", "-o", str(tmp_path / "talk.marp.md"))
    assert result.exit_code == 0
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert warnings == [f"{note}: warning: image 'img/missing.png' not found"]  # marp-cli shows web images itself


@pytest.mark.parametrize("name", SEEDS)
def test_marp_cli_renders_without_warnings(cli, tmp_path, name, processes):
    marp = require_marp()
    source = _render(cli, NOTES / name, "marp", tmp_path)
    md = source.with_suffix(".md")
    source.rename(md)
    proc = subprocess.run([marp, str(md), "-o", str(tmp_path / "out.html")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "WARN" not in proc.stdout + proc.stderr and "ERROR" not in proc.stdout + proc.stderr
    deck = build_deck(_doc(name))
    html = (tmp_path / "out.html").read_text()
    assert len(re.findall(r"<section[\s>]", html)) >= len(deck.slides)


def test_outline_marks_split_and_dense_slides(cli, tmp_path):
    out = cli("render", str(NOTES / "scale2025.md"), "--to", "outline", "-o", "-", "--max-items", "2").stdout
    assert out.startswith("System & Reliability @scale Conference — ")
    assert "[point] Distributed Training  (" in out and "! split 1/2" in out
    assert "[point] Distributed Training (cont.)" in out and "! split 2/2" in out
    long = tmp_path / "long.md"
    long.write_text("# T\n\n## S\n\n1. P\n   - " + " ".join(["word"] * 80) + "\n")
    assert "! dense" in cli("render", str(long), "--to", "outline", "-o", "-").stdout


def test_code_colours_only_in_decks_that_show_code(cli, tmp_path):
    """Pygments' rules are for decks that highlight code (on a slide, in speaker notes, in a quote); a deck
    without code does not make WeasyPrint match them."""
    plain = tmp_path / "plain.md"
    plain.write_text("# Talk\n\n## Why\n\n- a point\n- another point\n")
    coded = tmp_path / "coded.md"
    coded.write_text("# Talk\n\n## How\n\n```python\nprint('hello')\n```\n")
    in_notes = tmp_path / "in-notes.md"
    in_notes.write_text("# Talk\n\n## How\n\n- a point\n\n::: notes\n```python\ndef run():\n    pass\n```\n:::\n")
    in_quote = tmp_path / "in-quote.md"
    in_quote.write_text("# Talk\n\n## How\n\n> ```python\n> def run():\n>     pass\n> ```\n")
    for note, expected in ((plain, False), (coded, True), (in_notes, True), (in_quote, True)):
        out = tmp_path / f"{note.stem}.slides.html"
        assert cli("render", str(note), "--to", "slides", "-o", str(out)).exit_code == 0
        html = out.read_text()
        assert (".highlight .k" in html) is expected, note.name
        assert ("highlight" in html.split("</style>", 1)[1]) is expected
