"""The optional parts of confnotes and the one way a command asks for one.

``pip install confnotes`` gives lint, fmt, outline, time, new, import, HTML, PDF and the decks (the
HTML deck, the slides PDF, the handout, Marp and the slide outline). The rest comes with an extra,
each named by what it is for; ``pip install 'confnotes[all]'`` gives everything. A command that
needs a missing one says which to install, in one line, and exits 2 (``require``); a note that only
*uses* one (citations without ``[cite]``) is rendered with a warning instead (``missing``).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.util import find_spec
from types import ModuleType

from confnotes.errors import ErrorKind, NotesError


@dataclass(frozen=True)
class Extra:
    name: str
    modules: tuple[str, ...]  # importable names, each from one distribution below
    distributions: tuple[str, ...]
    gives: str


#: every extra, in the order ``doctor`` and the README list them
EXTRAS: tuple[Extra, ...] = (
    Extra("office", ("pptx", "docx", "olefile"), ("python-pptx", "python-docx", "olefile"), "render --to pptx and --to docx"),
    Extra("schedule", ("icalendar",), ("icalendar",), "calendar (.ics) schedules, and each session's .ics in a built site"),
    Extra("cite", ("citeproc",), ("citeproc-py",), "[@key] citations and their references"),
    Extra("pictures", ("pypdfium2",), ("pypdfium2",), "render --to png"),
    Extra("video", ("av",), ("av",), "videos' first frames as their posters in PDF, PNG and PPTX"),
    Extra("serve", ("watchfiles", "segno"), ("watchfiles", "segno"), "serve: the live preview"),
    Extra("lsp", ("pygls", "lsprotocol"), ("pygls", "lsprotocol"), "lsp: the language server for editors"),
)
_OF_MODULE = {module: extra for extra in EXTRAS for module in extra.modules}


def available(module: str) -> bool:
    """Whether ``module`` can be imported (found, not loaded: asking costs no start-up)."""
    try:
        return find_spec(module) is not None
    except (ImportError, ValueError):  # a module set to None in sys.modules, or a broken parent
        return False


def missing(module: str, what: str) -> str | None:
    """One line saying ``what`` needs the extra that provides ``module`` and how to install it; None
    when the module is here."""
    if available(module):
        return None
    extra = _OF_MODULE[module]
    distribution = extra.distributions[extra.modules.index(module)]
    return f"{what} needs the '{extra.name}' extra ({distribution} is not installed): pip install 'confnotes[{extra.name}]'"


def require(module: str, what: str) -> ModuleType:
    """``module`` imported, or a usage error (exit 2) naming the extra that provides it."""
    line = missing(module, what)
    if line is not None:
        raise NotesError(line, kind=ErrorKind.USAGE)
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:  # found but broken (a missing library of its own)
        raise NotesError(f"{what}: {module} cannot be loaded ({exc})", kind=ErrorKind.USAGE) from None
