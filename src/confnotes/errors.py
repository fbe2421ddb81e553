"""NotesError: the one error type a user ever sees, rendered as one line."""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum

_PLACE = re.compile(r"\A(\d+:\d+): ")


class ErrorKind(StrEnum):
    INPUT = "input"
    CONFIG = "config"
    RENDER = "render"
    USAGE = "usage"


class NotesError(Exception):
    """A problem with the user's input, config or output, reported as ``path:line:col: message``."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        col: int | None = None,
        kind: ErrorKind = ErrorKind.INPUT,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.col = col
        self.kind = kind

    def __str__(self) -> str:
        where = [str(part) for part in (self.path, self.line, self.col) if part is not None]
        if where:
            return ":".join(where) + ": " + self.message
        return self.message


def input_error(message: str, path: str | None = None, line: int | None = None, col: int | None = None) -> NotesError:
    return NotesError(message, path=path, line=line, col=col, kind=ErrorKind.INPUT)


def config_error(message: str, path: str | None = None, line: int | None = None, col: int | None = None) -> NotesError:
    return NotesError(message, path=path, line=line, col=col, kind=ErrorKind.CONFIG)


def render_error(message: str, path: str | None = None) -> NotesError:
    return NotesError(message, path=path, kind=ErrorKind.RENDER)


def closest(word: str, names: Iterable[str]) -> str | None:
    """The name closest to a mistyped ``word`` (``slide`` → ``slides``), or None when none is close:
    difflib's ratio, as click suggests commands, so every "did you mean" of confnotes agrees."""
    from difflib import get_close_matches

    by_folded = {name.casefold(): name for name in names}
    found = get_close_matches(word.casefold(), list(by_folded), n=1)
    return by_folded[found[0]] if found else None


def placed(line: int | None, message: str) -> str:
    """A warning about one place of a note (a slide's line): ``12:1: message``, which ``warn``
    prints as ``path:12:1: warning: message``, as lint prints findings; without a line, as is."""
    return f"{line}:1: {message}" if line else message


def place_of(message: str) -> tuple[str, str]:
    """A warning's place in its note (``"12:1"``, or ``""``) and its words (``placed``)."""
    found = _PLACE.match(message)
    return (found.group(1), message[found.end() :]) if found else ("", message)
