"""Recovering pasted bullets (``•``, ``▪``, ``·``…) into lists: indentation nests, blank lines do not break a run."""

from __future__ import annotations

from collections.abc import Callable

from confnotes.model import ITEM, List
from confnotes.parse import recover
from confnotes.parse.tree import ListBuilder, NodeBuilder

#: Pasted bullets nested deeper than this are kept, as siblings at this depth.
MAX_GLYPH_DEPTH = 32


class GlyphRun:
    """Pasted bullets being recovered; stays open across blank lines so indentation still nests.

    The run's top-level bullets form one ``List`` handed to ``sink`` when the run closes;
    deeper bullets form lists inside their parent bullet.
    """

    __slots__ = ("lines", "base_level", "sink", "stack", "top", "recovered")

    def __init__(self, lines: list[str], base_level: int, sink: Callable[[List], None], recovered: set[str]) -> None:
        self.lines = lines
        self.base_level = base_level
        self.sink = sink
        self.recovered = recovered
        # (indent, the bullet, the list of its own sub-bullets)
        self.stack: list[tuple[int, NodeBuilder, ListBuilder | None]] = []
        self.top: ListBuilder | None = None

    def _close_to(self, indent: int) -> None:
        stack = self.stack
        while stack and stack[-1][0] >= indent:
            _, done, sublist = stack.pop()
            if sublist is not None:
                done.add(sublist.freeze())
            node = done.freeze()
            if stack:
                parent_indent, parent, parent_list = stack[-1]
                if parent_list is None:
                    parent_list = ListBuilder(False, None, node.marker or "•", "glyph")
                    stack[-1] = (parent_indent, parent, parent_list)
                parent_list.items.append(node)
            else:
                if self.top is None:
                    self.top = ListBuilder(False, None, node.marker or "•", "glyph")
                self.top.items.append(node)

    def close(self) -> None:
        self._close_to(-1)
        if self.top is not None:
            self.sink(self.top.freeze())
            self.top = None

    def feed(self, a: int, b: int) -> list[str]:
        """Take source lines ``[a, b)``; plain lines before the first bullet are returned as lead."""
        self.recovered.add("glyph-bullets")
        lines = self.lines
        lead: list[str] = []
        started = False
        for index in range(a, b):
            line = lines[index]
            bullet = recover.glyph_bullet(line)
            if bullet is None:
                if not line.strip():
                    continue
                if started and self.stack:
                    builder = self.stack[-1][1]
                    builder.title = (builder.title + "\n" + line.strip()).strip("\n")
                    builder.end = index + 1
                else:
                    self.close()
                    lead.append(line.strip())
                continue
            started = True
            width, glyph, text = bullet
            # indentation first; at equal indentation the glyph's place in its cycle nests it
            indent = width * 8 + recover.GLYPH_DEPTH.get(glyph, 0)
            self._close_to(indent)
            if len(self.stack) >= MAX_GLYPH_DEPTH:
                self._close_to(self.stack[-1][0])  # too deep: keep as a sibling at the deepest level
            level = self.base_level + len(self.stack)
            col = len(line) - len(line.lstrip(" \t")) + 1
            self.stack.append(
                (indent, NodeBuilder(ITEM, text, index + 1, index + 1, "glyph", level, col=col, marker=glyph, indent=width), None)
            )
        return lead


def glyph_lists(lines: list[str], a: int, b: int, base_level: int, recovered: set[str]) -> tuple[list[str], list[List]]:
    """Recover pasted bullets from source lines ``[a, b)``: the plain lines before them, and their lists."""
    out: list[List] = []
    run = GlyphRun(lines, base_level, out.append, recovered)
    lead = run.feed(a, b)
    run.close()
    return lead, out
