"""What a slide's body holds, as PPTX shapes: items, text, code, tables, pictures, formulas, diagrams, footnotes."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from confnotes.edges.images import data_image, image_warning, local_image, shown_source
from confnotes.edges.video import check_video, is_video, poster, poster_warning
from confnotes.markup.escape import xml_safe
from confnotes.model.values import Callout, Diagram, Math, Quote
from confnotes.parse.values import IMAGE_REF
from confnotes.render.deck import contained, image_size
from confnotes.render.inline.links import safe_link
from confnotes.render.markdown import INK_ON_DARK, INK_ON_LIGHT, InlineRenderer
from confnotes.render.pptx.shapes import EMU, FONT, MONO, _accent, _emu, _frame, _muted, _pt, _rich, _run, _size
from confnotes.slides import Slide, SlideItem, SlideText, is_image
from confnotes.slides.fit import (
    code_columns,
    code_lines,
    entry_height,
    plain,
    table_row_heights,
    table_widths,
)
from confnotes.slides.geometry import (
    BIG,
    BODY_MIN,
    CALLOUT_PAD,
    CELL_PAD,
    CODE,
    CODE_MIN,
    CODE_PAD,
    FOOTNOTE,
    ITEM,
    LAID_QUOTE_INDENT,
    MIN_IMAGE,
    QUOTE,
    QUOTE_INDENT,
    SUB_ITEM,
    TABLE,
    TEXT,
)
from confnotes.slides.layouts import entry_room
from confnotes.slides.model import SlideEntry, runs_of


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
        elif run.kind == "missing-image" and (video := IMAGE_REF.fullmatch(run.text.strip())) and is_video(video.group(2)):
            height = _movie(page, video, (left, y, width, 60), base_dir, warnings) + TEXT[2]
        elif run.kind == "missing-image":
            height = _missing_image(page, run, (left, y, width), base_dir, warnings)
        elif type(run.value) is Math and _formula(page, run.value.tex, slide, shrink, (left, y, width, height)):
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
    if type(entry.value) is Callout:
        _callout(page, entry.value, scale, box, md)
        return
    shape = page.shapes.add_textbox(*_emu(*box))
    _frame(shape.text_frame, scale=scale)
    size = _size(px if px is not None else max(BODY_MIN, TEXT[0] * scale), scale)
    quote = entry.kind == "quote"
    laid = quote and px is not None  # the quote layout's quote: large, italic, in the ink colour
    if type(entry.value) is Quote:  # each paragraph and each list item its own line, as the deck shows them
        parts = [line.shown for line in entry.value.lines] or [""]
    else:
        text = entry.text
        if quote:  # a quote cut to the slide's limit (slides.limits): its value read the whole text
            text = "\n".join(line[1:].lstrip() if line.startswith(">") else line for line in text.split("\n"))
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
        gap = type(entry.value) is not Quote or entry.value.ends_block(index)  # none between a quoted list's items
        paragraph.space_after = _pt(TEXT[2] * scale * gap)


def _callout(page: Any, found: Callout, scale: float, box: tuple[float, float, float, float], md: InlineRenderer) -> None:
    """A callout (``confnotes.markup.callouts``) as the deck draws it (deck.css ``.callout``, measured by
    ``slides.fit``): a box tinted in its kind's colour with a border, padded, its title in bold in
    that colour, its body below; the gap under it is the text's (``TEXT[2]``)."""
    from pptx.dml.color import RGBColor
    from pptx.util import Emu

    from confnotes.markup.callouts import COLOURS

    left, top, width, height = box
    shape = page.shapes.add_textbox(*_emu(left, top, width, max(height - TEXT[2] * scale, 1.0)))
    frame = shape.text_frame
    _frame(frame, scale=scale)
    frame.margin_top = frame.margin_bottom = Emu(round(CALLOUT_PAD[0] * scale * EMU))
    frame.margin_left = frame.margin_right = Emu(round(CALLOUT_PAD[1] * scale * EMU))
    colour = COLOURS[found.kind]
    red, green, blue = (int(colour[n : n + 2], 16) for n in (0, 2, 4))
    shape.fill.solid()
    shape.fill.fore_color.rgb = RGBColor(*(round(255 - (255 - c) * 0.12) for c in (red, green, blue)))  # type: ignore[no-untyped-call]
    shape.line.color.rgb = RGBColor(red, green, blue)  # type: ignore[no-untyped-call]
    size = _size(max(BODY_MIN, TEXT[0] * scale), scale)
    title = frame.paragraphs[0]
    _rich(title, found.title, size, md, bold=True, colour=RGBColor(red, green, blue))  # type: ignore[no-untyped-call]
    title.space_after = _pt(CALLOUT_PAD[2] * scale)
    for line in found.body.lines if found.body is not None else ():
        _rich(frame.add_paragraph(), line.shown, size, md)


def _formula(page: Any, tex: str, slide: Slide, shrink: float, box: tuple[float, float, float, float]) -> bool:
    """A display formula as a picture centred in ``box`` at the size the deck draws it (python-pptx
    has no equations; PowerPoint's OMML needs Office to write), its TeX as the alt text, in the
    slide's ink (light on a dark ground); False for TeX that cannot be typeset (the paragraph is
    then written as text, as every deck shows it)."""
    from confnotes.markup.math import MathError, png, svg

    size = max(BODY_MIN, TEXT[0] * slide.scale * shrink) * 1.15
    try:
        drawn, blob = svg(tex, True, 20.0), png(tex, True, 20.0, _ink(slide))
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
    """A diagram drawn (``confnotes.markup.diagrams``) as a picture scaled into ``room``, centred, its tool
    named in the alt text; as code when it cannot be drawn here. Returns the height it took (px)."""
    from confnotes.markup.diagrams import diagram_name, draw, png, shown_as_code

    left, top, width, available = room
    if type(entry.value) is not Diagram:
        return 0.0
    tool, source = entry.value.tool, entry.value.source
    drawn = draw(tool, source, _ink(slide) if slide.dark_ground else None)
    if drawn.svg is None:
        warnings.append(shown_as_code(tool, source, drawn.problem))
        as_code = replace(entry, kind="code")
        height = min(available, entry_height(as_code, slide.scale))
        _code(page, as_code, slide.scale, (left, top, width, height))
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


def _ink(slide: Slide) -> str:
    """What a picture made here is drawn in: PPTX keeps its own light look, so the deck's inks, light
    on a slide whose ground is dark."""
    return INK_ON_DARK if slide.dark_ground else INK_ON_LIGHT


def _code(page: Any, entry: SlideText, scale: float, box: tuple[float, float, float, float]) -> None:
    from pptx.dml.color import RGBColor
    from pptx.util import Emu

    from confnotes.render.inline.code import wrapped_highlighted

    size = max(CODE_MIN, CODE[0] * scale)
    left, top, width, height = box
    shape = page.shapes.add_textbox(*_emu(left, top, width, height - CODE[2] * scale))
    shape.fill.solid()
    shape.fill.fore_color.rgb = RGBColor(0xF4, 0xF4, 0xF6)  # type: ignore[no-untyped-call]
    frame = shape.text_frame
    _frame(frame, autofit=False)
    frame.margin_left = frame.margin_right = Emu(CODE_PAD[1] * EMU)
    frame.margin_top = frame.margin_bottom = Emu(CODE_PAD[0] * EMU)
    source = code_lines(entry)
    steps = entry.steps
    # a walk-through ({2|4-5}): a slide a step (``SlideText.shown_step``), the step's lines in bold
    step = entry.shown_step if entry.shown_step is not None else len(steps)
    marked = steps[min(step, len(steps)) - 1] if steps and step > 0 else None
    number = entry.first
    lines = wrapped_highlighted(source, entry.info, code_columns(size, width), entry.whole, entry.first)
    for index, (continued, spans) in enumerate(lines):
        paragraph = frame.paragraphs[0] if index == 0 else frame.add_paragraph()
        number += 0 if continued else 1
        if continued:
            mark = _run(paragraph, "↪ ", size, MONO)
            mark.font.color.rgb = RGBColor(0x1F, 0x5F, 0xAD)  # type: ignore[no-untyped-call]
        for css, piece in spans or [("", " ")]:  # the deck's Pygments colours, token by token
            run = _run(paragraph, piece, size, MONO)
            colour = _CODE_COLOURS.get(css if css in _CODE_COLOURS else css[:1])
            if colour:
                run.font.color.rgb = RGBColor.from_string(colour)  # type: ignore[no-untyped-call]
            if marked is not None and number in marked:
                run.font.bold = True


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
    from pptx.enum.text import PP_ALIGN
    from pptx.util import Emu

    align = {"left": PP_ALIGN.LEFT, "center": PP_ALIGN.CENTER, "right": PP_ALIGN.RIGHT}
    scale = slide.scale * shrink
    if entry.table is None:
        return 0.0
    rows = entry.table.all_rows
    aligns = entry.table.aligns
    columns = entry.table.columns
    left, top, width, height = box
    size = max(CODE_MIN, TABLE[0] * scale)
    image_h = float(slide.image_px or MIN_IMAGE) * shrink
    heights = table_row_heights(entry.table, size, width, image_h)
    widths = table_widths(entry.table, size, width)  # the columns the fit engine measured the rows in
    starts = [left + sum(widths[:index]) for index in range(columns)]
    shape = page.shapes.add_table(len(rows), columns, *_emu(left, top, width, sum(heights)))
    table = shape.table
    for index in range(columns):
        table.columns[index].width = Emu(int(widths[index] * EMU))
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
            paragraph = cell.text_frame.paragraphs[0]
            _run(paragraph, md.plain(IMAGE_REF.sub("", text).strip() if pictures else text), size, bold=r == 0)
            if c < len(aligns) and aligns[c]:  # as the delimiter row says (--: right, :-: centre)
                paragraph.alignment = align[aligns[c]]
            cell_box = (starts[c] + CELL_PAD[1], y + CELL_PAD[0], widths[c] - 2 * CELL_PAD[1])
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
    if match and is_video(match.group(2)):
        return _movie(page, match, (left, top, width, height), base_dir, warnings) + TEXT[2]
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


def _movie(page: Any, match: re.Match[str], room: tuple[float, float, float, float], found: Path | None, warnings: list[str]) -> float:
    """A video embedded as a movie, its poster frame shown until it plays, scaled into ``room``; a
    link to it where it cannot be embedded, with the warning every output gives. Returns its height."""
    left, top, width, height = room
    alt, src = match.group(1), match.group(2)
    video, problem = check_video(src, found)
    if video is None:  # (a web video: linked, nothing fetched, no warning)
        if problem is not None:
            warnings.append(problem)
        shape = page.shapes.add_textbox(*_emu(left, top, width, 60))
        _frame(shape.text_frame)
        run = _run(shape.text_frame.paragraphs[0], f"\u25b6 {alt or src}", 24)
        if safe_link(src):  # (never a javascript: address)
            run.hyperlink.address = src
        return 60
    shown = poster(video)
    if (why := poster_warning(src, shown)) is not None:
        warnings.append(why)
    w, h = contained(shown.size, (width, height))
    movie = page.shapes.add_movie(
        str(video.path), *_emu(left + (width - w) / 2, top, w, h), poster_frame_image=io.BytesIO(shown.png), mime_type=video.mime
    )
    movie.name = f"Video: {video.path.name}"
    movie._element.nvPicPr.cNvPr.set("descr", xml_safe(alt or video.path.name))  # noqa: SLF001 - the alt text
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
