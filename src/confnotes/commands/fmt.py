"""confnotes fmt: notes tidied, in the author's own style."""

from __future__ import annotations

import sys

import click

from confnotes.commands import EXIT_ERROR, EXIT_FINDINGS, config_option, configured_excludes, exclude_option, say, shown
from confnotes.errors import NotesError


@click.command("fmt")
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True, readable=False))
@click.option("--check", is_flag=True, help="Write nothing; exit 1 and list the files that would change.")
@click.option("--diff", is_flag=True, help="Write nothing; print a unified diff of the changes.")
@exclude_option
@click.option("--force", is_flag=True, help="Rewrite read-only notes too.")
@config_option
def command(paths: tuple[str, ...], check: bool, diff: bool, exclude: tuple[str, ...], force: bool, config_file: str | None) -> None:
    """Tidy notes (files, or folders walked for *.md), and only tidy them.

    Trailing spaces outside code go (not a hard break's, not a no-break space), blank-line runs
    become one, and what a note mixes - bullet markers per list level, heading style, setext
    underlines, emphasis markers, numbering - takes the style most of the note uses, unless the
    config's [fmt] table sets one; a well-formed note is left as it is. Text is never changed,
    code not by a byte, and no heading is written that the author did not write: a pasted note
    keeps its bullets and bare-line headings ('lint --fix' writes them as Markdown). A note whose
    ordered outline would change is left alone with an error. '-' formats standard input to
    standard output. A note edited while fmt ran,
    a read-only note (without --force) and a link to a file outside its folder are left as
    they are, with a line saying so (exit 1); hard links and the file's owner are kept.
    """
    from confnotes.edges.source import discover
    from confnotes.lint.engine import build_settings
    from confnotes.reformat import format_notes

    configured = configured_excludes(list(paths), config_file, lambda config: build_settings(config.lint, config.path).exclude)
    notes = discover(list(paths), tuple(exclude) + configured)
    changed: list[str] = []
    errors: list[NotesError] = []
    left: list[str] = []
    for result in format_notes(notes, write=not (check or diff), with_diff=diff, force=force, config_file=config_file):
        if result.error is not None:
            errors.append(result.error)
        elif result.skipped:
            left.append(result.path)
            say(f"{shown(result.path)}: {result.skipped}", err=True)
        elif result.path == "-":
            click.echo(result.text, nl=False)
        elif result.changed:
            changed.append(result.path)
            if diff:
                click.echo(result.diff, nl=False)
            elif check:
                say(f"would reformat {shown(result.path)}")
            else:
                say(f"reformatted {shown(result.path)}", err=True)
    for error in errors:
        say(shown(error), err=True)
    if errors:
        sys.exit(EXIT_ERROR)
    if left:
        sys.exit(EXIT_FINDINGS)
    if (check or diff) and changed:
        say(f"{len(changed)} of {len(notes)} note(s) would be reformatted", err=True)
        sys.exit(EXIT_FINDINGS)
