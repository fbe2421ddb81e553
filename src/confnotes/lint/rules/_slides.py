"""The unsplit deck that slide-fitness rules measure (built once per note and cached on the context)."""

from __future__ import annotations

from typing import Any

from confnotes.lint.types import LintContext
from confnotes.slides import UNLIMITED, Deck, DeckOptions, build_deck

UNSPLIT = DeckOptions(max_items=UNLIMITED, max_words=UNLIMITED, agenda=False)


def unsplit_deck(ctx: LintContext) -> Deck:
    cache = ctx.settings.setdefault("_cache", {})
    if "deck" not in cache:
        cache["deck"] = build_deck(ctx.doc, UNSPLIT)
    deck: Deck = cache["deck"]
    return deck


def slide_limits(ctx: LintContext) -> dict[str, Any]:
    limits: dict[str, Any] = ctx.settings.get("slides", {})
    return limits
