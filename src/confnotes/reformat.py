"""``fmt`` over files: format each note, then write it, diff it or report it (the edge that touches files)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass

from confnotes.errors import NotesError


@dataclass(frozen=True)
class Formatted:
    """One note's outcome: its path, whether it changed, the new text, a diff, or the error that stopped it."""

    path: str
    changed: bool = False
    text: str = ""
    diff: str = ""
    error: NotesError | None = None
    skipped: str = ""  # why a changed note was left as is (``output.rewrite_note``)


def unified_diff(path: str, before: str, after: str) -> str:
    patch = "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=path, tofile=path))
    return patch if not patch or patch.endswith("\n") else patch + "\n\\ No newline at end of file\n"


def format_notes(
    notes: list[str], write: bool, with_diff: bool = False, force: bool = False, config_file: str | None = None
) -> Iterator[Formatted]:
    """Format each note with its own config (or ``config_file``'s); with ``write``, replace changed files
    atomically (in their own encoding and line endings). ``-`` is standard input: never written."""
    from confnotes.check import encode_like
    from confnotes.config import FolderConfigs
    from confnotes.edges.output import rewrite_note
    from confnotes.fmt import format_text
    from confnotes.load import open_note, parse_options

    try:
        configs = FolderConfigs(config_file)
    except NotesError as exc:
        yield Formatted(config_file or "", error=exc)
        return
    for note in notes:
        try:
            source, config = open_note(note, configs(note))
            formatted = format_text(source.text, source.path, parse_options(config))
        except NotesError as exc:
            yield Formatted(note, error=exc)
            continue
        before = source.text
        changed = formatted != before
        skipped = ""
        if changed and write and note != "-":
            skipped = rewrite_note(note, before, encode_like(source, formatted), force) or ""
        yield Formatted(note, changed, formatted, unified_diff(note, before, formatted) if changed and with_diff else "", skipped=skipped)
