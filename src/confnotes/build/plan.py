"""What a build will do: the notes listed, each note's key, and which are unchanged since the manifest."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from confnotes._version import __version__
from confnotes.errors import ErrorKind, NotesError

if TYPE_CHECKING:
    from confnotes.config import FolderConfigs
    from confnotes.config.ignore import Exclude
from confnotes.build.index import _outline_intact
from confnotes.build.manifest import MANIFEST, SHARD_MANIFEST, _entry_problem, _inputs_unchanged, _read_manifest
from confnotes.build.note import NoteTask
from confnotes.build.site import SiteInputs

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
    #: only these notes of the folder (``serve talk.md``: one note's page and deck); empty: every note
    only: tuple[str, ...] = ()
    #: the schedule and base URL the site's pages are made with (``build.site.site_inputs``)
    site: SiteInputs = field(default_factory=SiteInputs)
    #: notes as an editor holds them, unsaved edits included, by resolved path: built from this text,
    #: not the file (the editor's live preview, ``PreviewServer.hold``)
    held: Mapping[str, str] = field(default_factory=dict, compare=False)
    #: keep each note's reading for its next build (``parse.incremental.track``): the live preview's
    #: builds after its first, which rebuild only the notes being edited
    reuse: bool = field(default=False, compare=False)


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


def _site_folder(out_dir: Path, source_dir: str) -> None:
    source, site = Path(source_dir).resolve(), out_dir.resolve()
    if site == source or site in source.parents:
        # every note would lie inside the site (which a build leaves out), and its index among them
        raise NotesError(
            "is the notes folder or holds it; the site needs a folder of its own (e.g. -o site)",
            path=str(out_dir),
            kind=ErrorKind.USAGE,
        )
    if out_dir.exists() and not out_dir.is_dir():
        raise NotesError("is a file; the site needs a folder (choose another -o)", path=str(out_dir), kind=ErrorKind.USAGE)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise NotesError(f"cannot create the site folder: {exc.strerror}", path=str(out_dir), kind=ErrorKind.USAGE) from None


def _listed_notes(request: BuildRequest, out_dir: Path) -> list[str]:
    """The notes of the folder (excludes and the site itself left out), this shard's share of them."""
    from confnotes.edges.source import discover

    out_resolved = out_dir.resolve()
    notes = [n for n in discover([request.source_dir], request.exclude) if out_resolved not in Path(os.path.abspath(n)).parents]
    if request.only:
        wanted = {os.path.abspath(note) for note in request.only}
        notes = [note for note in notes if os.path.abspath(note) in wanted]
    if request.shard is not None:
        k, n = request.shard
        notes = [note for index, note in enumerate(notes) if index % n == k - 1]
    return notes


def plan_build(request: BuildRequest) -> BuildPlan:
    """Which notes to render (new or changed), which to keep, refuse or remove."""
    out_dir = Path(request.out_dir)
    _site_folder(out_dir, request.source_dir)
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
            key, held = _note_key(note, source_root, request, shared_keys, configs)
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
                held,
                request.reuse,
            )
        )
    plan.removed = [rel for rel in plan.old if rel not in set(rels.values())]
    return plan


def _note_key(
    note: str, source_root: Path, request: BuildRequest, shared_keys: dict[str | None, str], configs: FolderConfigs
) -> tuple[str, str | None]:
    """The manifest key of a note: its bytes, its config's, and (shared by the notes of one
    templates folder) the version, formats, theme and templates. ``configs`` looks each folder's
    config, and its bytes, up once a build. With it, the note's text as an editor holds it
    (``BuildRequest.held``), None to build the file."""
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
    held = request.held.get(str(target))
    data = held.encode("utf-8") if held is not None else target.read_bytes()
    return note_key(data, configs.bytes_of(config), shared_keys[templates_dir]), held


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
        and "search" in previous  # built before the site had search: built again, to be found
        and _outline_intact(out_dir, previous["rel"], previous["search"], "search words") is None
        and _inputs_unchanged(note, previous["inputs"])
    )
