"""Linting many notes: read, parse, lint (in parallel, with a cache), fix and write back safely.

Like ``build.py`` this is an edge of the program: it reads and writes files. The rules,
the engine and the formatter it calls are pure. Notes stream through one at a time;
only findings and each note's small project facts are kept.
"""

from __future__ import annotations

import gc
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from confnotes._version import __version__
from confnotes.config import Config, FolderConfigs, config_bytes
from confnotes.edges.source import Source, read_bytes, read_source
from confnotes.errors import NotesError
from confnotes.lint.engine import (
    LintSettings,
    build_settings,
    fix_until_stable,
    lint_context,
    lint_project,
    project_facts,
)
from confnotes.lint.types import Finding, Fix, LintContext

if TYPE_CHECKING:
    from confnotes.slides import Decks

CACHE_DIR = ".confnotes_cache"
CACHE_FILE = "lint-v1.json"
#: how the cache file opens: its version and this machine's seal of the entries that follow
_HEAD = re.compile(r'\A\{"version":"(?P<version>[^"\\]{1,40})","seal":"(?P<seal>[0-9a-f]{64})","entries":')


@dataclass
class LintRun:
    findings: list[Finding] = field(default_factory=list)
    errors: list[NotesError] = field(default_factory=list)
    fixed_files: list[str] = field(default_factory=list)
    fixes_applied: int = 0
    files: int = 0
    cached: int = 0


class LintRequest(NamedTuple):
    config_file: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    fail_on: str | None = None
    fix: bool = False
    jobs: int = 0
    cache_dir: str | None = None  # None: no cache
    profile: str | None = None  # None: the config's, else auto
    stdin_filename: str | None = None  # the path standard input ("-") stands for


@dataclass
class NoteResult:
    """One note's lint outcome: what the cache stores and what the run reports."""

    path: str
    digest: str = ""
    findings: list[Finding] = field(default_factory=list)
    facts: dict[str, list[Any]] = field(default_factory=dict)
    links: dict[str, bool] = field(default_factory=dict)
    error: NotesError | None = None
    fixed: bool = False
    fixes: int = 0


def encode_like(source: Source, text: str) -> bytes:
    """Text back to bytes with the note's own line endings and BOM. In a note that mixes endings,
    every line the change left alone keeps its own; new lines take the note's main style."""
    if source.endings is not None:
        text = _with_line_endings(source, text)
    elif source.newline != "\n":
        text = text.replace("\n", source.newline)
    data = text.encode("utf-8")
    return b"\xef\xbb\xbf" + data if source.had_bom else data


def _with_line_endings(source: Source, text: str) -> str:
    """Each line's own ending: lines kept or rewritten in place keep theirs; added lines take the main style."""
    from collections import Counter
    from difflib import SequenceMatcher

    assert source.endings is not None
    old, new = source.text.split("\n"), text.split("\n")
    main = Counter(source.endings).most_common(1)[0][0]
    endings = [main] * (len(new) - 1)
    for tag, a1, a2, b1, b2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal" or (tag == "replace" and a2 - a1 == b2 - b1):
            for offset in range(b2 - b1):
                if b1 + offset < len(endings) and a1 + offset < len(source.endings):
                    endings[b1 + offset] = source.endings[a1 + offset]
    return "".join(line + ending for line, ending in zip(new, [*endings, ""], strict=True))


def lint_environment(
    text: str, path: str, config: Config, links: dict[str, bool] | None = None, fix: bool = False, decks: Decks | None = None
) -> LintContext:
    """The one way a note's lint context is made (lint, --fix's re-lints, build, the editor): its
    outline as ``config`` reads it, relative links checked from the note's real folder (symlinks
    followed, as renderers resolve them; results recorded in ``links`` for the cache), the config's
    slide settings (the context adds the front matter's) and, from a build, the note's shared decks."""
    from confnotes.load import parse_options, read_text

    options = parse_options(config)
    doc = read_text(text, path, config)
    recorded = links if links is not None else {}
    return LintContext(doc, text, links=recorded, configured_slides=config.slides, parse=options, fix=fix, shared_decks=decks)


class Checker:
    """Caches configs and settings per folder so a run over many notes parses each config once."""

    def __init__(self, request: LintRequest) -> None:
        self.request = request
        self._settings: dict[str | None, LintSettings] = {}
        self._configs = FolderConfigs(request.config_file)

    def config_for(self, note: str) -> Config:
        return self._configs(note)  # --config, else one lookup per folder in a run

    def settings_for(self, config: Config) -> LintSettings:
        if config.path not in self._settings:
            request = self.request
            self._settings[config.path] = build_settings(
                config.lint,
                config.path,
                select=request.select,
                ignore=request.ignore,
                fail_on=request.fail_on,
                profile_override=request.profile,
            )
        return self._settings[config.path]

    def context(self, source: Source, config: Config, links: dict[str, bool] | None = None, fix: bool | None = None) -> LintContext:
        return lint_environment(source.text, source.path, config, links, self.request.fix if fix is None else fix)

    def lint(self, ctx: LintContext, config: Config) -> list[Finding]:
        """The findings of a note's context under ``config``: the one call to the rules that ``lint``,
        ``--fix``, ``build``, the editor and the API all make (each through this checker)."""
        return lint_context(ctx, self.settings_for(config))

    def check(
        self, source: Source, config: Config, links: dict[str, bool] | None = None, fix: bool | None = None
    ) -> tuple[LintContext, list[Finding]]:
        """Read ``source`` as ``config`` says and lint it: its context and its findings."""
        ctx = self.context(source, config, links, fix)
        return ctx, self.lint(ctx, config)

    def fixed(self, source: Source, config: Config, links: dict[str, bool] | None = None) -> tuple[str, list[Finding], int]:
        """``source``'s text with safe fixes applied until nothing changes (as ``lint --fix`` writes
        it, before its line endings are restored), the findings left and how many fixes were applied."""

        def relint(text: str) -> list[Finding]:
            return self.check(source._replace(text=text), config, links, fix=True)[1]

        return fix_until_stable(source.text, relint)

    # ------------------------------------------------------------ one note

    def lint_note(self, note: str, digest: str = "") -> NoteResult:
        """Lint one note; the cyclic GC is paused meanwhile (outlines and findings hold no cycles)."""
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return self._lint_note(note, digest)
        finally:
            if was_enabled:
                gc.enable()

    def _lint_note(self, note: str, digest: str = "") -> NoteResult:
        from confnotes.edges.output import rewrite_note

        result = NoteResult(note, digest)
        try:
            source = read_source(note)
            named = self.request.stdin_filename if note == "-" else None
            if named:  # an editor's unsaved buffer: the config and messages of the file it will be saved as
                source = source._replace(path=named)
            config = self.config_for(named or note)
            settings = self.settings_for(config)
            ctx, findings = self.check(source, config, result.links)  # a rule may meet an unreadable value (a budget): exit 2
        except NotesError as exc:
            result.error = exc
            return result
        if self.request.fix and any(f.fix for f in findings):
            try:
                new_text, findings, applied = self.fixed(source, config, result.links)
            except NotesError as exc:
                result.error = exc
                return result
            skipped = rewrite_note(note, source.text, encode_like(source, new_text)) if new_text != source.text else "unchanged"
            if skipped is None:
                result.fixed, result.fixes = True, applied
                ctx = self.context(source._replace(text=new_text), config, result.links, fix=False)
            elif skipped != "unchanged":  # the findings stay, as they are still in the file
                result.error = NotesError(f"fixes not written: {skipped}", path=note)
                return result
        result.findings = findings
        result.facts = project_facts(ctx, settings)
        return result

    # ------------------------------------------------------------ many notes

    def lint_paths(self, notes: list[str]) -> LintRun:
        run = LintRun()
        cache = LintCache(self.request.cache_dir, self) if self.request.cache_dir and not self.request.fix else None
        results: dict[str, NoteResult] = {}
        todo: list[tuple[str, str]] = []
        for note in notes:
            digest = cache.digest(note) if cache else ""
            hit = cache.get(note, digest) if cache and digest else None
            if hit is not None:
                results[note] = hit
                run.cached += 1
            else:
                todo.append((note, digest))
        for result in self._run(todo):
            results[result.path] = result
            if cache and result.error is None and result.digest:
                cache.put(result)
        project: list[tuple[str, dict[str, list[Any]], LintSettings]] = []
        for note in notes:
            result = results[note]
            if result.error is not None:
                run.errors.append(result.error)
                continue
            run.files += 1
            run.findings += result.findings
            if result.fixed:
                run.fixed_files.append(note)
                run.fixes_applied += result.fixes
            project.append((note, result.facts, self.settings_for(self.config_for(note))))
        run.findings += lint_project(project)
        run.findings.sort(key=Finding.sort_key)
        if cache:
            cache.save()
        return run

    def _run(self, todo: list[tuple[str, str]]) -> list[NoteResult]:
        jobs = self.request.jobs or os.cpu_count() or 1
        if self.request.fix or jobs == 1 or not _worth_a_pool(todo, jobs, explicit=bool(self.request.jobs)):
            return [self.lint_note(note, digest) for note, digest in todo]
        from concurrent.futures import ProcessPoolExecutor

        chunks = [todo[index::jobs] for index in range(jobs)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_lint_chunk, self.request, chunk) for chunk in chunks]
            return [result for future in futures for result in future.result()]


#: Starting worker processes costs about as much as linting this many bytes of notes in one.
POOL_BYTES = 1 << 20


def _worth_a_pool(todo: list[tuple[str, str]], jobs: int, explicit: bool) -> bool:
    """Workers only when the work pays for them: at least 8 notes a worker and, unless ``-j`` was
    given, at least ``POOL_BYTES`` of notes (a small folder stays in one process, never slower
    than ``-j 1``)."""
    if len(todo) < 8 * jobs:
        return False
    if explicit:
        return True
    total = 0
    for note, _ in todo:
        try:
            total += os.stat(note).st_size
        except OSError:
            continue
        if total >= POOL_BYTES:
            return True
    return False


def _lint_chunk(request: LintRequest, chunk: list[tuple[str, str]]) -> list[NoteResult]:
    checker = Checker(request)
    return [checker.lint_note(note, digest) for note, digest in chunk]


# ---------------------------------------------------------------- the cache


def _finding_to_json(finding: Finding) -> list[Any]:
    return [
        finding.line,
        finding.col,
        finding.rule,
        finding.name,
        finding.severity,
        finding.message,
        finding.fix.title if finding.fix else None,
    ]


def _digest(data: bytes) -> str:
    """A cache key: BLAKE2b from CPython's built-in module, which loads in a fraction of a millisecond
    (``hashlib`` first loads OpenSSL, several milliseconds of every run served from the cache)."""
    try:
        from _blake2 import blake2b
    except ImportError:  # a Python built without its own hash modules
        from hashlib import blake2b
    return blake2b(data, digest_size=32).hexdigest()


def _whole(value: Any) -> bool:
    return type(value) is int and 0 <= value < 1 << 31


def _cached_findings(note: str, items: Any) -> list[Finding] | None:
    """The findings of a cache entry, each ``[line, col, rule, name, severity, message, fix]`` as
    ``_finding_to_json`` writes it (a known rule by its own name, a known severity), or None for
    anything else."""
    from confnotes.lint.rules import BY_ID

    if not isinstance(items, list):
        return None
    findings = []
    for item in items:
        if not isinstance(item, list) or len(item) != 7:
            return None
        line, col, rule, name, severity, message, fix = item
        known = isinstance(rule, str) and rule in BY_ID and name == BY_ID[rule].name
        if not (known and _whole(line) and _whole(col) and isinstance(message, str)):
            return None
        if severity not in ("error", "warning", "info") or not (fix is None or isinstance(fix, str)):
            return None
        findings.append(Finding(note, line, col, rule, name, severity, message, Fix(fix, ()) if fix else None))
    return findings


def _cached_facts(facts: Any) -> dict[str, list[Any]] | None:
    """A cache entry's project facts by rule: each ``(kind, title, line, col)``, the one shape project
    rules give (``cn401_duplicate_entry.Fact``), or None for anything else."""
    if not isinstance(facts, dict):
        return None
    out: dict[str, list[Any]] = {}
    for rule, items in facts.items():
        if not isinstance(rule, str) or not isinstance(items, list):
            return None
        for fact in items:
            if not (isinstance(fact, list) and len(fact) == 4 and isinstance(fact[0], str) and isinstance(fact[1], str)):
                return None
            if not (_whole(fact[2]) and _whole(fact[3])):
                return None
        out[rule] = [tuple(fact) for fact in items]
    return out


class LintCache:
    """Findings per note, keyed by the note's bytes, its config, the run's options and the version.

    Lives in ``.confnotes_cache/`` (with a ``.gitignore``); relative links a note checks are
    re-checked on every hit, so creating a missing file invalidates the entry.
    """

    def __init__(self, folder: str, checker: Checker) -> None:
        self.folder = Path(folder)
        self.checker = checker
        self.path = self.folder / CACHE_FILE
        self.dirty = False
        self.entries: dict[str, Any] = {}
        import json  # the cache's imports load only when there is a cache

        from confnotes.edges.cachedir import sealed
        from confnotes.markup.escape import read_json

        try:
            text = self.path.read_text(encoding="utf-8")
            head = _HEAD.match(text)
            # trusted only when this machine wrote it (``cachedir.seal``): a committed cache is a miss
            if head and head.group("version") == __version__ and text.endswith("}") and sealed(head.group("seal"), text[head.end() : -1]):
                data = read_json(text)
                if isinstance(data, dict) and isinstance(data.get("entries"), dict):
                    self.entries = data["entries"]
        except (OSError, ValueError):
            pass  # no cache, or one we cannot read (not UTF-8, not JSON, NaN in it): everything is a miss
        request = checker.request
        from confnotes.lint.rules import CATALOGUE

        # the rule catalogue too: a rule added or turned on by default (within one version, as a
        # checkout of confnotes changes) must not be hidden by results cached without it
        catalogue = [list(entry) for entry in CATALOGUE]
        asked = [request.config_file, request.select, request.ignore, request.fail_on, request.profile]
        self.salt = json.dumps([__version__, catalogue, *asked])
        self._config_keys: dict[str | None, str] = {}
        self._stamps: dict[str, tuple[list[int], str]] = {}

    def _config_key(self, note: str) -> str:
        """The run's options and the note's config (its bytes and the files it extends), hashed once."""
        config = self.checker.config_for(note)
        if config.path not in self._config_keys:
            self._config_keys[config.path] = _digest(self.salt.encode() + config_bytes(config))
        return self._config_keys[config.path]

    def digest(self, note: str) -> str:
        """The note's cache key. As in ruff and mypy, a note whose size, modification time and inode
        are those the cache recorded (with the same config) is not read or hashed again."""
        if note == "-":
            return ""
        path = os.path.abspath(note)
        try:
            status = os.stat(note)
            key = self._config_key(note)
        except (OSError, NotesError):
            return ""
        stamp = [status.st_size, status.st_mtime_ns, status.st_ino]
        entry = self.entries.get(path)
        if isinstance(entry, dict) and entry.get("stamp") == stamp and entry.get("config") == key and isinstance(entry.get("digest"), str):
            self._stamps[path] = (stamp, key)
            return str(entry["digest"])
        try:  # as the note is read: a pipe or a device is never waited on (lint then says what it is)
            data = read_bytes(note)
        except NotesError:
            return ""
        self._stamps[path] = (stamp, key)
        return _digest(key.encode() + data)

    def get(self, note: str, digest: str) -> NoteResult | None:
        """The cached result, or None: a changed note, a changed link target, or an entry of the wrong
        shape (a tampered or foreign cache file) are all misses, never errors."""
        entry = self.entries.get(os.path.abspath(note))
        if not isinstance(entry, dict) or entry.get("digest") != digest:
            return None
        links, findings, facts = entry.get("links"), _cached_findings(note, entry.get("findings")), _cached_facts(entry.get("facts"))
        if findings is None or facts is None or not isinstance(links, dict):
            return None
        if not all(isinstance(rel, str) and type(existed) is bool for rel, existed in links.items()):
            return None
        try:
            folder = Path(note).resolve().parent
            if any((folder / rel).exists() != existed for rel, existed in links.items()):
                return None
        except (OSError, RuntimeError, ValueError):
            return None
        return NoteResult(note, digest, findings, facts, links)

    def put(self, result: NoteResult) -> None:
        path = os.path.abspath(result.path)
        stamp, key = self._stamps.get(path, ([], ""))
        self.entries[path] = {
            "digest": result.digest,
            "stamp": stamp,
            "config": key,
            "findings": [_finding_to_json(f) for f in result.findings],
            "facts": result.facts,
            "links": result.links,
        }
        self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        from confnotes.edges.cachedir import seal
        from confnotes.edges.output import read_in, write_in
        from confnotes.markup.escape import strict_json

        # the folder (``.confnotes_cache`` in a notes repository) and its files are written without
        # following a link: one planted there would carry the cache over a file outside it
        root, name = self.folder.parent, self.folder.name
        try:
            if read_in(root, f"{name}/.gitignore", 64) is None:
                write_in(root, f"{name}/.gitignore", "# created by confnotes\n*\n")
            entries = strict_json(self.entries, compact=True)
            head = strict_json({"version": __version__, "seal": seal(entries)}, compact=True)[:-1]
            write_in(root, f"{name}/{CACHE_FILE}", f'{head},"entries":{entries}}}')
        except (OSError, NotesError):
            pass  # a cache that cannot be written is only a slower next run
