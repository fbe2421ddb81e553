"""Checks before an archive is opened (``confnotes.edges.archives``: size, member count and compression
ratio, for zip bombs), and relationships that point outside the document (a reader never follows them)."""

from __future__ import annotations

import re
import zipfile

from confnotes.edges.archives import MAX_MEMBERS, MAX_RATIO, MAX_UNPACKED, open_zip, read_member
from confnotes.errors import input_error

__all__ = ["MAX_MEMBERS", "MAX_RATIO", "MAX_UNPACKED", "check_relationships", "open_zip", "read_member"]

_EXTERNAL = re.compile(rb"<Relationship\b[^>]*TargetMode\s*=\s*[\"']External[\"'][^>]*>", re.I)
_TYPE = re.compile(rb"Type\s*=\s*[\"']([^\"']*)[\"']")
_TARGET = re.compile(rb"Target\s*=\s*[\"']([^\"']*)[\"']")
#: External relationships a reader may meet and never follows: links are text with a target; an
#: attached template is Word's memory of where the document came from.
_HARMLESS = ("/hyperlink", "/attachedTemplate")


def check_relationships(archive: zipfile.ZipFile, path: str) -> None:
    """Refuse a document that points at files outside itself (linked pictures, objects, sub-documents):
    its content would be fetched by the application that opens it, and confnotes fetches nothing."""
    for member in archive.infolist():
        if not member.filename.endswith(".rels"):
            continue
        data = read_member(archive, member.filename, path, "Word document")
        for match in _EXTERNAL.finditer(data):
            kind = _TYPE.search(match.group(0))
            type_name = kind.group(1).decode("ascii", "replace") if kind else ""
            if type_name.endswith(_HARMLESS):
                continue
            target = _TARGET.search(match.group(0))
            where = target.group(1).decode("utf-8", "replace")[:80] if target else "?"
            raise input_error(
                f"the document links a {type_name.rsplit('/', 1)[-1] or 'part'} outside itself ({where}); "
                "confnotes fetches nothing: embed it in the document (or remove it) and save again",
                path,
            )
