"""Outliners' OPML (Workflowy, Dynalist, Logseq, OmniOutliner, confnotes itself) to the block stream.

The XML is read with defusedxml: a document type, entity declarations and external references
are refused, so a few hundred bytes cannot expand into gigabytes and nothing is fetched.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from confnotes.errors import input_error
from confnotes.importers.blocks import Imported, Item, Note, Para, Run

#: Outlines nested deeper than this are kept, as siblings at this depth.
MAX_DEPTH = 32
_INLINE_HTML = re.compile(r"<(?:b|i|u|s|em|strong|a|span|code|br|mark)\b[^>]*>", re.I)


class _InlineHTML(HTMLParser):
    """Workflowy writes bold, italic and links inside ``text`` as HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.runs: list[Run] = []
        self.bold = self.italic = self.code = 0
        self.links: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("b", "strong"):
            self.bold += 1
        elif tag in ("i", "em"):
            self.italic += 1
        elif tag == "code":
            self.code += 1
        elif tag == "a":
            self.links.append(dict(attrs).get("href"))
        elif tag == "br":
            self.runs.append(Run("\n"))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("b", "strong"):
            self.bold = max(0, self.bold - 1)
        elif tag in ("i", "em"):
            self.italic = max(0, self.italic - 1)
        elif tag == "code":
            self.code = max(0, self.code - 1)
        elif tag == "a" and self.links:
            self.links.pop()

    def handle_data(self, data: str) -> None:
        link = self.links[-1] if self.links else None
        self.runs.append(Run(data, self.bold > 0, self.italic > 0, self.code > 0, link))


def text_runs(text: str) -> tuple[Run, ...]:
    """An outline's ``text``: HTML-formatted (Workflowy) or Markdown (Dynalist, Logseq, confnotes)."""
    if _INLINE_HTML.search(text):
        parser = _InlineHTML()
        parser.feed(text)
        parser.close()
        return tuple(parser.runs)
    return (Run(text, raw=True),)


def note_text(note: str) -> str:
    """An outline's ``_note`` as Markdown: Workflowy's HTML formatting converted, Markdown kept."""
    if not _INLINE_HTML.search(note):
        return note
    from confnotes.importers.markdown import inline

    return "\n\n".join(inline(text_runs(paragraph)) for paragraph in re.split(r"\n\s*\n", note))


def _parse(data: bytes, path: str) -> Any:
    from xml.etree.ElementTree import ParseError

    import defusedxml.ElementTree as SafeTree  # type: ignore[import-untyped]
    from defusedxml import DefusedXmlException

    try:
        return SafeTree.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise input_error(
            f"the OPML declares a document type or entities ({type(exc).__name__}); refused: "
            "entities can expand a small file into gigabytes or fetch files. Export the outline again",
            path,
        ) from None
    except LookupError as exc:  # <?xml encoding="…"?> names an encoding Python does not know
        raise input_error(f"not readable OPML: {exc}", path) from None
    except ParseError as exc:
        line, col = getattr(exc, "position", (None, None))
        message = str(exc).split(":")[0]
        raise input_error(f"not well-formed OPML: {message}", path, line, (col or 0) + 1 if line else None) from None


def _children(element: Any) -> list[Any]:
    return [child for child in element if child.tag == "outline"]


def read_opml(data: bytes, path: str) -> Imported:
    """Read an outliner's OPML. confnotes' own export says what each outline is (``_kind``,
    ``_level``, ``_number``); elsewhere top-level outlines that hold others become sections."""
    root = _parse(data, path)
    if root.tag != "opml":
        raise input_error(f"not OPML (the document is <{root.tag}>)", path)
    imported = Imported("opml")
    head = root.find("head")
    title_el = head.find("title") if head is not None else None
    title = " ".join((title_el.text or "").split()) if title_el is not None else ""
    body = root.find("body")
    tops = _children(body) if body is not None else []
    own_export = len(tops) == 1 and tops[0].get("_kind") is not None  # confnotes' OPML says what each outline is
    if len(tops) == 1 and _children(tops[0]) and (not own_export or not title or _plain(tops[0].get("text", "")) == title):
        # Workflowy and Logseq export a page as one outline holding the rest: that outline is the
        # title, whatever the head's title says (often the app's or the file's name)
        imported.blocks.append(Para(text_runs(tops[0].get("text", "")), "title"))
        if tops[0].get("_note"):
            imported.blocks.append(Note(note_text(tops[0].get("_note", "")), 0))
        tops = _children(tops[0])
    elif title:
        imported.blocks.append(Para((Run(title),), "title"))
    kinds = body is not None and any(outline.get("_kind") for outline in body.iter("outline"))
    parents = [index for index, top in enumerate(tops) if _children(top)]
    # sections: outlines that hold others, at least two and at least half of the top level (a
    # childless outline before the first of them is text before the sections)
    sections = not kinds and len(parents) >= 2 and len(parents) * 2 >= len(tops)
    completed = 0
    for index, top in enumerate(tops):
        lede = sections and index < parents[0] and not _children(top)
        stack: list[tuple[Any, int, bool]] = [(top, 0, True)]
        while stack:
            element, level, top_level = stack.pop()
            kind = element.get("_kind") or ("paragraph" if lede else "section" if sections and top_level else "item")
            completed += element.get("_complete", "").lower() == "true" or element.get("_status", "").lower() == "checked"
            inner = _emit(imported, element, kind, level)
            stack.extend((child, inner, False) for child in reversed(_children(element)))
    if completed:
        imported.drop(f"{completed} completed mark{'s' if completed != 1 else ''} (the items are kept)")
    return imported


def _emit(imported: Imported, element: Any, kind: str, level: int) -> int:
    """The blocks of one outline as ``kind`` (section, paragraph, block or item); returns the list
    level its children's items take."""
    text = element.get("text", "")
    note = element.get("_note", "")
    if kind == "section":
        imported.blocks.append(Para(text_runs(text), "heading", max(1, _int(element.get("_level"), 2) - 1)))
        if note.strip():
            imported.blocks.append(Note(note_text(note), 0))
        return 0
    if kind in ("paragraph", "block"):
        markdown = element.get("_markdown", "")
        if markdown.strip() or text.strip():
            imported.blocks.append(Note(markdown if markdown.strip() else _escaped(text), level))
        if note.strip():
            imported.blocks.append(Note(note_text(note), level))
        return level
    level = min(level, MAX_DEPTH - 1)
    number = _int((element.get("_number") or "").rstrip(".)"), 0)
    if text.strip():
        imported.blocks.append(Item(text_runs(text), level, number > 0, number or None))
    if note.strip():
        imported.blocks.append(Note(note_text(note), level + 1))
    return level + 1


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value else default
    except ValueError:
        return default


def _escaped(text: str) -> str:
    from confnotes.importers.markdown import escape

    return escape(text)


def _plain(text: str) -> str:
    return " ".join(re.sub(r"<[^>]+>|[*_`]", "", text).split())
