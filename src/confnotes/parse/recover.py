"""Recovering structure from notes pasted out of a chat window, Docs or Word.

Each function is one rule of DESIGN.md's "Recovering pasted notes"; all are pure and
work on single lines or short strings, so the builder stays linear.
"""

from __future__ import annotations

import re

#: Characters that start a bullet when followed by a space.
BULLET_GLYPHS = "•◦▪▫‣⁃●○■□➢➤–—"
_GLYPH_LINE = re.compile(r"^([ \t]*)([" + BULLET_GLYPHS + r"])[ \t]+(\S.*)?$")
_GLYPH_EMPTY = re.compile(r"^([ \t]*)([" + BULLET_GLYPHS + r"])[ \t]*$")
_FILENAME = re.compile(
    r"^[\w][\w .@()+-]*\.(?:md|markdown|mdown|txt|text|docx?|odt|rtf|pdf|html?|pages|key|pptx?)$",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^([^:\s`\[\]()<>*_][^:`\[\]<>\n]{0,58}?):(?:[ \t]+|$)", re.MULTILINE)
_NOTE_PARAGRAPH = re.compile(r"^(?:speaker[ -]?)?notes?:(?:\s|$)", re.IGNORECASE)
_EMPHASIS = re.compile(r"\*\*(?P<a>[^*\n]+?)\*\*|__(?P<b>[^_\n]+?)__|\*(?P<c>[^*\n]+?)\*|_(?P<d>[^_\n]+?)_")
_HEADING_END = ".,;:"
DEFAULT_MAX_HEADING = 100


def tab_width(text: str) -> int:
    """Column width of leading whitespace, tabs to multiples of 4 as CommonMark counts them."""
    width = 0
    for char in text:
        if char == " ":
            width += 1
        elif char == "\t":
            width += 4 - width % 4
        else:
            break
    return width


_GLYPH_SET = frozenset(BULLET_GLYPHS)


def glyph_bullet(line: str) -> tuple[int, str, str] | None:
    """``(indent, glyph, text)`` when ``line`` is a pasted bullet such as ``   • Design…``."""
    stripped = line.lstrip(" \t")
    if not stripped or stripped[0] not in _GLYPH_SET:
        return None  # the common case, decided without a regex
    match = _GLYPH_LINE.match(line)
    if match is None:
        match = _GLYPH_EMPTY.match(line)
        if match is None:
            return None
        return tab_width(match.group(1)), match.group(2), ""
    return tab_width(match.group(1)), match.group(2), (match.group(3) or "").rstrip()


def is_glyph_line(line: str) -> bool:
    stripped = line.lstrip(" \t")
    return bool(stripped) and stripped[0] in _GLYPH_SET and glyph_bullet(line) is not None


def is_filename_line(text: str) -> bool:
    """A lone line that is just a file name, like ``scale2025.md``."""
    return "\n" not in text and len(text) <= 120 and _FILENAME.match(text.strip()) is not None


def is_note_paragraph(text: str) -> bool:
    """``Note: …`` / ``Notes: …`` / ``Speaker notes: …`` paragraphs are speaker notes."""
    return _NOTE_PARAGRAPH.match(text) is not None


def is_heading_candidate(text: str, max_length: int = DEFAULT_MAX_HEADING) -> bool:
    """One short line that does not end like a sentence or a lead-in."""
    stripped = text.strip()
    if not stripped or "\n" in stripped or len(stripped) > max_length:
        return False
    if stripped[-1] in _HEADING_END:
        return False
    if is_glyph_line(stripped) or is_note_paragraph(stripped) or is_filename_line(stripped):
        return False
    if stripped.startswith(("![", "<", "|", "http://", "https://")):
        return False
    return any(char.isalpha() for char in stripped)


def split_label(title: str) -> str | None:
    """The ``Label`` of ``Label: text`` (or of a label-only ``Label:``), if the title has one."""
    if ":" not in title:
        return None
    match = _LABEL.match(title)
    if match is None:
        return None
    label = match.group(1).rstrip()
    if not label or len(label.split()) > 6 or "://" in title[: match.end() + 2]:
        return None
    return label


def lede_title(text: str) -> str | None:
    """The emphasised phrase of a lede line that ends in ``:``."""
    stripped = text.strip()
    if not stripped.endswith(":"):
        return None
    match = _EMPHASIS.search(stripped)
    if match is None:
        return None
    phrase = next(group for group in match.groups() if group is not None).strip()
    return phrase or None
