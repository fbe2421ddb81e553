"""pandoc's fenced divs that direct slides: ``:::: columns`` / ``::: column`` and ``::: incremental``.

Each fence line is one ``div`` block of the outline (``info``: ``columns``, ``column``,
``incremental`` or ``end``), and what stands between the fences stays what it is — lists, code,
paragraphs — in the same content sequence, so the outline, ``fmt`` and every output keep it in
place. A note stays pandoc-readable, and a viewer that knows no divs shows the fence lines as text.

Fences pair up within one content sequence (a section's, an item's, the lede); a fence that pairs
with nothing — a heading inside a column, a ``:::`` too many, a ``column`` outside ``columns`` —
is kept with ``info`` ``""`` and shown as the text it is (lint rule CN114 names it).
(``::: notes`` is the speaker-notes container: ``parse.markdown``, not a div here.)
"""

from __future__ import annotations

import re
from dataclasses import replace

from confnotes.model import Block, Entry, List, Node

_WIDTH = re.compile(r"""\bwidth\s*=\s*["']?(\d{1,3}(?:\.\d+)?)%""")


def width(block: Block) -> float | None:
    """A column's width as a fraction (``::: {.column width="40%"}``), else None."""
    found = _WIDTH.search(block.text)
    if found is None:
        return None
    value = float(found.group(1)) / 100
    return value if 0.05 <= value <= 0.95 else None


def is_div(entry: Entry) -> bool:
    return type(entry) is Block and entry.kind == "div"


def paired(content: list[Entry]) -> list[Entry]:
    """``content`` with each fence that pairs with nothing demoted to text (``info`` ``""``).

    A ``columns`` div holds ``column`` divs (and what stands before the first is its first
    column's); an ``incremental`` div holds anything but divs of its own kind; a closing fence
    closes the innermost open div."""
    if not any(type(entry) is Block and entry.kind == "div" for entry in content):
        return content
    out = list(content)
    stack: list[tuple[int, str]] = []  # open divs: index in content, name
    closer: dict[int, int] = {}  # an open fence's index: its closing fence's
    parent: dict[int, int] = {}  # an open fence's index: the open fence it stands in (-1: none)
    for index, entry in enumerate(content):
        if type(entry) is not Block or entry.kind != "div":
            continue
        name = entry.info
        if name == "end":
            if stack:
                closer[stack.pop()[0]] = index
            continue
        inside = stack[-1][1] if stack else ""
        allowed = {"columns": inside in ("", "incremental"), "column": inside == "columns", "incremental": inside in ("", "column")}
        if allowed.get(name, False):
            parent[index] = stack[-1][0] if stack else -1
            stack.append((index, name))
    good: set[int] = set()
    for opened in sorted(closer):  # a div is whole when it is closed and so is the div it stands in
        if parent[opened] == -1 or parent[opened] in good:
            good.update((opened, closer[opened]))
    for index, entry in enumerate(content):
        if type(entry) is Block and entry.kind == "div" and index not in good and entry.info:
            out[index] = replace(entry, info="")
    return out


def pair_all(content: tuple[Entry, ...]) -> tuple[Entry, ...]:
    """``paired`` in every content sequence of a note (sections, items, the lede), depth-first."""
    out: list[Entry] = []
    for entry in paired(list(content)):
        if type(entry) is Node and entry.content:
            entry = replace(entry, content=pair_all(entry.content))
        elif type(entry) is List:
            entry = replace(
                entry, items=tuple(replace(item, content=pair_all(item.content)) if item.content else item for item in entry.items)
            )
        out.append(entry)
    return tuple(out)
