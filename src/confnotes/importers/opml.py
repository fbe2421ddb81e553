"""Outliners' OPML (Workflowy, Dynalist, Logseq, OmniOutliner, confnotes itself) to the block stream.

The XML is read by ``confnotes.edges.xmlread``: entity declarations are refused and nothing external is
loaded, so a few hundred bytes cannot expand into gigabytes and nothing is fetched. A plain document type line
(OmniOutliner's ``<!DOCTYPE opml PUBLIC …>``) declares nothing and is read past.

What an outliner stores beside an outline's text is kept as the reader saw it: Logseq's
``key:: value`` properties (hidden ones, ``id`` and ``collapsed``, aside) and OmniOutliner's
columns become ``key: value`` lines under their outline, Logseq's ``[[page]]`` links their words,
``((block))`` references the text of the block they name.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from confnotes.errors import input_error
from confnotes.importers.blocks import Imported, Item, Note, Para, Run
from confnotes.parse import recover

#: Outlines nested deeper than this are kept, as siblings at this depth.
MAX_DEPTH = 32
#: what outliners write on an outline besides its text that is no column of the user's: read, or
#: state a reader does not see (Dynalist's colours, Workflowy's dates, OmniOutliner's checkboxes)
_KNOWN_ATTRIBUTES = frozenset(
    {
        *("text", "_note", "_kind", "_level", "_number", "_markdown", "_status", "_complete", "complete", "checked"),
        *("checkbox", "color", "collapsed", "created", "modified", "isComment", "isBreakpoint", "type", "url"),
        *("htmlUrl", "xmlUrl", "title", "description", "language", "version", "id", "_id", "category", "heading"),
    }
)
#: Logseq's properties, ``key:: value``: each on a line of a block's text, which the XML attribute
#: reads as one line (``title:: Day 2 tags:: [[k8s]]``): a property runs to the next key
_PROPERTY_KEY = re.compile(r"(?:^|(?<=\s))([A-Za-z][\w.-]*)::(?=\s|$)")
#: properties Logseq keeps out of sight (a block's id, its folding, its colour)
_HIDDEN_PROPERTIES = frozenset({"id", "collapsed", "heading", "background-color"})
_BLOCK_REFERENCE = re.compile(r"\(\(([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\)\)")
#: a wiki-style page link (``[[Kubernetes]]``, a tag ``#[[platform engineering]]``), outside code
_PAGE_LINK = re.compile(r"#?\[\[([^\[\]\n]+)\]\]")
_CODE_SPAN = re.compile(r"(`+).*?\1", re.S)
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


#: A line that reads as code: a statement's end (``;``, ``{``, ``}``), a comment (``//``, ``/*``,
#: `` * `` of a block comment, ``#include``), a definition (``def``, ``class``, ``fn``, ``func``), an
#: assignment or a call with nothing after it
_CODE_LINE = re.compile(
    r"[;{}]\s*$|^\s*(?://|/\*|\*/|\*\s|#include\b|#define\b|(?:def|class|fn|func|function|return|import|from|"
    r"public|private|static|const|let|var|template|struct|enum|namespace|using)\b)|^\s*[\w.\[\]]+\s*(?:[+\-*/]?=|->|::)\s*\S|"
    r"^\s*[\w.]+\([^)]*\)\s*$"
)


def looks_like_code(note: str) -> bool:
    """Whether an outline's note is code (a snippet kept under an item): two lines or more, most of
    them reading as code, and little prose (lines ending in a full stop)."""
    lines = [line for line in note.split("\n") if line.strip()]
    if len(lines) < 2:
        return False
    code = sum(1 for line in lines if _CODE_LINE.search(line))
    prose = sum(1 for line in lines if line.rstrip().endswith(".") and len(line.split()) > 5)
    return code * 5 >= len(lines) * 3 and prose * 4 < len(lines)


def note_text(note: str) -> str:
    """An outline's ``_note`` as Markdown: Workflowy's HTML formatting converted, Markdown kept, and
    code kept as code, fenced, its indentation as written (comment lines `` * …`` once became bullets)."""
    if looks_like_code(note):
        fence = "`" * max([3, *(len(run) + 1 for run in re.findall(r"`{3,}", note))])
        return f"{fence}\n{note.rstrip()}\n{fence}"
    if not _INLINE_HTML.search(note):
        return note
    from confnotes.importers.markdown import inline

    return "\n\n".join(inline(text_runs(paragraph)) for paragraph in re.split(r"\n\s*\n", note))


def _parse(data: bytes, path: str) -> Any:
    from confnotes.edges.xmlread import XmlError, parse_xml

    try:
        return parse_xml(data)
    except XmlError as exc:
        if exc.entities:
            raise input_error(
                "the OPML declares entities; refused: entities can expand a small file into gigabytes or fetch files. "
                "Export the outline again",
                path,
            ) from None
        raise input_error(f"not well-formed OPML: {exc.reason}", path, exc.line, exc.col) from None


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
    if title.lower() == "untitled":
        title = ""  # Logseq's export names every page so
    body = root.find("body")
    kinds = body is not None and any(outline.get("_kind") for outline in body.iter("outline"))
    reader = _Reader(imported, body, outliner=not kinds)
    tops = _children(body) if body is not None else []
    page, tops = _page_properties(tops) if not kinds else ({}, tops)
    title = page.pop("title", "") or title
    own_export = len(tops) == 1 and tops[0].get("_kind") is not None  # confnotes' OPML says what each outline is
    if len(tops) == 1 and _children(tops[0]) and (not own_export or not title or _plain(tops[0].get("text", "")) == title):
        # Workflowy and Logseq export a page as one outline holding the rest: that outline is the
        # title, whatever the head's title says (often the app's or the file's name)
        text, _ = reader.text(tops[0].get("text", ""))
        imported.blocks.append(Para(text_runs(text), "title"))
        if tops[0].get("_note"):
            imported.blocks.append(Note(note_text(reader.text(tops[0].get("_note", ""))[0]), 0))
        tops = _children(tops[0])
    elif title:
        imported.blocks.append(Para((Run(title),), "title"))
    for key, value in page.items():  # the page's other properties, as lede lines (Speaker: …, Date: …)
        imported.blocks.append(Para((Run(f"{key[:1].upper()}{key[1:]}: {value}"),)))
    parents = [index for index, top in enumerate(tops) if _children(top)]
    # sections: outlines that hold others, at least two and at least half of the top level (a
    # childless outline before the first of them is text before the sections)
    sections = not kinds and len(parents) >= 2 and len(parents) * 2 >= len(tops)
    completed = 0
    talk = False  # whether the last section was a talk: a "Q&A" or "Demo" outline after it is its part
    for index, top in enumerate(tops):
        lede = sections and index < parents[0] and not _children(top)
        stack: list[tuple[Any, int, bool]] = [(top, 0, True)]
        if sections and not lede:
            part = talk and recover.is_talk_part(_plain(top.get("text", "")))
            first = _children(top)[0].get("text", "") if _children(top) else ""
            talk = talk if part else recover.names_talk(_plain(top.get("text", "")), _plain(first))
            if part and "_level" not in top.attrib:
                top.set("_level", "3")
        while stack:
            element, level, top_level = stack.pop()
            kind = element.get("_kind") or ("paragraph" if lede else "section" if sections and top_level else "item")
            completed += any(element.get(mark, "").lower() == "true" for mark in ("_complete", "complete"))
            completed += element.get("_status", "").lower() == "checked"
            inner = reader.emit(element, kind, level)
            stack.extend((child, inner, False) for child in reversed(_children(element)))
    if completed:
        imported.drop(f"{completed} completed mark{'s' if completed != 1 else ''} (the items are kept)")
    reader.report()
    return imported


def _page_properties(tops: list[Any]) -> tuple[dict[str, str], list[Any]]:
    """Logseq's first block when it holds only ``key:: value`` properties: the page's (its title,
    tags, speaker…), and the outlines after it."""
    for index, top in enumerate(tops[:2]):  # the page's one root outline may come first
        shown, properties = _properties(top.get("text", ""))
        if properties and not shown.strip() and not _children(top):
            found = {key.lower(): _unlinked(value) for key, value in properties}
            return {key: value for key, value in found.items() if key not in _HIDDEN_PROPERTIES}, tops[:index] + tops[index + 1 :]
    return {}, tops


def _properties(text: str) -> tuple[str, list[tuple[str, str]]]:
    """A Logseq block's text: what it shows, and its properties in order."""
    keys = list(_PROPERTY_KEY.finditer(text))
    if not keys:
        return text, []
    ends = [following.start() for following in keys[1:]] + [len(text)]
    return text[: keys[0].start()].rstrip(), [(key[1], text[key.end() : end].strip()) for key, end in zip(keys, ends, strict=True)]


def _unlinked(text: str) -> str:
    """``text`` with wiki-style page links as their words, code spans untouched."""
    pieces: list[str] = []
    last = 0
    for code in _CODE_SPAN.finditer(text):
        pieces += [_PAGE_LINK.sub(r"\1", text[last : code.start()]), code.group()]
        last = code.end()
    return "".join([*pieces, _PAGE_LINK.sub(r"\1", text[last:])])


class _Reader:
    """What one outline becomes, with what the file says elsewhere: the blocks Logseq references
    by id, and the columns seen (named in the summary)."""

    def __init__(self, imported: Imported, body: Any, outliner: bool) -> None:
        self.imported = imported
        self.outliner = outliner  # not confnotes' own export, whose text is the note's own
        self.columns: dict[str, int] = {}
        self.unresolved = 0
        self.code_notes = 0  # outline notes read as code (``looks_like_code``), for the summary
        self.blocks: dict[str, str] = {}
        for outline in body.iter("outline") if body is not None else ():
            if "::" not in outline.get("text", ""):
                continue  # no properties, so no id another block could reference (most outlines)
            shown, properties = _properties(outline.get("text", ""))
            ids = [value for key, value in properties if key.lower() == "id"]
            if ids:
                self.blocks[ids[0].lower()] = _unlinked(" ".join(shown.split()))

    def text(self, text: str) -> tuple[str, list[str]]:
        """An outline's text as a reader sees it, and its visible properties as ``key: value``."""
        if not self.outliner or ("::" not in text and "[[" not in text and "((" not in text):
            return text, []
        shown, properties = _properties(text)
        visible = [
            f"{key}: {_unlinked(value)}"
            for key, value in properties
            if key.lower() not in _HIDDEN_PROPERTIES and not key.startswith("logseq.")
        ]
        return _BLOCK_REFERENCE.sub(self._referenced, _unlinked(shown)), visible

    def _referenced(self, match: re.Match[str]) -> str:
        found = self.blocks.get(match[1].lower())
        if found is None:
            self.unresolved += 1
            return match.group()
        return found

    def emit(self, element: Any, kind: str, level: int) -> int:
        """The blocks of one outline as ``kind`` (section, paragraph, block or item); returns the
        list level its children's items take."""
        text, properties = self.text(element.get("text", ""))
        note = self.text(element.get("_note", ""))[0]
        self.code_notes += looks_like_code(note)
        for name, value in element.attrib.items():
            if name not in _KNOWN_ATTRIBUTES and value.strip():
                self.columns[name] = self.columns.get(name, 0) + 1
                properties.append(f"{name}: {value.strip()}")
        # the outline's columns and visible properties, one line under it
        beside = _escaped(" · ".join(properties))
        runs = text_runs(text)
        link = element.get("url") or element.get("htmlUrl")
        if link and element.get("type") in ("link", "rss") and len(runs) == 1 and runs[0].link is None:
            runs = (Run(runs[0].text, link=link),)
        blocks = self.imported.blocks
        if kind == "section":
            blocks.append(Para(runs, "heading", max(1, _int(element.get("_level"), 2) - 1)))
            if beside:
                blocks.append(Note(beside, 0))
            if note.strip():
                blocks.append(Note(note_text(note), 0))
            return 0
        if kind in ("paragraph", "block"):
            markdown = element.get("_markdown", "")
            if markdown.strip() or text.strip():
                blocks.append(Note(markdown if markdown.strip() else _escaped(text), level))
            if beside:
                blocks.append(Note(beside, level))
            if note.strip():
                blocks.append(Note(note_text(note), level))
            return level
        level = min(level, MAX_DEPTH - 1)
        number = _int((element.get("_number") or "").rstrip(".)"), 0)
        if text.strip():
            blocks.append(Item(runs, level, number > 0, number or None))
        if beside:
            blocks.append(Note(beside, level + 1))
        if note.strip():
            blocks.append(Note(note_text(note), level + 1))
        return level + 1

    def report(self) -> None:
        if self.code_notes:
            many = self.code_notes > 1
            self.imported.remarks.append(
                f"{self.code_notes} outline note{'s' if many else ''} read as code, fenced with {'their' if many else 'its'} indentation"
            )
        if self.columns:
            named = ", ".join(f"{name} ({count})" for name, count in self.columns.items())
            self.imported.remarks.append(f"outline columns kept as 'column: value' lines: {named}")
        if self.unresolved:
            many = self.unresolved > 1
            what = "block references to other pages kept as their ids" if many else "block reference to another page kept as its id"
            self.imported.remarks.append(f"{self.unresolved} {what}")


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
