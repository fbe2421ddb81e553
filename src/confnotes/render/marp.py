"""Marp Markdown of the deck (``--to marp``).

The same slides as every deck output (the fit engine's splits). Images next to the note are
linked relative to where the Marp file is written (so a deck written to another folder, or
into a built site, still finds them) and carry Marp's ``w:``/``h:`` size keywords: the size
that fits the room the fit engine left on the slide, aspect kept.

Marp reads HTML comments as directives (``<!-- backgroundImage: url(…) -->``), honours
``<style>`` and raw HTML, and loads web images, emoji images and a theme's web fonts when a deck
is opened. So the author's raw HTML is escaped — shown as text, as the HTML deck shows it —
unless the config sets ``allow_html``, the author's HTML comments always are, speaker notes are
comments Marp cannot read as directives, and, unless ``--allow-remote``, web images are links and
emoji are written so Marp draws them with the system's fonts (``marp_guard``): opening a deck
never runs or fetches what a note smuggled in. Code is left as written (but for its emoji).
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

from confnotes.edges.images import is_web, locate, shown_source
from confnotes.edges.video import check_video, is_video, video_link
from confnotes.model import Document
from confnotes.model.values import Callout, Diagram
from confnotes.parse.values import IMAGE_REF
from confnotes.render.deck import contained, image_size, measure_image, render_template_deck
from confnotes.render.inline.links import safe_link
from confnotes.render.marp_guard import (
    code_pieces,
    guarded,
    loads_from_afar,
    quiet_code_emoji,
    quiet_emoji,
    quiet_html,
    safe_links,
    speaker_note,
)
from confnotes.render.options import RenderOptions
from confnotes.slides import Slide, SlideItem, SlideText
from confnotes.slides.fit import closed_fence, table_widths
from confnotes.slides.geometry import BIG, BOX_PAD, BOX_W, CELL_PAD, CODE, COLUMN_GAP, ITEM, LAYOUT_TITLE, MIN_IMAGE, QUOTE, TABLE, TEXT
from confnotes.slides.geometry import sizes as fit_sizes
from confnotes.slides.layouts import text_width
from confnotes.slides.model import runs_of


def _counts_up(run: list[SlideItem]) -> bool:
    """Whether every numbered item in ``run`` is a number Markdown would give it: one more than the
    numbered item before it at its level (the first of a list may start anywhere)."""
    last: dict[int, int | None] = {}
    for item in run:
        for deeper in [level for level in last if level > item.level]:
            del last[deeper]
        number = item.number or ""
        if not number:
            last[item.level] = None
            continue
        if not number.isdigit() or len(number) > 9:
            return False
        previous = last.get(item.level)
        if previous is not None and int(number) != previous + 1:
            return False
        last[item.level] = int(number)
    return True


def render(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[str, list[str]]:
    text, warnings = _marp(doc, options, base_dir)
    if options.allow_html and not options.allow_remote and loads_from_afar(text.split("\n---\n", 1)[-1]):
        # raw HTML quiet_html could not make quiet (a style element the fit engine split, say): as text
        text, warnings = _marp(doc, replace(options, allow_html=False), base_dir)
        warnings.append("raw HTML in the note would load from elsewhere when the deck is opened; shown as text (--allow-remote loads it)")
    return text, warnings


def _marp(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[str, list[str]]:
    output_dir = Path(options.output_dir) if options.output_dir else base_dir
    warnings: list[str] = []
    remote = options.allow_remote

    def safe(text: str, slide: Slide | None = None, kind: str = "") -> str:
        if kind == "code":
            return text if remote else quiet_code_emoji(text)
        if kind in ("paragraph", "quote"):
            text = joined_lines(text)
        text = IMAGE_REF.sub(lambda match: _image(match, slide, (base_dir, output_dir), remote, warnings), text)
        if "[^" in text and numbers:
            text = _calls(text, numbers)
        if "$" in text:
            return "".join(formula(piece, warnings) if math else words(piece) for math, piece in formulas(text))
        return words(text)

    def words(text: str) -> str:
        text = safe_links(guarded(text, options.allow_html), warnings)
        if remote:
            return text
        return quiet_emoji(quiet_html(text) if options.allow_html else text)

    from confnotes.markup.footnotes import footnotes_of

    numbers = footnotes_of(doc).numbers

    def code(run: SlideText) -> str:
        fenced = closed_fence(run)
        return fenced if remote else quiet_code_emoji(fenced)

    def directed(slide: Slide, base: str) -> str:
        return _directed(slide, base, (base_dir, output_dir), warnings)

    def picture(run: SlideText, slide: Slide) -> str:
        return _picture(run, slide, (base_dir, output_dir), warnings)

    def diagram(run: SlideText, slide: Slide) -> str:
        drawn = _diagram(run, slide, warnings)
        return drawn if drawn is not None else code(run)

    helpers = {
        "safe": safe,
        "block": lambda run, slide, kind=None: safe(*_as_shown(run, kind, slide)),
        "sizes": slide_style,
        "items": item_lines,
        "code": code,
        "note_comment": speaker_note,
        "footnote_footer": footnote_footer,
        "diagram": diagram,
        "directed": directed,
        "picture": picture,
    }
    text, rendered = render_template_deck("marp.md", doc, options, base_dir, steps="code", **helpers)
    return text + _definitions(doc), [*dict.fromkeys(warnings), *rendered]


def _definitions(doc: Document) -> str:
    """The note's link reference definitions, after the last slide: a ``[the deck][deck]`` link on
    any slide is a link, as on the page (a definition shows nothing; one to an unsafe address is left out)."""
    from confnotes.parse.markdown import render_parser
    from confnotes.render.inline.notes import reference_blocks, references_of

    blocks = reference_blocks(doc)
    if not blocks:
        return ""
    lines = []
    for label, found in references_of(blocks, render_parser()).items():
        href, title = str(found.get("href") or ""), str(found.get("title") or "")
        if href and safe_link(href) and "\n" not in label:
            shown = f' "{title}"'.replace("\n", " ") if title and '"' not in title else ""
            lines.append(f"[{label}]: <{href.replace('>', '%3E')}>{shown}")
    return "\n\n" + "\n".join(lines) + "\n" if lines else ""


def _directed(slide: Slide, base: str, folders: tuple[Path | None, Path | None], warnings: list[str]) -> str:
    """The slide's class and background as Marp's own directives (``_class``, ``_backgroundColor``,
    a ``![bg]`` image), from what ``<!-- slide … -->`` asked for (values checked when read)."""
    from confnotes.slides.directives import is_colour, is_dark

    extra = "invert" if is_dark(slide.background) or slide.layout in ("section", "full-image") else ""
    laid = (
        ("lead", f"layout-{slide.layout}")
        if slide.layout in ("title", "section", "quote", "big-number")
        else (f"layout-{slide.layout}",)
        if slide.layout
        else ()
    )
    names = list(dict.fromkeys(name for name in (base, *laid, *slide.classes, extra) if name))
    lines = [f"<!-- _class: {' '.join(names)} -->"] if names else []
    if slide.background and is_colour(slide.background):
        lines.append(f'<!-- _backgroundColor: "{slide.background}" -->')
    elif slide.background:
        match = IMAGE_REF.search(f"![bg opacity:.25]({slide.background})")  # faded: the text stays legible
        if match is not None:
            lines.append(_image(match, None, folders, False, warnings))
    return "\n".join(lines)


#: an image layout's picture as Marp's split or full background
_BACKGROUNDS = {"image-left": "bg left:40%", "image-right": "bg right:40%", "full-image": "bg brightness:.5"}


def _picture(run: SlideText, slide: Slide, folders: tuple[Path | None, Path | None], warnings: list[str]) -> str:
    """An image layout's picture (``slides.layouts``) as a Marp background: beside the text, or
    behind it, darkened (the slide is ``invert``); the image's alt text is kept in Marp's alt."""
    found = IMAGE_REF.search(run.text)
    if found is None:
        return run.text
    alt, src = found.group(1), found.group(2)
    match = IMAGE_REF.search(f"![{_BACKGROUNDS[slide.layout]} {alt}]({src})")
    return _image(match, None, folders, False, warnings) if match is not None else run.text


def _as_shown(run: SlideText, kind: str | None, slide: Slide) -> tuple[str, Slide, str]:
    """A block's Markdown on ``slide`` and as what kind (``kind``, if not its own): a callout as a
    quote with its title in bold (Marp has no callouts)."""
    if type(run.value) is Callout:
        from confnotes.markup.callouts import plain_quote

        return plain_quote(run.value), slide, "quote"
    return run.text, slide, run.kind if kind is None else kind


def _diagram(run: SlideText, slide: Slide, warnings: list[str]) -> str | None:
    """A drawn diagram as a PNG in the file (Marp shows no SVG ``data:`` image), sized for its
    slide; None, with a warning, when it is not drawn here (the code is shown)."""
    import base64

    from confnotes.markup.diagrams import diagram_name, draw, png, shown_as_code
    from confnotes.render.markdown import INK_ON_DARK

    if type(run.value) is not Diagram:
        return None
    tool = run.value.tool
    drawn = draw(tool, run.value.source, INK_ON_DARK if slide.dark_ground else None)  # Marp's invert slides are dark
    if drawn.svg is None:
        warnings.append(shown_as_code(tool, run.value.source, drawn.problem))
        return None
    blob = png(drawn.svg, 2 * BOX_W)
    size = image_size(io.BytesIO(blob))
    alt = diagram_name(tool)
    if size is not None:
        width, height = contained(size, (BOX_W, slide.image_px or MIN_IMAGE))
        alt = f"w:{width} h:{height} {alt}"
    return f"![{alt}](data:image/png;base64,{base64.b64encode(blob).decode('ascii')})"


def _calls(text: str, numbers: dict[str, int]) -> str:
    """Footnote calls (``[^id]``, code aside) as superscript numbers: Marp reads no footnotes."""
    from confnotes.markup.footnotes import REFERENCE, call_mark

    def call(match: re.Match[str]) -> str:
        number = numbers.get(match.group(1))
        return call_mark(number) if number is not None else match.group(0)

    return "".join(piece if code else REFERENCE.sub(call, piece) for code, piece in code_pieces(text))


def footnote_footer(slide: Slide) -> str:
    """The slide's footnotes as its Marp footer (``_footer``, the small line at the slide's foot),
    plain text in a quoted string that no text can end early."""
    import json

    from confnotes.slides.fit import plain

    if not slide.footnotes:
        return ""
    from confnotes.markup.footnotes import call_mark

    parts = [f"{call_mark(number)} {' '.join(plain(text).split())}" for number, _, text in slide.footnotes]
    value = json.dumps(" · ".join(parts), ensure_ascii=False).replace("--", "-\u2060-").replace("<", "\u003c")
    return f"<!-- _footer: {value} -->"


def formulas(text: str) -> list[tuple[bool, str]]:
    """``text`` cut into its formulas and the rest, code spans left whole (``math.math_pieces``)."""
    from confnotes.markup.math import math_pieces

    out: list[tuple[bool, str]] = []
    for code, piece in code_pieces(text):
        out += [(False, piece)] if code else math_pieces(piece)
    return out


def formula(piece: str, warnings: list[str]) -> str:
    """A formula as Marp typesets it (MathJax, in the deck's own build): its TeX as written, but ``<``
    and ``>`` as ``\\lt`` and ``\\gt``, so no reader of the Markdown can take them for HTML; TeX that
    cannot be typeset is shown as code, as in every other output, with a warning."""
    from confnotes.markup.math import MathError, mathml

    display = piece.startswith("$$")
    tex = piece[2:-2] if display else piece[1:-1]
    try:
        mathml(tex.strip(), display)
    except MathError as exc:
        warnings.append(f"math not typeset ({exc}); shown as TeX: {piece[:64]}")
        fence = "``" if "`" in piece else "`"
        return f"{fence} {piece} {fence}" if "`" in piece else f"{fence}{piece}{fence}"
    return piece.replace("<", "\\lt ").replace(">", "\\gt ")


def _image(match: re.Match[str], slide: Slide | None, folders: tuple[Path | None, Path | None], remote: bool, warnings: list[str]) -> str:
    """One image reference as the Marp file writes it: an image next to the note linked from where
    the file goes, sized for its slide; a ``data:`` image as it is; a web image as a link to it
    (as an image with ``remote``); any other image, or one too large to show, a link, with a warning."""
    base_dir, output_dir = folders
    alt, src, title = match.group(1), match.group(2), match.group(3)
    if is_video(src):
        return _video_link(alt, src, folders, warnings)
    path, problem = locate(src, base_dir)
    if path is None:
        if src.lower().startswith("data:image/"):
            return match.group(0)  # in the file: nothing to fetch
        if is_web(src):  # a web image: loaded only if allowed
            return match.group(0) if remote else _image_link(alt, src, title)
        if problem:
            warnings.append(problem)
        # another scheme (file:, ftp:, …) is never loaded; a file that is missing stays as written
        return _image_link(alt, src, title) if _SCHEME.match(src) else match.group(0)
    if output_dir is not None:
        src = quote(Path(os.path.relpath(path, output_dir.resolve())).as_posix(), safe="/")  # a space would end the address
    size, too_large = measure_image(path)
    if too_large:
        warnings.append(f"image {shown_source(match.group(2))} {too_large}; linked, not shown")
        return _image_link(alt, src, title)
    if slide is not None and slide.image_px and size is not None:
        width, height = contained(size, (BOX_W, slide.image_px))
        alt = f"w:{width} h:{height} {alt}".rstrip()
    return f"![{alt}]({src}{title})"


_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]<>])")


def _video_link(alt: str, src: str, folders: tuple[Path | None, Path | None], warnings: list[str]) -> str:
    """A video, which Marp cannot play: a link to it (from where the file goes), its alt text
    behind a play mark, with the warning every output gives when it cannot be used."""
    base_dir, output_dir = folders
    video, problem = check_video(src, base_dir, embedded=False)
    if problem is not None:
        warnings.append(problem)
    src = video_link(src, video, output_dir)
    label = alt or _MARKDOWN_PUNCTUATION.sub(r"\\\1", src)
    return f"[\u25b6 {label}]({src})"


def _image_link(alt: str, src: str, title: str) -> str:
    """An image Marp must not load, as the HTML deck shows one: its alt text (else its address),
    linked to it."""
    label = alt or _MARKDOWN_PUNCTUATION.sub(r"\\\1", src)
    return f"[{label}]({src}{title})"


_HARD_BREAK = re.compile(r"(?:  |\\)$")


#: A line that starts a block of its own (an item of a list, a fence, a heading, a table row): never
#: run onto the line before it.
_BLOCK_START = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)|```|~~~|#{1,6}(?:[ \t]|$)|\|")


def joined_lines(text: str) -> str:
    """A paragraph's soft line breaks as spaces: marp-core shows each as a line break (``breaks``),
    where every other output, and the fit engine's measure, run the lines on. Hard breaks (two
    spaces or a backslash at the end of a line) stay; a quote's lines are joined inside the quote;
    a line that starts a block (a list's item in a callout, say) stays on its own."""
    out: list[str] = []
    for line in text.split("\n"):
        previous = out[-1] if out else ""
        quoted = previous.lstrip().startswith(">") and line.lstrip().startswith(">")
        body = line.lstrip().lstrip(">").lstrip() if quoted else line.lstrip()
        open_line = previous.strip().lstrip(">").strip() and not _HARD_BREAK.search(previous)
        if open_line and body and not _BLOCK_START.match(body) and (quoted or not previous.lstrip().startswith(">")):
            out[-1] = previous.rstrip() + " " + body
        else:
            out.append(line)
    return "\n".join(out)


def item_lines(run: list[SlideItem]) -> list[tuple[SlideItem, str]]:
    """Each item with what starts its line: its indent and marker. Numbered items are an ordered
    list (``3. ``), so Marp shows the number and no bullet, when their numbers count up one by
    one as Markdown numbers a list; otherwise (``1, 1, 4``) each keeps its own number after a
    bullet. A sub-item is indented to its parent's text, as Markdown nests it."""
    ordered = _counts_up(run)
    out: list[tuple[SlideItem, str]] = []
    columns: list[int] = []  # where the text of the last item at each level starts
    for item in run:
        indent = columns[item.level - 1] if 0 < item.level <= len(columns) else 2 * item.level
        number = item.number or ""
        # an incremental list's items: Marp's fragmented list (``*`` bullets, ``1)`` numbers)
        bullet, point = ("* ", ") ") if item.step else ("- ", ". ")
        marker = f"{number}{point}" if ordered and number else bullet + (f"{number}\\. " if number else "")
        del columns[item.level :]
        columns.append(indent + len(marker) if ordered and number else indent + 2)
        out.append((item, " " * indent + marker))
    return out


def layout_style(slide: Slide) -> str:
    """A laid-out slide's boxes as Marp scoped CSS: columns as a grid whose cells are the slide's
    elements (its title, then one element a run of content), a layout's sizes as the deck's."""
    out = []
    if slide.grid is not None:
        grid = slide.grid
        widths = " ".join(f"{share * 100:.2f}fr" for share in grid.widths)
        out.append(f"section {{ display: grid; grid-template-columns: {widths}; column-gap: {COLUMN_GAP}px; ")
        out.append("align-content: start; align-items: start; }")
        out.append("section > * { grid-column: 1 / -1; }")
        above, below = runs_of(slide.content[: grid.start]), runs_of(slide.content[grid.stops[-1] :])
        child, row = 2, 2  # the title is the first element, in the first row
        for _ in above:
            out.append(f"section > :nth-child({child}) {{ grid-row: {row}; }}")
            child, row = child + 1, row + 1
        counts = [len(runs_of(slide.content[start:stop])) for start, stop in grid.spans()]
        tallest = max(counts, default=0)
        for column, count in enumerate(counts, 1):
            for offset in range(count):  # a shorter column's last run spans the rows left, so no gap opens in it
                span = tallest - offset if offset == count - 1 else 1
                out.append(f"section > :nth-child({child}) {{ grid-column: {column}; grid-row: {row + offset} / span {span}; }}")
                child += 1
        row += tallest
        for _ in below:
            out.append(f"section > :nth-child({child}) {{ grid-row: {row}; }}")
            child, row = child + 1, row + 1
    # a layout's sizes on the elements that hold the text (the slide's own p and li sizes are
    # set on those elements, so a size on their parent would not reach them)
    if slide.layout == "quote":
        out.append(f"blockquote, blockquote p {{ font-size: {QUOTE[0] * slide.scale:.1f}px; line-height: {QUOTE[1]}; }}")
        out.append("blockquote { font-style: italic; border: none; }")
    if slide.layout == "big-number":
        big = f"font-size: {BIG[0] * slide.scale:.1f}px; line-height: {BIG[1]}; font-weight: 700;"
        out.append(f"section > :nth-child(2):not(ul), section > ul:nth-child(2) > li:first-child {{ {big} }}")
        out.append("section > ul:nth-child(2) > li:first-child { list-style: none; }")
    if slide.layout in ("title", "section"):
        out.append(f"h2 {{ font-size: {LAYOUT_TITLE[0 if slide.layout == 'title' else 1]}px; }}")
    return " ".join(out)


def slide_style(slide: Slide) -> str:
    """The fit engine's sizes for this slide, as a Marp scoped style: Marp sets the text in the same
    sizes as the HTML deck, which is what the slide was fitted (shrunk, split) for."""
    if slide.grid is not None or slide.layout:
        return _sizes(slide) + " " + layout_style(slide)
    return _sizes(slide)


def _table_columns(slide: Slide) -> str:
    """Each table's columns at the widths the fit engine measured its rows by (``fit.table_widths``,
    as the HTML deck's ``<colgroup>``), laid out fixed: a cell wraps between words and breaks a word
    only when it is wider than its whole column. Beside columns (a grid) the browser shares the width."""
    if slide.grid is not None:
        return ""
    tables = [entry.table for entry in slide.content if type(entry) is SlideText and entry.table is not None]
    size, box = fit_sizes(slide.scale)["table"], text_width(slide)
    rules = []
    for number, table in enumerate(tables, start=1):
        widths = table_widths(table, size, box)
        rules.append(f"table:nth-of-type({number}) {{ table-layout: fixed; }}")
        rules += [
            f"table:nth-of-type({number}) tr > :nth-child({column}) {{ width: {100 * width / sum(widths):.2f}%; }}"
            for column, width in enumerate(widths, start=1)
        ]
    return "".join(" " + rule for rule in rules)


def _sizes(slide: Slide) -> str:
    px = fit_sizes(slide.scale)
    # an image sits on its line's top, as the deck's block images do: no gap under it
    on_top = " img { vertical-align: top; }" if slide.image_px else ""
    return (
        # the content box the slide was fitted in (Marp's own is 13 px shorter)
        f"section {{ padding: {BOX_PAD[0]}px {BOX_PAD[1]}px {BOX_PAD[2]}px; }} "
        f"h2 {{ font-size: {px['title']:.1f}px; }} "
        f"li {{ font-size: {px['item']:.1f}px; line-height: {ITEM[1]}; }} li li {{ font-size: {px['sub']:.1f}px; }} "
        f"p, blockquote {{ font-size: {px['text']:.1f}px; line-height: {TEXT[1]}; }} "
        f"pre {{ font-size: {px['code']:.1f}px; line-height: {CODE[1]}; }} "
        # tables as the deck sets them (fitted for): as wide as the box, the columns shared by what they
        # hold (the browser's automatic layout, as slides.fit.table_widths shares them; a word wider
        # than its column still wraps, but never a number inside a cell that holds it)
        f"table {{ font-size: {px['table']:.1f}px; line-height: {TABLE[1]}; width: 100%; table-layout: auto; display: table; }} "
        f"th, td {{ padding: {CELL_PAD[0]}px {CELL_PAD[1]}px; overflow-wrap: break-word; }}{on_top}{_table_columns(slide)}"
        f"{_code_step_bands(slide)}"
    )


#: a code walk-through's step in Marp: a band behind the step's lines (Marp's code has no line elements)
_STEP_BAND = "rgba(255, 196, 0, 0.32)"


def _code_step_bands(slide: Slide) -> str:
    """On a copy of a slide a step of a code walk-through (``slides.build.stepped``): a band behind
    each line of the step, one line ``CODE[1]`` em high, as Marp sets code (no wrapping: ``white-space:
    pre``), so the band stays on its lines when Marp scales a wide block down."""
    rules = []
    blocks = [entry for entry in slide.content if type(entry) is SlideText and entry.kind == "code"]
    for number, entry in enumerate(blocks, start=1):
        steps = entry.steps
        if not entry.shown_step or not steps:
            continue
        lines = steps[min(entry.shown_step, len(steps)) - 1]
        if not lines:
            continue
        stops = []
        for row in sorted(line - entry.first for line in lines):
            top, bottom = f"{CODE[1] * (row - 1):.2f}em", f"{CODE[1] * row:.2f}em"
            stops.append(f"transparent {top}, {_STEP_BAND} {top}, {_STEP_BAND} {bottom}, transparent {bottom}")
        rules.append(f" pre:nth-of-type({number}) code {{ display: block; background: linear-gradient(to bottom, {', '.join(stops)}); }}")
    return "".join(rules)
