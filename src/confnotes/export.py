"""The outline's public serialisations: JSON (stable schema), a terminal tree, bare Markdown, OPML."""

from __future__ import annotations

import json
from typing import Any

from confnotes.model import Block, Document, Node, Span

SCHEMA = "confnotes.outline/1"


def _span(span: Span | None) -> list[int] | None:
    return None if span is None else [span.start, span.end]


def block_dict(block: Block) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": block.kind, "text": block.text, "span": _span(block.span)}
    if block.info:
        data["info"] = block.info
    return data


def node_dict(node: Node) -> dict[str, Any]:
    return {
        "kind": node.kind,
        "origin": node.origin,
        "level": node.level,
        "title": node.title,
        "label": node.label,
        "text": node.text,
        "number": node.number,
        "delimiter": node.delimiter,
        "marker": node.marker,
        "span": _span(node.span),
        "col": node.col,
        "body": [block_dict(block) for block in node.body],
        "notes": [block_dict(block) for block in node.notes],
        "children": [node_dict(child) for child in node.children],
    }


def to_dict(doc: Document) -> dict[str, Any]:
    meta = doc.meta
    return {
        "schema": SCHEMA,
        "path": doc.path,
        "meta": {
            "title": meta.title,
            "title_origin": meta.title_origin,
            "title_span": _span(meta.title_span),
            "event": meta.event,
            "date": meta.date,
            "speakers": list(meta.speakers),
            "tags": list(meta.tags),
            "lang": meta.lang,
            "kind": meta.kind,
            "source_name": meta.source_name,
            "source_name_span": _span(meta.source_name_span),
            "front_matter": meta.front_matter,
            "extra": meta.extra,
        },
        "lede": [block_dict(block) for block in doc.lede],
        "notes": [block_dict(block) for block in doc.notes],
        "nodes": [node_dict(node) for node in doc.nodes],
        "breaks": [_span(span) for span in doc.breaks],
        "directives": [block_dict(block) for block in doc.directives],
        "recovered": list(doc.recovered),
        "line_count": doc.line_count,
    }


def to_json(doc: Document, indent: int | None = 2) -> str:
    return json.dumps(to_dict(doc), ensure_ascii=False, indent=indent, default=str)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _node_head(node: Node) -> str:
    if node.is_section:
        return _one_line(node.title)
    prefix = f"{node.number}{node.delimiter} " if node.number is not None else "- "
    if node.label is not None:
        rest = _one_line(node.text)
        return prefix + f"[{node.label}]" + (f" {rest}" if rest else "")
    return prefix + _one_line(node.title)


def to_tree(doc: Document, color: bool = False) -> str:
    """An indented outline for a terminal, with counts."""
    import click

    out: list[str] = []
    meta = doc.meta
    title = click.style(meta.title, bold=True) if color else meta.title
    facts = [f"title from {meta.title_origin}"]
    if meta.source_name:
        facts.append(f"source {meta.source_name}")
    if meta.kind != "notes":
        facts.append(meta.kind)
    out.append(f"{title}  ({', '.join(facts)})")
    for label, value in (("event", meta.event), ("date", meta.date), ("speakers", ", ".join(meta.speakers))):
        if value:
            out.append(f"  {label}: {value}")
    if doc.lede:
        out.append(f"  lede: {len(doc.lede)} block(s)")

    def visit(node: Node, depth: int) -> None:
        head = _node_head(node)
        extras = []
        points = sum(1 for child in node.children if child.is_point)
        bullets = sum(1 for child in node.children if child.is_bullet)
        if node.is_section:
            if points:
                extras.append(f"{points} point{'s' if points != 1 else ''}")
            if bullets:
                extras.append(f"{bullets} bullet{'s' if bullets != 1 else ''}")
        if node.body:
            kinds = [block.kind for block in node.body]
            extras.append(", ".join(f"{kinds.count(k)} {k}" for k in dict.fromkeys(kinds)))
        if node.notes:
            extras.append(f"{len(node.notes)} note(s)")
        line = "  " * depth + ("#" * node.level + " " if node.is_section else "") + head
        if color and node.is_section:
            line = click.style(line, bold=True)
        suffix = f"  [{'; '.join(extras)}]" if extras else ""
        out.append(f"{line}{suffix}  :{node.span.start}")
        for child in node.children:
            visit(child, depth + 1)

    for node in doc.nodes:
        visit(node, 1)
    sections = sum(1 for node in doc.nodes if node.is_section)
    out.append(f"{sections} section(s), {doc.line_count} line(s)")
    return "\n".join(out) + "\n"


def to_outline_markdown(doc: Document) -> str:
    """The bare heading and bullet outline, without bodies or notes."""
    out = [f"# {_one_line(doc.meta.title)}", ""]

    def visit(node: Node, depth: int, item_depth: int) -> None:
        if node.is_section:
            if out and out[-1] != "":
                out.append("")
            out.append("#" * min(6, max(2, node.level)) + " " + _one_line(node.title))
            out.append("")
            for child in node.children:
                visit(child, depth + 1, 0)
            return
        marker = f"{node.number}." if node.number is not None else "-"
        out.append("  " * item_depth + f"{marker} {_one_line(node.title)}".rstrip())
        for child in node.children:
            visit(child, depth + 1, item_depth + 1)

    for node in doc.nodes:
        visit(node, 0, 0)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def to_opml(doc: Document) -> str:
    """OPML 2.0: sections and items as nested outlines; bodies in ``_note`` attributes."""
    from xml.sax.saxutils import quoteattr

    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<opml version="2.0">',
        "  <head>",
        f"    <title>{_xml_text(doc.meta.title)}</title>",
        "  </head>",
        "  <body>",
    ]

    def visit(node: Node, depth: int) -> None:
        pad = "  " * depth
        attrs = f"text={quoteattr(_one_line(_node_head(node) if not node.is_section else node.title))}"
        note = "\n\n".join(block.text for block in node.body)
        if note:
            attrs += f" _note={quoteattr(note)}"
        if node.children:
            out.append(f"{pad}<outline {attrs}>")
            for child in node.children:
                visit(child, depth + 1)
            out.append(f"{pad}</outline>")
        else:
            out.append(f"{pad}<outline {attrs}/>")

    for node in doc.nodes:
        visit(node, 2)
    out += ["  </body>", "</opml>"]
    return "\n".join(out) + "\n"


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
