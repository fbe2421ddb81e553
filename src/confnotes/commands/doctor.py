"""confnotes doctor: what this machine has for each output."""

from __future__ import annotations

import sys

import click

from confnotes.commands import EXIT_FINDINGS, EXIT_OK, say


@click.command("doctor")
@click.argument("note", required=False, type=click.Path(allow_dash=True, readable=False))
def command(note: str | None) -> None:
    """Check what this machine has for each output: WeasyPrint, Pango and HarfBuzz for PDFs, fonts for
    the scripts NOTE uses (all scripts without NOTE), and the programs the test suite drives.

    Prints one line a check with the install line for what is missing; exits 1 when something PDF
    output needs is missing.
    """
    from confnotes.doctor import checks

    text = None
    if note is not None:
        from confnotes.edges.source import read_source

        text = read_source(note).text
    found = checks(text)
    for check in found:
        say(check.line())
    sys.exit(EXIT_FINDINGS if any(check.required and not check.ok for check in found) else EXIT_OK)
