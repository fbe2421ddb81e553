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
from dataclasses import fields
from typing import Any

from confnotes.markup.diagrams import language
from confnotes.model import Node
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

    def _was(self, moved: tuple[Any, int] | None) -> tuple[Any, int] | None:
        """What the last build kept for the object another was moved from (``moved``: that object and
        by how many lines), with those lines."""
        if moved is None:
            return None
        found = self.old.get(id(moved[0]))
        return (found[1], moved[1]) if found is not None and found[0] is moved[0] else None

    def made(self, section: Node) -> tuple[Slide, ...] | None:
        """A section's own slides as the last build made them, or as it made them of the section this
        one was moved from (``parse.reuse``), moved as it was; each such slide is filed as moved too."""
        found = self.get(section)
        if found is not None:
            return found  # type: ignore[no-any-return]
        was = self._was(incremental.moved(self.key[0], section))
        if was is None:
            return None
        (old, lines), moves = was, _moved_slides.get(self.key[0], {})
        slides = tuple(_moved(slide, lines) for slide in old)
        for slide, before in zip(slides, old, strict=True):
            moves[id(slide)] = (slide, before, lines)
        self.put(section, slides)
        return slides

    def fitted(self, slide: Slide) -> tuple[tuple[str, ...], tuple[Slide, ...]] | None:
        """A slide's fitted parts and warnings as the last build made them, or as it made them of the
        slide this one was moved from, moved as it was (when that one warned of nothing: a warning
        names its line)."""
        if slide.kind == "agenda":  # made anew at every build, from the parts' titles: kept by its value
            found = self.old.get(("agenda", slide))
            if found is not None:
                self.new["agenda", slide] = found
            return found
        found = self.get(slide)
        if found is not None:
            return found  # type: ignore[no-any-return]
        moved = _moved_slides.get(self.key[0], {}).get(id(slide))
        was = self._was((moved[1], moved[2]) if moved is not None and moved[0] is slide else None)
        if was is None or was[0][0]:
            return None
        (_, parts), lines = was
        value = ((), tuple(_moved(part, lines) for part in parts))
        self.put(slide, value)
        return value

    def keep_fitted(self, slide: Slide, value: tuple[tuple[str, ...], tuple[Slide, ...]]) -> None:
        """Keep a slide's fitted parts and warnings for the next build (``fitted``)."""
        if slide.kind == "agenda":
            self.new["agenda", slide] = value
        else:
            self.put(slide, value)

    def close(self) -> None:
        """Keep this build's entries for the next (the least recently built tables let go first);
        nothing for a note closed meanwhile."""
        if not incremental.tracked(self.key[0]):
            return
        with _lock:
            incremental.newest(_kept, self.key, self.new, KEPT)


#: per open note, the slides its last base decks moved (``Table.made``), for the fit (``Table.fitted``)
_moved_slides: OrderedDict[str, dict[int, tuple[Slide, Slide, int]]] = OrderedDict()


_FIELDS = tuple(field.name for field in fields(Slide))
_set = object.__setattr__


def _moved(slide: Slide, lines: int) -> Slide:
    """The slide, ``lines`` further down the note (a copy field by field: over twice as fast as
    ``dataclasses.replace``, for every slide below a line typed)."""
    if not slide.line:
        return slide
    copy = object.__new__(Slide)
    for name in _FIELDS:
        _set(copy, name, getattr(slide, name))
    _set(copy, "line", slide.line + lines)
    return copy


def table(path: str, *what: Any) -> Table | None:
    """The kept table of ``what`` for the note at ``path``; None when the editor does not have it open.
    A new table of a note's sections starts its moved slides over."""
    if not incremental.tracked(path):
        return None
    if what[:2] == ("sections", True):  # the base deck with notes, which lint's decks are built from
        with _lock:
            incremental.newest(_moved_slides, path, {})
    return Table((path, what))


def forget(path: str) -> None:
    """Let a closed note's tables go."""
    with _lock:
        for key in [key for key in _kept if key[0] == path]:
            del _kept[key]
        _moved_slides.pop(path, None)


def refits(slide: Slide) -> bool:
    """Whether a slide is made and fitted again at every build: it shows a picture, a video or a
    diagram (a diagram's fence is drawn, or shown as code, by the tools installed now)."""
    for entry in slide.content:
        if type(entry) is SlideText:
            if "![" in entry.text or entry.kind in ("image", "diagram", "missing-image"):
                return True
            if entry.kind == "code" and entry.info and language(entry.info) is not None:
                return True
        elif type(entry) is SlideItem and "![" in entry.full:
            return True
    return False


incremental.on_forget(forget)
