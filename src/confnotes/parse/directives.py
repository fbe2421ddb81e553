"""Slide directives: ``<!-- slide … -->`` comments that direct the deck, one syntax for every deck.

``<!-- slide -->`` alone starts a new slide where it stands (inside a section; the new slide
keeps the section's title, marked "(cont.)"). Under a heading, before anything else of its
section, a directive comment directs the section's (first) slide instead, and after the last
thing its section shows, the slide it ends. What may follow the
word ``slide``, separated by ``;`` or new lines:

- ``class: NAME …`` — CSS classes for the slide (letters, digits, ``-``, ``_``), for a theme or
  ``--css`` to style;
- ``background: COLOUR`` (``#0b1f3a``, ``#fff``, a CSS colour name) or ``background: IMAGE`` (an
  image file below the note's folder, as images are);
- ``hide`` — the slide is left out of every deck (and of the talk's plan);
- ``layout: NAME`` — one of ``LAYOUTS`` (``slides.layouts``);
- ``incremental`` — the slide's lists are revealed item by item;
- ``notes: presenter`` — the slide's speaker notes are the presenter view's alone.

An HTML comment is invisible in every Markdown viewer, so a note stays a note; pandoc, GitHub
and Obsidian show nothing of it. Unknown words or values are lint findings (CN114).
"""

from __future__ import annotations

import re
from typing import Any

from confnotes.model.values import Directives

#: a slide directive: a comment whose first word is ``slide``
SLIDE_COMMENT = re.compile(r"\A\s*<!--\s*slide\b(.*?)-->\s*\Z", re.S | re.I)
_COLOUR = re.compile(r"\A(?:#[0-9a-fA-F]{3}|#[0-9a-fA-F]{4}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}|[a-zA-Z]{3,20})\Z")
_CLASS = re.compile(r"\A[A-Za-z][A-Za-z0-9_-]{0,40}\Z")
_IMAGE = re.compile(r"\.(?:png|jpe?g|gif|webp|svg)\Z", re.I)
_SCHEME = re.compile(r"\A[a-z][a-z0-9+.-]*:", re.I)  # a URL (https:, javascript:, data:, file:): never a background
KEYS = ("layout", "class", "background", "notes")
FLAGS = ("hide", "incremental")
#: what ``layout:`` may name (``slides.layouts``)
LAYOUTS = ("title", "section", "two-column", "image-left", "image-right", "full-image", "quote", "big-number")
#: where ``notes:`` may send a slide's speaker notes: everywhere notes go (the default), or to the
#: presenter view alone
NOTES = ("all", "presenter")


def read(text: str) -> Directives:
    """The directives of a ``<!-- slide … -->`` comment; ``problems`` names each part not understood,
    with the words or values allowed."""
    match = SLIDE_COMMENT.match(text)
    if match is None:
        return Directives()
    found: dict[str, Any] = {"classes": [], "background": "", "hide": False, "layout": "", "incremental": False, "notes": ""}
    problems: list[str] = []
    for part in re.split(r"[;\n]", match.group(1)):
        part = part.strip()
        if part:
            problems += _read_part(part, found)
    return Directives(
        tuple(found["classes"]), found["background"], found["hide"], found["layout"], found["incremental"], found["notes"], tuple(problems)
    )


def _known() -> str:
    return ", ".join((*KEYS, *FLAGS))


def _read_part(part: str, found: dict[str, Any]) -> list[str]:
    """One ``key: value`` or flag of a directive comment into ``found``; what was not understood."""
    key, colon, value = part.partition(":")
    key, value = key.strip().lower(), value.strip()
    if not colon:
        if key in FLAGS:
            found[key] = True
            return []
        return [f"unknown slide directive '{part[:40]}' (known: {_known()})"]
    if key == "class":
        bad = [name for name in value.split() if not _CLASS.match(name)]
        found["classes"] += [name for name in value.split() if _CLASS.match(name)]
        return [f"class '{name[:40]}' is not a class name (letters, digits, - and _)" for name in bad]
    if key == "background":
        if _SCHEME.match(value) or "<" in value or "\\" in value:
            return [f"background '{value[:40]}' is not a colour or an image file below the note's folder (no URLs)"]
        if _COLOUR.match(value) or _IMAGE.search(value):
            found["background"] = value
            return []
        return [f"background '{value[:40]}' is neither a colour (#0b1f3a, navy) nor an image file (.png, .jpg, .svg, …)"]
    if key in ("layout", "notes"):
        allowed = LAYOUTS if key == "layout" else NOTES
        if value.lower() in allowed:
            found[key] = value.lower()
            return []
        return [f"{key} '{value[:40]}' is not one of {', '.join(allowed)}"]
    return [f"unknown slide directive '{key[:40]}' (known: {_known()})"]


def is_colour(value: str) -> bool:
    return _COLOUR.match(value) is not None
