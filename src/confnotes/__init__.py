"""confnotes: conference notes to outlines, lint findings, documents and decks.

The public API (documented in docs/api.md)::

    import confnotes

    doc = confnotes.read_note("talk.md")       # the outline, read with the note's config
    findings = confnotes.lint_note("talk.md")  # what `confnotes lint talk.md` reports
    text = confnotes.format_text(source)       # what `confnotes fmt` writes
    deck = confnotes.build_deck(doc)           # the fitted deck every slide format renders
    html = confnotes.render_note(doc, "html")  # a document or deck, as text or bytes

Names load on first use, so ``import confnotes`` stays as light as the command line needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from confnotes._version import __version__

__all__ = [
    "Deck",
    "Document",
    "Finding",
    "NotesError",
    "RenderWarning",
    "__version__",
    "build_deck",
    "format_text",
    "lint_note",
    "read_note",
    "parse_text",
    "render_note",
]

_WHERE = {
    "Deck": "confnotes.slides",
    "Document": "confnotes.model",
    "Finding": "confnotes.lint.types",
    "NotesError": "confnotes.errors",
    "RenderWarning": "confnotes.api",
    "build_deck": "confnotes.api",
    "format_text": "confnotes.api",
    "lint_note": "confnotes.api",
    "read_note": "confnotes.api",
    "parse_text": "confnotes.api",
    "render_note": "confnotes.api",
}

if TYPE_CHECKING:
    from confnotes.api import RenderWarning, build_deck, format_text, lint_note, parse_text, read_note, render_note
    from confnotes.errors import NotesError
    from confnotes.lint.types import Finding
    from confnotes.model import Document
    from confnotes.slides import Deck


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})  # help(confnotes) and completion see the lazy names


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        from importlib import import_module

        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'confnotes' has no attribute {name!r}")
