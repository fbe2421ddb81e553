"""confnotes import: Word, Google Docs, web pages, outliners and pastes to Markdown notes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from confnotes.commands import EXIT_ERROR, Choice, say, shown
from confnotes.errors import ErrorKind, NotesError
from confnotes.importers import FORMATS as IMPORT_FORMATS  # the one list of readers (light: no reader loads)


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True, readable=False))
@click.option(
    "-o",
    "--output",
    "output",
    default=None,
    help=(
        "Where the note goes: FILE.md (one input), a folder (an existing one, or a path ending in '/'; "
        "default: beside each file), or '-' to print the note (images are not written then)."
    ),
)
@click.option("--force", is_flag=True, help="Replace notes and image folders that already exist.")
@click.option(
    "--from",
    "fmt",
    type=Choice(IMPORT_FORMATS),
    default=None,
    help="The input's format, when sniffing its content is not wanted (standard input, an odd file); "
    "markdown: the text as written, no note app's marks (Obsidian, Logseq) read.",
)
def command(files: tuple[str, ...], output: str | None, force: bool, fmt: str | None) -> None:
    """Import FILES (.docx, .odt, web pages and Google Docs' zipped export, OPML, Evernote .enex, pasted text) as notes.

    Each becomes NAME.md, with its pictures in NAME.assets/; headings, lists with their levels
    and numbers, tables, code, links and pictures are kept in the author's order, and what a
    person reads from the look of a line (a bold line, 'Talk: …', 'Speaker: …') is recovered
    as it is in pasted notes. Nothing is fetched; what cannot be kept is named in the one line
    printed per file. '-' reads standard input. Existing files are left alone without --force.
    """
    from confnotes.importers import convert, summary

    named = _named_file(output, len(files))
    failed = False
    for name in files:
        try:
            data = _read(name)
            stem = "stdin" if name == "-" else Path(name).stem
            if named is not None:
                output, stem = str(named.parent), named.stem
            result = convert(data, "<stdin>" if name == "-" else name, stem, fmt)
            if output == "-" or (name == "-" and output is None):
                sys.stdout.write(result.markdown)
                sys.stdout.flush()
                if result.assets:
                    result.dropped.append(f"{len(result.assets)} image(s) (not written with -o -)")
                say(summary(result, shown(name), "-"), err=True)
                continue
            folder = Path(output) if output is not None else Path(name).parent
            target = _write(result, folder, stem, force, source=name)
            say(summary(result, shown(name), shown(target)), err=True)
        except NotesError as exc:
            say(shown(exc if exc.path else f"{name}: {exc}"), err=True)
            failed = True
    if failed:
        sys.exit(EXIT_ERROR)


def _named_file(output: str | None, count: int) -> Path | None:
    """The note file ``-o`` names (``talk.md``), or None when it names a folder or standard output:
    as ``render -o`` and every converter read it. A path ending in a separator, or an existing
    folder, is a folder whatever its name."""
    from confnotes.edges.output import names_folder
    from confnotes.edges.source import NOTE_SUFFIXES

    if output is None or output == "-" or names_folder(output):
        return None
    if Path(output).suffix.lower() not in NOTE_SUFFIXES:
        return None
    if count > 1:
        raise click.UsageError(f"-o {output} names one note, but {count} files are imported: give a folder (-o DIR/)")
    return Path(output)


def _read(name: str) -> bytes:
    """The bytes of one document (``-``: standard input), within the size limit notes have."""
    from confnotes.edges.source import read_bytes

    return read_bytes(name, "document")


def _write(result: object, folder: Path, stem: str, force: bool, source: str) -> Path:
    """The note and its images, each file written atomically; the note last, so a failure leaves no
    note, and the images it wrote are taken away again. The file being imported is never replaced."""
    from confnotes.edges.output import remove_in, same_file, write_in
    from confnotes.importers import Result

    assert isinstance(result, Result)
    if folder.exists() and not folder.is_dir():
        raise NotesError("is a file; -o needs a folder", path=str(folder), kind=ErrorKind.USAGE)
    target = folder / f"{stem}.md"
    assets = folder / f"{stem}.assets"
    if source != "-" and target.exists() and same_file(target, source):
        raise NotesError("is the file being imported; choose another folder with -o", path=str(target), kind=ErrorKind.USAGE)
    if not force:
        for existing in (target, assets):
            if existing.exists() and (existing == target or result.assets):
                raise NotesError("already exists; pass --force to replace it", path=str(existing), kind=ErrorKind.USAGE)
    try:
        folder.mkdir(parents=True, exist_ok=True)  # as build -o and new --dir make theirs
    except OSError as exc:
        raise NotesError(f"cannot create the folder: {exc.strerror}", path=str(folder), kind=ErrorKind.USAGE) from None
    # no link followed below the folder: a link planted at NAME.md or NAME.assets is refused
    written: list[str] = []
    try:
        for asset, data in result.assets.items():
            rel = f"{assets.name}/{asset}"
            new = not os.path.lexists(assets / asset)
            write_in(folder, rel, data)
            if new:
                written.append(rel)
        write_in(folder, target.name, result.markdown)
    except NotesError:
        for rel in written:
            remove_in(folder, rel)  # and NAME.assets/ with them, when they were all it held
        raise
    return target
