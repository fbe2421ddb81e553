"""A folder of notes to a site: every note in every format, an index, incrementally and in parallel.

The manifest (``.confnotes-manifest.json`` in the output folder) records, for each note,
a hash of the note, its config, the templates, the formats and the confnotes version,
with the files it produced. An unchanged note is not rendered again; a removed note's
files are deleted. ``--shard K/N`` builds every N-th note and writes a shard manifest;
``--merge`` assembles the index from the shards' manifests.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from confnotes import __version__
from confnotes.errors import ErrorKind, NotesError

if TYPE_CHECKING:
    from confnotes.config import FolderConfigs
    from confnotes.ignore import Exclude
    from confnotes.lint.types import Finding
    from confnotes.model import Document
    from confnotes.output import Data
    from confnotes.render.options import RenderOptions

MANIFEST = ".confnotes-manifest.json"
SHARD_MANIFEST = ".confnotes-manifest.shard-{k}-of-{n}.json"
#: Each note's outline for ``outline.json``, one file a note (``.confnotes-outlines/talk.md.<key>.json``):
#: the manifest names it with its size and hash, so no process ever holds a whole site's outlines.
OUTLINES = ".confnotes-outlines"
DEFAULT_FORMATS = ("html", "pdf", "slides", "pptx")


@dataclass(frozen=True)
class BuildRequest:
    source_dir: str
    out_dir: str
    formats: tuple[str, ...] = DEFAULT_FORMATS
    jobs: int = 0
    force: bool = False
    shard: tuple[int, int] | None = None
    theme: str | None = None
    #: ``--exclude`` globs (relative to ``source_dir``) and the config's (each relative to its file's folder)
    exclude: tuple[str | Exclude, ...] = ()
    keep_failed: bool = False  # keep a failing note's last good files (the live preview shows them)
    trust_templates: bool = False  # run the notes' own templates outside Jinja's sandbox
    allow_remote: bool = False  # Marp decks may load web images and emoji images when opened
    config_file: str | None = None  # --config: this config for every note, not each note's own
    #: told each output's name in the site as soon as it is written, while the rest of the build goes on
    #: (the live preview reloads a note's page before its deck, outline and the index are done); only
    #: for notes built in this process (``jobs=1``, or one note to build)
    on_written: Callable[[str], None] | None = field(default=None, compare=False)
    #: of ``formats``, those to render first (the preview: the formats of the pages open in a browser)
    first: tuple[str, ...] = field(default=(), compare=False)


@dataclass
class BuildReport:
    rendered: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    #: (note, warning) from rendering it: a refused image, characters with no font, …
    warnings: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return len(self.rendered) + len(self.skipped) + len(self.failed)

    def summary(self, out_dir: str) -> str:
        return (
            f"built {self.total} note(s) into {out_dir}: rendered {len(self.rendered)}, "
            f"skipped {len(self.skipped)} unchanged, removed {len(self.removed)}, failed {len(self.failed)} "
            f"({self.seconds:.1f} s)"
        )


def parse_shard(value: str) -> tuple[int, int]:
    try:
        k, n = (int(part) for part in value.split("/"))
    except ValueError:
        raise NotesError(f"--shard must look like K/N (e.g. 1/4), not '{value}'", kind=ErrorKind.USAGE) from None
    if not 1 <= k <= n:
        raise NotesError(f"--shard {value}: K must be between 1 and N", kind=ErrorKind.USAGE)
    return k, n


def _templates_hash(user_dir: str | None) -> str:
    """A hash of the built-in templates and of the user's templates folder, as rendering reads it."""
    from confnotes.templating import builtin_templates

    digest = hashlib.sha256()
    for path in sorted(p for p in builtin_templates().rglob("*") if p.is_file()):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    if user_dir and Path(user_dir).is_dir():
        digest.update(_user_templates_digest(user_dir))
    return digest.hexdigest()


def _user_templates_digest(folder: str) -> bytes:
    """A hash of every file of a user's templates folder, read as rendering reads it
    (``read_confined``): a link out of the folder, a pipe or a file past the size limit is never
    read — its error line is hashed instead, so the note is rebuilt (and fails) once it is used."""
    from confnotes.templating import read_confined

    digest = hashlib.sha256()
    for top, dirs, files in os.walk(folder):  # links to folders are not walked into
        dirs.sort()
        for name in sorted(files + [d for d in dirs if os.path.islink(os.path.join(top, d))]):
            rel = os.path.relpath(os.path.join(top, name), folder).replace(os.sep, "/")
            digest.update(os.fsencode(rel) + b"\x00")
            try:
                data = read_confined(folder, rel)
            except NotesError as exc:
                data = f"refused: {exc}".encode(errors="surrogateescape")
            digest.update(hashlib.sha256(data or b"").digest())
    return digest.digest()


def note_key(data: bytes, config_bytes: bytes, shared: str) -> str:
    digest = hashlib.sha256(shared.encode())
    digest.update(config_bytes)
    digest.update(data)
    return digest.hexdigest()


# ---------------------------------------------------------------- one note (runs in a worker process)


def _json(value: Any, default: Any = None) -> str:
    """The site's JSON files (manifest, outline.json): keys sorted, so unchanged builds write the same
    bytes, and compact, so Python's C encoder writes them (an indented dump runs its pure-Python
    encoder, which took longer than rendering a folder's pages)."""
    from confnotes.escape import strict_json

    return strict_json(value, sort_keys=True, compact=True, default=default) + "\n"


@dataclass(frozen=True)
class NoteTask:
    """One note to render: what a worker process needs, and nothing it would have to look up."""

    note: str
    rel: str  # its place in the site (where it is listed, not where a symlink points)
    out_dir: str
    formats: tuple[str, ...]
    key: str  # the manifest key: the note's, its config's and the templates' bytes, the version
    theme: str | None = None
    trust: bool = False
    remote: bool = False  # --allow-remote
    first: tuple[str, ...] = ()  # of ``formats``, those to render first (``BuildRequest.first``)
    config_file: str | None = None  # ``BuildRequest.config_file``


@dataclass
class NoteOutcome:
    """What rendering one note gave: its manifest entry (JSON data, as the manifest stores it), or
    the error that stopped it, and the warnings its renders raised (each once)."""

    rel: str
    entry: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    warnings: list[str] = field(default_factory=list)


def build_note(task: NoteTask, written: Callable[[str], None] | None = None) -> NoteOutcome:
    """Render one note to every requested format; never raises (failures come back as data).
    ``written`` is told each output's name as soon as it is in the site."""
    from confnotes.images import recorded

    outcome = NoteOutcome(task.rel, {"rel": task.rel, "key": task.key, "outputs": {}, "error": None})
    try:
        with recorded() as pictures:
            for name, finish in _prepared_formats(task, outcome, written):  # the note is let go before the PDFs are laid out
                _finish(task, outcome, name, finish, written)
        outcome.entry["inputs"] = _inputs(task.note, pictures)
    except NotesError as exc:
        outcome.error = str(exc) if exc.path else f"{task.note}: {exc}"
    except Exception as exc:  # noqa: BLE001 - one broken note must not stop the others
        outcome.error = f"{task.note}: {type(exc).__name__}: {exc}"
    outcome.entry["error"] = outcome.error
    return outcome


def _prepared_formats(
    task: NoteTask, outcome: NoteOutcome, written: Callable[[str], None] | None = None
) -> list[tuple[str, Callable[[], tuple[str | bytes, list[str]]]]]:
    """Render every format that needs the note itself (each written at once), then lint the note and
    record its index facts; returns the formats still to finish (PDFs to lay out) by file name.
    The note, its lint context and its deck are gone when this returns."""
    from confnotes.check import Checker, LintRequest
    from confnotes.render.formats import output_format, prepare_note
    from confnotes.render.options import RenderOverrides, resolve_render_options
    from confnotes.source import note_folder, read_source

    checker = Checker(LintRequest(config_file=task.config_file))
    config = checker.config_for(task.note)
    ctx = checker.context(read_source(task.note), config)
    overrides = RenderOverrides(theme=task.theme, trust_templates=task.trust, allow_remote=task.remote)
    options = resolve_render_options(config, ctx.doc, overrides)
    options = replace(options, decks=ctx.decks)  # the note's deck, built once for its lint run, its formats and the index
    base_dir = note_folder(task.note) or Path.cwd()
    suffix = Path(task.rel).suffix
    stem = task.rel[: -len(suffix)] if suffix else task.rel
    later = []
    first = [fmt for fmt in task.formats if fmt in task.first]
    # each format written into the site, as ``talk.slides.html`` beside ``talk.html``
    for fmt in first + [fmt for fmt in task.formats if fmt not in first]:
        name = stem + output_format(fmt).suffix
        finish = prepare_note(ctx.doc, fmt, options, base_dir, Path(task.out_dir) / name)
        if output_format(fmt).printed:
            later.append((name, finish))
        else:
            _finish(task, outcome, name, finish, written)
        outcome.entry["outputs"][fmt] = name
    outputs = outcome.entry["outputs"]
    outcome.entry["outputs"] = {fmt: outputs[fmt] for fmt in task.formats}  # the manifest's order is the request's
    # linted after its pages are written (the live preview shows a page sooner): the findings are
    # only the index's; the deck a talk's rules build is the one its formats built, or theirs
    findings = checker.lint(ctx, config)
    outcome.entry.update(_index_facts(task, ctx.doc, options, findings))
    return later


def _inputs(note: str, pictures: set[Path]) -> dict[str, dict[str, Any]]:
    """The pictures a note's renders read, by their path in the note's folder, with the hash,
    size and modification time of each (a build renders the note again when one changes, as
    when the note does; one whose size and time are as recorded is not read again)."""
    from confnotes.source import note_folder

    base = (note_folder(note) or Path.cwd()).resolve()
    inputs = {}
    for path in sorted(pictures):
        if base in path.parents:
            info = path.stat()
            inputs[path.relative_to(base).as_posix()] = {"sha256": _file_hash(path), "bytes": info.st_size, "mtime_ns": info.st_mtime_ns}
    return inputs


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _inputs_unchanged(note: str, inputs: dict[str, dict[str, Any]]) -> bool:
    """Whether every picture a note's last build read is still there, as it was (each found as a
    render finds it, inside the note's folder; read again only when its size or time changed)."""
    from confnotes.images import local_image
    from confnotes.source import note_folder

    if not inputs:
        return True
    base = note_folder(note) or Path.cwd()
    for name, recorded in inputs.items():
        path = local_image(quote(name), base)
        try:
            if path is None:
                return False
            info = path.stat()
            if (info.st_size, info.st_mtime_ns) != (recorded["bytes"], recorded["mtime_ns"]) and _file_hash(path) != recorded["sha256"]:
                return False
        except OSError:
            return False
    return True


def _finish(
    task: NoteTask,
    outcome: NoteOutcome,
    name: str,
    finish: Callable[[], tuple[str | bytes, list[str]]],
    written: Callable[[str], None] | None = None,
) -> None:
    """One format finished and written into the site; its bytes are not held after."""
    from confnotes.output import write_in

    data, warnings = finish()
    outcome.warnings += [message for message in warnings if message not in outcome.warnings]
    write_in(task.out_dir, name, data)  # no link followed: a link planted in the site is refused
    if written is not None:
        written(name)


def _index_facts(task: NoteTask, doc: Document, options: RenderOptions, findings: list[Finding]) -> dict[str, Any]:
    """What the index and outline.json show of a note: its meta, counts, lint status and outline,
    and for a talk its estimate against its slot (the deck as rendered)."""
    from confnotes.source import note_folder

    sections = doc.sections
    facts: dict[str, Any] = {
        "title": doc.meta.title,
        "event": doc.meta.event,
        "date": doc.meta.date,
        "speakers": list(doc.meta.speakers),
        "tags": list(doc.meta.tags),
        "kind": doc.meta.kind,
        "sections": len(sections),
        "points": sum(1 for s in sections for c in s.children if c.is_point),
        "entries": len(sections) if doc.is_reading_list else 0,
        "lint": {level: sum(1 for f in findings if f.severity == level) for level in ("error", "warning", "info")},
        "outline": _write_outline(task, doc),
    }
    if doc.is_talk:
        from confnotes.render.deck import talk_plan_for

        timing = talk_plan_for(doc, options, note_folder(task.note) or Path.cwd()).timing
        slot = timing.slot_minutes
        facts["talk"] = {"minutes": max(1, round(timing.total_minutes)), "slot": None if slot is None else f"{slot:g}"}
    return facts


def _write_outline(task: NoteTask, doc: Document) -> dict[str, Any]:
    """The note's entry of ``outline.json`` written to its own file in the site as it is made (a
    20 MB note's outline is 170 MB of JSON, and more as dictionaries); returns the file's name,
    size and hash for the manifest."""
    from confnotes.export import json_chunks
    from confnotes.output import write_in

    name = f"{OUTLINES}/{task.rel}.{task.key[:16]}.json"  # a failed rebuild never overwrites the kept one's
    written = _Hashed()
    write_in(task.out_dir, name, written.pieces(chunk.encode("utf-8") for chunk in json_chunks(doc, compact=True, path=task.rel)))
    return {"file": name, **written.record()}


class _Hashed:
    """The size and hash of the bytes passed through ``pieces``, as the manifest records a file."""

    def __init__(self) -> None:
        self.digest, self.size = hashlib.sha256(), 0

    def pieces(self, data: Iterable[bytes]) -> Iterator[bytes]:
        for piece in data:
            self.digest.update(piece)
            self.size += len(piece)
            yield piece

    def record(self) -> dict[str, Any]:
        return {"bytes": self.size, "sha256": self.digest.hexdigest()}


def _recorded_pieces(out_dir: Path, name: str, recorded: dict[str, Any], what: str) -> Iterator[bytes]:
    """A file of the site, piece by piece, exactly as a build recorded it (size and hash), read
    without following a link; raises ``NotesError`` when it is missing or not what was written."""
    from confnotes.output import open_in

    where, found = str(out_dir / name), _Hashed()
    with open_in(out_dir, name) as handle:
        if handle is None:
            raise NotesError(f"{what} is missing, or is not a regular file", path=where)
        while found.size <= recorded["bytes"] and (piece := handle.read(1 << 20)):
            yield from found.pieces((piece,))
    if found.record() != {"bytes": recorded["bytes"], "sha256": recorded["sha256"]}:
        raise NotesError(f"is not {what} that its build wrote (changed since)", path=where)


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


def _files(entry: dict[str, Any]) -> list[str]:
    """The files in the site a manifest entry names: its outputs and its outline."""
    files = [rel for rel in entry.get("outputs", {}).values() if isinstance(rel, str)]
    outline = entry.get("outline")
    if isinstance(outline, dict) and isinstance(outline.get("file"), str):
        files.append(outline["file"])
    return files


# ---------------------------------------------------------------- the whole folder


#: A manifest entry's fields as ``build_note`` writes them, each with the types it may hold; the
#: index and ``outline.json`` read every one (``talk`` only for talks).
_ENTRY_FIELDS: dict[str, tuple[type, ...]] = {
    "rel": (str,),
    "key": (str,),
    "outputs": (dict,),
    "error": (type(None),),
    "title": (str,),
    "event": (str, type(None)),
    "date": (str, type(None)),
    "speakers": (list,),
    "tags": (list,),
    "kind": (str,),
    "sections": (int,),
    "points": (int,),
    "entries": (int,),
    "lint": (dict,),
    "outline": (dict,),  # {"file", "bytes", "sha256"}: the note's outline file in the site
    "inputs": (dict,),  # {path in the note's folder: {"sha256", "bytes", "mtime_ns"}}: the pictures its renders read
}

_SHA256 = frozenset("0123456789abcdef")


def _entry_problem(rel: Any, entry: Any) -> str | None:
    """What is wrong with one manifest entry (None: it is as ``build_note`` writes it). Every field
    the index reads is checked, so a tampered or truncated manifest can never reach the index."""
    if not isinstance(entry, dict):
        return f"the entry for {rel!r} is not an object"
    for name, kinds in _ENTRY_FIELDS.items():
        if name not in entry:
            return f"the entry for {rel!r} has no '{name}'"
        value = entry[name]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            return f"the entry for {rel!r} has a '{name}' of the wrong type"
    if entry["rel"] != rel:
        return f"the entry for {rel!r} names another note"
    outputs = entry["outputs"]
    if not outputs or not all(isinstance(k, str) and isinstance(v, str) and _site_relative(v) for k, v in outputs.items()):
        return f"the entry for {rel!r} has outputs that are not file names in the site"
    if not all(isinstance(item, str) for item in (*entry["speakers"], *entry["tags"])):
        return f"the entry for {rel!r} has speakers or tags that are not text"
    if set(entry["lint"]) != {"error", "warning", "info"} or not all(type(n) is int for n in entry["lint"].values()):
        return f"the entry for {rel!r} has lint counts of the wrong shape"
    outline = entry["outline"]
    if not (
        set(outline) == {"file", "bytes", "sha256"}
        and isinstance(outline["file"], str)
        and _site_relative(outline["file"])
        and type(outline["bytes"]) is int
        and outline["bytes"] >= 0
        and isinstance(outline["sha256"], str)
        and len(outline["sha256"]) == 64
        and set(outline["sha256"]) <= _SHA256
    ):
        return f"the entry for {rel!r} has an outline that is not a file of the site with its size and hash"
    if not all(_picture_hash(name, digest) for name, digest in entry["inputs"].items()):
        return f"the entry for {rel!r} has inputs that are not pictures in the note's folder with their hashes"
    talk = entry.get("talk")
    if talk is not None and not (
        isinstance(talk, dict) and type(talk.get("minutes")) is int and "slot" in talk and isinstance(talk["slot"], (str, type(None)))
    ):
        return f"the entry for {rel!r} has a talk of the wrong shape"
    return None


def _picture_hash(name: Any, recorded: Any) -> bool:
    """A picture's path in a note's folder, its hash, size and time, as ``build_note`` records inputs."""
    return (
        isinstance(name, str)
        and _site_relative(name)
        and isinstance(recorded, dict)
        and set(recorded) == {"sha256", "bytes", "mtime_ns"}
        and isinstance(recorded["sha256"], str)
        and len(recorded["sha256"]) == 64
        and set(recorded["sha256"]) <= _SHA256
        and type(recorded["bytes"]) is int
        and type(recorded["mtime_ns"]) is int
    )


def _site_relative(path: str) -> bool:
    """A path of a file inside the site, as ``build_note`` records outputs: relative, no ``..``."""
    return bool(path) and not path.startswith(("/", "\\")) and ".." not in path.replace("\\", "/").split("/")


def _removable(rel: Any, entry: Any) -> bool:
    """An entry whose files a build may remove (each path checked again by ``inside``): its note,
    its key and its outputs. The index takes only entries with no ``_entry_problem``."""
    if not isinstance(entry, dict) or entry.get("rel") != rel or not isinstance(entry.get("key"), str):
        return False
    outputs = entry.get("outputs")
    return isinstance(outputs, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in outputs.items())


def _manifest_problem(data: Any) -> str | None:
    """What is wrong with a whole manifest (None: every part of it is as ``write_manifest`` writes it)."""
    if not isinstance(data, dict) or not isinstance(data.get("notes"), dict):
        return "not a manifest (no 'notes' object)"
    failed, formats = data.get("failed", {}), data.get("formats", [])
    if not isinstance(failed, dict) or not all(isinstance(rel, str) and isinstance(why, str) for rel, why in failed.items()):
        return "its 'failed' is not an object of texts"
    if not isinstance(formats, list) or not all(isinstance(name, str) for name in formats):
        return "its 'formats' is not a list of names"
    return next((problem for rel, entry in data["notes"].items() if (problem := _entry_problem(rel, entry))), None)


def site_pages(out_dir: str) -> dict[str, str]:
    """Each file a site's manifest names as a note's output (``day1/talk.html``), and that note."""
    notes = _read_manifest(Path(out_dir) / MANIFEST)["notes"]
    return {name: rel for rel, entry in notes.items() for name in entry.get("outputs", {}).values() if isinstance(name, str)}


def _read_manifest(path: Path) -> dict[str, Any]:
    """The manifest's notes; a missing, malformed or tampered manifest only means more to rebuild:
    an entry no build could have written is dropped, and one the index cannot show
    (``_entry_problem``) is never kept: its note is rendered again. ``site`` is the index files'
    record and ``body`` everything else, as read (``write_manifest`` compares it with the new one)."""
    from confnotes.escape import read_json

    try:
        data = read_json(_manifest_text(path))
    except (NotesError, ValueError):
        return {"notes": {}}
    if not isinstance(data, dict) or not isinstance(data.get("notes"), dict):
        return {"notes": {}}
    return {
        "notes": {rel: entry for rel, entry in data["notes"].items() if _removable(rel, entry)},
        "site": data.get("site"),
        "body": {name: value for name, value in data.items() if name != "site"},
    }


def _read_shard(path: Path) -> dict[str, Any]:
    """A shard manifest to merge, whole or refused: a truncated or tampered shard would silently drop
    that shard's notes from the site, so anything but a complete manifest is one error line."""
    from confnotes.escape import read_json

    try:
        data = read_json(_manifest_text(path))
    except NotesError as exc:
        raise NotesError(f"cannot read this shard manifest: {exc.message}; nothing was merged", path=str(path)) from None
    except ValueError:  # not UTF-8, not JSON, NaN in it, or nested past reading
        data = None
        problem: str | None = "not JSON (truncated?)"
    else:
        problem = _manifest_problem(data)
    if problem is not None:
        raise NotesError(f"cannot merge this shard manifest: {problem}; build that shard again (nothing was merged)", path=str(path))
    assert isinstance(data, dict)
    return data


#: A manifest is read up to this size (a site of thousands of notes, outlines included, is far less).
MAX_MANIFEST_BYTES = 256 * 1024 * 1024


def _manifest_text(path: Path) -> str:
    """The text of a manifest in the site folder, read without following a link (``read_in``): a
    manifest planted as a link to a secret, a pipe or a device is never read. Raises ``NotesError``
    saying why it was not read, ``ValueError`` when it is not UTF-8."""
    from confnotes.output import read_in

    data = read_in(path.parent, path.name, MAX_MANIFEST_BYTES + 1)
    if data is None:  # missing, a link, a folder, a pipe or a device
        why = "is a symbolic link" if path.is_symlink() else "is not a regular file" if path.exists() else "no such file"
        raise NotesError(f"{why}; not read", path=str(path))
    if len(data) > MAX_MANIFEST_BYTES:
        raise NotesError(f"larger than {MAX_MANIFEST_BYTES >> 20} MB; not read", path=str(path))
    return data.decode("utf-8")


def inside(out_dir: Path, rel: str) -> Path | None:
    """``out_dir/rel`` if it resolves inside ``out_dir`` (never a path a manifest smuggles out)."""
    root = out_dir.resolve()
    try:
        target = (out_dir / rel).resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    return target if root in target.parents else None


def _write_if_changed(path: Path, data: Data) -> bool:
    """Write a file of the site's own (manifest, index) unless it holds ``data``; never through a link."""
    from confnotes.output import write_in

    return write_in(path.parent, path.name, data, if_changed=True)


def _remove_outputs(out_dir: Path, entry: dict[str, Any], keep: Iterable[str] = ()) -> None:
    """Remove a note's files (those not in ``keep``), and folders they leave empty — inside the site
    only: a path that leaves it, or passes through a link, is left alone (``remove_in``)."""
    from confnotes.output import remove_in

    kept = set(keep)
    for rel in _files(entry):
        if rel not in kept and inside(out_dir, rel) is not None:
            remove_in(out_dir, rel)


def _resolved(note: str) -> Path:
    """Where a note really is; a symlink loop or a dangling link is that note's error."""
    try:
        return Path(note).resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        raise NotesError("cannot follow this link (a loop, or it points nowhere)", path=note) from exc


@dataclass
class BuildPlan:
    """What a build will do, decided before any note is rendered."""

    out_dir: Path
    manifest_path: Path
    old: dict[str, Any]  # the previous manifest's entries, by the note's place in the site
    tasks: list[NoteTask] = field(default_factory=list)
    kept: dict[str, Any] = field(default_factory=dict)  # unchanged notes: their entries, as they were
    refused: list[tuple[str, str]] = field(default_factory=list)  # notes that cannot be built, and why
    removed: list[str] = field(default_factory=list)  # notes gone from the folder (their files go too)
    previous: dict[str, Any] | None = None  # the previous manifest but its index record, as read
    site: Any = None  # the previous manifest's record of the index files (``write_index``)


def build_site(request: BuildRequest, progress: Callable[[str, int, int], None] | None = None) -> BuildReport:
    """Build (or update) the site for ``request``; returns what was rendered, skipped, removed and failed."""
    started = time.perf_counter()
    plan = plan_build(request)
    for rel in plan.removed:
        _remove_outputs(plan.out_dir, plan.old[rel])
    outcomes = run_tasks(plan.tasks, request.jobs, progress, request.on_written)
    outcomes += [NoteOutcome(rel, error=reason) for rel, reason in plan.refused]
    report = write_manifest(plan, outcomes, request)
    report.seconds = time.perf_counter() - started
    return report


def _site_folder(out_dir: Path) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise NotesError("is a file; the site needs a folder (choose another -o)", path=str(out_dir), kind=ErrorKind.USAGE)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise NotesError(f"cannot create the site folder: {exc.strerror}", path=str(out_dir), kind=ErrorKind.USAGE) from None


def _listed_notes(request: BuildRequest, out_dir: Path) -> list[str]:
    """The notes of the folder (excludes and the site itself left out), this shard's share of them."""
    from confnotes.source import discover

    out_resolved = out_dir.resolve()
    notes = [n for n in discover([request.source_dir], request.exclude) if out_resolved not in Path(os.path.abspath(n)).parents]
    if request.shard is not None:
        k, n = request.shard
        notes = [note for index, note in enumerate(notes) if index % n == k - 1]
    return notes


def plan_build(request: BuildRequest) -> BuildPlan:
    """Which notes to render (new or changed), which to keep, refuse or remove."""
    out_dir = Path(request.out_dir)
    _site_folder(out_dir)
    notes = _listed_notes(request, out_dir)
    shard = request.shard
    manifest_path = out_dir / (MANIFEST if shard is None else SHARD_MANIFEST.format(k=shard[0], n=shard[1]))
    last = _read_manifest(manifest_path)
    plan = BuildPlan(out_dir, manifest_path, last["notes"], previous=last.get("body"), site=last.get("site"))
    source_root = Path(request.source_dir).resolve()
    shared_keys: dict[str | None, str] = {}
    from confnotes.config import FolderConfigs

    configs = FolderConfigs(request.config_file)
    rels = {note: Path(os.path.relpath(os.path.abspath(note), os.path.abspath(request.source_dir))).as_posix() for note in notes}
    for note, rel in rels.items():
        try:  # anything wrong with one note (a link out, a loop, its config) fails that note only
            key = _note_key(note, source_root, request, shared_keys, configs)
        except NotesError as exc:
            plan.refused.append((rel, str(exc) if exc.path == note else f"{note}: {exc}"))
            continue
        except OSError as exc:
            plan.refused.append((rel, f"{note}: {exc.strerror or exc}"))
            continue
        previous = plan.old.get(rel)
        if not request.force and previous and _unchanged(previous, key, out_dir, request.formats, note):
            plan.kept[rel] = previous
            continue
        plan.tasks.append(
            NoteTask(
                note,
                rel,
                str(out_dir),
                request.formats,
                key,
                request.theme,
                request.trust_templates,
                request.allow_remote,
                request.first,
                request.config_file,
            )
        )
    plan.removed = [rel for rel in plan.old if rel not in set(rels.values())]
    return plan


def _note_key(note: str, source_root: Path, request: BuildRequest, shared_keys: dict[str | None, str], configs: FolderConfigs) -> str:
    """The manifest key of a note: its bytes, its config's, and (shared by the notes of one
    templates folder) the version, formats, theme and templates. ``configs`` looks each folder's
    config, and its bytes, up once a build."""
    target = _resolved(note)
    if source_root not in target.parents:
        raise NotesError("links to a file outside the notes folder; not built", path=note)
    config = configs(note)
    templates_dir = config.templates
    if templates_dir not in shared_keys:
        shared_keys[templates_dir] = json.dumps(
            [__version__, list(request.formats), request.theme, request.trust_templates, _templates_hash(templates_dir)]
            + (["allow-remote"] if request.allow_remote else [])  # decks that load remote things are other files
        )
    return note_key(target.read_bytes(), configs.bytes_of(config), shared_keys[templates_dir])


def _unchanged(previous: dict[str, Any], key: str, out_dir: Path, formats: tuple[str, ...], note: str) -> bool:
    """The note, its config, templates and pictures are as built, it built cleanly, and its files are all there."""
    outputs = previous.get("outputs", {})
    return (
        _entry_problem(previous["rel"], previous) is None
        and previous.get("key") == key
        and not previous.get("error")
        and all((out_dir / p).exists() for p in outputs.values())
        and set(outputs) == set(formats)
        and _outline_intact(out_dir, previous["rel"], previous["outline"]) is None
        and _inputs_unchanged(note, previous["inputs"])
    )


def run_tasks(
    tasks: list[NoteTask],
    jobs: int = 0,
    progress: Callable[[str, int, int], None] | None = None,
    written: Callable[[str], None] | None = None,
) -> list[NoteOutcome]:
    """Render the notes, in worker processes when there is more than one to do and more than one core
    (``written`` hears of the outputs of notes rendered in this process only)."""
    workers = jobs or os.cpu_count() or 1
    if progress:
        progress("", 0, len(tasks))  # the total, before any note is rendered
    outcomes: list[NoteOutcome] = []
    if workers == 1 or len(tasks) <= 1:
        finished: Iterable[NoteOutcome] = (build_note(task, written) for task in tasks)
    else:
        finished = _as_they_finish(min(workers, len(tasks)), tasks)
    for outcome in finished:
        outcomes.append(outcome)
        if progress:
            progress(outcome.rel, len(outcomes), len(tasks))
    return outcomes


#: A pool of workers renders this many notes for each of its workers, then fresh workers take
#: over: the caches of Pango, HarfBuzz and fontconfig below WeasyPrint grow with every PDF a process
#: lays out (about 0.2 MB a note, none of it Python's), so each worker of a 1,000-note build grew by
#: 100 MB.
NOTES_PER_WORKER = 100


def _as_they_finish(workers: int, tasks: list[NoteTask]) -> Iterator[NoteOutcome]:
    """Each note's outcome as it is done, from pools of ``workers`` processes forked from this one,
    a pool for every ``NOTES_PER_WORKER`` notes a worker (a fresh pool costs a few tenths of a
    second of imports against minutes of rendering)."""
    batch = workers * NOTES_PER_WORKER
    for start in range(0, len(tasks), batch):
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for future in as_completed([pool.submit(build_note, task) for task in tasks[start : start + batch]]):
                yield future.result()


def write_manifest(plan: BuildPlan, outcomes: list[NoteOutcome], request: BuildRequest) -> BuildReport:
    """Record what was built (failed notes' stale files removed), write the manifest and the index."""
    report = BuildReport(skipped=sorted(plan.kept), removed=sorted(plan.removed))
    entries = dict(plan.kept)
    old, out_dir = plan.old, plan.out_dir
    for outcome in outcomes:
        rel = outcome.rel
        report.warnings += [(rel, message) for message in outcome.warnings]
        if outcome.error:
            report.failed.append((rel, outcome.error))
            if rel in old and request.keep_failed and _entry_problem(rel, old[rel]) is None:
                entries[rel] = old[rel]
            elif rel in old:  # its old files would be stale and unlisted
                _remove_outputs(out_dir, old[rel])
            if "outline" in outcome.entry:  # the failed build's own outline file, unless it is the kept one
                _remove_outputs(out_dir, {"outline": outcome.entry["outline"]}, keep=_files(entries.get(rel, {})))
            continue
        if rel in old:  # outputs of formats no longer asked for
            _remove_outputs(out_dir, old[rel], keep=_files(outcome.entry))
        entries[rel] = outcome.entry
        report.rendered.append(rel)
    manifest: dict[str, Any] = {
        "version": __version__,
        "formats": list(request.formats),
        "shard": request.shard,
        "notes": {rel: entries[rel] for rel in sorted(entries)},
        "failed": dict(sorted(report.failed)),
    }
    if request.shard is None:  # the index before the manifest that records it: a crash between means a new index
        if manifest == plan.previous and _site_intact(out_dir, plan.site):
            manifest["site"] = plan.site  # nothing the index shows has changed, and its files are as written
        else:
            manifest["site"] = write_index(out_dir, manifest["notes"], request.formats, manifest["failed"])
    _write_if_changed(plan.manifest_path, _json(manifest))
    report.rendered.sort()
    return report


def merge_shards(out_dir: str) -> int:
    """Combine every shard manifest in ``out_dir`` into the site's manifest and index; returns the note count."""
    folder = Path(out_dir)
    shards = sorted(folder.glob(".confnotes-manifest.shard-*-of-*.json"))
    if not shards:
        raise NotesError("no shard manifests to merge (build with --shard K/N first)", path=str(folder), kind=ErrorKind.USAGE)
    notes: dict[str, Any] = {}
    failed: dict[str, str] = {}
    formats: list[str] = []
    for data in [_read_shard(shard) for shard in shards]:  # every shard read before anything is written
        notes.update(data["notes"])
        failed.update(data.get("failed", {}))
        formats = data.get("formats", []) or formats
    for rel, entry in sorted(notes.items()):  # and every note's outline file checked
        try:
            _check_outline(folder, rel, entry["outline"])
        except NotesError as exc:
            raise NotesError(f"{exc.message}; build that note's shard again (nothing was merged)", path=exc.path) from None
    manifest: dict[str, Any] = {
        "version": __version__,
        "formats": formats,
        "shard": None,
        "notes": {rel: notes[rel] for rel in sorted(notes)},
        "failed": dict(sorted(failed.items())),
    }
    shown = tuple(name for name in formats if name in _format_names())
    manifest["site"] = write_index(folder, manifest["notes"], shown, manifest["failed"])
    _write_if_changed(folder / MANIFEST, _json(manifest))
    for shard in shards:  # merged: the site is now what a plain build writes, one manifest
        shard.unlink()
    return len(notes)


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
