"""Which scripts a note uses, and whether this machine has a font for each (fontconfig's ``fc-list``).

Shared by ``confnotes doctor`` and the PDF renderers, which warn once per script and note
when text would print as empty boxes, naming the Debian package that provides a font.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import lru_cache

#: (script, fontconfig language, characters, Debian package with a font for it)
SCRIPTS = (
    ("Latin", "en", "A-Za-z", "fonts-dejavu-core"),
    ("Cyrillic", "ru", "\u0400-\u04ff", "fonts-dejavu-core"),
    ("Greek", "el", "\u0370-\u03ff", "fonts-dejavu-core"),
    ("Hebrew", "he", "\u0590-\u05ff", "fonts-dejavu-core"),
    ("Arabic", "ar", "\u0600-\u06ff", "fonts-dejavu-core"),
    ("CJK", "zh", "\u4e00-\u9fff", "fonts-droid-fallback"),
    ("Japanese kana", "ja", "\u3040-\u30ff", "fonts-droid-fallback"),
    ("Hangul", "ko", "\uac00-\ud7af", "fonts-noto-cjk"),
    ("Devanagari", "hi", "\u0900-\u097f", "fonts-noto-core"),
    ("Thai", "th", "\u0e00-\u0e7f", "fonts-thai-tlwg"),
)


@lru_cache(maxsize=32)
def families(lang: str) -> tuple[str, ...]:
    """Font families fontconfig has for ``lang`` (empty without fontconfig or a font)."""
    if shutil.which("fc-list") is None:
        return ()
    found = subprocess.run(["fc-list", f":lang={lang}", "family"], capture_output=True, text=True, check=False).stdout
    return tuple(sorted({line.split(",")[0] for line in found.splitlines() if line.strip()}))


def used_scripts(text: str) -> list[tuple[str, str, str]]:
    """``(script, lang, package)`` for every script in ``SCRIPTS`` that ``text`` uses."""
    return [(name, lang, package) for name, lang, chars, package in SCRIPTS if re.search(f"[{chars}]", text)]


def missing_font_warnings(text: str) -> list[str]:
    """One line per script in ``text`` that has no font here (nothing without fontconfig: then
    ``confnotes doctor`` says so once, not every render)."""
    if shutil.which("fc-list") is None:
        return []
    return [
        f"no font for {name} text on this machine: it prints as empty boxes (Debian: apt-get install {package})"
        for name, lang, package in used_scripts(text)
        if not families(lang)
    ]
