"""Importing notes written elsewhere (Word, Google Docs, web pages, outliners, pastes) as Markdown notes
(docs/design.md, "Readers").

Each reader turns its format into the neutral block stream of ``blocks``; ``markdown`` writes
the stream as plain Markdown; the shared parser and its recovery rules read that text, and
``fmt`` writes the canonical note. Readers never fetch anything and report what they drop.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from confnotes.errors import input_error
from confnotes.importers.blocks import Imported

#: The readers ``--from`` names: ``text`` reads a note app's marks when it shows them (Obsidian,
#: Logseq, Google Docs' Markdown); ``markdown`` takes the text as it is, marks and all
FORMATS = ("docx", "odt", "html", "opml", "enex", "text", "markdown")
#: Who wrote a web page, by the marks their exports leave (the summary line names it: the rules
#: that read it differ, and a reader who sees a wrong name knows to ask for another with --from)
_HTML_WRITERS = (
    (re.compile(rb"Microsoft OneNote", re.I), "OneNote"),
    (re.compile(rb"urn:schemas-microsoft-com:office:word|content=\"?Microsoft Word", re.I), "Word"),
    (re.compile(rb"content=\"?LibreOffice", re.I), "LibreOffice"),
    (re.compile(rb'class="page sans"|class="[^"]*\bnotion-', re.I), "Notion"),
    (re.compile(rb'docs-internal-guid|class="[^"]*\bdoc-content\b|lst-kix_', re.I), "Google Docs"),
    (re.compile(rb'<div class="note[ "]', re.I), "Google Keep"),
)
_HTML_START = re.compile(
    rb"^\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body|meta|div|p|span|h[1-6]|ul|ol|table|b|style)\b", re.I | re.S
)
_OPML = re.compile(rb"^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<opml\b", re.I | re.S)


def sniff(data: bytes, name: str) -> str:
    """The format of ``data`` from its content (the name's suffix only breaks a tie)."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf")
    if data.startswith(b"PK\x03\x04") or data.startswith(b"PK\x05\x06"):
        return "zip"
    if _OPML.match(head):
        return "opml"
    from confnotes.importers.enex import is_enex

    if is_enex(head):
        return "enex"
    if _HTML_START.match(head):
        return "html"
    lowered = name.lower()
    if head.lstrip().startswith(b"<") and lowered.endswith((".html", ".htm", ".xhtml")):
        return "html"
    if head.lstrip().startswith(b"<") and lowered.endswith(".opml"):
        return "opml"
    if _XML.match(head) and not lowered.endswith((".md", ".markdown", ".txt")):
        raise input_error(
            f"an XML file of a kind confnotes does not import ({_root_name(head)}); it imports Word, ODT, HTML, OPML and Evernote files",
            name,
        )
    if head.startswith(b"{\\rtf"):
        raise input_error("an RTF document: save it as .docx (Word, LibreOffice) and import that", name)
    if head.startswith(b"%PDF"):
        raise input_error("a PDF: confnotes imports the document it was made from (.docx, HTML), not the PDF", name)
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        raise input_error(_compound_document(data), name)
    return "text"


_XML = re.compile(rb"^\s*<\?xml\b")


def _root_name(head: bytes) -> str:
    """The root element an XML file opens with, as a reader would name it (``<rss>``)."""
    found = re.search(rb"<([A-Za-z][\w:.-]*)", re.sub(rb"<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>", b"", head, flags=re.S))
    return f"<{found.group(1).decode('ascii', 'replace')}>" if found else "no root element"


def _compound_document(data: bytes) -> str:
    """What an OLE compound file is, as a refusal: Office keeps an encrypted (password-protected)
    .docx in one, and Word 97-2003 its .doc."""
    import io

    from confnotes.edges.extras import available

    if not available("olefile"):  # the 'office' extra tells the two apart; without it, both are named
        return "an Office compound file: a password-protected Office document or a Word 97-2003 .doc; save it as .docx without a password"
    import olefile

    try:
        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            streams = {"/".join(entry).lower() for entry in ole.listdir(streams=True, storages=False)}
    except Exception:  # noqa: BLE001 - olefile raises many types for a damaged file: it is still no document we read
        streams = set()
    if "encryptedpackage" in streams or "encryptioninfo" in streams:
        return "a password-protected Office document: open it, remove the password (or save a copy without one) and import that"
    if "worddocument" in streams:
        return "a Word 97-2003 .doc: save it as .docx and import that"
    return "an Office 97-2003 file (a compound document): save it as .docx and import that"


@dataclass
class Result:
    """An imported note: its Markdown, its images, and the counts for the summary line."""

    markdown: str
    assets: dict[str, bytes]
    format: str
    writer: str = ""  # who wrote it, where its marks say (``Notion``, ``Obsidian``): the summary names it
    sections: int = 0
    items: int = 0
    words: int = 0
    dropped: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def read(data: bytes, path: str, fmt: str | None = None) -> Imported | str:
    """Read ``data`` with the reader its format needs: a block stream, or text for a paste."""
    kind = fmt or sniff(data, path)
    if kind == "zip":
        from confnotes.importers.safety import open_zip

        archive = open_zip(data, path, "Word document" if path.lower().endswith((".docx", ".docm")) else "zip archive")
        names = archive.namelist()
        if "word/document.xml" in names:
            kind = "docx"
        elif any(name.lower().endswith((".html", ".htm")) for name in names):
            from confnotes.importers.html import read_html_zip

            return read_html_zip(archive, path)
        elif "mimetype" in names and "content.xml" in names:
            kind = "odt"
        else:
            raise input_error("a zip archive that holds neither a Word document nor a web page", path)
    if kind == "docx":
        from confnotes.importers.docx import read_docx

        return read_docx(data, path)
    if kind == "odt":
        from confnotes.importers.odt import read_odt

        return read_odt(data, path)
    if kind == "html":
        from confnotes.importers.html import decode_markup, read_html

        return read_html(decode_markup(data, path), path, None)
    if kind == "opml":
        from confnotes.importers.opml import read_opml

        return read_opml(data, path)
    if kind == "enex":
        from confnotes.importers.enex import read_enex

        return read_enex(data, path)
    from confnotes.edges.source import decode

    return decode(data, path).text


def convert(data: bytes, path: str, stem: str, fmt: str | None = None) -> Result:
    """Import one document: its canonical Markdown note (images linking into ``<stem>.assets/``)."""
    from confnotes.fmt import Refused, format_text
    from confnotes.parse import ParseOptions

    first: str | None
    first, assets, kind, dropped, remarks = _as_markdown(data, path, stem, fmt)
    result = Result("", assets, kind, writer=_writer(data, kind), dropped=_counted(dropped), warnings=remarks)
    if kind == "text" and result.writer:  # an app's marks read: the way back to the text as written
        result.warnings.append(f"read as {result.writer}'s Markdown (--from markdown keeps the text as written)")

    def markdown() -> str:
        """The Markdown as read: handed to fmt, which alone holds it then, and made again if asked."""
        nonlocal first
        made, first = first, None
        return made if made is not None else _as_markdown(data, path, stem, fmt)[0]

    try:  # fmt's output reads back as the outline counted, and it holds one outline at a time
        result.markdown = format_text(markdown, f"{stem}.md", ParseOptions(), seen=lambda doc: _count_parts(result, doc), convert=True)
    except Refused:
        result.markdown = markdown()
        result.warnings.append("kept as read: the canonical form would change its outline")
    if not result.markdown or result.markdown.isspace():
        raise input_error("no text to import", path)
    _count_words(result)
    return result


def _as_markdown(data: bytes, path: str, stem: str, fmt: str | None) -> tuple[str, dict[str, bytes], str, list[str], list[str]]:
    """A document as read, written as plain Markdown: the text, its images, its format, what was
    dropped and what the reader should know of what was kept."""
    from confnotes.importers.markdown import to_markdown

    found = read(data, path, fmt)
    if isinstance(found, str):
        return _text_note(found, path, stem, plain=fmt == "markdown")
    meta = {**found.stated, **stated_meta(found)}
    markdown = to_markdown(found, f"{stem}.assets", meta)
    if found.title and not _titled(found) and not _shows_title(markdown, stem):
        # the document's title property, only where no line of it reads as the title: a reader
        # names a document by the line they see (a property is often a template's or an old name)
        markdown = to_markdown(found, f"{stem}.assets", {"title": found.title, **meta})
    return markdown, found.assets, found.format, found.dropped, found.remarks


def _writer(data: bytes, kind: str) -> str:
    """Who wrote the file, where its marks say: a web page's app, a note app's Markdown."""
    if kind == "html":
        head = data[:65536]
        return next((name for pattern, name in _HTML_WRITERS if pattern.search(head)), "")
    if kind == "enex":
        return "Evernote"
    if kind == "text":
        from confnotes.importers.noteapps import app_of

        return app_of(data.decode("utf-8", "replace"))
    return ""


def _text_note(text: str, path: str, stem: str, plain: bool = False) -> tuple[str, dict[str, bytes], str, list[str], list[str]]:
    """A paste or a Markdown file: as it is, or, written by a note app (Obsidian, Logseq), with its
    comments, wikilinks, embeds and properties read (``importers.noteapps``); ``plain``
    (``--from markdown``): as it is, whatever marks it shows."""
    from confnotes.importers.noteapps import plain_markdown, shows_app_marks

    if plain:
        return text, {}, "markdown", [], []
    if not shows_app_marks(text):
        return text, {}, "text", [], []
    from pathlib import Path

    from confnotes.importers.html import folder_resolver
    from confnotes.importers.markdown import front_matter

    resolve = folder_resolver(Path(path).resolve().parent) if not path.startswith("<") else (lambda _name: None)
    made = plain_markdown(text, f"{stem}.assets", resolve)
    found = made.imported
    if found.stated and not text.lstrip().startswith("---"):
        made.text = "\n".join(front_matter(found.stated)) + "\n" + made.text.lstrip("\n")
    return made.text, found.assets, "text", found.dropped, found.remarks


def _shows_title(markdown: str, stem: str) -> bool:
    """Whether the note's own text gives it a title (a heading, a line naming the notes), not its file name."""
    from confnotes.parse import parse

    return parse(markdown, f"{stem}.md").meta.title_origin != "stem"


_META_LINE = re.compile(r"^(speakers?|presenters?|date|when|event|conference)\s*:\s*(\S.*)$", re.I)
#: where one stated fact ends and the next begins on a lede line: a separator, or the next key
#: (``Speaker: Dana Okafor Date: 2026-04-14``: two lines a writer joined into one paragraph)
_META_PARTS = re.compile(r"\s+[·|•]\s+|\s+(?=(?:speakers?|presenters?|date|when|event|conference)\s*:)", re.I)
_META_KEYS = {
    "speaker": "speakers",
    "speakers": "speakers",
    "presenter": "speakers",
    "presenters": "speakers",
    "date": "date",
    "when": "date",
}


def stated_meta(imported: Imported) -> dict[str, str]:
    """Date, speakers and event as the document states them before its first section (``Speaker: …``,
    ``Date: 2026-03-23 · Event: …``); the lines stay in the note, the front matter repeats them for renders."""
    from confnotes.importers.blocks import Para
    from confnotes.importers.markdown import heading_offset, typed_item
    from confnotes.parse.recover import opens_with_session_word

    offset = heading_offset(imported.blocks)
    meta: dict[str, str] = {}
    for block in imported.blocks:
        if isinstance(block, Para) and block.style == "heading" and block.level + offset <= 1:
            continue  # the title heading
        bold_line = isinstance(block, Para) and all(run.bold for run in block.runs if run.text.strip())
        if not isinstance(block, Para) or block.style == "heading" or bold_line or typed_item(block) or opens_with_session_word(block.text):
            break  # the lede ends where the first section, list, sub-heading or session line begins
        if block.style in ("author", "date"):  # pandoc's lines under the title: the note's speakers and date
            meta.setdefault("speakers" if block.style == "author" else "date", " ".join(block.text.split()))
        if block.style:
            continue
        for part in _META_PARTS.split(block.text.strip()):
            match = _META_LINE.match(part.strip())
            if match:
                key = _META_KEYS.get(match.group(1).lower(), "event")
                meta.setdefault(key, match.group(2).strip())
    return meta


def _titled(imported: Imported) -> bool:
    from confnotes.importers.blocks import Para
    from confnotes.importers.markdown import heading_offset

    paras = [block for block in imported.blocks if isinstance(block, Para)]
    if any(block.style == "title" for block in paras):
        return True
    headings = [block for block in paras if block.style == "heading"]
    return bool(headings) and heading_offset(imported.blocks) + min(block.level for block in headings) == 1


def _counted(dropped: list[str]) -> list[str]:
    """The same phrase once, with how often it came."""
    counts: dict[str, int] = {}
    for phrase in dropped:
        counts[phrase] = counts.get(phrase, 0) + 1
    return [phrase if count == 1 else f"{phrase} ×{count}" for phrase, count in counts.items()]


def _count_parts(result: Result, doc: object) -> None:
    from confnotes.model import Document, Node, walk_content

    assert isinstance(doc, Document)
    for entry in walk_content(doc.content):
        if type(entry) is Node:
            if entry.is_section:
                result.sections += 1
            else:
                result.items += 1


_FRONT_MATTER = re.compile(r"---\n.*?\n---\n", re.S)
#: a link's target (not words a reader sees) or a word
_WORD_OR_TARGET = re.compile(r"\]\([^)]*\)|[^\W_]+")


def _count_words(result: Result) -> None:
    """The words of the note's body (front matter and link targets aside), counted in place: no
    copy of the text, no list of its words (a 100-page document's were 1.8 MB)."""
    markdown = result.markdown
    front = _FRONT_MATTER.match(markdown)
    words = _WORD_OR_TARGET.finditer(markdown, front.end() if front else 0)
    result.words = sum(1 for match in words if markdown[match.start()] != "]")


def summary(result: Result, source: str, target: str) -> str:
    """The one line an import prints: what came in, what went out, what was dropped."""

    def plural(count: int, word: str) -> str:
        return f"{count} {word}{'' if count == 1 else 's'}"

    parts = [
        plural(result.sections, "section"),
        plural(result.items, "item"),
        plural(len(result.assets), "image"),
        plural(result.words, "word"),
    ]
    read_as = result.format + (f", {result.writer}" if result.writer else "")
    line = f"{source} ({read_as}) -> {target}: {', '.join(parts)}"
    if result.dropped:
        line += "; dropped " + ", ".join(result.dropped)
    if result.warnings:
        line += "; " + "; ".join(result.warnings)
    return line


__all__ = ["FORMATS", "Result", "convert", "read", "sniff", "summary"]
