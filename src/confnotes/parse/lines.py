"""Source lines and spans: the one place markdown-it's 0-based, half-open ``token.map`` becomes a 1-based ``Span``."""

from __future__ import annotations

from typing import Any

from confnotes.model import Span


def last_content_line(lines: list[str], start: int, stop: int) -> int:
    """0-based index of the last non-blank line in ``lines[start:stop]`` (``start`` if none)."""
    for index in range(min(stop, len(lines)) - 1, start - 1, -1):
        if lines[index].strip():
            return index
    return start


def span_of(lines: list[str], start: int, stop: int) -> Span:
    """The 1-based span of source lines ``[start, stop)``, trailing blank lines excluded."""
    return Span(start + 1, last_content_line(lines, start, stop) + 1)


def strip_indent(line: str, width: int) -> str:
    """Remove up to ``width`` columns of leading spaces and tabs (a container's content
    indentation); a tab stops at the next multiple of 4, and the part of one that reaches past
    ``width`` is the content's, as CommonMark reads it (a tab-only line in code under ``- `` is
    two spaces of that code)."""
    index = col = 0
    while index < len(line) and col < width and line[index] in " \t":
        step = 4 - col % 4 if line[index] == "\t" else 1
        if col + step > width:
            return " " * (col + step - width) + line[index + 1 :]
        col += step
        index += 1
    return line[index:]


def verbatim(lines: list[str], start: int, stop: int, strip: int = 0, first_col: int = 0) -> str:
    """Source lines ``[start, stop)`` without trailing blank lines or the container's indentation.

    ``strip`` is the enclosing list item's content column (0 at top level); ``first_col`` is
    where the block starts when it shares its first line with the item's marker.
    """
    end = last_content_line(lines, start, stop) + 1
    chunk = lines[start:end]
    if not chunk:
        return ""
    if first_col:
        chunk[0] = " " * first_col + chunk[0][first_col:]
    if strip:
        chunk = [strip_indent(line, strip) for line in chunk]
    return "\n".join(chunk).strip("\n")


def after_close(tokens: list[Any], index: int) -> int:
    """The index just past the token that closes ``tokens[index]`` (the next one for a leaf)."""
    if tokens[index].nesting != 1:
        return index + 1
    depth = 0
    for probe in range(index, len(tokens)):
        depth += tokens[probe].nesting
        if depth == 0:
            return probe + 1
    return len(tokens)
