"""Slide directives: ``<!-- slide … -->`` comments that direct the deck, one syntax for every deck.

``<!-- slide -->`` alone starts a new slide where it stands (inside a section; the new slide
keeps the section's title, marked "(cont.)"). Under a heading, before anything else of its
section, a directive comment directs the section's (first) slide instead. What may follow the
word ``slide``, separated by ``;`` or new lines:

- ``class: NAME …`` — CSS classes for the slide (letters, digits, ``-``, ``_``), for a theme or
  ``--css`` to style;
- ``background: COLOUR`` (``#0b1f3a``, ``#fff``, a CSS colour name) or ``background: IMAGE`` (an
  image file below the note's folder, as images are);
- ``hide`` — the slide is left out of every deck (and of the talk's plan).

An HTML comment is invisible in every Markdown viewer, so a note stays a note; pandoc, GitHub
and Obsidian show nothing of it. Unknown words or values are lint findings (CN114).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from confnotes.parse.blocks import SLIDE_COMMENT as _BODY

_COLOUR = re.compile(r"\A(?:#[0-9a-fA-F]{3}|#[0-9a-fA-F]{4}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}|[a-zA-Z]{3,20})\Z")
_CLASS = re.compile(r"\A[A-Za-z][A-Za-z0-9_-]{0,40}\Z")
_IMAGE = re.compile(r"\.(?:png|jpe?g|gif|webp|svg)\Z", re.I)
KEYS = ("class", "background")
FLAGS = ("hide",)


@dataclass(frozen=True)
class Directives:
    """What one ``<!-- slide … -->`` comment asks for, and what in it could not be read."""

    classes: tuple[str, ...] = ()
    background: str = ""
    hide: bool = False
    problems: tuple[str, ...] = field(default=(), compare=False)


def is_directive(text: str) -> bool:
    """Whether a comment block is a slide directive (``<!-- slide … -->``)."""
    return _BODY.match(text) is not None


def read(text: str) -> Directives:
    """The directives of a ``<!-- slide … -->`` comment; ``problems`` names each part not understood,
    with the words or values allowed."""
    match = _BODY.match(text)
    if match is None:
        return Directives()
    classes: list[str] = []
    background = ""
    hide = False
    problems: list[str] = []
    for part in re.split(r"[;\n]", match.group(1)):
        part = part.strip()
        if not part:
            continue
        key, colon, value = part.partition(":")
        key, value = key.strip().lower(), value.strip()
        if not colon:
            if key in FLAGS:
                hide = True
            else:
                problems.append(f"unknown slide directive '{part[:40]}' (known: {', '.join((*KEYS, *FLAGS))})")
            continue
        if key == "class":
            for name in value.split():
                if _CLASS.match(name):
                    classes.append(name)
                else:
                    problems.append(f"class '{name[:40]}' is not a class name (letters, digits, - and _)")
        elif key == "background":
            if _COLOUR.match(value) or _IMAGE.search(value):
                background = value
            else:
                problems.append(f"background '{value[:40]}' is neither a colour (#0b1f3a, navy) nor an image file (.png, .jpg, .svg, …)")
        else:
            problems.append(f"unknown slide directive '{key[:40]}' (known: {', '.join((*KEYS, *FLAGS))})")
    return Directives(tuple(classes), background, hide, tuple(problems))


def is_colour(value: str) -> bool:
    return _COLOUR.match(value) is not None


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


def merged(first: Directives, then: Directives) -> Directives:
    """Two directive comments in a row, as one (the later one's background wins)."""
    return replace(
        first,
        classes=first.classes + tuple(name for name in then.classes if name not in first.classes),
        background=then.background or first.background,
        hide=first.hide or then.hide,
        problems=first.problems + then.problems,
    )
