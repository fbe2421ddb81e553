"""Footnotes (``[^id]`` and ``[^id]: …``): one block where written, numbered once, shown where each
output shows footnotes — the page's end, the PDF page's foot, each slide's foot."""

from __future__ import annotations

import re
import subprocess

from conftest import FIXTURES
from helpers import assert_words_in_order, page_words, pdf_reading_text, rendered, rendered_deck, require_marp, source_words

POST = FIXTURES / "directed" / "postgres-on-k8s.md"


def test_a_definition_is_one_block_where_it_was_written_and_fmt_keeps_it(cli, tmp_path):
    from confnotes.load import load_note
    from confnotes.model import Block, walk_content

    doc = load_note(str(POST)).doc
    notes = [entry for entry in walk_content(doc.content) if type(entry) is Block and entry.kind == "footnote"]
    assert [note.info for note in notes] == ["ops", "partition", "pgbackrest", "nvme", "unused", "wal"]
    assert notes[1].text.count("\n") == 3 and notes[1].text.endswith("CloudNativePG: 11 s. Patroni: 31 s.")
    assert doc.sections[0].title == "The operator question"  # each stays in its section
    copy = tmp_path / POST.name
    copy.write_bytes(POST.read_bytes())
    assert cli("fmt", str(copy)).exit_code == 0
    assert copy.read_bytes() == POST.read_bytes()


def test_numbers_follow_the_first_citation_and_an_uncited_note_comes_last():
    from confnotes.load import load_note
    from confnotes.markup.footnotes import footnotes_of, references

    notes = footnotes_of(load_note(str(POST)).doc)
    assert notes.numbers == {"ops": 1, "partition": 2, "pgbackrest": 3, "nvme": 4, "wal": 5, "unused": 6}
    assert notes.cited_ids == {"ops", "partition", "pgbackrest", "nvme", "wal"}
    assert references("`dump[^1].sql` and a call[^x]") == ["x"]  # code is code


def test_the_page_links_each_call_to_its_note_at_the_end(cli, tmp_path):
    out = tmp_path / "post.html"
    rendered(cli, POST, "html", out)
    html = out.read_text(encoding="utf-8")
    calls = re.findall(r'<sup class="footnote-ref"><a href="#fn-(\d+)"( id="fnref-\d+")? role="doc-noteref">(\d+)</a></sup>', html)
    assert [number for number, _, _ in calls] == ["1", "2", "3", "4", "5", "1"]
    assert [bool(anchor) for _, anchor, _ in calls] == [True, True, True, True, True, False]  # the second call of 1 links back to none
    endnotes = html[html.index('<section class="footnotes"') :]
    assert re.findall(r'<li id="fn-(\d+)"', endnotes) == ["1", "2", "3", "4", "5", "6"]
    assert endnotes.count('class="footnote-back"') == 5  # the uncited note has no call to go back to
    assert "dump[^1].sql" in html  # in code, as written
    assert "<p" in endnotes[endnotes.index('id="fn-2"') : endnotes.index('id="fn-3"')]  # its two paragraphs kept
    body = POST.read_text(encoding="utf-8")
    words = [word for word in source_words(re.sub(r"\[\^[^\]\s]+\]:?", " ", body))]
    assert set(words) <= set(page_words(html))


def test_the_pdf_puts_each_note_at_the_foot_of_the_page_that_cites_it(cli, tmp_path, weasyprint):
    out = tmp_path / "post.pdf"
    rendered(cli, POST, "pdf", out)
    text = pdf_reading_text(out)
    # the call's number sits in the sentence; the note's text is not in the sentence
    assert re.search(r"three operators\s?1 before settling", text)
    first_page = text.split("\f")[0]
    body_end = first_page.index("full re-clone")
    note = first_page.index("All three were tested on the same 3-node cluster")
    assert note > body_end, "the footnote stands below the page's text"
    assert first_page.index("We cut the primary") < first_page.index("pgBackRest, with the repository on GCS")
    assert "A definition nothing cites" in text  # listed at the end, not lost
    assert text.count("All three were tested") == 1  # cited twice: one note, its number at the second call
    assert re.search(r"the operators\s?1 are cited twice", text)


def test_each_slide_shows_the_notes_it_cites_at_its_foot():
    deck = rendered_deck(POST)
    cited = {slide.title: [number for number, _, _ in slide.footnotes] for slide in deck.slides if slide.footnotes}
    assert cited == {"The operator question": [1, 2, 3], "Storage": [4], "Backups": [1, 5]}
    from confnotes.slides.fit import box_height, footnotes_height

    operators = next(slide for slide in deck.slides if slide.title == "The operator question")
    assert footnotes_height(operators.footnotes) > 4 * 18 * 1.3  # four lines: note 2 has two paragraphs
    assert box_height(operators) < box_height(operators.__class__("text", "x")) - footnotes_height(operators.footnotes) + 1


def test_a_split_slide_keeps_only_the_notes_its_part_cites():
    from confnotes.parse import parse
    from confnotes.slides import build_deck

    items = "\n".join(f"- Point {index} about failover and replicas and storage classes[^n{index}]" for index in range(14))
    defs = "\n".join(f"[^n{index}]: Note {index}." for index in range(14))
    deck = build_deck(parse(f"# Talk\n\n## Many points\n\n{items}\n\n{defs}\n"))
    parts = [slide for slide in deck.slides if slide.title == "Many points"]
    assert len(parts) >= 2
    for part in parts:
        calls = [int(match) for entry in part.content for match in re.findall(r"\[\^n(\d+)\]", entry.text)]
        assert [number for number, _, _ in part.footnotes] == [call + 1 for call in calls]


def test_pptx_writes_a_slides_notes_in_a_box_at_its_foot(cli, tmp_path):
    from pptx import Presentation

    out = tmp_path / "post.pptx"
    rendered(cli, POST, "pptx", out)
    prs = Presentation(str(out))
    for slide in prs.slides:
        texts = [shape.text_frame.text for shape in slide.shapes if shape.has_text_frame]
        joined = "\n".join(texts)
        if texts[0] == "The operator question":
            box = next(text for text in texts if text.startswith("1. All three"))
            assert box.splitlines()[1].startswith("2. We cut the primary") and "3. pgBackRest" in box
            assert "operators¹ before settling" in joined  # the call as a superscript number
        if texts[0] == "Storage":
            assert any(text.startswith("4. fio") for text in texts)


def test_marp_writes_calls_as_numbers_and_notes_in_the_slides_footer(cli, tmp_path):
    out = tmp_path / "post.marp.md"
    rendered(cli, POST, "marp", out)
    text = out.read_text(encoding="utf-8")
    assert "operators¹ before settling" in text and "[^ops]" not in text
    assert '<!-- _footer: "⁴ fio, 4k random writes, iodepth 32." -->' in text
    assert "`pg_dump > dump[^1].sql`" in text


def test_marp_cli_shows_the_footnotes_in_each_slides_footer(cli, tmp_path, processes):
    marp = require_marp()
    deck = tmp_path / "post.marp.md"
    rendered(cli, POST, "marp", deck)
    html = tmp_path / "post.marp.html"
    subprocess.run([marp, "--no-stdin", str(deck), "-o", str(html)], check=True, capture_output=True, timeout=180)
    footers = re.findall(r"<footer>(.*?)</footer>", html.read_text(encoding="utf-8"))
    assert any(footer.startswith("¹ All three were tested") for footer in footers)
    assert "⁴ fio, 4k random writes, iodepth 32." in footers


def test_the_deck_shows_each_slides_notes_inside_its_box(cli, tmp_path, open_page):
    out = tmp_path / "post.slides.html"
    rendered(cli, POST, "slides", out)
    page, errors, _ = open_page(out, viewport=(1280, 720))
    page.goto(out.resolve().as_uri() + "#3")
    boxes = page.evaluate(
        """() => {
        const slide = document.querySelector(".slide.current");
        const notes = slide.querySelector(".slide-footnotes").getBoundingClientRect();
        const items = slide.querySelector(".items").getBoundingClientRect();
        const footer = slide.querySelector(".slide-footer").getBoundingClientRect();
        const count = slide.querySelectorAll(".slide-footnotes li").length;
        return {notes: [notes.top, notes.bottom], items: items.bottom, footer: footer.top, count};
    }"""
    )
    assert boxes["count"] == 3
    assert boxes["items"] <= boxes["notes"][0], "the notes stand below the slide's content"
    assert boxes["notes"][1] <= boxes["footer"], "and above the footer"
    assert not errors


def test_words_of_the_post_keep_their_order_in_the_page(cli, tmp_path):
    out = tmp_path / "post.html"
    rendered(cli, POST, "html", out)
    source = POST.read_text(encoding="utf-8")
    prose = "\n".join(line for line in source.splitlines() if not line.startswith("[^") and not line.startswith("    "))
    prose = re.sub(r"\[\^[^\]\s]+\]", " ", prose)
    assert_words_in_order(source_words(prose), page_words(out.read_text(encoding="utf-8")), "the page")
