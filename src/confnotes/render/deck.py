"""What every deck output shares: the deck for a note, the template context, and a slide's lines as text.

Each deck output is a module of its own (``deck_html``, ``slides_pdf``, ``handout``, ``marp``,
``slide_outline``, ``pptx``), registered in ``formats.FORMATS``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from confnotes.model import Document
from confnotes.render.html import style_safe, theme_css
from confnotes.render.inline.code import code_css
from confnotes.render.markdown import InlineRenderer, theme_inks
from confnotes.render.options import RenderOptions, user_css
from confnotes.slides import Deck, Slide, SlideItem, SlideText, slide_words
from confnotes.slides.fit import code_lines
from confnotes.timing import TalkPlan, Timing, agenda_label, fitted_deck, format_minutes, schedule, talk_plan

if TYPE_CHECKING:
    from confnotes.render.pdf import PrintJob


def slide_lines(slide: Slide, plain: Any) -> list[tuple[str, int, str | None]]:
    """What a slide shows, as plain text in its order: ``(text, level, label)`` per item or block."""
    from confnotes.markup.callouts import plain_quote
    from confnotes.model.values import Callout

    lines: list[tuple[str, int, str | None]] = []
    for entry in slide.content:
        if isinstance(entry, SlideItem):
            number = f"{entry.number}. " if entry.number else ""
            lines.append((number + plain(entry.text), entry.level, None if entry.label is None else plain(entry.label)))
        elif entry.kind in ("code", "diagram"):  # the code (a diagram's source) itself, not its fence and language
            lines.append((" ".join(" ".join(code_lines(entry)).split()), 0, None))
        elif (table := entry.table) is not None:
            lines.append((" | ".join(" ".join(plain(cell) for cell in row) for row in table.all_rows), 0, None))
        elif type(entry.value) is Callout:  # a callout as its glyph and title in bold, then its body
            lines.append((" ".join(plain(plain_quote(entry.value)).split()), 0, None))
        else:
            lines.append((" ".join(plain(entry.text).split()), 0, None))
    return lines


def deck_for(doc: Document, options: RenderOptions, base_dir: Path | None = None) -> Deck:
    """The deck every deck output renders; with ``base_dir``, images that will not show (missing,
    remote) are measured as the text the renderers put in their place."""
    return fitted_deck(doc, options.slides, base_dir, options.decks)


#: an image layout's picture fills a side of 40% of the slide by its height: one whose shape keeps
#: less than this share of itself there is cropped to a strip, and the deck outputs say so
KEPT_BY_A_CROP = 0.5


def cropped_pictures(deck: Deck, base_dir: Path | None) -> list[str]:
    """A warning for each ``image-left``/``image-right`` picture its side crops to less than half of
    itself (a wide screenshot or diagram shown as a strip). The title slide's picture is left out: a
    photo beside the title is cropped to fill its side by design."""
    from confnotes.slides.geometry import PICTURE_SHARE, SLIDE_H, SLIDE_W

    side = SLIDE_W * PICTURE_SHARE / SLIDE_H
    out = []
    for slide in deck.slides:
        picture = slide.picture if slide.layout in ("image-left", "image-right") and slide.kind != "title" else None
        size = _picture_size(picture, base_dir) if type(picture) is SlideText else None
        if not size or not size[1]:
            continue
        shape = size[0] / size[1]
        kept = min(side / shape, shape / side)
        if kept < KEPT_BY_A_CROP:
            out.append(
                f"slide '{slide.title[:60]}': layout {slide.layout} shows {kept:.0%} of its picture ({size[0]:.0f} x "
                f"{size[1]:.0f}), cropped to fill its side; full-image, or no layout, shows it whole"
            )
    return out


def _picture_size(entry: SlideText, base_dir: Path | None) -> tuple[float, float] | None:
    if entry.kind == "diagram":
        from confnotes.markup.diagrams import draw, drawn_size
        from confnotes.model.values import Diagram

        if type(entry.value) is not Diagram:
            return None
        drawn = draw(entry.value.tool, entry.value.source)
        return drawn_size(drawn.svg) if drawn.svg else None
    from confnotes.edges.images import local_image
    from confnotes.parse.values import IMAGE_REF

    match = IMAGE_REF.search(entry.text)
    path = local_image(match.group(2), base_dir) if match and base_dir is not None else None
    return image_size(path) if path is not None else None


def talk_plan_for(doc: Document, options: RenderOptions, base_dir: Path | None) -> TalkPlan:
    """The note's one talk plan (``timing.talk_plan``) under the render's slide settings."""
    return talk_plan(doc, options.slides, base_dir, options.decks)


def agenda_minutes(doc: Document, timing: Timing) -> list[str] | None:
    """The minutes of each part of a talk (``Document.parts``, hidden ones too: its budget, else its
    estimate), the same in every deck output; an agenda item shows ``minutes[item.part]``, on
    whichever agenda slide it lands. None for notes that are not a talk."""
    if not (doc.is_talk and doc.parts):
        return None
    return [agenda_label(section.planned_minutes) for section in timing.sections]


def shown_schedule(timing: Timing, md: InlineRenderer) -> dict[str, Any]:
    """The presenter's plan (``timing.schedule``) with each part's title as the deck shows it: its
    words, emoji shortcodes as their emoji (``:rocket:`` → 🚀), no Markdown."""
    plan = schedule(timing)
    plan["sections"] = [{**section, "title": md.plain(section["title"])} for section in plan["sections"]]
    return plan


def item_minutes(slide: Slide, minutes: list[str] | None) -> list[str]:
    """The minutes of an agenda slide's items, in order (none for another slide)."""
    if slide.kind != "agenda" or not minutes:
        return []
    return [minutes[item.part] for item in slide.content if type(item) is SlideItem and item.part is not None]


def deck_context(doc: Document, options: RenderOptions, base_dir: Path | None, printed: bool = False) -> dict[str, Any]:
    """Everything a deck template receives: the deck, the model, the options and render helpers
    (``printed``: for a PDF, within the print limits of ``InlineRenderer``)."""
    from confnotes.templating import read_builtin

    theme = theme_css(options)
    md = InlineRenderer(base_dir=base_dir, allow_html=options.allow_html, printed=printed, foldable=False, inks=theme_inks(theme))
    md.load_note(doc, "slide")  # a footnote's call is a number; the slide lists its footnotes at its foot

    def static(name: str) -> str:
        return style_safe(read_builtin(name, options.templates))

    deck, timing = talk_plan_for(doc, options, base_dir)
    agenda = agenda_minutes(doc, timing)
    if printed:  # a PDF lays out what it can in bounded time and memory; a last slide names the rest
        from confnotes.render.printed import printed_deck

        deck, cut = printed_deck(deck)
        if cut is not None:
            md.warnings.append(cut)
    return {
        "doc": doc,
        "meta": doc.meta,
        "deck": deck,
        "timing": timing,
        "schedule": shown_schedule(timing, md),
        "agenda_minutes": agenda,
        "item_minutes": item_minutes,
        "clock": format_minutes,
        "options": options,
        "md": md,
        "words": slide_words,
        "theme_css": style_safe(theme + "\n" + user_css(options)),
        "deck_css": static("deck.css"),
        "deck_js": static("deck.js"),
        "code_css": _CODE_CSS,  # filled in once the deck is rendered (render_template_deck)
        "handout_css": static("handout.css"),
    }


#: Where Pygments' colour rules go; a deck with no highlighted code (on a slide, in speaker notes or
#: in a quote) gets none, which leaves WeasyPrint fewer rules to match on every element.
_CODE_CSS = "/* confnotes: code colours */"
_HIGHLIGHTED = re.compile(r'class="[^"]*\bhighlight\b')


def render_template_deck(
    template: str, doc: Document, options: RenderOptions, base_dir: Path | None, **extra: Any
) -> tuple[str, list[str]]:
    """Render a deck template; returns the text and the inline renderer's warnings."""
    return _render_deck(template, doc, options, base_dir, False, extra)


def _render_deck(
    template: str, doc: Document, options: RenderOptions, base_dir: Path | None, printed: bool, extra: dict[str, Any]
) -> tuple[str, list[str]]:
    from confnotes.templating import render_template

    context = deck_context(doc, options, base_dir, printed)
    steps = extra.pop("steps", False)  # True: a page a step; "code": a slide a code walk-through's step (Marp)
    if steps:
        from confnotes.slides.build import stepped

        context["deck"] = stepped(context["deck"], lists=steps is True)
    text = render_template(template, options.templates, options.trust_templates, **context, **extra)
    colours = style_safe(code_css(options.theme)) if _HIGHLIGHTED.search(text) else ""
    return text.replace(_CODE_CSS, colours), context["md"].warnings


def deck_pdf(template: str, doc: Document, options: RenderOptions, base_dir: Path | None, **extra: Any) -> PrintJob:
    """A deck template to print to PDF through WeasyPrint (the slides PDF, the handout)."""
    from confnotes.render.pdf import PrintJob

    html, warnings = _render_deck(template, doc, options, base_dir, True, extra)  # for print: within its limits
    links_from = Path(options.output_dir) if options.output_dir else None  # links to files, from where the PDF goes
    return PrintJob(html, base_dir, options.tagged, tuple(warnings), links_from=links_from)


def contained(size: tuple[int, int], box: tuple[float, float]) -> tuple[int, int]:
    """An image's size scaled to fit ``box`` (width, height) whole: never cropped, never enlarged
    past the box, aspect kept."""
    ratio = min(box[0] / size[0], box[1] / size[1])
    return max(1, int(size[0] * ratio)), max(1, int(size[1] * ratio))


#: The most pixels an image may have for a deck to measure and show it (Pillow's own limit, about
#: 9,500 x 9,500): a few hundred kilobytes of PNG can declare 30,000 x 30,000 pixels, which a viewer
#: would unpack into gigabytes. Such an image is shown as its alt text or a link, with a warning.
MAX_IMAGE_PIXELS = 89_478_485


def measure_image(path: Path | BinaryIO) -> tuple[tuple[int, int] | None, str | None]:
    """An image's pixel size, read from its header (nothing is unpacked), or None and why not: no
    reason for a file Pillow cannot read (an SVG, a broken file), a reason for one too large to show."""
    import warnings

    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # judged below, by our own limit
            with Image.open(path) as image:
                width, height = int(image.size[0]), int(image.size[1])
    except Image.DecompressionBombError:
        return None, f"has more than {MAX_IMAGE_PIXELS:,} pixels"
    except (OSError, UnidentifiedImageError, ValueError, SyntaxError):
        return None, None
    if width * height > MAX_IMAGE_PIXELS:
        return None, f"has {width:,} x {height:,} pixels (more than {MAX_IMAGE_PIXELS:,})"
    return (width, height), None


def image_size(path: Path | BinaryIO) -> tuple[int, int] | None:
    """Pixel size of an image file or stream (None if it cannot be read as one, or is too large to
    show: ``measure_image`` says why)."""
    return measure_image(path)[0]
