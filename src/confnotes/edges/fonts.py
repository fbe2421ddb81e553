"""Which scripts a note uses, and whether this machine has a font for each (fontconfig's ``fc-list``).

``confnotes doctor`` asks fontconfig about each script a note uses; the PDF renderers warn once
per script and note about the characters WeasyPrint found no font for, naming the Debian
package that provides one.
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
    ("Emoji", "und-zsye", "\U0001f1e6-\U0001f1ff\U0001f300-\U0001faff", "fonts-noto-color-emoji"),
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


def missing_glyph_warnings(chars: list[str]) -> list[str]:
    """Lines for the characters WeasyPrint printed as empty boxes (it found no font on this machine
    with them): one per script in ``SCRIPTS``, naming the Debian package with a font for it, and one
    line for any others. Nothing is looked up: only a missing glyph costs anything."""
    lines = []
    named = ""
    for name, _lang, ranges, package in SCRIPTS:
        if any(re.fullmatch(f"[{ranges}]", char) for char in chars):
            lines.append(f"no font for {name} text on this machine: it prints as empty boxes (Debian: apt-get install {package})")
            named += ranges
    rest = [char for char in chars if not (named and re.fullmatch(f"[{named}]", char))]
    if rest:
        sample = " ".join(rest[:8]) + (" …" if len(rest) > 8 else "")
        lines.append(
            (f"{len(rest)} characters have" if len(rest) > 1 else "1 character has")
            + f" no font on this machine and print{'' if len(rest) > 1 else 's'} as empty boxes: {sample}"
            " (Debian's fonts-noto-core and fonts-noto-extra cover most scripts)"
        )
    return lines
