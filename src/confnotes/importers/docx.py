"""Word documents (.docx, from Word, LibreOffice, Google Docs or Pages) to the block stream.

The body is walked as XML in document order so that tables, numbered items, code and pictures
stay where the author put them. (mammoth maps styles to HTML but discards list levels' numbering
and run fonts, which is where the outline and the code of conference notes live.)

The package is opened here, not by python-docx: the reader needs four parts (the document, its
relationships, styles and numbering) and the pictures it meets, while ``docx.Document`` reads every
part of the package into memory at once and keeps those it has no class for, such as Word's second
copy of the styles (``stylesWithEffects.xml``). Each part read here is parsed straight from the
archive, so a 100-page document's 1.3 MB of XML is never held as bytes.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from confnotes.errors import input_error
from confnotes.importers.blocks import Block, Code, Image, Imported, Item, Para, Run, Table, footnote_definition, is_monospace, merge_code
from confnotes.importers.safety import check_relationships, open_zip, read_member

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"
V = "{urn:schemas-microsoft-com:vml}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
O = "{urn:schemas-microsoft-com:office:office}"  # noqa: E741 - the namespace's own prefix
OMATH = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
#: Paragraph styles Word, LibreOffice and pandoc give quotations (and callouts, ``render --to docx``),
#: each its own number: a quote under a callout in another style stays a quote of its own.
_QUOTE_STYLES = {name: number for number, name in enumerate(("quote", "intense quote", "block text", "quotations", "block quotation"))}
_RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_DC_TITLE = "{http://purl.org/dc/elements/1.1/}title"
_HEADING_NAME = re.compile(r"^heading\s*(\d)$", re.I)
_LIST_NAME = re.compile(r"^list(?: (?:bullet|number|paragraph|continue))?\s*(\d)$", re.I)
_CODE_STYLE = re.compile(r"code|preformatted|source text|verbatim|plain text|macro", re.I)
_HYPERLINK_FIELD = re.compile(r'^\s*HYPERLINK\s+"([^"]+)"', re.I)
#: Run children that are text: their text (``w:t`` its own), tabs as spaces, Word's non-breaking hyphen.
_TEXT = {f"{W}t": "", f"{W}tab": " ", f"{W}ptab": " ", f"{W}noBreakHyphen": "-"}
_NOTE_REFERENCES = {f"{W}footnoteReference": "footnote", f"{W}endnoteReference": "endnote"}
_ORDERED_FORMATS = frozenset(
    ("decimal", "lowerLetter", "upperLetter", "lowerRoman", "upperRoman", "decimalZero", "ordinal", "cardinalText", "ordinalText")
)


@dataclass
class _Numbering:
    """numbering.xml: each list's format and start per level, and the counters as the document goes."""

    formats: dict[str, dict[int, tuple[str, int]]] = field(default_factory=dict)  # abstractNumId -> ilvl -> (numFmt, start)
    nums: dict[str, tuple[str, dict[int, int]]] = field(default_factory=dict)  # numId -> (abstractNumId, start overrides)
    counters: dict[str, list[int]] = field(default_factory=dict)

    @classmethod
    def read(cls, element: Any) -> _Numbering:
        numbering = cls()
        if element is None:
            return numbering
        for abstract in element.iter(f"{W}abstractNum"):
            levels: dict[int, tuple[str, int]] = {}
            for lvl in abstract.iter(f"{W}lvl"):
                fmt = lvl.find(f"{W}numFmt")
                start = lvl.find(f"{W}start")
                levels[_int(lvl.get(f"{W}ilvl"), 0)] = (
                    fmt.get(f"{W}val", "decimal") if fmt is not None else "decimal",
                    _int(start.get(f"{W}val") if start is not None else None, 1),
                )
            numbering.formats[abstract.get(f"{W}abstractNumId", "")] = levels
        for num in element.iter(f"{W}num"):
            ref = num.find(f"{W}abstractNumId")
            overrides: dict[int, int] = {}
            for override in num.iter(f"{W}lvlOverride"):
                start = override.find(f"{W}startOverride")
                if start is not None:
                    overrides[_int(override.get(f"{W}ilvl"), 0)] = _int(start.get(f"{W}val"), 1)
            numbering.nums[num.get(f"{W}numId", "")] = (ref.get(f"{W}val", "") if ref is not None else "", overrides)
        return numbering

    def next(self, num_id: str, ilvl: int) -> tuple[bool, int | None] | None:
        """``(ordered, number)`` of the next item of list ``num_id`` at ``ilvl``; None: not a list."""
        if num_id not in self.nums or num_id == "0":
            return None
        abstract, overrides = self.nums[num_id]
        fmt, start = self.formats.get(abstract, {}).get(ilvl, ("bullet", 1))
        if fmt == "none":
            return None
        start = overrides.get(ilvl, start)
        counters = self.counters.setdefault(num_id, [])
        while len(counters) <= ilvl:
            counters.append(0)
        del counters[ilvl + 1 :]  # a higher item restarts the levels below it
        counters[ilvl] = counters[ilvl] + 1 if counters[ilvl] else start
        ordered = fmt in _ORDERED_FORMATS
        return ordered, counters[ilvl] if ordered else None


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _on(element: Any) -> bool | None:
    """A toggle property (``<w:b/>``, ``<w:b w:val="0"/>``): True, False, or None when unset."""
    if element is None:
        return None
    return element.get(f"{W}val", "true").lower() not in ("0", "false", "off", "none")


@dataclass
class _StyleInfo:
    name: str = ""
    heading: int = 0
    list_level: int | None = None
    num: tuple[str, int] | None = None
    bold: bool | None = None
    italic: bool | None = None
    mono: bool = False


def _apply_style(style: Any, info: _StyleInfo) -> None:
    """One style's own settings over those of its base styles: heading level, numbering, run look."""
    ppr = style.find(f"{W}pPr")
    rpr = style.find(f"{W}rPr")
    name_el = style.find(f"{W}name")
    heading = _HEADING_NAME.match(name_el.get(f"{W}val", "") if name_el is not None else "")
    if heading:
        info.heading = int(heading.group(1))
    if ppr is not None:
        outline = ppr.find(f"{W}outlineLvl")
        if outline is not None and _int(outline.get(f"{W}val"), 9) < 9:
            info.heading = _int(outline.get(f"{W}val"), 0) + 1
        num = ppr.find(f"{W}numPr")
        num_id = num.find(f"{W}numId") if num is not None else None
        if num_id is not None:
            ilvl = num.find(f"{W}ilvl")
            info.num = (num_id.get(f"{W}val", ""), _int(ilvl.get(f"{W}val") if ilvl is not None else None, 0))
    if rpr is not None:
        bold, italic = _on(rpr.find(f"{W}b")), _on(rpr.find(f"{W}i"))
        info.bold = bold if bold is not None else info.bold
        info.italic = italic if italic is not None else info.italic
        fonts = rpr.find(f"{W}rFonts")
        if fonts is not None:
            info.mono = is_monospace(fonts.get(f"{W}ascii") or fonts.get(f"{W}hAnsi"))


class _Styles:
    """Paragraph and character styles by id, their base styles followed (bold, font, outline level, numbering)."""

    def __init__(self, styles_element: Any) -> None:
        self.raw: dict[str, Any] = {}
        if styles_element is not None:
            for style in styles_element.iter(f"{W}style"):
                self.raw[style.get(f"{W}styleId", "")] = style
        self.cache: dict[str, _StyleInfo] = {}

    def info(self, style_id: str | None) -> _StyleInfo:
        if not style_id:
            style_id = next(
                (sid for sid, el in self.raw.items() if el.get(f"{W}default") in ("1", "true") and el.get(f"{W}type") == "paragraph"), ""
            )
        if style_id in self.cache:
            return self.cache[style_id]
        info = _StyleInfo()
        chain: list[Any] = []
        current = self.raw.get(style_id)
        while current is not None and len(chain) < 20 and current not in chain:
            chain.append(current)
            based = current.find(f"{W}basedOn")
            current = self.raw.get(based.get(f"{W}val", "")) if based is not None else None
        if chain:
            name_el = chain[0].find(f"{W}name")
            info.name = name_el.get(f"{W}val", "") if name_el is not None else style_id
        for style in reversed(chain):  # base first, the style's own settings last
            _apply_style(style, info)
        listed = _LIST_NAME.match(info.name)
        if listed:
            info.list_level = int(listed.group(1)) - 1
        if _CODE_STYLE.search(info.name):
            info.mono = True
        if info.name.lower() in ("title", "subtitle"):
            info.heading = 0
        self.cache[style_id] = info
        return info


@dataclass(frozen=True)
class _Rel:
    kind: str  # the relationship type's last word: styles, numbering, image, hyperlink…
    target: str  # a member of the archive, or an address outside it
    external: bool


class _Package:
    """A .docx's parts by name, each parsed from the archive only when asked for (OPC: the parts
    a part relates to are named in ``<folder>/_rels/<part>.rels``, relative to the part's folder)."""

    def __init__(self, archive: zipfile.ZipFile, path: str) -> None:
        self.archive = archive
        self.path = path
        self.names = set(archive.namelist())

    def xml(self, name: str | None) -> Any:
        """The part's root element; None if the package has no such part."""
        if name is None or name not in self.names:
            return None
        from confnotes.edges.xmlread import XmlError, parse_xml

        try:
            with self.archive.open(name) as handle:
                return parse_xml(handle, keep_blank_text=False)  # as python-docx reads: blank text dropped
        except XmlError as exc:
            raise input_error(f"not a readable Word document ('{name}': {exc.reason})", self.path) from None

    def blob(self, name: str) -> bytes:
        return read_member(self.archive, name, self.path, "Word document")

    def rels(self, part: str) -> dict[str, _Rel]:
        """The relationships of ``part`` (``""``: the package's own) by id."""
        folder, base = posixpath.split(part)
        root = self.xml(posixpath.join(folder, "_rels", f"{base}.rels"))
        found: dict[str, _Rel] = {}
        for rel in root.iter(f"{_RELS}Relationship") if root is not None else ():
            target = rel.get("Target", "")
            external = rel.get("TargetMode", "") == "External"
            if not external:  # a member's name: absolute from the package's root, or relative to the part's folder
                target = posixpath.normpath(target[1:] if target.startswith("/") else posixpath.join(folder, target))
            found[rel.get("Id", "")] = _Rel(rel.get("Type", "").rsplit("/", 1)[-1], target, external)
        return found

    def related(self, rels: dict[str, _Rel], kind: str) -> str | None:
        """The member a part relates to as ``kind`` (its first such relationship)."""
        return next((rel.target for rel in rels.values() if rel.kind == kind and not rel.external), None)


class _Reader:
    def __init__(self, package: _Package, rels: dict[str, _Rel], imported: Imported) -> None:
        self.package = package
        self.rels = rels
        self.imported = imported
        self.styles = _Styles(package.xml(package.related(rels, "styles")))
        self.numbering = _Numbering.read(package.xml(package.related(rels, "numbering")))
        self.counts: dict[str, int] = {}
        self.images_seen: dict[str, str | None] = {}
        #: the footnotes part's notes by id (separators left out), and those the text cites, numbered
        notes = package.xml(package.related(rels, "footnotes"))
        self.footnotes: dict[str, Any] = {
            note.get(f"{W}id", ""): note
            for note in (notes.findall(f"{W}footnote") if notes is not None else [])
            if not note.get(f"{W}type")
        }
        self.cited: dict[str, int] = {}
        #: a document set in a monospace face throughout (a text file opened in a word processor): the
        #: face is the document's, not a mark of code
        self.mono_face = False

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    # ---------------------------------------------------------------- body

    def body(self, body: Any) -> Iterator[Block]:
        for child in body:
            tag = child.tag
            if tag == f"{W}p":
                yield from self.paragraph(child)
            elif tag == f"{W}tbl":
                yield self.table(child)
            elif tag == f"{W}sdt":
                gallery = child.find(f".//{W}docPartGallery")
                if gallery is not None and "contents" in gallery.get(f"{W}val", "").lower():
                    self.count("table of contents")
                    continue
                content = child.find(f"{W}sdtContent")
                if content is not None:
                    yield from self.body(content)
            elif tag in (f"{W}customXml", f"{W}ins"):
                yield from self.body(child)

    def runs(self, element: Any, style: _StyleInfo, link: str | None = None) -> Iterator[Run | Image]:
        """The runs of a paragraph (or a part of one) in order; pictures as they come."""
        field_instr: list[str] | None = None
        field_link: str | None = None
        for child in element:
            tag = child.tag
            if tag == f"{W}r":
                for fld in child.iter(f"{W}fldChar"):
                    kind = fld.get(f"{W}fldCharType")
                    if kind == "begin":
                        field_instr = []
                    elif kind == "separate" and field_instr is not None:
                        match = _HYPERLINK_FIELD.match("".join(field_instr))
                        field_link = match.group(1) if match else None
                        field_instr = None
                    elif kind == "end":
                        field_instr, field_link = None, None
                if field_instr is not None:
                    field_instr += [instr.text or "" for instr in child.iter(f"{W}instrText")]
                    continue
                yield from self.run(child, style, link or field_link)
            elif tag == f"{W}hyperlink":
                target = None
                rel = self.rels.get(child.get(f"{R}id") or "")
                if rel is not None and rel.external:
                    target = rel.target
                anchor = child.get(f"{W}anchor")
                if target and anchor:
                    target += "#" + anchor
                yield from self.runs(child, style, target or link)
            elif tag in (f"{W}ins", f"{W}smartTag", f"{W}customXml", f"{W}fldSimple", f"{W}sdt", f"{W}sdtContent", f"{W}bdo", f"{W}dir"):
                yield from self.runs(child, style, link)
            elif tag == f"{W}commentRangeStart":
                self.count("comment")
            elif tag in (f"{OMATH}oMath", f"{OMATH}oMathPara"):
                yield from _equations(child)

    def look(self, rpr: Any, style: _StyleInfo) -> tuple[bool, bool, bool] | None:
        """A run's bold, italic and monospace: its paragraph style, its character style, its own
        properties, in that order; None for hidden text."""
        bold, italic, mono = style.bold, style.italic, style.mono and not self.mono_face
        if rpr is None:
            return bool(bold), bool(italic), mono
        char_style = rpr.find(f"{W}rStyle")
        if char_style is not None:
            info = self.styles.info(char_style.get(f"{W}val"))
            bold = info.bold if info.bold is not None else bold
            italic = info.italic if info.italic is not None else italic
            mono = mono or info.mono
        own_bold, own_italic = _on(rpr.find(f"{W}b")), _on(rpr.find(f"{W}i"))
        bold = own_bold if own_bold is not None else bold
        italic = own_italic if own_italic is not None else italic
        fonts = rpr.find(f"{W}rFonts")
        if fonts is not None and (fonts.get(f"{W}ascii") or fonts.get(f"{W}hAnsi")):
            mono = is_monospace(fonts.get(f"{W}ascii") or fonts.get(f"{W}hAnsi")) and not self.mono_face
        if _on(rpr.find(f"{W}vanish")):
            self.count("hidden text")
            return None
        return bool(bold), bool(italic), mono

    def run(self, run: Any, style: _StyleInfo, link: str | None) -> Iterator[Run | Image]:
        found = self.look(run.find(f"{W}rPr"), style)
        if found is None:
            return
        bold, italic, mono = found
        text: list[str] = []
        for child in run:
            tag = child.tag
            if tag in _TEXT:
                text.append(_TEXT[tag] if tag != f"{W}t" else child.text or "")
            elif tag in (f"{W}br", f"{W}cr"):
                if child.get(f"{W}type") not in ("page", "column"):
                    text.append("\n")
            elif tag in (f"{W}drawing", f"{W}pict", f"{MC}AlternateContent", f"{W}object"):
                if text:
                    yield Run("".join(text), bold, italic, mono, link)
                    text = []
                image = self.picture(child)
                if image is not None:
                    yield image
            elif tag == f"{W}footnoteReference" and child.get(f"{W}id") in self.footnotes:
                if text:
                    yield Run("".join(text), bold, italic, mono, link)
                    text = []
                yield Run(f"[^{self.cite(child.get(f'{W}id'))}]", raw=True)
            elif tag in _NOTE_REFERENCES:
                self.count(_NOTE_REFERENCES[tag])
        if text:
            yield Run("".join(text), bold, italic, mono, link)

    def cite(self, footnote_id: str) -> int:
        """The number a footnote is cited by, in the order the text first cites them."""
        if footnote_id not in self.cited:
            self.cited[footnote_id] = len(self.cited) + 1
        return self.cited[footnote_id]

    def definitions(self) -> Iterator[Para]:
        """The cited footnotes as Markdown's definitions (``[^1]: …``), in their numbers' order, each
        its paragraphs run together."""
        style = self.styles.info(None)
        for footnote_id, number in self.cited.items():
            paragraphs = [
                [piece for piece in self.runs(paragraph, style) if isinstance(piece, Run) and piece.text]
                for paragraph in self.footnotes[footnote_id].iter(f"{W}p")
            ]
            if (definition := footnote_definition(number, paragraphs)) is not None:
                yield definition

    def picture(self, element: Any) -> Image | None:
        if element.find(f".//{W}txbxContent") is not None:
            self.count("text box")
        ole = element.find(f".//{O}OLEObject")
        if ole is not None:  # a spreadsheet, chart or equation of another program, shown as its picture
            program = (ole.get("ProgID") or "").split(".")[0] or "unknown program"
            self.count(f"embedded {program} object")  # its data; a picture of it is kept as an image
        blip = element.find(f".//{A}blip")
        rid = blip.get(f"{R}embed") if blip is not None else None
        if rid is None:
            data = element.find(f".//{V}imagedata")
            rid = data.get(f"{R}id") if data is not None else None
        rel = self.rels.get(rid) if rid is not None else None
        if rel is None or rel.external or rel.target not in self.package.names:
            if element.tag == f"{W}object" and ole is None:
                self.count("embedded object")
            return None
        doc_pr = element.find(f".//{WP}docPr")
        alt = ""
        if doc_pr is not None:
            alt = doc_pr.get("descr") or doc_pr.get("title") or ""
        if rel.target not in self.images_seen:
            self.images_seen[rel.target] = self.imported.add_asset(self.package.blob(rel.target))
        name = self.images_seen[rel.target]
        return Image(name, alt) if name is not None else None

    def paragraph(self, p: Any) -> Iterator[Block]:
        ppr = p.find(f"{W}pPr")
        style_id = None
        if ppr is not None:
            pstyle = ppr.find(f"{W}pStyle")
            style_id = pstyle.get(f"{W}val") if pstyle is not None else None
        style = self.styles.info(style_id)
        pieces = list(self.runs(p, style))
        runs = tuple(piece for piece in pieces if isinstance(piece, Run))
        images = [piece for piece in pieces if isinstance(piece, Image)]
        text = "".join(run.text for run in runs)
        if text.strip():
            yield self.classify(ppr, style, runs)
        elif style.mono and not self.mono_face and not images:
            yield Code("")  # an empty line of code: a blank line between code lines, kept
        yield from images

    def classify(self, ppr: Any, style: _StyleInfo, runs: tuple[Run, ...]) -> Block:
        name = style.name.lower()
        if name == "title":
            return Para(runs, "title")
        if name in ("subtitle", "author", "date"):  # pandoc writes a note's authors and date in these styles
            return Para(tuple(Run(run.text, code=run.code, link=run.link) for run in runs), name)
        if name in _QUOTE_STYLES:  # the quote's look is the style's, not emphasis
            return Para(tuple(Run(run.text, code=run.code, link=run.link) for run in runs), "quote", _QUOTE_STYLES[name])
        heading = style.heading
        if ppr is not None:
            outline = ppr.find(f"{W}outlineLvl")
            if outline is not None and _int(outline.get(f"{W}val"), 9) < 9:
                heading = _int(outline.get(f"{W}val"), 0) + 1
        if heading:
            return Para(tuple(Run(run.text, link=run.link) for run in runs), "heading", heading)
        num = style.num
        if ppr is not None and ppr.find(f"{W}numPr") is not None:
            num_pr = ppr.find(f"{W}numPr")
            num_id = num_pr.find(f"{W}numId")
            ilvl = num_pr.find(f"{W}ilvl")
            if num_id is not None:
                num = (num_id.get(f"{W}val", ""), _int(ilvl.get(f"{W}val") if ilvl is not None else None, 0))
            elif num is not None and ilvl is not None:
                num = (num[0], _int(ilvl.get(f"{W}val"), 0))
        if num is not None:
            found = self.numbering.next(*num)
            if found is not None:
                ordered, number = found
                level = num[1]
                if level == 0 and style.list_level:
                    level = style.list_level  # "List Bullet 2" whose numbering sits at level 0
                return Item(runs, level, ordered, number)
        text = "".join(run.text for run in runs)
        if all(run.code for run in runs if run.text.strip()) and text.strip():
            return Code(text)
        return Para(runs)

    def table(self, tbl: Any) -> Table:
        rows: list[tuple[tuple[Run, ...], ...]] = []
        for tr in tbl.iter(f"{W}tr"):
            if tr.getparent() is not tbl:
                continue
            cells: list[tuple[Run, ...]] = []
            for tc in tr.iter(f"{W}tc"):
                if tc.getparent() is not tr:
                    continue
                runs: list[Run] = []
                for p in tc.iter(f"{W}p"):
                    style = self.styles.info(None)
                    part = [piece for piece in self.runs(p, style) if isinstance(piece, Run)]
                    if part and runs:
                        runs.append(Run(" "))
                    runs += part
                cells.append(tuple(Run(run.text.replace("\n", " "), run.bold, run.italic, run.code, run.link) for run in runs))
            if cells:
                rows.append(tuple(cells))
        return Table(tuple(rows))


def _equations(element: Any) -> Iterator[Run]:
    """Word's equations as TeX: ``$…$`` in a sentence, ``$$…$$`` for a display one (``m:oMathPara``)."""
    from confnotes.importers.equations import tex_of

    if element.tag == f"{OMATH}oMath":
        tex = tex_of(element)
        if tex:
            yield Run(f"${tex}$", raw=True)
        return
    for math in element.iter(f"{OMATH}oMath"):
        tex = tex_of(math)
        if tex:
            yield Run(f"$${tex}$$", raw=True)


def read_docx(data: bytes, path: str) -> Imported:
    """Read a .docx; raises ``NotesError`` for an archive that is corrupt, a bomb, or points outside itself."""
    archive = open_zip(data, path, "Word document")
    names = set(archive.namelist())
    if "word/document.xml" not in names and "[Content_Types].xml" not in names:
        raise input_error("not a Word document (no word/document.xml in the archive)", path)
    check_relationships(archive, path)
    package = _Package(archive, path)
    package_rels = package.rels("")
    main = package.related(package_rels, "officeDocument") or "word/document.xml"
    root = package.xml(main)
    body = root.find(f"{W}body") if root is not None else None
    if body is None:
        raise input_error(f"not a readable Word document (no document body in '{main}')", path)
    imported = Imported("docx")
    core = package.xml(package.related(package_rels, "core-properties"))
    title = core.find(_DC_TITLE) if core is not None else None
    imported.title = ((title.text or "").strip() or None) if title is not None else None
    rels = package.rels(main)
    reader = _Reader(package, rels, imported)
    blocks = list(reader.body(body))
    texts = [block for block in blocks if isinstance(block, (Para, Code))]
    if len(texts) >= 3 and all(isinstance(block, Code) for block in texts):
        imported.assets.clear()
        reader = _Reader(package, rels, imported)
        reader.mono_face = True
        blocks = list(reader.body(body))
    imported.blocks = [*merge_code(blocks), *reader.definitions()]
    for what, count in reader.counts.items():
        imported.drop(f"{count} {what}{'s' if count != 1 and not what.endswith('text') else ''}")
    return imported
