"""Videos in notes (``![demo](demo.mp4)``): played in the page and the deck, a poster frame with a
link in the printed outputs, a movie in PPTX, a link in Word and Marp; checked like a picture."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from helpers import assert_words_in_order, formats_where, make_video, page_words, source_words

pytest.importorskip("av", reason="the video extra (PyAV) makes the test videos: pip install 'confnotes[video]'")

NOTE = """---
title: Shipping on Fridays
speakers: [Ana Costa]
kind: talk
---

## The demo

![The rollout in thirty seconds](demo.mp4)

- Watch the canary turn green

## The dashboard

![A looping dashboard](demo.mp4 "autoplay loop")

- It refreshes every second
"""


@pytest.fixture
def talk(tmp_path: Path) -> Path:
    make_video(tmp_path / "demo.mp4")
    note = tmp_path / "talk.md"
    note.write_text(NOTE, encoding="utf-8")
    return note


# ------------------------------------------------------------------ the check every output makes


def test_a_video_is_read_from_its_bytes_and_checked_like_a_picture(tmp_path):
    from confnotes.edges.video import check_video, is_video, playback

    make_video(tmp_path / "demo.mp4")
    (tmp_path / "fake.mp4").write_text("<html>not a video</html>", encoding="utf-8")
    outside = make_video(tmp_path.parent / f"{tmp_path.name}-outside.mp4")
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "demo.mp4").write_bytes((tmp_path / "demo.mp4").read_bytes())

    assert is_video("demo.mp4") and is_video("clips/intro.WEBM?t=3") and not is_video("demo.png")
    video, problem = check_video("demo.mp4", folder)
    assert problem is None and video is not None and video.mime == "video/mp4" and video.size > 1000
    assert check_video("../fake.mp4", folder)[1] == "video '../fake.mp4' is outside the note's folder; not embedded"
    assert check_video(f"../../{outside.name}", folder)[0] is None
    assert check_video("fake.mp4", tmp_path)[1] == "video 'fake.mp4' is not a video (MP4, QuickTime, WebM or Ogg); not embedded"
    assert check_video("gone.mp4", folder)[1] == "video 'gone.mp4' not found"
    assert playback("autoplay loop") == ("autoplay", "loop") and playback("The demo, autoplay") == ()


def test_a_video_over_the_limit_is_linked_not_embedded(tmp_path, monkeypatch):
    from confnotes.edges import video as video_module

    make_video(tmp_path / "demo.mp4")
    monkeypatch.setattr(video_module, "MAX_VIDEO_BYTES", 100)
    assert video_module.check_video("demo.mp4", tmp_path)[1] == "video 'demo.mp4' is larger than 0 MB; linked, not embedded"


def test_the_poster_is_the_frame_a_second_in_and_a_play_mark_without_pyav(tmp_path, monkeypatch):
    from PIL import Image

    from confnotes.edges import video as video_module

    make_video(tmp_path / "demo.mp4")
    video = video_module.check_video("demo.mp4", tmp_path)[0]
    assert video is not None
    shown = video_module.poster(video)
    assert shown.problem is None and shown.size == (160, 90)
    import io

    with Image.open(io.BytesIO(shown.png)) as frame:
        red, green, blue = frame.convert("RGB").getpixel((120, 70))
    assert red > 150 and green < 80 and blue < 80  # the red after the black opening, not the black
    video_module._poster.cache_clear()
    monkeypatch.setitem(sys.modules, "av", None)  # as without the video extra
    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(tmp_path / "empty-cache"))
    mark = video_module.poster(video)
    video_module._poster.cache_clear()
    assert mark.size == (640, 360)
    assert video_module.poster_warning("demo.mp4", mark) == (
        "video 'demo.mp4': no poster frame, a play mark is shown (a video's poster frame needs the 'video' extra"
        " (av is not installed): pip install 'confnotes[video]')"
    )


def test_a_file_that_only_looks_like_a_video_gets_a_play_mark_not_a_crash(tmp_path):
    from confnotes.edges.video import check_video, poster

    (tmp_path / "broken.mp4").write_bytes(b"\x00\x00\x00\x20ftypisom" + b"\x00" * 4000)
    video = check_video("broken.mp4", tmp_path)[0]
    assert video is not None
    shown = poster(video)
    assert shown.problem is not None and shown.size == (640, 360)


# ------------------------------------------------------------------ each output


def test_the_page_plays_the_video_with_controls_and_autoplays_only_when_asked(cli, talk):
    out = talk.with_name("talk.html")
    result = cli("render", str(talk), "--to", "html", "-o", str(out))
    assert result.exit_code == 0 and "warning" not in result.stderr, result.stderr
    page = out.read_text(encoding="utf-8")
    videos = re.findall(r"<video\b[^>]*>", page)
    assert len(videos) == 2
    assert all(' src="data:video/mp4;base64,' in tag and " controls" in tag for tag in videos)
    assert "autoplay" not in videos[0] and 'aria-label="The rollout in thirty seconds"' in videos[0]
    assert " autoplay loop muted" in videos[1] and "title=" not in videos[1]  # the title asked for playback: not a tooltip
    assert_words_in_order(source_words(NOTE.replace(' "autoplay loop"', "")), page_words(page), "the page")


def test_word_and_marp_link_the_video(cli, talk):
    import docx

    word = talk.with_name("talk.docx")
    assert cli("render", str(talk), "--to", "docx", "-o", str(word)).exit_code == 0
    document = docx.Document(str(word))
    links = [p for p in document.paragraphs if p.text.startswith("\u25b6 ")]
    assert [p.text for p in links] == ["\u25b6 The rollout in thirty seconds", "\u25b6 A looping dashboard"]
    targets = {rel.target_ref for rel in document.part.rels.values() if rel.is_external}
    assert "demo.mp4" in targets
    (talk.parent / "marp").mkdir()
    out = talk.parent / "marp" / "talk.md"
    result = cli("render", str(talk), "--to", "marp", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    marp = out.read_text(encoding="utf-8")
    assert "[\u25b6 The rollout in thirty seconds](../demo.mp4)" in marp and "![" not in marp


def test_pptx_embeds_a_movie_with_its_poster_frame(cli, talk):
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    out = talk.with_name("talk.pptx")
    result = cli("render", str(talk), "--to", "pptx", "-o", str(out))
    assert result.exit_code == 0 and "warning" not in result.stderr, result.stderr
    prs = Presentation(str(out))
    movies = [shape for slide in prs.slides for shape in slide.shapes if shape.shape_type == MSO_SHAPE_TYPE.MEDIA]
    assert len(movies) == 2
    assert movies[0]._element.nvPicPr.cNvPr.get("descr") == "The rollout in thirty seconds"
    parts = {part.partname for part in prs.part.package.iter_parts()}
    assert any(name.endswith(".mp4") for name in parts)
    for movie in movies:
        assert movie.left >= 0 and movie.left + movie.width <= prs.slide_width and movie.top + movie.height <= prs.slide_height


def test_a_video_outside_the_folder_is_a_link_with_one_warning_in_every_output(cli, tmp_path):
    make_video(tmp_path / "secret.mp4")
    folder = tmp_path / "notes"
    folder.mkdir()
    note = folder / "talk.md"
    note.write_text("# Talk\n\n## Demo\n\n![The demo](../secret.mp4)\n", encoding="utf-8")
    for fmt in (fmt for fmt in formats_where(printed=False) if fmt != "outline"):  # the outline names files, uses none
        out = folder / f"talk.out.{fmt}"
        result = cli("render", str(note), "--to", fmt, "-o", str(out))
        assert result.exit_code == 0, (fmt, result.stderr)
        assert result.stderr.count("video '../secret.mp4' is outside the note's folder; not embedded") == 1, (fmt, result.stderr)
        data = out.read_bytes()
        assert b"data:video" not in data and data.count(b"ftypisom") == 0, fmt


# ------------------------------------------------------------------ as the reader sees them


def test_the_printed_outputs_show_the_poster_frame_linked_to_the_video(cli, talk, weasyprint):
    import pypdfium2
    from pypdf import PdfReader

    out = talk.with_name("talk.slides.pdf")
    result = cli("render", str(talk), "--to", "slides-pdf", "-o", str(out))
    assert result.exit_code == 0 and "warning" not in result.stderr, result.stderr
    reader = PdfReader(str(out))
    links = [
        annotation.get_object()["/A"]["/URI"]
        for page in reader.pages
        for annotation in page.get("/Annots", [])
        if annotation.get_object().get("/Subtype") == "/Link" and "/URI" in annotation.get_object().get("/A", {})
    ]
    assert set(links) == {"demo.mp4"}  # relative, as written: no file:/// path of the author's folders
    pdf = pypdfium2.PdfDocument(str(out))
    try:
        demo = pdf[2].render(scale=1).to_pil().convert("RGB")  # title, agenda, then the demo
    finally:
        pdf.close()
    reds = sum(count for count, (r, g, b) in demo.getcolors(1 << 20) if r > 150 and g < 80 and b < 80)
    assert reds > 2000  # the red frame a second in, drawn on the slide
    for fmt in ("pdf", "handout"):
        printed = talk.with_name(f"talk.{fmt}.pdf")
        result = cli("render", str(talk), "--to", fmt, "-o", str(printed))
        assert result.exit_code == 0 and "warning" not in result.stderr, (fmt, result.stderr)


def test_the_deck_shows_the_poster_and_plays_a_video_only_on_its_slide(cli, talk, open_page, tmp_path):
    from PIL import Image

    out = talk.with_name("talk.deck.html")
    assert cli("render", str(talk), "--to", "slides", "-o", str(out)).exit_code == 0
    page, errors, requests = open_page(out, viewport=(1280, 720))
    state = "() => Array.from(document.querySelectorAll('main.slides video')).map(v => [v.paused, v.readyState, v.videoWidth])"
    page.wait_for_function("() => Array.from(document.querySelectorAll('main.slides video')).every(v => v.readyState >= 1)")
    assert [paused for paused, _ready, _width in page.evaluate(state)] == [True, True]
    assert {width for _paused, _ready, width in page.evaluate(state)} == {160}  # the MP4 decodes in Debian's Chromium
    page.goto(out.resolve().as_uri() + "#3")  # the demo's slide: its poster, the frame a second in, until it plays
    shot = tmp_path / "poster.png"
    page.locator("main.slides video").first.screenshot(path=str(shot))
    with Image.open(shot) as picture:  # its top: below it, the player's controls shade the frame
        colours = picture.convert("RGB").crop((0, 0, picture.width, picture.height // 4)).getcolors(1 << 20)
    red = sum(count for count, (r, g, b) in colours if r > 150 and g < 80 and b < 80)
    assert red > 0.5 * sum(count for count, _ in colours)  # not the black first frame
    page.goto(out.resolve().as_uri() + "#4")  # the dashboard's slide: its video asks to autoplay
    page.wait_for_function("() => !document.querySelectorAll('main.slides video')[1].paused")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelectorAll('main.slides video')[1].paused")
    assert errors == [] and requests == []


def test_libreoffice_prints_the_movie_with_its_poster_and_a_code_walk_through_a_slide_a_step(cli, talk, libreoffice, tmp_path):
    """The PPTX as another program reads it: a page a slide, the steps of a walk-through included,
    and the movie's poster frame drawn on its page."""
    import subprocess

    import pypdfium2
    from pptx import Presentation
    from pypdf import PdfReader

    talk.write_text(NOTE + "\n## The fix\n\n```python {1|2}\nretry(call)\nbackoff(attempt)\n```\n", encoding="utf-8")
    deck = tmp_path / "talk.pptx"
    assert cli("render", str(talk), "--to", "pptx", "-o", str(deck)).exit_code == 0
    names = [slide.name for slide in Presentation(str(deck)).slides]
    assert names[-2:] == ["", "The fix (step 2)"]
    profile = tmp_path / "profile"
    command = [
        libreoffice,
        f"-env:UserInstallation=file://{profile}",
        "--headless",
        "--convert-to",
        "pdf",
        "--outdir",
        str(tmp_path / "pdf"),
    ]
    proc = subprocess.run([*command, str(deck)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    printed = tmp_path / "pdf" / "talk.pdf"
    assert len(PdfReader(str(printed)).pages) == len(names)
    pdf = pypdfium2.PdfDocument(str(printed))
    try:
        demo = pdf[2].render(scale=1).to_pil().convert("RGB")  # title, agenda, the demo
    finally:
        pdf.close()
    reds = sum(count for count, (r, g, b) in demo.getcolors(1 << 20) if r > 150 and g < 80 and b < 80)
    assert reds > 2000  # the poster frame, drawn by LibreOffice


def test_a_truncated_or_garbled_video_gets_a_play_mark_and_one_warning(cli, tmp_path):
    """A download cut short, or bytes after a valid header: FFmpeg reads what it can; nothing
    crashes, the poster is a play mark, and the render says why once."""
    real = make_video(tmp_path / "real.mp4").read_bytes()
    (tmp_path / "cut.mp4").write_bytes(real[:600])
    (tmp_path / "noise.webm").write_bytes(b"\x1a\x45\xdf\xa3" + bytes(range(256)) * 40)
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## Demo\n\n![Cut short](cut.mp4)\n\n![Noise](noise.webm)\n", encoding="utf-8")
    from confnotes.edges import video as video_module

    video_module._poster.cache_clear()
    result = cli("render", str(note), "--to", "pptx", "-o", str(tmp_path / "talk.pptx"))
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning:" in line]
    assert len(warnings) == 2 and all("no poster frame, a play mark is shown" in line for line in warnings), warnings


def test_links_to_the_video_lead_from_where_the_output_goes(cli, talk, weasyprint):
    """``-o out/…``: a PDF or Word file in another folder links ``../demo.mp4``, never the note's
    folder as an absolute file:/// address (which also printed the author's folders)."""
    import docx
    from pypdf import PdfReader

    out = talk.parent / "out"
    out.mkdir()
    assert cli("render", str(talk), "--to", "pdf", "-o", str(out / "talk.pdf")).exit_code == 0
    links = {
        annotation.get_object()["/A"]["/URI"]
        for page in PdfReader(str(out / "talk.pdf")).pages
        for annotation in page.get("/Annots", [])
        if "/A" in annotation.get_object()
    }
    assert links == {"../demo.mp4"}
    assert cli("render", str(talk), "--to", "docx", "-o", str(out / "talk.docx")).exit_code == 0
    document = docx.Document(str(out / "talk.docx"))
    assert {rel.target_ref for rel in document.part.rels.values() if rel.is_external} == {"../demo.mp4"}


def test_pictures_and_videos_named_with_spaces_reach_every_output(cli, tmp_path):
    """``![x](<Screen Shot.png>)``, as CommonMark writes an address with spaces: the page showed it,
    but the fit engine, Word, PPTX and Marp did not read it as a picture, so Word printed its
    Markdown, PPTX and Marp left it out, in a folder with accents as anywhere."""
    import docx
    from PIL import Image
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    folder = tmp_path / "dossier été"
    folder.mkdir()
    Image.new("RGB", (640, 360), (200, 30, 30)).save(folder / "écran 1.png")
    make_video(folder / "démo vidéo.mp4")
    note = folder / "note été.md"
    note.write_text("# Été\n\n## Démo\n\n![Le graphe](<écran 1.png>)\n\n## Vidéo\n\n![La démo](<démo vidéo.mp4>)\n", encoding="utf-8")
    for fmt in ("docx", "pptx", "marp"):
        result = cli("render", str(note), "--to", fmt, "-o", str(folder / f"out.{fmt}"))
        assert result.exit_code == 0 and "warning" not in result.stderr, (fmt, result.stderr)
    word = docx.Document(str(folder / "out.docx"))
    assert len(word.inline_shapes) == 1 and "![" not in "\n".join(p.text for p in word.paragraphs)
    assert {rel.target_ref for rel in word.part.rels.values() if rel.is_external} == {"d%C3%A9mo%20vid%C3%A9o.mp4"}
    kinds = [shape.shape_type for slide in Presentation(str(folder / "out.pptx")).slides for shape in slide.shapes]
    assert MSO_SHAPE_TYPE.PICTURE in kinds and MSO_SHAPE_TYPE.MEDIA in kinds
    marp = (folder / "out.marp").read_text(encoding="utf-8")
    assert "(%C3%A9cran%201.png)" in marp and "[\u25b6 La démo](d%C3%A9mo%20vid%C3%A9o.mp4)" in marp
