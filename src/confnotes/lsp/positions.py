"""Positions: 1-based lines and columns (characters) of confnotes against the client's line and code units."""

from __future__ import annotations

from typing import NamedTuple

#: LSP position encodings (``general.positionEncodings``): how a column counts a line's characters
UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def units(text: str, encoding: str = UTF16) -> int:
    """How many code units ``text`` is in the client's encoding."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def char_index(line: str, column: int, encoding: str = UTF16) -> int:
    """The character index in ``line`` of a column given in code units (clamped to the line)."""
    if encoding == UTF32 or line.isascii():
        return max(0, min(column, len(line)))
    count = 0
    for index, char in enumerate(line):
        if count >= column:
            return index
        count += units(char, encoding)
    return len(line)


class Pos(NamedTuple):
    """A 0-based line and a column in code units, as the client counts them."""

    line: int
    character: int


class LineIndex:
    """Offsets into a note's normalised text (``\\n`` line ends) to client positions and back."""

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.text = text
        self.encoding = encoding
        self.lines = text.split("\n")
        self.starts = [0]
        for line in self.lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def position(self, offset: int) -> Pos:
        import bisect

        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        return Pos(line, units(self.lines[line][: offset - self.starts[line]], self.encoding))

    def at(self, line: int, col: int = 1) -> Pos:
        """Client position of confnotes' 1-based ``line`` and ``col`` (clamped to the text)."""
        index = max(0, min(line - 1, len(self.lines) - 1))
        text = self.lines[index]
        return Pos(index, units(text[: max(0, col - 1)], self.encoding))

    def line_end(self, line: int) -> Pos:
        index = max(0, min(line - 1, len(self.lines) - 1))
        return Pos(index, units(self.lines[index], self.encoding))

    def offset(self, pos: Pos) -> int:
        index = max(0, min(pos.line, len(self.lines) - 1))
        return self.starts[index] + char_index(self.lines[index], pos.character, self.encoding)

    def end(self) -> Pos:
        return Pos(len(self.lines) - 1, units(self.lines[-1], self.encoding))
