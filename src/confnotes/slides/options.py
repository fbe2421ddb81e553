"""The deck's options: limits, agenda, notes and fitting, from a note's slide settings."""

from __future__ import annotations

import os
from dataclasses import dataclass

from confnotes.config.settings import SlideSettings
from confnotes.errors import NotesError, input_error
from confnotes.model import Document

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
    max_slides: int = SlideSettings().max_slides  # slides in one deck: the rest of the note is summed up on one last slide
    max_code_lines: int = SlideSettings().max_code_lines  # lines of a code block on slides (split over slides by the fit)

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
            max_slides=settings.max_slides,
            max_code_lines=settings.max_code_lines,
        )


def slide_settings(configured: SlideSettings, doc: Document) -> SlideSettings:
    """The one merge of slide settings: the config's, then the note's own front matter ``slides:``
    (checked like the config's). Render, lint, ``time`` and ``build`` all read a note's slide settings here."""
    value = doc.meta.extra.get("slides")
    if value is None:
        return configured
    from confnotes.parse.meta import front_matter_line

    line = front_matter_line(doc, "slides")
    if not isinstance(value, dict):
        raise input_error("front matter 'slides' must be a mapping", doc.path, line, 1)
    try:
        return configured.merged(value, "slides.", doc.path)
    except NotesError as error:  # a bad value: said at the note's ``slides:`` line, as every note error is
        if error.line is not None or line is None:
            raise
        raise input_error(error.message, doc.path, line, 1) from None
