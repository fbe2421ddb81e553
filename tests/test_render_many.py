"""Several notes in one call, and slides as pictures: `render a.md b.md --to pdf -o out/`, and
`render talk.md --to png` (a 1920x1080 picture a slide, from the slides PDF's layout)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import one_error_line

TALK = """---
title: Zero-downtime migrations
speakers: [Amara Okafor]
duration: 20min
---

## Expand

- Add the new column, nullable
- Backfill in batches of 10,000

> [!WARNING] Locks
> An ALTER on a big table can lock it for minutes.

## Contract

1. Switch reads
2. Drop the old column
"""


def _notes(tmp_path: Path) -> list[Path]:
    (tmp_path / "day1").mkdir()
    (tmp_path / "day2").mkdir()
    first, second = tmp_path / "day1" / "migrations.md", tmp_path / "day2" / "retro.md"
    first.write_text(TALK, encoding="utf-8")
    second.write_text("# Retro\n\n## What went well\n\n- Deploys :rocket:\n", encoding="utf-8")
    return [first, second]


def test_several_notes_into_a_folder_or_each_beside_its_note(cli, tmp_path):
    first, second = _notes(tmp_path)
    result = cli("render", str(first), str(second), "--to", "html", "-o", str(tmp_path / "out") + "/")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["migrations.html", "retro.html"]
    assert cli("render", str(first), str(second), "--to", "outline").exit_code == 0
    assert (first.parent / "migrations.slides.txt").exists() and (second.parent / "retro.slides.txt").exists()


def test_several_notes_need_a_folder_and_different_names(cli, tmp_path):
    first, second = _notes(tmp_path)
    line = one_error_line(cli("render", str(first), str(second), "--to", "pdf", "-o", str(tmp_path / "both.pdf")))
    assert line.endswith("names one file, but 2 notes are written: give a folder (-o DIR/)")
    twin = tmp_path / "day2" / "migrations.md"
    twin.write_text(TALK, encoding="utf-8")
    line = one_error_line(cli("render", str(first), str(twin), "-o", str(tmp_path / "out") + "/"))
    assert "would both write" in line and "migrations.html" in line
    assert not list((tmp_path / "out").iterdir())  # nothing written
    assert "renders alone" in one_error_line(cli("render", "-", str(first), "-o", str(tmp_path / "out") + "/"))


def test_a_note_that_cannot_be_read_does_not_stop_the_others(cli, tmp_path):
    first, _ = _notes(tmp_path)
    broken = tmp_path / "broken.md"
    broken.write_bytes(b"# Broken\n\n\xff\xfe not UTF-8\n")
    result = cli("render", str(broken), str(first), "--to", "html", "-o", str(tmp_path / "out") + "/")
    assert result.exit_code == 2
    assert result.stderr.count("not valid UTF-8") == 1 and "Traceback" not in result.stderr
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["migrations.html"]


def test_slides_as_pictures(cli, tmp_path, weasyprint):
    from PIL import Image
    from pypdf import PdfReader

    first, _ = _notes(tmp_path)
    result = cli("render", str(first), "--to", "png", "-o", str(tmp_path / "pics"), "--contact-sheet")
    assert result.exit_code == 0, result.output
    cli("render", str(first), "--to", "slides-pdf", "-o", str(tmp_path / "deck.pdf"))
    slides = len(PdfReader(str(tmp_path / "deck.pdf")).pages)
    pictures = sorted((tmp_path / "pics").glob("migrations.0*.png"))
    assert [p.name for p in pictures] == [f"migrations.{n:03d}.png" for n in range(1, slides + 1)]
    assert all(Image.open(p).size == (1920, 1080) for p in pictures)
    rows = -(-slides // 4)
    assert Image.open(tmp_path / "pics" / "migrations.contact.png").size == (16 + 4 * 496, 16 + rows * (270 + 16))
    # the callout slide is drawn: its tinted box is in the picture, not a blank slide
    colours = Image.open(pictures[2]).convert("RGB").getcolors(1_000_000)
    assert len(colours) > 50
    small = cli("render", str(first), "--to", "png", "--scale", "0.5")
    assert small.exit_code == 0 and Image.open(first.parent / "migrations.001.png").size == (960, 540)


def test_each_picture_is_written_before_the_next_is_drawn(cli, tmp_path, monkeypatch, weasyprint):
    """A deck's pictures were all held until the last was drawn: 1,000 slides at scale 4 would be
    gigabytes. Now at most one is held (the contact sheet keeps only its thumbnails)."""
    import confnotes.edges.output
    import confnotes.render.pictures as pictures

    first, _ = _notes(tmp_path)
    events: list[str] = []
    drawn, written = pictures._png, confnotes.edges.output.write_in
    monkeypatch.setattr(pictures, "_png", lambda image: events.append("draw") or drawn(image))
    monkeypatch.setattr(confnotes.edges.output, "write_in", lambda *args, **kw: events.append("write") or written(*args, **kw))
    result = cli("render", str(first), "--to", "png", "--scale", "0.25", "-o", str(tmp_path / "pics"), "--contact-sheet")
    assert result.exit_code == 0, result.output
    slides = len(list((tmp_path / "pics").glob("migrations.0*.png")))
    assert slides > 3 and events[: 2 * slides] == ["draw", "write"] * slides  # then the sheet: drawn, written


@pytest.mark.parametrize(
    ("args", "message"), [(("--scale", "9"), "--scale must be between 0.25 and 4"), (("-o", "x.png"), "give a folder")]
)
def test_pictures_refuse_what_they_cannot_make(cli, tmp_path, args, message):
    first, _ = _notes(tmp_path)
    assert message in one_error_line(cli("render", str(first), "--to", "png", *args))


def test_a_contact_sheet_holds_its_first_hundred_slides_and_says_so():
    """A sheet of 1,000 slides would be 1,936 × 71,520 pixels (415 MB while drawn)."""
    import io

    from PIL import Image

    from confnotes.render.pictures import MAX_SHEET_SLIDES, contact_sheet

    tiny = io.BytesIO()
    Image.new("RGB", (48, 27), (200, 40, 40)).save(tiny, "PNG")
    sheet, cut = contact_sheet([tiny.getvalue()] * (MAX_SHEET_SLIDES + 20))
    assert cut == f"contact sheet of the first {MAX_SHEET_SLIDES} slides of 120 (a sheet holds at most {MAX_SHEET_SLIDES})"
    assert Image.open(io.BytesIO(sheet)).size == (16 + 4 * 496, 16 + 25 * (270 + 16))
    assert contact_sheet([tiny.getvalue()] * 3)[1] is None
