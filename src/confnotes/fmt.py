"""Outline to canonical Markdown, in the author's order: ``#`` title, ``##`` sections, lists as written.

Text is never rewritten: titles, blocks and point numbers go out as written, and every
section's blocks and lists go out in source order. Recovered structure becomes real
Markdown (pasted bullets become ``-`` lists, bare-line headings ``##`` headings) and
recovered meta (a title found in the lede, a file-name line) moves into front matter.
The result must parse back to the same *ordered* outline — blocks, list boundaries and
numbers included — or ``format_markdown`` refuses it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from confnotes.errors import NotesError
from confnotes.model import Block, Document, Entry, List, Node

if TYPE_CHECKING:
    from confnotes.parse import ParseOptions

_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
#: Blocks that Markdown would merge into a list item's title if written right below it.
_PARAGRAPH_LIKE = frozenset(("paragraph", "image", "note", "comment", "html", "reference"))


@dataclass
class _Context:
    """Where the writer is: output lines and the lint directives still to place."""

    out: list[str] = field(default_factory=list)
    directives: list[Block] = field(default_factory=list)
    title: tuple[str, int, int] | None = None  # (text, level, line) of a title heading still to write

    def title_before(self, line: int) -> None:
        """Write the title heading where the author put it: before the first entry below its line."""
        if self.title is not None and line > self.title[2]:
            text, level, title_line = self.title
            self.title = None
            self.directives_before(title_line, "")
            _emit_heading(self, text, level)

    def blank(self) -> None:
        if self.out and self.out[-1] != "":
            self.out.append("")

    def text(self, text: str, indent: str = "") -> None:
        for line in text.split("\n"):
            self.out.append(indent + line if line.strip() else "")

    def directives_before(self, line: int, indent: str) -> None:
        while self.directives and self.directives[0].span.start < line:
            self.blank()
            self.text(self.directives.pop(0).text, indent)
            self.blank()


def _front_matter(doc: Document) -> list[str]:
    meta = doc.meta
    existing = meta.front_matter
    added: list[str] = []
    keys = set(re.findall(r"^([A-Za-z_][\w-]*)\s*:", existing or "", re.MULTILINE))
    if meta.title_origin == "lede" and "title" not in keys:
        added.append(f"title: {json.dumps(meta.title, ensure_ascii=False)}")
    if meta.source_name_span is not None and "source_name" not in keys:
        added.append(f"source_name: {json.dumps(meta.source_name, ensure_ascii=False)}")
    if existing is None and not added:
        return []
    body = [line.rstrip() for line in (existing or "").strip("\n").split("\n")] if existing and existing.strip() else []
    return ["---", *body, *added, "---"]


def _emit_block(ctx: _Context, block: Block, indent: str) -> None:
    ctx.directives_before(block.span.start, indent)
    ctx.blank()
    ctx.text(block.text, indent)


def _loose(lst: List) -> bool:
    """Written with blank lines between items: as the author did, or where an item holds a paragraph."""
    return not lst.tight or any(type(entry) is Block and entry.kind in _PARAGRAPH_LIKE for item in lst.items for entry in item.content)


def _bullet_markers(content: tuple[Entry, ...]) -> dict[int, str]:
    """``-`` for every bullet list, but ``*`` for one that directly follows another (so they stay two)."""
    markers: dict[int, str] = {}
    previous: Entry | None = None
    for entry in content:
        if type(entry) is List and not entry.ordered:
            follows = isinstance(previous, List) and not previous.ordered
            markers[id(entry)] = "*" if follows and markers.get(id(previous)) == "-" else "-"
        previous = entry
    return markers


def _emit_content(ctx: _Context, content: tuple[Entry, ...], indent: str, tight: bool = False) -> None:
    markers = _bullet_markers(content)
    for entry in content:
        if not indent:
            ctx.title_before(entry.span.start)
        if type(entry) is Block:
            _emit_block(ctx, entry, indent)
        elif type(entry) is List:
            if not tight:
                ctx.blank()
            _emit_list(ctx, entry, indent, markers.get(id(entry), "-"))
        else:
            _emit_section(ctx, entry)  # type: ignore[arg-type]


def _emit_list(ctx: _Context, lst: List, indent: str, bullet: str) -> None:
    if lst.origin == "bold":
        _emit_bold_points(ctx, lst, indent)
        return
    loose = _loose(lst)
    for index, item in enumerate(lst.items):
        if loose and index:
            ctx.blank()
        _emit_item(ctx, item, indent, bullet, loose)


def _emit_bold_points(ctx: _Context, lst: List, indent: str) -> None:
    """``**1. Why Rust?**`` lines stay as the author wrote them, each with the list below it."""
    for item in lst.items:
        ctx.directives_before(item.span.start, indent)
        ctx.blank()
        ctx.out.append(f"{indent}**{item.number}{item.delimiter} {item.title}**")
        _emit_content(ctx, item.content, indent, tight=True)


def _emit_item(ctx: _Context, node: Node, indent: str, bullet: str, loose: bool) -> None:
    ctx.directives_before(node.span.start, indent)
    marker = f"{node.number}{node.delimiter}" if node.number is not None else bullet
    inner = indent + " " * (len(marker) + 1)
    title_lines = node.title.split("\n") if node.title else [""]
    ctx.out.append(f"{indent}{marker} {title_lines[0]}".rstrip())
    for line in title_lines[1:]:
        ctx.out.append(inner + line)
    _emit_content(ctx, node.content, inner, tight=not loose)


def _emit_heading(ctx: _Context, title: str, level: int) -> None:
    ctx.blank()
    level = max(1, min(6, level))
    if "\n" in title and level <= 2:
        ctx.text(title)
        ctx.out.append("=" * 3 if level == 1 else "-" * 3)
    else:
        ctx.out.append("#" * level + " " + " ".join(title.split()))


def _emit_section(ctx: _Context, node: Node) -> None:
    ctx.directives_before(node.span.start, "")
    _emit_heading(ctx, node.title, node.level)
    _emit_content(ctx, node.content, "")


def render_markdown(doc: Document) -> str:
    """Write the canonical Markdown of ``doc`` (no round-trip check; see ``format_markdown``)."""
    ctx = _Context(directives=list(doc.directives))
    ctx.out.extend(_front_matter(doc))
    meta = doc.meta
    if meta.title_origin in ("heading", "inferred") and meta.title_span:
        ctx.title = (meta.title, meta.title_level, meta.title_span.start)
    _emit_content(ctx, doc.content, "")
    ctx.title_before(10**12)
    ctx.directives_before(10**12, "")
    while ctx.out and ctx.out[0] == "":
        ctx.out.pop(0)
    while ctx.out and ctx.out[-1] == "":
        ctx.out.pop()
    return "\n".join(ctx.out) + "\n" if ctx.out else ""


def _norm(text: str | None) -> str | None:
    if text is None:
        return None
    return " ".join(_ESCAPE.sub(r"\1", text).split())


def _content_signature(content: tuple[Entry, ...]) -> tuple[object, ...]:
    out: list[object] = []
    for entry in content:
        if type(entry) is Block:
            out.append((entry.kind, _norm(entry.text)))
        elif type(entry) is List:
            out.append(("list", entry.ordered, entry.start, tuple(_node_signature(item) for item in entry.items)))
        else:
            out.append(_node_signature(entry))  # type: ignore[arg-type]
    return tuple(out)


def _node_signature(node: Node) -> tuple[object, ...]:
    return (node.kind, _norm(node.title), node.number, _norm(node.label), _content_signature(node.content))


def outline_signature(doc: Document) -> tuple[object, ...]:
    """What fmt must preserve: the title, the source name and the whole ordered content — every
    block, list (its boundaries and numbers) and node, in source order."""
    meta = doc.meta
    return (_norm(meta.title), meta.source_name, _content_signature(doc.lede), _content_signature(doc.sections))


def iter_differences(before: tuple[object, ...], after: tuple[object, ...]) -> Iterator[str]:
    names = ("title", "source name", "lede", "sections and items")
    for name, left, right in zip(names, before, after, strict=True):
        if left != right:
            yield name


def format_markdown(doc: Document, options: ParseOptions | None = None, source: str | None = None) -> str:
    """Canonical Markdown for ``doc``; raises ``NotesError`` if it would not read back the same
    (read with ``options``, the parse options ``doc`` was read with). ``source``: the text ``doc``
    was read from; when the result is that very text (an already formatted note, the common case
    of ``fmt --check``), it reads back as ``doc`` by definition and is not parsed again."""
    from confnotes.parse import parse

    text = render_markdown(doc)
    if source is not None and text == source:
        return text
    again = parse(text, doc.path, options)
    if outline_signature(again) != outline_signature(doc):
        changed = ", ".join(iter_differences(outline_signature(doc), outline_signature(again)))
        raise NotesError(f"fmt cannot write this note without changing its outline ({changed}); left as is", path=doc.path)
    return text
