"""Evernote's export (``.enex``): one or many notes, each an ENML document (XHTML with Evernote's
own tags) and its resources, base64 in the file.

ENML is read as the web page it nearly is (``importers.html``): ``<en-note>`` is the page's body,
``<en-todo checked="true"/>`` a task's box (``[x]``, ``[ ]``), ``<en-media hash=…>`` the picture
whose resource has that MD5 (kept in the assets folder; a resource that is not a picture is named
as dropped). One note gives its title as the note's title; several give a section each. The
created date, the tags and the source URL go to front matter. The XML is read by
``edges.xmlread`` (no entities, nothing fetched); a resource is decoded only up to the import's
picture limit, and an export of more notes or resources than an import holds is refused.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html
import re
from typing import Any

from confnotes.errors import input_error
from confnotes.importers.blocks import Imported

#: Notes and resources one import reads (an export of a whole account is for a migration tool).
MAX_NOTES = 2_000
MAX_RESOURCES = 5_000
#: A resource's base64 text decoded at most (the import's own picture limit is applied after)
MAX_RESOURCE_CHARS = 64 * 1024 * 1024

_ENEX = re.compile(rb"^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*(?:<!DOCTYPE\s+en-export[^>\[]*(?:\[.*?\])?\s*>\s*)?<en-export\b", re.S)
_PROLOG = re.compile(r"^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!DOCTYPE[^>]*>\s*)?", re.S)
_TODO = re.compile(r"<en-todo\b([^>]*?)/?>(?:\s*</en-todo>)?", re.I)
_MEDIA = re.compile(r"<en-media\b([^>]*?)/?>(?:\s*</en-media>)?", re.I)
#: a line that is a task (``<div><en-todo checked="true"/>text</div>``), and a run of them
_TASK_DIV = re.compile(r"<div>\s*<en-todo\b([^>]*?)/?>(?:\s*</en-todo>)?(.*?)</div>", re.I | re.S)
_TASKS = re.compile(r"(?:<li>\[[ x]\] .*?</li>\s*)+", re.S)
_HASH = re.compile(r"""\bhash\s*=\s*["']([0-9a-fA-F]{32})["']""")
_CHECKED = re.compile(r"""\bchecked\s*=\s*["']true["']""", re.I)


def is_enex(head: bytes) -> bool:
    return _ENEX.match(head) is not None


def read_enex(data: bytes, path: str) -> Imported:
    """Read an Evernote export; raises ``NotesError`` for one that is not, or holds no note."""
    from confnotes.edges.xmlread import XmlError, parse_xml
    from confnotes.importers.html import read_html

    try:
        root = parse_xml(data)
    except XmlError as exc:
        raise input_error(f"not a readable Evernote export: {exc.reason}", path, exc.line, exc.col) from None
    notes = root.findall("note") if root.tag == "en-export" else []
    if not notes:
        raise input_error("an Evernote export with no notes (<en-export> holds no <note>)", path)
    if len(notes) > MAX_NOTES:
        raise input_error(f"an Evernote export of {len(notes):,} notes, more than the {MAX_NOTES:,} one import reads", path)
    media = _resources(notes, path)
    page = "\n".join(_note_html(note, len(notes) > 1) for note in notes)
    imported = read_html(f"<html><body>{page}</body></html>", path, lambda src: media.get(src.removeprefix("enex-media/")))
    imported.format = "enex"
    if len(notes) == 1:
        imported.title = title = _text(notes[0], "title") or None
        imported.stated = _stated(notes[0])
        if title and not _opens_with(_text(notes[0], "content"), title):
            # typed in the note's own title field: the note's title, not a property a template set
            imported.stated = {"title": title, **imported.stated}
    return imported


def _stated(note: Any) -> dict[str, str]:
    """Front matter an export of one note states: its created date, tags and source URL."""
    meta = {}
    created = _text(note, "created")
    if re.match(r"^\d{8}T", created):
        meta["date"] = f"{created[:4]}-{created[4:6]}-{created[6:8]}"
    tags = [tag.text.strip() for tag in note.findall("tag") if tag.text and tag.text.strip()]
    if tags:
        meta["tags"] = ", ".join(tags)
    url = _text(note.find("note-attributes") if note.find("note-attributes") is not None else note, "source-url")
    if url.startswith(("http://", "https://")):
        meta["url"] = url
    return meta


def _text(element: Any, name: str) -> str:
    found = element.find(name) if element is not None else None
    return (found.text or "").strip() if found is not None else ""


def _resources(notes: list[Any], path: str) -> dict[str, bytes]:
    """Each resource's bytes by the MD5 an ``<en-media>`` names it by."""
    found: dict[str, bytes] = {}
    resources = [resource for note in notes for resource in note.findall("resource")]
    if len(resources) > MAX_RESOURCES:
        raise input_error(f"an Evernote export of {len(resources):,} resources, more than the {MAX_RESOURCES:,} one import reads", path)
    for resource in resources:
        text = _text(resource, "data")
        if not text or len(text) > MAX_RESOURCE_CHARS:
            continue
        try:
            data = base64.b64decode(text, validate=False)
        except (binascii.Error, ValueError):
            continue
        found[hashlib.md5(data, usedforsecurity=False).hexdigest()] = data
    return found


def _note_html(note: Any, several: bool) -> str:
    """One note's ENML as HTML: under its title as a heading when the export holds several."""
    content = _text(note, "content")
    body = _PROLOG.sub("", content)
    body = re.sub(r"<en-note\b[^>]*>", "<div>", body, count=1, flags=re.I).replace("</en-note>", "</div>")
    body = _TASK_DIV.sub(lambda m: f"<li>{'[x]' if _CHECKED.search(m.group(1)) else '[ ]'} {m.group(2)}</li>", body)
    body = _TASKS.sub(lambda m: f"<ul>{m.group(0)}</ul>", body)  # a run of tasks: one list
    body = _TODO.sub(lambda m: "[x] " if _CHECKED.search(m.group(1)) else "[ ] ", body)  # a box inside text
    body = _MEDIA.sub(_picture, body)
    title = _text(note, "title")
    return f"<h2>{html.escape(title)}</h2>{body}" if several and title else body


def _opens_with(body: str, title: str) -> bool:
    """Whether the note's text starts with its title already (a heading or a line repeating it)."""
    first = re.sub(r"<[^>]+>", " ", _PROLOG.sub("", body[:4000])).split()
    words = title.split()
    return [word.casefold() for word in first[: len(words)]] == [word.casefold() for word in words]


def _picture(match: re.Match[str]) -> str:
    found = _HASH.search(match.group(1))
    return f'<img src="enex-media/{found.group(1).lower()}" alt="">' if found else ""
