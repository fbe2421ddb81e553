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


def width(fence: str) -> float | None:
    """A column's width as a fraction, from its fence line (``::: {.column width="40%"}``), else None."""
    found = _WIDTH.search(fence)
    if found is None:
        return None
    value = float(found.group(1)) / 100
    return value if 0.05 <= value <= 0.95 else None


def is_div(entry: Entry) -> bool:
    return type(entry) is Block and entry.kind == "div"


def paired(content: list[Entry]) -> list[Entry]:
    """``content`` with each fence that pairs with nothing demoted to text (``info`` ``""``).

    A ``columns`` div holds ``column`` divs; a closing fence closes the innermost open div,
    whether or not that div may stand where it does (``_may_stand``): one that may not is text,
    with its closer and every div in it."""
    if not any(type(entry) is Block and entry.kind == "div" for entry in content):
        return content
    out = list(content)
    stack: list[tuple[int, str, bool]] = []  # open divs: index in content, name, whether it may stand there
    closer: dict[int, int] = {}  # an open fence's index: its closing fence's
    parent: dict[int, int] = {}  # an open fence's index: the open fence it stands in (-1: none, -2: may not stand)
    for index, entry in enumerate(content):
        if type(entry) is not Block or entry.kind != "div":
            continue
        if entry.info == "end":
            if stack:
                closer[stack.pop()[0]] = index
            continue
        inside, fits = (stack[-1][1], stack[-1][2]) if stack else ("", True)
        fits = fits and _may_stand(entry.info, inside)
        parent[index] = (stack[-1][0] if stack else -1) if fits else -2
        stack.append((index, entry.info, fits))
    good: set[int] = set()
    for opened in sorted(closer):  # a div is whole when it is closed and so is the div it stands in
        if parent[opened] == -1 or parent[opened] in good:
            good.update((opened, closer[opened]))
    for index, entry in enumerate(content):
        if type(entry) is Block and entry.kind == "div" and index not in good and entry.info:
            out[index] = replace(entry, info="")
    return out


def _may_stand(name: str, inside: str) -> bool:
    """Whether a div named ``name`` may open inside one named ``inside`` ("" at the top): a column
    only in columns, and nothing else directly in columns; no columns in a column; any other div
    (``::: incremental``, ``::: tip``) anywhere else."""
    if name == "column":
        return inside == "columns"
    if inside == "columns":
        return False
    return not (name == "columns" and inside == "column")


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
