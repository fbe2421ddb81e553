"""One note built: every format it needs, its lint findings and its index facts (what a worker process does)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from confnotes.errors import NotesError

if TYPE_CHECKING:
    from confnotes.lint.types import Finding
    from confnotes.model import Document
    from confnotes.render.options import RenderOptions
from confnotes.build.index import OUTLINES
from confnotes.build.manifest import FileRecord, ManifestEntry, ScheduleFacts, _file_hash, _Hashed


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
    text: str | None = None  # the note as an editor holds it, unsaved edits included (``BuildRequest.held``)
    reuse: bool = False  # keep its reading for its next build (``BuildRequest.reuse``)


@dataclass
class NoteOutcome:
    """What rendering one note gave: its manifest entry (JSON data, as the manifest stores it), or
    the error that stopped it, and the warnings its renders raised (each once)."""

    rel: str
    entry: ManifestEntry = field(default_factory=lambda: ManifestEntry())
    error: str | None = None
    warnings: list[str] = field(default_factory=list)


def build_note(task: NoteTask, written: Callable[[str], None] | None = None) -> NoteOutcome:
    """Render one note to every requested format; never raises (failures come back as data).
    ``written`` is told each output's name as soon as it is in the site."""
    from confnotes.edges.images import recorded
    from confnotes.markup.diagrams import note_budget

    outcome = NoteOutcome(task.rel, {"rel": task.rel, "key": task.key, "outputs": {}, "error": None})
    try:
        with recorded() as pictures, note_budget():  # the note's diagrams' time, in all its formats
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
    from confnotes.edges.source import decode, note_folder, read_source
    from confnotes.markup.escape import display_text
    from confnotes.render.formats import output_format, prepare_note
    from confnotes.render.options import RenderOverrides, resolve_render_options

    checker = Checker(LintRequest(config_file=task.config_file))
    config = checker.config_for(task.note)
    source = read_source(task.note) if task.text is None else decode(task.text.encode("utf-8"), task.note)
    if task.reuse:  # the next build of it reads again only what an edit changed, as the editor does
        from confnotes.parse import incremental

        incremental.track(source.path)
    ctx = checker.context(source, config)
    overrides = RenderOverrides(theme=task.theme, trust_templates=task.trust, allow_remote=task.remote)
    options = resolve_render_options(config, ctx.doc, overrides)
    options = replace(options, decks=ctx.decks)  # the note's deck, built once for its lint run, its formats and the index
    base_dir = note_folder(task.note) or Path.cwd()
    suffix = Path(task.rel).suffix
    stem = task.rel[: -len(suffix)] if suffix else task.rel
    # the note's page loads the site's search box and previous/next links (``build.site``)
    page = display_text(stem + output_format("html").suffix)  # a page attribute holds text, not a name's bytes
    options = replace(options, site_root="../" * task.rel.count("/") or "./", site_page=page)
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
    outcome.entry["search"] = _write_search(task, ctx.doc, options, base_dir)
    return later


def _inputs(note: str, pictures: set[Path]) -> dict[str, dict[str, Any]]:
    """The pictures a note's renders read, by their path in the note's folder, with the hash,
    size and modification time of each (a build renders the note again when one changes, as
    when the note does; one whose size and time are as recorded is not read again)."""
    from confnotes.edges.source import note_folder

    base = (note_folder(note) or Path.cwd()).resolve()
    inputs = {}
    for path in sorted(pictures):
        if base in path.parents:
            info = path.stat()
            inputs[path.relative_to(base).as_posix()] = {"sha256": _file_hash(path), "bytes": info.st_size, "mtime_ns": info.st_mtime_ns}
    return inputs


def _finish(
    task: NoteTask,
    outcome: NoteOutcome,
    name: str,
    finish: Callable[[], tuple[str | bytes, list[str]]],
    written: Callable[[str], None] | None = None,
) -> None:
    """One format finished and written into the site; its bytes are not held after."""
    from confnotes.edges.output import write_in

    data, warnings = finish()
    outcome.warnings += [message for message in warnings if message not in outcome.warnings]
    write_in(task.out_dir, name, data)  # no link followed: a link planted in the site is refused
    if written is not None:
        written(name)


def _index_facts(task: NoteTask, doc: Document, options: RenderOptions, findings: list[Finding]) -> ManifestEntry:
    """What the index and outline.json show of a note: its meta, counts, lint status and outline,
    and for a talk its estimate against its slot (the deck as rendered)."""
    from confnotes.edges.source import note_folder

    sections = doc.sections
    facts: ManifestEntry = {
        "title": doc.meta.plain_title,  # the index and search show a title's words, not its Markdown
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
    scheduled = _schedule_facts(doc)
    if scheduled:
        facts["schedule"] = scheduled
    if doc.is_talk:
        from confnotes.render.deck import talk_plan_for

        timing = talk_plan_for(doc, options, note_folder(task.note) or Path.cwd()).timing
        slot = timing.slot_minutes
        facts["talk"] = {"minutes": max(1, round(timing.total_minutes)), "slot": None if slot is None else f"{slot:g}"}
    return facts


def _schedule_facts(doc: Document) -> ScheduleFacts | None:
    """The note's place in the conference's schedule, from its front matter (``new --schedule``
    writes it): session id, room, start, minutes, track; None when it names no start or session."""
    extra = doc.meta.extra
    if not extra.get("start") and extra.get("session") is None:
        return None
    from confnotes.timing.front_matter import slot_minutes

    try:
        minutes = slot_minutes(doc)
    except NotesError:
        minutes = None
    start = extra.get("start")
    return {
        "session": None if extra.get("session") is None else str(extra["session"]),
        "room": str(extra.get("room") or ""),
        "start": start.isoformat() if start is not None and hasattr(start, "isoformat") else str(start or ""),
        "minutes": None if minutes is None else max(1, round(minutes)),
        "track": str(extra.get("track") or ""),
        "language": str(extra.get("language") or ""),
        "links": _session_links(extra.get("links")),
    }


def _session_links(value: Any) -> dict[str, str]:
    """The front matter's ``links`` (``new --schedule`` writes the session's recording, slides and
    feedback form): the web addresses among them, by kind."""
    from confnotes.schedule.model import safe_url

    pairs = value.items() if isinstance(value, dict) else ()
    return {str(kind): url for kind, address in pairs if isinstance(address, str) and (url := safe_url(address))}


def _write_search(task: NoteTask, doc: Document, options: RenderOptions, base_dir: Path) -> FileRecord:
    """The note's search documents (``build.search``) written to their own file in the site, as its
    outline is: the manifest names the file with its size and hash, and holds no words."""
    from confnotes.build.search import SEARCH_FILES, note_documents
    from confnotes.edges.output import write_in
    from confnotes.markup.escape import strict_json

    name = f"{SEARCH_FILES}/{task.rel}.{task.key[:16]}.json"
    data = strict_json(note_documents(doc, options, base_dir), compact=True).encode("utf-8")
    write_in(task.out_dir, name, data)
    return {"file": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _write_outline(task: NoteTask, doc: Document) -> FileRecord:
    """The note's entry of ``outline.json`` written to its own file in the site as it is made (a
    20 MB note's outline is 170 MB of JSON, and more as dictionaries); returns the file's name,
    size and hash for the manifest."""
    from confnotes.edges.output import write_in
    from confnotes.export import json_chunks

    name = f"{OUTLINES}/{task.rel}.{task.key[:16]}.json"  # a failed rebuild never overwrites the kept one's
    written = _Hashed()
    write_in(task.out_dir, name, written.pieces(chunk.encode("utf-8") for chunk in json_chunks(doc, compact=True, path=task.rel)))
    return written.file(name)
