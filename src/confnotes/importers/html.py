"""Web pages to the block stream: Google Docs' export (zipped or not), Word's and LibreOffice's HTML,
and a browser's copied ``text/html``.

Google Docs does not nest its lists: every list level is a sibling ``<ul>`` whose class names the
level (``lst-kix_…-1``) and whose CSS indents it, and bold, italic and code fonts live in
generated classes (``.c1{font-weight:700}``). Word marks list paragraphs with ``mso-list: l0
level2``. So the reader computes each element's look from its tags, its classes' CSS and its
inline style, and each item's level from the nesting, the class, ``aria-level`` or the indent.
"""

from __future__ import annotations

import base64
import binascii
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import parse_qs, unquote, urlsplit

from confnotes.errors import input_error
from confnotes.importers.blocks import Block, Code, Image, Imported, Item, Para, Run, Table, is_monospace, merge_code

Resolver = Callable[[str], bytes | None]
_BLOCKS = frozenset(
    (
        "p",
        "div",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "blockquote",
        "figure",
        "dt",
        "dd",
        "figcaption",
        "address",
        "center",
        "section",
        "article",
        "header",
        "footer",
        "main",
        "aside",
        "nav",
    )
)
_SKIP = frozenset(
    (
        "style",
        "title",
        "noscript",
        "template",
        "svg",
        "math",
        "iframe",
        "object",
        "embed",
        "video",
        "audio",
        "canvas",
        "select",
        "textarea",
        "button",
        "head",
    )
)
_VOID = frozenset(("br", "img", "hr", "meta", "link", "input", "col", "area", "base", "wbr", "source", "track", "param"))
_KIX = re.compile(r"\blst-kix_[\w-]*?-(\d+)\b")
_MSO_LIST = re.compile(r"mso-list\s*:\s*l\d+\s+level(\d+)", re.I)
_DECL = re.compile(r"([\w-]+)\s*:\s*([^;]+)")
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_SIMPLE_CLASS = re.compile(r"^\s*([a-z0-9]*)\.([\w-]+)\s*$", re.I)
_ORDER_GLYPH = re.compile(r"^\s*(\d+|[a-zA-Z]|[ivxlcIVXLC]+)[.)]")
_MAX_IMAGE = 32 * 1024 * 1024


def parse_css(text: str) -> dict[tuple[str, str], dict[str, str]]:
    """Declarations of simple class selectors by (tag, class): ``.c1`` is ``("", "c1")``, ``pre.western``
    is ``("pre", "western")`` (LibreOffice styles ``p``, ``pre`` and ``code`` of one class apart)."""
    classes: dict[tuple[str, str], dict[str, str]] = {}
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    for selectors, body in _RULE.findall(text):
        declarations = {name.lower(): value.strip().lower() for name, value in _DECL.findall(body)}
        for selector in selectors.split(","):
            match = _SIMPLE_CLASS.match(selector)
            if match:
                classes.setdefault((match.group(1).lower(), match.group(2)), {}).update(declarations)
    return classes


def _points(value: str) -> float:
    """A CSS length in points (``36pt``, ``48px``, ``.5in``, ``1em``)."""
    match = re.match(r"^(-?[\d.]+)\s*(pt|px|in|cm|mm|em|rem)?", value.strip())
    if not match:
        return 0.0
    try:
        number = float(match.group(1))
    except ValueError:
        return 0.0
    unit = match.group(2) or "px"
    return number * {"pt": 1, "px": 0.75, "in": 72, "cm": 28.35, "mm": 2.835, "em": 12, "rem": 12}[unit]


def unwrap_link(href: str) -> str:
    """Google Docs sends every link through ``https://www.google.com/url?q=TARGET&sa=…``."""
    parts = urlsplit(href)
    if parts.netloc.endswith("google.com") and parts.path == "/url":
        target = parse_qs(parts.query).get("q")
        if target:
            return target[0]
    return href


@dataclass
class _Look:
    bold: bool = False
    italic: bool = False
    code: bool = False
    link: str | None = None
    #: ``white-space: pre`` or ``pre-wrap``: the spaces are the text's (Docs' clipboard writes it on every run)
    pre: bool = False
    #: the text's font size in points, when the page says (a clipboard's headings may be only larger text)
    size: float = 0.0


@dataclass
class _Open:
    """A block being read: its kind (``para``, ``heading``, ``title``, ``subtitle``, ``item``, ``pre``, ``cell``)."""

    kind: str
    level: int = 0
    ordered: bool = False
    number: int | None = None
    runs: list[Run] = field(default_factory=list)
    images: list[Image] = field(default_factory=list)
    tag: str = ""
    indent: float = 0.0  # a paragraph's left margin in points
    sizes: dict[float, int] = field(default_factory=dict)  # characters of text at each font size


@dataclass
class _ListFrame:
    ordered: bool
    counter: int
    level: int | None  # a level the class says (Google Docs), else None
    key: str | None = None  # Google Docs' list class: its numbers go on across lists of that class


class _Reader(HTMLParser):
    def __init__(self, path: str, imported: Imported, resolve: Resolver | None) -> None:
        super().__init__(convert_charrefs=True)
        self.path = path
        self.imported = imported
        self.resolve = resolve
        self.css: dict[tuple[str, str], dict[str, str]] = {}
        self.looks: list[tuple[str, _Look]] = [("", _Look())]
        self.skip: list[str] = []
        self.mso_skip = False
        self.mso_glyph: list[str] = []
        self.block: _Open | None = None
        self.lists: list[_ListFrame] = []
        self.kix_counters: dict[str, int] = {}
        self.sizes: dict[int, float] = {}  # a paragraph's main font size, by id (``_headings_by_size``)
        self.properties = False  # the table being read is Notion's page properties (front matter, not a table)
        self.tag_classes: list[str] = []
        self.label_text: list[str] | None = None  # a Google Keep label being read
        self.table: list[list[tuple[Run, ...]]] | None = None
        self.table_depth = 0
        self.style_text: list[str] = []
        self.title_text: list[str] = []
        self.in_title = False
        self.counts: dict[str, int] = {}
        self.remote_images = 0

    # ------------------------------------------------------------------ helpers

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def refuse(self, message: str) -> None:
        line, offset = self.getpos()
        raise input_error(message, self.path, line, offset + 1)

    def declarations(self, tag: str, attrs: dict[str, str]) -> dict[str, str]:
        found: dict[str, str] = {}
        for name in attrs.get("class", "").split():
            found.update(self.css.get(("", name), {}))
            found.update(self.css.get((tag, name), {}))
        found.update({name.lower(): value.strip().lower() for name, value in _DECL.findall(attrs.get("style", ""))})
        return found

    def emit(self, block: Block) -> None:
        self.imported.blocks.append(block)

    def close_block(self) -> None:
        block, self.block = self.block, None
        if block is None:
            return
        runs = tuple(block.runs)
        text = "".join(run.text for run in runs)
        if block.kind == "pre":
            if text.strip():
                self.emit(Code(text.strip("\n")))
        elif text.strip():
            if block.kind == "item":
                self.emit(Item(runs, block.level, block.ordered, block.number))
            elif block.kind in ("heading", "title", "subtitle"):
                self.emit(Para(runs, block.kind, block.level))
            elif block.kind == "callout":
                self.emit(Para(runs, "quote"))
            elif all(run.code for run in runs if run.text.strip()):
                self.emit(Code(text.strip("\n").rstrip()))  # its indentation is the code's (YAML, Python)
            else:
                para = _indented_item(runs, block.indent) or Para(runs)
                if block.sizes and isinstance(para, Para):
                    self.sizes[id(para)] = max(block.sizes, key=block.sizes.__getitem__)  # its text's main size
                self.emit(para)
        for image in block.images:
            self.emit(image)

    def open_block(self, kind: str, tag: str, level: int = 0) -> None:
        self.close_block()
        self.block = _Open(kind, level, tag=tag)

    # ------------------------------------------------------------------ tags

    def handle_starttag(self, tag: str, attr_list: list[tuple[str, str | None]]) -> None:
        attrs = {name.lower(): value or "" for name, value in attr_list}
        self.tag_classes = attrs.get("class", "").split()
        if not self.skip and "label-name" in self.tag_classes:  # Google Keep's label chip: a tag, not text
            self.skip.append(tag)
            self.label_text = []
            return
        if any(name.startswith("on") for name in attrs):
            self.count("event attribute")
        if tag == "script":
            self.refuse(
                "the page holds a <script>; confnotes imports documents, not programs: "
                "export the document itself (File › Download › Web page)"
            )
        if self.skip or tag in _SKIP:
            self.start_skipped(tag)
        elif tag in _VOID:
            self.start_void(tag, attrs)
        else:
            self.looks.append((tag, self.look_for(tag, attrs)))
            if self.table is not None:
                self.in_table(tag)
            elif tag in ("ul", "ol"):
                self.start_list(tag, attrs)
            elif tag == "li":
                self.list_item(attrs)
            elif tag == "pre":
                self.open_block("pre", tag)
            elif tag == "table":
                self.close_block()
                self.table = []
                self.table_depth = 1
                self.properties = "properties" in attrs.get("class", "").split()  # Notion's page properties
            elif tag in _BLOCKS:
                self.start_block(tag, attrs)
            _task_box(self.block, attrs)

    def start_skipped(self, tag: str) -> None:
        """Inside ``<head>``, ``<style>``, ``<svg>``…: nothing is text; ``<style>`` and ``<title>`` are kept apart."""
        if self.skip:
            if tag not in _VOID:
                self.skip.append(tag)
            return
        if tag == "title":
            self.in_title = True
        if tag in ("svg", "iframe", "object", "embed", "video", "audio", "canvas"):
            self.count(tag)
        if tag != "head":
            self.skip.append(tag)

    def start_void(self, tag: str, attrs: dict[str, str]) -> None:
        if tag == "img":
            self.image(attrs)
        elif tag == "br" and self.block is not None:
            self.block.runs.append(Run("\n"))
        elif tag == "hr":
            self.close_block()

    def start_list(self, tag: str, attrs: dict[str, str]) -> None:
        self.close_block()
        kix = _KIX.search(attrs.get("class", ""))
        start = _int(attrs.get("start"), 1)
        if kix and ("start" in attrs.get("class", "").split() or kix.group(0) not in self.kix_counters):
            self.kix_counters[kix.group(0)] = start - 1
        self.lists.append(_ListFrame(tag == "ol", start - 1, int(kix.group(1)) if kix else None, kix.group(0) if kix else None))

    def start_block(self, tag: str, attrs: dict[str, str]) -> None:
        if self.block is not None and self.block.kind == "item" and self.block.tag != tag:
            return  # <li><p>…</p></li>: the paragraph is the item's text
        if self.block is not None and self.block.kind == "callout":
            if self.block.runs and not self.block.runs[-1].text.endswith(" "):
                self.block.runs.append(Run(" "))  # Notion's icon, then its text: one line, "💡 Remember…"
            return
        mso = _MSO_LIST.search(attrs.get("style", ""))
        classes = attrs.get("class", "").split()
        if tag == "figure" and "callout" in classes:
            self.open_block("callout", tag)  # Notion's callout: its icon and text, read as a callout quote
        elif mso:
            self.open_block("item", tag, int(mso.group(1)) - 1)
            self.mso_glyph = []
        elif tag[0] == "h" and tag[1:].isdigit():
            self.open_block("heading", tag, int(tag[1:]))
        elif "title" in classes or "MsoTitle" in classes:
            self.open_block("title", tag)
        elif "subtitle" in classes or "MsoSubtitle" in classes:
            self.open_block("subtitle", tag)
        else:
            self.open_block("para", tag)
            margin = self.declarations(tag, attrs).get("margin-left")
            if margin and self.block is not None:
                self.block.indent = _points(margin)

    def in_table(self, tag: str) -> None:
        assert self.table is not None
        if tag == "table":
            self.table_depth += 1
        elif tag == "tr" and self.table_depth == 1:
            self.table.append([])
        elif tag in ("td", "th") and self.table_depth == 1:
            if not self.table:
                self.table.append([])
            self.block = _Open("cell", tag=tag)
        elif (tag in _BLOCKS or tag == "span" and "selected-value" in self.tag_classes) and self.block is not None and self.block.runs:
            self.block.runs.append(Run(", " if tag == "span" else " "))  # Notion's chips: one value each

    def list_item(self, attrs: dict[str, str]) -> None:
        self.close_block()
        frame = self.lists[-1] if self.lists else _ListFrame(False, 0, None)
        level = frame.level
        if level is None:
            aria = attrs.get("aria-level")
            level = _int(aria, 1) - 1 if aria else max(0, sum(1 for f in self.lists if f.level is None) - 1)
        number: int | None = None
        if frame.ordered:
            if frame.key is not None:
                self.kix_counters[frame.key] += 1
                number = self.kix_counters[frame.key]
            else:
                frame.counter += 1
                number = frame.counter
            if "value" in attrs:
                number = _int(attrs["value"], number or 1)
        self.block = _Open("item", level, frame.ordered, number, tag="li")

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            self.end_skipped(tag)
            return
        if tag in _VOID:
            return
        # close the look this tag opened (and any left open inside it)
        for index in range(len(self.looks) - 1, 0, -1):
            if self.looks[index][0] == tag:
                del self.looks[index:]
                break
        if self.table is not None:
            self.end_in_table(tag)
        elif tag in ("ul", "ol"):
            self.close_block()
            if self.lists:
                self.lists.pop()
        elif self.block is not None and (tag == self.block.tag or (tag == "li" and self.block.kind == "item")):
            self.close_block()

    def end_skipped(self, tag: str) -> None:
        if self.skip[-1] != tag:
            return
        done = self.skip.pop()
        if self.label_text is not None and not self.skip:
            label = " ".join("".join(self.label_text).split())
            self.label_text = None
            if label:
                tags = [tag for tag in self.imported.stated.get("tags", "").split(", ") if tag]
                self.imported.stated["tags"] = ", ".join(dict.fromkeys([*tags, label]))
            return
        if done == "style":
            self.css.update(parse_css("".join(self.style_text)))
            self.style_text = []
        if done == "title":
            self.in_title = False

    def end_in_table(self, tag: str) -> None:
        if tag == "table":
            self.table_depth -= 1
            if self.table_depth == 0:
                self.close_cell()
                rows = tuple(tuple(row) for row in self.table or () if row)
                self.table = None
                if rows and self.properties:
                    self.imported.stated.update(notion_properties(rows))
                elif rows:
                    self.emit(Table(rows))
        elif tag in ("td", "th") and self.table_depth == 1:
            self.close_cell()

    def close_cell(self) -> None:
        block, self.block = self.block, None
        if block is None or self.table is None:
            return
        runs = tuple(Run(run.text.replace("\n", " "), run.bold, run.italic, run.code, run.link) for run in block.runs)
        self.table[-1].append(runs)

    def look_for(self, tag: str, attrs: dict[str, str]) -> _Look:
        parent = self.looks[-1][1]
        look = _Look(parent.bold, parent.italic, parent.code, parent.link, parent.pre, parent.size)
        style = self.declarations(tag, attrs)
        if style.get("font-size", "").strip()[:1].isdigit():
            look.size = _points(style["font-size"])
        if "white-space" in style:
            look.pre = style["white-space"].startswith(("pre", "break-spaces")) and style["white-space"] != "pre-line"
        if tag in ("b", "strong"):
            look.bold = True
        if tag in ("i", "em", "cite"):
            look.italic = True
        if tag in ("code", "tt", "kbd", "samp", "pre"):
            look.code = True
        weight = style.get("font-weight")
        if weight:
            look.bold = weight in ("bold", "bolder") or (weight.isdigit() and int(weight) >= 600)
        if "font-style" in style:
            look.italic = style["font-style"] in ("italic", "oblique")
        family = style.get("font-family") or (attrs.get("face") if tag == "font" else None)
        if family:
            look.code = is_monospace(family)
        if tag == "a" and attrs.get("href"):
            href = unwrap_link(attrs["href"].strip())
            if href.lower().startswith(("javascript:", "vbscript:", "data:")):
                self.count("script link")
            else:
                look.link = href
        return look

    def image(self, attrs: dict[str, str]) -> None:
        src = attrs.get("src", "").strip()
        alt = attrs.get("alt", "") or attrs.get("title", "")
        scheme = urlsplit(src).scheme.lower()
        if src.startswith("//") or scheme in ("http", "https"):
            # kept as a picture reference, never fetched: a render shows it as a link (docs/security.md)
            address = ("https:" + src if src.startswith("//") else src).replace(" ", "%20").replace("<", "%3C").replace(">", "%3E")
            self.remote_images += 1
            self.emit_image(Image(address, alt, remote=True))
            return
        if scheme and scheme != "data":
            self.count("image at an address confnotes does not keep")
            return
        data: bytes | None = None
        if scheme == "data":
            header, _, payload = src.partition(",")
            try:
                data = base64.b64decode(payload, validate=False) if ";base64" in header.lower() else unquote(payload).encode()
            except (binascii.Error, ValueError):
                data = None
        elif src and not scheme and self.resolve is not None:
            data = self.resolve(unquote(src.split("#")[0].split("?")[0]))
        if not data:
            self.count("missing image")
            return
        name = self.imported.add_asset(data)  # its kind read from the bytes, whatever the page declares
        if name is None:
            return
        self.emit_image(Image(name, alt))

    def emit_image(self, image: Image) -> None:
        if self.block is not None and self.block.kind != "cell":
            self.block.images.append(image)
        elif self.table is None:
            self.emit(image)

    # ------------------------------------------------------------------ text

    def unknown_decl(self, data: str) -> None:
        """Word's ``<![if !supportLists]>`` hides the list glyph it also paints; its text is the glyph."""
        lowered = data.strip().lower()
        if lowered.startswith("if") and "supportlists" in lowered:
            self.mso_skip = True
        elif lowered.startswith("endif") and self.mso_skip:
            self.mso_skip = False
            glyph = "".join(self.mso_glyph)
            if self.block is not None and self.block.kind == "item":
                number = _ORDER_GLYPH.match(glyph)
                if number:
                    self.block.ordered = True
                    self.block.number = int(number.group(1)) if number.group(1).isdigit() else None
            self.mso_glyph = []

    def handle_data(self, data: str) -> None:
        if self.skip:
            if self.skip[-1] == "style":
                self.style_text.append(data)
            elif self.skip[-1] == "title":
                self.title_text.append(data)
            elif self.label_text is not None:
                self.label_text.append(data)
            return
        if self.mso_skip:
            self.mso_glyph.append(data)
            return
        look = self.looks[-1][1]
        if self.block is None:
            if not data.strip():
                return
            if self.table is not None:
                return
            self.block = _Open("para", tag="")  # text straight in <body> or a <div>
        if self.block.kind == "pre":
            self.block.runs.append(Run(data, code=True))
            return
        # code in white-space:pre keeps its spaces as laid out (indentation is meaning); elsewhere
        # spaces collapse, but a no-break space is one the writer typed (Docs' export of indented code)
        spaced = data if look.code and look.pre else re.sub(r"[ \t\r\n\f]+", " ", data)
        text = spaced.replace("\xa0", " ")
        if not text:
            return
        last = self.block.runs[-1].text if self.block.runs else "\n"
        if text.startswith(" ") and (last.endswith((" ", "\n"))) and not look.code:
            text = text[1:]
        if text:
            self.block.runs.append(Run(text, look.bold, look.italic, look.code, look.link))
            if look.size and text.strip():
                self.block.sizes[look.size] = self.block.sizes.get(look.size, 0) + len(text.strip())

    def finish(self) -> None:
        self.close()
        if self.table is not None:
            self.close_cell()
            rows = tuple(tuple(row) for row in self.table if row)
            self.table = None
            if rows:
                self.emit(Table(rows))
        self.close_block()
        title = " ".join("".join(self.title_text).split())
        self.imported.title = title or None
        for what, count in self.counts.items():
            self.imported.drop(f"{count} {what}{'s' if count != 1 else ''}")
        if self.remote_images:
            many = self.remote_images != 1
            kept = "their addresses" if many else "its address"
            self.imported.remarks.append(f"{self.remote_images} remote image{'s' if many else ''} kept as {kept}, not fetched")


_GLYPH_START = re.compile(r"^\s*([•◦▪▫‣⁃●○■□➢➤–—·§]|o(?=\s))\s+")


def _indented_item(runs: tuple[Run, ...], indent: float) -> Item | None:
    """A paragraph that starts with a bullet glyph and is indented (a list pasted into a page, or
    exported without list markup) is an item one level deeper for every 36 points of margin."""
    if indent <= 0 or not runs:
        return None
    match = _GLYPH_START.match(runs[0].text)
    if match is None:
        return None
    first = runs[0]
    rest = Run(first.text[match.end() :], first.bold, first.italic, first.code, first.link)
    return Item((rest, *runs[1:]), max(0, round(indent / 36) - 1))


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value else default
    except ValueError:
        return default


def read_html(text: str, path: str, resolve: Resolver | None) -> Imported:
    """Read a web page; ``resolve`` gives the bytes of an image the page names relatively (or None).

    For a page on disk, images are read only from the page's folder and below it."""
    if resolve is None and not path.startswith("<"):
        resolve = folder_resolver(Path(path).resolve().parent)
    imported = Imported("html")
    reader = _Reader(path, imported, resolve)
    reader.feed(text)
    reader.finish()
    imported.blocks = merge_code(_headings_by_size(imported.blocks, reader.sizes))
    return imported


def _task_box(block: _Open | None, attrs: dict[str, str]) -> None:
    """A to-do's box drawn by the page (Notion's ``<div class="checkbox checkbox-on">``) as the
    task's ``[x]`` or ``[ ]`` at its item's start (Google Keep draws ``☑``/``☐``, read by the writer)."""
    classes = attrs.get("class", "").split()
    if "checkbox" in classes and block is not None and block.kind == "item" and not block.runs:
        block.runs.append(Run("[x] " if "checkbox-on" in classes else "[ ] "))


#: Notion's page properties, by what confnotes' front matter calls them
_PROPERTY_KEYS = {
    "tags": "tags",
    "labels": "tags",
    "date": "date",
    "created": "date",
    "speakers": "speakers",
    "speaker": "speakers",
    "author": "speakers",
    "authors": "speakers",
    "event": "event",
    "conference": "event",
    "url": "url",
}


def notion_properties(rows: tuple[tuple[tuple[Run, ...], ...], ...]) -> dict[str, str]:
    """Notion's page properties (a ``<table class="properties">`` in the page's header) as front
    matter: tags, date (``@March 19, 2026`` read as ``2026-03-19``), speakers, event, url; any other
    property under its own name, so no word of it is lost."""
    import datetime as dt

    stated: dict[str, str] = {}
    for row in rows:
        if len(row) < 2:
            continue
        name = " ".join("".join(run.text for run in row[0]).split())
        value = " ".join("".join(run.text for run in row[1]).split()).strip(", ")
        if not name or not value:
            continue
        key = _PROPERTY_KEYS.get(name.casefold(), re.sub(r"[^a-z0-9]+", "_", name.casefold()).strip("_") or "property")
        if key == "date":
            for form in ("%B %d, %Y", "%b %d, %Y", "%Y-%m-%d", "%d/%m/%Y"):
                try:
                    value = dt.datetime.strptime(value.lstrip("@").split("→")[0].strip(), form).date().isoformat()
                    break
                except ValueError:
                    continue
        stated[key] = value
    return stated


#: A paragraph this much larger than the body text, on one short line, is a heading
_LARGER = 1.15
_HEADING_CHARS = 100


def _headings_by_size(blocks: list[Block], sizes: dict[int, float]) -> list[Block]:
    """Headings a page shows only by size (OneNote's clipboard: Calibri Light 16 and 13.5 pt over
    11 pt text, no heading tags): where the page has no headings of its own, a short one-line
    paragraph whose text is larger than the body's is a heading, the largest size level 1."""
    paras = [block for block in blocks if isinstance(block, Para) and id(block) in sizes]
    if not paras or any(isinstance(block, Para) and block.style in ("heading", "title") for block in blocks):
        return blocks
    weight: dict[float, int] = {}
    for para in paras:
        weight[sizes[id(para)]] = weight.get(sizes[id(para)], 0) + len(para.text)
    body = max(weight, key=weight.__getitem__)
    larger = sorted({sizes[id(p)] for p in paras if sizes[id(p)] >= body * _LARGER}, reverse=True)[:3]
    if not larger:
        return blocks
    out: list[Block] = []
    for block in blocks:
        if isinstance(block, Para) and (size := sizes.get(id(block))) in larger:
            text = block.text.strip()
            if text and "\n" not in text and len(text) <= _HEADING_CHARS and text[-1] not in ".,;":
                block = Para(block.runs, "heading", larger.index(size) + 1)
        out.append(block)
    return out


def folder_resolver(folder: Path) -> Resolver:
    def resolve(src: str) -> bytes | None:
        if src.startswith(("/", "\\")) or ":" in src:
            return None
        candidate = (folder / src).resolve()
        if not candidate.is_relative_to(folder) or not candidate.is_file():
            return None
        if candidate.stat().st_size > _MAX_IMAGE:
            return None
        return candidate.read_bytes()

    return resolve


def decode_markup(data: bytes, path: str) -> str:
    """HTML bytes as text: UTF-8 (with or without a BOM), else the charset the page declares."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    declared = re.search(rb"charset\s*=\s*[\"']?([\w-]+)", data[:4096], re.I)
    for encoding in ((declared.group(1).decode("ascii"),) if declared else ()) + ("windows-1252",):
        try:
            return data.decode(encoding)
        except (LookupError, UnicodeDecodeError):
            continue
    raise input_error("cannot decode this web page's text", path)


def read_html_zip(archive: zipfile.ZipFile, path: str) -> Imported:
    """Google Docs' "Download › Web page (.html, zipped)": one page and its ``images/`` folder."""
    from confnotes.importers.safety import read_member

    pages = [name for name in archive.namelist() if name.lower().endswith((".html", ".htm")) and not name.startswith("__MACOSX")]
    if len(pages) != 1:
        raise input_error(f"the archive holds {len(pages)} web pages; import one page at a time", path)
    page = pages[0]
    base = PurePosixPath(page).parent
    members = set(archive.namelist())

    def resolve(src: str) -> bytes | None:
        parts: list[str] = []
        for part in (base / src).parts:
            if part == "..":
                if not parts:
                    return None
                parts.pop()
            elif part not in (".", ""):
                parts.append(part)
        name = "/".join(parts)
        return read_member(archive, name, path, "archive") if name in members else None

    text = decode_markup(read_member(archive, page, path, "archive"), path)
    return read_html(text, path, resolve)
