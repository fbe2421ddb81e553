"""How much drawing an SVG image asks of a PDF, measured before WeasyPrint draws it.

WeasyPrint draws every element of an SVG, and each ``<use>`` draws what it points at again: an
8 MB SVG of 200,000 elements took a minute and 800 MB, and a 2 KB SVG of nested ``<use>``
(ten uses of a group of ten uses of …) asks for a hundred million shapes. ``drawn_elements``
counts what would be drawn, cheaply: the tags in the file when it has no ``<use>``, else the
elements with every ``<use>`` expanded (counting stops past ``limit``).
"""

from __future__ import annotations

import re
from typing import Any

_TAG = re.compile(rb"<[A-Za-z]")
_XLINK = "{http://www.w3.org/1999/xlink}href"
#: an SVG that draws other images (``<image>``, ``<feImage>``) draws what they hold too: only
#: raster images inside the SVG itself are counted as one element each
_RASTER = re.compile(r"^\s*data:image/(png|jpe?g|gif|webp)[;,]", re.IGNORECASE)


def drawn_elements(data: bytes, limit: int) -> int:
    """About how many elements drawing the SVG ``data`` takes; more than ``limit`` when it is past
    it (or when it cannot be measured safely: entity declarations, images it fetches, a ``<use>`` loop)."""
    tags = len(_TAG.findall(data))
    if tags > limit or (b"<use" not in data and b"image" not in data.lower()):
        return tags
    from confnotes.edges.xmlread import XmlError, parse_xml

    try:
        root = parse_xml(data)
    except XmlError:
        return limit + 1
    return _expanded(root, limit)


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _expanded(root: Any, limit: int) -> int:
    """The elements under ``root`` with each ``<use>`` counted as what it points at, without
    recursion (a deep SVG cannot exhaust the stack); ``limit + 1`` past the limit or on a loop."""
    held = list(root.iter())  # lxml makes an element's Python object on demand: held, its id() is stable
    ids = {element.get("id"): element for element in held if element.get("id")}
    sizes: dict[int, int] = {}
    busy: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        element, done = stack.pop()
        key = id(element)
        if done:
            busy.discard(key)
            size = 1 + sum(sizes[id(child)] for child in element) + _extra(element, ids, sizes)
            sizes[key] = min(size, limit + 1)
            continue
        if key in sizes:
            continue
        if key in busy:
            return limit + 1  # a <use> that draws itself
        busy.add(key)
        stack.append((element, True))
        target = _used(element, ids)
        stack.extend((child, False) for child in [*element, *([target] if target is not None else [])] if id(child) not in sizes)
        if _local(element.tag) in ("image", "feImage") and not _RASTER.match(_href(element)):
            return limit + 1
    return sizes[id(root)]


def _href(element: Any) -> str:
    return str(element.get("href") or element.get(_XLINK) or "")


def _used(element: Any, ids: dict[str, Any]) -> Any:
    if _local(element.tag) != "use":
        return None
    href = _href(element)
    return ids.get(href[1:]) if href.startswith("#") else None


def _extra(element: Any, ids: dict[str, Any], sizes: dict[int, int]) -> int:
    target = _used(element, ids)
    return sizes.get(id(target), 0) if target is not None else 0
