"""The site's index: index.html, outline.json from each note's outline file, and the checks that they are as recorded."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from confnotes._version import __version__
from confnotes.build.manifest import _Hashed, _recorded_pieces, _site_relative, _write_if_changed
from confnotes.errors import NotesError

if TYPE_CHECKING:
    from confnotes.build.site import SiteInputs

#: Each note's outline for ``outline.json``, one file a note (``.confnotes-outlines/talk.md.<key>.json``):
#: the manifest names it with its size and hash, so no process ever holds a whole site's outlines.
OUTLINES = ".confnotes-outlines"


def _outline_pieces(out_dir: Path, rel: str, outline: dict[str, Any], what: str = "outline") -> Iterator[bytes]:
    """A note's outline file (or ``what`` else the build recorded of it: its ``search words``), piece
    by piece, as its build recorded it (``_recorded_pieces``)."""
    return _recorded_pieces(out_dir, outline["file"], outline, f"the {what} of {rel}")


def _check_outline(out_dir: Path, rel: str, outline: dict[str, Any], what: str = "outline") -> None:
    """Read a note's recorded file through; raises ``NotesError`` when it is not as built."""
    for _ in _outline_pieces(out_dir, rel, outline, what):
        pass


def _outline_intact(out_dir: Path, rel: str, outline: dict[str, Any], what: str = "outline") -> str | None:
    """None when a note's recorded file is as built, else what is wrong with it."""
    try:
        _check_outline(out_dir, rel, outline, what)
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


#: The files ``write_index`` always writes from the manifest's notes (the site's other pages: ``site.py``).
SITE_FILES = ("index.html", "outline.json")


def write_index(
    out_dir: Path,
    notes: dict[str, Any],
    formats: Iterable[str],
    failed: dict[str, str] | None = None,
    inputs: SiteInputs | None = None,
    old_site: Any = None,
) -> dict[str, Any]:
    """``index.html`` (every note, its formats and lint status; notes that failed, with why),
    ``outline.json`` (all outlines) and the site's other pages (``site.py``: search, timetable,
    feed); returns each file's size and hash, for the manifest, so an unchanged build can see that
    they are as written without making them again (``_site_intact``). Pages an earlier build wrote
    that this one does not (a track that is gone) are removed."""
    from confnotes.build.site import SiteInputs, write_site_pages
    from confnotes.edges.output import remove_in, write_in
    from confnotes.markup.escape import display_text

    inputs = inputs or SiteInputs()
    ordered = sorted(
        notes.values(), key=lambda e: ((e.get("event") or "").casefold(), e.get("date") or "", (e.get("title") or "").casefold(), e["rel"])
    )
    # the page shows a file name that is not UTF-8 with U+FFFD (its links keep the bytes: site_href)
    ordered = [{**entry, "rel": display_text(entry["rel"])} for entry in ordered]
    failed = {display_text(rel): display_text(reason) for rel, reason in (failed or {}).items()}
    page = _site_page(formats, inputs.theme)
    pages = write_site_pages(out_dir, ordered, inputs, site_href, page)
    html = page("index.html", notes=ordered, failed=sorted(failed.items()), root="./", timetable="timetable.html" in pages)
    record: dict[str, Any] = {}
    for name, data in {"index.html": html.encode("utf-8"), **pages}.items():
        write_in(out_dir, name, data, if_changed=True)
        record[name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    outline = _Hashed()
    _write_if_changed(out_dir / "outline.json", outline.pieces(_site_outline(out_dir, notes)))
    record["outline.json"] = outline.record()
    for name in old_site if isinstance(old_site, dict) else ():
        if name not in record and isinstance(name, str) and _site_relative(name):
            remove_in(out_dir, name)
    return dict(sorted(record.items()))


def _site_page(formats: Iterable[str], theme: str = "default") -> Callable[..., str]:
    """Renders one of the site's own pages (index, timetable, lists) with what they all share."""
    from confnotes.render.formats import FORMATS
    from confnotes.render.html import style_safe, theme_css
    from confnotes.render.options import RenderOptions
    from confnotes.templating import read_builtin, render_template

    css = style_safe(theme_css(RenderOptions(theme=theme)) + "\n" + read_builtin("index.css"))
    shown = list(formats)
    labels = {name: fmt.label for name, fmt in FORMATS.items()}

    def page(template: str, root: str, **context: Any) -> str:
        def href(rel: str) -> str:
            return root + site_href(rel)[2:]

        context.setdefault("events", sorted({e["event"] for e in context.get("notes", []) if e.get("event")}))
        context.setdefault("tags", sorted({t for e in context.get("notes", []) for t in e.get("tags", [])}))
        return render_template(template, (), formats=shown, labels=labels, href=href, root=root, css=css, version=__version__, **context)

    return page


def _site_intact(out_dir: Path, site: Any) -> bool:
    """Whether the site's own files are as the last build recorded them (``write_index``)."""
    if not isinstance(site, dict) or not set(SITE_FILES) <= set(site):
        return False
    for name, recorded in site.items():
        if not (isinstance(name, str) and _site_relative(name) and isinstance(recorded, dict)):
            return False
        if not (type(recorded.get("bytes")) is int and isinstance(recorded.get("sha256"), str)):
            return False
        try:
            for _ in _recorded_pieces(out_dir, name, recorded, f"the site's {name}"):
                pass
        except NotesError:
            return False
    return True
