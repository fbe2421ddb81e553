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
