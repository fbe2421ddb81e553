"""Outline to canonical Markdown: ``#`` title, ``##`` sections, ordered points, ``-`` bullets.

Text is never rewritten: titles, bodies and point numbers go out as written. Recovered
meta (a title found in the lede, a file-name line) moves into front matter. The result
must parse back to the same outline, or ``format_markdown`` refuses it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from confnotes.errors import NotesError
from confnotes.model import Block, Document, Node

_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


@dataclass
class _Context:
    """Where the writer is: output lines and the lint directives still to place."""

    out: list[str] = field(default_factory=list)
    directives: list[Block] = field(default_factory=list)

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


def _loose(siblings: tuple[Node, ...]) -> bool:
    return any(node.body or node.notes or (node.is_point and node.children) for node in siblings)


def _emit_item(ctx: _Context, node: Node, indent: str, loose: bool) -> None:
    ctx.directives_before(node.span.start, indent)
    marker = f"{node.number}{node.delimiter}" if node.number is not None else "-"
    inner = indent + " " * (len(marker) + 1)
    if loose:
        ctx.blank()
    title_lines = node.title.split("\n") if node.title else [""]
    ctx.out.append(f"{indent}{marker} {title_lines[0]}".rstrip())
    for line in title_lines[1:]:
        ctx.out.append(inner + line)
    for block in (*node.body, *node.notes):
        _emit_block(ctx, block, inner)
    if node.children:
        items = node.children
        if node.body or node.notes or items[0].is_point:
            ctx.blank()
        child_loose = _loose(items)
        for child in items:
            _emit_item(ctx, child, inner, child_loose)
    if node.body or node.notes:
        ctx.blank()


def _emit_section(ctx: _Context, node: Node) -> None:
    ctx.directives_before(node.span.start, "")
    ctx.blank()
    level = max(1, min(6, node.level))
    if "\n" in node.title and level <= 2:
        ctx.text(node.title)
        ctx.out.append("=" * 3 if level == 1 else "-" * 3)
    else:
        ctx.out.append("#" * level + " " + " ".join(node.title.split()))
    for block in (*node.body, *node.notes):
        _emit_block(ctx, block, "")
    _emit_children(ctx, node.children)


def _emit_children(ctx: _Context, children: tuple[Node, ...]) -> None:
    run: list[Node] = []

    def flush() -> None:
        if run:
            ctx.blank()
            loose = _loose(tuple(run))
            for item in run:
                _emit_item(ctx, item, "", loose)
            run.clear()

    for child in children:
        if child.is_section:
            flush()
            _emit_section(ctx, child)
        else:
            run.append(child)
    flush()


def render_markdown(doc: Document) -> str:
    """Write the canonical Markdown of ``doc`` (no round-trip check; see ``format_markdown``)."""
    ctx = _Context(directives=list(doc.directives))
    ctx.out.extend(_front_matter(doc))
    if doc.meta.title_origin in ("heading", "inferred"):
        ctx.directives_before(doc.meta.title_span.start if doc.meta.title_span else 1, "")
        ctx.blank()
        ctx.out.append("# " + " ".join(doc.meta.title.split()))
    for block in (*doc.lede, *doc.notes):
        _emit_block(ctx, block, "")
    _emit_children(ctx, doc.nodes)
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


def _block_signature(block: Block) -> tuple[str, str | None]:
    return (block.kind, _norm(block.text))


def _node_signature(node: Node) -> tuple[object, ...]:
    return (
        node.kind,
        _norm(node.title),
        node.number,
        _norm(node.label),
        tuple(_block_signature(block) for block in node.body),
        tuple(_block_signature(block) for block in node.notes),
        tuple(_node_signature(child) for child in node.children),
    )


def outline_signature(doc: Document) -> tuple[object, ...]:
    """What fmt must preserve: title, meta, lede and every node's title, number, label, body and notes."""
    meta = doc.meta
    return (
        _norm(meta.title),
        meta.source_name,
        tuple(_block_signature(block) for block in doc.lede),
        tuple(_block_signature(block) for block in doc.notes),
        tuple(_node_signature(node) for node in doc.nodes),
    )


def iter_differences(before: tuple[object, ...], after: tuple[object, ...]) -> Iterator[str]:
    names = ("title", "source name", "lede", "notes", "sections and items")
    for name, left, right in zip(names, before, after, strict=True):
        if left != right:
            yield name


def format_markdown(doc: Document) -> str:
    """Canonical Markdown for ``doc``; raises ``NotesError`` if it would not read back the same."""
    from confnotes.parse import parse

    text = render_markdown(doc)
    again = parse(text, doc.path)
    if outline_signature(again) != outline_signature(doc):
        changed = ", ".join(iter_differences(outline_signature(doc), outline_signature(again)))
        raise NotesError(f"fmt cannot write this note without changing its outline ({changed}); left as is",
                         path=doc.path)
    return text
