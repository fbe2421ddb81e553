"""Names made from text: a section's anchor and a file's name (``Zoë's Talk!`` -> ``zoës-talk``).

One place decides them, for every output and command that makes one: the HTML anchors, the notes
``new`` and ``new --schedule`` write, and the site's speaker, track and tag pages.
"""

from __future__ import annotations

import re
import unicodedata

#: A file name's part made from a title is cut at a word end within this many characters, and
#: within ``MAX_NAME_BYTES`` of UTF-8: a file name holds 255 bytes, and a CJK title's 60
#: characters are 180 of them.
MAX_NAME_CHARS = 60
MAX_NAME_BYTES = 150


def slugify(text: str) -> str:
    """Lower-case words joined by ``-`` (letters and digits of any script kept; ``section`` when none)."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"[^\w\s-]", "", text, flags=re.UNICODE)
    return re.sub(r"[\s_-]+", "-", text).strip("-") or "section"


def file_slug(text: str, chars: int = MAX_NAME_CHARS, size: int = MAX_NAME_BYTES) -> str:
    """``slugify(text)`` cut at a word end to ``chars`` characters and ``size`` bytes of UTF-8, so a
    name made of it (with a date, a room and ``.md``) fits the file system's 255 bytes."""
    slug = slugify(text)
    if len(slug) <= chars and len(slug.encode("utf-8")) <= size:
        return slug
    cut = slug[:chars]
    while len(cut.encode("utf-8")) > size:
        cut = cut[:-1]
    return cut.rsplit("-", 1)[0].strip("-") or cut.strip("-") or "section"
