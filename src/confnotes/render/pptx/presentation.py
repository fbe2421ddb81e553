"""The PPTX file: 16:9 slides, the layouts by name, a user's reference deck and a reproducible zip."""

from __future__ import annotations

import functools
import io
from typing import Any

from confnotes.errors import NotesError, render_error
from confnotes.render.pptx.shapes import EMU
from confnotes.slides.geometry import (
    SLIDE_H,
    SLIDE_W,
)

LAYOUTS = {
    "title": "Title Slide",
    "section": "Section Header",
    "content": "Title and Content",
    "title-only": "Title Only",
    "two": "Two Content",
}


_DEFAULT_INDEX = {"title": 0, "section": 2, "content": 1, "title-only": 5, "two": 3}


#: A reference PPTX is read up to this size; its archive is checked as imports are (``confnotes.edges.archives``).
MAX_REFERENCE_BYTES = 64 * 1024 * 1024


def _open_reference(path: str) -> Any:
    """A user's template with its slides removed (layouts, masters and theme kept). It comes from a
    config, so a notes folder may name it: its size and its archive's declared sizes and ratios are
    checked before python-pptx unpacks it (a 2 MB zip bomb unpacked to 3.2 GB)."""
    from pptx import Presentation

    from confnotes.edges.archives import open_zip
    from confnotes.edges.source import read_bytes

    try:  # a regular file only: a pipe or a device named by a config would block the render
        data = read_bytes(path, "reference PPTX", MAX_REFERENCE_BYTES)
    except NotesError as exc:
        raise render_error(f"cannot read reference PPTX: {exc.message}", path) from None
    try:
        open_zip(data, path, "reference PPTX").close()
        prs = Presentation(io.BytesIO(data))
    except NotesError as exc:
        raise render_error(f"cannot read reference PPTX: {exc.message}", path) from None
    except Exception as exc:  # noqa: BLE001 - python-pptx raises many kinds for a file that is not a PPTX
        raise render_error(f"cannot read reference PPTX: {str(exc) or type(exc).__name__}", path) from None
    slide_ids = prs.slides._sldIdLst  # noqa: SLF001 - python-pptx has no public API to delete slides
    for slide_id in list(slide_ids):
        prs.part.drop_rel(slide_id.rId)
        slide_ids.remove(slide_id)
    return prs


def _sixteen_nine(prs: Any, default_template: bool) -> None:
    """13.333 × 7.5 in. When ``prs`` is python-pptx's default template, its 4:3 masters and layouts
    are widened to match, to boxes worked out once a process (``_widened_boxes``); a reference
    template's own layouts are kept as the author made them."""
    from pptx.util import Emu

    old_width, old_height = prs.slide_width, prs.slide_height
    prs.slide_width, prs.slide_height = Emu(SLIDE_W * EMU), Emu(SLIDE_H * EMU)
    size = prs.part._element.sldSz  # noqa: SLF001
    if "type" in size.attrib:
        del size.attrib["type"]  # "screen4x3" would contradict the size
    if not default_template or (old_width, old_height) == (SLIDE_W * EMU, SLIDE_H * EMU):
        return
    for shape, box in zip(_placeholders(prs), _widened_boxes(old_width, old_height), strict=True):
        if box is not None:
            shape.left, shape.top, shape.width, shape.height = (Emu(value) for value in box)


def _placeholders(prs: Any) -> list[Any]:
    return [
        shape
        for master in prs.slide_masters
        for shape in [*master.placeholders, *(ph for layout in master.slide_layouts for ph in layout.placeholders)]
    ]


@functools.cache
def _widened_boxes(old_width: int, old_height: int) -> tuple[tuple[int, int, int, int] | None, ...]:
    """The default template's placeholders widened from ``old_width × old_height`` to 16:9, in the
    order ``_placeholders`` lists them, worked out once a process: reading a placeholder's size
    looks it up through its layout and master, 40% of a deck's PPTX, the same for every note of a
    build. Each is widened after the ones before it, as their sizes read then."""
    from pptx import Presentation
    from pptx.util import Emu

    x, y = SLIDE_W * EMU / old_width, SLIDE_H * EMU / old_height
    boxes: list[tuple[int, int, int, int] | None] = []
    for shape in _placeholders(Presentation()):
        if not (shape.width and shape.height):
            boxes.append(None)
            continue
        box = (int(shape.left * x), int(shape.top * y), int(shape.width * x), int(shape.height * y))
        shape.left, shape.top, shape.width, shape.height = (Emu(value) for value in box)
        boxes.append(box)
    return tuple(boxes)


def _layouts(prs: Any) -> dict[str, Any]:
    """Layouts by name (a reference template's own names first), else by the default's position."""
    by_name = {layout.name.strip().lower(): layout for layout in prs.slide_layouts}
    out = {}
    for role, name in LAYOUTS.items():
        layout = by_name.get(name.lower())
        if layout is None:
            index = min(_DEFAULT_INDEX[role], len(prs.slide_layouts) - 1)
            layout = prs.slide_layouts[index]
        out[role] = layout
    return out


def reproducible_zip(data: bytes) -> bytes:
    """The same package with every entry dated ``SOURCE_DATE_EPOCH`` (default 1980-01-01), so the
    same note gives the same bytes in every build (and a sharded build equals a plain one)."""
    import io
    import os
    import time
    import zipfile

    try:
        epoch = max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)
    except ValueError:
        epoch = 315532800
    stamp = time.gmtime(epoch)[:6]
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            target.writestr(entry, source.read(info.filename))
    return out.getvalue()
