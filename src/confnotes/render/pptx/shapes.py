"""PPTX shapes: the deck's geometry in EMU, boxes, text frames, runs and the theme's colours."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from confnotes.edges.images import data_image, local_image
from confnotes.markup.escape import xml_safe
from confnotes.render.deck import image_size
from confnotes.render.markdown import InlineRenderer
from confnotes.slides import Slide
from confnotes.slides.fit import head_height
from confnotes.slides.geometry import (
    BOX_PAD,
    MIN_BODY,
    PPTX_BOTTOM,
    PPTX_TOP,
    SLIDE_H,
)

EMU = 9525  # per px of the 1280×720 deck


LEFT = BOX_PAD[1]


TOP, BOTTOM = PPTX_TOP, PPTX_BOTTOM


FONT, MONO = "DejaVu Sans", "DejaVu Sans Mono"


def _muted() -> Any:
    from pptx.dml.color import RGBColor

    return RGBColor(0x4F, 0x5B, 0x6B)  # type: ignore[no-untyped-call]


def _accent() -> Any:
    from pptx.dml.color import RGBColor

    return RGBColor(0x1F, 0x5F, 0xBF)  # type: ignore[no-untyped-call]


def _pt(px: float) -> Any:
    from pptx.util import Pt

    return Pt(round(px * 0.75, 2))  # PPTX sizes are hundredths of a point


def _emu(left: float, top: float, width: float, height: float) -> tuple[Any, Any, Any, Any]:
    """A box in px as EMU, its edges rounded (not its size), so boxes stacked edge to edge in px
    meet edge to edge in the file."""
    from pptx.util import Emu

    x0, y0 = round(left * EMU), round(top * EMU)
    return Emu(x0), Emu(y0), Emu(round((left + width) * EMU) - x0), Emu(round((top + height) * EMU) - y0)


def _box(shape: Any, left: float, top: float, width: float, height: float) -> None:
    shape.left, shape.top, shape.width, shape.height = _emu(left, top, width, height)


def _frame(frame: Any, autofit: bool = True, scale: float = 1.0) -> None:
    """No inner margins (the deck's box is the text's box), wrapping, and PowerPoint's shrink-on-overflow.

    ``scale`` is the fit engine's shrink for this text, written as PowerPoint writes an autofitted
    body: runs at their unshrunk size (``_size``) and ``normAutofit fontScale`` to show them at the
    fitted one, so the text fits as it opens and PowerPoint refits it from there when it is edited."""
    from pptx.oxml.ns import qn
    from pptx.oxml.xmlchemy import OxmlElement

    frame.word_wrap = True
    frame.margin_left = frame.margin_right = frame.margin_top = frame.margin_bottom = 0
    body = frame._txBody.bodyPr  # noqa: SLF001
    for child in list(body):
        if child.tag in (qn("a:noAutofit"), qn("a:spAutoFit"), qn("a:normAutofit")):
            body.remove(child)
    if autofit:
        fit = OxmlElement("a:normAutofit")
        if _font_scale(scale) < 100000:
            fit.set("fontScale", str(_font_scale(scale)))
        body.append(fit)


def _font_scale(scale: float) -> int:
    """``fontScale`` in thousandths of a percent, as PowerPoint writes it (steps of 0.5 %, 1 % to 100 %)."""
    return max(1000, min(100000, int(round(scale * 200)) * 500))


def _head(slide: Slide) -> float:
    """The height the title (and kicker) take: the fit engine's, but never all of the slide."""
    return min(head_height(slide, slide.scale), SLIDE_H - BOTTOM - TOP - MIN_BODY)


def _size(px: float, scale: float) -> float:
    """A run's size in a body written with ``_frame(…, scale)``: the fitted ``px`` before the shrink."""
    return px * 100000 / _font_scale(scale)


def _run(paragraph: Any, text: str, px: float | None, face: str = FONT, bold: bool = False) -> Any:
    """A run of ``text`` at ``px`` (None: the size its placeholder gives it)."""
    run = paragraph.add_run()
    run.text = xml_safe(text)
    if px is not None:
        run.font.size = _pt(px)
    run.font.name = face
    if bold:
        run.font.bold = True
    return run


def _rich(paragraph: Any, text: str, px: float | None, md: InlineRenderer, bold: bool = False, colour: Any = None) -> None:
    """Inline Markdown as runs, as the HTML deck shows it: bold and italic, code in the monospace
    face, links that can be clicked, and the author's line breaks."""
    for piece, styles, href in md.styled(text):
        if piece == "\n":
            paragraph.add_line_break()
            continue
        run = _run(paragraph, piece, px, face=MONO if "code" in styles else FONT, bold=bold or "strong" in styles)
        if "em" in styles:
            run.font.italic = True
        if colour is not None:
            run.font.color.rgb = colour
        if href:
            run.hyperlink.address = xml_safe(href)


def _paragraphs(page: Any) -> Iterator[Any]:
    """The paragraphs set on the slide's own ground: not those in a box with a fill of its own (code
    keeps its dark ink on its light box, whatever the slide's ground)."""
    from pptx.enum.dml import MSO_FILL

    for shape in page.shapes:
        if shape.has_text_frame and not (shape.shape_type != 14 and shape.fill.type == MSO_FILL.SOLID):  # 14: a placeholder
            yield from shape.text_frame.paragraphs


def _light_text(page: Any) -> None:
    """Every text on the slide light, as the decks set it on a dark background."""
    from pptx.dml.color import RGBColor

    for paragraph in _paragraphs(page):
        for run in paragraph.runs:
            run.font.color.rgb = RGBColor(0xEE, 0xF0, 0xF6)  # type: ignore[no-untyped-call]


def _drop_empty(page: Any) -> None:
    for ph in list(page.placeholders):
        if ph.placeholder_format.idx != 0 and not ph.text_frame.text.strip():
            ph._element.getparent().remove(ph._element)  # noqa: SLF001 - no "Click to add text" boxes


def _cover(page: Any, match: re.Match[str], box: tuple[float, float, float, float], base_dir: Path | None) -> bool:
    """The image filling ``box`` (cropped to it, as the deck's ``object-fit: cover``), behind every
    other shape, with its alt text; False when it cannot be read."""
    path = local_image(match.group(2), base_dir)
    blob = data_image(match.group(2)) if path is None else path.read_bytes()
    pixels = image_size(io.BytesIO(blob)) if blob is not None else None
    if blob is None or pixels is None:
        return False
    picture = page.shapes.add_picture(io.BytesIO(blob), *_emu(*box))
    picture.name = "Layout picture"
    box_ratio, image_ratio = box[2] / box[3], pixels[0] / pixels[1]
    if image_ratio > box_ratio:  # wider than the box: crop its sides
        cut = (1 - box_ratio / image_ratio) / 2
        picture.crop_left = picture.crop_right = cut
    else:
        cut = (1 - image_ratio / box_ratio) / 2
        picture.crop_top = picture.crop_bottom = cut
    picture._element.nvPicPr.cNvPr.set("descr", xml_safe(match.group(1)))  # noqa: SLF001 - the alt text
    tree = page.shapes._spTree  # noqa: SLF001 - behind every other shape
    tree.remove(picture._element)  # noqa: SLF001
    tree.insert(2, picture._element)  # noqa: SLF001
    return True


def _veil(page: Any, box: tuple[float, float, float, float], rgb: tuple[int, int, int]) -> Any:
    """A borderless rectangle over ``box`` in ``rgb`` at 78% opacity: the decks' veil and band."""
    from pptx.dml.color import RGBColor
    from pptx.enum.shapes import MSO_SHAPE
    from pptx.oxml.ns import qn

    shape = page.shapes.add_shape(MSO_SHAPE.RECTANGLE, *_emu(*box))
    shape.fill.solid()
    shape.fill.fore_color.rgb = RGBColor(*rgb)  # type: ignore[no-untyped-call]
    colour = shape.fill._xPr.find(qn("a:solidFill"))[0]  # noqa: SLF001 - python-pptx has no fill transparency
    colour.append(colour.makeelement(qn("a:alpha"), {"val": "78000"}))
    shape.line.fill.background()
    shape.shadow.inherit = False
    return shape


def _band(page: Any, box: tuple[float, float, float, float]) -> None:
    """The full-image layout's dark band behind its title and text (the deck's), text turned light."""
    band = _veil(page, box, (0x0C, 0x12, 0x20))
    band.name = "Layout band"
    tree = page.shapes._spTree  # noqa: SLF001 - above the picture, below the text
    tree.remove(band._element)  # noqa: SLF001
    tree.insert(3, band._element)  # noqa: SLF001
