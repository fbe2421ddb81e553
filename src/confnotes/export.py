"""The outline's public serialisations: JSON (stable, versioned schema), a terminal tree, bare Markdown, OPML.

Every one of them walks a node's ordered ``content``, so blocks and lists come out in the
author's order.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from confnotes.markup.escape import strict_json, terminal_safe, xml_attr, xml_safe
from confnotes.model import UNPRINTED, Block, Document, Entry, List, Node, Span
from confnotes.model.values import BodyLine, Callout, Code, Diagram, Directives, Math, Pictures, Quote, Table, Value
from confnotes.parse.markdown import plain_text
from confnotes.parse.recover import talk_speakers

SCHEMA = "confnotes.outline/2"
PARAGRAPH_BREAK = "\n\n"


def _span(span: Span | None) -> list[int] | None:
    return None if span is None else [span.start, span.end]


def block_dict(block: Block) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": block.kind, "text": block.text, "span": _span(block.span)}
    if block.info:
        data["info"] = block.info
    if block.value is not None:
        data["value"] = value_dict(block.value)
    return data


def value_dict(value: Value) -> dict[str, Any]:
    """A block's typed value (docs/outline-json.md, "Typed blocks"): what ``parse`` read the block
    as, without repeating its text (a table's cells, code's language, a callout's kind)."""
    if type(value) is Table:
        return {"type": "table", "header": list(value.header), "rows": [list(row) for row in value.rows], "aligns": list(value.aligns)}
    if type(value) is Code:
        return {"type": "code", "language": value.language, "attributes": value.attributes}
    if type(value) is Diagram:
        return {"type": "diagram", "tool": value.tool}
    if type(value) is Math:
        return {"type": "math", "tex": value.tex}
    if type(value) is Quote:
        return {"type": "quote", "lines": [_line(line) for line in value.lines]}
    if type(value) is Callout:
        body = [_line(line) for line in value.body.lines] if value.body is not None else []
        return {"type": "callout", "callout": value.kind, "title": value.title, "fold": value.fold, "written": value.written, "lines": body}
    if type(value) is Directives:
        return {
            "type": "slide",
            "classes": list(value.classes),
            "background": value.background,
            "hide": value.hide,
            "layout": value.layout,
            "incremental": value.incremental,
            "notes": value.notes,
            "problems": list(value.problems),
        }
    assert type(value) is Pictures
    return {"type": "pictures", "pictures": [{"src": one.src, "alt": one.alt, "title": one.title} for one in value.pictures]}


def _line(line: BodyLine) -> dict[str, Any]:
    return {"text": line.text, "marker": line.marker, "level": line.level}


def list_dict(lst: List) -> dict[str, Any]:
    return {
        "kind": "list",
        "ordered": lst.ordered,
        "start": lst.start,
        "marker": lst.marker,
        "tight": lst.tight,
        "origin": lst.origin,
        "span": _span(lst.span),
        "items": [node_dict(item) for item in lst.items],
    }


def entry_dict(entry: Entry) -> dict[str, Any]:
    if type(entry) is Block:
        return block_dict(entry)
    if type(entry) is List:
        return list_dict(entry)
    return node_dict(entry)  # type: ignore[arg-type]


def node_dict(node: Node) -> dict[str, Any]:
    return {
        "kind": node.kind,
        "origin": node.origin,
        "level": node.level,
        "title": node.title,
        "plain_title": plain_text(node.title),
        "label": node.label,
        "text": node.text,
        "number": node.number,
        "delimiter": node.delimiter,
        "marker": node.marker,
        "speakers": list(talk_speakers(node)),
        "span": _span(node.span),
        "col": node.col,
        "content": [entry_dict(entry) for entry in node.content],
    }


def to_dict(doc: Document) -> dict[str, Any]:
    meta = doc.meta
    return {
        "schema": SCHEMA,
        "path": doc.path,
        "meta": {
            "title": meta.title,
            "plain_title": meta.plain_title,
            "title_origin": meta.title_origin,
            "title_span": _span(meta.title_span),
            "title_level": meta.title_level,
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
        "content": [entry_dict(entry) for entry in doc.content],
        "breaks": [_span(block.span) for block in doc.breaks],
        "directives": [block_dict(block) for block in doc.directives],
        "recovered": list(doc.recovered),
        "line_count": doc.line_count,
    }


#: Stands for a node's children while the rest of it is encoded (``json_chunks``).
_CHILDREN = "\x00children\x00"


def json_chunks(doc: Document, *, compact: bool = False, path: str | None = None) -> Iterator[str]:
    """The outline's JSON piece by piece, the same text byte for byte as one dump of ``to_dict``:
    with an indent of 2 (``outline --format json``), or ``compact`` with keys sorted (the site's
    ``outline.json``, where ``path`` names the note's place in the site). A node's own fields are
    encoded with its children left out, and the children follow one by one, so a note of half a
    million items never holds its whole outline as dictionaries, nor the JSON as one string."""
    whole = to_dict(replace(doc, content=()))
    whole["content"] = _CHILDREN
    if path is not None:
        whole["path"] = path
    if compact:
        yield from _compact_chunks(whole, doc.content)
    else:
        yield from _chunks(whole, doc.content, "")


def _node_shell(node: Node) -> dict[str, Any]:
    """``node_dict`` of ``node`` with its content left to be written child by child."""
    data = node_dict(replace(node, content=()))
    data["speakers"] = list(talk_speakers(node))  # read from the content the shell leaves out
    data["content"] = _CHILDREN
    return data


def _compact_chunks(shell: dict[str, Any], children: tuple[Any, ...]) -> Iterator[str]:
    """``shell`` as ``strict_json(sort_keys=True, compact=True)`` writes it, its children one by one."""
    head, _, tail = strict_json(shell, sort_keys=True, compact=True, default=str).partition(strict_json(_CHILDREN))
    yield head + "["
    for index, child in enumerate(children):
        if index:
            yield ","
        if type(child) is Block:
            yield strict_json(block_dict(child), sort_keys=True, compact=True, default=str)
        elif type(child) is List:
            data = list_dict(replace(child, items=()))
            data["items"] = _CHILDREN
            yield from _compact_chunks(data, child.items)
        else:
            data = _node_shell(child)
            yield from _compact_chunks(data, child.content)
    yield "]" + tail


def _chunks(shell: dict[str, Any], children: tuple[Any, ...], margin: str) -> Iterator[str]:
    """``shell`` (whose one ``_CHILDREN`` value stands for ``children``) as JSON indented by
    ``margin``, its children written one after another as ``json.dumps(indent=2)`` writes them."""
    head, _, tail = strict_json(shell, indent=2, default=str).replace("\n", "\n" + margin).partition(strict_json(_CHILDREN))
    if not children:
        yield head + "[]" + tail
        return
    inner = margin + "    "  # the list's items stand two levels below the node's key
    yield head + "[\n"
    for index, child in enumerate(children):
        yield inner if index == 0 else ",\n" + inner
        if type(child) is Block:
            yield strict_json(block_dict(child), indent=2, default=str).replace("\n", "\n" + inner)
        elif type(child) is List:
            data = list_dict(replace(child, items=()))
            data["items"] = _CHILDREN
            yield from _chunks(data, child.items, inner)
        else:
            data = _node_shell(child)
            yield from _chunks(data, child.content, inner)
    yield "\n" + margin + "  ]" + tail


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


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def _blocks_line(blocks: list[Block], depth: int, color: bool) -> str:
    """A run of blocks between lists, in one line: ``· 2 paragraphs, code (sh)  :7``."""
    import click

    counts: dict[str, int] = {}
    for block in blocks:
        what = "speaker note" if block.kind == "note" else block.kind
        if block.kind == "code" and block.info:
            what += f" ({terminal_safe(block.info.split()[0], one_line=True)})"
        counts[what] = counts.get(what, 0) + 1
    parts = [what if count == 1 else f"{count} {what}s" for what, count in counts.items()]
    line = "  " * depth + f"· {', '.join(parts)}  :{blocks[0].span.start}"
    return click.style(line, dim=True) if color else line


def to_tree(doc: Document, color: bool = False) -> str:
    """An indented outline for a terminal, in source order: sections, items and blocks (``·`` lines)."""
    import click

    out: list[str] = []
    meta = doc.meta
    shown = terminal_safe(meta.title, one_line=True)
    title = click.style(shown, bold=True) if color else shown
    facts = [f"title from {meta.title_origin}"]
    if meta.source_name:
        facts.append(f"source {terminal_safe(meta.source_name, one_line=True)}")
    if meta.kind != "notes":
        facts.append(meta.kind)
    out.append(f"{title}  ({', '.join(facts)})")
    for label, value in (("event", meta.event), ("date", meta.date), ("speakers", ", ".join(meta.speakers))):
        if value:
            out.append(f"  {label}: {terminal_safe(value, one_line=True)}")

    # (entry, depth) pairs, depth-first in source order, without recursion
    stack: list[tuple[Entry, int]] = [(entry, 1) for entry in reversed(doc.content)]
    run: list[Block] = []
    while stack:
        entry, depth = stack.pop()
        if type(entry) is Block:
            if entry.kind != "reference":
                run.append(entry)
            if not stack or type(stack[-1][0]) is not Block or stack[-1][1] != depth:
                if run:
                    out.append(_blocks_line(run, depth, color))
                run = []
            continue
        if type(entry) is List:
            stack.extend((item, depth) for item in reversed(entry.items))
            continue
        node: Node = entry  # type: ignore[assignment]
        extras = []
        if node.is_section:
            if node.points:
                extras.append(_plural(len(node.points), "point"))
            if node.bullets:
                extras.append(_plural(len(node.bullets), "bullet"))
        line = "  " * depth + ("#" * node.level + " " if node.is_section else "") + terminal_safe(_node_head(node), one_line=True)
        if color and node.is_section:
            line = click.style(line, bold=True)
        suffix = f"  [{'; '.join(extras)}]" if extras else ""
        out.append(f"{line}{suffix}  :{node.span.start}")
        stack.extend((child, depth + 1) for child in reversed(node.content))
    out.append(f"{_plural(len(doc.sections), 'section')}, {_plural(doc.line_count, 'line')}")
    return "\n".join(out) + "\n"


def to_outline_markdown(doc: Document) -> str:
    """The bare heading and list outline, without blocks or notes; each list as written. Sub-items
    are indented to their parent's text (three spaces under ``1.``), so CommonMark reads the same tree."""
    out = [f"# {_one_line(doc.meta.title)}", ""]
    stack: list[tuple[Entry, str]] = [(entry, "") for entry in reversed(doc.content)]
    while stack:
        entry, indent = stack.pop()
        if type(entry) is Block:
            continue
        if type(entry) is List:
            if not indent and out and out[-1] != "":
                out.append("")  # a list of its own, not merged with the one before
            stack.extend((item, indent) for item in reversed(entry.items))
            continue
        node: Node = entry  # type: ignore[assignment]
        if node.is_section:
            if out and out[-1] != "":
                out.append("")
            out.append("#" * min(6, max(2, node.level)) + " " + _one_line(node.title))
            out.append("")
            stack.extend((child, "") for child in reversed(node.content))
            continue
        marker = f"{node.number}{node.delimiter}" if node.number is not None else "-"
        out.append(indent + f"{marker} {_one_line(node.title)}".rstrip())
        inner = indent + " " * (len(marker) + 1)
        stack.extend((child, inner) for child in reversed(node.content) if type(child) is not Block)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _printable(entry: Entry) -> bool:
    return type(entry) is not Block or (entry.kind not in UNPRINTED and entry.kind != "reference")


def _paragraph_outline(block: Block, depth: int) -> str:
    """A paragraph's words as ``text``; its Markdown in ``_markdown`` when that says more (bold, links)."""
    plain = plain_text(block.text)
    attrs = f'text={xml_attr(plain)} _kind="paragraph"'
    if _one_line(block.text) != plain:
        attrs += f" _markdown={xml_attr(block.text)}"
    return f"{'  ' * depth}<outline {attrs}/>"


def _opml_lede(content: tuple[Entry, ...], depth: int) -> list[str]:
    """The document's own content: its blocks as outlines where they stand, then its sections."""
    lines: list[str] = []
    for entry in content:
        if type(entry) is Block:
            if not _printable(entry):
                continue
            if entry.kind == "paragraph":
                lines.append(_paragraph_outline(entry, depth))
            else:
                lines.append(f'{"  " * depth}<outline text="" _note={xml_attr(entry.text)} _kind="block"/>')
        elif type(entry) is List:
            for item in entry.items:
                lines += _opml_node(item, depth)
        else:
            lines += _opml_node(entry, depth)  # type: ignore[arg-type]
    return lines


def _opml_node(node: Node, depth: int) -> list[str]:
    """One section or item: its ``_note`` (what stands before its first list), then its lists' items,
    sub-sections and later paragraphs and blocks as child outlines, in their order."""
    note: list[str] = []
    inner: list[str] = []
    before_lists = True
    for entry in node.content:
        if type(entry) is Block:
            if not _printable(entry):
                continue
            if before_lists:
                note.append(entry.text)
            elif entry.kind == "paragraph":
                inner.append(_paragraph_outline(entry, depth + 1))
            else:  # code, a table, a quote or math after a list: an outline of its own, where it stands
                inner.append(f'{"  " * (depth + 1)}<outline text="" _note={xml_attr(entry.text)} _kind="block"/>')
        elif type(entry) is List:
            before_lists = False
            for item in entry.items:
                inner += _opml_node(item, depth + 1)
        else:
            before_lists = False
            inner += _opml_node(entry, depth + 1)  # type: ignore[arg-type]
    attrs = f"text={xml_attr(plain_text(node.title))}"
    if node.is_section:
        attrs += f' _kind="section" _level="{node.level}"'
    elif node.number is not None:
        attrs += f" _number={xml_attr(f'{node.number}{node.delimiter}')}"
    if note:
        attrs += f" _note={xml_attr(PARAGRAPH_BREAK.join(note))}"
    pad = "  " * depth
    if not inner:
        return [f"{pad}<outline {attrs}/>"]
    return [f"{pad}<outline {attrs}>", *inner, f"{pad}</outline>"]


def to_opml(doc: Document) -> str:
    """OPML 2.0: sections and items as nested outlines whose ``text`` is the node's own text (no list
    marker or number, no emphasis marks; a label stays as written). What stands under a node before
    its first list is its ``_note``; a paragraph, code, a table, a quote or math after a list becomes
    an outline of its own, where it stands (an outline with a note and no text). Attributes
    outliners ignore say what each outline was (``_kind``, a section's ``_level``, a point's
    ``_number``, a paragraph's ``_markdown``), so ``confnotes import`` gives back the same outline."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<opml version="2.0">',
        "  <head>",
        f"    <title>{_xml_text(doc.meta.title)}</title>",
        "  </head>",
        "  <body>",
        *_opml_lede(doc.content, 2),
        "  </body>",
        "</opml>",
    ]
    return "\n".join(out) + "\n"


def _xml_text(text: str) -> str:
    return xml_safe(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: ``outline --format``: each format's writer, given the document and whether the output is a terminal.
#: ``outline --format``: each writes the outline as pieces of text (JSON streams; the others are one piece).
OUTLINE_FORMATS: dict[str, Callable[[Document, bool], Iterable[str]]] = {
    "tree": lambda doc, terminal: (to_tree(doc, color=terminal),),
    "json": lambda doc, _terminal: itertools.chain(json_chunks(doc), ("\n",)),
    "markdown": lambda doc, _terminal: (to_outline_markdown(doc),),
    "opml": lambda doc, _terminal: (to_opml(doc),),
}
