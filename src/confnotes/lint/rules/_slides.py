"""The unsplit deck that slide-fitness rules measure and the fitted deck, each built once per note
(in the note's ``Decks``, which a build shares with the formats it renders)."""

from __future__ import annotations

from confnotes.lint.types import LintContext
from confnotes.slides import UNLIMITED, Deck, DeckOptions
from confnotes.source import note_folder

UNSPLIT = DeckOptions(max_items=UNLIMITED, max_words=UNLIMITED, agenda=False, fit=False)


def unsplit_deck(ctx: LintContext) -> Deck:
    return ctx.decks.get(UNSPLIT)


def fitted_deck(ctx: LintContext) -> Deck:
    """The deck as every deck output renders it (limits, then the fit engine), built once per note."""
    return ctx.decks.get(DeckOptions.from_settings(ctx.slides, note_folder(ctx.doc.path)))
