"""Images a note refers to: which file an image reference names, and why one cannot be shown.

The one check the deck, the HTML and PDF pages, PPTX and Marp make before they use, measure or
embed an image, so all of them agree on it and warn about it in the same words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from urllib.parse import unquote, urlsplit

#: the file suffixes of pictures: what an import extracts, and what the live preview watches
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".bmp", ".tif", ".tiff", ".emf", ".wmf")
#: a web address (``https://…``, ``//host/…``): linked, never fetched
_WEB = re.compile(r"^(?:https?:)?//", re.IGNORECASE)


def is_web(src: str) -> bool:
    """Whether a picture's or video's address is on the web (``https://…``, ``//host/…``)."""
    return _WEB.match(src) is not None


#: a URL scheme (``https:``, ``data:``, ``file:``): not a file next to the note
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


#: the files ``locate`` found while ``recorded`` runs
_FOUND: ContextVar[set[Path] | None] = ContextVar("confnotes_images_found", default=None)


@contextmanager
def recorded() -> Iterator[set[Path]]:
    """Every file ``locate`` finds meanwhile: the pictures a note's renders read (a build keeps
    their hashes, so a changed picture renders its note again)."""
    found: set[Path] = set()
    token = _FOUND.set(found)
    try:
        yield found
    finally:
        _FOUND.reset(token)


def locate(src: str, root: Path | str | None) -> tuple[Path | None, str | None]:
    """The file the image reference ``src`` names inside the note's folder ``root``, or why there
    is none, in the words every renderer warns with (neither for a ``data:`` image)."""
    if src.lower().startswith("data:image/"):
        return None, None
    if _SCHEME.match(src):
        return None, f"image {shown_source(src)} not embedded: only images next to the note are"
    if root is None:
        return None, f"image {shown_source(src)} not embedded"
    base = Path(root).resolve()
    target = (base / unquote(urlsplit(src).path)).resolve()
    if base != target and base not in target.parents:
        return None, f"image {shown_source(src)} is outside the note's folder; not embedded"
    if not target.is_file():
        return None, f"image {shown_source(src)} " + ("is not a regular file" if target.exists() else "not found")
    if (found := _FOUND.get()) is not None:
        found.add(target)
    return target, None


def local_image(src: str, root: Path | str | None) -> Path | None:
    """The file an image reference names, if it is a local file inside the note's folder ``root``
    (the one check the deck, PPTX and Marp make before they use or measure an image)."""
    return locate(src, root)[0]


def image_warning(src: str, root: Path | str | None) -> str | None:
    """Why the image ``src`` cannot be embedded from the note's folder ``root``; None when it can
    (a local file inside the folder, or a ``data:`` image)."""
    return locate(src, root)[1]


def shown_source(src: str) -> str:
    """``src`` as a warning quotes it: a ``data:`` URL or a long address cut to 60 characters."""
    return repr(src if len(src) <= 60 else src[:59] + "…")


def data_image(src: str) -> bytes | None:
    """The bytes of a ``data:image/…;base64,`` URL (None for anything else or bad base64)."""
    import base64
    import binascii

    head, _, data = src.partition(",")
    if not head.lower().startswith("data:image/") or not head.lower().endswith(";base64"):
        return None
    try:
        return base64.b64decode(data, validate=False)
    except (binascii.Error, ValueError):
        return None


#: what a picture's bytes open with: the kind is read from the bytes, never from a name or a
#: declared type (a ``data:text/html`` "image", or a page saved as ``image1.png``, is not one)
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", ".png"),
    (b"\xff\xd8\xff", ".jpg"),
    (b"GIF87a", ".gif"),
    (b"GIF89a", ".gif"),
    (b"BM", ".bmp"),
    (b"II*\x00", ".tif"),
    (b"MM\x00*", ".tif"),
    (b"\xd7\xcd\xc6\x9a", ".wmf"),  # a placeable metafile, as Word embeds them
    (b"\x01\x00\x09\x00", ".wmf"),
    (b"\x02\x00\x09\x00", ".wmf"),
)
#: an SVG document: an XML prolog, comments or an SVG doctype, then the ``<svg`` element itself
_SVG = re.compile(
    rb"^(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*(?:<!DOCTYPE\s+svg[^>]*>\s*)?(?:<!--.*?-->\s*)*<svg[\s>/]",
    re.DOTALL | re.IGNORECASE,
)


def picture_suffix(data: bytes) -> str | None:
    """The file suffix of the picture ``data`` holds, or None when it holds no picture."""
    for magic, suffix in _SIGNATURES:
        if data.startswith(magic):
            return suffix
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ".webp"
    if data[:4] == b"\x01\x00\x00\x00" and data[40:44] == b" EMF":
        return ".emf"
    return ".svg" if _SVG.match(data[:4096]) else None
