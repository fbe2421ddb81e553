"""Emphasis markers: which a text uses (``*``/``_`` for emphasis, ``**``/``__`` for strong) and the
text with them changed — only the delimiter characters, and only where the change reads back as
the very same inline structure (``foo*bar*`` cannot become ``foo_bar_``: that is no emphasis)."""

from __future__ import annotations

from typing import Any, NamedTuple

#: token types of emphasis and their width in characters
_DELIMITERS = {"em_open": 1, "em_close": 1, "strong_open": 2, "strong_close": 2}


class Marks(NamedTuple):
    """The emphasis and strong markers one text uses, each ``*`` or ``_``."""

    emphasis: frozenset[str]
    strong: frozenset[str]


NO_MARKS = Marks(frozenset(), frozenset())


def _tokens(text: str) -> list[Any]:
    from confnotes.parse.markdown import delimiter_parser

    found = delimiter_parser().parseInline(text)
    return list(found[0].children or []) if found else []


def _may_have_emphasis(text: str) -> bool:
    return "*" in text or "_" in text


def marks_of(text: str) -> Marks:
    """The markers ``text``'s emphasis and strong emphasis are written with."""
    if not _may_have_emphasis(text):
        return NO_MARKS
    used = marks_in(text)
    return Marks(frozenset(mark for kind, mark in used if kind == "em"), frozenset(mark for kind, mark in used if kind == "strong"))


def marks_in(text: str) -> list[tuple[str, str]]:
    """Each emphasis (``em``) and strong emphasis (``strong``) of ``text``, in order, with its marker."""
    if not _may_have_emphasis(text):
        return []
    return [(token.type[:-5], token.markup[0]) for token in _tokens(text) if token.type in ("em_open", "strong_open")]


def _positions(token: Any) -> range:
    """The source characters of one delimiter token (a strong token is the inner of its pair)."""
    pos = int(token.meta["pos"])
    if token.type == "strong_open":
        return range(pos - 1, pos + 1)
    return range(pos, pos + _DELIMITERS[token.type])


def _shape(tokens: list[Any]) -> list[tuple[object, ...]]:
    """The inline structure, delimiters' markers left out: what a restyle must keep."""
    out: list[tuple[object, ...]] = []
    for token in tokens:
        markup = "" if token.type in _DELIMITERS else token.markup
        out.append((token.type, token.content, markup, tuple(sorted(token.attrs.items())), tuple(_shape(token.children or []))))
    return out


def _pairs(tokens: list[Any]) -> list[tuple[Any, Any]]:
    """Each emphasis or strong opener with its closer, outermost last."""
    pairs: list[tuple[Any, Any]] = []
    openers: list[Any] = []
    for token in tokens:
        if token.type in ("em_open", "strong_open"):
            openers.append(token)
        elif token.type in ("em_close", "strong_close") and openers:
            pairs.append((openers.pop(), token))
    return pairs


def restyle(text: str, emphasis: str, strong: str) -> str:
    """``text`` with its emphasis written with ``emphasis`` and its strong emphasis with ``strong``
    (each ``*`` or ``_``); a pair of markers that would then read differently stays as written."""
    if not _may_have_emphasis(text):
        return text
    tokens = _tokens(text)
    shape = _shape(tokens)
    chars = list(text)
    for pair in _pairs(tokens):
        if not all("pos" in token.meta for token in pair):
            continue
        wanted = strong if pair[0].type == "strong_open" else emphasis
        trial = list(chars)
        for token in pair:
            for index in _positions(token):
                trial[index] = wanted
        if trial != chars and _shape(_tokens("".join(trial))) == shape:
            chars = trial
    return "".join(chars)
