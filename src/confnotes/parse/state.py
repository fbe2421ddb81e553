"""What every part of one parse shares: the source lines, the options, and what was recovered."""

from __future__ import annotations

from bisect import bisect_left
from typing import NamedTuple

from confnotes.config.settings import FmtSettings
from confnotes.model import Block
from confnotes.parse import recover


class ParseOptions(NamedTuple):
    """How much structure to recover.

    ``infer_headings``: ``auto`` (only in notes that show they were pasted), ``always`` or
    ``never``. ``note_lines``: read paragraphs starting with ``Note:`` as speaker notes
    (reveal.js habit); off by default, so such paragraphs are printed. ``fmt``: the styles a note
    read with these options is written back in (config ``[fmt]``); the parser ignores them, but
    every caller that reads a note as its config says — ``fmt``, ``lint --fix``, the editor —
    thereby also writes it as the config says.
    """

    max_heading_length: int = recover.DEFAULT_MAX_HEADING
    infer_headings: str = "auto"
    note_lines: bool = False
    lang: str = "en"  # a note's language when its front matter names none (config ``lang``)
    fmt: FmtSettings = FmtSettings()


class ParseState:
    """The lines of one note, its options, and what the builders collect on the side."""

    __slots__ = ("path", "lines", "options", "recovered", "directives", "glyph_indexes")

    def __init__(self, text: str, path: str, options: ParseOptions) -> None:
        self.path = path
        self.lines = text.split("\n")
        self.options = options
        self.recovered: set[str] = set()
        self.directives: list[Block] = []
        # 0-based indexes of pasted-bullet lines, found in one pass (most notes have none)
        self.glyph_indexes: list[int] = (
            [index for index, line in enumerate(self.lines) if line and recover.is_glyph_line(line)]
            if recover.may_have_glyphs(text)
            else []
        )
        if self.glyph_indexes and all(recover.is_o_line(self.lines[index]) for index in self.glyph_indexes):
            self.glyph_indexes = []  # "o" lines alone are words, not Word's bullets

    def first_glyph_line(self, a: int, b: int) -> int | None:
        """The first pasted-bullet line in ``[a, b)``, or None."""
        if not self.glyph_indexes:
            return None
        position = bisect_left(self.glyph_indexes, a)
        if position < len(self.glyph_indexes) and self.glyph_indexes[position] < b:
            return self.glyph_indexes[position]
        return None

    def has_glyph_line(self, a: int, b: int) -> bool:
        return self.first_glyph_line(a, b) is not None

    def all_glyphs(self, a: int, b: int) -> bool:
        """Whether every non-blank line of ``[a, b)`` is a pasted bullet."""
        if not self.glyph_indexes:
            return False
        lines = [line for line in self.lines[a:b] if line.strip()]
        return bool(lines) and all(recover.is_glyph_line(line) for line in lines)
