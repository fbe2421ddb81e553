"""Slides as pictures (``render --to png``): one PNG a slide from the slides PDF's own layout, and a
contact sheet of them all — what speakers post and put in chat (Marp's ``--images png``).

The slides PDF is laid out once (WeasyPrint) and each page drawn by PDFium (pypdfium2), so a
picture shows exactly what the slides PDF prints: 1920 × 1080 at ``scale`` 1.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from confnotes.errors import ErrorKind, NotesError
from confnotes.model import Document
from confnotes.render.options import RenderOptions

#: A slide's picture at scale 1 (the 16:9 deck of 1280 × 720 px, drawn at 1.5 times).
WIDTH, HEIGHT = 1920, 1080
#: Scales a picture may be drawn at: 0.25 (480 × 270) to 4 (7680 × 4320).
MIN_SCALE, MAX_SCALE = 0.25, 4.0
#: A contact sheet: this many slides a row, each this wide, and at most this many slides (25 rows:
#: a sheet of 1,000 slides would be 1,936 × 71,520 pixels, 415 MB while it is drawn).
SHEET_COLUMNS, SHEET_THUMB = 4, 480
MAX_SHEET_SLIDES = 100


def slide_pictures(
    doc: Document, options: RenderOptions, base_dir: Path | None, scale: float = 1.0
) -> tuple[int, Iterator[bytes], list[str]]:
    """How many slides ``doc``'s deck has, each one's PNG bytes (``WIDTH`` × ``HEIGHT`` times
    ``scale``) drawn as it is asked for, and the warnings. The deck is laid out first, whole; a
    picture is drawn only when the one before it has been taken, so a deck of 1,000 slides at scale
    4 is never held at once (it would be gigabytes)."""
    if not MIN_SCALE <= scale <= MAX_SCALE:
        raise NotesError(f"--scale must be between {MIN_SCALE:g} and {MAX_SCALE:g}, not {scale:g}", kind=ErrorKind.USAGE)
    from confnotes.edges.extras import require
    from confnotes.render.formats import render_note

    pypdfium2 = require("pypdfium2", "render --to png")

    data, warnings = render_note(doc, "slides-pdf", options, base_dir)
    pdf = pypdfium2.PdfDocument(bytes(data) if isinstance(data, bytes) else data.encode())
    return len(pdf), _drawn(pdf, round(WIDTH * scale), round(HEIGHT * scale)), warnings


def _drawn(pdf: Any, width: int, height: int) -> Iterator[bytes]:
    try:
        for page in pdf:
            points, _ = page.get_size()
            image = page.render(scale=width / points).to_pil()
            if image.size != (width, height):  # a rounding pixel: the picture is the size it says
                image = image.resize((width, height))
            page.close()
            yield _png(image)
    finally:
        pdf.close()


class ContactSheet:
    """The slides side by side, ``SHEET_COLUMNS`` a row, on a light grey sheet, added one at a time:
    the first ``MAX_SHEET_SLIDES`` of ``count``, and a warning when the deck has more (each has its
    own picture)."""

    GAP = 16

    def __init__(self, count: int) -> None:
        from PIL import Image

        self.count, self.added = count, 0
        self.thumb_h = SHEET_THUMB * HEIGHT // WIDTH
        rows = -(-min(count, MAX_SHEET_SLIDES) // SHEET_COLUMNS)
        size = (self.GAP + SHEET_COLUMNS * (SHEET_THUMB + self.GAP), self.GAP + rows * (self.thumb_h + self.GAP))
        self.sheet = Image.new("RGB", size, (230, 232, 236))

    def add(self, picture: bytes) -> None:
        from PIL import Image

        if self.added >= MAX_SHEET_SLIDES:
            return
        with Image.open(io.BytesIO(picture)) as slide:
            thumb = slide.convert("RGB").resize((SHEET_THUMB, self.thumb_h))
        row, column = divmod(self.added, SHEET_COLUMNS)
        self.sheet.paste(thumb, (self.GAP + column * (SHEET_THUMB + self.GAP), self.GAP + row * (self.thumb_h + self.GAP)))
        self.added += 1

    def finish(self) -> tuple[bytes, str | None]:
        """The sheet as PNG bytes, and what it left out."""
        cut = None
        if self.count > MAX_SHEET_SLIDES:
            cut = f"contact sheet of the first {MAX_SHEET_SLIDES} slides of {self.count:,} (a sheet holds at most {MAX_SHEET_SLIDES})"
        return _png(self.sheet), cut


def contact_sheet(pictures: list[bytes]) -> tuple[bytes, str | None]:
    """The contact sheet of ``pictures`` (``ContactSheet`` given them all)."""
    sheet = ContactSheet(len(pictures))
    for picture in pictures[:MAX_SHEET_SLIDES]:
        sheet.add(picture)
    return sheet.finish()


def picture_names(stem: str, count: int) -> list[str]:
    """``talk.001.png``, ``talk.002.png``, … (as Marp names them), enough digits for ``count``."""
    digits = max(3, len(str(count)))
    return [f"{stem}.{number:0{digits}d}.png" for number in range(1, count + 1)]


def _png(image: object) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")  # type: ignore[attr-defined]
    return out.getvalue()
