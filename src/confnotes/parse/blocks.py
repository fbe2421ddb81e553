"""Top-level blocks of the token stream, and tokens to ``Block``s (paragraph, code, quote, table, …)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from confnotes.model import Block, Span
from confnotes.parse import recover
from confnotes.parse.directives import SLIDE_COMMENT
from confnotes.parse.lines import after_close, span_of, verbatim
from confnotes.parse.values import IMAGE_REF, value_of

_DIRECTIVE = re.compile(r"^\s*<!--\s*confnotes-")
_COMMENT = re.compile(r"^\s*<!--")
_NOTES_COMMENT = re.compile(r"^\s*<!--\s*(?:speaker[ -]?)?notes?\s*:", re.IGNORECASE)
#: a paragraph of nothing but image references (the one pattern of them, ``values.IMAGE_REF``)
_IMAGES_ONLY = re.compile(rf"^\s*(?:{IMAGE_REF.pattern}\s*)+$")


@dataclass(slots=True)
class Top:
    """One top-level block of the token stream: tokens ``[start, stop)``, source lines ``[a, b)``."""

    kind: str
    start: int
    stop: int
    a: int
    b: int
    content: str = ""
    level: int = 0
    markup: str = ""
    role: str = ""  # heading, filename, bold-point, group (a bold line over a list), glyph; "" for text
    lead: bool = False  # plain lines split off the front of a paragraph of pasted bullets


def split_top(tokens: list[Any], lines: list[str]) -> list[Top]:
    """Group the token stream into top-level blocks, in source order.

    Source lines that no token covers (link reference definitions, which markdown-it
    consumes silently) become ``reference`` blocks so nothing is lost.
    """
    blocks: list[Top] = []
    index = 0
    total = len(tokens)
    covered = 0

    def gap(until: int) -> None:
        first = next((i for i in range(covered, until) if lines[i].strip()), None)
        if first is not None:
            blocks.append(Top("reference", -1, -1, first, until))

    while index < total:
        token = tokens[index]
        stop = after_close(tokens, index)
        a, b = token.map if token.map else (covered, covered)
        kind = token.type.removesuffix("_open")
        if kind == "container_notes" and b < len(lines) and lines[b].strip().startswith(":::"):
            b += 1
        if a > covered:
            gap(a)
        top = Top(kind, index, stop, a, b, markup=token.markup)
        if kind in ("paragraph", "heading"):
            top.content = tokens[index + 1].content
            top.level = int(token.tag[1]) if kind == "heading" else 0
        elif kind == "html_block":
            top.content = token.content
        blocks.append(top)
        covered = max(covered, b)
        index = stop
    if covered < len(lines):
        gap(len(lines))
    return blocks


def is_image_only(content: str) -> bool:
    """A paragraph that is only images (``![alt](src)``), judged from its raw inline text."""
    return _IMAGES_ONLY.match(content) is not None


def paragraph_block(text: str, span: Span, note_lines: bool, content: str | None = None) -> Block:
    """A paragraph's block (``text`` verbatim, ``content`` its inline text when known): a speaker
    note only where the config opts in to ``Note:`` lines."""
    judged = text.strip() if content is None else content
    if note_lines and recover.is_note_paragraph(judged):
        return Block("note", text, span, "paragraph")
    if is_image_only(judged):
        return typed("image", text, span)
    return Block("paragraph", text, span)


def typed(kind: str, text: str, span: Span, info: str = "") -> Block:
    """A block with the typed value ``parse.values`` reads from its text."""
    return Block(kind, text, span, info, value_of(kind, text, info))


#: token types that are one kind of block each, and nothing more to read
_SIMPLE = {"math_block": "math", "blockquote": "quote", "table": "table", "heading": "heading", "hr": "break"}


def make_block(lines: list[str], tokens: list[Any], start: int, kind: str, note_lines: bool, strip: int = 0, first_col: int = 0) -> Block:
    """The ``Block`` of the token at ``start`` (of type ``kind``, without ``_open``), text verbatim."""
    token = tokens[start]
    a, b = token.map
    if kind == "container_notes" and b < len(lines) and lines[b].strip().startswith(":::"):
        b += 1
    text = verbatim(lines, a, b, strip, first_col)
    span = span_of(lines, a, b)
    if kind in ("fence", "code_block"):
        return typed("code", text, span, token.info.strip() if kind == "fence" else "")
    if kind == "html_block":
        if _DIRECTIVE.match(token.content):
            return Block("directive", text, span)
        if _NOTES_COMMENT.match(token.content):
            return Block("note", text, span, "comment")
        if _COMMENT.match(token.content):
            return typed("comment", text, span, "slide") if SLIDE_COMMENT.match(token.content) else Block("comment", text, span)
        return Block("html", text, span)
    if kind == "container_notes":
        return Block("note", text, span, "container")
    if kind == "div_fence":
        return typed("div", text, span, token.info)
    if kind in _SIMPLE:
        return typed(_SIMPLE[kind], text, span)
    if kind == "footnote_reference":
        return Block("footnote", text, span, str(token.meta.get("label", "")))
    if kind == "paragraph":
        return paragraph_block(text, span, note_lines, tokens[start + 1].content)
    return Block("html", text, span)
