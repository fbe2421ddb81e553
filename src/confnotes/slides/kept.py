"""An open note's slides and fitted slides, kept from one reading to the next (docs/design.md,
"Incremental analysis").

The editor reads a note again at every pause in typing, and lint builds two decks of it: the slides
as written and the slides the limits and the fit engine make. A section the outline took whole from
the last reading (``parse.reuse``) is the very same object when the edit added no line above it
(a word typed), so its slides are too, and each slide the fit engine already laid out is laid out
the same. This keeps, for a note the editor has open (``parse.incremental.track``):

- each section's slides, by the section and whether the note has speaker notes;
- each slide's parts as the limits and the fit engine made them, by the slide and the deck's
  options, with their warnings; a slide that shows pictures, videos or diagrams is fitted again
  each time (whether its files exist, and their sizes, can change between two readings).

Entries are kept by identity: a kept object holds its key object, so no other object can take its
id meanwhile. Each build keeps only what it used, so a note holds one reading's worth. The command
line builds each deck once and keeps nothing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from confnotes.parse import incremental
from confnotes.slides.model import Slide, SlideItem, SlideText

#: the tables kept at once (a note's sections and its decks' fits, for an editor's open notes)
KEPT = 4 * incremental.KEPT

_kept: OrderedDict[tuple[str, Any], dict[Any, Any]] = OrderedDict()
_lock = threading.Lock()


class Table:
    """One build's view of a kept table: the last build's entries to take, this build's to keep."""

    __slots__ = ("key", "old", "new")

    def __init__(self, key: tuple[str, Any]) -> None:
        self.key = key
        with _lock:
            self.old: dict[Any, Any] = _kept.pop(key, {})
        self.new: dict[Any, Any] = {}

    def get(self, owner: object) -> Any:
        """What was kept for ``owner`` (the object it was made from), kept again for the next build."""
        found = self.old.get(id(owner))
        if found is None or found[0] is not owner:
            return None
        self.new[id(owner)] = found
        return found[1]

    def put(self, owner: object, value: Any) -> None:
        self.new[id(owner)] = (owner, value)

    def close(self) -> None:
        """Keep this build's entries for the next (the least recently built tables let go first)."""
        with _lock:
            _kept[self.key] = self.new
            while len(_kept) > KEPT:
                _kept.popitem(last=False)


def table(path: str, *what: Any) -> Table | None:
    """The kept table of ``what`` for the note at ``path``; None when the editor does not have it open."""
    return Table((path, what)) if incremental.tracked(path) else None


def forget(path: str) -> None:
    """Let a closed note's tables go."""
    with _lock:
        for key in [key for key in _kept if key[0] == path]:
            del _kept[key]


def refits(slide: Slide) -> bool:
    """Whether a slide is fitted again at every build: it shows a picture, a video or a diagram."""
    for entry in slide.content:
        if type(entry) is SlideText:
            if "![" in entry.text or entry.kind in ("image", "diagram", "missing-image"):
                return True
        elif type(entry) is SlideItem and "![" in entry.full:
            return True
    return False


incremental.on_forget(forget)
