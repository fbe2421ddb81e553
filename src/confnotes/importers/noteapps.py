"""Markdown as note apps write it (Obsidian, Logseq), made plain Markdown on import.

- Obsidian: ``%% comments %%`` (inline or over lines) are the writer's own: dropped, and counted;
  ``[[Note]]`` and ``[[Note|label]]`` are links to ``Note.md``; ``![[picture.png|400]]`` is the
  picture beside the note, copied into the assets folder (only from the note's folder and below).
- Logseq: a page's first ``title:: …`` (and ``tags:: …``) lines are its front matter; ``id::`` and
  ``collapsed::`` lines are the app's bookkeeping, dropped; ``((uuid))`` is the text of the block
  whose ``id::`` it names on the same page (kept as the id, and said so, when it is not there).

- Google Docs' "Download as Markdown": its pictures are ``data:`` URLs (``[image1]: <data:image/png;base64,…>``),
  kept in the assets folder and linked from there.

Only a text that shows one of these marks is changed; any other Markdown is imported as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from confnotes.importers.blocks import Imported

_COMMENT = re.compile(r"%%.*?%%", re.S)
_EMBED = re.compile(r"!\[\[([^\]|#^\n]+)(?:[#^][^\]|\n]*)?(?:\|([^\]\n]*))?\]\]")
_WIKILINK = re.compile(r"(?<!!)\[\[([^\]|#^\n]+)(?:[#^][^\]|\n]*)?(?:\|([^\]\n]*))?\]\]")
_PROPERTY = re.compile(r"^(\s*(?:- )?)([A-Za-z][\w-]*):: ?(.*)$")
_BOOKKEEPING = frozenset(("id", "collapsed", "heading"))
_REFERENCE = re.compile(r"\(\(([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\)\)")
_PICTURE = re.compile(r"\.(?:png|jpe?g|gif|webp|svg|bmp)$", re.I)


@dataclass
class AppText:
    """A note app's Markdown made plain: its text, and as every reader gives them, the pictures it
    embeds, its front matter (``stated``) and what was dropped or kept unresolved."""

    text: str
    imported: Imported = field(default_factory=lambda: Imported("text"))


def shows_app_marks(text: str) -> bool:
    return "%%" in text or "[[" in text or ":: " in text or "((" in text or "data:image/" in text


def plain_markdown(text: str, assets_folder: str, resolve: Callable[[str], bytes | None]) -> AppText:
    """``text`` with Obsidian's and Logseq's marks read (``resolve`` gives the bytes of a picture a
    note embeds by its name, or None)."""
    found = AppText(text)
    found.text = _COMMENT.sub(lambda _match: _dropped(found, "Obsidian comment"), found.text)
    found.text = _logseq(found)
    found.text = _EMBED.sub(lambda m: _embed(found, m, assets_folder, resolve), found.text)
    found.text = _WIKILINK.sub(_link, found.text)
    if "data:image/" in found.text:
        found.text = _DATA_PICTURE.sub(lambda m: _data_picture(found, m, assets_folder), found.text)
    return found


#: A picture's ``data:`` URL, in an image (``![](data:…)``) or a reference definition (``[image1]: <data:…>``)
_DATA_PICTURE = re.compile(r"<?data:image/[a-z+.-]+;base64,([A-Za-z0-9+/=\s]+?)>?(?=[)\s]|$)", re.M)
#: the largest picture kept from a ``data:`` URL (as a page's pictures are bounded)
MAX_DATA_PICTURE = 8 * 1024 * 1024


def _data_picture(found: AppText, match: re.Match[str], assets_folder: str) -> str:
    import base64
    import binascii

    payload = match.group(1)
    if len(payload) > MAX_DATA_PICTURE * 4 // 3 + 4:
        found.imported.drop("picture larger than 8 MB")
        return ""
    try:
        data = base64.b64decode(payload, validate=False)
    except (binascii.Error, ValueError):
        data = b""
    name = found.imported.add_asset(data)  # None, and the drop named, for bytes that hold no picture
    return f"{assets_folder}/{name}" if name else ""


def _dropped(found: AppText, what: str) -> str:
    found.imported.drop(what)
    return ""


def _link(match: re.Match[str]) -> str:
    target, label = match.group(1).strip(), (match.group(2) or "").strip()
    name = target if PurePosixPath(target).suffix else f"{target}.md"
    return f"[{label or target}](<{name}>)"


def _embed(found: AppText, match: re.Match[str], assets_folder: str, resolve: Callable[[str], bytes | None]) -> str:
    target = match.group(1).strip()
    if not _PICTURE.search(target):
        return _link(match)  # ![[Another note]]: a link to it (its text is not copied in)
    data = resolve(target)
    if data is None:
        found.imported.drop("missing picture")
    name = found.imported.add_asset(data) if data is not None else None  # (bytes that hold no picture: named too)
    if name is None:
        return f"![{PurePosixPath(target).stem}](<{target}>)"
    return f"![{PurePosixPath(target).stem}]({assets_folder}/{name})"


def _logseq(found: AppText) -> str:
    """Logseq's properties: the page's first ones as front matter, bookkeeping dropped, block
    references resolved from the ``id::`` lines of the page."""
    lines = found.text.split("\n")
    ids: dict[str, str] = {}
    for index, line in enumerate(lines):
        prop = _PROPERTY.match(line)
        if prop and prop.group(2).lower() == "id" and index:
            block = lines[index - 1].strip().removeprefix("- ").strip()
            ids[prop.group(3).strip()] = block
    kept: list[str] = []
    leading = True
    for line in lines:
        prop = _PROPERTY.match(line)
        if prop is None:
            leading = leading and not line.strip()
            kept.append(line)
            continue
        key, value = prop.group(2).lower(), prop.group(3).strip()
        if leading and key in ("title", "tags", "alias", "date"):
            found.imported.stated[{"alias": "aliases"}.get(key, key)] = value
        elif key in _BOOKKEEPING or leading:
            found.imported.drop(f"Logseq {key}:: line")
        else:
            kept.append(line)
    text = "\n".join(kept)
    unresolved = [0]

    def reference(match: re.Match[str]) -> str:
        if match.group(1) in ids:
            return ids[match.group(1)]
        unresolved[0] += 1
        return match.group(0)

    text = _REFERENCE.sub(reference, text)
    if unresolved[0]:
        many = unresolved[0] > 1
        what = "block references to another page kept as their ids" if many else "block reference to another page kept as its id"
        found.imported.remarks.append(f"{unresolved[0]} {what}")
    return text
