"""confnotes fmt: notes rewritten as canonical Markdown."""

from __future__ import annotations

import sys

import click

from confnotes.commands import EXIT_ERROR, EXIT_FINDINGS, config_option, configured_excludes, say, shown
from confnotes.errors import NotesError


@click.command("fmt")
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True, readable=False))
@click.option("--check", is_flag=True, help="Write nothing; exit 1 and list the files that would change.")
@click.option("--diff", is_flag=True, help="Write nothing; print a unified diff of the changes.")
@click.option("--exclude", multiple=True, help="Skip paths matching this glob when walking folders (repeatable).")
@click.option("--force", is_flag=True, help="Rewrite read-only notes too.")
@config_option
def command(paths: tuple[str, ...], check: bool, diff: bool, exclude: tuple[str, ...], force: bool, config_file: str | None) -> None:
    """Rewrite notes (files, or folders walked for *.md) as canonical Markdown.

    In the author's order and style: the title heading where it stood, each list tight or loose
    as written, '---' between sections kept, text between lists left where it is; front matter
    for recovered meta; pasted notes become real Markdown. Each note keeps its own consistent
    bullet marker, heading style, emphasis markers and numbering unless the config's [fmt]
    table sets one, so a well-formed note is left as it is. Text is never changed, a note
    without headings gets none, and a note whose ordered outline would change is left alone
    with an error. '-' formats standard input to standard output. A note edited while fmt ran,
    a read-only note (without --force) and a link to a file outside its folder are left as
    they are, with a line saying so (exit 1); hard links and the file's owner are kept.
    """
    from confnotes.lint.engine import build_settings
    from confnotes.reformat import format_notes
    from confnotes.source import discover

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
