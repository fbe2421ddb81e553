"""Each block's typed value (``confnotes.model.values``), read once from its source while parsing.

This is the one place structure inside a block is recognised: a table's cells, a fence's language
and lines, a diagram, a display formula, a quote's lines, a callout, a paragraph of pictures.
Outputs, the fit engine and lint rules read the values; a layer test holds that nothing outside
``parse`` calls these readers on a block's text.
"""

from __future__ import annotations

import re

from confnotes.model.values import Code, Diagram, Math, Picture, Pictures, Table, Value
from confnotes.parse.directives import read as read_directives

#: A pipe table's delimiter row (``|:--|:-:|--:|``).
_DELIMITER_ROW = re.compile(r"\s*\|?[\s:|-]+\|?\s*")
_FENCE = re.compile(r"\s*(`{3,}|~{3,})")
#: An image reference: ``![alt](src "title")`` — alt, src (``<>`` removed: between them an address
#: may hold spaces, ``![x](<Screen Shot.png>)``, as CommonMark reads it) and the title part; the
#: one pattern parse, the fit engine and every output that places a picture itself read it with
IMAGE_REF = re.compile(r'!\[((?:[^\]\\]|\\.)*)\]\(\s*<?((?<=<)[^<>\n]*|(?<!<)[^)\s>]*)>?((?:\s+"[^"]*")?)\s*\)')


def table_rows(text: str) -> list[list[str]]:
    """A pipe table's rows of cell texts (the delimiter row removed; an escaped pipe stays in its cell)."""
    rows = []
    for index, line in enumerate(text.strip().split("\n")):
        if index == 1 and _DELIMITER_ROW.fullmatch(line):
            continue
        core = line.strip()
        core = core[1:] if core.startswith("|") else core
        core = core[:-1] if core.endswith("|") and not core.endswith("\\|") else core
        rows.append([cell.strip() for cell in re.split(r"(?<!\\)\|", core)])
    return rows


def table_alignments(text: str) -> list[str]:
    """Each column's alignment as the delimiter row says it (``:--`` left, ``:-:`` centre, ``--:``
    right, ``---`` ``""``: the output's own)."""
    lines = text.strip().split("\n")
    if len(lines) < 2 or not _DELIMITER_ROW.fullmatch(lines[1]):
        return []
    out = []
    for cell in lines[1].strip().strip("|").split("|"):
        cell = cell.strip()
        left, right = cell.startswith(":"), cell.endswith(":")
        out.append("center" if left and right else "right" if right else "left" if left else "")
    return out


def table_value(text: str) -> Table:
    rows = table_rows(text)
    header = tuple(rows[0]) if rows else ()
    return Table(header, tuple(tuple(row) for row in rows[1:]), tuple(table_alignments(text)))


def code_lines(text: str) -> list[str]:
    """The lines of a code block's source (fences and indentation of indented code removed, tabs
    expanded to 4)."""
    lines = text.split("\n")
    opener = _FENCE.match(lines[0]) if lines else None
    if opener:
        fence = opener.group(1)
        lines = lines[1:]
        if lines and re.fullmatch(rf"\s*{fence[0]}{{{len(fence)},}}\s*", lines[-1]):
            lines = lines[:-1]
    elif all(line.startswith("    ") or not line.strip() for line in lines):
        lines = [line[4:] for line in lines]
    return [line.expandtabs(4) for line in lines] or [""]


def code_value(text: str, info: str) -> Code | Diagram:
    """A code block's value: a ``Diagram`` where its language names a drawing tool, else ``Code``."""
    from confnotes.markup.diagrams import language

    words = info.strip().split(None, 1)
    code = Code(words[0] if words else "", words[1] if len(words) > 1 else "", tuple(code_lines(text)))
    tool = language(info)
    return Diagram(tool, code) if tool is not None else code


def pictures_value(text: str) -> Pictures:
    """The pictures of a paragraph that holds only pictures."""
    return Pictures(tuple(Picture(src, alt, title.strip().strip('"')) for alt, src, title in IMAGE_REF.findall(text)))


def value_of(kind: str, text: str, info: str = "") -> Value | None:
    """The typed value of a block of ``kind`` with source ``text`` (and info string), where the kind
    has structure; ``None`` for paragraphs and the rest."""
    if kind == "code":
        return code_value(text, info)
    if kind == "table":
        return table_value(text)
    if kind == "quote":
        from confnotes.markup.callouts import quote_value

        return quote_value(text)
    if kind == "math":
        from confnotes.markup.math import display_tex

        tex = display_tex(text)
        return Math(tex) if tex is not None else None
    if kind == "image":
        return pictures_value(text)
    if kind == "comment" and info == "slide":
        return read_directives(text)
    if kind == "div" and info.startswith("callout-"):
        from confnotes.markup.callouts import div_callout

        return div_callout(info, text)
    return None
