"""Reading notes: bytes to normalised text with a line table, or one clear NotesError."""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from confnotes.errors import input_error

if TYPE_CHECKING:
    from confnotes.config.ignore import Exclude, IgnoreRules

#: Notes larger than this are refused rather than parsed (a conference's notes are KBs).
MAX_BYTES = 64 * 1024 * 1024
NOTE_SUFFIXES = (".md", ".markdown")
#: files confnotes writes beside a note that end like a note (``render --to marp``): a folder's walk
#: leaves them out, so a Marp export is not linted, built or served as a note of its own (named on
#: the command line, it is read as any file is); ``tests/test_formats_lists.py`` keeps it equal to
#: the text formats whose suffix ends like a note's
OWN_OUTPUT_SUFFIXES = (".marp.md",)
_BOMS_UTF16_32 = {
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}


class Source(NamedTuple):
    """A note's text with ``\\n`` line endings; ``lines`` is 0-indexed, spans are 1-based."""

    path: str
    text: str
    had_bom: bool = False
    newline: str = "\n"
    #: each line's own ending, when the note mixes them (None: every line ends in ``newline``)
    endings: tuple[str, ...] | None = None

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


def note_folder(path: str) -> Path | None:
    """The folder a note's relative images and links resolve against: its real folder (symlinks
    followed, so every command measures and embeds the same files), None for standard input."""
    if path == "-" or path.startswith("<"):
        return None
    return Path(path).resolve().parent


def os_message(exc: OSError) -> str:
    """``No such file or directory`` -> ``no such file or directory``: one style for every message."""
    text = exc.strerror or exc.__class__.__name__
    return text[:1].lower() + text[1:]


def decode(data: bytes, path: str) -> Source:
    """Decode bytes as UTF-8 (BOM optional) and normalise CRLF and CR to LF; tabs are kept."""
    for bom, name in _BOMS_UTF16_32.items():
        if data.startswith(bom) and not data.startswith(b"\xef\xbb\xbf"):
            raise input_error(f"{name} text is not supported, save the note as UTF-8", path)
    if b"\x00" in data:
        raise input_error("binary file, not notes", path)
    had_bom = data.startswith(b"\xef\xbb\xbf")
    if had_bom:
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        col = len(data[line_start : exc.start].decode("utf-8", "replace")) + 1
        bad = data[exc.start]
        raise input_error(f"not valid UTF-8 at line {line}, column {col} (byte 0x{bad:02x})", path) from None
    newline = "\r\n" if "\r\n" in text else ("\r" if "\r" in text else "\n")
    endings: tuple[str, ...] | None = None
    if "\r" in text:
        found = tuple(re.findall(r"\r\n|\r|\n", text))
        if len(set(found)) > 1:
            endings = found  # mixed: a fix must not change the lines it does not touch
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return Source(path=path, text=text, had_bom=had_bom, newline=newline, endings=endings)


def read_source(path: str | os.PathLike[str]) -> Source:
    """Read one note from disk (``-`` is standard input)."""
    name = os.fspath(path)
    return decode(read_bytes(name), "<stdin>" if name == "-" else name)


def read_bytes(name: str, expected: str = "note", max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of a file confnotes reads (``-``: standard input): a regular file (never a pipe or
    a device, which could block for ever), within ``max_bytes``; anything else is one ``NotesError``
    line. ``expected`` names what it should be. Notes, config files, stylesheets, reference PPTX and
    rehearsal timings are read here."""
    limit = max_bytes // (1024 * 1024)
    if name == "-":
        data = sys.stdin.buffer.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise input_error(f"standard input is more than the {limit} MiB ({max_bytes:,}-byte) limit", "<stdin>")
        return data
    try:  # opened without waiting (a FIFO swapped in after a check would block the open), then looked at
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except IsADirectoryError:
        raise input_error(f"is a directory, expected a {expected}", name) from None
    except OSError as exc:
        raise input_error(os_message(exc), name) from None
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise input_error(f"is a directory, expected a {expected}", name)
        if not stat.S_ISREG(st.st_mode):
            raise input_error("not a regular file", name)
        if st.st_size > max_bytes:
            raise input_error(f"file is {st.st_size:,} bytes, more than the {limit} MiB ({max_bytes:,}-byte) limit", name)
        try:
            # sized to the file: a read of the limit allocates the whole limit first (64 MB a note)
            data = handle.read(min(st.st_size, max_bytes) + 1)
            if len(data) > st.st_size:  # it grew since: read on, up to the limit
                data += handle.read(max_bytes + 1 - len(data))
        except OSError as exc:
            raise input_error(os_message(exc), name) from None
    if len(data) > max_bytes:
        raise input_error(f"file grew past the {limit} MiB ({max_bytes:,}-byte) limit as it was read", name)
    return data


def _is_note(path: Path) -> bool:
    name = path.name.lower()
    return path.suffix.lower() in NOTE_SUFFIXES and not name.endswith(OWN_OUTPUT_SUFFIXES)


def discover(paths: list[str], exclude: tuple[str | Exclude, ...] = ()) -> list[str]:
    """Expand files and directories into a sorted, de-duplicated list of note paths.

    Directories are walked for ``*.md`` (hidden folders, ``.gitignore``d paths and
    ``exclude`` globs skipped; symlinked folders are not followed, so loops are harmless).
    """
    from confnotes.config.ignore import IgnoreRules

    found: list[str] = []
    seen: set[str] = set()
    for raw in paths:
        if raw == "-":
            found.append(raw)
            continue
        root = Path(raw)
        if not root.exists() and not root.is_symlink():
            raise input_error("no such file or directory", raw)
        if not root.is_dir():
            if raw not in seen:
                seen.add(raw)
                found.append(raw)
            continue
        notes = _walk(root, IgnoreRules.for_root(root, exclude))
        if not notes:
            raise input_error("no notes (*.md) found in this directory", raw)
        for note in sorted(notes):
            if note not in seen:
                seen.add(note)
                found.append(note)
    return found


def _walk(root: Path, rules: IgnoreRules) -> list[str]:
    """The notes below ``root``: hidden and ignored paths skipped, symlinked folders not followed."""
    notes: list[str] = []
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except PermissionError:
            raise input_error("permission denied", str(folder)) from None
        for entry in entries:
            if entry.name.startswith("."):
                continue
            child = Path(entry.path)
            is_dir = entry.is_dir(follow_symlinks=False)
            if rules.ignored(child, is_dir):
                continue
            if is_dir:
                stack.append(child)
            elif _is_note(child) and (entry.is_symlink() or entry.is_file(follow_symlinks=False)):
                notes.append(str(child))
    return notes
