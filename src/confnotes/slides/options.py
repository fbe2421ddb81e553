"""The deck's options: limits, agenda, notes and fitting, from a note's slide settings."""

from __future__ import annotations

import os
from dataclasses import dataclass

from confnotes.errors import NotesError
from confnotes.model import Document
from confnotes.settings import SlideSettings

DEFAULT_MAX_ITEMS = SlideSettings().max_items
DEFAULT_MAX_WORDS = SlideSettings().max_words
UNLIMITED = 10**9


@dataclass(frozen=True, slots=True)
class DeckOptions:
    max_items: int = DEFAULT_MAX_ITEMS
    max_words: int = DEFAULT_MAX_WORDS
    agenda: bool | None = None  # None: an agenda for talk notes, none for a reading list
    notes: bool = True  # False: decks without speaker notes (config slides.notes), e.g. to publish them
    fit: bool = True  # measure every slide against its box (slides.fit): shrink, then split
    image_root: str | None = None  # the note's folder: images not found there are not measured as images

    @classmethod
    def from_settings(cls, settings: SlideSettings, image_root: str | os.PathLike[str] | None = None) -> DeckOptions:
        """Deck options from a note's slide settings (``slide_settings``); ``image_root``: the note's
        folder, so images that will not show are measured as the text in their place, as renderers show them."""
        return cls(
            max_items=settings.max_items,
            max_words=settings.max_words,
            agenda=settings.agenda,
            notes=settings.notes,
            image_root=None if image_root is None else os.fspath(image_root),
        )


def slide_settings(configured: SlideSettings, doc: Document) -> SlideSettings:
    """The one merge of slide settings: the config's, then the note's own front matter ``slides:``
    (checked like the config's). Render, lint, ``time`` and ``build`` all read a note's slide settings here."""
    value = doc.meta.extra.get("slides")
    if value is None:
        return configured
    if not isinstance(value, dict):
        raise NotesError("front matter 'slides' must be a mapping", path=doc.path)
    return configured.merged(value, "slides.", doc.path)
