"""PowerPoint through python-pptx (``--to pptx``): the deck's slides, fitted, as real shapes.

16:9 (13.333 × 7.5 in, ``sldSz`` without the 4:3 type). Titles and bodies sit in explicit,
non-zero boxes laid out like the HTML deck (1 px of the 1280×720 deck = 9525 EMU), with the fit
engine's font sizes (DejaVu Sans, as the themes use): a shrunk body has its runs at their unshrunk
size and ``normAutofit fontScale`` at the engine's scale, as PowerPoint writes autofitted text.
Bullets are the layout's body placeholder when a slide is only bullets; otherwise each run is a
shape of its own, stacked top to bottom: bullets in a text box, code in a monospace box
on a tinted fill (long lines wrapped behind a mark, as on the HTML deck), tables as PPTX tables,
images as pictures scaled into the room the fit engine left (missing or remote images: their alt
text in a dashed box). Speaker notes go to the notes pane.

``--reference-pptx FILE`` (config ``reference_pptx``) starts from a user's template, as pandoc's
``--reference-doc`` does: its slides are dropped, its theme kept, and layouts are chosen by
name — Title Slide, Section Header, Title and Content, Title Only — with the layouts' own
placeholder geometry.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from confnotes.errors import NotesError, render_error
from confnotes.escape import xml_safe
from confnotes.images import data_image, image_warning, local_image, shown_source
from confnotes.math import display_tex
from confnotes.model import Document
from confnotes.render.deck import agenda_minutes, contained, image_size, slide_lines, talk_plan_for
from confnotes.render.markdown import InlineRenderer
from confnotes.render.options import RenderOptions
from confnotes.slides import Slide, SlideItem, SlideText, is_image
from confnotes.slides.directives import is_dark
from confnotes.slides.fit import IMAGE_REF, code_columns, code_lines, entry_height, head_height, plain, table_row_heights, table_rows
from confnotes.slides.geometry import (
    BODY_MIN,
    BOX_PAD,
    BOX_W,
    CELL_PAD,
    CODE,
    CODE_MIN,
    CODE_PAD,
    DIVIDER_TITLE,
    FOOTER,
    FOOTNOTE,
    ITEM,
    KICKER,
    LEDE,
    MIN_IMAGE,
    QUOTE_INDENT,
    SLIDE_H,
    SLIDE_W,
    SUB_ITEM,
    TABLE,
    TEXT,
    TITLE,
)
from confnotes.slides.layouts import BIG, PICTURE_SHARE, QUOTE, entry_room
from confnotes.slides.model import SlideEntry, runs_of

EMU = 9525  # per px of the 1280×720 deck
LEFT = BOX_PAD[1]
TOP = 40
BOTTOM = 56
MIN_BODY = 60  # px the content keeps below even a title too long for any slide
LAID_QUOTE_INDENT = 60  # px: the quote layout's quote, set in as the deck sets it
FONT, MONO = "DejaVu Sans", "DejaVu Sans Mono"
LAYOUTS = {
    "title": "Title Slide",
    "section": "Section Header",
    "content": "Title and Content",
    "title-only": "Title Only",
    "two": "Two Content",
}
_DEFAULT_INDEX = {"title": 0, "section": 2, "content": 1, "title-only": 5, "two": 3}


def _muted() -> Any:
    from pptx.dml.color import RGBColor

    return RGBColor(0x4F, 0x5B, 0x6B)  # type: ignore[no-untyped-call]


def _accent() -> Any:
    from pptx.dml.color import RGBColor

    return RGBColor(0x1F, 0x5F, 0xBF)  # type: ignore[no-untyped-call]


def _pt(px: float) -> Any:
    from pptx.util import Pt

    return Pt(round(px * 0.75, 2))  # PPTX sizes are hundredths of a point


def render(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[bytes, list[str]]:
    import io

    from pptx import Presentation

    md = InlineRenderer(base_dir=base_dir, allow_html=options.allow_html)
    from confnotes.footnotes import footnotes_of

    md.load_footnotes(footnotes_of(doc), "slide")
    deck, timing = talk_plan_for(doc, options, base_dir)
    reference = options.reference_pptx
    prs = _open_reference(reference) if reference else Presentation()
    _sixteen_nine(prs, default_template=not reference)
    layouts = _layouts(prs)
    core = prs.core_properties
    core.title = xml_safe(md.plain(doc.meta.title))
    core.author = xml_safe(", ".join(doc.meta.speakers))
    core.subject = xml_safe(" · ".join(part for part in (doc.meta.event, doc.meta.date) if part))
    core.keywords = xml_safe(", ".join(doc.meta.tags))
    core.language = xml_safe(doc.meta.lang)
    warnings: list[str] = []
    minutes = agenda_minutes(doc, timing)
    for slide in deck.slides:
        if slide.kind == "title" or slide.layout in ("title", "section"):  # a title or section layout: its slide layout
            _title_slide(prs, layouts["section" if slide.layout == "section" else "title"], slide, md)
            if slide.layout == "section" and not reference:
                _dark_divider(prs.slides[-1])
            if slide.picture is not None:
                _title_picture(prs.slides[-1], slide, (base_dir, warnings))
        elif slide.kind == "divider":
            page = prs.slides.add_slide(layouts["section"])
            _set_title(page, md.plain(slide.display_title), slide, own_geometry=False)
            _drop_empty(page)
            if not reference:
                _dark_divider(page)
        else:
            only_items = bool(slide.content) and all(type(entry) is SlideItem for entry in slide.content)
            two = (
                only_items
                and slide.grid is not None
                and len(slide.grid.widths) == 2
                and slide.grid.start == 0
                and slide.grid.stops[-1] == len(slide.content)
            )
            page = prs.slides.add_slide(layouts["two" if two else "content" if only_items and slide.grid is None else "title-only"])
            _content_slide(page, slide, md, base_dir, only_items, own_geometry=not reference, warnings=warnings)
            if slide.layout == "full-image":  # on the band over the picture
                _light_text(page)
            if slide.kind == "agenda" and minutes:
                _agenda_minutes(page, minutes)
        if slide.background or slide.classes:
            _directed(prs.slides[-1], slide, base_dir, warnings)
        if not reference and slide.kind != "title":
            _footer(prs.slides[-1], md.plain(deck.title), f"{len(prs.slides)} / {len(deck.slides)}", slide)
        if slide.shared_notes:  # (none when <!-- slide notes: presenter --> keeps them to the presenter view)
            prs.slides[-1].notes_slide.notes_text_frame.text = xml_safe("\n\n".join(slide.shared_notes))
    buffer = io.BytesIO()
    prs.save(buffer)
    return reproducible_zip(buffer.getvalue()), [*dict.fromkeys(md.warnings + warnings)]


# ------------------------------------------------------------------ the presentation


#: A reference PPTX is read up to this size; its archive is checked as imports are (``confnotes.archives``).
MAX_REFERENCE_BYTES = 64 * 1024 * 1024


def _open_reference(path: str) -> Any:
    """A user's template with its slides removed (layouts, masters and theme kept). It comes from a
    config, so a notes folder may name it: its size and its archive's declared sizes and ratios are
    checked before python-pptx unpacks it (a 2 MB zip bomb unpacked to 3.2 GB)."""
    from pptx import Presentation

    from confnotes.archives import open_zip
    from confnotes.source import read_bytes

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


# ------------------------------------------------------------------ slides


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


def _set_title(page: Any, text: str, slide: Slide, own_geometry: bool) -> None:
    from pptx.enum.text import PP_ALIGN

    title = page.shapes.title
    if title is None:
        return
    title.text_frame.text = xml_safe(text)
    if own_geometry:
        top, height = float(TOP), _head(slide) - 12
        if slide.subtitle and slide.kind not in ("title", "divider"):  # the section above a point's title, as on the deck
            kicker = KICKER[0] * KICKER[1] + KICKER[2]
            box = page.shapes.add_textbox(*_emu(LEFT, TOP, BOX_W, kicker - 2))
            _frame(box.text_frame)
            run = _run(box.text_frame.paragraphs[0], plain(slide.subtitle).upper(), KICKER[0])
            run.font.color.rgb = _accent()
            top, height = TOP + kicker, height - kicker
        _box(title, LEFT, top, BOX_W, height)
        _frame(title.text_frame, scale=slide.scale)
        for paragraph in title.text_frame.paragraphs:
            paragraph.alignment = PP_ALIGN.LEFT  # as the deck sets titles, over the left edge of the text
            for run in paragraph.runs:
                run.font.size = _pt(_size(TITLE[0] * slide.scale, slide.scale))
                run.font.name = FONT
                run.font.bold = True
    elif title.width == 0 or title.height == 0:
        _box(title, LEFT, TOP, BOX_W, 100)


def _dark_divider(page: Any) -> None:
    """A section divider (or a ``section`` layout) as the deck draws it: the title in white, large,
    as written (the template's Section Header sets it in capitals), on the theme's dark blue, and
    the layout's text under it in light grey (the template puts it above)."""
    from pptx.dml.color import RGBColor
    from pptx.enum.text import MSO_ANCHOR, PP_ALIGN

    fill = page.background.fill
    fill.solid()
    fill.fore_color.rgb = RGBColor(0x0F, 0x25, 0x47)  # type: ignore[no-untyped-call]
    title = page.shapes.title
    if title is None:
        return
    text = [ph for ph in page.placeholders if ph.placeholder_format.idx != 0 and ph.has_text_frame]
    _box(title, LEFT, 220 if text else 260, BOX_W, 110 if text else 200)
    _frame(title.text_frame)
    for paragraph in title.text_frame.paragraphs:
        paragraph.alignment = PP_ALIGN.LEFT
        for run in paragraph.runs:
            run.font.size, run.font.name, run.font.bold = _pt(DIVIDER_TITLE), FONT, True
            run.font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)  # type: ignore[no-untyped-call]
            run.font._rPr.set("cap", "none")  # noqa: SLF001 - python-pptx has no caps property
    for placeholder in text:
        _box(placeholder, LEFT, 340, BOX_W, 240)
        frame = placeholder.text_frame
        frame.vertical_anchor = MSO_ANCHOR.TOP
        for paragraph in frame.paragraphs:
            paragraph.alignment = PP_ALIGN.LEFT
            for run in paragraph.runs:
                run.font.color.rgb = RGBColor(0xC3, 0xC8, 0xD6)  # type: ignore[no-untyped-call]


def _on_dark(slide: Slide) -> bool:
    """Whether the slide's ground is dark, so its footer is light: a section divider or layout, a
    full-image photo, a dark background colour, or the invert class with no background of the author's."""
    if slide.kind == "divider" or slide.layout in ("section", "full-image"):
        return True
    return is_dark(slide.background) if slide.background else "invert" in slide.classes


def _footer(page: Any, title: str, number: str, slide: Slide) -> None:
    """The deck's title and the slide number along the bottom, as on the HTML deck: white on a
    dark ground, and beside an image layout's side picture, never over it."""
    from pptx.dml.color import RGBColor
    from pptx.enum.text import PP_ALIGN

    top = SLIDE_H - BOTTOM + 16
    start, end = float(LEFT), float(LEFT + BOX_W)
    if slide.layout == "image-left":
        start = SLIDE_W * PICTURE_SHARE + LEFT
    elif slide.layout == "image-right":
        end = SLIDE_W * (1 - PICTURE_SHARE) - LEFT
    on_dark, span = _on_dark(slide), end - start
    for text, left, width, align in (
        (title, start, span * 0.7, PP_ALIGN.LEFT),
        (number, start + span * 0.75, span * 0.25, PP_ALIGN.RIGHT),
    ):
        box = page.shapes.add_textbox(*_emu(left, top, width, 24))
        _frame(box.text_frame, autofit=False)
        paragraph = box.text_frame.paragraphs[0]
        paragraph.alignment = align
        _run(paragraph, text, FOOTER).font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF) if on_dark else _muted()  # type: ignore[no-untyped-call]


def _footnotes(page: Any, slide: Slide, md: InlineRenderer, box: tuple[float, float, float, float]) -> None:
    """The footnotes the slide cites, one paragraph each (``1. text``), in small muted text."""
    from pptx.enum.shapes import MSO_SHAPE
    from pptx.util import Emu

    left, top, width, height = box
    rule = page.shapes.add_shape(MSO_SHAPE.RECTANGLE, *_emu(left, top, width, 1))  # the thin rule the deck draws above them
    rule.fill.solid()
    rule.fill.fore_color.rgb = _muted()
    rule.line.fill.background()
    rule.shadow.inherit = False
    shape = page.shapes.add_textbox(*_emu(left, top + 1, width, height - 1))
    frame = shape.text_frame
    _frame(frame, autofit=False)
    frame.margin_top = Emu(int((FOOTNOTE[2] - 1) * EMU))
    size = FOOTNOTE[0]
    for index, (number, _, text) in enumerate(slide.footnotes):
        parts = [part.strip() for part in text.split("\n\n") if part.strip()] or [""]
        for at, part in enumerate(parts):
            paragraph = frame.paragraphs[0] if index == 0 and at == 0 else frame.add_paragraph()
            if at == 0:
                _run(paragraph, f"{number}. ", size).font.color.rgb = _muted()
            _rich(paragraph, " ".join(part.split()), size, md, colour=_muted())


#: the classes every deck knows (Marp's themes have them too): light on dark, and centred
BUILT_IN_CLASSES = ("invert", "lead")


def _directed(page: Any, slide: Slide, base_dir: Path | None, warnings: list[str]) -> None:
    """What ``<!-- slide … -->`` asked of a slide, as PowerPoint has it: a background colour (light
    text on a dark one), or a background picture covering the slide behind everything; of the
    classes, the built-in ones (``invert``, ``lead``); the others are CSS (a warning says so)."""
    from pptx.enum.text import PP_ALIGN

    from confnotes.slides.directives import is_colour

    others = [name for name in slide.classes if name not in BUILT_IN_CLASSES]
    if others:
        warnings.append(f"slide classes ({', '.join(others)}) style the HTML decks and Marp; PPTX has no classes: dropped")
    if "lead" in slide.classes:  # centred, as the decks centre it
        for paragraph in _paragraphs(page):
            paragraph.alignment = PP_ALIGN.CENTER
    background = slide.background or ("#0f2547" if "invert" in slide.classes else "")  # invert: the decks' dark blue
    if background and is_colour(background):
        _fill(page, background)
    elif background:
        _background_picture(page, background, base_dir, warnings)


def _paragraphs(page: Any) -> Iterator[Any]:
    for shape in page.shapes:
        if shape.has_text_frame:
            yield from shape.text_frame.paragraphs


def _fill(page: Any, background: str) -> None:
    """The slide's background in a colour; its text light on a dark one."""
    from pptx.dml.color import RGBColor

    from confnotes.slides.directives import rgb

    colour = rgb(background)
    if colour is None:
        return
    fill = page.background.fill
    fill.solid()
    fill.fore_color.rgb = RGBColor(*colour)  # type: ignore[no-untyped-call]
    if is_dark(background):
        _light_text(page)


def _light_text(page: Any) -> None:
    """Every text on the slide light, as the decks set it on a dark background."""
    from pptx.dml.color import RGBColor

    for paragraph in _paragraphs(page):
        for run in paragraph.runs:
            run.font.color.rgb = RGBColor(0xEE, 0xF0, 0xF6)  # type: ignore[no-untyped-call]


def _background_picture(page: Any, background: str, base_dir: Path | None, warnings: list[str]) -> None:
    """A picture covering the slide behind everything, under the decks' veil."""
    from pptx.dml.color import RGBColor
    from pptx.enum.shapes import MSO_SHAPE
    from pptx.oxml.ns import qn

    path = local_image(background, base_dir)
    pixels = image_size(io.BytesIO(path.read_bytes())) if path is not None else None
    if path is None or pixels is None:
        warnings.append(image_warning(background, base_dir) or f"background {shown_source(background)} could not be read")
        return
    picture = page.shapes.add_picture(str(path), *_emu(0, 0, SLIDE_W, SLIDE_H))
    picture._element.nvPicPr.cNvPr.set("descr", "")  # noqa: SLF001 - decoration: no alt text
    veil = page.shapes.add_shape(MSO_SHAPE.RECTANGLE, *_emu(0, 0, SLIDE_W, SLIDE_H))  # the decks' veil: text stays legible
    veil.fill.solid()
    veil.fill.fore_color.rgb = RGBColor(0xFF, 0xFF, 0xFF)  # type: ignore[no-untyped-call]
    colour = veil.fill._xPr.find(qn("a:solidFill"))[0]  # noqa: SLF001 - python-pptx has no fill transparency
    colour.append(colour.makeelement(qn("a:alpha"), {"val": "78000"}))
    veil.line.fill.background()
    veil.shadow.inherit = False
    tree = page.shapes._spTree  # noqa: SLF001 - behind every other shape: first after the tree's own properties
    for index, shape in enumerate((picture, veil)):
        tree.remove(shape._element)  # noqa: SLF001
        tree.insert(2 + index, shape._element)  # noqa: SLF001


def _drop_empty(page: Any) -> None:
    for ph in list(page.placeholders):
        if ph.placeholder_format.idx != 0 and not ph.text_frame.text.strip():
            ph._element.getparent().remove(ph._element)  # noqa: SLF001 - no "Click to add text" boxes


def _title_slide(prs: Any, layout: Any, slide: Slide, md: InlineRenderer) -> None:
    page = prs.slides.add_slide(layout)
    _set_title(page, md.plain(slide.display_title), slide, own_geometry=False)
    body = [ph for ph in page.placeholders if ph.placeholder_format.idx != 0]
    # the subtitle, then each opening text as the deck shows it: its line breaks and links kept
    # (code, a table or raw HTML, rare here, as their plain words)
    parts: list[tuple[str, bool]] = [(slide.subtitle, False)] if slide.subtitle else []
    for entry, (line, _level, _label) in zip(slide.content, slide_lines(slide, md.plain), strict=True):
        if entry is slide.picture:
            continue  # an image layout's picture: placed by _title_picture
        if type(entry) is SlideItem:  # (a section layout's points): its marker, label and words, as the deck shows them
            marker = f"{entry.number}. " if entry.number else "• " if entry.level == 0 else "◦ "
            label = f"**{entry.label}:** " if entry.label is not None else ""
            parts.append(("\u2003" * entry.level + marker + label + entry.text.strip(), True))
            continue
        rich = isinstance(entry, SlideText) and entry.kind not in ("code", "table", "html") and not is_image(entry)
        parts.append((entry.text.strip(), True) if rich else (line, False))
    parts = [(text, rich) for text, rich in parts if text]
    if body and parts:
        frame = body[0].text_frame
        _frame(frame)
        # a long opening text: the size the deck's lede has; else the layout's own size
        words = " ".join(md.plain(text) if rich else text for text, rich in parts)
        px = max(BODY_MIN, LEDE * slide.scale) if len(words) > 120 else None
        for index, (text, rich) in enumerate(parts):
            paragraph = frame.paragraphs[0] if index == 0 else frame.add_paragraph()
            if rich:
                _rich(paragraph, text, px, md)
            else:
                _run(paragraph, text, px)
    _drop_empty(page)


def _agenda_minutes(page: Any, minutes: list[str]) -> None:
    """Each agenda item's minutes after it, muted, as the HTML deck shows them."""
    frames = [shape.text_frame for shape in page.shapes if shape.has_text_frame and shape != page.shapes.title]
    paragraphs = [paragraph for frame in frames for paragraph in frame.paragraphs if paragraph.runs]
    for paragraph, label in zip(paragraphs, minutes, strict=False):
        last = paragraph.runs[-1]
        run = paragraph.add_run()
        run.text = f"  {label}"
        run.font.size, run.font.name = last.font.size, last.font.name
        run.font.color.rgb = _muted()


def _items_into(frame: Any, items: list[SlideItem], scale: float, md: InlineRenderer, bullets: bool, big: SlideEntry | None = None) -> None:
    """``items`` as one paragraph each; ``big``, a big-number layout's figure, set as the deck sets
    it: very large, bold, in the accent colour, with no bullet."""
    from pptx.oxml.xmlchemy import OxmlElement

    first = True
    for item in items:
        paragraph = frame.paragraphs[0] if first else frame.add_paragraph()
        first = False
        paragraph.level = item.level
        if item is big:
            _rich(paragraph, item.text, _size(BIG[0] * scale, scale), md, bold=True, colour=_accent())
            paragraph._p.get_or_add_pPr().append(OxmlElement("a:buNone"))  # noqa: SLF001
            continue
        size = ITEM[0] * scale if item.level == 0 else max(BODY_MIN, SUB_ITEM * scale)
        written = _size(size, scale)  # the frame's fontScale brings it to ``size``
        if item.number:
            _run(paragraph, f"{item.number}. ", written, bold=True)
        if item.label is not None:
            _rich(paragraph, item.label, written, md, bold=True)
            _run(paragraph, ":" + (" " if item.text else ""), written, bold=True)
        if item.text or item.label is None:
            _rich(paragraph, item.text, written, md)
        paragraph.space_after = _pt(ITEM[2] * scale)
        if item.number:  # the number is the marker: no bullet before it
            paragraph._p.get_or_add_pPr().append(OxmlElement("a:buNone"))  # noqa: SLF001
            continue
        if bullets:  # a text box has no bullets of its own: give each paragraph one
            indent = int((1.1 * ITEM[0] * scale + (1.3 * size if item.level else 0)) * EMU)
            properties = paragraph._p.get_or_add_pPr()  # noqa: SLF001
            properties.set("marL", str(indent))
            properties.set("indent", str(-int(0.9 * size * EMU)))
            # the bullet's size and face stated, as PowerPoint writes them: without them LibreOffice
            # draws a small bullet raised above the line
            size_pct, face, bullet = OxmlElement("a:buSzPct"), OxmlElement("a:buFont"), OxmlElement("a:buChar")
            size_pct.set("val", "100000")
            face.set("typeface", FONT)
            bullet.set("char", "•" if item.level == 0 else "◦")
            properties.extend((size_pct, face, bullet))


def _content_slide(
    page: Any, slide: Slide, md: InlineRenderer, base_dir: Path | None, only_items: bool, own_geometry: bool, warnings: list[str]
) -> None:
    _set_title(page, md.plain(slide.display_title), slide, own_geometry)
    body = [ph for ph in page.placeholders if ph.placeholder_format.idx != 0]
    area = _content_area(page, slide, body, own_geometry)
    if slide.footnotes:  # at the foot of the content area, as the deck shows them
        from confnotes.slides.fit import footnotes_height

        height = footnotes_height(slide.footnotes)
        area = (area[0], area[1], area[2], max(MIN_BODY, area[3] - height))
        _footnotes(page, slide, md, (area[0], area[1] + area[3], area[2], height))
    if only_items and body and (slide.grid is None or len(body) >= len(slide.grid.widths)):
        columns = [(0, len(slide.content))] if slide.grid is None else slide.grid.spans()
        for placeholder, (box, (start, stop)) in zip(body, zip(_column_areas(slide, area), columns, strict=True), strict=False):
            _box(placeholder, *box)  # Two Content's placeholders, side by side, as the deck's columns
            frame = placeholder.text_frame
            _frame(frame, scale=slide.scale)
            items = [entry for entry in slide.content[start:stop] if isinstance(entry, SlideItem)]
            _items_into(frame, items, slide.scale, md, bullets=False, big=slide.big)
        _drop_empty(page)
        return
    _drop_empty(page)
    for ph in [ph for ph in page.placeholders if ph.placeholder_format.idx != 0]:
        ph._element.getparent().remove(ph._element)  # noqa: SLF001
    found = (base_dir, warnings)
    if slide.picture is not None:  # an image layout: the picture at the side, or under everything
        area = _laid_picture(page, slide, area, found)
    if slide.grid is None:
        _runs_into(page, slide, slide.content, area, md, found)
        return
    grid = slide.grid
    above, below = slide.content[: grid.start], slide.content[grid.stops[-1] :]
    top = area[1] + sum(entry_height(e, slide.scale) for e in above)
    tallest = 0.0
    if above:
        _runs_into(page, slide, above, (area[0], area[1], area[2], top - area[1]), md, found)
    for box, (start, stop) in zip(_column_areas(slide, (area[0], top, area[2], area[1] + area[3] - top)), grid.spans(), strict=True):
        _runs_into(page, slide, slide.content[start:stop], box, md, found)
        tallest = max(tallest, sum(entry_height(e, slide.scale, box[2]) for e in slide.content[start:stop]))
    if below:
        _runs_into(page, slide, below, (area[0], top + tallest, area[2], area[1] + area[3] - top - tallest), md, found)


def _column_areas(slide: Slide, area: tuple[float, float, float, float]) -> list[tuple[float, float, float, float]]:
    """The boxes of the slide's columns across ``area`` (px), as the deck sets them."""
    from confnotes.slides.layouts import COLUMN_GAP, column_widths

    if slide.grid is None:
        return [area]
    left, top, width, height = area
    out = []
    for column in column_widths(len(slide.grid.widths), slide.grid.widths, width):
        out.append((left, top, column, height))
        left += column + COLUMN_GAP
    return out


def _laid_picture(
    page: Any, slide: Slide, area: tuple[float, float, float, float], found: tuple[Path | None, list[str]]
) -> tuple[float, float, float, float]:
    """An image layout's picture: filling the slide's left or right share (``image-left``,
    ``image-right``) or the whole slide behind a dark band (``full-image``); returns the area
    left for the text (the title is moved there too)."""
    from confnotes.slides.layouts import BAND_ROOM, TEXT_BESIDE_W

    picture = slide.picture
    match = IMAGE_REF.search(picture.text) if picture is not None else None
    left, top, width, height = area
    if slide.layout == "full-image":
        box = (0.0, 0.0, float(SLIDE_W), float(SLIDE_H))
        text_area = (left, SLIDE_H - 48 - BAND_ROOM, width, BAND_ROOM)
    else:
        share = SLIDE_W * PICTURE_SHARE
        box = (0.0 if slide.layout == "image-left" else SLIDE_W - share, 0.0, share, float(SLIDE_H))
        text_left = share + LEFT if slide.layout == "image-left" else LEFT
        text_area = (text_left, top, TEXT_BESIDE_W, height)
    placed = _cover(page, match, box, found[0]) if match is not None else False
    if not placed:
        found[1].append(f"slide '{slide.title[:60]}': its {slide.layout} picture could not be read")
    title = page.shapes.title
    if title is not None:
        title_top = text_area[1] - _head(slide) if slide.layout == "full-image" else title.top / EMU
        _box(title, text_area[0], title_top, text_area[2], _head(slide) - 12)
    if slide.layout == "full-image":
        _band(page, (0.0, text_area[1] - _head(slide) - 14, float(SLIDE_W), SLIDE_H - text_area[1] + _head(slide) + 14))
    return text_area


def _title_picture(page: Any, slide: Slide, found: tuple[Path | None, list[str]]) -> None:
    """A title slide's picture (``layout: full-image`` in the lede, or ``image-left``/``-right``):
    covering the slide under a dark veil, its text light, or filling its side."""
    match = IMAGE_REF.search(slide.picture.text) if slide.picture is not None else None
    share = SLIDE_W * PICTURE_SHARE
    box = {"image-left": (0.0, 0.0, share, float(SLIDE_H)), "image-right": (SLIDE_W - share, 0.0, share, float(SLIDE_H))}
    if match is None or not _cover(page, match, box.get(slide.layout, (0.0, 0.0, float(SLIDE_W), float(SLIDE_H))), found[0]):
        found[1].append(f"slide '{slide.title[:60]}': its {slide.layout} picture could not be read")
        return
    if slide.layout == "full-image":
        _title_on_band(page)
        _light_text(page)


def _title_on_band(page: Any) -> None:
    """A full-image title slide as the deck draws it: the title and the text under it at the
    slide's foot, set left, on the dark band (the picture seen whole above it)."""
    from pptx.enum.text import MSO_ANCHOR, PP_ALIGN

    title = page.shapes.title
    rest = [ph for ph in page.placeholders if ph.placeholder_format.idx != 0 and ph.has_text_frame]
    lines = sum(len(ph.text_frame.paragraphs) for ph in rest)
    text_h = 40.0 * min(lines, 4)
    bottom = SLIDE_H - BOTTOM - 8
    top = bottom - text_h - (84 if title is not None else 0)
    if title is not None:
        _box(title, LEFT, top, BOX_W, 80)
    for placeholder in rest:
        _box(placeholder, LEFT, bottom - text_h, BOX_W, text_h)
    for shape in [title, *rest]:
        if shape is None:
            continue
        shape.text_frame.vertical_anchor = MSO_ANCHOR.TOP
        for paragraph in shape.text_frame.paragraphs:
            paragraph.alignment = PP_ALIGN.LEFT
    _band(page, (0.0, top - 20, float(SLIDE_W), bottom - top + 40))


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


def _band(page: Any, box: tuple[float, float, float, float]) -> None:
    """The full-image layout's dark band behind its title and text (the deck's), text turned light."""
    from pptx.dml.color import RGBColor
    from pptx.enum.shapes import MSO_SHAPE
    from pptx.oxml.ns import qn

    band = page.shapes.add_shape(MSO_SHAPE.RECTANGLE, *_emu(*box))
    band.name = "Layout band"
    band.fill.solid()
    band.fill.fore_color.rgb = RGBColor(0x0C, 0x12, 0x20)  # type: ignore[no-untyped-call]
    colour = band.fill._xPr.find(qn("a:solidFill"))[0]  # noqa: SLF001 - python-pptx has no fill transparency
    colour.append(colour.makeelement(qn("a:alpha"), {"val": "78000"}))
    band.line.fill.background()
    band.shadow.inherit = False
    tree = page.shapes._spTree  # noqa: SLF001 - above the picture, below the text
    tree.remove(band._element)  # noqa: SLF001
    tree.insert(3, band._element)  # noqa: SLF001


def _runs_into(
    page: Any,
    slide: Slide,
    content: tuple[SlideEntry, ...],
    area: tuple[float, float, float, float],
    md: InlineRenderer,
    found: tuple[Path | None, list[str]],
) -> None:
    """``content``'s runs one under another in ``area`` (px), each at the fit engine's size there."""
    base_dir, warnings = found
    left, y, width, bottom = area[0], area[1], area[2], area[1] + area[3]
    shrink = min(1.0, area[3] / max(1.0, sum(entry_room(slide, e, slide.scale, width) for e in content if e is not slide.picture)))
    for kind, run in runs_of(content):
        if run is slide.picture:
            continue  # placed by its layout (_laid_picture)
        entries = list(run) if kind == "items" else [run]
        height = sum(entry_room(slide, entry, slide.scale, width) for entry in entries) * shrink
        if kind == "items":
            box = page.shapes.add_textbox(*_emu(left, y, width, height))
            _frame(box.text_frame, scale=slide.scale * shrink)
            _items_into(box.text_frame, entries, slide.scale * shrink, md, bullets=True, big=slide.big)
        elif run.kind == "code":
            _code(page, run, slide.scale * shrink, (left, y, width, height))
        elif run.kind == "table":
            height = _table(page, run, slide, shrink, (left, y, width, height), md, (base_dir, warnings))
        elif run.kind == "diagram":
            height = _diagram(page, run, slide, (left, y, width, bottom - y), warnings)
        elif is_image(run):
            height = _picture(page, run, slide, (left, y, width, bottom - y), base_dir, warnings)
        elif run.kind == "missing-image":
            height = _missing_image(page, run, (left, y, width), base_dir, warnings)
        elif (
            run.kind == "math"
            and (tex := display_tex(run.text)) is not None
            and _formula(page, tex, slide.scale * shrink, (left, y, width, height))
        ):
            pass
        else:
            _text(page, run, slide.scale * shrink, (left, y, width, height), md, _layout_size(slide, run), figure=run is slide.big)
        y += height


def _layout_size(slide: Slide, run: SlideText) -> float | None:
    """A quote layout's quote, or a big-number layout's figure: its size in px (else the text's)."""
    if slide.layout == "quote" and run.kind == "quote":
        return QUOTE[0] * slide.scale
    if run is slide.big:
        return BIG[0] * slide.scale
    return None


def _content_area(page: Any, slide: Slide, body: list[Any], own_geometry: bool) -> tuple[float, float, float, float]:
    """Where a slide's content goes (px): below its title, or where a reference template's layout
    puts its body (or below the layout's title)."""
    title = page.shapes.title
    if own_geometry or title is None:
        top = TOP + _head(slide)
        return (LEFT, top, BOX_W, max(MIN_BODY, SLIDE_H - BOTTOM - top))
    source = body[0] if body else None
    if source is not None and source.width and source.height:
        return (source.left / EMU, source.top / EMU, source.width / EMU, source.height / EMU)
    top = (title.top + title.height) / EMU + 12
    return (LEFT, top, BOX_W, max(MIN_BODY, SLIDE_H - BOTTOM - top))


def _text(
    page: Any,
    entry: SlideText,
    scale: float,
    box: tuple[float, float, float, float],
    md: InlineRenderer,
    px: float | None = None,
    figure: bool = False,
) -> None:
    """A run of text (paragraphs, a quote, raw HTML's words) in a box; ``figure``: a big-number
    layout's figure, bold in the accent colour."""
    shape = page.shapes.add_textbox(*_emu(*box))
    _frame(shape.text_frame, scale=scale)
    size = _size(px if px is not None else max(BODY_MIN, TEXT[0] * scale), scale)
    text = entry.text
    quote = entry.kind == "quote"
    if quote:
        text = "\n".join(line[1:].lstrip() if line.startswith(">") else line for line in text.split("\n"))
    laid = quote and px is not None  # the quote layout's quote: large, italic, in the ink colour
    parts = [part.strip() for part in text.split("\n\n") if part.strip()] or [""]
    for index, part in enumerate(parts):
        paragraph = shape.text_frame.paragraphs[0] if index == 0 else shape.text_frame.add_paragraph()
        if entry.kind == "html":
            _run(paragraph, " ".join(plain(part).split()), size)
        else:
            _rich(paragraph, part, size, md, bold=figure, colour=_muted() if quote and not laid else _accent() if figure else None)
        if laid:  # set in on both sides, as the fit engine measured it (slides.layouts.entry_room)
            paragraph._p.get_or_add_pPr().set("marR", str(int(LAID_QUOTE_INDENT * EMU)))  # noqa: SLF001
            for run in paragraph.runs:
                run.font.italic = True
        if quote:  # set in from the left, in the muted colour, as the deck's quotes are
            paragraph._p.get_or_add_pPr().set("marL", str(int((LAID_QUOTE_INDENT if laid else QUOTE_INDENT) * EMU)))  # noqa: SLF001
        paragraph.space_after = _pt(TEXT[2] * scale)


def _formula(page: Any, tex: str, scale: float, box: tuple[float, float, float, float]) -> bool:
    """A display formula as a picture centred in ``box`` at the size the deck draws it (python-pptx
    has no equations; PowerPoint's OMML needs Office to write), its TeX as the alt text; False for
    TeX that cannot be typeset (the paragraph is then written as text, as every deck shows it)."""
    from confnotes.math import MathError, png, svg

    size = max(BODY_MIN, TEXT[0] * scale) * 1.15
    try:
        drawn, blob = svg(tex, True, 20.0), png(tex, True, 20.0)
    except MathError:
        return False
    left, top, width, height = box
    w, h = drawn.width / 20.0 * size, drawn.height / 20.0 * size
    if w > width:
        w, h = width, h * width / w
    picture = page.shapes.add_picture(io.BytesIO(blob), *_emu(left + (width - w) / 2, top, w, h))
    picture._element.nvPicPr.cNvPr.set("descr", xml_safe(f"$${tex}$$"))  # noqa: SLF001 - the alt text, as PowerPoint stores it
    return True


def _diagram(page: Any, entry: SlideText, slide: Slide, room: tuple[float, float, float, float], warnings: list[str]) -> float:
    """A diagram drawn (``confnotes.diagrams``) as a picture scaled into ``room``, centred, its tool
    named in the alt text; as code when it cannot be drawn here. Returns the height it took (px)."""
    from confnotes.diagrams import diagram_name, draw, language, png

    left, top, width, available = room
    tool = language(entry.info) or "dot"
    source = "\n".join(code_lines(SlideText(entry.text, "code", entry.info)))
    drawn = draw(tool, source)
    if drawn.svg is None:
        warnings.append(f"{tool} diagram shown as code: {drawn.problem}")
        height = min(available, entry_height(SlideText(entry.text, "code", entry.info), slide.scale))
        _code(page, SlideText(entry.text, "code", entry.info), slide.scale, (left, top, width, height))
        return height
    blob = png(drawn.svg, 2 * int(width))
    pixels = image_size(io.BytesIO(blob))
    if pixels is None:
        return 0.0
    w, h = contained(pixels, (width, min(float(slide.image_px or MIN_IMAGE), available)))
    picture = page.shapes.add_picture(io.BytesIO(blob), *_emu(left + (width - w) / 2, top, w, h))
    alt = f"{diagram_name(tool)}: " + " ".join(source.split())[:200]
    picture._element.nvPicPr.cNvPr.set("descr", xml_safe(alt))  # noqa: SLF001 - the alt text, as PowerPoint stores it
    return h + TEXT[2]


def _code(page: Any, entry: SlideText, scale: float, box: tuple[float, float, float, float]) -> None:
    from pptx.dml.color import RGBColor
    from pptx.util import Emu

    from confnotes.render.markdown import wrapped_highlighted

    size = max(CODE_MIN, CODE[0] * scale)
    left, top, width, height = box
    shape = page.shapes.add_textbox(*_emu(left, top, width, height - CODE[2] * scale))
    shape.fill.solid()
    shape.fill.fore_color.rgb = RGBColor(0xF4, 0xF4, 0xF6)  # type: ignore[no-untyped-call]
    frame = shape.text_frame
    _frame(frame, autofit=False)
    frame.margin_left = frame.margin_right = Emu(CODE_PAD[1] * EMU)
    frame.margin_top = frame.margin_bottom = Emu(CODE_PAD[0] * EMU)
    lines = wrapped_highlighted(code_lines(entry), entry.info, code_columns(size, width), entry.whole, entry.first)
    for index, (continued, spans) in enumerate(lines):
        paragraph = frame.paragraphs[0] if index == 0 else frame.add_paragraph()
        if continued:
            mark = _run(paragraph, "↪ ", size, MONO)
            mark.font.color.rgb = RGBColor(0x1F, 0x5F, 0xAD)  # type: ignore[no-untyped-call]
        for css, piece in spans or [("", " ")]:  # the deck's Pygments colours, token by token
            run = _run(paragraph, piece, size, MONO)
            colour = _CODE_COLOURS.get(css if css in _CODE_COLOURS else css[:1])
            if colour:
                run.font.color.rgb = RGBColor.from_string(colour)  # type: ignore[no-untyped-call]


#: Pygments' default palette for the token classes that carry most of the colour on a slide
_CODE_COLOURS = {"k": "008000", "kn": "008000", "nf": "0000FF", "nc": "0000FF", "s": "BA2121", "c": "3D7B7B", "m": "666666", "o": "666666"}


def _table(
    page: Any,
    entry: SlideText,
    slide: Slide,
    shrink: float,
    box: tuple[float, float, float, float],
    md: InlineRenderer,
    found: tuple[Path | None, list[str]],
) -> float:
    """A PPTX table; images in its cells (a row of screenshots side by side) are pictures laid on
    their cells, as PPTX cells hold only text. Returns the height it took (px)."""
    from pptx.util import Emu

    scale = slide.scale * shrink
    rows = table_rows(entry.text)
    columns = max(len(row) for row in rows)
    left, top, width, height = box
    size = max(CODE_MIN, TABLE[0] * scale)
    image_h = float(slide.image_px or MIN_IMAGE) * shrink
    heights = table_row_heights(entry.text, size, width, image_h)
    shape = page.shapes.add_table(len(rows), columns, *_emu(left, top, width, sum(heights)))
    table = shape.table
    for index in range(columns):
        table.columns[index].width = Emu(int(width / columns * EMU))
    y = top
    for r, row in enumerate(rows):
        table.rows[r].height = Emu(int(heights[r] * EMU))
        for c in range(columns):
            cell = table.cell(r, c)
            cell.margin_left = cell.margin_right = Emu(CELL_PAD[1] * EMU)
            cell.margin_top = cell.margin_bottom = Emu(CELL_PAD[0] * EMU)
            cell.text_frame.word_wrap = True
            text = row[c] if c < len(row) else ""
            pictures = list(IMAGE_REF.finditer(text))
            _run(cell.text_frame.paragraphs[0], md.plain(IMAGE_REF.sub("", text).strip() if pictures else text), size, bold=r == 0)
            cell_box = (left + c * width / columns + CELL_PAD[1], y + CELL_PAD[0], width / columns - 2 * CELL_PAD[1])
            for match in pictures[:1]:  # one picture a cell, at the row's image height
                _cell_picture(page, match, (*cell_box, image_h), found)
        y += heights[r]
    return sum(heights) + TABLE[2] * scale


def _picture(
    page: Any, entry: SlideText, slide: Slide, room: tuple[float, float, float, float], base_dir: Path | None, warnings: list[str]
) -> float:
    """The image scaled into ``room`` (never cropped); returns the height it took (px)."""
    left, top, width, available = room
    height = min(float(slide.image_px or MIN_IMAGE), available)
    match = IMAGE_REF.search(entry.text)
    placed = _place(page, match, (left, top, width, height), base_dir) if match else None
    if placed is None:
        return _missing_image(page, entry, (left, top, width), base_dir, warnings)
    return placed + TEXT[2]


def _cell_picture(page: Any, match: re.Match[str], room: tuple[float, float, float, float], found: tuple[Path | None, list[str]]) -> None:
    base_dir, warnings = found
    if _place(page, match, room, base_dir) is None:
        warnings.append(image_warning(match.group(2), base_dir) or f"image {shown_source(match.group(2))} could not be read")


def _place(page: Any, match: re.Match[str], room: tuple[float, float, float, float], base_dir: Path | None) -> float | None:
    """The referenced image scaled into ``room`` (never cropped), centred across it, with its alt
    text; returns its height (px), or None when it cannot be read."""
    left, top, width, height = room
    alt, src = match.group(1), match.group(2)
    path = local_image(src, base_dir)
    blob = data_image(src) if path is None else path.read_bytes()  # a data: image is embedded as well
    pixels = image_size(io.BytesIO(blob)) if blob is not None else None
    if blob is None or pixels is None:
        return None
    w, h = contained(pixels, (width, height))
    picture = page.shapes.add_picture(io.BytesIO(blob), *_emu(left + (width - w) / 2, top, w, h))
    picture._element.nvPicPr.cNvPr.set("descr", xml_safe(alt))  # noqa: SLF001 - the alt text, as PowerPoint stores it
    return h


def _missing_image(page: Any, entry: SlideText, room: tuple[float, float, float], base_dir: Path | None, warnings: list[str]) -> float:
    """Images that will not show: a dashed frame with their alt text, as the deck shows them, and
    a warning for each saying why; returns the height it took (px)."""
    from pptx.enum.dml import MSO_LINE_DASH_STYLE

    left, top, width = room
    found = [(match.group(1), match.group(2)) for match in IMAGE_REF.finditer(entry.text)]
    for _alt, src in found:
        warnings.append(image_warning(src, base_dir) or f"image {shown_source(src)} could not be read")
    shape = page.shapes.add_textbox(*_emu(left, top, width, 60))
    _frame(shape.text_frame)
    label = " · ".join(alt or src for alt, src in found) or plain(entry.text)
    _run(shape.text_frame.paragraphs[0], f"[image: {label}]", 24).font.color.rgb = _muted()
    shape.line.color.rgb = _muted()
    shape.line.width = _pt(2)
    shape.line.dash_style = MSO_LINE_DASH_STYLE.DASH
    return 60 + TEXT[2]


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
