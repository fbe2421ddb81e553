"""confnotes serve: live preview of a folder of notes, or of one note."""

from __future__ import annotations

import click

from confnotes.commands import config_option, say, trust_templates_option
from confnotes.errors import ErrorKind, NotesError


@click.command("serve")
@click.argument("directory", metavar="[FOLDER|NOTE]", required=False, default="notes", type=click.Path(readable=False))
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0 picks a free one).")
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to bind; only this machine by default (0.0.0.0: every network)."
)
@click.option(
    "--audience",
    is_flag=True,
    help="Phones follow the talk: the deck opened at the printed presenter address publishes its slide to a "
    "follow address (on the title slide as a QR code) that shows the deck without speaker notes.",
)
@trust_templates_option
@config_option
def command(directory: str, port: int, host: str, audience: bool, trust_templates: bool, config_file: str | None) -> None:
    """Live preview of a folder of notes (``notes`` by default), or of one note (``serve talk.md``:
    its page and its deck): rebuilt on save, open pages reload.

    Serves only its own output folder; Ctrl-C stops it. With --audience, phones on the network
    follow the talk (``serve talk.md --audience --host 0.0.0.0``): the follow address carries a
    random token, the presenter's address a random key, and the site itself stays on this machine.
    Needs the 'serve' extra: pip install 'confnotes[serve]'.
    """
    from pathlib import Path

    from confnotes.edges.extras import require
    from confnotes.edges.source import NOTE_SUFFIXES

    require("watchfiles", "serve")
    if audience:
        require("segno", "serve --audience")
    from confnotes.serve import PreviewServer

    target = Path(directory)
    note = None
    if target.is_file() and target.suffix.lower() in NOTE_SUFFIXES:
        note, directory = str(target), str(target.parent)
    elif target.is_file():
        raise NotesError(f"not a note (a {' or '.join(NOTE_SUFFIXES)} file) or a folder", path=str(target), kind=ErrorKind.USAGE)
    elif not target.is_dir():
        raise NotesError("no such folder or note", path=str(target), kind=ErrorKind.USAGE)
    try:
        server = PreviewServer(
            directory,
            host,
            port,
            lambda text, err=False: say(text, err=err),
            trust_templates,
            config_file=config_file,
            note=note,
            audience=audience,
        )
    except OSError as exc:
        raise NotesError(f"cannot listen on {host}:{port}: {exc.strerror}", kind=ErrorKind.USAGE) from None
    server.run()
