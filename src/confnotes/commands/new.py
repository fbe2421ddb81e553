"""confnotes new: a note from a template."""

from __future__ import annotations

import os

import click

from confnotes.commands import say, shown
from confnotes.errors import ErrorKind, NotesError


@click.command("new")
@click.argument("title")
@click.option("--event", default=None, help="The event, e.g. 'PyCon 2026'.")
@click.option("--date", default=None, help="The date, e.g. 2026-05-14.")
@click.option("--reading-list", is_flag=True, help="Scaffold a reading list (entries with annotations).")
@click.option(
    "--dir",
    "folder",
    default="notes",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder for the note (created if missing).",
)
@click.option("-o", "--output", default=None, help="The note's file name (default: from the title).")
def command(title: str, event: str | None, date: str | None, reading_list: bool, folder: str, output: str | None) -> None:
    """Create a note from a template: front matter and a skeleton. Never overwrites a file."""
    from pathlib import Path

    from confnotes.render.html import slugify
    from confnotes.templating import render_template

    if not title.strip():
        raise NotesError('the title is empty; give the note a title, e.g. confnotes new "Keynote notes"', kind=ErrorKind.USAGE)
    if date is not None:
        import datetime

        try:
            datetime.date.fromisoformat(date)
        except ValueError:
            raise NotesError(f"--date must be a date like 2026-05-14, not '{date}'", kind=ErrorKind.USAGE) from None
    if output is None and not any(char.isalnum() for char in title):
        raise NotesError(f"cannot make a file name from the title '{title}'; name the file with -o FILE", kind=ErrorKind.USAGE)
    target = Path(output) if output else Path(folder) / f"{slugify(title)}.md"
    text = render_template("new-reading-list.md" if reading_list else "new-note.md", (), title=title, event=event, date=date)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise NotesError("already exists; confnotes new never overwrites a note", path=str(target), kind=ErrorKind.USAGE) from None
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    say(shown(target))
