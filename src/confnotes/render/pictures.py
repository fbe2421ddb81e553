"""Slides as pictures (``render --to png``): one PNG a slide from the slides PDF's own layout, and a
contact sheet of them all — what speakers post and put in chat (Marp's ``--images png``).

The slides PDF is laid out once (WeasyPrint) and each page drawn by PDFium (pypdfium2), so a
picture shows exactly what the slides PDF prints: 1920 × 1080 at ``scale`` 1.
"""

from __future__ import annotations

import io
from pathlib import Path

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


def slide_pictures(doc: Document, options: RenderOptions, base_dir: Path | None, scale: float = 1.0) -> tuple[list[bytes], list[str]]:
    """Each slide of ``doc``'s deck as PNG bytes (``WIDTH`` × ``HEIGHT`` times ``scale``), and the warnings."""
    if not MIN_SCALE <= scale <= MAX_SCALE:
        raise NotesError(f"--scale must be between {MIN_SCALE:g} and {MAX_SCALE:g}, not {scale:g}", kind=ErrorKind.USAGE)
    import pypdfium2

    from confnotes.render.formats import render_note

    data, warnings = render_note(doc, "slides-pdf", options, base_dir)
    pdf = pypdfium2.PdfDocument(bytes(data) if isinstance(data, bytes) else data.encode())
    width = round(WIDTH * scale)
    pictures = []
    try:
        for page in pdf:
            points, _ = page.get_size()
            image = page.render(scale=width / points).to_pil()
            expected = (width, round(HEIGHT * scale))
            if image.size != expected:  # a rounding pixel: the picture is the size it says
                image = image.resize(expected)
            pictures.append(_png(image))
            page.close()
    finally:
        pdf.close()
    return pictures, warnings


def contact_sheet(pictures: list[bytes]) -> tuple[bytes, str | None]:
    """The slides side by side, ``SHEET_COLUMNS`` a row, on a light grey sheet: the first
    ``MAX_SHEET_SLIDES``, and a warning when the deck has more (each has its own picture)."""
    from PIL import Image

    cut = None
    if len(pictures) > MAX_SHEET_SLIDES:
        cut = f"contact sheet of the first {MAX_SHEET_SLIDES} slides of {len(pictures):,} (a sheet holds at most {MAX_SHEET_SLIDES})"
        pictures = pictures[:MAX_SHEET_SLIDES]
    thumb_h = SHEET_THUMB * HEIGHT // WIDTH
    gap = 16
    rows = -(-len(pictures) // SHEET_COLUMNS)
    sheet = Image.new("RGB", (gap + SHEET_COLUMNS * (SHEET_THUMB + gap), gap + rows * (thumb_h + gap)), (230, 232, 236))
    for number, data in enumerate(pictures):
        with Image.open(io.BytesIO(data)) as slide:
            thumb = slide.convert("RGB").resize((SHEET_THUMB, thumb_h))
        row, column = divmod(number, SHEET_COLUMNS)
        sheet.paste(thumb, (gap + column * (SHEET_THUMB + gap), gap + row * (thumb_h + gap)))
    return _png(sheet), cut


def picture_names(stem: str, count: int) -> list[str]:
    """``talk.001.png``, ``talk.002.png``, … (as Marp names them), enough digits for ``count``."""
    digits = max(3, len(str(count)))
    return [f"{stem}.{number:0{digits}d}.png" for number in range(1, count + 1)]


def _png(image: object) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")  # type: ignore[attr-defined]
    return out.getvalue()
