"""A folder of notes to a site: every note in every format, an index, incrementally and in parallel.

The manifest (``.confnotes-manifest.json`` in the output folder) records, for each note,
a hash of the note, its config, the templates, the formats and the confnotes version,
with the files it produced. An unchanged note is not rendered again; a removed note's
files are deleted. ``--shard K/N`` builds every N-th note and writes a shard manifest;
``--merge`` assembles the index from the shards' manifests.

The package, in the order a build runs: ``plan`` (which notes to build, by their keys),
``note`` (one note rendered, what a worker does), ``index`` (index.html and outline.json)
and ``manifest`` (what was built, read back and checked); running the tasks and writing the
manifest are here.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from confnotes._version import __version__
from confnotes.build.index import OUTLINES, _check_outline, _format_names, _site_intact, site_href, write_index
from confnotes.build.manifest import (
    MANIFEST,
    SHARD_MANIFEST,
    _entry_problem,
    _files,
    _json,
    _read_manifest,
    _read_shard,
    _remove_outputs,
    _write_if_changed,
    inside,
    site_pages,
)
from confnotes.build.note import NoteOutcome, NoteTask, build_note
from confnotes.build.plan import DEFAULT_FORMATS, BuildPlan, BuildRequest, parse_shard, plan_build
from confnotes.build.site import SiteInputs
from confnotes.errors import ErrorKind, NotesError
from confnotes.markup.diagrams import share_build_budget, shared_build_budget

__all__ = [
    "DEFAULT_FORMATS",
    "MANIFEST",
    "OUTLINES",
    "SHARD_MANIFEST",
    "BuildReport",
    "BuildRequest",
    "build_site",
    "inside",
    "merge_shards",
    "parse_shard",
    "site_href",
    "site_pages",
]


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


def build_site(request: BuildRequest, progress: Callable[[str, int, int], None] | None = None) -> BuildReport:
    """Build (or update) the site for ``request``; returns what was rendered, skipped, removed and failed."""
    started = time.perf_counter()
    plan = plan_build(request)
    for rel in plan.removed:
        _remove_outputs(plan.out_dir, plan.old[rel])
    from confnotes.markup.diagrams import build_budget

    with build_budget():
        outcomes = run_tasks(plan.tasks, request.jobs, progress, request.on_written)
    outcomes += [NoteOutcome(rel, error=reason) for rel, reason in plan.refused]
    report = write_manifest(plan, outcomes, request)
    report.seconds = time.perf_counter() - started
    return report


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
        with ProcessPoolExecutor(max_workers=workers, initializer=share_build_budget, initargs=(shared_build_budget(),)) as pool:
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
    manifest["site_inputs"] = request.site.record()
    if request.site.schedule is not None:
        from confnotes.build.site import schedule_warnings

        report.warnings += [(request.site.schedule_path, line) for line in request.site.schedule.warnings]
        report.warnings += schedule_warnings(list(entries.values()), request.site.schedule)
    from confnotes.build.attend import calendar_warning

    absent = calendar_warning(request.site.schedule is not None or any(entry.get("schedule") for entry in entries.values()))
    if absent:
        report.warnings.append((request.site.schedule_path or request.source_dir, absent))
    if request.shard is None:  # the index before the manifest that records it: a crash between means a new index
        if manifest == plan.previous and _site_intact(out_dir, plan.site):
            manifest["site"] = plan.site  # nothing the index shows has changed, and its files are as written
        else:
            manifest["site"] = write_index(out_dir, manifest["notes"], request.formats, manifest["failed"], request.site, plan.site)
    _write_if_changed(plan.manifest_path, _json(manifest))
    report.rendered.sort()
    return report


def _every_shard(folder: Path, shards: list[Path]) -> None:
    """Refuses a merge that lacks a shard, or mixes shards of different counts: a CI job that
    failed to upload its part would otherwise leave its notes out of the site without a word."""
    import re

    found = [re.fullmatch(r"\.confnotes-manifest\.shard-(\d+)-of-(\d+)\.json", shard.name) for shard in shards]
    counts = {int(match.group(2)) for match in found if match}
    if len(counts) != 1:
        raise NotesError("shard manifests of different builds (--shard K/N with different N); nothing was merged", path=str(folder))
    (total,) = counts
    missing = sorted(set(range(1, total + 1)) - {int(match.group(1)) for match in found if match})
    if missing:
        which = ", ".join(f"{k}/{total}" for k in missing)
        raise NotesError(f"shard {which} is missing (its manifest is not in the folder); nothing was merged", path=str(folder))


def merge_shards(out_dir: str, site: SiteInputs | None = None) -> int:
    """Combine every shard manifest in ``out_dir`` into the site's manifest and index (its pages made
    from ``site``, as a plain build makes them); returns the note count."""
    folder = Path(out_dir)
    shards = sorted(folder.glob(".confnotes-manifest.shard-*-of-*.json"))
    if not shards:
        raise NotesError("no shard manifests to merge (build with --shard K/N first)", path=str(folder), kind=ErrorKind.USAGE)
    _every_shard(folder, shards)
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
            if "search" in entry:
                _check_outline(folder, rel, entry["search"], "search words")
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
    site = site or SiteInputs()
    manifest["site_inputs"] = site.record()
    old_site = _read_manifest(folder / MANIFEST).get("site")
    manifest["site"] = write_index(folder, manifest["notes"], shown, manifest["failed"], site, old_site)
    _write_if_changed(folder / MANIFEST, _json(manifest))
    for shard in shards:  # merged: the site is now what a plain build writes, one manifest
        shard.unlink()
    return len(notes)
