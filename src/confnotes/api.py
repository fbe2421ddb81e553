"""The public Python API: read a note, lint it, format it, build its deck, render it.

The names are not those of confnotes' modules (``confnotes.lint`` is a package), so
``confnotes.lint_note`` stays the function whatever else a program imports.

Each function calls what the command line calls (``confnotes.load``, ``confnotes.check``,
``confnotes.fmt``, ``confnotes.slides``, ``confnotes.render``), with the config found from the
note's path, so a script gets what ``confnotes`` prints. Errors are ``NotesError``; render
warnings are Python warnings of the class ``RenderWarning``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from confnotes.config import Config
    from confnotes.lint.types import Finding
    from confnotes.model import Document
    from confnotes.slides import Deck

STRING = "<string>"


class RenderWarning(UserWarning):
    """Something a render left out or could not show (a missing image, a glyph with no font)."""


def _config(path: str, config: Config | None) -> Config:
    from confnotes.config import Config, find_config

    if config is not None:
        return config
    return find_config(path) if path != STRING and os.path.exists(path) else Config()


def read_note(path: str | os.PathLike[str]) -> Document:
    """The outline of the note at ``path``, read with its config (found upward from its folder)."""
    from confnotes.load import load_note

    return load_note(os.fspath(path)).doc


def parse_text(text: str, path: str = STRING, config: Config | None = None) -> Document:
    """The outline of ``text``; ``path`` names it in messages (and finds its config if it exists)."""
    from confnotes.load import read_text

    return read_text(text, path, _config(path, config))


def lint_note(
    path: str | os.PathLike[str] = STRING,
    text: str | None = None,
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    profile: str | None = None,
) -> list[Finding]:
    """Findings for the note at ``path`` (as ``read_note`` takes a path), or for ``text`` as if it
    were saved at ``path``: every rule the config and ``select``/``ignore`` turn on, inline
    disables applied."""
    from confnotes.check import Checker, LintRequest
    from confnotes.edges.source import Source, read_source

    request = LintRequest(
        select=None if select is None else tuple(select), ignore=None if ignore is None else tuple(ignore), profile=profile
    )
    checker = Checker(request)
    path = os.fspath(path)
    source = read_source(path) if text is None else Source(path, text)
    return checker.check(source, _config(path, None))[1]


def format_text(text: str, path: str = STRING) -> str:
    """``text`` as ``confnotes fmt`` writes it; raises ``NotesError`` where fmt refuses (the result
    would not read back as the same outline)."""
    from confnotes import fmt
    from confnotes.load import parse_options

    return fmt.format_text(text, path, parse_options(_config(path, None)))


def build_deck(doc: Document, **slides: Any) -> Deck:
    """The deck every slide output renders: the note's slide settings (config < front matter), then
    ``slides`` (``max_items=5``, ``notes=False``, …), limits applied and every slide fitted."""
    from confnotes.edges.source import note_folder
    from confnotes.slides import DeckOptions, Decks, slide_settings

    settings = slide_settings(_config(doc.path, None).slides, doc).overridden(**slides)
    return Decks(doc).get(DeckOptions.from_settings(settings, note_folder(doc.path)))


def render_note(doc: Document, to: str = "html", output: str | os.PathLike[str] | None = None, **options: Any) -> str | bytes:
    """``doc`` as format ``to`` (html, pdf, slides, slides-pdf, handout, marp, pptx, outline): text
    for text formats, bytes for PDF and PPTX. ``options`` are ``render``'s (``theme="dark"``,
    ``max_items=5``, ``paper="letter"``, …); ``output`` is where the result will be written (Marp
    links images relative to it). Nothing is written: the caller decides where the bytes go."""
    import warnings

    from confnotes.edges.source import note_folder
    from confnotes.render.formats import render_note
    from confnotes.render.options import RenderOverrides, resolve_render_options

    resolved = resolve_render_options(_config(doc.path, None), doc, RenderOverrides(**options))
    base_dir = note_folder(doc.path) or Path.cwd()
    data, problems = render_note(doc, to, resolved, base_dir, None if output is None else os.fspath(output))
    for message in problems:
        warnings.warn(message, RenderWarning, stacklevel=2)
    return data
