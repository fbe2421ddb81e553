"""The slides package. Outline to Deck: the slide model every slide output (HTML deck, PDF, handout, Marp, PPTX, outline) shares.

Mapping: a title slide (with the lede's opening text); the lede's lists on a slide of
their own; an agenda of the sections; per section with points a divider, the section's
opening text, and one slide per point; a section without points becomes one slide; a
reading-list entry is one slide with its annotation. A slide's ``content`` keeps the
source order: bullets (``SlideItem``) and blocks (``SlideText``) stand where the author put
them, and text that follows a point stays on that point's slide. Slides with more than
``max_items`` items or ``max_words`` words are split between entries into "(cont.)" slides.

Modules, in the order data flows: ``options`` (limits from slide settings), ``model`` (slides and
the deck), ``build`` (outline to slides), ``split`` (the limits), ``fit`` (measured against the box,
with ``widths`` and ``geometry``). Importing the package loads neither the fit engine nor the
font tables; ``build_deck`` loads them when a deck is fitted.
"""

from __future__ import annotations

from confnotes.slides.build import Decks, base_slides, build_deck
from confnotes.slides.model import Deck, Slide, SlideEntry, SlideItem, SlideText, entry_words, is_image, is_lead_in, slide_words
from confnotes.slides.options import DEFAULT_MAX_ITEMS, DEFAULT_MAX_WORDS, UNLIMITED, DeckOptions, slide_settings

__all__ = [
    "DEFAULT_MAX_ITEMS",
    "DEFAULT_MAX_WORDS",
    "UNLIMITED",
    "Deck",
    "DeckOptions",
    "Decks",
    "Slide",
    "SlideEntry",
    "SlideItem",
    "SlideText",
    "base_slides",
    "build_deck",
    "entry_words",
    "is_image",
    "is_lead_in",
    "slide_settings",
    "slide_words",
]
