"""The unsplit deck that slide-fitness rules measure, the fitted deck and the talk's timing (each built
once per note: the decks in the note's ``Decks``, the timing cached on the context)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from confnotes.lint.types import LintContext
from confnotes.slides import UNLIMITED, Deck, DeckOptions, Decks, slide_settings
from confnotes.source import note_folder

if TYPE_CHECKING:
    from confnotes.timing import Timing

UNSPLIT = DeckOptions(max_items=UNLIMITED, max_words=UNLIMITED, agenda=False, fit=False)


def _decks(ctx: LintContext) -> Decks:
    """The note's decks: a build's (shared with the formats it renders), else this run's own."""
    decks: Decks | None = ctx.settings.get("decks")
    if decks is None or decks.doc is not ctx.doc:
        decks = ctx.settings["decks"] = Decks(ctx.doc)
    return decks


def unsplit_deck(ctx: LintContext) -> Deck:
    return _decks(ctx).get(UNSPLIT)


def slide_limits(ctx: LintContext) -> dict[str, Any]:
    limits: dict[str, Any] = ctx.settings.get("slides", {})
    return limits


def fitted_deck(ctx: LintContext) -> Deck:
    """The deck as every deck output renders it (limits, then the fit engine), built once per note."""
    settings = slide_settings(slide_limits(ctx), ctx.doc)
    return _decks(ctx).get(DeckOptions.from_mapping(settings, note_folder(ctx.doc.path)))


def talk_timing(ctx: LintContext) -> Timing:
    """The talk's estimate as ``confnotes time`` prints it (the deck as rendered, the note's pace),
    built once per note and shared by the timing rules."""
    cache = ctx.settings.setdefault("_cache", {})
    if "timing" not in cache:
        from confnotes.timing import pace, plan

        settings = slide_settings(slide_limits(ctx), ctx.doc)
        wpm, seconds = pace(settings, where=ctx.doc.path)
        cache["timing"] = plan(ctx.doc, fitted_deck(ctx), wpm, seconds)
    timing: Timing = cache["timing"]
    return timing
