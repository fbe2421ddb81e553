"""The site's manifest: written as sorted JSON, read back within bounds, each entry checked before it is trusted."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict
from urllib.parse import quote

from confnotes.errors import NotesError

if TYPE_CHECKING:
    from confnotes.edges.output import Data


MANIFEST = ".confnotes-manifest.json"


SHARD_MANIFEST = ".confnotes-manifest.shard-{k}-of-{n}.json"


def _json(value: Any, default: Any = None) -> str:
    """The site's JSON files (manifest, outline.json): keys sorted, so unchanged builds write the same
    bytes, and compact, so Python's C encoder writes them (an indented dump runs its pure-Python
    encoder, which took longer than rendering a folder's pages)."""
    from confnotes.markup.escape import strict_json

    return strict_json(value, sort_keys=True, compact=True, default=default) + "\n"


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _inputs_unchanged(note: str, inputs: dict[str, dict[str, Any]]) -> bool:
    """Whether every picture a note's last build read is still there, as it was (each found as a
    render finds it, inside the note's folder; read again only when its size or time changed)."""
    from confnotes.edges.images import local_image
    from confnotes.edges.source import note_folder

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
        """The size and hash of what went through ``pieces``."""
        return {"bytes": self.size, "sha256": self.digest.hexdigest()}

    def file(self, name: str) -> FileRecord:
        """The file ``name`` of the site, written through ``pieces``, with its size and hash."""
        return {"file": name, "bytes": self.size, "sha256": self.digest.hexdigest()}


def _recorded_pieces(out_dir: Path, name: str, recorded: dict[str, Any], what: str) -> Iterator[bytes]:
    """A file of the site, piece by piece, exactly as a build recorded it (size and hash), read
    without following a link; raises ``NotesError`` when it is missing or not what was written."""
    from confnotes.edges.output import open_in

    where, found = str(out_dir / name), _Hashed()
    with open_in(out_dir, name) as handle:
        if handle is None:
            raise NotesError(f"{what} is missing, or is not a regular file", path=where)
        while found.size <= recorded["bytes"] and (piece := handle.read(1 << 20)):
            yield from found.pieces((piece,))
    if found.record() != {"bytes": recorded["bytes"], "sha256": recorded["sha256"]}:
        raise NotesError(f"is not {what} that its build wrote (changed since)", path=where)


def _files(entry: ManifestEntry) -> list[str]:
    """The files in the site a manifest entry names: its outputs, its outline and its search words."""
    files = [rel for rel in entry.get("outputs", {}).values() if isinstance(rel, str)]
    for name in ("outline", "search"):
        record = entry.get(name)
        if isinstance(record, dict) and isinstance(record.get("file"), str):
            files.append(record["file"])
    return files


class FileRecord(TypedDict):
    """A file of the site with its size and hash (a note's outline and search words)."""

    file: str
    bytes: int
    sha256: str


class ScheduleFacts(TypedDict):
    """A note's place in the conference's schedule, from its front matter."""

    session: str | None
    room: str
    start: str
    minutes: int | None
    track: str
    language: str
    links: dict[str, str]  # recording, slides, feedback: http(s) addresses


class TalkFacts(TypedDict):
    minutes: int
    slot: str | None


class ManifestEntry(TypedDict, total=False):
    """One note of the site as the manifest records it (``build_note`` fills it in steps; a read
    manifest's entries are checked against ``_ENTRY_FIELDS`` before anything reads them)."""

    rel: str
    key: str
    outputs: dict[str, str]
    error: str | None
    title: str
    event: str | None
    date: str | None
    speakers: list[str]
    tags: list[str]
    kind: str
    sections: int
    points: int
    entries: int
    lint: dict[str, int]
    outline: FileRecord
    search: FileRecord
    inputs: dict[str, dict[str, Any]]
    schedule: ScheduleFacts
    talk: TalkFacts


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
    if not _file_record(entry["outline"]):
        return f"the entry for {rel!r} has an outline that is not a file of the site with its size and hash"
    if not all(_picture_hash(name, digest) for name, digest in entry["inputs"].items()):
        return f"the entry for {rel!r} has inputs that are not pictures in the note's folder with their hashes"
    talk = entry.get("talk")
    if talk is not None and not (
        isinstance(talk, dict) and type(talk.get("minutes")) is int and "slot" in talk and isinstance(talk["slot"], (str, type(None)))
    ):
        return f"the entry for {rel!r} has a talk of the wrong shape"
    return _site_facts_problem(rel, entry)  # type: ignore[arg-type]  # checked field by field above


def _file_record(record: Any) -> bool:
    """A file of the site with its size and hash, as a note's outline and search words are recorded."""
    return bool(
        isinstance(record, dict)
        and set(record) == {"file", "bytes", "sha256"}
        and isinstance(record["file"], str)
        and _site_relative(record["file"])
        and type(record["bytes"]) is int
        and record["bytes"] >= 0
        and isinstance(record["sha256"], str)
        and len(record["sha256"]) == 64
        and set(record["sha256"]) <= _SHA256
    )


def _site_facts_problem(rel: Any, entry: ManifestEntry) -> str | None:
    """What is wrong with the facts the site's search and timetable read (both optional)."""
    if "search" in entry and not _file_record(entry["search"]):
        return f"the entry for {rel!r} has search words that are not a file of the site with its size and hash"
    schedule = entry.get("schedule")
    if schedule is None:
        return None
    shapes = {
        "session": (str, type(None)),
        "room": (str,),
        "start": (str,),
        "minutes": (int, type(None)),
        "track": (str,),
        "language": (str,),
        "links": (dict,),
    }
    if not (isinstance(schedule, dict) and set(schedule) == set(shapes)):
        return f"the entry for {rel!r} has a schedule of the wrong shape"
    facts: dict[str, Any] = dict(schedule)  # read as data: a manifest may have been tampered with
    if not all(isinstance(facts[k], kinds) and not isinstance(facts[k], bool) for k, kinds in shapes.items()):
        return f"the entry for {rel!r} has a schedule of the wrong shape"
    from confnotes.schedule.model import safe_url

    if not all(isinstance(kind, str) and isinstance(url, str) and safe_url(url) == url for kind, url in facts["links"].items()):
        return f"the entry for {rel!r} has schedule links that are not web addresses"
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
    from confnotes.markup.escape import read_json

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
    from confnotes.markup.escape import read_json

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
    from confnotes.edges.output import read_in

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
    from confnotes.edges.output import write_in

    return write_in(path.parent, path.name, data, if_changed=True)


def _remove_outputs(out_dir: Path, entry: ManifestEntry, keep: Iterable[str] = ()) -> None:
    """Remove a note's files (those not in ``keep``), and folders they leave empty — inside the site
    only: a path that leaves it, or passes through a link, is left alone (``remove_in``)."""
    from confnotes.edges.output import remove_in

    kept = set(keep)
    for rel in _files(entry):
        if rel not in kept and inside(out_dir, rel) is not None:
            remove_in(out_dir, rel)
