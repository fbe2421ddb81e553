"""Which links a page, deck or document keeps: http(s), mailto, tel and relative ones; ``javascript:``,
``vbscript:``, ``file:`` and the like lose their link and keep their text."""

from __future__ import annotations

import re

_SAFE_SCHEMES = {"http", "https", "mailto", "tel", ""}


def scheme(url: str) -> str:
    """A URL's scheme, lower-cased, as a browser reads it (control characters and spaces dropped)."""
    cleaned = re.sub(r"[\x00-\x20]", "", url).lower()
    match = re.match(r"^([a-z][a-z0-9+.-]*):", cleaned)
    return match.group(1) if match else ""


def safe_link(url: str) -> bool:
    return scheme(url) in _SAFE_SCHEMES
