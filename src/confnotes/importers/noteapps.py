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
_WIKILINK = re.compile(r"(?<!!)\[\[([^\]|#^\n]+)(?:([#^])([^\]|\n]*))?(?:\|([^\]\n]*))?\]\]")
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


def app_of(text: str) -> str:
    """The note app whose marks ``text`` shows, as the summary names it ("" for none): Logseq's
    properties and block references, Obsidian's comments and wikilinks, Google Docs' pictures."""
    if not shows_app_marks(text):
        return ""
    parts: list[str] = []

    def keep(part: str) -> str:
        parts.append(part)
        return part

    _outside_code(text, keep)  # the text outside code, where the marks are read
    outside = "\n".join(parts)
    lines = outside.split("\n")
    if _REFERENCE.search(outside) or any(_PROPERTY.match(line) for line in lines[:50]):
        return "Logseq"
    if _COMMENT.search(outside) or _WIKILINK.search(outside) or _EMBED.search(outside):
        return "Obsidian"
    return "Google Docs" if _DATA_PICTURE.search(outside) else ""


def shows_app_marks(text: str) -> bool:
    return "%%" in text or "[[" in text or ":: " in text or "((" in text or "data:image/" in text


def plain_markdown(text: str, assets_folder: str, resolve: Callable[[str], bytes | None]) -> AppText:
    """``text`` with Obsidian's and Logseq's marks read (``resolve`` gives the bytes of a picture a
    note embeds by its name, or None)."""
    found = AppText(text)
    found.text = _outside_code(found.text, lambda part: _COMMENT.sub(lambda _match: _dropped(found, "Obsidian comment"), part))
    found.text = _logseq(found)
    found.text = _outside_code(found.text, lambda part: _EMBED.sub(lambda m: _embed(found, m, assets_folder, resolve), part))
    found.text = _outside_code(found.text, lambda part: _WIKILINK.sub(_link, part))
    if "data:image/" in found.text:
        found.text = _DATA_PICTURE.sub(lambda m: _data_picture(found, m, assets_folder), found.text)
    return found


#: A code fence's opening line, in a list item too (Logseq's ``- ```` ``)
_FENCE_OPEN = re.compile(r"^[ \t]*(?:[-*+] +)?(`{3,}|~{3,})")
#: An inline code span: a run of backticks, then anything up to a run of the same length within
#: the paragraph (a blank line ends it, as in CommonMark: a stray backtick protects no later text)
_CODE_SPAN = re.compile(r"(`+)(?!`)(?:(?!\n[ \t]*\n)[\s\S])*?(?<!`)\1(?!`)")


def code_lines(lines: list[str]) -> set[int]:
    """The indexes of the lines that are a fenced code block's (its fences included): code, where no
    app mark is read (``[[tool.mypy.overrides]]`` is TOML, ``key:: value`` a line of code)."""
    inside: set[int] = set()
    fence = ""
    for index, line in enumerate(lines):
        if fence:
            inside.add(index)
            if re.fullmatch(rf"[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*", line):
                fence = ""
        elif (opened := _FENCE_OPEN.match(line)) is not None:
            inside.add(index)
            fence = opened.group(1)
    return inside


def _outside_code(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` applied to what is not code: fenced blocks and inline code spans stay as written."""
    if "`" not in text and "~~~" not in text:
        return change(text)
    lines = text.split("\n")
    code = code_lines(lines)
    out: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        if prose:
            joined = "\n".join(prose)
            kept, at = [], 0
            for span in _CODE_SPAN.finditer(joined):
                kept += [change(joined[at : span.start()]), span.group(0)]
                at = span.end()
            kept.append(change(joined[at:]))
            out.append("".join(kept))
            prose.clear()

    for index, line in enumerate(lines):
        if index in code:
            flush()
            out.append(line)
        else:
            prose.append(line)
    flush()
    return "\n".join(out)


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


def _note_name(target: str) -> str:
    return target if PurePosixPath(target).suffix else f"{target}.md"


def _link(match: re.Match[str]) -> str:
    """``[[Note]]``, ``[[Note|label]]``, ``[[Note#Heading]]`` (to the heading's anchor, as the page
    of the note names it; a block's ``^id`` has none: the note itself)."""
    if match.re is not _WIKILINK:  # an embed of a note, not a picture (``![[Another note]]``)
        return f"[{(match.group(2) or '').strip() or match.group(1).strip()}](<{_note_name(match.group(1).strip())}>)"
    target, mark, part, label = match.group(1).strip(), match.group(2), (match.group(3) or "").strip(), (match.group(4) or "").strip()
    name = _note_name(target)
    if mark == "#" and part:
        from confnotes.names import slugify

        name += "#" + slugify(part)
        label = label or f"{target} › {part}"
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


#: A Logseq block that is a heading (``- ## Talk``), at any depth (tabs)
_HEADING_BLOCK = re.compile(r"^(\t*)- (#{1,6}) (\S.*)$", re.M)


def _headings_out_of_blocks(text: str) -> str:
    """A Logseq page, where every block is a bullet, with its heading blocks as headings: ``- ## Talk``
    becomes ``## Talk`` and the blocks under it move out by its depth, so they are the section's
    text and lists, as the outliner shows them under the heading (the Logseq OPML reader does the same)."""
    out: list[str] = []
    strip = 0  # the tabs the lines under the last heading block lose
    for line in text.split("\n"):
        heading = _HEADING_BLOCK.match(line)
        if heading is not None:
            out += ["", f"{heading.group(2)} {heading.group(3)}", ""]
            strip = len(heading.group(1)) + 1
            continue
        lead = len(line) - len(line.lstrip("\t"))
        if line.strip() and lead < strip and line[lead:].startswith("- "):
            strip = lead  # a block beside the heading, not under it
        out.append(line[min(lead, strip) :])
    return "\n".join(_prose_blocks(out))


def _prose_blocks(lines: list[str]) -> list[str]:
    """A Logseq page's lines with each outer block that has nothing under it and reads as text —
    a ``Speaker: …`` label line, a sentence ending in ``.``, ``!`` or ``?`` — as a paragraph: every
    line is a block in Logseq, so its bullet says nothing of whether a line is a list's item."""
    from confnotes.parse.recover import is_label_line, is_sentence

    out: list[str] = []
    unwrapping = False  # the continuation lines of an outer block of code, a table or a picture
    for index, line in enumerate(lines):
        if unwrapping and line.startswith("  "):
            out.append(line[2:])
            continue
        if unwrapping:
            out.append("")
        unwrapping = False
        following = lines[index + 1] if index + 1 < len(lines) else ""
        text = line[2:].strip()
        if line.startswith("- ") and text.startswith(("```", "~~~", "|", "![")):
            out += ["", line[2:]]  # code, a table or a picture: itself, not a list's item
            unwrapping = True
            continue
        alone = line.startswith("- ") and not following.startswith(("\t", " "))
        if alone and (is_label_line(text) or (text[-1:] in ".!?" and (is_sentence(text) or len(text.split()) >= 8))):
            out += ["", text, ""]
        else:
            out.append(line)
    return out


def _logseq(found: AppText) -> str:
    """Logseq's properties: the page's first ones as front matter, bookkeeping dropped, block
    references resolved from the ``id::`` lines of the page."""
    lines = found.text.split("\n")
    code = code_lines(lines)
    ids: dict[str, str] = {}
    for index, line in enumerate(lines):
        prop = _PROPERTY.match(line) if index not in code else None
        if prop and prop.group(2).lower() == "id" and index:
            block = lines[index - 1].strip().removeprefix("- ").strip()
            ids[prop.group(3).strip()] = block
    kept: list[str] = []
    leading = True
    logseq = False  # the page has a property line: Logseq wrote it
    for index, line in enumerate(lines):
        prop = _PROPERTY.match(line) if index not in code else None
        logseq = logseq or prop is not None
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
    if logseq and _HEADING_BLOCK.search(text):
        text = _headings_out_of_blocks(text)
    if unresolved[0]:
        many = unresolved[0] > 1
        what = "block references to another page kept as their ids" if many else "block reference to another page kept as its id"
        found.imported.remarks.append(f"{unresolved[0]} {what}")
    return text
