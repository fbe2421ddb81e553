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

from confnotes.markup.callouts import body_lines
from confnotes.model import UNPRINTED, Block, Entry, List, Node
from confnotes.model.values import Callout, Quote

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
            out[index] = replace(entry, info="", value=None)
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


#: what a Quarto callout div may hold to be drawn as a box: text and lists
_BOXABLE = frozenset(("paragraph", "quote", "math"))


def _in_box(entry: Entry) -> bool:
    return (type(entry) is Block and entry.kind in _BOXABLE) or type(entry) is List


def _box_lines(entry: Entry) -> list[str]:
    """The Markdown lines of text or a list inside a callout div (``_in_box``)."""
    if isinstance(entry, List):
        return _list_lines(entry)
    return entry.text.split("\n") if isinstance(entry, Block) else []


def _list_lines(lst: List, indent: str = "") -> list[str]:
    """A list as the Markdown lines a callout's quote holds (``- item``, ``1. item``), what stands
    under an item indented below it."""
    lines: list[str] = []
    for item in lst.items:
        marker = f"{item.number}{item.delimiter or '.'}" if item.number is not None else (item.marker or "-")
        head, *rest = item.title.split("\n")
        pad = indent + " " * (len(marker) + 1)
        lines += [f"{indent}{marker} {head}".rstrip(), *(f"{pad}{line}" for line in rest)]
        for entry in item.content:
            if type(entry) is List:
                lines += _list_lines(entry, pad)
            elif type(entry) is Block and entry.kind not in UNPRINTED and entry.kind not in ("reference", "break", "footnote"):
                lines += [f"{pad}{line}" if line else "" for line in entry.text.split("\n")]
    return lines


def callout_bodies(content: list[Entry]) -> list[Entry]:
    """Each paired Quarto callout div that holds only text and lists gets its body (the ``Callout``
    value's ``body`` and ``holds``): every output draws it as one box."""
    for index, entry in enumerate(content):
        if type(entry) is not Block or entry.kind != "div" or type(entry.value) is not Callout:
            continue
        found = entry.value
        end = next((k for k in range(index + 1, len(content)) if not _in_box(content[k])), None)
        closer = content[end] if end is not None else None
        if end is None or end == index + 1 or not (type(closer) is Block and closer.kind == "div" and closer.info == "end"):
            continue
        body = "\n\n".join("\n".join(_box_lines(part)) for part in content[index + 1 : end])
        content[index] = replace(entry, value=replace(found, body=Quote(body, tuple(body_lines(body))), holds=end - index - 1))
    return content


def pair_all(content: tuple[Entry, ...]) -> tuple[Entry, ...]:
    """``paired`` in every content sequence of a note (sections, items, the lede), depth-first; each
    callout div with its body."""
    out: list[Entry] = []
    for entry in callout_bodies(paired(list(content))):
        if type(entry) is Node and entry.content:
            inner = pair_all(entry.content)
            entry = entry if inner is entry.content else replace(entry, content=inner)
        elif type(entry) is List:
            items = tuple(_paired_item(item) for item in entry.items)
            entry = entry if all(new is old for new, old in zip(items, entry.items, strict=True)) else replace(entry, items=items)
        out.append(entry)
    # what holds no div is the very same object: an open note's sections taken from its last reading
    # stay the objects their slides and fits were kept by (``slides.kept``)
    return content if len(out) == len(content) and all(new is old for new, old in zip(out, content, strict=True)) else tuple(out)


def _paired_item(item: Node) -> Node:
    if not item.content:
        return item
    inner = pair_all(item.content)
    return item if inner is item.content else replace(item, content=inner)
