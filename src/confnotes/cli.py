"""The ``confnotes`` command: options, printing and exit codes only; the work lives in the library."""

from __future__ import annotations

import sys
from typing import Any

import click

from confnotes import __version__
from confnotes.errors import NotesError

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class NotesGroup(click.Group):
    """Turns every ``NotesError`` into one ``path:line:col: message`` line and exit 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except NotesError as exc:
            click.echo(f"confnotes: {exc}" if exc.path is None else str(exc), err=True)
            ctx.exit(EXIT_ERROR)
        except BrokenPipeError:
            sys.stderr.close()
            ctx.exit(EXIT_OK)


@click.group(cls=NotesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="confnotes")
def main() -> None:
    """Conference notes to outlines, lint findings, documents and decks.

    Exit codes: 0 clean, 1 findings (or files that would be reformatted), 2 usage,
    input or config error. Errors print as one line: path:line:col: message.
    """


def _read(note: str):  # noqa: ANN202 - returns a Document; imported lazily for start-up speed
    from confnotes.parse import parse_source
    from confnotes.source import read_source

    return parse_source(read_source(note))


@main.command()
@click.argument("note", type=click.Path(allow_dash=True, readable=False))
@click.option(
    "--format", "fmt", type=click.Choice(["tree", "json", "markdown", "opml"]), default="tree",
    show_default=True, help="tree: readable outline; json: the model (docs/outline-json.md); "
    "markdown: bare heading/bullet outline; opml: OPML 2.0 for outliners.",
)
def outline(note: str, fmt: str) -> None:
    """Print the outline confnotes reads from NOTE (``-`` reads standard input)."""
    from confnotes import export

    doc = _read(note)
    if fmt == "json":
        text = export.to_json(doc) + "\n"
    elif fmt == "markdown":
        text = export.to_outline_markdown(doc)
    elif fmt == "opml":
        text = export.to_opml(doc)
    else:
        text = export.to_tree(doc, color=sys.stdout.isatty())
    click.echo(text, nl=False)


DOCUMENT_FORMATS = ("html", "pdf")
SLIDE_FORMATS = ("slides", "slides-pdf", "handout", "marp", "pptx", "outline")
SUFFIXES = {"html": ".html", "pdf": ".pdf", "slides": ".slides.html", "slides-pdf": ".slides.pdf",
            "handout": ".handout.pdf", "marp": ".marp.md", "pptx": ".pptx", "outline": ".slides.txt"}


def _warn(messages: list[str], where: str) -> None:
    for message in dict.fromkeys(messages):
        click.echo(f"{where}: warning: {message}", err=True)


@main.command()
@click.argument("note", required=False, type=click.Path(allow_dash=True, readable=False))
@click.option("--to", "to", type=click.Choice(DOCUMENT_FORMATS + SLIDE_FORMATS), default="html", show_default=True,
              help="html: one self-contained page; pdf: a printable PDF (WeasyPrint); slides, slides-pdf, "
              "handout, marp, pptx, outline: a deck built from the outline.")
@click.option("-o", "--output", metavar="OUT", help="Output file ('-' for standard output). "
              "Default: next to the note, e.g. talk.html, talk.pdf, talk.slides.html.")
@click.option("--theme", default=None, help="Built-in theme (see --list-themes). Default: config or 'default'.")
@click.option("--css", "css", multiple=True, type=click.Path(dir_okay=False), help="Add a stylesheet (repeatable).")
@click.option("--templates", "templates", default=None, type=click.Path(file_okay=False),
              help="A folder whose templates shadow the built-in ones by file name.")
@click.option("--paper", type=click.Choice(["a4", "letter"], case_sensitive=False), default=None,
              help="PDF paper size. Default: config or a4.")
@click.option("--notes/--no-notes", "notes", default=None, help="Show speaker notes in documents (hidden by default).")
@click.option("--untagged", is_flag=True, help="PDF without PDF/UA tagging (tagged, accessible PDF is the default).")
@click.option("--max-items", type=click.IntRange(min=1), default=None, help="Slides: split slides with more items.")
@click.option("--max-words", type=click.IntRange(min=1), default=None, help="Slides: split slides with more words.")
@click.option("--agenda/--no-agenda", "agenda", default=None, help="Slides: include the agenda slide (default on).")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Use this config file instead of searching upward from the note.")
@click.option("--list-themes", is_flag=True, help="List the built-in themes and exit.")
def render(note: str | None, to: str, output: str | None, theme: str | None, css: tuple[str, ...],
           templates: str | None, paper: str | None, notes: bool | None, untagged: bool,
           max_items: int | None, max_words: int | None, agenda: bool | None, config_file: str | None,
           list_themes: bool) -> None:
    """Render NOTE to a document (html, pdf) or a slide format.

    Templates come from the built-ins, shadowed file by file by --templates DIR (or
    config `templates = "…"`); a user template can {% extends "!default/note.html" %}.
    """
    from pathlib import Path

    from confnotes.config import find_config, read_config_file
    from confnotes.errors import ErrorKind
    from confnotes.output import emit
    from confnotes.render.html import RenderOptions

    if list_themes:
        from confnotes.templating import themes

        click.echo("\n".join(themes()))
        return
    if note is None:
        raise NotesError("missing NOTE (the note to render)", kind=ErrorKind.USAGE)
    config = read_config_file(config_file) if config_file else find_config(note)
    from confnotes.parse import parse_source
    from confnotes.source import read_source

    doc = parse_source(read_source(note), config.parse_options())
    slides_options = {**config.slides, **_front_matter_slides(doc)}
    if max_items is not None:
        slides_options["max_items"] = max_items
    if max_words is not None:
        slides_options["max_words"] = max_words
    if agenda is not None:
        slides_options["agenda"] = agenda
    user_templates = templates or config.templates
    options = RenderOptions(
        theme=theme or config.theme, css=css, templates=(user_templates,) if user_templates else (),
        notes=bool(notes), paper=(paper or config.paper).lower(), allow_html=config.allow_html,
        tagged=not untagged, slides=slides_options,
    )
    base_dir = Path(note).resolve().parent if note != "-" else Path.cwd()
    data, warnings = render_note(doc, to, options, base_dir)
    if output is None:
        if note == "-":
            output = "-"
        else:
            output = str(Path(note).with_suffix("")) + SUFFIXES[to]
    if output == "-" and isinstance(data, bytes) and sys.stdout.isatty():
        raise NotesError(f"refusing to write {to} bytes to a terminal; use -o FILE", kind=ErrorKind.USAGE)
    _warn(warnings, note)
    written = emit(output, data, note)
    if written:
        click.echo(f"wrote {written}", err=True)


def _front_matter_slides(doc) -> dict:  # noqa: ANN001
    value = doc.meta.extra.get("slides")
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise NotesError("front matter 'slides' must be a mapping", path=doc.path)
    from confnotes.config import SLIDE_KEYS, _check_types

    _check_types(value, SLIDE_KEYS, "slides.", doc.path)
    return dict(value)


def render_note(doc, to: str, options, base_dir):  # noqa: ANN001, ANN201
    """Dispatch to the renderer for ``to``; returns (data, warnings)."""
    if to == "html":
        from confnotes.render.html import render_html

        return render_html(doc, options, base_dir)
    if to == "pdf":
        from confnotes.render.pdf import render_pdf

        return render_pdf(doc, options, base_dir)
    from confnotes.render.deck import render_deck

    return render_deck(doc, to, options, base_dir)
