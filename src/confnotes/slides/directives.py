"""Slide directives in the deck: colours a ``background:`` names, and two comments in a row merged.
The comments are read by ``parse`` (``confnotes.parse.directives``) into each block's ``Directives``
value; the syntax is documented there."""

from __future__ import annotations

from dataclasses import replace

from confnotes.model.values import Directives
from confnotes.parse.directives import FLAGS, KEYS, LAYOUTS, NOTES, is_colour

__all__ = ["FLAGS", "KEYS", "LAYOUTS", "NOTES", "Directives", "is_colour", "is_dark", "merged", "rgb"]


def rgb(value: str) -> tuple[int, int, int] | None:
    """A CSS colour's red, green and blue (``#0b1f3a``, ``navy``), else None."""
    from PIL import ImageColor

    try:
        found = ImageColor.getrgb(value)
    except ValueError:
        return None
    return found[0], found[1], found[2]


def is_dark(value: str) -> bool:
    """Whether a background colour needs light text (its relative luminance under 0.35)."""
    found = rgb(value) if is_colour(value) else None
    if found is None:
        return False
    red, green, blue = (channel / 255 for channel in found)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue < 0.35


def merged(first: Directives | None, then: Directives) -> Directives:
    """Two directive comments in a row, as one (the later one's background wins); ``then`` alone
    when there was none before it."""
    if first is None:
        return then
    return replace(
        first,
        classes=first.classes + tuple(name for name in then.classes if name not in first.classes),
        background=then.background or first.background,
        hide=first.hide or then.hide,
        layout=then.layout or first.layout,
        incremental=first.incremental or then.incremental,
        notes=then.notes or first.notes,
        problems=first.problems + then.problems,
    )
