"""Zip archives (documents to import, a reference PPTX) opened only once their directory says they
are safe to read: size, member count and compression ratio (zip bombs), encryption, damage."""

from __future__ import annotations

import io
import zipfile
import zlib

from confnotes.errors import input_error

#: An import reads at most this much uncompressed data, in all of an archive's members together.
MAX_UNPACKED = 256 * 1024 * 1024
MAX_MEMBERS = 10_000
#: Deflate reaches about 1:1000 on a run of one byte; documents stay far below this ratio.
MAX_RATIO = 200
#: How much of a member is inflated at a time to check it.
_CHECK_CHUNK = 64 * 1024
#: What zipfile raises for a damaged member: bad headers, bad deflate data, an unknown method or version.
_DAMAGED = (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, EOFError, OSError, ValueError)


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
    for member in members:  # every member inflates and matches its checksum (sizes are checked above)
        try:
            with archive.open(member) as handle:
                while handle.read(_CHECK_CHUNK):  # zipfile's testzip reads 1 MB at a time: three times this
                    pass
        except zipfile.BadZipFile:
            raise input_error(f"not a readable {what} ('{member.filename}' is damaged)", path) from None
        except _DAMAGED as exc:
            raise input_error(f"not a readable {what} (corrupt or truncated archive: {exc})", path) from None
    return archive


def read_member(archive: zipfile.ZipFile, name: str, path: str, what: str) -> bytes:
    """One member's bytes, its declared size enforced (a lying header fails its CRC check)."""
    try:
        with archive.open(name) as handle:
            data = handle.read(MAX_UNPACKED + 1)
    except (*_DAMAGED, KeyError) as exc:
        raise input_error(f"not a readable {what} ('{name}': {exc})", path) from None
    return data
