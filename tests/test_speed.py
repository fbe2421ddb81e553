"""Speed without changed results: the lint cache's stat fast path, concurrent runs, -j, and fmt
--check that does not parse an already formatted note twice. (Timings live in make bench.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES, NOTES

REAL = sorted((FIXTURES / "real").glob("*.md"))


def _copy(folder: Path) -> Path:
    folder.mkdir()
    for note in REAL:
        shutil.copy(note, folder / note.name)
    return folder


def test_unchanged_notes_are_neither_read_nor_hashed(cli, tmp_path, monkeypatch):
    notes = _copy(tmp_path / "notes")
    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(tmp_path / "cache"))
    first = cli("lint", "--format", "json", str(notes))
    original = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.suffix == ".md":
            raise AssertionError(f"{self.name} was read although unchanged")
        return original(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    second = cli("lint", "--format", "json", str(notes))
    assert json.loads(second.stdout) == json.loads(first.stdout)
    monkeypatch.setattr(Path, "read_bytes", original)
    # touched (new mtime, same bytes): read and hashed again, still the same findings
    touched = notes / REAL[0].name
    os.utime(touched, ns=(touched.stat().st_atime_ns, touched.stat().st_mtime_ns + 10**9))
    assert json.loads(cli("lint", "--format", "json", str(notes)).stdout) == json.loads(first.stdout)
    # edited: the stat differs, the digest differs, the note is linted afresh
    touched.write_text(touched.read_text() + "\n## New section\n")
    after = json.loads(cli("lint", "--format", "json", str(notes)).stdout)
    assert after == json.loads(cli("lint", "--no-cache", "--format", "json", str(notes)).stdout)


def test_same_findings_with_and_without_the_cache_and_with_any_jobs(cli, tmp_path, monkeypatch, processes):
    notes = _copy(tmp_path / "notes")
    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(tmp_path / "cache"))
    runs = {
        "no cache": cli("lint", "--no-cache", "--format", "json", str(notes)),
        "cold cache": cli("lint", "--format", "json", str(notes)),
        "warm cache": cli("lint", "--format", "json", str(notes)),
        "-j 1": cli("lint", "--no-cache", "-j", "1", "--format", "json", str(notes)),
        "-j 2": cli("lint", "--no-cache", "-j", "2", "--format", "json", str(notes)),
    }
    results = {name: json.loads(run.stdout) for name, run in runs.items()}
    assert all(result == results["no cache"] for result in results.values()), {k: len(v) for k, v in results.items()}


def test_two_lint_processes_at_once_leave_a_valid_cache(tmp_path, processes):
    notes = _copy(tmp_path / "notes")
    env = {**os.environ, "CONFNOTES_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "confnotes", "lint", "--format", "json", str(notes)]
    procs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [proc.communicate(timeout=120)[0] for proc in procs]
    assert json.loads(outputs[0]) == json.loads(outputs[1])
    cache = json.loads((tmp_path / "cache" / "lint-v1.json").read_text())
    assert {Path(path).name for path in cache["entries"]} == {note.name for note in REAL}
    third = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert json.loads(third.stdout) == json.loads(outputs[0])


def test_fmt_check_does_not_parse_a_formatted_note_twice(cli, tmp_path, monkeypatch):
    import confnotes.parse as parse_module

    note = tmp_path / "talk.md"
    note.write_text((NOTES / "scale2025.md").read_text(encoding="utf-8"))
    assert cli("fmt", str(note)).exit_code == 0  # now canonical
    calls: list[str] = []
    original = parse_module.parse

    def counting(*args, **kwargs):
        calls.append(args[1] if len(args) > 1 else "")
        return original(*args, **kwargs)

    monkeypatch.setattr(parse_module, "parse", counting)
    assert cli("fmt", "--check", str(note)).exit_code == 0
    assert len(calls) == 1, "a note fmt would not change is read once, not parsed again to prove it"
    calls.clear()
    note.write_text(note.read_text() + "\n\n\n")  # not canonical: formatted, then proved by a parse of the result
    assert cli("fmt", "--check", str(note)).exit_code == 1
    assert len(calls) == 2
