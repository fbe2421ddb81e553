"""Fuzz targets for hostile input, round 3 (issue 30): front-matter values of every YAML kind and
edge, build manifests and shard manifests, lint caches, and file names as bytes — each through
the commands that read it, at least 300 examples an entry point.

Whatever is generated, a command exits 0, 1 or 2, prints no traceback, writes JSON a strict
parser reads and text with no raw control character in it; a manifest or cache of the wrong
shape is a rebuild or a cache miss (and a shard manifest that is not whole is refused and kept).
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from confnotes.build import OUTLINES
from confnotes.build.search import SEARCH_FILES
from confnotes.cli import main
from strategies import examples

FUZZ = settings(
    max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def run(*args: str | os.PathLike[str], env: dict[str, str] | None = None) -> Any:
    """confnotes in-process, colour on (click strips raw ANSI sequences from plain runs)."""
    return CliRunner().invoke(main, [os.fspath(arg) for arg in args], catch_exceptions=False, color=True, env=env)


def strict_loads(text: str | bytes) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


def assert_clean(result: Any, codes: tuple[int, ...] = (0, 1, 2)) -> None:
    """No traceback, an exit code a linter uses, one error line when it is 2, nothing raw."""
    assert result.exit_code in codes, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    assert not RAW_CONTROLS.search(result.stdout.replace("\n", "") + result.stderr.replace("\n", "")), repr(result.output)
    if result.exit_code == 2:
        assert result.stderr.strip() and "\n" not in result.stderr.strip() or "failed" in result.stderr, result.stderr


# ------------------------------------------------------------------ front-matter values

DIGITS = st.integers(1, 6000).map(lambda n: "9" * n)
SCALARS = st.one_of(
    # dates and times, real and impossible
    st.builds("{:04d}-{:02d}-{:02d}".format, st.integers(0, 9999), st.integers(0, 99), st.integers(0, 99)),
    st.builds(
        "{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}".format,
        st.integers(0, 9999),
        st.integers(1, 12),
        st.integers(1, 31),
        st.integers(0, 99),
        st.integers(0, 99),
        st.integers(0, 99),
    ),
    st.sampled_from(["2024-02-29", "2023-02-29", "2024-01-01 10:00:00.5 +02:00", "2024-1-1", "9999-12-31T23:59:59Z"]),
    # numbers: huge, hexadecimal, octal, binary, sexagesimal, signed, non-finite, tiny
    DIGITS,
    DIGITS.map(lambda digits: "-" + digits),
    st.integers(1, 6000).map(lambda n: "0x" + "f" * n),
    st.integers(1, 6000).map(lambda n: "0b" + "1" * n),
    st.integers(1, 6000).map(lambda n: "0" + "7" * n),
    st.sampled_from(["190:20:30", "1_000", "+12", "0o17", "-0", "0.0", "-0.0", "1.5e+3", "1.0e+400", "-1.0e+400", "1.0e-400"]),
    st.sampled_from([".nan", ".NaN", ".NAN", ".inf", "-.inf", "+.Inf", ".INF"]),
    st.floats().map(repr),
    # nulls and booleans, YAML 1.1 spellings included
    st.sampled_from(["~", "null", "Null", "NULL", "", "yes", "No", "on", "OFF", "true", "False", "y", "n"]),
    # text: plain, quoted, with control characters, tagged
    st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=12).map(json.dumps),
    st.sampled_from(["plain words", "'single ''quoted'''", '"esc \\x1b]0;t\\x07"', '"\\u202e"', "|\n  block\n  text", ">-\n  folded"]),
    st.sampled_from(["!!str 12", "!!int '12'", "!!int 'x'", "!!float 'abc'", "!!float '.nan'", "!!timestamp 'x'", "!!bool maybe"]),
    st.sampled_from(["!!null ''", "!!str", "!!python/object:os.system x", "!custom tag", "!!merge x"]),
    # binary, sets, ordered maps and pairs
    st.binary(max_size=24).map(lambda data: "!!binary " + (base64.b64encode(data).decode() or "AA==")),
    st.sampled_from(["!!set {a, b}", "!!omap [a: 1, b: 2]", "!!pairs [a: 1, a: 2]", "!!binary '###'"]),
)
KEYS = st.one_of(
    st.sampled_from(["a", "title", "date", "tags", "speakers", "lang", "event", "kind", "duration", "slides", "budgets", "'1'"]),
    SCALARS.filter(lambda text: "\n" not in text),
    st.sampled_from(["[x]", "{a: b}", "[a, b]", "? [a, b]"]),
)


def _flow(value: Any) -> str:
    """A generated value as YAML flow text (keys written as drawn: they may be numbers or dates)."""
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_flow(item)}" for key, item in value.items()) + "}"
    return value if "\n" not in value else json.dumps(value)


VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(KEYS.filter(lambda key: not key.startswith("?")), children, max_size=3)
    ),
    max_leaves=8,
)


@st.composite
def front_matter(draw: Any) -> str:
    """Front matter of several keys, each with a generated value (block scalars kept as blocks),
    now and then an anchor or alias, an explicit complex key, or a mapping nested in block style."""
    lines = []
    for _ in range(draw(st.integers(1, 5))):
        key, value = draw(KEYS), draw(VALUES)
        text = _flow(value) if not isinstance(value, str) else value
        if key.startswith("?"):
            lines.append(f"{key}\n: {_flow(value) if not isinstance(value, str) or chr(10) in value else value}")
            continue
        if "\n" in text:
            text = text.replace("\n", "\n  ")
        anchor = draw(st.sampled_from(["", "", "", "&a ", "*a"]))
        lines.append(f"{key}: {anchor}{text}" if anchor != "*a" else f"{key}: *a")
    if draw(st.booleans()):
        lines.append(f"nested:\n  {draw(KEYS.filter(lambda key: not key.startswith('?')))}: {_flow(draw(VALUES)).replace(chr(10), ' ')}")
    return "\n".join(lines)


@FUZZ
@given(front_matter())
def test_front_matter_values_of_every_kind_through_every_command(tmp_path_factory, fm):
    folder = tmp_path_factory.mktemp("fm")
    note = folder / "fm.md"
    note.write_text(f"---\n{fm}\n---\n\n# Talk\n\n## Part\n\n- point\n", encoding="utf-8")
    outline = run("outline", note, "--format", "json")
    assert_clean(outline, (0, 2))
    talk = False
    if outline.exit_code == 2:  # one line, at a place inside the front matter
        line = int(re.match(rf"{re.escape(str(note))}:(\d+):\d+: ", outline.stderr).group(1))
        assert 1 <= line <= fm.count("\n") + 3
    else:
        meta = strict_loads(outline.stdout)["meta"]
        assert all(isinstance(meta[key], (str, type(None))) for key in ("title", "event", "date", "lang", "kind"))
        assert all(isinstance(item, str) for item in meta["speakers"] + meta["tags"])
        talk = meta["kind"] == "talk" or bool({"duration", "slides", "budgets"} & set(meta["extra"]))
    for args in (
        ["outline", note],
        ["lint", "--no-cache", note],
        ["time", note],
        ["render", note, "--to", "html", "-o", folder / "o.html"],
    ):
        result = run(*args)
        assert_clean(result)
        # what plans a talk (time, render, and lint's talk profile) reads duration, slides and
        # budgets, which outline does not: it may refuse them, in one line inside the front matter
        plans = args[0] in ("time", "render") or (args[0] == "lint" and talk)
        assert (result.exit_code == 2) == (outline.exit_code == 2) or plans, (args, result.output)
        if plans and result.exit_code == 2 and outline.exit_code == 0 and args[0] == "lint":
            line = int(re.match(rf"{re.escape(str(note))}:(\d+):\d+: ", result.stderr).group(1))
            assert 1 <= line <= fm.count("\n") + 3, result.stderr


# ------------------------------------------------------------------ manifests

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=10,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document, its root first."""
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*prefix, index))
    return out


@st.composite
def damaged(draw: Any, document: Any) -> bytes:
    """``document`` (JSON data) with one place replaced by any JSON value or removed, or its text cut."""
    text = json.dumps(document)
    if draw(st.integers(0, 9)) == 0:
        return text.encode()[: draw(st.integers(0, len(text) - 1))]
    data = json.loads(text)
    path = draw(st.sampled_from(_paths(data)))
    if not path:
        return json.dumps(draw(JSON_VALUES)).encode()
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    if draw(st.booleans()) and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(JSON_VALUES)
    return json.dumps(data).encode()  # NaN and Infinity written as JSON's non-standard tokens


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A plain site's manifest and a shard's, built once from two notes (one a talk)."""
    root = tmp_path_factory.mktemp("built")
    notes = root / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("---\nduration: 20min\ntags: [a]\nspeakers: [Ada]\n---\n\n# Talk\n\n## A\n\n- a\n")
    (notes / "other.md").write_text("# Other\n\n## B\n\n- b\n")
    assert run("build", notes, "-o", root / "site", "--to", "outline", "-j", "1").exit_code == 0
    assert run("build", notes, "-o", root / "shard", "--to", "outline", "-j", "1", "--shard", "1/1").exit_code == 0
    return {
        "notes": notes,
        "manifest": json.loads((root / "site" / ".confnotes-manifest.json").read_text()),
        "shard": json.loads((root / "shard" / ".confnotes-manifest.shard-1-of-1.json").read_text()),
        "outlines": root / "shard" / OUTLINES,  # each note's outline, which the shard manifest names
        "search": root / "shard" / SEARCH_FILES,  # and its search words
    }


@FUZZ
@given(st.data())
def test_build_reads_any_manifest_as_a_rebuild(tmp_path_factory, built, data):
    site = tmp_path_factory.mktemp("site")
    (site / ".confnotes-manifest.json").write_bytes(data.draw(damaged(built["manifest"])))
    result = run("build", built["notes"], "-o", site, "--to", "outline", "-j", "1")
    assert_clean(result, (0,))
    notes = strict_loads((site / "outline.json").read_text())["notes"]
    assert sorted(entry["path"] for entry in notes) == ["other.md", "talk.md"]
    index = (site / "index.html").read_text()
    assert "./talk.slides.txt" in index and "./other.slides.txt" in index


@FUZZ
@given(st.data())
def test_merge_takes_a_whole_shard_manifest_or_refuses_and_keeps_it(tmp_path_factory, built, data):
    from confnotes.build.index import _outline_intact
    from confnotes.build.manifest import _manifest_problem

    site = tmp_path_factory.mktemp("merge")
    shutil.copytree(built["outlines"], site / OUTLINES)
    shutil.copytree(built["search"], site / SEARCH_FILES)
    shard = site / ".confnotes-manifest.shard-1-of-1.json"
    raw = data.draw(damaged(built["shard"]))
    shard.write_bytes(raw)
    result = run("build", "--merge", "-o", site)
    assert_clean(result, (0, 2))
    try:
        manifest = strict_loads(raw)
        whole = _manifest_problem(manifest) is None
    except ValueError:
        whole = False
    # a whole manifest whose outline entries name files it did not write is refused too
    # (and its search words: Hypothesis found a whole manifest naming a search file "0" it never wrote)
    intact = whole and all(
        _outline_intact(site, rel, entry["outline"]) is None
        and ("search" not in entry or _outline_intact(site, rel, entry["search"]) is None)
        for rel, entry in manifest["notes"].items()
    )
    assert (result.exit_code == 0) == intact, result.output
    if intact:
        assert not shard.exists() and (site / "index.html").exists()
        strict_loads((site / "outline.json").read_text())
    else:
        assert shard.read_bytes() == raw and not (site / "index.html").exists()
        why = "build that note's shard again (nothing was merged)" if whole else f"{shard}: cannot merge this shard manifest: "
        assert why in result.stderr, result.stderr


# ------------------------------------------------------------------ lint caches


@pytest.fixture(scope="module")
def cached(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two notes with the same title (the project rule's facts matter), linted fresh and cached."""
    from confnotes.check import CACHE_FILE

    root = tmp_path_factory.mktemp("cached")
    notes = root / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# Same\n\n## Empty\n\n## Full\n\n- a\n")
    (notes / "b.md").write_text("# Same\n\n## Full\n\n- b <http://x>\n")
    env = {"CONFNOTES_CACHE_DIR": str(root / "cache")}
    fresh = run("lint", notes, "--no-cache")
    assert run("lint", notes, env=env).stdout == fresh.stdout
    return {"notes": notes, "fresh": fresh, "cache": json.loads((root / "cache" / CACHE_FILE).read_text())}


FINDING_LINE = re.compile(r"^\S+:\d+:\d+: CN\d{3} [a-z-]+ .+$|^\d+ findings? in \d+ notes?")


@FUZZ
@given(st.data())
def test_lint_reads_any_cache_as_a_miss_or_a_hit(tmp_path_factory, cached, data):
    """A cache entry of the wrong shape is a miss (the note is linted again); one of the right shape
    is a hit, whatever it says (tests/test_hostile_input.py checks the misses give the fresh
    findings). Either way the report is well formed."""
    from confnotes.check import CACHE_FILE

    folder = tmp_path_factory.mktemp("cache")
    (folder / CACHE_FILE).write_bytes(data.draw(damaged(cached["cache"])))
    result = run("lint", cached["notes"], env={"CONFNOTES_CACHE_DIR": str(folder)})
    assert_clean(result, (0, 1))
    assert all(FINDING_LINE.match(line) for line in result.stdout.splitlines()), result.stdout
    again = run("lint", cached["notes"], env={"CONFNOTES_CACHE_DIR": str(folder)})  # the cache it saved reads back
    assert again.stdout == result.stdout


# ------------------------------------------------------------------ file names as bytes

NAME_BYTES = st.one_of(
    st.binary(min_size=1, max_size=60),
    st.text(min_size=1, max_size=30).map(lambda text: text.encode("utf-8", "surrogatepass")),
    st.lists(st.sampled_from([b"\x1b]0;t\x07", b"\x1b[2J", b"\r", b"\n", b"\x9b", b"\xc2\x9b", b"\xff", b"::error ", b"%0A", b" "])).map(
        b"".join
    ),
).map(lambda raw: b"n" + raw.replace(b"/", b"_").replace(b"\0", b"_") + b".md")


@FUZZ
@given(NAME_BYTES)
def test_file_names_of_any_bytes_through_every_command(tmp_path_factory, name):
    root = tmp_path_factory.mktemp("names")
    notes = root / "notes"
    notes.mkdir()
    path = os.fsencode(notes) + b"/" + name
    with open(path, "wb") as handle:
        handle.write(b"# Same\n\n## Empty\n\n## Full\n\n- a\n")
    (notes / "plain.md").write_text("# Same\n\n## Full\n\n- b\n")
    note = os.fsdecode(path)
    env = {"CONFNOTES_CACHE_DIR": str(root / "cache")}
    for args in (
        ["lint", notes],
        ["lint", notes],  # served from the cache the first run saved
        ["lint", "--format", "github", "--no-cache", notes],
        ["outline", note],
        ["time", note],
        ["fmt", "--check", notes],
    ):
        result = run(*args, env=env)
        assert_clean(result, (0, 1))
    assert "CN104" in run("lint", notes, env=env).stdout
    for fmt in ("json", "sarif"):
        strict_loads(run("lint", "--format", fmt, "--no-cache", notes).stdout)
    strict_loads(run("outline", note, "--format", "json").stdout)
    rendered = run("render", note, "--to", "html", "-o", root / "page.html")
    assert_clean(rendered, (0,))
    (root / "page.html").read_text(encoding="utf-8")
    built = run("build", notes, "-o", root / "site", "--to", "html", "-j", "1")
    assert_clean(built, (0,))
    assert len(strict_loads((root / "site" / "outline.json").read_text())["notes"]) == 2
    assert os.path.exists(os.fsencode(root / "site") + b"/" + name[:-3] + b".html")
    again = run("build", notes, "-o", root / "site", "--to", "html", "-j", "1")
    assert "skipped 2 unchanged" in again.stdout
    Path(root / "site" / "index.html").read_text(encoding="utf-8")
