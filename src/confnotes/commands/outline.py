"""confnotes outline: the outline confnotes reads from a note."""

from __future__ import annotations

import sys

import click

from confnotes.commands import Choice, config_option


@click.command("outline")
@click.argument("note", type=click.Path(allow_dash=True, readable=False))
@click.option(
    "--format",
    "fmt",
    type=Choice(["tree", "json", "markdown", "opml"]),
    default="tree",
    show_default=True,
    help="tree: readable outline in source order; json: the model, schema "
    "confnotes.outline/2 (docs/outline-json.md); markdown: bare heading/list outline; opml: OPML 2.0 "
    "for outliners.",
)
@config_option
def command(note: str, fmt: str, config_file: str | None) -> None:
    """Print the outline confnotes reads from NOTE (- reads standard input).

    A note is meta and one ordered content: its lede, then sections; each section and item
    holds its blocks (text, code, images, tables, quotes, speaker notes), its lists (each
    list as written, with its own numbers) and sub-sections, exactly in the author's order.
    Pasted notes are read as a person would: bare-line headings (only in notes that show
    they were pasted), pasted bullets, labels and titles (README, "How notes are read").
    """
    from confnotes import export
    from confnotes.config import config_for_target
    from confnotes.load import load_note

    doc = load_note(note, config_for_target(note, config_file)).doc
    batch: list[str] = []
    size = 0
    for piece in export.OUTLINE_FORMATS[fmt](doc, sys.stdout.isatty()):
        batch.append(piece)
        size += len(piece)
        if size > 1 << 20:  # written a megabyte at a time: a huge outline is never one string
            click.echo("".join(batch), nl=False)
            batch, size = [], 0
    click.echo("".join(batch), nl=False)
