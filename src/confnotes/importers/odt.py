"""OpenDocument text (.odt, LibreOffice's own format) to the block stream.

The same blocks and recovery as a Word document: ``content.xml``'s body is walked in document
order — headings (``text:h`` and its outline level), paragraphs with their styles followed to
their parents (Title, Subtitle, Heading n, Preformatted Text), lists with their levels, kinds and
numbers (a list style's level says bullet or number, ``continue-numbering`` and ``start-value``
keep the count), tables, pictures in frames (``draw:image`` in ``Pictures/``, alt text from the
frame's title or description), spans (bold, italic, a monospace face or the Source Text style),
links, and the spaces, tabs and line breaks ODF writes as elements. Footnotes, comments, tracked
deletions and a table of contents are left out and named. The archive is opened with the same
safety rules as a Word document's (size, members, ratio); the XML with no entities, no DTD and
no network.
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
from confnotes.importers.safety import open_zip, read_member

OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
FO = "{urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0}"
TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
SVG = "{urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0}"
XLINK = "{http://www.w3.org/1999/xlink}"
ODT_MIMETYPE = "application/vnd.oasis.opendocument.text"
_SPACES = re.compile(r"[ \t\r\n]+")
_HEADING_NAME = re.compile(r"^heading[ _]?(?:_20_)?(\d)$", re.I)
_CODE_STYLE = re.compile(r"preformatted|source|code|verbatim|plain[ _]?(?:_20_)?text", re.I)
#: elements whose text is not the body's: notes, comments, deleted text, bookmarks and fields' hidden parts
_SKIPPED = {f"{TEXT}note": "endnote", f"{OFFICE}annotation": "comment", f"{TEXT}tracked-changes": ""}  # (footnotes are read)


@dataclass
class _Look:
    """A style's effect as its parents and its own properties set it."""

    name: str = ""  # the common (named) style it is or derives from: "Title", "Heading 2", "Standard"…
    heading: int = 0
    bold: bool | None = None
    italic: bool | None = None
    mono: bool = False


@dataclass
class _ListStyle:
    """A list style's levels: (ordered, start) for each level from 1."""

    levels: dict[int, tuple[bool, int]] = field(default_factory=dict)


class _Styles:
    """Named styles (styles.xml) and automatic ones (content.xml) by family and name, parents followed."""

    def __init__(self, *roots: Any) -> None:
        self.raw: dict[tuple[str, str], Any] = {}
        self.lists: dict[str, _ListStyle] = {}
        for root in roots:
            if root is None:
                continue
            for style in root.iter(f"{STYLE}style"):
                self.raw[(style.get(f"{STYLE}family", ""), style.get(f"{STYLE}name", ""))] = style
            for list_style in root.iter(f"{TEXT}list-style"):
                found = _ListStyle()
                for level in list_style:
                    number = _int(level.get(f"{TEXT}level"), 1)
                    if level.tag == f"{TEXT}list-level-style-number":
                        ordered = bool(level.get(f"{STYLE}num-format", "1"))
                        found.levels[number] = (ordered, _int(level.get(f"{TEXT}start-value"), 1))
                    else:
                        found.levels[number] = (False, 1)
                self.lists[list_style.get(f"{STYLE}name", "")] = found
        self.cache: dict[tuple[str, str], _Look] = {}

    def look(self, family: str, name: str | None) -> _Look:
        key = (family, name or "")
        if key in self.cache:
            return self.cache[key]
        chain: list[Any] = []
        current = self.raw.get(key)
        while current is not None and len(chain) < 20 and current not in chain:
            chain.append(current)
            parent = current.get(f"{STYLE}parent-style-name")
            current = self.raw.get((family, parent)) if parent else None
        look = _Look()
        for style in reversed(chain):  # the root parent first, the style's own settings last
            automatic = style.getparent() is not None and style.getparent().tag == f"{OFFICE}automatic-styles"
            if not automatic:
                look.name = style.get(f"{STYLE}display-name") or style.get(f"{STYLE}name", "").replace("_20_", " ")
            level = style.get(f"{STYLE}default-outline-level")
            if level and not automatic:
                look.heading = _int(level, 0)
            props = style.find(f"{STYLE}text-properties")
            if props is not None:
                weight = props.get(f"{FO}font-weight")
                if weight is not None:
                    look.bold = weight == "bold" or (weight.isdigit() and int(weight) >= 600)
                slant = props.get(f"{FO}font-style")
                if slant is not None:
                    look.italic = slant in ("italic", "oblique")
                face = props.get(f"{STYLE}font-name") or props.get(f"{FO}font-family")
                if face is not None:
                    look.mono = is_monospace(face.strip("'\""))
        heading = _HEADING_NAME.match(look.name.replace(" ", ""))
        if heading:
            look.heading = int(heading.group(1))
        if look.name.lower() in ("title", "subtitle"):
            look.heading = 0
        if _CODE_STYLE.search(look.name):
            look.mono = True
        self.cache[key] = look
        return look


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


class _Reader:
    def __init__(self, archive: zipfile.ZipFile, path: str, styles: _Styles, imported: Imported) -> None:
        self.archive = archive
        self.path = path
        self.names = set(archive.namelist())
        self.styles = styles
        self.imported = imported
        self.counts: dict[str, int] = {}
        self.counters: dict[str, list[int]] = {}  # a list style's counters by level, as the document goes
        self.images_seen: dict[str, str | None] = {}
        self.notes: list[Any] = []  # the footnotes the text cites, in order (``text:note``)

    def definitions(self) -> Iterator[Para]:
        """The footnotes as Markdown's definitions (``[^1]: …``), each its paragraphs run together."""
        for number, note in enumerate(self.notes, start=1):
            body = note.find(f"{TEXT}note-body")
            paragraphs = []
            for p in body.iter(f"{TEXT}p", f"{TEXT}h") if body is not None else ():
                part, _images = self.runs_of(p, self.styles.look("paragraph", p.get(f"{TEXT}style-name")))
                paragraphs.append([Run(run.text.replace("\n", " "), run.bold, run.italic, run.code, run.link, run.raw) for run in part])
            if (definition := footnote_definition(number, paragraphs)) is not None:
                yield definition

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    # ---------------------------------------------------------------- body

    def body(self, element: Any) -> Iterator[Block]:
        for child in element:
            tag = child.tag
            if tag in (f"{TEXT}p", f"{TEXT}h"):
                yield from self.paragraph(child)
            elif tag == f"{TEXT}list":
                yield from self.items_of(child, 0, child.get(f"{TEXT}style-name"))
            elif tag == f"{TABLE}table":
                yield self.table(child)
            elif tag == f"{TEXT}table-of-content":
                self.count("table of contents")
            elif tag in (f"{TEXT}section", f"{TEXT}soft-page-break") or tag == f"{TEXT}index-body":
                yield from self.body(child)

    def items_of(self, element: Any, level: int, style: str | None) -> Iterator[Block]:
        style = element.get(f"{TEXT}style-name") or style
        key = style or ""
        counters = self.counters.setdefault(key, [])
        if level == 0 and element.get(f"{TEXT}continue-numbering") != "true" and not element.get(f"{TEXT}continue-list"):
            counters.clear()  # a new list: its numbers start again
        ordered, start = self.styles.lists.get(key, _ListStyle()).levels.get(level + 1, (False, 1))
        for item in element:
            if item.tag not in (f"{TEXT}list-item", f"{TEXT}list-header"):
                continue
            while len(counters) <= level:
                counters.append(0)
            del counters[level + 1 :]  # an item restarts the levels below it
            restart = item.get(f"{TEXT}start-value")
            counters[level] = _int(restart, start) if restart or not counters[level] else counters[level] + 1
            first = True
            for child in item:
                if child.tag == f"{TEXT}list":
                    yield from self.items_of(child, level + 1, style)
                elif child.tag in (f"{TEXT}p", f"{TEXT}h") and first and item.tag == f"{TEXT}list-item":
                    first = False
                    runs, images = self.runs_of(child, self.styles.look("paragraph", child.get(f"{TEXT}style-name")))
                    yield Item(runs, level, ordered, counters[level] if ordered else None)
                    yield from images
                else:
                    yield from self.body([child])

    def paragraph(self, p: Any) -> Iterator[Block]:
        look = self.styles.look("paragraph", p.get(f"{TEXT}style-name"))
        runs, images = self.runs_of(p, look)
        formulas = [run for run in runs if run.raw]
        if len(formulas) == 1 and not "".join(run.text for run in runs if not run.raw).strip():
            runs = (Run(f"${formulas[0].text}$", raw=True),)  # a formula on a line of its own: a display one
        text = "".join(run.text for run in runs)
        if text.strip():
            yield self.classify(p, look, runs)
        elif look.mono and not images:
            yield Code("")  # an empty line of code: a blank line between code lines, kept
        yield from images

    def classify(self, p: Any, look: _Look, runs: tuple[Run, ...]) -> Block:
        name = look.name.lower()
        if name == "title":
            return Para(tuple(Run(run.text, code=run.code, link=run.link) for run in runs), "title")
        if name in ("subtitle", "author", "date"):  # pandoc writes a note's authors and date in these styles
            return Para(tuple(Run(run.text, code=run.code, link=run.link) for run in runs), name)
        level = _int(p.get(f"{TEXT}outline-level"), look.heading) if p.tag == f"{TEXT}h" else look.heading
        if level:
            return Para(tuple(Run(run.text, link=run.link) for run in runs), "heading", level)
        return Para(runs)

    def runs_of(self, p: Any, look: _Look) -> tuple[tuple[Run, ...], list[Image]]:
        runs: list[Run] = []
        images: list[Image] = []
        self._collect(p, look, None, runs, images)
        merged: list[Run] = []
        for run in runs:  # neighbours of one look are one run (ODF splits text at every element)
            if (
                merged
                and not run.raw
                and not merged[-1].raw
                and (merged[-1].bold, merged[-1].italic, merged[-1].code, merged[-1].link)
                == (
                    run.bold,
                    run.italic,
                    run.code,
                    run.link,
                )
            ):
                merged[-1] = Run(merged[-1].text + run.text, run.bold, run.italic, run.code, run.link)
            else:
                merged.append(run)
        return tuple(merged), images

    def _collect(self, element: Any, look: _Look, link: str | None, runs: list[Run], images: list[Image]) -> None:
        def add(text: str | None) -> None:
            if text:  # white space in ODF text collapses to one space (more are text:s, tabs text:tab)
                runs.append(Run(_SPACES.sub(" ", text), bool(look.bold), bool(look.italic), look.mono, link))

        add(element.text)
        for child in element:
            tag = child.tag
            if tag == f"{TEXT}note" and child.get(f"{TEXT}note-class", "footnote") == "footnote":
                runs.append(Run(f"[^{len(self.notes) + 1}]", raw=True))  # its text: a definition at the end
                self.notes.append(child)
            elif tag in _SKIPPED:
                if _SKIPPED[tag]:
                    self.count(_SKIPPED[tag])
            elif tag == f"{TEXT}s":
                runs.append(Run(" " * max(1, _int(child.get(f"{TEXT}c"), 1)), bool(look.bold), bool(look.italic), look.mono, link))
            elif tag == f"{TEXT}tab":
                runs.append(Run("\t" if look.mono else " ", bool(look.bold), bool(look.italic), look.mono, link))
            elif tag == f"{TEXT}line-break":
                runs.append(Run("\n", bool(look.bold), bool(look.italic), look.mono, link))
            elif tag == f"{TEXT}span":
                inner = self.styles.look("text", child.get(f"{TEXT}style-name"))
                merged = _Look(
                    look.name,
                    look.heading,
                    inner.bold if inner.bold is not None else look.bold,
                    inner.italic if inner.italic is not None else look.italic,
                    look.mono or inner.mono,
                )
                self._collect(child, merged, link, runs, images)
            elif tag == f"{TEXT}a":
                href = child.get(f"{XLINK}href") or ""
                safe = href if re.match(r"^(https?:|mailto:|#)", href, re.I) else None
                self._collect(child, look, safe or link, runs, images)
            elif tag == f"{DRAW}frame":
                self._frame(child, runs, images)
            elif tag in (f"{TEXT}bookmark", f"{TEXT}bookmark-start", f"{TEXT}bookmark-end", f"{TEXT}soft-page-break"):
                pass
            else:  # fields (dates, page numbers, sequences), meta, ruby: their text as shown
                self._collect(child, look, link, runs, images)
            add(child.tail)

    def _frame(self, frame: Any, runs: list[Run], images: list[Image]) -> None:
        """A frame in the text: a LibreOffice Math formula as TeX where it stands, or a picture."""
        tex = self.formula(frame)
        if tex is not None:
            runs.append(Run(f"${tex}$", raw=True))
        elif (image := self.picture(frame)) is not None:
            images.append(image)

    def formula(self, frame: Any) -> str | None:
        """The TeX of a frame holding a formula (an embedded object whose content is MathML, as
        LibreOffice Math writes it); None for a frame holding anything else."""
        from confnotes.importers.equations import tex_of
        from confnotes.markup.math import MathError
        from confnotes.markup.omml import omml_of

        found = frame.find(f"{DRAW}object")
        href = found.get(f"{XLINK}href", "") if found is not None else ""
        name = posixpath.normpath(href.removeprefix("./")) + "/content.xml" if href and ":" not in href else ""
        if not name or name.startswith("..") or name not in self.names:
            return None
        root = _parse(self.archive, name, self.path)
        if root is None or root.tag != "{http://www.w3.org/1998/Math/MathML}math":
            return None
        try:
            tex = tex_of(omml_of(root))
        except MathError:
            tex = ""
        if not tex:
            self.count("formula that could not be read")
            return None
        return tex

    def picture(self, frame: Any) -> Image | None:
        image = frame.find(f"{DRAW}image")
        if image is None:
            if frame.find(f"{DRAW}object") is not None or frame.find(f"{DRAW}object-ole") is not None:
                self.count("embedded object")
            elif frame.find(f"{DRAW}text-box") is not None:
                self.count("text box")
            return None
        href = image.get(f"{XLINK}href") or ""
        target = posixpath.normpath(href) if href and not re.match(r"^[a-z][a-z0-9+.-]*:", href, re.I) else ""
        if not target or target.startswith("..") or target not in self.names:
            self.count("missing image")
            return None
        if target not in self.images_seen:
            self.images_seen[target] = self.imported.add_asset(read_member(self.archive, target, self.path, "OpenDocument file"))
        name = self.images_seen[target]
        if name is None:
            return None
        alt = ""
        for tag in (f"{SVG}title", f"{SVG}desc"):
            found = frame.find(tag)
            if found is not None and (found.text or "").strip():
                alt = found.text.strip()
                break
        return Image(name, alt)

    def table(self, element: Any) -> Table:
        rows: list[tuple[tuple[Run, ...], ...]] = []
        for row in element.iter(f"{TABLE}table-row"):
            if row.getparent() is not element and row.getparent().getparent() is not element:  # rows, or header rows
                continue
            cells: list[tuple[Run, ...]] = []
            for cell in row:
                if cell.tag not in (f"{TABLE}table-cell", f"{TABLE}covered-table-cell"):
                    continue
                runs: list[Run] = []
                for p in cell.iter(f"{TEXT}p", f"{TEXT}h"):
                    part, _images = self.runs_of(p, self.styles.look("paragraph", p.get(f"{TEXT}style-name")))
                    if part and runs:
                        runs.append(Run(" "))
                    runs += part
                repeat = min(_int(cell.get(f"{TABLE}number-columns-repeated"), 1), 64)
                cells += [tuple(Run(run.text.replace("\n", " "), run.bold, run.italic, run.code, run.link) for run in runs)] * repeat
            while cells and not any(run.text.strip() for run in cells[-1]):
                cells.pop()  # a spreadsheet-style row's trailing empty cells
            if cells:
                rows.append(tuple(cells))
        width = max((len(row) for row in rows), default=0)
        return Table(tuple(row + ((),) * (width - len(row)) for row in rows))


def _parse(archive: zipfile.ZipFile, name: str, path: str) -> Any:
    from confnotes.edges.xmlread import XmlError, parse_xml

    if name not in set(archive.namelist()):
        return None
    try:
        with archive.open(name) as handle:
            return parse_xml(handle)
    except XmlError as exc:
        if exc.entities:  # entities are never expanded: refused, not read half
            raise input_error(f"'{name}' declares a document type or entities; confnotes reads no such document", path) from None
        raise input_error(f"not a readable OpenDocument file ('{name}': {exc.reason})", path) from None


def read_odt(data: bytes, path: str) -> Imported:
    """Read an .odt; raises ``NotesError`` for an archive that is corrupt, a bomb, or not a text document."""
    archive = open_zip(data, path, "OpenDocument file")
    names = set(archive.namelist())
    mimetype = read_member(archive, "mimetype", path, "OpenDocument file").decode("ascii", "replace").strip() if "mimetype" in names else ""
    if mimetype and mimetype != ODT_MIMETYPE and not mimetype.startswith(ODT_MIMETYPE):
        kind = mimetype.rsplit(".", 1)[-1]
        raise input_error(f"an OpenDocument {kind} file: confnotes imports text documents (.odt)", path)
    content = _parse(archive, "content.xml", path)
    body = content.find(f"{OFFICE}body/{OFFICE}text") if content is not None else None
    if body is None:
        raise input_error("not a readable OpenDocument text (no office:text in content.xml)", path)
    styles = _Styles(_parse(archive, "styles.xml", path), content)
    imported = Imported("odt")
    reader = _Reader(archive, path, styles, imported)
    blocks = list(reader.body(body))
    imported.blocks = [*merge_code(_code_paragraphs(blocks)), *reader.definitions()]
    for what, count in reader.counts.items():
        imported.drop(f"{count} {what}{'s' if count != 1 else ''}")
    return imported


def _code_paragraphs(blocks: list[Block]) -> list[Block]:
    """A paragraph all of whose text is monospace is code, as in a Word document."""
    out: list[Block] = []
    for block in blocks:
        if isinstance(block, Para) and not block.style and block.text.strip() and all(run.code for run in block.runs if run.text.strip()):
            out.append(Code(block.text))
        else:
            out.append(block)
    return out
