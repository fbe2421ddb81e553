"""A fuzz target for every input confnotes reads besides notes: front matter, config files,
manifests, lint caches and the preview server's request paths (≥ 300 examples each)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from confnotes.errors import NotesError
from strategies import examples

FUZZ = settings(
    max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)

YAML_BITS = st.sampled_from(
    [
        "title: x",
        "a: &a [1, 2]",
        "b: *a",
        "c: [*a, *a]",
        "!!python/object:os.system x",
        "- item",
        "key: {nested: [1, {x: y}]}",
        "2024-01-01: d",
        "? complex",
        "tags: [a, , b]",
        "speakers:\n  -\n  - Ada",
        "'quoted': \"v\"",
        "x: !!binary aGVsbG8=",
        ": :",
        "{",
        "&x y",
        "date: 2026-05-14",
        "slides: {max_items: 2}",
        "\t\tindent: tab",
        "lang: ар",
    ]
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=20,
)


@FUZZ
@given(st.lists(YAML_BITS | st.text(max_size=30), max_size=8))
def test_front_matter_is_read_or_refused_with_a_notes_error(lines):
    from confnotes.parse import parse

    text = "---\n" + "\n".join(lines) + "\n---\n\n# Title\n\n- point\n"
    try:
        doc = parse(text, "fm.md")
    except NotesError:
        return
    json.dumps({key: str(value) for key, value in doc.meta.extra.items()})
    assert all(isinstance(tag, str) and tag for tag in doc.meta.tags)


TOML_BITS = st.sampled_from(
    [
        'theme = "dark"',
        "theme = 3",
        'paper = "A5"',
        "[lint]",
        'select = ["CN1"]',
        "[slides]",
        "max_items = -1",
        "[build]",
        'formats = ["html", "nope"]',
        'exclude = "x"',
        "[tool.confnotes]",
        "unknown = 1",
        'infer_headings = "sometimes"',
        "note_lines = true",
        "[lint.rules.CN999]",
        'templates = "../../etc"',
        "a = [",
        "= 3",
        '"\\u0000" = 1',
    ]
)


@FUZZ
@given(st.lists(TOML_BITS | st.text(max_size=30), max_size=8), st.sampled_from(["confnotes.toml", "pyproject.toml"]))
def test_config_files_are_read_or_refused_with_a_notes_error(tmp_path_factory, lines, name):
    from confnotes.check import Checker, LintRequest
    from confnotes.config import read_config_file

    folder = tmp_path_factory.mktemp("config")
    path = folder / name
    path.write_bytes("\n".join(lines).encode("utf-8", "replace") + b"\n")
    try:
        config = read_config_file(path)
        Checker(LintRequest(config_file=str(path))).settings_for(config)
    except NotesError:
        pass


@FUZZ
@given(JSON_VALUES, st.text(max_size=40))
def test_manifests_never_reach_outside_the_site(tmp_path_factory, data, rel):
    from confnotes.build.manifest import _read_manifest, _remove_outputs, inside

    site = tmp_path_factory.mktemp("site")
    outside = site.parent / f"{site.name}-outside.txt"
    outside.write_text("keep")
    manifest = site / ".confnotes-manifest.json"
    manifest.write_text(json.dumps(data))
    notes = _read_manifest(manifest)["notes"]
    assert isinstance(notes, dict)
    for entry in notes.values():
        _remove_outputs(site, entry)
    _remove_outputs(site, {"outputs": {"html": rel, "pdf": f"../{outside.name}"}})
    target = inside(site, rel)
    assert target is None or site.resolve() in target.parents
    assert outside.read_text() == "keep"


@FUZZ
@given(JSON_VALUES)
def test_lint_caches_of_any_shape_are_a_miss_or_a_hit(tmp_path_factory, data):
    from confnotes.check import CACHE_FILE, Checker, LintCache, LintRequest

    folder = tmp_path_factory.mktemp("cache")
    note = folder / "n.md"
    note.write_text("# T\n")
    (folder / CACHE_FILE).write_text(json.dumps(data))
    checker = Checker(LintRequest())
    cache = LintCache(str(folder), checker)
    digest = cache.digest(str(note))
    entries = data.get("entries") if isinstance(data, dict) else None
    # whatever the file held, an entry for this note is either a clean hit or a miss
    cache.entries[os.path.abspath(note)] = next(iter(entries.values()), data) if isinstance(entries, dict) and entries else data
    if isinstance(cache.entries[os.path.abspath(note)], dict):
        cache.entries[os.path.abspath(note)]["digest"] = digest
    hit = cache.get(str(note), digest)
    assert hit is None or (hit.path == str(note) and all(isinstance(f.line, int) for f in hit.findings))


@pytest.fixture(scope="module")
def preview(tmp_path_factory):
    from confnotes.serve import PreviewServer

    notes = tmp_path_factory.mktemp("notes")
    (notes / "talk.md").write_text("# Talk\n")
    server = PreviewServer(str(notes), "127.0.0.1", 0, lambda *args, **kwargs: None)
    server.rebuild()
    thread = threading.Thread(target=server.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield server
    server.stopping.set()
    server.httpd.shutdown()
    server.httpd.server_close()


PATH_BITS = st.sampled_from(
    [
        "..",
        "%2e%2e",
        "%00",
        "\x00",
        "talk.html",
        "index.html",
        "%",
        "%zz",
        "//",
        "?",
        "#",
        "__confnotes",
        "%2f",
        "\\",
        "~",
        "ä",
        "%ff%fe",
        "a" * 300,
        ".confnotes-manifest.json",
    ]
)


@FUZZ
@given(st.lists(PATH_BITS | st.text(max_size=10), max_size=6))
def test_request_paths_get_an_answer_never_a_traceback(preview, capfd, parts):
    import http.client
    from urllib.parse import quote

    path = "/" + "/".join(parts)
    connection = http.client.HTTPConnection("127.0.0.1", preview.httpd.server_address[1], timeout=120)
    try:
        connection.putrequest("GET", quote(path, safe="/%?#.~") if "\x00" not in path else "/%00")
        connection.endheaders()
        status = connection.getresponse().status
    finally:
        connection.close()
    assert status in (200, 301, 400, 403, 404)
    if status == 200:
        assert not path.endswith(".confnotes-manifest.json") or ".." not in path
    assert "Traceback" not in capfd.readouterr().err


def test_preview_serves_nothing_outside_its_folder(preview):
    root = Path(preview.out_dir).resolve()
    assert root.is_dir() and (root / "talk.html").is_file()
