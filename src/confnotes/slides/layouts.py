"""Slides the author laid out: columns (``:::: columns``), layouts (``<!-- slide layout: … -->``) and
incremental lists (``::: incremental``, ``> - item``, ``<!-- slide incremental -->``).

``arrange`` turns what the slide builder left in a slide's content (the fences of fenced divs, a
quote of list items) into the slide's ``grid`` and its items' ``step``; ``fitted`` measures a laid
out slide in the boxes its layout gives its content, as deck.css draws them. Every deck format
reads the same ``Slide``: what a layout means in each is in docs/slides.md.

- ``two-column``: the content in two columns (where ``::: column`` divs say, else shared out
  evenly between items, an item kept with its sub-items).
- ``image-left`` / ``image-right``: the slide's first picture fills that side, the rest beside it.
- ``full-image``: the first picture covers the slide; the title and the rest on a band at its foot.
- ``quote``: a quote set large; ``big-number``: the first line set very large (a figure, "99.95%").
- ``title`` / ``section``: the slide set as a title slide or a section divider is, with its content.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import replace

from confnotes.slides.geometry import (
    BAND_ROOM,
    BIG,
    BOX_PAD,
    BOX_W,
    COLUMN_GAP,
    LAYOUT_TITLE,
    MIN_IMAGE,
    PICTURE_SHARE,
    QUOTE,
    SLIDE_W,
    TEXT,
    TITLE,
)
from confnotes.slides.model import Columns, Slide, SlideEntry, SlideItem, SlideText, is_picture

TEXT_BESIDE_W = SLIDE_W * (1 - PICTURE_SHARE) - 2 * BOX_PAD[1]  # the text column beside a picture

_QUOTED_ITEM = re.compile(r"^>[ \t]?([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(.*)$")


# ------------------------------------------------------------------ arranging


def needs_arranging(slide: Slide) -> bool:
    """Whether ``arrange`` has anything to do on the slide."""
    return slide.layout == "two-column" or any(
        (type(e) is SlideText and e.kind in ("div", "quote")) or (type(e) is SlideItem and e.step < 0) for e in slide.content
    )


def arrange_all(slides: list[Slide]) -> list[Slide]:
    """``arrange`` on each slide that needs it; an ``::: incremental`` div that spans slides (over a
    section's points, each a slide) reveals the items of every slide it spans."""
    out = []
    carried = 0  # incremental divs open at the end of the slide before
    for whole in slides:
        for slide in one_columns_set_each(whole):
            if carried or needs_arranging(slide):
                slide, carried = arrange(slide, carried)
            out.append(slide)
    return out


def one_columns_set_each(slide: Slide) -> list[Slide]:
    """A slide with two or more ``:::: columns`` sets as one slide a set, the later ones its
    "(cont.)" (a slide lays out one set side by side; what stands between two sets stays with
    the first), each note with the entry it follows."""
    cuts: list[int] = []
    depth, seen = 0, False
    for index, entry in enumerate(slide.content):
        if type(entry) is not SlideText or entry.kind != "div" or not entry.info:
            continue  # (a fence that pairs with nothing is text)
        if entry.info == "end":
            depth = max(0, depth - 1)
            continue
        if entry.info == "columns" and depth == 0:
            if seen:
                cuts.append(index)
            seen = True
        depth += 1
    if not cuts:
        return [slide]
    bounds = [0, *cuts, len(slide.content)]
    positions = slide.note_positions()
    out = []
    for part, (start, stop) in enumerate(itertools.pairwise(bounds)):
        mine = [n for n, at in enumerate(positions) if (at == 0 and part == 0) or start < at <= stop]
        out.append(
            replace(
                slide,
                content=slide.content[start:stop],
                notes=tuple(slide.notes[n] for n in mine),
                notes_at=tuple(positions[n] - start for n in mine) if slide.notes_at else (),
                continued=slide.continued or part > 0,
            )
        )
    return out


def arrange(slide: Slide, carried: int = 0) -> tuple[Slide, int]:
    """The slide with its div fences read into ``grid`` and steps (the fences leave its content),
    a quote of list items (pandoc's ``> - item``) as incremental items, and items marked to reveal
    (``step`` -1: ``<!-- slide incremental -->``) numbered; ``two-column`` without columns shared
    out in two."""
    content: list[SlideEntry] = []
    kept: list[int] = []  # for each old entry, how many entries stood before it in the new content
    starts: list[int] = []
    widths: list[float | None] = []
    stop = -1
    open_divs: list[str] = ["incremental"] * carried
    for entry in slide.content:
        kept.append(len(content))
        if type(entry) is SlideText and entry.kind == "div":
            if entry.info == "end":
                closed = open_divs.pop() if open_divs else ""
                if closed == "columns" and stop < 0 and starts:
                    stop = len(content)
            else:  # (a div of another name, ``::: tip``, directs nothing here)
                open_divs.append(entry.info)
                if entry.info == "column" and stop < 0:
                    starts.append(len(content))
                    widths.append(_width(entry.text))
            continue
        stepped = "incremental" in open_divs
        quoted = _quoted_items(entry) if type(entry) is SlideText and entry.kind == "quote" else None
        if quoted is not None:
            content.extend(replace(item, step=-1) for item in quoted)
        elif stepped and type(entry) is SlideItem:
            content.append(replace(entry, step=-1))
        else:
            content.append(entry)
    kept.append(len(content))
    grid = _grid(starts, widths, stop if stop >= 0 else len(content)) if len(starts) > 1 else None
    at = tuple(kept[position] for position in slide.note_positions()) if slide.notes_at else ()
    out = replace(slide, content=_numbered_steps(content), grid=grid, notes_at=at)
    if out.layout == "two-column" and out.grid is None and len(out.content) > 1:
        out = replace(out, grid=halves(out.content))
    return out, open_divs.count("incremental")


def _width(text: str) -> float | None:
    from confnotes.parse.divs import width

    return width(text)


def _grid(starts: list[int], widths: list[float | None], end: int) -> Columns:
    stops = (*starts[1:], end)
    given = sum(width for width in widths if width is not None)
    free = [index for index, width in enumerate(widths) if width is None]
    rest = max(0.0, 1.0 - given) / len(free) if free else 0.0
    shares = [width if width is not None else rest or 1.0 / len(widths) for width in widths]
    total = sum(shares) or 1.0
    return Columns(starts[0], tuple(stops), tuple(share / total for share in shares))


def halves(content: tuple[SlideEntry, ...]) -> Columns | None:
    """Two columns of ``content`` shared out as evenly as its entries' words go, cut only before
    an item of the first level or a block (a sub-item stays with its item)."""
    from confnotes.slides.fit import entry_height

    heights = [entry_height(entry, 1.0, column_widths(2, (0.5, 0.5))[0]) for entry in content]
    cuts = [index for index in range(1, len(content)) if type(content[index]) is not SlideItem or content[index].level == 0]  # type: ignore[union-attr]
    if not cuts:
        return None
    total = sum(heights)
    best = min(cuts, key=lambda cut: abs(total / 2 - sum(heights[:cut])))
    return Columns(0, (best, len(content)), (0.5, 0.5))


def _quoted_items(entry: SlideText) -> list[SlideItem] | None:
    """A quote that is nothing but a list (``> - item``) as its items, else None."""
    items: list[SlideItem] = []
    blank = False  # a blank line of the quote after its items: what follows is no item's
    for line in entry.text.split("\n"):
        match = _QUOTED_ITEM.match(line)
        words = line.lstrip().lstrip(">").strip()
        if match is not None:
            indent, marker, text = match.groups()
            number = marker[:-1] if marker[-1] in ".)" else None
            items.append(SlideItem(text.strip(), None, 1 if len(indent.expandtabs(4)) >= 2 else 0, number))
            blank = False
        elif not words:
            blank = bool(items)
        elif items and not blank:  # a lazy continuation of the item's text
            last = items[-1]
            items[-1] = replace(last, text=f"{last.text} {words}")
        else:
            return None
    return items or None


def _numbered_steps(content: Iterable[SlideEntry]) -> tuple[SlideEntry, ...]:
    """Items marked to reveal (``step`` -1) numbered 1, 2, … in order; a sub-item shows with its item."""
    out: list[SlideEntry] = []
    step = 0
    for entry in content:
        if type(entry) is SlideItem and entry.step < 0:
            if entry.level == 0 or step == 0:
                step += 1
            entry = replace(entry, step=step)
        out.append(entry)
    return tuple(out)


def problem(slide: Slide) -> str | None:
    """Why the slide's layout cannot be used (it is then dropped, with this warning), else None."""
    layout = slide.layout
    if layout in ("image-left", "image-right", "full-image") and not any(is_picture(entry) for entry in slide.content):
        return f"slide '{slide.title[:60]}': layout {layout} needs an image on the slide; laid out as a plain slide"
    if layout == "quote" and not any(type(entry) is SlideText and entry.kind == "quote" for entry in slide.content):
        return f"slide '{slide.title[:60]}': layout quote needs a quote (> …) on the slide; laid out as a plain slide"
    return None


# ------------------------------------------------------------------ measuring


def column_widths(count: int, shares: tuple[float, ...], box_w: float = BOX_W) -> list[float]:
    """Each column's width in px: the box less the gaps, shared."""
    inner = box_w - COLUMN_GAP * (count - 1)
    return [inner * share for share in shares]


def text_width(slide: Slide) -> float:
    """The width in px of the slide's text: beside the picture, or the whole box."""
    return TEXT_BESIDE_W if slide.layout in ("image-left", "image-right") else BOX_W


def fit_laid_out(slide: Slide) -> list[Slide]:
    """A laid-out slide at the largest scale at which it fits its layout's boxes; one that fits at
    no scale is laid out as written, one entry under another, and fitted and split as any slide."""
    from confnotes.slides.fit import box_height, fit_slide, steps_for

    if slide.kind == "divider" or not slide.content:
        return [slide]
    laid_out = fitted(slide, box_height(slide), steps_for(slide))
    return [laid_out] if laid_out is not None else fit_slide(replace(slide, grid=None, layout=""))


def fitted(slide: Slide, room: float, steps: tuple[float, ...]) -> Slide | None:
    """The laid-out slide at the largest scale at which it fits its layout's boxes, else None."""
    from confnotes.slides.fit import finish

    for scale in steps:
        height = _height(slide, scale)
        if height <= _room(slide, room):
            if slide.picture is not None:  # it fills its side, or the slide (deck.css); other images share the rest
                rest = tuple(entry for entry in slide.content if entry is not slide.picture)
                return replace(slide, scale=scale, image_px=finish(replace(slide, content=rest, layout=""), scale).image_px)
            if slide.grid is not None:
                return replace(slide, scale=scale, image_px=_column_image_px(slide, scale, room))
            return finish(slide, scale)
    return None


def _room(slide: Slide, room: float) -> float:
    return BAND_ROOM if slide.layout == "full-image" else room


def _height(slide: Slide, scale: float) -> float:
    from confnotes.slides.fit import entry_height, head_height, lede_height

    layout = slide.layout
    content = slide.content
    if layout in ("image-left", "image-right", "full-image"):
        width = text_width(slide)
        picture = next((index for index, entry in enumerate(content) if is_picture(entry)), -1)
        rest = [entry for index, entry in enumerate(content) if index != picture]
        return _head(slide, scale, width) + sum(entry_height(entry, scale, width) for entry in rest)
    if slide.grid is not None:
        grid = slide.grid
        widths = column_widths(len(grid.widths), grid.widths)
        columns = [sum(entry_height(entry, scale, w) for entry in content[a:b]) for w, (a, b) in zip(widths, grid.spans(), strict=True)]
        outside = [*content[: grid.start], *content[grid.stops[-1] :]]
        return head_height(slide, scale) + sum(entry_height(entry, scale) for entry in outside) + max(columns, default=0.0)
    if layout == "title":
        return _head(slide, scale, BOX_W) + sum(lede_height(entry, scale) for entry in content)
    if layout == "section":
        return _head(slide, scale, BOX_W) + sum(entry_height(entry, scale) for entry in content)
    return head_height(slide, scale) + sum(entry_room(slide, entry, scale) for entry in content)


def entry_room(slide: Slide, entry: SlideEntry, scale: float, width: float = BOX_W) -> float:
    """The height in px of one of the slide's entries as its layout sets it (``width`` its box's):
    a quote layout's quote and a big-number layout's figure large, anything else as any slide's."""
    from confnotes.slides.fit import entry_height
    from confnotes.slides.widths import wrap_count

    if slide.layout == "quote" and type(entry) is SlideText and entry.kind == "quote":
        text = " ".join(line.lstrip("> ") for line in entry.text.split("\n"))
        size = QUOTE[0] * scale
        return wrap_count(_plain(text), width - 120, size) * size * QUOTE[1] + TEXT[2] * scale
    if entry is slide.big:
        size = BIG[0] * scale
        text = entry.full if type(entry) is SlideItem else entry.text
        return wrap_count(_plain(text), width, size, "bold") * size * BIG[1] + TEXT[2] * scale
    return entry_height(entry, scale, width)


def _head(slide: Slide, scale: float, width: float) -> float:
    """The title above a layout's content, in its column ``width``."""
    from confnotes.slides.widths import wrap_count

    size: float
    if slide.layout in ("title", "section"):
        size = LAYOUT_TITLE[0] if slide.layout == "title" else LAYOUT_TITLE[1]
        return wrap_count(_plain(slide.display_title), width, size, "bold") * size * TITLE[1] + 24
    size = TITLE[0] * scale
    return wrap_count(_plain(slide.display_title), width, size, "bold") * size * TITLE[1] + TITLE[2] * scale + 4


def _column_image_px(slide: Slide, scale: float, room: float) -> int:
    """The height each picture in a column may take: what its column leaves, shared."""
    from confnotes.slides.fit import entry_height, head_height, images_in

    grid = slide.grid
    assert grid is not None
    widths = column_widths(len(grid.widths), grid.widths)
    outside = [*slide.content[: grid.start], *slide.content[grid.stops[-1] :]]
    spare = room - head_height(slide, scale) - sum(entry_height(entry, scale) for entry in outside)
    best = 0.0
    for width, (a, b) in zip(widths, grid.spans(), strict=True):
        column = slide.content[a:b]
        images = sum(images_in(entry) for entry in column)
        if images:
            fixed = sum(entry_height(entry, scale, width) - MIN_IMAGE * images_in(entry) for entry in column)
            best = max(best, (spare - fixed) / images)
    return int(max(MIN_IMAGE, best)) if best else 0


def _plain(text: str) -> str:
    from confnotes.slides.fit import plain

    return plain(text)
