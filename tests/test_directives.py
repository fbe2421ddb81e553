"""Slide directives (``<!-- slide … -->``): a break, classes, a background and ``hide``, in every deck."""

from __future__ import annotations

import re
import subprocess

from conftest import FIXTURES
from helpers import rendered, rendered_deck, require_marp, require_program

KEYNOTE = FIXTURES / "directed" / "keynote-directed.md"


def test_directives_break_style_and_hide_slides_in_the_deck():
    deck = rendered_deck(KEYNOTE)
    shown = [(slide.title, slide.continued, slide.classes, slide.background) for slide in deck.slides if slide.kind != "agenda"]
    assert shown == [
        ("The Boring Platform", False, (), "#0b1f3a"),
        ("Where we were", False, (), ""),
        ("Where we were", True, ("invert",), ""),  # <!-- slide class: … --> after the bullets: a new slide
        ("What we built", False, (), "queue-curve.png"),  # under the heading: the section's own slide
        ("What we learned", False, (), ""),  # "The numbers" is hidden
    ]
    agenda = next(slide for slide in deck.slides if slide.kind == "agenda")
    assert [item.text for item in agenda.content] == ["Where we were", "What we built", "What we learned"]  # no backup slide announced
    where = next(slide for slide in deck.slides if slide.continued)
    assert [entry.text for entry in where.content] == ["Then a Friday outage took checkout down for 3 hours"]
    assert where.notes == ("Pause here. Let the number land before the next slide.",)  # the note stays with its slide


def test_the_page_shows_nothing_of_a_directive_and_fmt_keeps_it(cli, tmp_path):
    out = tmp_path / "keynote.html"
    rendered(cli, KEYNOTE, "html", out)
    html = out.read_text(encoding="utf-8")
    assert "slide background" not in html and "cost breakdown per team" in html  # hidden on slides, not in the notes
    copy = tmp_path / KEYNOTE.name
    copy.write_bytes(KEYNOTE.read_bytes())
    assert cli("fmt", str(copy)).exit_code == 0 and copy.read_bytes() == KEYNOTE.read_bytes()


def test_the_html_deck_carries_classes_and_backgrounds(cli, tmp_path):
    out = tmp_path / "keynote.slides.html"
    rendered(cli, KEYNOTE, "slides", out)
    html = out.read_text(encoding="utf-8")
    sections = re.findall(r'<section class="slide ([^"]*)"([^>]*)>', html)
    assert sections[0] == (
        "kind-title on-dark",
        ' style="background: #0b1f3a" id="slide-1" data-index="1" aria-roledescription="slide" aria-label="1 of 6"',
    )
    assert sections[3][0] == "kind-bullets continued invert"
    # embedded (the deck loads nothing), under a veil of the paper's colour so the text stays legible
    veil = "var(--veil, rgba(255, 255, 255, .78))"  # the theme's, white unless it sets one
    assert f'style="background: linear-gradient({veil}, {veil}), url(&quot;data:image/png;base64,' in sections[4][1]
    assert "cost breakdown per team" not in html


def test_chromium_paints_the_background_and_light_text_on_a_dark_one(cli, tmp_path, open_page):
    out = tmp_path / "keynote.slides.html"
    rendered(cli, KEYNOTE, "slides", out)
    page, errors, requests = open_page(out, viewport=(1280, 720))
    colours = page.evaluate(
        """() => {
        const title = document.querySelector("#slide-1");
        const style = getComputedStyle(title);
        return [style.backgroundColor, getComputedStyle(title.querySelector(".slide-title")).color,
                getComputedStyle(document.querySelector("#slide-5")).backgroundImage];
    }"""
    )
    assert colours[0] == "rgb(11, 31, 58)" and colours[1] == "rgb(255, 255, 255)"
    assert colours[2].startswith("linear-gradient(") and 'url("data:image/png' in colours[2]
    assert not errors and not requests


def test_the_slides_pdf_paints_the_background(cli, tmp_path, weasyprint):
    from PIL import Image

    require_program("pdftoppm", install="apt-get install poppler-utils")
    out = tmp_path / "keynote.slides.pdf"
    rendered(cli, KEYNOTE, "slides-pdf", out)
    subprocess.run(["pdftoppm", "-r", "20", "-f", "1", "-l", "1", "-png", str(out), str(tmp_path / "page")], check=True)
    image = Image.open(next(tmp_path.glob("page-*.png"))).convert("RGB")
    assert image.getpixel((5, 5)) == (11, 31, 58)  # the corner: the slide's own colour, edge to edge


def test_pptx_fills_the_background_and_puts_the_picture_behind_everything(cli, tmp_path):
    from pptx import Presentation

    out = tmp_path / "keynote.pptx"
    result = rendered(cli, KEYNOTE, "pptx", out)
    slides = list(Presentation(str(out)).slides)
    assert len(slides) == 6
    assert str(slides[0].background.fill.fore_color.rgb) == "0B1F3A"
    title_colours = {
        str(run.font.color.rgb) for shape in slides[0].shapes if shape.has_text_frame for p in shape.text_frame.paragraphs for run in p.runs
    }
    assert title_colours == {"EEF0F6"}  # light text on the dark fill
    built = slides[4]
    first, veil = built.shapes[0], built.shapes[1]
    assert first.shape_type == 13 and (first.left, first.top, first.width, first.height) == (0, 0, 12192000, 6858000)
    assert 'alpha val="78000"' in veil._element.xml  # the decks' veil over the picture
    invert = slides[3]  # class: invert, a built-in class: the decks' dark blue, light text
    assert str(invert.background.fill.fore_color.rgb) == "0F2547"
    assert "dropped" not in result.stderr


def test_marp_gets_its_own_directives_for_each(cli, tmp_path):
    out = tmp_path / "keynote.marp.md"
    rendered(cli, KEYNOTE, "marp", out)
    text = out.read_text(encoding="utf-8")
    assert '<!-- _class: lead invert -->\n<!-- _backgroundColor: "#0b1f3a" -->' in text
    assert "<!-- _class: invert -->" in text
    assert re.search(r"!\[bg opacity:\.25\]\([^)]*queue-curve\.png\)", text)
    assert "cost breakdown" not in text and "slide background" not in text


def test_marp_cli_shows_the_directed_slides(cli, tmp_path, processes):
    marp = require_marp()
    deck = tmp_path / "keynote.marp.md"
    (tmp_path / "queue-curve.png").write_bytes((KEYNOTE.parent / "queue-curve.png").read_bytes())
    copy = tmp_path / KEYNOTE.name
    copy.write_bytes(KEYNOTE.read_bytes())
    rendered(cli, copy, "marp", deck)
    html = tmp_path / "keynote.marp.html"
    subprocess.run([marp, "--no-stdin", str(deck), "-o", str(html)], check=True, capture_output=True, timeout=180)
    page = html.read_text(encoding="utf-8")
    assert len(set(re.findall(r'<section[^>]* id="(\d+)"', page))) == 6
    assert re.search(r'<section[^>]*class="lead invert"[^>]*style="[^"]*background-color:#0b1f3a', page)
    assert 'class="invert"' in page


def test_the_built_in_classes_look_as_in_marp_in_chromium(cli, tmp_path, open_page):
    out = tmp_path / "keynote.slides.html"
    rendered(cli, KEYNOTE, "slides", out)
    page, errors, _ = open_page(out, viewport=(1280, 720))
    looks = page.evaluate(
        """() => {
        const slide = document.querySelector("#slide-4");
        return [getComputedStyle(slide).backgroundColor, getComputedStyle(slide.querySelector(".slide-title")).color,
                getComputedStyle(slide.querySelector("li")).color];
    }"""
    )
    assert looks == ["rgb(15, 37, 71)", "rgb(255, 255, 255)", "rgb(238, 240, 246)"]  # the points light too
    assert not errors


def test_pptx_drops_a_class_it_has_no_form_for_with_one_warning(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## Results\n\n<!-- slide class: lead big-quote -->\n\n- p99 down 40%\n", encoding="utf-8")
    from pptx import Presentation
    from pptx.enum.text import PP_ALIGN

    result = rendered(cli, note, "pptx", tmp_path / "talk.pptx")
    assert "slide classes (big-quote) style the HTML decks and Marp; PPTX has no classes: dropped" in result.stderr
    slide = list(Presentation(str(tmp_path / "talk.pptx")).slides)[-1]
    body = next(shape for shape in slide.shapes if shape.has_text_frame and "p99" in shape.text_frame.text)
    assert body.text_frame.paragraphs[0].alignment == PP_ALIGN.CENTER  # lead: centred, as the decks centre it


def test_a_directive_it_cannot_read_is_a_lint_finding_naming_what_is_allowed(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## Results\n\n<!-- slide layuot: two-column -->\n\n- p99 down 40%\n", encoding="utf-8")
    result = cli("lint", "--no-cache", str(note))
    assert (
        "CN114 slide-directive unknown slide directive 'layuot' (known: layout, class, background, notes, hide, incremental)"
        in result.stdout
    )
