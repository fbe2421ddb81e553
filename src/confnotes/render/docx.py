"""A note as a Word document (``--to docx``), written with python-docx in Word's own styles.

The outline maps to what Word users expect and what ``confnotes import`` reads back: the title in
*Title*, the event, date and speakers as ``Event: …`` lines, each section in *Heading N* by its
depth, items in *List Bullet* / *List Number* (levels 1–3, deeper ones at 3) with Word's own
numbering — each numbered list restarts at its first number —, bold where the note is bold, code
in *Source Code* (a monospace style), quotes in *Quote*, callouts in *Intense Quote* under their
title, tables in *Table Grid*, pictures next to the note embedded at most the text's width, and
links that can be clicked, and footnotes as Word's own (a ``footnotes.xml`` part python-docx does
not write itself; a definition nothing cites is listed under *Notes* at the end). Formulas are
Word's own equations (OMML, ``confnotes.markup.omml``): display ones centred on a line of their
own, inline ones in their sentence; TeX no output can read stays as its text. Speaker notes become Word comments on the paragraph before
them when notes are shown, else are left out.

``--reference-docx FILE`` (config ``reference_docx``) starts from a team's own document: its
styles, page setup, headers and footers are kept, its body replaced.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from confnotes.errors import NotesError, render_error
from confnotes.markup.escape import xml_ready, xml_safe, xml_text
from confnotes.model import Block, Document, List, Node
from confnotes.model.values import Callout, Code, Diagram, Math, Quote, Table
from confnotes.parse.values import IMAGE_REF
from confnotes.render.markdown import MAX_PAGE_TABLE_CELLS, InlineRenderer
from confnotes.render.options import RenderOptions

#: A reference document is a few hundred KB; a larger one is refused before it is unpacked.
MAX_REFERENCE_BYTES = 32 * 1024 * 1024
#: A picture is at most this wide (inches): the text's width on A4 and Letter with Word's margins.
MAX_PICTURE_INCHES = 6.0
CODE_STYLE = "Source Code"
#: The size (px) a table's text is measured at to share the text's width among its columns: Word's
#: 11 pt body.
TABLE_PX = 14.7


def render(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[bytes, list[str]]:
    from confnotes.render.printed import WORD, printed_part

    doc = xml_ready(doc)  # a form feed or U+FFFE in the note: U+FFFD in Word, not an lxml error
    doc, cut = printed_part(doc, WORD)  # a 20 MB note: the parts a Word document holds, the rest named
    word = _open(options.reference_docx)
    md = InlineRenderer(base_dir=base_dir, allow_html=options.allow_html)
    notes = md.load_note(doc, "end")
    writer = _Writer(word, md, options, base_dir)
    writer.notes = {number: text for number, _label, text in notes.ordered}
    writer.title(doc)
    writer.content(doc.content, 0)
    writer.footnotes([(number, text) for number, _label, text in notes.ordered if number not in writer.placed])
    _footnotes_part(word, writer.placed, md)
    out = io.BytesIO()
    word.save(out)
    return out.getvalue(), [*md.warnings, *writer.warnings, *([cut] if cut else [])]


def _open(reference: str | None) -> Any:
    """A new document, or the reference document with its body emptied (its section settings kept)."""
    import docx

    if not reference:
        word = docx.Document()
    else:
        from confnotes.edges.archives import open_zip
        from confnotes.edges.source import read_bytes

        try:
            data = read_bytes(reference, "reference Word document", MAX_REFERENCE_BYTES)
            open_zip(data, reference, "reference Word document").close()
            word = docx.Document(io.BytesIO(data))
        except NotesError as exc:
            raise render_error(f"cannot read reference Word document: {exc.message}", reference) from None
        except Exception as exc:  # noqa: BLE001 - python-docx raises many kinds for a file that is not a .docx
            raise render_error(f"cannot read reference Word document: {str(exc) or type(exc).__name__}", reference) from None
        body = word.element.body
        for child in list(body):
            if not child.tag.endswith("}sectPr"):
                body.remove(child)
        _only_its_styles(word)
    _code_style(word)
    return word


#: what a reference document gives besides its styles: the parts its document reaches by type, not
#: by an id in its text (styles, numbering, theme, fonts, settings; headers and footers are reached
#: by the section settings' ids)
_KEPT_PARTS = frozenset(
    f"http://schemas.openxmlformats.org/officeDocument/2006/relationships/{name}"
    for name in ("styles", "stylesWithEffects", "numbering", "theme", "fontTable", "settings", "webSettings")
)
_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def _only_its_styles(word: Any) -> None:
    """The reference document reduced to what a note's Word document takes from it: no relationship
    to anything outside the file (an attached remote template, a linked picture, an OLE object or a
    frame naming ``file:///etc/passwd``: the template-injection shape), and none of its emptied
    body's (its pictures, links, comments); an element naming a dropped relationship goes too."""
    package = word.part.package
    used = {value for element in word.element.iter() for key, value in element.attrib.items() if key.startswith(_ID)}
    for part in [word.part, *(p for p in package.iter_parts() if p is not word.part)]:
        rels = part.rels
        dropped = {
            rid
            for rid, rel in rels.items()
            if rel.is_external or (part is word.part and rid not in used and rel.reltype not in _KEPT_PARTS)
        }
        for rid in dropped:
            rels.pop(rid)
            rels.related_parts.pop(rid, None)
        element = getattr(part, "_element", None)
        if dropped and element is not None:
            for holder in [e for e in element.iter() if any(k.startswith(_ID) and v in dropped for k, v in e.attrib.items())]:
                whole = next((a for a in holder.iterancestors() if a.tag.rpartition("}")[2] in ("drawing", "pict", "object")), holder)
                parent = whole.getparent()
                if parent is not None:  # a picture, object or frame that names it, whole; else the element
                    parent.remove(whole)


def _code_style(word: Any) -> None:
    """*Source Code*: a monospace paragraph style on a light shade (the reference's own, if it has one)."""
    from docx.enum.style import WD_STYLE_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import Pt

    if CODE_STYLE in [style.name for style in word.styles]:
        return
    style = word.styles.add_style(CODE_STYLE, WD_STYLE_TYPE.PARAGRAPH)
    style.base_style = word.styles["Normal"]
    style.font.name = "Courier New"
    style.font.size = Pt(9.5)
    style.paragraph_format.space_after = Pt(6)
    shade = OxmlElement("w:shd")
    shade.set(qn("w:val"), "clear")
    shade.set(qn("w:fill"), "F3F4F6")
    style.element.get_or_add_pPr().append(shade)


class _Writer:
    def __init__(self, word: Any, md: InlineRenderer, options: RenderOptions, base_dir: Path | None) -> None:
        self.word, self.md, self.options, self.base_dir = word, md, options, base_dir
        self.warnings: list[str] = []
        self.last: Any = None  # the last paragraph written: a speaker note comments on it
        self.notes: dict[int, str] = {}  # the note's footnotes by number
        self.placed: dict[int, str] = {}  # those cited so far: Word footnotes (footnotes.xml)
        self.style_ids: dict[str, str | None] = {}  # a style's name -> its id, looked up once (``new_paragraph``)
        self.sections = word.element.body.sectPr  # the body's last child: each paragraph goes before it

    def new_paragraph(self, style: str | None = None, text: str = "") -> Any:
        """A paragraph at the document's end in ``style``. python-docx looks a style's name up among
        all styles, and the default style too, for every paragraph (0.8 ms each: 40,000 list items
        took 69 s); the name is looked up once here and the paragraph given the style's id."""
        from docx.oxml import OxmlElement
        from docx.text.paragraph import Paragraph

        # placed before the body's section settings at once: python-docx searches the body for them
        # for every paragraph, which grows with the document (40,000 items: 44 s of 45)
        element = OxmlElement("w:p")
        if self.sections is not None:
            self.sections.addprevious(element)
        else:
            self.word.element.body.append(element)
        paragraph = Paragraph(element, self.word._body)  # noqa: SLF001 - the parent add_paragraph gives it
        if text:
            paragraph.add_run(text)
        if style:
            if style not in self.style_ids:
                found = self.word.styles[style]
                self.style_ids[style] = None if found == self.word.styles.default(found.type) else found.style_id
            if self.style_ids[style] is not None:
                paragraph._p.style = self.style_ids[style]  # noqa: SLF001 - what python-docx's setter writes
        return paragraph

    # -- the outline -------------------------------------------------------------------------
    def title(self, doc: Document) -> None:
        meta = doc.meta
        self.last = self.paragraph(meta.title, "Title")
        # several speakers apart by "; " (a speaker may be "Name, Company"): import reads them back so
        for label, value in (("Event", meta.event), ("Date", meta.date), ("Speakers", "; ".join(meta.speakers))):
            if value:
                self.last = self.new_paragraph(text=f"{label}: {value}")
        # what File > Properties shows, as the PDF's metadata does (Word's core properties hold 255 characters)
        self.word.core_properties.title = meta.plain_title[:255]
        self.word.core_properties.author = "; ".join(meta.speakers)[:255]
        self.word.core_properties.subject = (meta.event or "")[:255]

    def content(self, content: tuple[Any, ...], depth: int) -> None:
        from confnotes.slides.build import boxed

        for entry in boxed(content):  # a Quarto callout div holding text: the callout quote
            if type(entry) is Node and entry.is_section:
                self.last = self.paragraph(entry.title, f"Heading {min(depth + 1, 9)}")
                self.content(entry.content, depth + 1)
            elif type(entry) is List:
                self.items(entry, 1)
            elif type(entry) is Block:
                self.block(entry, None)

    def items(self, lst: List, level: int) -> None:
        kind = "List Number" if lst.ordered else "List Bullet"
        style = kind if level == 1 else f"{kind} {min(level, 3)}"
        restart = self._restart(style, int(lst.start or 1)) if lst.ordered else None
        for node in lst.items:
            paragraph = self.new_paragraph(style)
            if restart is not None:
                _number(paragraph, restart)
            self.runs(paragraph, node.title)  # a "Label:" bold only where the note made it bold: import reads it back as written
            self.last = paragraph
            for entry in node.content:
                if type(entry) is List:
                    self.items(entry, level + 1)
                elif type(entry) is Block:
                    self.block(entry, f"List Continue {min(level, 3)}" if level > 1 else "List Continue")
                elif type(entry) is Node:  # a section cannot stand in an item; its words are kept
                    self.last = self.paragraph(entry.title, f"List Continue {min(level, 3)}" if level > 1 else "List Continue")
                    self.content(entry.content, 1)

    def _restart(self, style: str, start: int) -> int | None:
        """A fresh numbering of ``style``'s list that starts at ``start``: its ``numId`` (None when
        the style has no numbering of its own, as in some reference documents)."""
        from docx.oxml.ns import qn

        num_pr = self.word.styles[style].element.pPr
        num_pr = None if num_pr is None else num_pr.find(qn("w:numPr"))
        num_id = None if num_pr is None else num_pr.find(qn("w:numId"))
        if num_id is None:
            return None
        numbering = self.word.part.numbering_part.numbering_definitions._numbering  # noqa: SLF001 - no public API
        abstract = numbering.num_having_numId(int(num_id.get(qn("w:val")))).abstractNumId.val
        num = numbering.add_num(abstract)
        override = num.add_lvlOverride(ilvl=0)
        override.add_startOverride(start)
        return int(num.numId)

    # -- blocks ------------------------------------------------------------------------------
    def block(self, block: Block, style: str | None) -> None:
        kind = block.kind
        if kind in ("reference", "comment", "footnote", "break", "div"):
            if kind == "div" and not block.info:
                self.last = self.paragraph(block.text, style)  # a fence that pairs with nothing: its text
            return
        if kind == "note":
            self.speaker_note(block)
        elif type(block.value) is Diagram:
            self.diagram(block.value)
        elif type(block.value) is Code:
            self.code(block.value.lines)
        elif type(block.value) is Table and (cells := block.value.columns * len(block.value.all_rows)) > MAX_PAGE_TABLE_CELLS:
            self.warnings.append(
                f"table of {cells:,} cells (line {block.span.start}) shown as its text: a document lays out at most "
                f"{MAX_PAGE_TABLE_CELLS:,} cells a table"
            )
            self.code(block.text.split("\n"))
        elif type(block.value) is Table:
            self.table(block.value)
        elif type(block.value) in (Quote, Callout):
            self.quote(block.value)  # type: ignore[arg-type]
        elif kind == "math":
            self.formula(block, style)
        else:
            self.text(block.text, style)

    def formula(self, block: Block, style: str | None) -> None:
        """A display formula as a Word equation on its own line; its TeX as text where no output can
        read it (with the warning every output gives)."""
        from confnotes.markup.math import MathError
        from confnotes.markup.omml import omml

        text = block.text
        tex = block.value.tex if type(block.value) is Math else None
        try:
            equation = omml(tex, True) if tex is not None else None
        except MathError as exc:
            self.warnings.append(f"math not typeset ({exc}); shown as TeX: $${(tex or '')[:60]}$$")
            equation = None
        if equation is None:
            self.last = self.paragraph(text, style)
            self.last.alignment = 1
            return
        self.last = self.new_paragraph(style)
        self.last._p.append(equation)  # noqa: SLF001 - python-docx has no equations of its own

    def text(self, text: str, style: str | None) -> None:
        """Paragraphs (blank-line separated), a picture where one stands alone on its line."""
        for part in re.split(r"\n\s*\n", text.strip()):
            picture = IMAGE_REF.fullmatch(part.strip())
            if picture and picture.group(2) and self.picture(picture.group(2), picture.group(1)):
                continue
            self.last = self.paragraph(part, style)

    def picture(self, src: str, alt: str) -> bool:
        from docx.shared import Inches

        from confnotes.edges.images import image_warning, local_image
        from confnotes.edges.video import check_video, is_video, video_link

        if is_video(src):  # Word plays no video: a link to it, from where the document goes, centred
            video, why = check_video(src, self.base_dir, embedded=False)
            if why is not None:
                self.warnings.append(why)
            self.last = self.new_paragraph()
            self.last.alignment = 1
            from confnotes.render.inline.links import safe_link

            href = video_link(src, video, self.options.output_dir)
            run = _hyperlink_run(self.last, href) if safe_link(src) else self.last.add_run()  # never a javascript: address
            run.text = f"\u25b6 {alt or src}"
            return True
        path = local_image(src, self.base_dir)
        if path is None:
            if (why := image_warning(src, self.base_dir)) is not None:
                self.warnings.append(why)
            return False
        try:
            from PIL import Image

            with Image.open(path) as image:
                width = min(MAX_PICTURE_INCHES, image.width / (image.info.get("dpi", (96, 96))[0] or 96))
            self.word.add_picture(str(path), width=Inches(width))
        except Exception as exc:  # noqa: BLE001 - Pillow and python-docx raise many kinds for a bad picture
            self.warnings.append(f"picture {src} not embedded: {str(exc) or type(exc).__name__}")
            return False
        self.placed_picture(alt)
        return True

    def placed_picture(self, alt: str) -> None:
        """The picture just added: centred on its line, with ``alt`` as its alt text."""
        self.last = self.word.paragraphs[-1]
        self.last.alignment = 1  # centred
        if alt:
            descr = self.last._p.xpath(".//wp:docPr")  # noqa: SLF001 - the picture's alt text
            if descr:
                descr[0].set("descr", alt)

    def diagram(self, diagram: Diagram) -> None:
        """A diagram as the picture every output draws (``confnotes.markup.diagrams``' cache), its source in
        the alt text; as code, with the warning every output gives, where it is not drawn here."""
        from docx.shared import Inches

        from confnotes.markup.diagrams import diagram_name, draw, drawn_size, png, shown_as_code

        drawn = draw(diagram.tool, diagram.source)
        size = drawn_size(drawn.svg) if drawn.svg is not None else None
        if drawn.svg is None or size is None:
            self.warnings.append(shown_as_code(diagram.tool, diagram.source, drawn.problem or "it has no size"))
            self.code(diagram.code.lines)
            return
        width = min(MAX_PICTURE_INCHES, size[0] / 96)
        try:
            self.word.add_picture(io.BytesIO(png(drawn.svg, int(2 * 96 * width))), width=Inches(width))
        except Exception as exc:  # noqa: BLE001 - resvg and python-docx raise many kinds for a bad drawing
            self.warnings.append(shown_as_code(diagram.tool, diagram.source, str(exc) or type(exc).__name__))
            self.code(diagram.code.lines)
            return
        self.placed_picture(xml_safe(f"{diagram_name(diagram.tool)}: " + " ".join(diagram.source.split())[:500]))

    def code(self, lines: Sequence[str]) -> None:
        paragraph = self.new_paragraph(CODE_STYLE)
        run = paragraph.add_run()
        for index, line in enumerate(lines):
            if index:
                run.add_break()
            run.add_text(line)
        self.last = paragraph

    def quote(self, value: Quote | Callout) -> None:
        """A quote in *Quote*, a callout in *Intense Quote* under its title; a list inside either
        keeps its items, each a paragraph behind its bullet or number."""
        style, lines = "Quote", value.lines if type(value) is Quote else ()
        if type(value) is Callout:
            from docx.shared import RGBColor

            from confnotes.markup.callouts import COLOURS, GLYPHS

            title = self.paragraph(f"{GLYPHS[value.kind]} {value.title}", "Intense Quote", bold=True)  # its kind's sign, as Marp's
            for run in title.runs:
                run.font.color.rgb = RGBColor.from_string(COLOURS[value.kind])
            self.last = title
            style, lines = "Intense Quote", value.body.lines if value.body is not None else ()
        for line in lines:
            self.last = self.paragraph(line.shown, style)

    def table(self, value: Table) -> None:
        """A table in *Table Grid*, its columns as wide as the fit engine shares the text's width
        among them (``slides.fit.table_widths``: a column gets room for its longest word first)."""
        from docx.enum.text import WD_ALIGN_PARAGRAPH
        from docx.shared import Emu

        from confnotes.slides.fit import table_widths

        cells = value.all_rows  # (a pipe escaped in a cell stays in it)
        aligns = value.aligns
        align = {"left": WD_ALIGN_PARAGRAPH.LEFT, "center": WD_ALIGN_PARAGRAPH.CENTER, "right": WD_ALIGN_PARAGRAPH.RIGHT}
        width = value.columns
        table = self.word.add_table(rows=len(cells), cols=width)
        table.style = "Table Grid"
        table.autofit = False
        shares = table_widths(value, TABLE_PX, MAX_PICTURE_INCHES * 96)
        widths = [Emu(int(914400 * MAX_PICTURE_INCHES * share / sum(shares))) for share in shares]
        for c, column in enumerate(table.columns):
            column.width = widths[c]
        for r, (row, made) in enumerate(zip(cells, table.rows, strict=True)):
            row_cells = made.cells  # a row's cells at once: ``table.cell(r, c)`` walks the whole table each time
            for c in range(width):
                row_cells[c].width = widths[c]  # Word lays a table out by its cells' widths
                paragraph = row_cells[c].paragraphs[0]
                self.runs(paragraph, row[c] if c < len(row) else "", bold=r == 0)
                if c < len(aligns) and aligns[c]:  # as the delimiter row says (--: right, :-: centre)
                    paragraph.alignment = align[aligns[c]]
        self.last = self.new_paragraph()  # Word joins a table to the next one without a paragraph between

    def speaker_note(self, block: Block) -> None:
        from confnotes.model import note_text

        if not self.options.notes or self.last is None:
            return
        text = " ".join(self.md.plain(note_text(block)).split())
        if text:
            self.word.add_comment(self.last.runs or [self.last.add_run()], text=text, author="Speaker notes", initials="SN")

    def footnotes(self, notes: list[tuple[int, str]]) -> None:
        if not notes:
            return
        self.paragraph("Notes", "Heading 1")
        for number, text in notes:
            paragraph = self.new_paragraph()
            paragraph.add_run(f"{number}. ")
            self.runs(paragraph, text)

    # -- inline ------------------------------------------------------------------------------
    def paragraph(self, text: str, style: str | None, bold: bool = False) -> Any:
        paragraph = self.new_paragraph(style)
        self.runs(paragraph, " ".join(text.split("\n")) if style and style.startswith("Heading") else text, bold=bold)
        return paragraph

    def equation(self, paragraph: Any, tex: str) -> bool:
        """An inline formula as a Word equation; False (with the warning every output gives) for one
        that cannot be written, which then stays its TeX."""
        from confnotes.markup.math import MathError
        from confnotes.markup.omml import omml

        try:
            paragraph._p.append(omml(tex, False))  # noqa: SLF001 - python-docx has no equations of its own
        except MathError as exc:
            self.warnings.append(f"math not typeset ({exc}); shown as TeX: ${tex[:60]}$")
            return False
        return True

    def runs(self, paragraph: Any, text: str, bold: bool = False) -> None:
        for piece, styles, href in self.md.styled(text, tex=True):
            if piece == "\n":
                paragraph.add_run().add_break()
                continue
            if "math" in styles and self.equation(paragraph, piece):  # a formula in its sentence: a Word equation
                continue
            if "footnote" in styles and (number := _called(piece)) in self.notes and number not in self.placed:
                self.placed[number] = self.notes[number]
                _footnote_reference(paragraph, number)
                continue
            run = _hyperlink_run(paragraph, href) if href else paragraph.add_run()
            run.text = piece
            if bold or "strong" in styles:  # set only when on: an unset property costs Word nothing to read
                run.bold = True
            if "em" in styles:
                run.italic = True
            if "code" in styles:
                run.font.name = "Courier New"


def _called(mark: str) -> int | None:
    """A footnote's number from its call mark (``¹²`` -> 12)."""
    digits = mark.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789"))
    return int(digits) if digits.isdigit() else None


def _footnote_reference(paragraph: Any, number: int) -> None:
    """A Word footnote reference (superscript, numbered by Word) to footnote ``number``."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    run = OxmlElement("w:r")
    properties = OxmlElement("w:rPr")
    raised = OxmlElement("w:vertAlign")
    raised.set(qn("w:val"), "superscript")
    properties.append(raised)
    run.append(properties)
    reference = OxmlElement("w:footnoteReference")
    reference.set(qn("w:id"), str(number))
    run.append(reference)
    paragraph._p.append(run)  # noqa: SLF001 - python-docx has no footnotes API


_FOOTNOTES = (
    '<w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
    '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
    '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>'
)


def _footnotes_part(word: Any, placed: dict[int, str], md: InlineRenderer) -> None:
    """``word/footnotes.xml`` with the footnotes the text cites, related to the document."""
    if not placed:
        return
    from docx.opc.constants import CONTENT_TYPE, RELATIONSHIP_TYPE
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part

    notes = []
    for number, text in sorted(placed.items()):
        runs = []  # bold, italic and code as the note has them (links as their words)
        for index, (piece, styles, _href) in enumerate(md.styled(" ".join(text.split()))):
            look = "".join(tag for style, tag in (("strong", "<w:b/>"), ("em", "<w:i/>")) if style in styles)
            look += '<w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/>' if "code" in styles else ""
            words = xml_text((" " if index == 0 else "") + piece.replace("\n", " "))
            runs.append(f'<w:r>{f"<w:rPr>{look}</w:rPr>" if look else ""}<w:t xml:space="preserve">{words}</w:t></w:r>')
        notes.append(
            f'<w:footnote w:id="{number}"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteRef/></w:r>'
            f"{''.join(runs)}</w:p></w:footnote>"
        )
    blob = (_FOOTNOTES + "".join(notes) + "</w:footnotes>").encode("utf-8")
    part = Part(PackURI("/word/footnotes.xml"), CONTENT_TYPE.WML_FOOTNOTES, blob, word.part.package)
    word.part.relate_to(part, RELATIONSHIP_TYPE.FOOTNOTES)


def _number(paragraph: Any, num_id: int) -> None:
    """The paragraph in the numbering ``num_id`` (a list restarted), at its style's level."""
    num_pr = paragraph._p.get_or_add_pPr().get_or_add_numPr()  # noqa: SLF001 - python-docx has no public API
    num_pr.get_or_add_ilvl().val = 0
    num_pr.get_or_add_numId().val = num_id


def _hyperlink_run(paragraph: Any, href: str) -> Any:
    """A run inside a clickable link to ``href`` (python-docx has no public API for links)."""
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import RGBColor
    from docx.text.run import Run

    rel = paragraph.part.relate_to(xml_safe(href), RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rel)
    paragraph._p.append(link)  # noqa: SLF001
    element = OxmlElement("w:r")
    link.append(element)
    run = Run(element, paragraph)
    run.font.color.rgb = RGBColor(0x1F, 0x5F, 0xAD)
    run.font.underline = True
    return run
