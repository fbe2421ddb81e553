"""The site's index: index.html, outline.json from each note's outline file, and the checks that they are as recorded."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from confnotes import __version__
from confnotes.build.manifest import _Hashed, _recorded_pieces, _write_if_changed
from confnotes.errors import NotesError

#: Each note's outline for ``outline.json``, one file a note (``.confnotes-outlines/talk.md.<key>.json``):
#: the manifest names it with its size and hash, so no process ever holds a whole site's outlines.
OUTLINES = ".confnotes-outlines"


def _outline_pieces(out_dir: Path, rel: str, outline: dict[str, Any]) -> Iterator[bytes]:
    """A note's outline file, piece by piece, as its build recorded it (``_recorded_pieces``)."""
    return _recorded_pieces(out_dir, outline["file"], outline, f"the outline of {rel}")


def _check_outline(out_dir: Path, rel: str, outline: dict[str, Any]) -> None:
    """Read a note's outline file through; raises ``NotesError`` when it is not as built."""
    for _ in _outline_pieces(out_dir, rel, outline):
        pass


def _outline_intact(out_dir: Path, rel: str, outline: dict[str, Any]) -> str | None:
    """None when a note's outline file is as built, else what is wrong with it."""
    try:
        _check_outline(out_dir, rel, outline)
    except NotesError as exc:
        return str(exc)
    return None


def _site_outline(out_dir: Path, notes: dict[str, Any]) -> Iterator[bytes]:
    """``outline.json``: every note's outline file in turn, as ``{"notes": [...], "schema": ...}``
    with keys sorted and no spaces, the way confnotes writes its site's JSON."""
    yield b'{"notes":['
    for index, rel in enumerate(sorted(notes)):
        if index:
            yield b","
        yield from _outline_pieces(out_dir, rel, notes[rel]["outline"])
    yield b'],"schema":"confnotes.site/2"}\n'


def _format_names() -> tuple[str, ...]:
    from confnotes.render.formats import FORMATS

    return tuple(FORMATS)


def site_href(rel: str) -> str:
    """A link to a file of the site: always relative (``./``) and percent-encoded, so a file named
    ``javascript:alert(1).html`` is a file, never a script URL."""
    from urllib.parse import quote

    # a file name that is not UTF-8 (held as lone surrogates) links to its own bytes: %FF
    return "./" + "/".join(quote(part, errors="surrogateescape") for part in rel.split("/"))


#: The files ``write_index`` writes from the manifest's notes.
SITE_FILES = ("index.html", "outline.json")


def write_index(out_dir: Path, notes: dict[str, Any], formats: Iterable[str], failed: dict[str, str] | None = None) -> dict[str, Any]:
    """``index.html`` (every note, its formats and lint status; notes that failed, with why) and
    ``outline.json`` (all outlines); returns each file's size and hash, for the manifest, so an
    unchanged build can see that they are as written without making them again (``_site_intact``)."""
    from confnotes.escape import display_text
    from confnotes.render.formats import FORMATS
    from confnotes.render.html import style_safe, theme_css
    from confnotes.render.options import RenderOptions
    from confnotes.templating import read_builtin, render_template

    ordered = sorted(
        notes.values(), key=lambda e: ((e.get("event") or "").casefold(), e.get("date") or "", (e.get("title") or "").casefold(), e["rel"])
    )
    # the page shows a file name that is not UTF-8 with U+FFFD (its links keep the bytes: site_href)
    ordered = [{**entry, "rel": display_text(entry["rel"])} for entry in ordered]
    failed = {display_text(rel): display_text(reason) for rel, reason in (failed or {}).items()}
    events = sorted({e["event"] for e in ordered if e.get("event")})
    tags = sorted({t for e in ordered for t in e.get("tags", [])})
    html = render_template(
        "index.html",
        (),
        notes=ordered,
        events=events,
        tags=tags,
        formats=list(formats),
        labels={name: fmt.label for name, fmt in FORMATS.items()},
        href=site_href,
        failed=sorted(failed.items()),
        css=style_safe(theme_css(RenderOptions()) + "\n" + read_builtin("index.css")),
        version=__version__,
    )
    page, outline = html.encode("utf-8"), _Hashed()
    _write_if_changed(out_dir / "index.html", page)
    _write_if_changed(out_dir / "outline.json", outline.pieces(_site_outline(out_dir, notes)))
    return {"index.html": {"bytes": len(page), "sha256": hashlib.sha256(page).hexdigest()}, "outline.json": outline.record()}


def _site_intact(out_dir: Path, site: Any) -> bool:
    """Whether the index files are as the last build recorded them (``write_index``)."""
    if not isinstance(site, dict) or set(site) != set(SITE_FILES):
        return False
    for name in SITE_FILES:
        recorded = site[name]
        if not (isinstance(recorded, dict) and type(recorded.get("bytes")) is int and isinstance(recorded.get("sha256"), str)):
            return False
        try:
            for _ in _recorded_pieces(out_dir, name, recorded, f"the site's {name}"):
                pass
        except NotesError:
            return False
    return True
