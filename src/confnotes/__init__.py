"""confnotes: conference notes to outlines, lint findings, documents and decks."""

from __future__ import annotations

__version__ = "0.2.0"
