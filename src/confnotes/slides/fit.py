"""The fit engine: every slide measured against its content box, shrunk to a floor, then split.

One model of the deck's layout (``templates/deck.css`` implements the same numbers) measures a
slide's content with the advance widths of the themes' fonts (DejaVu Sans and Serif, the wider
of the two, bold for titles and labels; ``_widths``) on a 1280×720 slide whose content box is
1104×576 px. A slide that is too tall is first shrunk (``scale`` from 1 down to ``FLOOR``: body
text never below 24 px, code never below 16 px), then split at the best boundary: between
entries (a lead-in stays with the items it introduces; no page is left with a single item torn
from its siblings), inside a code block at line boundaries, inside a paragraph at sentence
boundaries, and a table by rows with its header repeated. Images take the height left on their
slide (at least ``MIN_IMAGE``; never cropped, scaled by the renderer).

Every deck output uses the result: the HTML deck and the PDFs through ``--fit`` and ``--img-h``,
PPTX through font sizes, Marp through image size directives. The measurements err on the wide
side (``SAFETY``), and a browser test measures every slide in Chromium.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

from confnotes.edges.images import local_image
from confnotes.model.values import Callout, Code, Math, Quote, Table
from confnotes.parse.values import IMAGE_REF
from confnotes.slides.geometry import (
    BODY_MIN,
    BOX_H,
    BOX_W,
    CALLOUT_PAD,
    CELL_PAD,
    CODE,
    CODE_PAD,
    DIVIDER_TITLE,
    FLOOR,
    FOOTNOTE,
    ITEM,
    KICKER,
    MIN_IMAGE,
    MONO_EM,
    SAFETY,
    SLACK,
    STEPS,
    TABLE,
    TEXT,
    TITLE,
    TITLE_BOX_H,
    sizes,
)
from confnotes.slides.model import Slide, SlideEntry, SlideItem, SlideText, code_entry, is_image, table_entry
from confnotes.slides.split import carry_over
from confnotes.slides.widths import text_em, wrap_count

# ------------------------------------------------------------------ Markdown to measurable text

_IMAGE = re.compile(r"!\[((?:[^\]\\]|\\.)*)\]\([^)]*\)")
_LINK = re.compile(r"\[((?:[^\]\\]|\\.)*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(\*\*|__|(?<!\w)[*_]|[*_](?!\w)|`)")
_TAG = re.compile(r"<[^>]+>")
_MARKUP = re.compile(r"[!\[<*_`\\]")


@lru_cache(maxsize=16384)
def plain(text: str) -> str:
    """Inline Markdown as the words it shows (link targets and markers removed)."""
    if _MARKUP.search(text) is None:  # most text has no markup at all
        return text
    text = _IMAGE.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _TAG.sub("", text)
    return _EMPHASIS.sub("", text).replace("\\", "")


def unshown_images(slides: list[Slide], root: str) -> list[Slide]:
    """Image blocks whose images will not show (not a file inside ``root``; remote images become
    links) become ``missing-image`` blocks: measured and shown as the text in their place."""

    def shown(text: str) -> bool:
        sources = [match.group(2) for match in IMAGE_REF.finditer(text)]
        return all(src.lower().startswith("data:image/") or local_image(src, root) is not None for src in sources)

    out = []
    for slide in slides:
        content = tuple(
            SlideText(entry.text, "missing-image", entry.info)
            if isinstance(entry, SlideText) and is_image(entry) and not shown(entry.text)
            else entry
            for entry in slide.content
        )
        out.append(replace(slide, content=content) if content != slide.content else slide)
    return out


def images_in(entry: SlideEntry) -> int:
    """How many image heights ``entry`` stacks: its images (an image block), or the rows of a
    table that hold images (side by side in a row, they share one height)."""
    if type(entry) is SlideText and entry.kind == "diagram":
        return 1
    if is_image(entry):
        return len(_IMAGE.findall(entry.text))
    if type(entry) is SlideText and (table := entry.table) is not None and "![" in entry.text:
        return sum(1 for row in table.all_rows if any(_IMAGE.search(cell) for cell in row))
    return 0


# ------------------------------------------------------------------ code


def code_lines(entry: SlideText) -> list[str]:
    """The lines of a code block's source (fences and indentation of indented code removed), as
    ``parse`` read them (``model.values.Code``)."""
    code = entry.code
    if code is None:
        raise TypeError(f"a {entry.kind} entry without its code")
    return list(code.lines)


def closed_fence(entry: SlideText) -> str:
    """The code block as a fence that is closed, whatever its source did (a fence opened inside a
    list item ends with the item), long enough for any backticks in the code."""
    lines = code_lines(entry)
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return fence + entry.info + "\n" + "\n".join(lines) + "\n" + fence


def code_columns(size: float, box_w: float = BOX_W) -> int:
    """Characters a code line holds at ``size`` px in a box ``box_w`` wide before it wraps (the
    renderers wrap there)."""
    return max(12 if box_w < BOX_W else 20, int((box_w - 2 * CODE_PAD[1]) / (MONO_EM * size * SAFETY)))


def wrapped_code(lines: list[str], columns: int) -> list[tuple[str, bool]]:
    """Code lines as shown: ``(text, continued)``; a line longer than ``columns`` goes on in the
    next line after a continuation mark (so a wrapped line is never mistaken for a new one)."""
    out: list[tuple[str, bool]] = []
    room = max(columns - 2, 10)
    for line in lines:
        width, continued = columns, False
        while len(line) > width:
            cut = line.rfind(" ", width // 2, width + 1)  # at a space if there is one, as editors soft-wrap
            cut = cut + 1 if cut > 0 else width
            out.append((line[:cut], continued))
            line, width, continued = line[cut:], room, True
        out.append((line, continued))
    return out


def fence(entry: SlideText, lines: list[str], first: int = 0) -> SlideText:
    """A part of a code block, from its line ``first`` on, as a block of its own (same language),
    remembering the whole block so renderers highlight the part as the whole would colour it."""
    whole = entry.whole or "\n".join(code_lines(entry))
    code = entry.code or Code("", "", ())
    return code_entry(Code(code.language, code.attributes, tuple(lines)), entry.info, whole, entry.first + first)


# ------------------------------------------------------------------ tables


def table_part(entry: SlideText, body: range) -> SlideText:
    """The table's header and the body rows in ``body`` as a table of its own."""
    table = entry.table
    if table is None:
        raise TypeError("a table entry without its table")
    return table_entry(table.part(body), entry.info)


# ------------------------------------------------------------------ measuring


@lru_cache(maxsize=16384)
def entry_height(entry: SlideEntry, scale: float, box_w: float = BOX_W) -> float:
    """Height in px of one entry at ``scale`` (images: their minimum; see ``fit_slide``)."""
    px = sizes(scale)
    if isinstance(entry, SlideItem):
        size = px["item"] if entry.level == 0 else px["sub"]
        width = box_w - 1.1 * px["item"] - (1.3 * size if entry.level else 0)
        label = (f"{entry.number}. " if entry.number else "") + (plain(entry.label) + ": " if entry.label is not None else "")
        lines = wrap_count(label + plain(entry.text), width, size, "body")
        return lines * size * ITEM[1] + ITEM[2] * scale
    kind = entry.kind
    if kind == "code":
        size = px["code"]
        count = len(wrapped_code(code_lines(entry), code_columns(size, box_w)))
        return count * size * CODE[1] + 2 * CODE_PAD[0] + CODE[2] * scale
    if kind == "table" and entry.table is not None:
        return _table_height(entry.table, px["table"], box_w) + TABLE[2] * scale
    if kind == "diagram" or is_image(entry):
        return MIN_IMAGE * images_in(entry) + TEXT[2] * scale
    size = px["text"]
    text = entry.text
    if type(entry.value) is Math and (drawn := display_math(entry.value, size)) is not None:
        return drawn + TEXT[2] * scale
    found = entry.value
    if kind == "quote" and type(found) is Callout:  # a box: title, body, padding
        inner = box_w - 2 * CALLOUT_PAD[1] * scale - CALLOUT_PAD[3]
        lines = wrap_count(plain(found.title), inner * 0.92, size, "body")  # the title is bold: a little wider
        # a paragraph wraps in the box; a list's items each start a line, behind their bullet
        lines += sum(
            wrap_count(plain(line.text), inner - (1.1 + 1.3 * line.level) * size * (line.marker is not None), size)
            for line in (found.body.lines if found.body is not None else ())
        )
        return lines * size * TEXT[1] + (2 * CALLOUT_PAD[0] + CALLOUT_PAD[2]) * scale + TEXT[2] * scale
    if kind == "quote" and type(found) is Quote:  # set in; each paragraph and each list item its own line
        return _quote_height(found, box_w - 30, size, scale)
    if kind == "quote":
        text = "\n".join(line.lstrip("> ") for line in text.split("\n"))
        box_w -= 30
    paragraphs = [part for part in re.split(r"\n\s*\n", text) if part.strip()] or [""]
    height = 0.0
    for paragraph in paragraphs:
        height += wrap_count(plain(paragraph), box_w, size) * size * TEXT[1] + TEXT[2] * scale
    return height


def _quote_height(found: Quote, box_w: float, size: float, scale: float) -> float:
    """A quote's height: its paragraphs wrap in the box and a list's items each start a line behind
    their bullet, a paragraph's gap after each paragraph and after each list."""
    height = 0.0
    for index, line in enumerate(found.lines):
        room = box_w - (1.1 + 1.3 * line.level) * size * (line.marker is not None)
        height += wrap_count(plain(line.text), room, size) * size * TEXT[1] + TEXT[2] * scale * found.ends_block(index)
    return height


def display_math(formula: Math, size: float) -> float | None:
    """The height in px of a display formula block (``$$…$$``) at text ``size``, as deck.css draws it
    (1.15 times the text, line height 1); None for TeX that cannot be typeset (it is shown as text,
    and measured so)."""
    from confnotes.markup.math import MathError, svg

    tex = formula.tex
    try:
        drawn = svg(tex, True, 20.0)
    except MathError:
        return None
    return drawn.height / 20.0 * size * 1.15


def _table_height(table: Table, size: float, box_w: float) -> float:
    return 1.0 + sum(table_row_heights(table, size, box_w, MIN_IMAGE))


@lru_cache(maxsize=4096)
def table_widths(table: Table, size: float, box_w: float) -> tuple[float, ...]:
    """Each column's width in px, the box shared by what the columns hold, as a browser's automatic
    table layout shares it: every column first gets its header's longest word (a header never
    breaks inside a word while the box has room), then its longest word (a number such as "93.6%"
    does not break while another column has room), then the rest of the box in proportion to how
    much more its longest cell wants. Every deck output, and Word, lays a table out by these widths."""
    rows = table.all_rows
    columns = max((len(row) for row in rows), default=1)
    pad = 2 * CELL_PAD[1] + 1
    head, least, most = [float(pad)] * columns, [float(pad)] * columns, [float(pad)] * columns
    for number, row in enumerate(rows):
        face = "bold" if number == 0 else "body"
        for index, cell in enumerate(row):
            words = plain(_IMAGE.sub(" ", cell)).split()
            if words:
                longest = max(text_em(word, face) for word in words) * size + pad
                if number == 0:
                    head[index] = max(head[index], longest)
                least[index] = max(least[index], longest)
                most[index] = max(most[index], text_em(" ".join(words), face) * size + pad)
    for low, high in ((least, most), (head, least)):  # the widest sharing the box allows
        if sum(low) <= box_w:
            spare, wants = box_w - sum(low), [b - a for a, b in zip(low, high, strict=True)]
            if sum(wants) <= spare:  # everything fits: the room left in proportion to what each wants
                return tuple(box_w * width / sum(high) for width in high)
            return tuple(a + spare * want / sum(wants) for a, want in zip(low, wants, strict=True))
    return tuple(box_w * width / sum(head) for width in head)  # even the headers' words break: in proportion


def table_row_heights(table: Table, size: float, box_w: float, image_h: float) -> list[float]:
    """Each row's height in px: its tallest cell's wrapped lines in its column's width
    (``table_widths``), and ``image_h`` more for a row of images (``display: block`` above any text
    in the cell, side by side across the row)."""
    rows = table.all_rows
    cells_w = [width - 2 * CELL_PAD[1] - 1 for width in table_widths(table, size, box_w)]
    heights = []
    for row in rows:
        pictured = any(_IMAGE.search(cell) for cell in row)
        cells = [_IMAGE.sub("", cell).strip() if pictured else cell for cell in row]
        face = "bold" if row is rows[0] else "body"
        lines = max((wrap_count(plain(cell), cells_w[index], size, face) for index, cell in enumerate(cells) if cell), default=0)
        lines = lines or (0 if pictured else 1)
        heights.append(lines * size * TABLE[1] + (image_h if pictured else 0) + 2 * CELL_PAD[0] + 1)
    return heights


def head_height(slide: Slide, scale: float) -> float:
    """The slide's title (and kicker) above its content."""
    if slide.kind == "divider":
        return wrap_count(plain(slide.title), BOX_W, 60, "bold") * 60 * TITLE[1]
    if slide.kind == "title":
        height = wrap_count(plain(slide.title), BOX_W, 64, "bold") * 64 * TITLE[1] + 18
        if slide.subtitle:
            height += wrap_count(slide.subtitle, BOX_W, 30) * 30 * 1.2 + 24
        return height
    size = TITLE[0] * scale
    height = wrap_count(plain(slide.display_title), BOX_W, size, "bold") * size * TITLE[1] + TITLE[2] * scale + 4
    if slide.subtitle:
        height += wrap_count(plain(slide.subtitle), BOX_W, KICKER[0]) * KICKER[0] * KICKER[1] + KICKER[2]
    return height


def lede_height(entry: SlideEntry, scale: float) -> float:
    """A title slide's opening text (26 px, deck.css ``.lede``) in its 960 px column."""
    if type(entry) is not SlideText or entry.kind != "paragraph" or is_image(entry):
        return entry_height(entry, scale)
    size = max(BODY_MIN, 26 * scale)
    return sum(
        wrap_count(plain(part), 960, size) * size * TEXT[1] + TEXT[2] * scale for part in re.split(r"\n\s*\n", entry.text) if part.strip()
    )


def box_height(slide: Slide) -> float:
    """The room for the slide's title and content: its box, less its footnotes at the foot."""
    room = (TITLE_BOX_H if slide.kind in ("title", "divider") else BOX_H) - SLACK
    return room - footnotes_height(slide.footnotes) if slide.footnotes else room


@lru_cache(maxsize=1024)
def footnotes_height(footnotes: tuple[tuple[int, str, str], ...]) -> float:
    """The height in px of a slide's footnotes (deck.css ``.slide-footnotes``): each its wrapped lines."""
    size, line, gap = FOOTNOTE
    lines = 0
    for number, _, text in footnotes:  # each of its paragraphs a line of its own (deck: <br>)
        parts = [" ".join(part.split()) for part in re.split(r"\n\s*\n", text) if part.strip()] or [""]
        lines += sum(wrap_count(plain(f"{number}. {part}" if index == 0 else part), BOX_W, size) for index, part in enumerate(parts))
    return lines * size * line + gap + 1


def content_height(slide: Slide, scale: float) -> float:
    measure: Callable[[SlideEntry, float], float] = lede_height if slide.kind == "title" else entry_height
    return head_height(slide, scale) + sum(measure(entry, scale) for entry in slide.content)


# ------------------------------------------------------------------ fitting


def fit_slide(slide: Slide) -> list[Slide]:
    """The slide at the largest scale that fits, or split into slides that each fit (a slide laid
    out in columns or a layout is fitted by ``slides.layouts.fit_laid_out``)."""
    if slide.kind == "divider" or not slide.content:
        return [slide]
    room = box_height(slide)
    steps = _steps_for(slide)
    for scale in steps:
        if content_height(slide, scale) <= room:
            return [finish(slide, scale)]
    pages = _paginate(slide, room)
    parts = len(pages)
    out = []
    notes = _notes_by_page(slide, pages)
    for index, page in enumerate(pages):
        part = replace(
            slide,
            content=tuple(page),
            notes=notes[index],
            notes_at=(),
            continued=slide.continued or index > 0,
            kind=slide.kind if index == 0 or slide.kind != "title" else "text",
            part=index + 1,
            parts=parts,
            overflow=True,
        )
        scale = next((s for s in _steps_for(part) if content_height(part, s) <= room), FLOOR)
        out.append(finish(part, scale))
    return out


def steps_for(slide: Slide) -> tuple[float, ...]:
    return _steps_for(slide)


def _steps_for(slide: Slide) -> tuple[float, ...]:
    """The scales a slide may take: a table's header words must fit their columns whole (a header
    that breaks inside a word reads badly), so a wide table takes a smaller text, down to the floor."""
    tables = [entry for entry in slide.content if type(entry) is SlideText and entry.kind == "table"]
    if not tables:
        return STEPS
    allowed = tuple(scale for scale in STEPS if all(_headers_fit(table.table, scale) for table in tables if table.table is not None))
    return allowed or (FLOOR,)


@lru_cache(maxsize=4096)
def _headers_fit(table: Table, scale: float) -> bool:
    size = sizes(scale)["table"]
    cells_w = [width - 2 * CELL_PAD[1] - 1 for width in table_widths(table, size, BOX_W)]
    return all(text_em(word, "bold") * size <= cells_w[index] for index, cell in enumerate(table.header) for word in plain(cell).split())


def finish(slide: Slide, scale: float) -> Slide:
    """Record the scale, and the height each image may take (what the rest leaves, shared)."""
    images = sum(images_in(entry) for entry in slide.content)
    if not images:
        return slide if slide.scale == scale else replace(slide, scale=scale)
    # every entry at its height without its images; the images share what is left
    fixed = head_height(slide, scale) + sum(entry_height(e, scale) - MIN_IMAGE * images_in(e) for e in slide.content)
    spare = box_height(slide) - fixed
    return replace(slide, scale=scale, image_px=int(max(MIN_IMAGE, spare / images)))


def _splittable(entry: SlideEntry) -> bool:
    return type(entry) is SlideText and (entry.kind in ("code", "table") or (entry.kind == "paragraph" and not is_image(entry)))


def _balanced(fits: int, total: int, last: bool) -> int:
    """Where to cut ``total`` lines (rows, sentences) of which ``fits`` fit: the last entry of a
    slide whose rest would be a sliver is cut in half instead, so the "(cont.)" slide is not a
    near-empty one."""
    rest = total - fits
    if last and 0 < rest < max(4, fits // 3):
        return max(1, min(fits, -(-total // 2)))
    return fits


def _code_break(lines: list[str], count: int) -> int:
    """Where code that fits ``count`` lines turns the page: never so that the next part starts with a
    closing bracket (a "(cont.)" slide of lone ``}``), and in the last third of what fits, after a
    blank line if there is one, else before the least indented statement (the latest of those)."""
    if count >= len(lines):
        return count
    low = max(3, count - max(3, count // 3))

    def rank(cut: int) -> tuple[bool, int, int]:
        line = lines[cut]
        return (not lines[cut - 1].strip(), -(len(line) - len(line.lstrip())), cut)

    good = [cut for cut in range(low, count + 1) if lines[cut].strip() and lines[cut].lstrip()[0] not in "}])"]
    return max(good, key=rank) if good else count


def _cut(entry: SlideText, room: float, last: bool = False) -> tuple[SlideEntry | None, SlideEntry | None]:
    """The longest first part of ``entry`` that fits ``room`` px at the floor scale (code by lines,
    a table by rows with its header, a paragraph by sentences), and the rest; ``None`` for no part.
    ``last``: nothing follows the entry on its slide (see ``_balanced``)."""
    if entry.kind == "code":
        size = sizes(FLOOR)["code"]
        budget = int((room - 2 * CODE_PAD[0] - CODE[2] * FLOOR) // (size * CODE[1]))
        columns = code_columns(size)
        lines = code_lines(entry)
        used = count = 0
        for line in lines:
            need = len(wrapped_code([line], columns))
            if used + need > budget:
                break
            used += need
            count += 1
        if count < min(3, len(lines)):  # a sliver of code is no use: start it on the next slide
            return None, entry
        count = _code_break(lines, _balanced(count, len(lines), last))
        return fence(entry, lines[:count]), (fence(entry, lines[count:], count) if count < len(lines) else None)
    if entry.kind == "table" and entry.table is not None:
        body = len(entry.table.rows)
        stop = 0
        while stop < body and entry_height(table_part(entry, range(stop + 1)), FLOOR) <= room:
            stop += 1
        if stop < min(2, body):
            return None, entry
        stop = _balanced(stop, body, last)
        rest = table_part(entry, range(stop, body)) if stop < body else None
        return table_part(entry, range(stop)), rest
    sentences = re.split(r"(?<=[.!?…])\s+", entry.text.strip())
    taken = 0
    while taken < len(sentences) and entry_height(SlideText(" ".join(sentences[: taken + 1])), FLOOR) <= room:
        taken += 1
    if taken == 0:
        return None, entry
    taken = _balanced(taken, len(sentences), last)
    rest_text = " ".join(sentences[taken:])
    return SlideText(" ".join(sentences[:taken])), (SlideText(rest_text) if rest_text else None)


def _paginate(slide: Slide, room: float) -> list[list[SlideEntry]]:
    """Pack the entries into pages at the floor scale: a long code block, table or paragraph fills
    the rest of a page and goes on on the next; a lead-in stays with the items it introduces; no
    page is left with one item whose siblings are on the page before."""
    later = replace(slide, continued=True, kind="text" if slide.kind == "title" else slide.kind)
    pages: list[list[SlideEntry]] = [[]]
    used = head_height(slide, FLOOR)
    measure = lede_height if slide.kind == "title" else entry_height

    def new_page(carried: list[SlideEntry]) -> None:
        nonlocal used
        pages.append(carried)
        used = head_height(later, FLOOR) + sum(entry_height(e, FLOOR) for e in carried)

    queue = list(slide.content)
    while queue:
        entry = queue.pop(0)
        height = measure(entry, FLOOR) if len(pages) == 1 else entry_height(entry, FLOOR)
        if used + height <= room or not pages[-1]:
            if used + height > room and _splittable(entry):  # alone and still too tall: cut it
                first, rest = _cut(entry, room - used, last=not queue)  # type: ignore[arg-type]
                if first is not None:
                    pages[-1].append(first)
                    used += entry_height(first, FLOOR)
                    if rest is not None:
                        queue.insert(0, rest)
                        new_page([])
                    continue
            pages[-1].append(entry)
            used += height
            continue
        if _splittable(entry):  # fill this page with its first part
            first, rest = _cut(entry, room - used, last=not queue)  # type: ignore[arg-type]
            if first is not None:
                pages[-1].append(first)
                if rest is not None:
                    queue.insert(0, rest)
                new_page([])
                continue
        new_page(carry_over(pages[-1], entry))
        queue.insert(0, entry)
    _no_orphans(pages, later, room)
    return [page for page in pages if page]


def _no_orphans(pages: list[list[SlideEntry]], later: Slide, room: float) -> None:
    """A last page with a single item whose siblings end the page before takes one more of them."""
    if len(pages) < 2:
        return
    last, before = pages[-1], pages[-2]
    if len(last) == 1 and type(last[0]) is SlideItem and len(before) > 2 and type(before[-1]) is SlideItem:
        moved = [before.pop(), *last]
        if head_height(later, FLOOR) + sum(entry_height(e, FLOOR) for e in moved) <= room:
            pages[-1] = moved
        else:
            before.append(moved[0])


def overflowing(slides: tuple[Slide, ...] | list[Slide]) -> list[Slide]:
    """The first slide of each slide the fit engine had to split (its parts are numbered across the
    limits' split and the fit's, so ``parts`` is how many slides it became)."""
    out: list[Slide] = []
    for index, slide in enumerate(slides):
        if slide.part == 1 and any(part.overflow for part in slides[index : index + slide.parts]):
            out.append(slide)
    return out


def overflow_message(slide: Slide) -> str:
    """What lint (slide-overflow) and ``render`` say of a slide the fit engine had to split."""
    title = " ".join(plain(slide.title).split())
    return f"slide '{title}' does not fit at the smallest text size; the deck shows it as {slide.parts} slides"


# ------------------------------------------------------------------ long titles

#: a title is cut when it would wrap past this many lines at its full size, to this many
TITLE_MOST_LINES, TITLE_KEPT_LINES = 3, 2
_ELLIPSIS = "…"


def _title_room(kind: str) -> tuple[float, str, int, int, float]:
    """How a title of ``kind`` is set: font size, face, the lines past which it is cut, the lines
    it is cut to, and its width (an agenda entry is a bullet: body text, narrower)."""
    if kind == "agenda":
        return float(ITEM[0]), "body", TITLE_KEPT_LINES, TITLE_KEPT_LINES, BOX_W - 1.1 * ITEM[0]
    size = {"title": 64.0, "divider": float(DIVIDER_TITLE)}.get(kind, float(TITLE[0]))
    return size, "bold", TITLE_MOST_LINES, TITLE_KEPT_LINES, BOX_W


def _closed(markdown: str) -> bool:
    """Whether inline Markdown closes everything it opens (code spans, links, emphasis), so it can
    end a title and the rest can start a paragraph."""
    if markdown.count("`") % 2 or markdown.count("[") != markdown.count("]") or markdown.count("(") != markdown.count(")"):
        return False
    strong = markdown.count("**") + markdown.count("__")
    single = re.sub(r"\*\*|__", "", markdown)
    return not strong % 2 and not len(re.findall(r"(?<!\w)[*_]|[*_](?!\w)", single)) % 2


def closed_prefix(text: str, limit: int) -> str:
    """``text`` cut at the last word that ends within ``limit`` characters where its Markdown is
    closed, followed by " …" (the whole text when no such word is found)."""
    words = text.split(" ")
    cut = _closed_cut(words, lambda head: len(head) <= limit)
    return " ".join(words[:cut]) + " " + _ELLIPSIS if cut else text


def _closed_cut(words: list[str], fits: Callable[[str], bool]) -> int:
    """How many of ``words`` a cut keeps: the most whose text still ``fits`` and closes all the
    Markdown it opens (0: no such cut)."""
    cut = 0
    for end in range(1, len(words)):
        head = " ".join(words[:end])
        if not fits(head):
            break
        if _closed(head):
            cut = end
    return cut


def short_title(title: str, kind: str = "text") -> tuple[str, str]:
    """A title too long for its slide (a setext heading holding a whole paragraph) cut at a word
    where its Markdown is closed, to what takes ``TITLE_KEPT_LINES`` lines: ``(shown, rest)``;
    the shown part ends with "…" and the rest, which the slide's body opens with, starts with it.
    A title that fits is ``(title, "")``."""
    size, face, most, kept, width = _title_room(kind)
    if wrap_count(plain(title), width, size, face) <= most:
        return title, ""
    words = title.split(" ")
    cut = _closed_cut(words, lambda head: wrap_count(plain(head) + " " + _ELLIPSIS, width, size, face) <= kept)
    if not cut:
        return title, ""
    return " ".join(words[:cut]) + " " + _ELLIPSIS, _ELLIPSIS + " " + " ".join(words[cut:])


def long_titles(slides: list[Slide]) -> list[Slide]:
    """Each slide whose title would not fit its head with its title cut (``short_title``) and the
    rest of the title opening its body, in order: no word lost, none moved."""
    out = []
    for slide in slides:
        shown, rest = short_title(slide.title, slide.kind)
        if not rest:
            out.append(slide)
            continue
        opening = SlideText(rest, "paragraph")
        kind = "text" if slide.kind == "divider" else slide.kind
        at = tuple(position + 1 for position in slide.note_positions())
        out.append(replace(slide, kind=kind, title=shown, content=(opening, *slide.content), notes_at=at if slide.notes else ()))
    return out


def fit_deck(slides: list[Slide]) -> list[Slide]:
    out: list[Slide] = []
    for slide in slides:
        out.extend(fit_slide(slide))
    return out


def _notes_by_page(slide: Slide, pages: list[list[SlideEntry]]) -> list[tuple[str, ...]]:
    """Each page's notes: a note goes to the page where the entry written before it ends (a code
    block or paragraph cut over two pages ends on the second), so notes follow their content."""
    originals = slide.content
    last_page = [0] * len(originals)
    current = 0
    for number, page in enumerate(pages):
        for entry in page:
            if current + 1 < len(originals) and entry != originals[current] and entry == originals[current + 1]:
                current += 1  # the pieces of a cut entry are over: this is the next one, whole
            if current < len(originals):
                last_page[current] = number
            if current < len(originals) and entry == originals[current]:
                current += 1
    out: list[list[str]] = [[] for _ in pages]
    for note, at in zip(slide.notes, slide.note_positions(), strict=True):
        out[last_page[at - 1] if 0 < at <= len(originals) else 0].append(note)
    return [tuple(notes) for notes in out]
