"""Renderers, one module per output format (``formats.FORMATS``); each takes a Document (or builds a Deck)
and returns text or bytes. None re-parses notes."""

from __future__ import annotations

from confnotes.render.formats import render_note

__all__ = ["render_note"]
