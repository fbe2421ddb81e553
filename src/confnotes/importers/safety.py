"""Checks before an archive is opened: size, member count and compression ratio (zip bombs), and
relationships that point outside the document (a reader never follows them)."""

from __future__ import annotations

import io
import re
import zipfile
import zlib

from confnotes.errors import input_error

#: An import reads at most this much uncompressed data, in all of an archive's members together.
MAX_UNPACKED = 256 * 1024 * 1024
MAX_MEMBERS = 10_000
#: Deflate reaches about 1:1000 on a run of one byte; documents stay far below this ratio.
MAX_RATIO = 200
#: What zipfile raises for a damaged member: bad headers, bad deflate data, an unknown method or version.
_DAMAGED = (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, EOFError, OSError, ValueError)
_EXTERNAL = re.compile(rb"<Relationship\b[^>]*TargetMode\s*=\s*[\"']External[\"'][^>]*>", re.I)
_TYPE = re.compile(rb"Type\s*=\s*[\"']([^\"']*)[\"']")
_TARGET = re.compile(rb"Target\s*=\s*[\"']([^\"']*)[\"']")
#: External relationships a reader may meet and never follows: links are text with a target; an
#: attached template is Word's memory of where the document came from.
_HARMLESS = ("/hyperlink", "/attachedTemplate")


def open_zip(data: bytes, path: str, what: str) -> zipfile.ZipFile:
    """The archive, once its directory says it is safe to read; one clear error otherwise."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (*_DAMAGED, zipfile.LargeZipFile) as exc:
        raise input_error(f"not a readable {what} (corrupt or truncated archive: {exc})", path) from None
    if len(members) > MAX_MEMBERS:
        raise input_error(f"{what} holds {len(members)} files, more than a document has (limit {MAX_MEMBERS})", path)
    total = 0
    for member in members:
        total += member.file_size
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size > 1024 * 1024 and ratio > MAX_RATIO:
            raise input_error(f"{what} member '{member.filename}' unpacks {ratio:.0f}× its size: refused as a zip bomb", path)
        if member.flag_bits & 0x1:
            raise input_error(f"{what} is encrypted; save an unprotected copy", path)
    if total > MAX_UNPACKED:
        raise input_error(f"{what} unpacks to {total // (1024 * 1024)} MB, more than the {MAX_UNPACKED // (1024 * 1024)} MB limit", path)
    try:
        bad = archive.testzip()  # every member inflates and matches its checksum (sizes are checked above)
    except _DAMAGED as exc:
        raise input_error(f"not a readable {what} (corrupt or truncated archive: {exc})", path) from None
    if bad is not None:
        raise input_error(f"not a readable {what} ('{bad}' is damaged)", path)
    return archive


def read_member(archive: zipfile.ZipFile, name: str, path: str, what: str) -> bytes:
    """One member's bytes, its declared size enforced (a lying header fails its CRC check)."""
    try:
        with archive.open(name) as handle:
            data = handle.read(MAX_UNPACKED + 1)
    except (*_DAMAGED, KeyError) as exc:
        raise input_error(f"not a readable {what} ('{name}': {exc})", path) from None
    return data


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
