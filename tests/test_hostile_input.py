"""Hostile input, round 3 (issue 30): front-matter values no output can hold, file names that are
not UTF-8 or hold control characters, tampered manifests and caches, and a full device.

Every row asserts one clear error line (exit 2) or the safe result, never a traceback; JSON that
a strict parser reads; and text output with no raw control character in it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from confnotes.cli import main


def run(*args: str | os.PathLike[str], env: dict[str, str] | None = None) -> Any:
    """confnotes in-process, with colour on: click would strip a raw ANSI sequence from a plain
    run's output and hide it from the test."""
    return CliRunner().invoke(main, [os.fspath(arg) for arg in args], catch_exceptions=False, color=True, env=env)


def run_process(*args: str | bytes | os.PathLike[str], cwd: Path | None = None, stdout: Any = subprocess.PIPE) -> Any:
    """confnotes in a fresh process, in a UTF-8 locale whose standard streams are strict (a
    surrogate that reaches them is an error there, as on most desktops)."""
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    return subprocess.run(
        [sys.executable, "-m", "confnotes", *args], cwd=cwd, stdout=stdout, stderr=subprocess.PIPE, env=env, timeout=300, check=False
    )


def strict_loads(text: str | bytes) -> Any:
    """JSON as a strict parser (JavaScript's JSON.parse) reads it: NaN and Infinity are errors."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


def one_line(result: Any) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")

# ------------------------------------------------------------------ front matter values

#: (front matter line, the error line's line:col and the start of its message)
BAD_VALUES = {
    "month-13": ("date: 2024-13-45", "3:7", "front matter: '2024-13-45' is not a date (month must be in 1..12)"),
    "year-zero": ("date: 0000-01-01", "3:7", "front matter: '0000-01-01' is not a date (year 0 is out of range)"),
    "hour-99": ("date: 2024-01-01T99:99:99", "3:7", "front matter: '2024-01-01T99:99:99' is not a date"),
    "nested-date": ("when: {day: 2024-02-30}", "3:13", "front matter: '2024-02-30' is not a date"),
    "5000-digits": ("n: " + "9" * 5000, "3:4", "front matter: '9999"),
    "hex-5000-digits": ("n: 0x" + "f" * 5000, "3:4", "front matter: '0xff"),
    "int-key": ("extra: {1: a, b: c}", "3:9", "front matter: keys must be words, not a number '1' (quote it)"),
    "date-key": ("extra: {a: {2024-01-01: x}}", "3:13", "front matter: keys must be words, not a date '2024-01-01'"),
    "list-key": ("extra: {1: a, [x]: b}", "3:9", "front matter: keys must be words"),
    "complex-key": ("? [a, b]\n: c", "3:3", "front matter: keys must be words, not a list (quote it)"),
    "null-key": ("extra: {~: x}", "3:9", "front matter: keys must be words, not null"),
    "nan": ("score: .nan", "3:8", "front matter: '.nan' is not a finite number; quote it to keep it as text"),
    "inf": ("score: [1, -.inf]", "3:12", "front matter: '-.inf' is not a finite number"),
    "huge-float": ("score: 1.0e+400", "3:8", "front matter: '1.0e+400' is not a finite number"),
    "binary": ("blob: !!binary aGVsbG8=", "3:7", "front matter: !!binary values are not read"),
    "set": ("s: !!set {a, b}", "3:4", "front matter: !!set values are not read"),
    "lang-list": ("lang: [en, fr]", "3:7", "front matter: 'lang' must be text, not a list"),
    "title-map": ("event: {name: PyCon}", "3:8", "front matter: 'event' must be text, not a mapping"),
    "nested-tags": ("tags: [a, [b]]", "3:11", "front matter: 'tags' must list texts"),
    "tagged-bool": ("ok: !!bool maybe", "3:5", "front matter: 'maybe' is not true or false; quote it to keep it as text"),
    "tagged-date": ("d: !!timestamp 'x'", "3:4", "front matter: 'x' is not a date; quote it to keep it as text"),
    "raw-c1": ("event: E\x9bx", "3:9", "front matter: YAML cannot hold U+009B as it is; write it as \\u009b in double quotes"),
}
COMMANDS: dict[str, Callable[[Path], list[str | Path]]] = {
    "outline": lambda note: ["outline", note],
    "outline-json": lambda note: ["outline", note, "--format", "json"],
    "lint": lambda note: ["lint", "--no-cache", note],
    "render": lambda note: ["render", note, "--to", "html", "-o", note.with_suffix(".html")],
    "time": lambda note: ["time", note],
    "fmt": lambda note: ["fmt", "--check", note],
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("case", list(BAD_VALUES))
def test_front_matter_values_no_output_can_hold_are_one_error_line(tmp_path, monkeypatch, case, command):
    value, where, message = BAD_VALUES[case]
    monkeypatch.chdir(tmp_path)
    note = Path("x.md")
    note.write_text(f"---\ntitle: T\n{value}\n---\n\n# T\n\n## A\n\n- a\n")
    line = one_line(run(*COMMANDS[command](note)))
    assert line.startswith(f"x.md:{where}: {message}"), line
    assert len(line) < 300, "a value is clipped in its error line"


def test_values_of_every_plain_kind_still_read(cli, tmp_path):
    note = tmp_path / "x.md"
    note.write_text(
        "---\ntitle: T\ndate: 2024-02-29\nwhen: 2024-01-01 10:00:00\nn: 12\nf: 1.5\nbig: 0xff\nok: yes\nnone: ~\n"
        "nested: {a: [1, {b: c}], 'quoted 1': d}\nscore: '.nan'\n---\n\n# T\n"
    )
    result = cli("outline", str(note), "--format", "json")
    assert result.exit_code == 0, result.output
    meta = strict_loads(result.stdout)["meta"]
    assert meta["date"] == "2024-02-29"
    assert meta["extra"] == {
        "when": "2024-01-01 10:00:00",
        "n": 12,
        "f": 1.5,
        "big": 255,
        "ok": True,
        "none": None,
        "nested": {"a": [1, {"b": "c"}], "quoted 1": "d"},
        "score": ".nan",
    }


def test_a_folder_keeps_going_past_a_note_it_cannot_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    notes = Path("notes")
    notes.mkdir()
    (notes / "bad.md").write_text("---\ndate: 2024-13-45\n---\n\n# Bad\n")
    (notes / "good.md").write_text("# Good\n\n## Empty\n\n## Full\n\n- a\n")
    lint = run("lint", "--no-cache", notes)
    assert lint.exit_code == 2 and "Traceback" not in lint.output
    assert "notes/good.md:3:1: CN104" in lint.stdout
    assert lint.stderr.strip().splitlines() == [
        "notes/bad.md:2:7: front matter: '2024-13-45' is not a date (month must be in 1..12); quote it to keep it as text"
    ]
    fmt = run("fmt", "--check", notes)
    assert fmt.exit_code == 2 and "Traceback" not in fmt.output
    assert fmt.stderr.strip().splitlines()[0].startswith("notes/bad.md:2:7: front matter:")
    build = run("build", notes, "-o", "site", "--to", "html", "-j", "1")
    assert build.exit_code == 1 and "Traceback" not in build.output
    index = Path("site/index.html").read_text()
    assert "./good.html" in index and "Not built (1)" in index


# ------------------------------------------------------------------ strict JSON


def test_strict_json_never_writes_nan_and_reads_back_every_string():
    from confnotes.markup.escape import strict_json

    value = {"nan": float("nan"), "inf": [float("inf"), -float("inf")], "c1": "a\x9b[31mb", "name": "\udcff.md", "js": "a\u2028b"}
    text = strict_json(value)
    assert "NaN" not in text and "Infinity" not in text
    assert not re.search("[\x7f-\x9f\u2028\ud800-\udfff]", text)
    text.encode("utf-8")  # a lone surrogate could not be encoded
    back = strict_loads(text)
    assert back["nan"] == "nan" and back["inf"] == ["inf", "-inf"]
    assert back["c1"] == value["c1"] and back["name"] == value["name"] and back["js"] == value["js"]


def test_every_json_output_is_strict(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    notes = Path("notes")
    notes.mkdir()
    (notes / "a\x9b.md").write_text("---\ntitle: T\nscore: '.inf'\nduration: 20min\n---\n\n# T\n\n## A\x9b\n\n- a\n\n## Empty\n")
    note = next(notes.iterdir())
    results = [
        run("outline", note, "--format", "json"),
        run("lint", "--no-cache", "--format", "json", notes),
        run("lint", "--no-cache", "--format", "sarif", notes),
        run("time", note, "--format", "json"),
        run("rules", "--format", "json"),
    ]
    assert [result.exit_code for result in results] == [0, 1, 1, 0, 0], [result.output for result in results]
    outputs = [result.stdout for result in results]
    assert run("build", notes, "-o", "site", "--to", "outline", "-j", "1").exit_code == 0
    outputs += [Path("site/outline.json").read_text(), Path("site/.confnotes-manifest.json").read_text()]
    for text in outputs:
        strict_loads(text)
        assert "\x9b" not in text


# ------------------------------------------------------------------ file names that are not UTF-8


@pytest.fixture
def undecodable(tmp_path: Path) -> Path:
    """A folder with a note named by the byte 0xff (not UTF-8) beside a plain one."""
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "ok.md").write_text("# Same\n\n## Empty\n\n## Full\n\n- a\n")
    with open(os.fsencode(notes) + b"/\xff.md", "wb") as handle:
        handle.write(b"# Same\n\n## Empty\n\n## Full\n\n- b\n")
    return tmp_path


def test_lint_of_a_file_name_that_is_not_utf8_saves_and_reads_its_cache(undecodable, monkeypatch, processes):
    from confnotes.check import CACHE_FILE

    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(undecodable / "cache"))
    for _ in range(2):  # the second run is served from the cache it saved
        proc = run_process("lint", "notes", cwd=undecodable)
        assert proc.returncode == 1 and b"Traceback" not in proc.stderr, proc.stderr
        assert b"notes/\\xff.md:3:1: CN104" in proc.stdout
        assert b"CN401 duplicate-entry" in proc.stdout
    assert "\\udcff.md" in (undecodable / "cache" / CACHE_FILE).read_text()  # a JSON escape: the name reads back as it was
    for fmt in ("json", "sarif", "junit", "github"):
        proc = run_process("lint", "notes", "--format", fmt, "--no-cache", cwd=undecodable)
        assert proc.returncode == 1 and b"Traceback" not in proc.stderr, (fmt, proc.stderr)
        proc.stdout.decode("utf-8")
        if fmt in ("json", "sarif"):
            strict_loads(proc.stdout)


def test_build_and_render_of_a_file_name_that_is_not_utf8(undecodable, processes):
    site = undecodable / "site"
    for args in (["--shard", "1/1"], [], []):  # a shard (no index), a fresh site, then an unchanged one
        proc = run_process("build", "notes", "-o", "site", "--to", "html,outline", "-j", "1", *args, cwd=undecodable)
        assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
    assert b"skipped 2 unchanged" in proc.stdout  # the manifest holds the name as it is
    assert os.path.exists(os.fsencode(site) + b"/\xff.html")
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="./%FF.html"' in index and "\ufffd.md" in index
    assert strict_loads((site / "outline.json").read_bytes())["notes"]
    proc = run_process("render", b"notes/\xff.md", "--to", "html", "-o", "page.html", cwd=undecodable)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
    assert "from \ufffd.md" in (undecodable / "page.html").read_text(encoding="utf-8")


# ------------------------------------------------------------------ template static files


@pytest.mark.parametrize(("name", "to"), [("note.css", "html"), ("deck.js", "slides"), ("deck.css", "slides")])
def test_template_static_files_that_are_not_utf8_are_one_error_line(tmp_path, name, to):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / name).write_bytes(b"body { content: '\xff' }\n")
    note = tmp_path / "n.md"
    note.write_text("# T\n\n## A\n\n- a\n")
    line = one_line(run("render", note, "--to", to, "--templates", templates, "-o", tmp_path / "out.html"))
    assert name in line and "not UTF-8" in line


# ------------------------------------------------------------------ manifests of the wrong shape


def _entry(data: dict[str, Any]) -> dict[str, Any]:
    return data["notes"]["talk.md"]


#: a picture as ``inputs`` records one, but for its path
_SEEN = {"sha256": "0" * 64, "bytes": 1, "mtime_ns": 1}


#: each a change to a good manifest; build rebuilds what it cannot use, merge refuses the shard
MANIFEST_DAMAGE: dict[str, Callable[[dict[str, Any]], Any]] = {
    "list": lambda data: [data],
    "null": lambda _data: None,
    "notes-null": lambda data: {**data, "notes": None},
    "notes-list": lambda data: {**data, "notes": list(data["notes"].values())},
    "entry-int": lambda data: {**data, "notes": {**data["notes"], "talk.md": 3}},
    "entry-null": lambda data: {**data, "notes": {**data["notes"], "talk.md": None}},
    "no-title": lambda data: _entry(data).pop("title") and data,
    "no-outline": lambda data: _entry(data).pop("outline") and data,
    "no-lint": lambda data: _entry(data).pop("lint") and data,
    "other-rel": lambda data: _entry(data).update(rel="../x.md") or data,
    "title-int": lambda data: _entry(data).update(title=5) or data,
    "event-list": lambda data: _entry(data).update(event=["a"]) or data,
    "date-int": lambda data: _entry(data).update(date=20240101) or data,
    "tags-text": lambda data: _entry(data).update(tags="ab") or data,
    "tags-ints": lambda data: _entry(data).update(tags=[1, 2]) or data,
    "speakers-null": lambda data: _entry(data).update(speakers=None) or data,
    "sections-text": lambda data: _entry(data).update(sections="3") or data,
    "lint-list": lambda data: _entry(data).update(lint=[0, 0, 0]) or data,
    "lint-text": lambda data: _entry(data).update(lint={"error": "1", "warning": 0, "info": 0}) or data,
    "outputs-list": lambda data: _entry(data).update(outputs=["talk.html"]) or data,
    "outputs-int": lambda data: _entry(data).update(outputs={"html": 1}) or data,
    "talk-text": lambda data: _entry(data).update(talk="20") or data,
    "talk-minutes": lambda data: _entry(data).update(talk={"minutes": "x", "slot": None}) or data,
    "talk-no-slot": lambda data: _entry(data).update(talk={"minutes": 20}) or data,
    "no-inputs": lambda data: (_entry(data).pop("inputs"), data)[1],
    "inputs-list": lambda data: _entry(data).update(inputs=["a.png"]) or data,
    "inputs-outside": lambda data: _entry(data).update(inputs={"../../secret.png": _SEEN}) or data,
    "inputs-absolute": lambda data: _entry(data).update(inputs={"/etc/passwd": _SEEN}) or data,
    "inputs-hash": lambda data: _entry(data).update(inputs={"a.png": {"sha256": "not a hash", "bytes": 1, "mtime_ns": 1}}) or data,
    "inputs-text": lambda data: _entry(data).update(inputs={"a.png": "0" * 64}) or data,
    "failed-list": lambda data: {**data, "failed": ["a.md"]},
    "formats-text": lambda data: {**data, "formats": "html"},
}
RAW_DAMAGE = {"truncated": None, "nan": b'{"notes": NaN}', "deep": b"[" * 100_000, "not-utf8": b'{"notes": "\xff"}', "empty": b""}


def _built_site(tmp_path: Path, *shard: str) -> tuple[Path, Path]:
    notes, site = tmp_path / "notes", tmp_path / "site"
    notes.mkdir()
    (notes / "talk.md").write_text("---\nduration: 20min\ntags: [a]\n---\n\n# Talk\n\n## A\n\n- a\n")
    (notes / "other.md").write_text("# Other\n\n## B\n\n- b\n")
    assert run("build", notes, "-o", site, "--to", "html", "-j", "1", *shard).exit_code == 0
    return notes, site


def _damage(path: Path, case: str) -> None:
    if case in RAW_DAMAGE:
        raw = RAW_DAMAGE[case]
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2] if raw is None else raw)
    else:
        path.write_text(json.dumps(MANIFEST_DAMAGE[case](json.loads(path.read_text()))))


@pytest.mark.parametrize("case", [*MANIFEST_DAMAGE, *RAW_DAMAGE])
def test_build_rebuilds_past_a_manifest_of_the_wrong_shape(tmp_path, case):
    notes, site = _built_site(tmp_path)
    _damage(site / ".confnotes-manifest.json", case)
    result = run("build", notes, "-o", site, "--to", "html", "-j", "1")
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    index = (site / "index.html").read_text()
    assert "./talk.html" in index and "./other.html" in index
    assert [entry["path"] for entry in strict_loads((site / "outline.json").read_text())["notes"]] == ["other.md", "talk.md"]


@pytest.mark.parametrize("case", [*MANIFEST_DAMAGE, *RAW_DAMAGE])
def test_merge_refuses_a_shard_manifest_of_the_wrong_shape_and_keeps_it(tmp_path, case):
    _, site = _built_site(tmp_path, "--shard", "1/1")
    shard = site / ".confnotes-manifest.shard-1-of-1.json"
    _damage(shard, case)
    damaged = shard.read_bytes()
    line = one_line(run("build", "--merge", "-o", site))
    assert line.startswith(f"{shard}: cannot merge this shard manifest: "), line
    assert shard.read_bytes() == damaged and not (site / "index.html").exists()


def test_merge_of_good_shards_still_merges(tmp_path):
    _, site = _built_site(tmp_path, "--shard", "1/1")
    result = run("build", "--merge", "-o", site)
    assert result.exit_code == 0 and "merged 2 note(s)" in result.stdout
    assert not list(site.glob(".confnotes-manifest.shard-*"))


# ------------------------------------------------------------------ lint caches of the wrong shape


def _findings(entry: dict[str, Any]) -> list[Any]:
    return entry["findings"]


CACHE_DAMAGE: dict[str, Callable[[dict[str, Any]], Any]] = {
    "facts-pairs": lambda entry: entry.update(facts={"CN401": [[1, 2]]}),
    "facts-title-int": lambda entry: entry.update(facts={"CN401": [["talk", 5, 1, 1]]}),
    "facts-text": lambda entry: entry.update(facts={"CN401": "abcd"}),
    "facts-list": lambda entry: entry.update(facts=[]),
    "finding-short": lambda entry: _findings(entry).append([1, 1, "CN104"]),
    "finding-line-text": lambda entry: _findings(entry).append(["x", 1, "CN104", "empty-section", "warning", "m", None]),
    "finding-severity": lambda entry: _findings(entry).append([1, 1, "CN104", "empty-section", "fatal", "m", None]),
    "finding-rule": lambda entry: _findings(entry).append([1, 1, "CN999", "nope", "warning", "m", None]),
    # a known rule under another name: the name would be printed as it is, control characters too
    "finding-name": lambda entry: _findings(entry).append([1, 1, "CN104", "\x1f\x1b[2J", "warning", "m", None]),
    "finding-object": lambda entry: _findings(entry).append({"line": 1}),
    "finding-rule-list": lambda entry: _findings(entry).append([1, 1, [], "empty-section", "warning", "m", None]),
    "findings-text": lambda entry: entry.update(findings="x"),
    "links-list": lambda entry: entry.update(links=["a"]),
    "links-text": lambda entry: entry.update(links={"a.png": "yes"}),
    "no-facts": lambda entry: entry.pop("facts"),
}


@pytest.mark.parametrize("case", [*CACHE_DAMAGE, "nan", "deep", "not-utf8"])
def test_lint_cache_entries_of_the_wrong_shape_are_a_miss(tmp_path, monkeypatch, case):
    from confnotes.check import CACHE_FILE

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(tmp_path / "cache"))
    notes = Path("notes")
    notes.mkdir()
    (notes / "a.md").write_text("# Same\n\n## Empty\n\n## Full\n\n- a\n")
    (notes / "b.md").write_text("# Same\n\n## Full\n\n- b\n")
    fresh = run("lint", notes, "--no-cache")
    assert run("lint", notes).stdout == fresh.stdout
    cache = tmp_path / "cache" / CACHE_FILE
    if case == "nan":
        cache.write_text(cache.read_text().replace('"findings":[', '"findings":[NaN,', 1))
    elif case == "deep":
        cache.write_text("[" * 100_000)
    elif case == "not-utf8":
        cache.write_bytes(b"\xff" + cache.read_bytes())
    else:
        data = json.loads(cache.read_text())
        for entry in data["entries"].values():
            CACHE_DAMAGE[case](entry)
        cache.write_text(json.dumps(data))
    result = run("lint", notes)
    assert result.exit_code == fresh.exit_code == 1 and "Traceback" not in result.output
    assert result.stdout == fresh.stdout


# ------------------------------------------------------------------ a full device


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["help"], ["lint", "--help"], ["rules"]])
def test_help_and_version_on_a_full_device_are_one_line(args, processes):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "wb") as full:
        proc = run_process(*args, stdout=full)
    assert proc.returncode != 0
    assert proc.stderr.decode().splitlines() == ["confnotes: cannot write the output: No space left on device"]


# ------------------------------------------------------------------ control characters in names and titles

HOSTILE_NAME = "esc\x1b]0;owned\x07\r\n::error file=x::forged\x1b[2J.md"


@pytest.fixture
def hostile_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with a note whose name holds ESC, BEL, CR and a newline that would forge a CI line,
    and a note whose front matter confnotes cannot read, named the same way."""
    monkeypatch.chdir(tmp_path)
    notes = Path("notes")
    notes.mkdir()
    (notes / HOSTILE_NAME).write_text("# Title\x1b[5m\n\n## Empty\x1b]0;pwned\x07\n\n## Full\n\n- a\x9b31m\n")
    (notes / ("bad" + HOSTILE_NAME)).write_text("---\ndate: 2024-13-45\n---\n\n# Bad\n")
    return notes


def _no_raw_controls(text: str) -> None:
    assert not RAW_CONTROLS.search(text.replace("\n", "")), repr(text)


def test_lint_text_and_github_never_print_a_name_raw(hostile_names):
    text = run("lint", "--no-cache", hostile_names)
    _no_raw_controls(text.stdout + text.stderr)
    assert "\\x1b]0;owned\\x07\\x0d\\x0a::error" in text.stdout
    assert all(line.startswith("notes/") for line in text.stdout.splitlines()[:-1])  # the last is the summary
    assert text.stderr.count("\n") == 1 and text.stderr.startswith("notes/bad")
    github = run("lint", "--no-cache", "--format", "github", hostile_names)
    _no_raw_controls(github.stdout)
    assert github.stdout.splitlines() and all(
        line.startswith(("::warning ", "::error ", "::notice ")) for line in github.stdout.splitlines()
    )


def test_other_commands_never_print_a_name_or_title_raw(hostile_names):
    note = hostile_names / HOSTILE_NAME
    outputs = [
        run("outline", note),
        run("time", note),
        run("fmt", "--check", hostile_names),
        run("build", hostile_names, "-o", "site", "--to", "html", "-j", "1"),
        run("render", note, "--to", "html", "-o", "page.html"),
        run("render", hostile_names / ("bad" + HOSTILE_NAME), "--to", "html", "-o", "bad.html"),
    ]
    for result in outputs:
        assert "Traceback" not in result.output
        _no_raw_controls(result.stdout + result.stderr)
    assert "\\x1b]0;pwned\\x07" in outputs[1].stdout  # time's table names the section it times
    assert "failed: notes/bad" in outputs[3].stderr and "\\x0d\\x0a" in outputs[3].stderr


def test_front_matter_confnotes_writes_reads_back_whatever_the_title_holds(tmp_path, monkeypatch):
    """new and Marp write titles as YAML double-quoted text: a C1 control or U+2028 in a title must
    come back as written, not make the front matter unreadable."""
    monkeypatch.chdir(tmp_path)
    title = "Talk\x85 on\u2028scaling \x9b"
    made = run("new", title, "-o", "new.md")
    assert made.exit_code == 0, made.output
    outline = run("outline", "new.md", "--format", "json")
    assert outline.exit_code == 0, outline.output
    assert strict_loads(outline.stdout)["meta"]["title"] == title
    marp = run("render", "new.md", "--to", "marp", "-o", "deck.md")
    assert marp.exit_code == 0, marp.output
    import yaml

    head = Path("deck.md").read_text().split("---\n")[1]
    assert yaml.safe_load(head)["title"] == title
