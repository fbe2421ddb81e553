"""confnotes import over documents made by real writers: goldens, and the source's words in order."""

from __future__ import annotations

import html
import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest

from conftest import FIXTURES
from helpers import assert_same_words, check_golden, html_text, source_words, text_words

IMPORT = FIXTURES / "import"
#: what the sources end with (``name.writer.suffix``; their goldens add ``.md``): documents, outliners, note apps
_SOURCE_ENDS = (".docx", ".odt", ".html", ".zip", ".opml", ".enex", ".obsidian.md", ".logseq.md")
SOURCES = sorted(path for path in IMPORT.iterdir() if path.name.endswith(_SOURCE_ENDS))
_URL = re.compile(r"\b[a-zA-Z][a-zA-Z+.-]*://\S+")
#: a number typed at the start of a paragraph is a list number to a reader (and to confnotes)
_TYPED_NUMBER = re.compile(r"^[ \t]*\d{1,3}[.)][ \t]", re.M)
_IMAGE = re.compile(r"!\[(?:[^\]\\]|\\.)*\]\([^)]*\)")


def docx_text(data: bytes) -> str:
    """Every piece of text in word/document.xml in document order (list numbers are not text there)."""
    xml = zipfile.ZipFile(__import__("io").BytesIO(data)).read("word/document.xml").decode("utf-8")
    pieces = re.findall(r"<w:t(?:\s[^>]*)?>([^<]*)</w:t>|<w:t/>|(<w:tab/>)|(</w:p>)", xml)
    return "".join(html.unescape(text) if text else " " if tab else "\n" if end else "" for text, tab, end in pieces)


def odt_text(data: bytes) -> str:
    """Every paragraph's and heading's text in content.xml in document order (spaces and tabs as spaces)."""
    text_ns = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
    root = ElementTree.fromstring(zipfile.ZipFile(__import__("io").BytesIO(data)).read("content.xml"))

    def flat(element: ElementTree.Element) -> str:
        pieces = [element.text or ""]
        for child in element:
            if child.tag in (f"{text_ns}s", f"{text_ns}tab", f"{text_ns}line-break"):
                pieces.append(" " * int(child.get(f"{text_ns}c", "1")))
            elif child.tag not in (f"{text_ns}p", f"{text_ns}h", f"{text_ns}list", f"{text_ns}note"):
                pieces.append(flat(child))
            pieces.append(child.tail or "")
        return "".join(pieces)

    # footnotes as a printed page shows them: their marks in the text, their words at the foot
    in_notes = {id(p) for note in root.iter(f"{text_ns}note") for p in note.iter() if p.tag in (f"{text_ns}p", f"{text_ns}h")}
    paragraphs = [element for element in root.iter() if element.tag in (f"{text_ns}p", f"{text_ns}h")]
    ordered = [p for p in paragraphs if id(p) not in in_notes] + [p for p in paragraphs if id(p) in in_notes]
    return "\n".join(flat(element) for element in ordered)


def page_text(markup: str) -> str:
    return html_text(re.sub(r"<head>.*?</head>", " ", markup, flags=re.S | re.I))


#: what an outliner shows of an outline beside its text: nothing of these
_OPML_STATE = {"text", "_note", "_status", "complete", "checkbox", "color", "collapsed"}
_LOGSEQ_ID = re.compile(r"\bid:: (\S+)")


def opml_text(data: bytes) -> str:
    """The outline as its outliner shows it: each outline's text, then its columns (OmniOutliner)
    and note; Logseq's hidden properties (id, collapsed) unseen, references shown as their block."""
    root = ElementTree.fromstring(data)
    pieces = [root.findtext("head/title") or ""]
    outlines = root.findall("body/outline")
    if len(outlines) == 1 and pieces[0] == outlines[0].get("text") or pieces[0] == "untitled":
        pieces = []  # the page's one root outline is its title; Logseq names every page "untitled"
    blocks = {
        m[1]: outline.get("text", "").split(" id::")[0]
        for outline in root.iter("outline")
        if (m := _LOGSEQ_ID.search(outline.get("text", "")))
    }
    for outline in root.iter("outline"):
        text = re.sub(r"\s(?:id|collapsed):: \S+|^title:: ", " ", outline.get("text", ""))  # a page's title shows as its heading
        text = re.sub(r"\(\(([-0-9a-f]{36})\)\)", lambda m: blocks.get(m[1], m[0]), text)
        pieces.append(html.unescape(re.sub(r"<[^>]+>", " ", text)))
        pieces += [f"{name} {value}" for name, value in outline.attrib.items() if name not in _OPML_STATE]
        pieces.append(html.unescape(re.sub(r"<[^>]+>", " ", outline.get("_note", ""))))
    return "\n".join(pieces)


def visible_text(path: Path) -> str:
    """The source's visible text in reading order, read without confnotes' readers."""
    data = path.read_bytes()
    if path.suffix == ".docx":
        return docx_text(data)
    if path.suffix == ".odt":
        return odt_text(data)
    if path.suffix == ".zip":
        archive = zipfile.ZipFile(path)
        page = next(name for name in archive.namelist() if name.endswith(".html"))
        return page_text(archive.read(page).decode("utf-8"))
    if path.suffix == ".html":
        # Notion's page properties are the note's front matter
        return page_text(re.sub(r'<table class="properties">.*?</table>', " ", data.decode("utf-8"), flags=re.S))
    if path.suffix == ".enex":
        return enex_text(data)
    if path.suffix == ".md":
        return app_markdown_text(data.decode("utf-8"))
    return opml_text(data)


def enex_text(data: bytes) -> str:
    """An Evernote export as the app shows it: each note's ENML's text, under its title where the
    export holds several (one note's title is the note's front matter)."""
    root = ElementTree.fromstring(re.sub(rb"<!DOCTYPE[^>]*>", b"", data))
    notes = list(root.iter("note"))
    pieces = []
    for note in notes:
        content = re.sub(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>", "", note.findtext("content") or "")
        pieces += [note.findtext("title") or "" if len(notes) > 1 else "", html_text(content)]
    return "\n".join(pieces)


def app_markdown_text(text: str) -> str:
    """An Obsidian note or a Logseq page as the app shows it: no front matter or properties but the
    title, no ``%% comments %%``, a wikilink by its label, an embed by nothing."""
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
    text = re.sub(r"%%.*?%%", " ", text, flags=re.S)
    text = re.sub(r"^\s*(?:- )?[\w-]+:: .*$", " ", text, flags=re.M)  # (a page's title:: is its front matter)
    text = _IMAGE.sub(" ", re.sub(r"!\[\[[^\]]*\]\]", " ", text))  # (pictures: their own test)
    return re.sub(r"\[\[(?:[^\]|]*\|)?([^\]]*)\]\]", r"\1", text)


def imported(path: Path):
    from confnotes.importers import convert

    return convert(path.read_bytes(), str(path), path.stem)


def test_there_are_enough_fixtures_from_each_writer():
    names = [path.name for path in SOURCES]
    assert len(names) >= 36
    for writer in ("pydocx.docx", "lo.docx", "lo.odt", "lo.html", "gdocs.html", "gdocs.zip", "paste.docx"):
        assert any(name.endswith(writer) for name in names), writer
    for outliner in ("workflowy", "dynalist", "logseq", "omnioutliner"):
        assert sum(f".{outliner}." in name for name in names) >= 2, outliner
    for app in ("evernote.enex", "notion.html", "obsidian.md", "logseq.md", "onenote.html"):
        assert sum(name.endswith(app) for name in names) >= 2, app


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_import_matches_golden(path, update_goldens):
    result = imported(path)
    check_golden(IMPORT / f"{path.name}.md", result.markdown, update_goldens)


#: A formula an import read as TeX (``$…$``, ``$$…$$``): no visible text of the document says it so.
_MATH = re.compile(r"\$\$.+?\$\$|(?<![\w$])\$[^$\s][^$]*?\$(?![\w$])", re.S)


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_import_keeps_the_sources_words_in_order(path):
    expected = text_words(_TYPED_NUMBER.sub(" ", _URL.sub(" ", visible_text(path))))
    actual = source_words(_IMAGE.sub(" ", _MATH.sub(" ", imported(path).markdown)))  # (formulas: their own test)
    assert_same_words(expected, actual, f"import of {path.name}")


@pytest.mark.parametrize(
    "path",
    # (an outline holds no pictures; a Logseq page's are in its graph's assets folder, outside the page's: not read)
    [path for path in SOURCES if path.name.split(".")[0] in ("kubecon", "platform") and not path.name.endswith((".opml", ".logseq.md"))],
    ids=lambda path: path.name,
)
def test_screenshots_are_extracted(path):
    result = imported(path)
    assert len(result.assets) == 1
    name, data = next(iter(result.assets.items()))
    assert data.startswith(b"\x89PNG")
    assert f"]({path.stem}.assets/{name})" in result.markdown


def test_the_text_fixtures_are_what_the_generator_writes():
    """tools/make_import_fixtures.py still writes the committed Google Docs pages and OPML files
    (the binary ones carry timestamps, and LibreOffice's change with its version)."""
    import base64
    import sys

    sys.path.insert(0, str(FIXTURES.parent.parent / "tools"))
    import make_import_fixtures as tool
    from import_notes import NOTES, screenshot_png

    def data_uri(alt: str) -> str:
        return "data:image/png;base64," + base64.b64encode(screenshot_png(alt)).decode()

    for name, note in NOTES.items():
        assert (IMPORT / f"{name}.gdocs.html").read_text(encoding="utf-8") == tool.gdocs_html(note, tool.TITLES[name], data_uri)
    for shape, names in tool.OUTLINERS.items():
        for name in names:
            assert (IMPORT / f"{name}.{shape}.opml").read_text(encoding="utf-8") == tool.opml(NOTES[name], shape)
    for file_name, text in tool.app_files().items():
        assert (IMPORT / file_name).read_text(encoding="utf-8") == text, file_name


@pytest.mark.parametrize("name", sorted({path.name.split(".")[0] for path in SOURCES if ".lo." in path.name}))
def test_one_document_saved_three_ways_imports_to_one_note(name):
    """LibreOffice saved each document as .docx, .odt and HTML: the shared recovery reads the same
    note from all three (before: the title twice from a .docx, its title property over the line a
    reader sees, a blank line dropped from code, and .odt refused)."""
    notes = {suffix: imported(IMPORT / f"{name}.lo.{suffix}").markdown for suffix in ("docx", "odt", "html")}
    assert notes["docx"] == notes["odt"] == notes["html"]
