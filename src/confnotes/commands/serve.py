"""confnotes serve: live preview of a folder of notes."""

from __future__ import annotations

import click

from confnotes.commands import config_option, say
from confnotes.errors import ErrorKind, NotesError


@click.command("serve")
@click.argument("directory", required=False, default="notes", type=click.Path(file_okay=False, readable=False))
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0 picks a free one).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind; only this machine by default.")
@click.option("--trust-templates", is_flag=True, help="Run the notes' own templates outside Jinja's sandbox (only if you trust them).")
@config_option
def command(directory: str, port: int, host: str, trust_templates: bool, config_file: str | None) -> None:
    """Live preview of a folder of notes: pages and decks rebuilt on save, open pages reload.

    Serves only its own output folder; Ctrl-C stops it.
    """
    from pathlib import Path

    from confnotes.serve import PreviewServer

    if not Path(directory).is_dir():
        raise NotesError("no such folder", path=directory, kind=ErrorKind.USAGE)
    try:
        server = PreviewServer(directory, host, port, lambda text, err=False: say(text, err=err), trust_templates, config_file=config_file)
    except OSError as exc:
        raise NotesError(f"cannot listen on {host}:{port}: {exc.strerror}", kind=ErrorKind.USAGE) from None
    server.run()
