"""Whole PPTX slides: the title slide, dividers, content slides with their layouts, and the looks directives give."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from confnotes.edges.images import image_warning, local_image, shown_source
from confnotes.markup.escape import xml_safe
from confnotes.parse.values import IMAGE_REF
from confnotes.render.deck import image_size, slide_lines
from confnotes.render.markdown import InlineRenderer
from confnotes.render.pptx.blocks import _footnotes, _items_into, _runs_into
from confnotes.render.pptx.shapes import (
    BOTTOM,
    EMU,
    FONT,
    LEFT,
    TOP,
    _accent,
    _band,
    _box,
    _cover,
    _drop_empty,
    _emu,
    _frame,
    _head,
    _light_text,
    _muted,
    _paragraphs,
    _pt,
    _rich,
    _run,
    _size,
    _veil,
)
from confnotes.slides import Slide, SlideItem, SlideText, is_image
from confnotes.slides.directives import is_dark
from confnotes.slides.fit import entry_height, plain
from confnotes.slides.geometry import (
    BODY_MIN,
    BOX_W,
    DIVIDER_TITLE,
    FOOTER,
    KICKER,
    LEDE,
    MIN_BODY,
    PICTURE_SHARE,
    SLIDE_H,
    SLIDE_W,
    TITLE,
)


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
    on_dark, span = slide.dark_ground, end - start
    for text, left, width, align in (
        (title, start, span * 0.7, PP_ALIGN.LEFT),
        (number, start + span * 0.75, span * 0.25, PP_ALIGN.RIGHT),
    ):
        box = page.shapes.add_textbox(*_emu(left, top, width, 24))
        _frame(box.text_frame, autofit=False)
        paragraph = box.text_frame.paragraphs[0]
        paragraph.alignment = align
        _run(paragraph, text, FOOTER).font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF) if on_dark else _muted()  # type: ignore[no-untyped-call]


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


def _background_picture(page: Any, background: str, base_dir: Path | None, warnings: list[str]) -> None:
    """A picture covering the slide behind everything, under the decks' veil."""

    path = local_image(background, base_dir)
    pixels = image_size(io.BytesIO(path.read_bytes())) if path is not None else None
    if path is None or pixels is None:
        warnings.append(image_warning(background, base_dir) or f"background {shown_source(background)} could not be read")
        return
    picture = page.shapes.add_picture(str(path), *_emu(0, 0, SLIDE_W, SLIDE_H))
    picture._element.nvPicPr.cNvPr.set("descr", "")  # noqa: SLF001 - decoration: no alt text
    veil = _veil(page, (0, 0, SLIDE_W, SLIDE_H), (0xFF, 0xFF, 0xFF))  # the decks' veil: text stays legible
    tree = page.shapes._spTree  # noqa: SLF001 - behind every other shape: first after the tree's own properties
    for index, shape in enumerate((picture, veil)):
        tree.remove(shape._element)  # noqa: SLF001
        tree.insert(2 + index, shape._element)  # noqa: SLF001


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
    from confnotes.slides.geometry import COLUMN_GAP
    from confnotes.slides.layouts import column_widths

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
    from confnotes.slides.geometry import BAND_ROOM
    from confnotes.slides.layouts import TEXT_BESIDE_W

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
    elif slide.layout in box:
        _title_beside(page, slide.layout == "image-left")


def _title_beside(page: Any, picture_left: bool) -> None:
    """A title slide's text on the side its picture leaves, set left as the deck sets it (the title
    layout's placeholders span the slide, and ran under the picture)."""
    from pptx.enum.text import PP_ALIGN

    share = SLIDE_W * PICTURE_SHARE
    left = share + LEFT if picture_left else LEFT
    width = SLIDE_W - share - 2 * LEFT
    # the title over the middle of the slide, its subtitle and opening text under it (deck.css kind-title)
    boxes = {0: (0.18 * SLIDE_H, 0.34 * SLIDE_H)}
    for shape in page.placeholders:
        top, height = boxes.get(shape.placeholder_format.idx, (0.54 * SLIDE_H, 0.34 * SLIDE_H))
        shape.left, shape.top, shape.width, shape.height = _emu(left, top, width, height)
        for paragraph in shape.text_frame.paragraphs:
            paragraph.alignment = PP_ALIGN.LEFT


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
