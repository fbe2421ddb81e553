"""How a note is loaded: the one place every command turns a path (or text) and its config into a Document."""

from __future__ import annotations

from typing import NamedTuple

from confnotes.config import Config, find_config
from confnotes.edges.source import Source, read_source
from confnotes.model import Document
from confnotes.parse import ParseOptions, parse


def parse_options(config: Config) -> ParseOptions:
    """What the config says about reading notes (``infer_headings``, ``note_lines``, …)."""
    return ParseOptions(
        max_heading_length=config.max_heading_length,
        infer_headings=config.infer_headings,
        note_lines=config.note_lines,
        lang=config.lang or "en",
        fmt=config.fmt,
    )


def read_text(text: str, path: str, config: Config) -> Document:
    """The outline of ``text`` (a note's text, or fmt's and --fix's output) as ``config`` reads it."""
    return parse(text, path, parse_options(config))


class LoadedNote(NamedTuple):
    """A note as every command sees it: its source, the config that applies, its outline."""

    source: Source
    config: Config
    doc: Document

    @property
    def options(self) -> ParseOptions:
        return parse_options(self.config)


def open_note(path: str, config: Config | None = None) -> tuple[Source, Config]:
    """Read ``path`` (``-`` for standard input) and find its config (upward unless given), not
    yet parsed: for ``fmt``, which parses the text itself and lets go of each outline in turn.

    Raises ``NotesError`` for a note or config confnotes cannot read.
    """
    config = config if config is not None else find_config(path)
    return read_source(path), config


def load_note(path: str, config: Config | None = None) -> LoadedNote:
    """Read ``path`` (``-`` for standard input) with its config (found upward unless given).

    Raises ``NotesError`` for a note or config confnotes cannot read.
    """
    source, config = open_note(path, config)
    return LoadedNote(source, config, read_text(source.text, source.path, config))
