"""How much of each import fixture's outline confnotes (and pandoc, where it is installed) gets right.

The fixtures under ``tests/fixtures/import`` whose name starts with a note of ``import_notes.NOTES``
were written from that note by a real writer; the note is the truth. An outline node is the
title, each section (its title at its level; a bold sub-heading line counts as a section one level
below), and each section's item count (right within one). Run from the repository's root::

    python tools/import_accuracy.py            # confnotes only
    PANDOC=/path/to/pandoc python tools/import_accuracy.py

Prints the figure per writer (``lo.docx``, ``gdocs.html``, ``workflowy.opml``…) and in all.
pandoc's output is read by confnotes' own parser, so both are scored on the same terms.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tools")]

from import_notes import NOTES, sub_list  # noqa: E402

IMPORT = ROOT / "tests" / "fixtures" / "import"
PANDOC_FORMATS = {".docx": "docx", ".odt": "odt", ".html": "html", ".opml": "opml", ".md": "markdown"}
#: what the fixtures' sources end with (``name.writer.suffix``; their goldens add ``.md``)
SOURCES = (".docx", ".odt", ".html", ".zip", ".opml", ".enex", ".obsidian.md", ".logseq.md")


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[*_`\\]", "", text).replace("\u00a0", " ").split()).casefold()


def _count_items(items: list[Any]) -> int:
    total = 0
    for item in items:
        sub = sub_list("ul", item[1] if len(item) > 1 else [])
        total += 1 + (_count_items(sub[1]) if sub else 0)
    return total


def truth(note: list[tuple[Any, ...]]) -> tuple[str, list[tuple[str, int, int]]]:
    """The note's title and its sections as ``(title, level, items)``; level 2 is a ``##`` section."""
    from confnotes.parse.recover import is_heading_candidate, is_session_line

    title = ""
    sections: list[tuple[str, int, int]] = []
    level = 1
    for position, element in enumerate(note):
        kind = element[0]
        text = element[1] if kind in ("p", "bold") and isinstance(element[1], str) else ""
        if kind == "title" or position == 0 and kind == "p" and is_heading_candidate(text):
            title = element[1]  # a pasted note's first line names it
        elif kind == "p" and is_session_line(text):  # "Talk: …" on a line of its own: a reader sees a section
            level = 2
            sections.append((text, level, 0))
        elif kind == "h":
            level = element[1] + 1
            sections.append((element[2], level, 0))
        elif kind == "bold":
            sections.append((element[1], level + 1, 0))
        elif kind in ("ul", "ol") and sections:
            name, at, count = sections[-1]
            sections[-1] = (name, at, count + _count_items(element[1]))
    return _plain(title), [(_plain(name), at, count) for name, at, count in sections]


def outline(markdown: str) -> tuple[str, list[tuple[str, int, int]]]:
    """The same view of a note as confnotes reads it."""
    from confnotes.model import List, Node
    from confnotes.parse import parse

    doc = parse(markdown, "note.md")
    found: list[tuple[str, int, int]] = []

    def items(entries: Any) -> int:
        total = 0
        for entry in entries:
            if type(entry) is List:
                for item in entry.items:
                    total += 1 + items(item.content)
        return total

    def walk(entries: Any) -> None:
        for entry in entries:
            if type(entry) is Node and entry.is_section:
                found.append((_plain(entry.title), entry.level, items(entry.content)))
                walk(entry.content)

    walk(doc.content)
    if found and doc.meta.title_origin == "heading" and min(level for _, level, _ in found) == 1:
        found = [(name, level + 1, count) for name, level, count in found]  # a title set as "#" over "#" sections
    return _plain(doc.meta.title or ""), found


def score(expected: tuple[str, list[tuple[str, int, int]]], got: tuple[str, list[tuple[str, int, int]]]) -> tuple[int, int]:
    """Nodes right and nodes in all: the title, each section at its level, each section's items within one."""
    title, sections = expected
    got_title, got_sections = got
    right = int(title == got_title)
    remaining = list(got_sections)
    for name, level, count in sections:
        match = next((found for found in remaining if found[0] == name), None)
        if match is None:
            continue
        remaining.remove(match)
        right += int(match[1] == level) + int(abs(match[2] - count) <= 1)
    return right, 1 + 2 * len(sections)


def pandoc_markdown(pandoc: str, path: Path) -> str | None:
    if path.suffix == ".zip":
        return None  # pandoc reads no zipped web page
    fmt = PANDOC_FORMATS.get(path.suffix)
    if fmt is None:
        return None
    done = subprocess.run([pandoc, "-f", fmt, "-t", "gfm", str(path)], capture_output=True, text=True, check=False, cwd=path.parent)
    return done.stdout if done.returncode == 0 else ""


def main() -> int:
    from confnotes.importers import convert

    pandoc = os.environ.get("PANDOC") or shutil.which("pandoc")
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for path in sorted(IMPORT.iterdir()):
        name, _, writer = path.name.partition(".")
        if name not in NOTES or not path.name.endswith(SOURCES):
            continue
        expected = truth(NOTES[name])
        right, whole = score(expected, outline(convert(path.read_bytes(), str(path), path.stem).markdown))
        row = totals[writer]
        row[0] += right
        row[1] += whole
        if pandoc:
            markdown = pandoc_markdown(pandoc, path)
            if markdown is not None:
                theirs, _ = score(expected, outline(markdown))
                row[2] += theirs
                row[3] += whole
    print(f"{'writer':<16} {'confnotes':>14} {'pandoc':>14}")
    all_ours = [0, 0, 0, 0]
    for writer, (ours, whole, theirs, their_whole) in sorted(totals.items()):
        for index, value in enumerate((ours, whole, theirs, their_whole)):
            all_ours[index] += value
        pandoc_cell = f"{theirs}/{their_whole} {100 * theirs / their_whole:.0f}%" if their_whole else "-"
        print(f"{writer:<16} {ours:>4}/{whole:<4} {100 * ours / whole:>3.0f}% {pandoc_cell:>14}")
    ours, whole, theirs, their_whole = all_ours
    pandoc_cell = f"{theirs}/{their_whole} {100 * theirs / their_whole:.0f}%" if their_whole else "-"
    print(f"{'all':<16} {ours:>4}/{whole:<4} {100 * ours / whole:>3.0f}% {pandoc_cell:>14}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
