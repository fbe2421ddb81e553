"""confnotes render: one note to a document or a deck."""

from __future__ import annotations

import sys
from typing import Any

import click

from confnotes.commands import Choice, complete_theme, config_option, say, shown, warn
from confnotes.config import Config
from confnotes.errors import ErrorKind, NotesError
from confnotes.render.formats import FORMATS  # the one table of output formats (light: no renderer loads)
from confnotes.settings import SlideSettings, choices, setting_range


@click.command("render")
@click.argument("note", required=False, type=click.Path(allow_dash=True, readable=False))
@click.option(
    "--to",
    "to",
    type=Choice(list(FORMATS)),
    default="html",
    show_default=True,
    help="html: one self-contained page; pdf: a printable PDF (WeasyPrint); slides, slides-pdf, "
    "handout, marp, pptx, outline: a deck built from the outline.",
)
@click.option(
    "-o",
    "--output",
    metavar="OUT",
    help="Output file ('-' for standard output). Default: next to the note, e.g. talk.html, talk.pdf, talk.slides.html.",
)
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
@click.option("--notes/--no-notes", "notes", default=None, help="Show speaker notes in documents (hidden by default).")
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
    help="Slides PDF: a page for each step of an incremental list, as the HTML deck reveals it (default: one page a slide).",
)
@config_option
@click.option("--list-themes", is_flag=True, help="List the built-in themes and exit.")
@click.option("--trust-templates", is_flag=True, help="Run user templates outside Jinja's sandbox (only for templates you wrote).")
@click.option(
    "--allow-remote",
    is_flag=True,
    help="Marp: let the deck load web images and emoji images (from a CDN) when it is opened; by default it loads nothing remote.",
)
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
def command(
    note: str | None, to: str, output: str | None, config_file: str | None, list_themes: bool, untagged: bool, **given: Any
) -> None:
    """Render NOTE to a document (html, pdf) or a slide format.

    Templates come from the built-ins, shadowed file by file by --templates DIR (or
    config `templates = "…"`); a user template can {% extends "!default/note.html" %}.
    Compiled templates are kept in the user's cache folder between runs
    (CONFNOTES_TEMPLATE_CACHE=DIR to move them, empty to turn this off).
    """
    from pathlib import Path

    from confnotes.config import config_for_target
    from confnotes.load import load_note
    from confnotes.output import emit
    from confnotes.render.formats import output_format, output_path, render_note, suffix_warning
    from confnotes.render.options import RenderOverrides, resolve_render_options
    from confnotes.source import note_folder

    if list_themes:
        from confnotes.templating import themes

        click.echo("\n".join(themes()))
        return
    if note is None:
        raise NotesError("missing NOTE (the note to render)", kind=ErrorKind.USAGE)
    config = config_for_target(note, config_file)
    doc = load_note(note, config).doc
    overrides = RenderOverrides(**given, tagged=False if untagged else None)  # each option is a field of RenderOverrides
    options = resolve_render_options(config, doc, overrides)
    base_dir = note_folder(note) or Path.cwd()
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
