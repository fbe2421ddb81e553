"""confnotes render: notes to documents, decks or slide pictures."""

from __future__ import annotations

import sys
from typing import Any

import click

from confnotes.commands import Choice, allow_remote_option, complete_theme, config_option, say, shown, trust_templates_option, warn
from confnotes.config import Config
from confnotes.config.settings import SlideSettings, choices, setting_range
from confnotes.errors import ErrorKind, NotesError
from confnotes.render.formats import BOOK, PICTURES, RENDER_TARGETS, suggested  # the one table of output formats (light: no renderer loads)


@click.command("render")
@click.argument("paths", metavar="NOTE...", nargs=-1, type=click.Path(allow_dash=True, readable=False))
@click.option(
    "--to",
    "to",
    type=Choice(RENDER_TARGETS, suggest=suggested),
    default="html",
    show_default=True,
    help="html: one self-contained page; pdf: a printable PDF (WeasyPrint); slides, slides-pdf, "
    "handout, marp, pptx, outline: a deck built from the outline; png: a picture a slide.",
)
@click.option(
    "-o",
    "--output",
    metavar="OUT",
    help="Output file ('-' for standard output); a folder (DIR/) for several notes or --to png. "
    "Default: next to the note, e.g. talk.html, talk.pdf, talk.slides.html, talk.001.png.",
)
@click.option(
    "--scale",
    type=float,
    default=1.0,
    show_default=True,
    help="--to png: the pictures' size, 1 for 1920x1080 (0.5: 960x540, 2: 3840x2160).",
)
@click.option("--contact-sheet", is_flag=True, help="--to png: also write talk.contact.png, every slide on one sheet.")
@click.option(
    "--theme", default=None, shell_complete=complete_theme, help="Built-in theme (see --list-themes). Default: config or 'default'."
)
@click.option("--css", "css", multiple=True, type=click.Path(dir_okay=False), help="Add a stylesheet (repeatable).")
@click.option(
    "--templates",
    "templates",
    default=None,
    type=click.Path(file_okay=False),
    help="A folder whose templates shadow the built-in ones by file name.",
)
@click.option(
    "--paper",
    type=Choice(choices(Config, "paper"), case_sensitive=False),
    default=None,
    help="PDF paper size. Default: config or a4.",
)
@click.option(
    "--notes/--no-notes",
    "notes",
    default=None,
    help="Show speaker notes in documents (hidden by default); --to slides-pdf: as PDF annotations and a .pdfpc file beside it.",
)
@click.option("--untagged", is_flag=True, help="PDF without PDF/UA tagging (tagged, accessible PDF is the default).")
@click.option(
    "--max-items",
    type=click.IntRange(*setting_range(SlideSettings, "max_items")),
    default=None,
    help="Slides: split slides with more items.",
)
@click.option(
    "--max-words",
    type=click.IntRange(*setting_range(SlideSettings, "max_words")),
    default=None,
    help="Slides: split slides with more words.",
)
@click.option("--agenda/--no-agenda", "agenda", default=None, help="Slides: include the agenda slide (default on).")
@click.option(
    "--steps/--no-steps",
    "steps",
    default=None,
    help="Slides PDF: a page for each step of an incremental list or a code walk-through ({2|4-5}), "
    "as the HTML deck reveals it (default: one page a slide).",
)
@config_option
@click.option("--list-themes", is_flag=True, help="List the built-in themes and exit.")
@trust_templates_option
@allow_remote_option
@click.option(
    "--per-page",
    type=click.IntRange(1, 3),
    default=None,
    help="Handout: slides a page, 1, 2 or 3 (default 3), each with its notes and lines.",
)
@click.option(
    "--reference-pptx",
    metavar="FILE",
    type=click.Path(dir_okay=False, readable=False),
    default=None,
    help="PPTX: use this PowerPoint template's theme and layouts (Title Slide, Section Header, Title and Content, "
    "Title Only). Default: config reference_pptx.",
)
@click.option(
    "--reference-docx",
    metavar="FILE",
    type=click.Path(dir_okay=False, readable=False),
    default=None,
    help="Word: start from this document's styles, page setup, headers and footers (as pandoc's --reference-doc). "
    "Default: config reference_docx.",
)
def command(
    paths: tuple[str, ...],
    to: str,
    output: str | None,
    config_file: str | None,
    list_themes: bool,
    untagged: bool,
    scale: float,
    contact_sheet: bool,
    **given: Any,
) -> None:
    """Render each NOTE to a document (html, pdf, docx), a slide format or slide pictures (png);
    or notes and folders of notes to one book (--to book: proceedings.pdf).

    One note writes OUT (-o), else the file beside it (talk.pdf); several notes write into the
    folder -o names (out/), else each beside its note. --to png writes a picture a slide
    (talk.001.png, …) from the slides PDF's layout. A note that cannot be read is one line, and
    the others are still rendered (exit 2).

    Templates come from the built-ins, shadowed file by file by --templates DIR (or
    config `templates = "…"`); a user template can {% extends "!default/note.html" %}.
    Compiled templates are kept in the user's cache folder between runs
    (CONFNOTES_TEMPLATE_CACHE=DIR to move them, empty to turn this off).
    """
    from pathlib import Path

    if list_themes:
        from confnotes.templating import themes

        click.echo("\n".join(themes()))
        return
    notes = paths
    if not notes:
        raise NotesError("missing NOTE (the note to render)", kind=ErrorKind.USAGE)
    overrides = {**given, "tagged": False if untagged else None}
    if to == BOOK:
        _book(notes, output, config_file, overrides)
        return
    if len(notes) == 1 and to != PICTURES:
        _render_one(notes[0], to, output, config_file, overrides)
        return
    folder = _folder(notes, to, output)
    targets = [Path(folder or Path(note).parent) / Path(output_name(note, to)).name for note in notes]
    clash = _clash(notes, targets)
    if clash is not None:
        raise NotesError(
            f"{clash[0]} and {clash[1]} would both write {shown(str(clash[2]))}; render them into different folders", kind=ErrorKind.USAGE
        )
    failed = False
    for note, target in zip(notes, targets, strict=True):
        try:
            if to == PICTURES:
                _pictures(note, target.parent, config_file, overrides, scale, contact_sheet)
            else:
                _render_one(note, to, str(target), config_file, overrides, named=folder is not None)
        except NotesError as exc:
            say(shown(exc if exc.path else f"{note}: {exc}"), err=True)
            failed = True
    if failed:
        sys.exit(2)


def _book(paths: tuple[str, ...], output: str | None, config_file: str | None, overrides: dict[str, Any]) -> None:
    """The notes (folders walked as ``lint`` and ``build`` walk them) as one book, written once made."""
    from confnotes.edges.output import emit
    from confnotes.edges.source import discover
    from confnotes.render.book import book_pdf

    if "-" in paths:
        raise NotesError("a book is made of note files; standard input (-) cannot be one", kind=ErrorKind.USAGE)
    notes = discover(list(paths))
    target = output or "proceedings.pdf"
    data, warnings = book_pdf(notes, config_file, overrides)
    for message in warnings:
        say(f"warning: {message}", err=True)
    if emit(target, data, "-", output is not None):
        say(f"wrote {shown(target)}: {len(notes)} note{'s' if len(notes) != 1 else ''}", err=True)


def output_name(note: str, to: str) -> str:
    """The file a note renders to by default (``talk.pdf``; ``talk.001.png`` for pictures)."""
    from pathlib import Path

    from confnotes.render.formats import output_path

    if to == PICTURES:
        from confnotes.render.pictures import picture_names

        return str(Path(note).parent / picture_names(Path(note).stem, 1)[0])
    return output_path(note, to)


def _folder(notes: tuple[str, ...], to: str, output: str | None) -> str | None:
    """The folder -o names for several notes or pictures (created), None for each note's own."""
    from pathlib import Path

    from confnotes.edges.output import names_folder

    if "-" in notes:
        raise NotesError("standard input (-) renders alone: one note, one output", kind=ErrorKind.USAGE)
    if output is None:
        return None
    if output == "-" or (not names_folder(output) and Path(output).suffix):
        what = "slide pictures" if to == PICTURES else f"{len(notes)} notes"
        raise NotesError(f"-o {output} names one file, but {what} are written: give a folder (-o DIR/)", kind=ErrorKind.USAGE)
    Path(output).mkdir(parents=True, exist_ok=True)
    return output


def _clash(notes: tuple[str, ...], targets: list[Any]) -> tuple[str, str, Any] | None:
    """Two notes that would write one file (``a/talk.md`` and ``b/talk.md`` into ``out/``)."""
    seen: dict[Any, str] = {}
    for note, target in zip(notes, targets, strict=True):
        if target in seen:
            return seen[target], note, target
        seen[target] = note
    return None


def _render_one(
    note: str, to: str, output: str | None, config_file: str | None, overrides: dict[str, Any], named: bool | None = None
) -> None:
    """One note to one output file (``-``: standard output)."""
    from pathlib import Path

    from confnotes.config import config_for_target
    from confnotes.edges.output import emit
    from confnotes.edges.source import note_folder
    from confnotes.load import load_note
    from confnotes.render.formats import output_format, output_path, render_note, suffix_warning
    from confnotes.render.options import RenderOverrides, resolve_render_options

    config = config_for_target(note, config_file)
    doc = load_note(note, config).doc
    options = resolve_render_options(config, doc, RenderOverrides(**overrides))  # each option is a field of RenderOverrides
    base_dir = note_folder(note) or Path.cwd()
    if named is None:
        named = output is not None  # a link at -o to a device or pipe (/dev/stdout) is written into
    if output is None:
        output = "-" if note == "-" else output_path(note, to)
    data, warnings = render_note(doc, to, options, base_dir, output)
    if output == "-" and output_format(to).binary and sys.stdout.isatty():
        raise NotesError(f"refusing to write {to} bytes to a terminal; use -o FILE", kind=ErrorKind.USAGE)
    warn(warnings, note)
    written = emit(output, data, note, named)
    if named and written and (mismatch := suffix_warning(output, to)) is not None:
        warn([mismatch], note)  # (after the write: a refused one says only why)
    if written:
        say(f"wrote {shown(written)}", err=True)
    if written and to == "slides-pdf" and options.notes:
        _pdfpc_beside(written, doc, options, base_dir, note)


def _pdfpc_beside(pdf: str, doc: Any, options: Any, base_dir: Any, note: str) -> None:
    """``render --to slides-pdf --notes``: the notes for pdfpc and pympress in ``talk.slides.pdfpc``
    beside ``talk.slides.pdf`` (their name for it: the PDF's, ``.pdf`` made ``.pdfpc``)."""
    from pathlib import Path

    from confnotes.edges.output import emit
    from confnotes.render.slides_pdf import pdfpc

    path = Path(pdf)
    if not path.is_file():
        return  # a device or pipe named with -o: nothing beside it
    target = str(path.with_suffix(".pdfpc")) if path.suffix.lower() == ".pdf" else pdf + ".pdfpc"
    say(f"wrote {shown(emit(target, pdfpc(doc, options, base_dir), note) or target)}", err=True)


def _pictures(note: str, folder: Any, config_file: str | None, overrides: dict[str, Any], scale: float, sheet: bool) -> None:
    """A note's slides as pictures in ``folder``: the deck is laid out before the first is written,
    and each picture is written as it is drawn (never the whole deck's pictures at once)."""
    from pathlib import Path

    from confnotes.config import config_for_target
    from confnotes.edges.output import write_in
    from confnotes.edges.source import note_folder
    from confnotes.load import load_note
    from confnotes.render.options import RenderOverrides, resolve_render_options
    from confnotes.render.pictures import ContactSheet, picture_names, slide_pictures

    config = config_for_target(note, config_file)
    doc = load_note(note, config).doc
    options = resolve_render_options(config, doc, RenderOverrides(**overrides))
    count, pictures, warnings = slide_pictures(doc, options, note_folder(note) or Path.cwd(), scale)
    warn(warnings, note)
    stem = Path(note).stem
    names = picture_names(stem, count)
    contact = ContactSheet(count) if sheet else None
    for name, picture in zip(names, pictures, strict=True):
        write_in(folder, name, picture)
        if contact:
            contact.add(picture)
    if contact:
        data, cut = contact.finish()
        write_in(folder, f"{stem}.contact.png", data)
        warn([cut] if cut else [], note)
    say(
        f"wrote {count} slide pictures, {shown(str(Path(folder) / names[0]))} to {names[-1]}"
        + (f" and {stem}.contact.png" if sheet else ""),
        err=True,
    )
