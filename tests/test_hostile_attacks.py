"""The hostile matrix: each attack or fault that once got through, one row each (issue "Hardening").

Every row asserts the safe behaviour or the one clear error line (exit 2), and where files
are involved, that nothing outside the output folder changed.
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import one_error_line

BOMB = (
    "---\n"
    + "".join(
        f"{name}: &{name} [{', '.join([f'*{prev}'] * 9) if prev else ', '.join(['lol'] * 9)}]\n"
        for prev, name in zip(["", "a", "b", "c", "d", "e", "f", "g", "h"], "abcdefghi", strict=True)
    )
    + "---\n\n# T\n"
)


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _run(*args: str, cwd: Path, stdin: bytes | None = None, cpu_seconds: int | None = None) -> subprocess.CompletedProcess[bytes]:
    """confnotes in a fresh process; with ``cpu_seconds``, the kernel stops it after that much CPU time
    (a bound on work, unlike a wall-clock bound, holds on a busy machine)."""

    def limit() -> None:
        if cpu_seconds is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))

    return subprocess.run(
        [sys.executable, "-m", "confnotes", *args], capture_output=True, cwd=cwd, input=stdin, timeout=600, preexec_fn=limit
    )


# ------------------------------------------------------------------ site index and manifests


def test_index_link_from_a_hostile_file_name_is_not_a_script(cli, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "javascript:alert(document.domain).md").write_text("# x\n")
    assert cli("build", str(notes), "-o", str(tmp_path / "site"), "--to", "html", "-j", "1").exit_code == 0
    index = (tmp_path / "site" / "index.html").read_text()
    hrefs = re.findall(r'href="([^"]+)"', index)
    assert hrefs and all(href.startswith("./") for href in hrefs)
    assert "javascript:" not in " ".join(hrefs)


def test_yaml_alias_bomb_is_one_error_line_bounded_and_small(tmp_path, processes):
    assert len(BOMB.encode()) < 700
    note = tmp_path / "bomb.md"
    note.write_text(BOMB)
    for args in (
        ["outline", "bomb.md"],
        ["lint", "--no-cache", "bomb.md"],
        ["render", "bomb.md", "-o", "-"],
        ["fmt", "--check", "bomb.md"],
    ):
        proc = _run(*args, cwd=tmp_path, cpu_seconds=20)  # expanding the bomb would take far more
        assert proc.returncode == 2, args
        assert proc.stderr.decode().strip().splitlines() == [
            "bomb.md:3:1: front matter uses a YAML alias (*name); write the value out instead"
        ], args
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "bomb.md").write_text(BOMB)
    proc = _run("build", "notes", "-o", "site", "--to", "html", "-j", "1", cwd=tmp_path, cpu_seconds=20)
    assert proc.returncode == 1 and b"front matter uses a YAML alias" in proc.stderr and b"Traceback" not in proc.stderr
    # and in-process, the parse of the bomb stays small
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    from confnotes.errors import NotesError
    from confnotes.parse import parse

    with pytest.raises(NotesError):
        parse(BOMB, "bomb.md")
    assert (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) < 200 * 1024


def test_tampered_manifest_never_removes_files_outside_the_site(cli, tmp_path):
    notes, site = tmp_path / "notes", tmp_path / "site"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / "folder").mkdir()
    assert cli("build", str(notes), "-o", str(site), "--to", "html", "-j", "1").exit_code == 0
    manifest = site / ".confnotes-manifest.json"
    data = json.loads(manifest.read_text())
    data["notes"]["gone.md"] = {"rel": "gone.md", "key": "x", "outputs": {"html": "../victim.txt", "pdf": "../folder"}}
    manifest.write_text(json.dumps(data))
    assert cli("build", str(notes), "-o", str(site), "--to", "html", "-j", "1").exit_code == 0
    assert victim.read_text() == "keep me" and (tmp_path / "folder").is_dir()


@pytest.mark.parametrize(
    "content",
    ["{", "[1, 2]", '{"notes": {"a.md": 3}}', '{"notes": {"a.md": {"outputs": 5}}}', '{"notes": []}'],
    ids=["broken", "list", "entry", "outputs", "notes-list"],
)
def test_malformed_manifest_means_a_rebuild(cli, tmp_path, content):
    notes, site = tmp_path / "notes", tmp_path / "site"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n")
    site.mkdir()
    (site / ".confnotes-manifest.json").write_text(content)
    (site / ".confnotes-manifest.shard-1-of-2.json").write_text(content)
    result = cli("build", str(notes), "-o", str(site), "--to", "html", "-j", "1")
    assert result.exit_code == 0 and "rendered 1" in result.stdout
    merged = cli("build", "--merge", "-o", str(site))  # a shard's manifest must be whole: merged, or refused and kept
    assert merged.exit_code == 2 and "Traceback" not in merged.output
    assert (site / ".confnotes-manifest.shard-1-of-2.json").read_text() == content


# ------------------------------------------------------------------ one bad note never stops the build


@pytest.mark.parametrize("row", ["date-key", "link-out", "link-loop", "alias-bomb", "bad-utf8-config", "unreadable-pyproject"])
def test_one_bad_note_fails_alone(cli, tmp_path, row, processes):
    notes, site = tmp_path / "notes", tmp_path / "site"
    notes.mkdir()
    (notes / "good.md").write_text("# Good\n\n## A\n\n- a\n")
    bad = notes / "sub"
    bad.mkdir()
    if row == "date-key":
        (bad / "bad.md").write_text("---\n2024-01-01: x\n---\n# T\n")
    elif row == "link-out":
        (tmp_path / "secret.md").write_text("# secret\n")
        (bad / "bad.md").symlink_to(tmp_path / "secret.md")
    elif row == "link-loop":
        (bad / "bad.md").symlink_to(bad / "bad.md")
    elif row == "alias-bomb":
        (bad / "bad.md").write_text(BOMB)
    elif row == "bad-utf8-config":
        (bad / "bad.md").write_text("# T\n")
        (bad / "confnotes.toml").write_bytes(b'theme = "\xff"\n')
    else:
        (bad / "bad.md").write_text("# T\n")
        pyproject = bad / "pyproject.toml"
        pyproject.write_text("[tool.confnotes]\n")
        pyproject.chmod(0)
    if row == "unreadable-pyproject":  # file modes bind only a process without root's powers
        from helpers import run_confnotes_unprivileged

        proc = run_confnotes_unprivileged("build", str(notes), "-o", str(site), "--to", "html", "-j", "1")
        code, stderr = proc.returncode, proc.stderr
    else:
        result = cli("build", str(notes), "-o", str(site), "--to", "html", "-j", "1")
        code, stderr = result.exit_code, result.stderr
    assert code == 1 and "Traceback" not in stderr
    assert "failed: " in stderr and "sub/bad.md" in stderr
    index = (site / "index.html").read_text()
    assert "./good.html" in index and "Not built (1)" in index and "sub/bad.md" in index
    assert not (site / "sub" / "bad.html").exists()


def test_changing_formats_removes_outputs_no_longer_built(cli, tmp_path):
    notes, site = tmp_path / "notes", tmp_path / "site"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n")
    assert cli("build", str(notes), "-o", str(site), "--to", "html,outline", "-j", "1").exit_code == 0
    assert cli("build", str(notes), "-o", str(site), "--to", "html", "-j", "1").exit_code == 0
    assert (site / "a.html").exists() and not (site / "a.slides.txt").exists()


def test_build_into_an_existing_file_is_one_error_line(cli, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n")
    target = tmp_path / "site.txt"
    target.write_text("not a folder")
    assert one_error_line(cli("build", str(notes), "-o", str(target))) == (
        f"{target}: is a file; the site needs a folder (choose another -o)"
    )
    assert target.read_text() == "not a folder"


# ------------------------------------------------------------------ outputs


def test_marp_neutralises_author_comments_and_styles(cli, tmp_path):
    note = tmp_path / "n.md"
    note.write_text(
        "# T\n\n## A\n\n- p <!-- backgroundImage: url(https://evil.example/x.png) -->\n\n"
        "Text <style>section{background:url(https://evil.example/y)}</style>\n"
    )
    out = cli("render", str(note), "--to", "marp", "-o", "-").stdout
    assert "<!-- backgroundImage" not in out and "<style>" not in out and "&lt;!-- backgroundImage" in out
    (tmp_path / "confnotes.toml").write_text("allow_html = true\n")
    assert "<style>" in cli("render", str(note), "--to", "marp", "-o", "-").stdout


@pytest.mark.parametrize("fmt", ["opml"])
def test_control_characters_keep_xml_well_formed(cli, tmp_path, fmt):
    import xml.etree.ElementTree as ET

    note = tmp_path / "n.md"
    note.write_text("# T\x01\n\n## A\x1b\n\n- b\x0c\n")
    ET.fromstring(cli("outline", str(note), "--format", fmt).stdout.encode())
    bad = tmp_path / "bad\x01.md"
    bad.write_text("# T\n\n## Empty\x1b\n\n## B\n\n- b\n")
    ET.fromstring(cli("lint", str(bad), "--format", "junit", "--no-cache").stdout.encode())


def test_terminal_never_gets_control_sequences_from_notes(cli, tmp_path):
    note = tmp_path / "n.md"
    note.write_text("# T\x1b]0;pwned\x07\n\n## A\x1b[2J\n\n- b\x1b[31m\n\n## Empty \x1b[5m\n")
    tree = cli("outline", str(note)).stdout
    lint = cli("lint", str(note), "--no-cache").stdout
    for out in (tree, lint):
        assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b]0;pwned\\x07" in tree


def test_pptx_with_control_characters(cli, tmp_path):
    from pptx import Presentation

    note = tmp_path / "n.md"
    note.write_text('---\ntitle: "Ti\\x01tle"\nevent: "E\\x1bvent"\nspeakers: ["A\\x02da"]\n---\n\n## A\x01\n\n- b\x0b\n')
    out = tmp_path / "n.pptx"
    result = cli("render", str(note), "--to", "pptx", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert Presentation(str(out)).core_properties.title == "Ti\ufffdtle"


def test_stylesheet_that_is_not_utf8(cli, tmp_path):
    note = tmp_path / "n.md"
    note.write_text("# T\n")
    css = tmp_path / "bad.css"
    css.write_bytes(b"body { color: \xff }")
    for to in ("html", "slides"):
        assert one_error_line(cli("render", str(note), "--to", to, "--css", str(css), "-o", "-")) == (
            f"{css}: cannot read stylesheet: not UTF-8 text"
        )


def test_stdout_on_a_full_disk(tmp_path, processes):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    note = tmp_path / "n.md"
    note.write_text("# T\n\n## A\n\n- b\n" * 2000)
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "confnotes", "outline", str(note)], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120
        )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "cannot write the output" in proc.stderr


def test_images_repeated_many_times_do_not_blow_up_the_page(cli, tmp_path):
    from helpers import tiny_png

    image = tmp_path / "big.png"
    image.write_bytes(tiny_png() + b"\0" * (7 * 1024 * 1024))  # a PNG with 7 MB of trailing bytes
    note = tmp_path / "n.md"
    note.write_text("# T\n\n" + "![big](big.png)\n\n" * 20)
    result = cli("render", str(note), "--to", "html", "-o", "-")
    assert result.exit_code == 0
    assert len(result.stdout) < 40 * 1024 * 1024
    assert result.stdout.count("data:image/png") == 3 and result.stdout.count('src="big.png"') == 17
    assert "linked, not embedded" in result.stderr


def test_deep_quotes_are_refused_like_deep_lists(cli, tmp_path):
    note = tmp_path / "n.md"
    note.write_text("> " * 40 + "deep\n")
    assert one_error_line(cli("outline", str(note))) == f"{note}:1:1: quotes nested deeper than 32 levels; flatten them"


def test_templates_from_a_notes_folder_run_sandboxed(cli, tmp_path):
    (tmp_path / "tpl").mkdir()
    (tmp_path / "confnotes.toml").write_text('templates = "tpl"\n')
    (tmp_path / "tpl" / "note.html").write_text("{{ cycler.__init__.__globals__.os.system('touch pwned') }}")
    note = tmp_path / "n.md"
    note.write_text("# T\n")
    line = one_error_line(cli("render", str(note), "-o", "-"))
    assert "refused in the sandbox" in line and not (tmp_path / "pwned").exists()
    build = cli("build", str(tmp_path), "-o", str(tmp_path / "site"), "--to", "html", "-j", "1")
    assert build.exit_code == 1 and not (tmp_path / "pwned").exists()


def test_templates_compiled_trusted_are_never_loaded_into_the_sandbox(cli, tmp_path, monkeypatch):
    from confnotes import templating

    cache = tmp_path / "compiled"
    monkeypatch.setenv("CONFNOTES_TEMPLATE_CACHE", str(cache))
    templating.environment.cache_clear()
    (tmp_path / "tpl").mkdir()
    (tmp_path / "confnotes.toml").write_text('templates = "tpl"\n')
    (tmp_path / "tpl" / "note.html").write_text("{{ cycler.__init__.__globals__ | length }}")
    note = tmp_path / "n.md"
    note.write_text("# T\n")
    trusted = cli("render", str(note), "-o", "-", "--trust-templates")
    assert trusted.exit_code == 0 and trusted.stdout.strip().isdigit()
    templating.environment.cache_clear()
    assert "refused in the sandbox" in one_error_line(cli("render", str(note), "-o", "-"))
    # Jinja 3.1 checks attribute access as the template runs, so the refusal above holds even with a
    # shared cache; the split below is what keeps code compiled for a trusted run out of the sandbox
    kinds = {path.name.split(".")[1] for path in cache.iterdir()}
    assert kinds == {"trusted", "sandboxed"}
    templating.environment.cache_clear()


# ------------------------------------------------------------------ data safety


def test_fix_keeps_each_lines_own_ending(cli, tmp_path):
    note = tmp_path / "n.md"
    note.write_bytes(b"# T\r\n\n## A\r\n\n1. a\n3. b\r\n\ntext\n")
    assert cli("lint", "--fix", "--no-cache", str(note)).exit_code == 0
    assert note.read_bytes() == b"# T\r\n\n## A\r\n\n1. a\n2. b\r\n\ntext\n"  # only the number changed


@pytest.mark.parametrize("command", ["fmt", "fix"])
def test_fmt_and_fix_write_through_a_symlink(cli, tmp_path, command):
    target = tmp_path / "real.md"
    target.write_text("Retro  \n\n\nWent well\n\n• booth duty\n\n1. a\n3. b\n")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    args = ("fmt", str(link)) if command == "fmt" else ("lint", "--fix", "--no-cache", str(link))
    cli(*args)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() != "Retro  \n\n\nWent well\n\n• booth duty\n\n1. a\n3. b\n"


def test_stdin_over_the_limit_is_an_error(tmp_path, monkeypatch):
    import io

    from confnotes.edges.source import MAX_BYTES, read_source
    from confnotes.errors import NotesError

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a" * (MAX_BYTES + 1))))
    with pytest.raises(NotesError, match=r"standard input is more than the 64 MiB \(67,108,864-byte\) limit"):
        read_source("-")


@pytest.mark.parametrize(
    "content",
    [
        '{"version": "0.2.0", "entries": []}',
        '{"version": "0.2.0", "entries": {"x": 1}}',
        "[]",
        '{"version": "0.2.0", "entries": {"ABS": {"digest": "D", "links": 3}}}',
    ],
    ids=["entries-list", "entry-int", "list", "links-int"],
)
def test_lint_cache_of_the_wrong_shape_is_a_miss(cli, tmp_path, monkeypatch, content):
    from confnotes import __version__

    note = tmp_path / "n.md"
    note.write_text("# T\n\n## Empty\n\n## B\n\n- b\n")
    cache = tmp_path / "cache"
    cache.mkdir()
    from confnotes.check import CACHE_FILE

    (cache / CACHE_FILE).write_text(content.replace("0.2.0", __version__).replace("ABS", str(note)))
    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(cache))
    result = cli("lint", str(note))
    assert result.exit_code == 1 and "CN104" in result.stdout and "Traceback" not in result.output


def test_serve_bind_failure_leaves_nothing_behind(tmp_path, processes):
    import socket

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n")
    temp = tmp_path / "tmp"
    temp.mkdir()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, "-m", "confnotes", "serve", str(notes), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "TMPDIR": str(temp)},
        )
    assert proc.returncode == 2 and proc.stderr.startswith(f"confnotes: cannot listen on 127.0.0.1:{port}")
    assert "Traceback" not in proc.stderr and list(temp.iterdir()) == []


def test_serve_shows_a_broken_config_and_keeps_watching(tmp_path, processes):
    import urllib.request

    from test_decisions import _lines_of, _serve, saved_until

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Talk\n\n- first\n")
    proc, port = _serve(notes, {})
    try:
        lines = _lines_of(proc.stderr)
        assert saved_until(lambda: (notes / "confnotes.toml").write_text("theme = 3\n"), lines, "confnotes.toml")
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/talk.html", timeout=120).read().decode()
        assert "did not build" in page and "must be a string" in page and "first" in page
        (notes / "confnotes.toml").unlink()
        out = _lines_of(proc.stdout)
        for _ in range(40):  # each save is followed by a rebuild; stop when the page shows it
            saved_until(lambda: (notes / "talk.md").write_text("# Talk\n\n- second\n"), out, "rebuilt", attempts=1)
            page = urllib.request.urlopen(f"http://127.0.0.1:{port}/talk.html", timeout=120).read().decode()
            if "second" in page:
                break
        assert "second" in page and "did not build" not in page
    finally:
        proc.terminate()
        proc.wait(timeout=120)
