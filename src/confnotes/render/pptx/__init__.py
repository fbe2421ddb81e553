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

The package, bottom up: ``shapes`` (boxes, runs, colours), ``presentation`` (the file, its
layouts, a user's reference deck), ``blocks`` (what a slide's body holds: items, text, code,
tables, pictures, formulas, diagrams), ``slides`` (whole slides: title, divider, content, looks)
and ``render`` here.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from confnotes.markup.escape import xml_safe
from confnotes.model import Document
from confnotes.render.deck import agenda_minutes, item_minutes, talk_plan_for
from confnotes.render.markdown import InlineRenderer
from confnotes.render.options import RenderOptions
from confnotes.render.pptx.presentation import _layouts, _open_reference, _sixteen_nine, reproducible_zip
from confnotes.render.pptx.shapes import _drop_empty, _light_text
from confnotes.render.pptx.slides import (
    _agenda_minutes,
    _content_slide,
    _dark_divider,
    _directed,
    _footer,
    _set_title,
    _title_picture,
    _title_slide,
)
from confnotes.slides import Slide, SlideItem
from confnotes.slides.build import stepped


def render(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[bytes, list[str]]:

    from pptx import Presentation

    md = InlineRenderer(base_dir=base_dir, allow_html=options.allow_html)
    md.load_note(doc, "slide")
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
    warnings = _unshown_theme(options)
    minutes = agenda_minutes(doc, timing)
    slides = stepped(deck, lists=False).slides  # a code walk-through a slide a step (PPTX has no fragments)
    number, total = 0, sum(1 for slide in slides if not slide.later_step)
    for slide in slides:
        number += 0 if slide.later_step else 1
        _add_slide(prs, layouts, slide, md, (base_dir, warnings, minutes), reference)
        if slide.background or slide.classes:
            _directed(prs.slides[-1], slide, base_dir, warnings)
        if slide.later_step:  # named, so a reader of the file (and the tests) can tell a step from a slide
            prs.slides[-1].name = xml_safe(f"{md.plain(slide.display_title)[:60]} (step {slide.step_of + 1})")
        if not reference and slide.kind != "title":
            _footer(prs.slides[-1], md.plain(deck.title), f"{number} / {total}", slide)
        if slide.shared_notes:  # (none when <!-- slide notes: presenter --> keeps them to the presenter view)
            prs.slides[-1].notes_slide.notes_text_frame.text = xml_safe("\n\n".join(slide.shared_notes))
    buffer = io.BytesIO()
    prs.save(buffer)
    return reproducible_zip(buffer.getvalue()), [*dict.fromkeys(md.warnings + warnings)]


def _add_slide(
    prs: Any,
    layouts: dict[str, Any],
    slide: Slide,
    md: InlineRenderer,
    found: tuple[Path | None, list[str], list[str] | None],
    reference: str | None,
) -> None:
    """One slide of the deck as a PPTX slide in the layout its kind calls for."""
    base_dir, warnings, minutes = found
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
            _agenda_minutes(page, item_minutes(slide, minutes))


def _unshown_theme(options: RenderOptions) -> list[str]:
    """What PPTX cannot show of a theme, said once (docs/slides.md, "what each output cannot show")."""
    if options.theme == "default" or options.reference_pptx:
        return []
    return [
        f"PPTX keeps its own look: the {options.theme} theme styles the HTML page, the decks and the PDFs; "
        "for PowerPoint, start from a template of yours with --reference-pptx"
    ]
