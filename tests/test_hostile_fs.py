"""Hostile file systems (issue "Hardening, round 3"): links planted in an output folder or a
templates folder never carry a write, or a read, outside their place.

Each row plants the link, runs the command, and checks that nothing outside changed (a snapshot
of the folder the links point into) and that the one error line names the link.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from confnotes.build import MANIFEST, OUTLINES

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink") or os.name != "posix", reason="needs POSIX symlinks")

LINKED = "is a symbolic link"


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


def _folders(tmp_path: Path) -> tuple[Path, Path, Path]:
    """notes/ (a.md, sub/b.md), an empty site/ and outside/ with files a planted link would reach."""
    notes, site, outside = tmp_path / "notes", tmp_path / "site", tmp_path / "outside"
    (notes / "sub").mkdir(parents=True)
    (notes / "a.md").write_text("# A\n\n## One\n\n- a point\n")
    (notes / "sub" / "b.md").write_text("# B\n\n## Two\n\n- b point\n")
    (outside / "dir").mkdir(parents=True)
    for name in ("a.html", "index.html", "manifest.json", "outline.json", "dir/b.html"):
        (outside / name).write_text(f"precious {name}\n")
    return notes, site, outside


def _build(cli, notes: Path, site: Path, *more: str):
    return cli("build", str(notes), "-o", str(site), "--to", "html", "-j", "1", *more)


#: (the name planted in the site, where it points inside outside/)
PLANTED = [
    ("a.html", "a.html"),  # a note's output
    ("sub", "dir"),  # a folder of outputs
    ("index.html", "index.html"),
    (MANIFEST, "manifest.json"),
    ("outline.json", "outline.json"),
    (OUTLINES, "dir"),  # the folder of each note's outline
]


@pytest.mark.parametrize(("planted", "target"), PLANTED, ids=[name for name, _ in PLANTED])
def test_a_link_planted_in_the_site_is_never_written_through(cli, tmp_path, planted, target):
    notes, site, outside = _folders(tmp_path)
    assert _build(cli, notes, site).exit_code == 0
    link = site / planted
    if link.is_dir():
        shutil.rmtree(link)
    else:
        link.unlink()
    link.symlink_to(outside / target, target_is_directory=(outside / target).is_dir())
    before = _snapshot(outside)
    (notes / "a.md").write_text("# A\n\n## One\n\n- a changed point\n")
    (notes / "sub" / "b.md").write_text("# B\n\n## Two\n\n- b changed point\n")
    result = _build(cli, notes, site, "--force")
    assert _snapshot(outside) == before, "a file outside the site was written"
    assert result.exit_code in (1, 2)
    assert "Traceback" not in result.stderr
    assert f"{site / planted}: {LINKED}" in result.stderr
    assert link.is_symlink(), "the link was replaced silently"


def test_merge_refuses_a_planted_outline_json_link(cli, tmp_path):
    notes, site, outside = _folders(tmp_path)
    assert _build(cli, notes, site, "--shard", "1/1").exit_code == 0
    (site / "outline.json").symlink_to(outside / "outline.json")
    before = _snapshot(outside)
    result = cli("build", "-o", str(site), "--merge")
    assert _snapshot(outside) == before
    assert result.exit_code == 2
    assert f"{site / 'outline.json'}: {LINKED}" in result.stderr


def test_removed_outputs_are_not_removed_through_a_linked_folder(cli, tmp_path):
    notes, site, outside = _folders(tmp_path)
    assert _build(cli, notes, site).exit_code == 0
    for child in (site / "sub").iterdir():
        child.unlink()
    (site / "sub").rmdir()
    (site / "sub").symlink_to(outside / "dir", target_is_directory=True)
    (notes / "sub" / "b.md").unlink()  # its output, sub/b.html, is removed by the next build
    before = _snapshot(outside)
    assert _build(cli, notes, site).exit_code == 0
    assert _snapshot(outside) == before


def _confnotes(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``confnotes`` in a fresh process, bounded: a read that waits on a pipe fails the test."""
    env = {**os.environ, "CONFNOTES_TEMPLATE_CACHE": ""}
    return subprocess.run([sys.executable, "-m", "confnotes", *args], capture_output=True, text=True, env=env, timeout=timeout)


def test_a_manifest_planted_as_a_link_to_a_pipe_is_never_read(tmp_path, processes):
    """Reading it would wait for ever; it is not read, and the write is refused as for any link."""
    notes, site, outside = _folders(tmp_path)
    site.mkdir()
    os.mkfifo(outside / "pipe")
    (site / MANIFEST).symlink_to(outside / "pipe")
    result = _confnotes("build", str(notes), "-o", str(site), "--to", "html", "-j", "1")
    assert result.returncode in (1, 2) and "Traceback" not in result.stderr
    assert f"{site / MANIFEST}: {LINKED}" in result.stderr


def test_a_manifest_planted_as_a_link_out_of_the_site_decides_nothing(cli, tmp_path):
    """A manifest outside the site that lists a gone note would have the build remove the files it
    names inside the site; a linked manifest is not read."""
    import json

    notes, site, outside = _folders(tmp_path)
    assert _build(cli, notes, site).exit_code == 0
    (site / "kept.html").write_text("a file of the site's owner\n")
    planted = {"notes": {"gone.md": {"rel": "gone.md", "key": "x", "outputs": {"html": "kept.html"}}}}
    (outside / "manifest.json").write_text(json.dumps(planted))
    (site / MANIFEST).unlink()
    (site / MANIFEST).symlink_to(outside / "manifest.json")
    result = _build(cli, notes, site)
    assert "Traceback" not in result.stderr
    assert (site / "kept.html").exists(), "a manifest outside the site removed a file in it"


def test_merge_refuses_a_shard_manifest_planted_as_a_link(cli, tmp_path):
    notes, site, outside = _folders(tmp_path)
    assert _build(cli, notes, site, "--shard", "1/1").exit_code == 0
    shard = site / ".confnotes-manifest.shard-1-of-1.json"
    (outside / "shard.json").write_bytes(shard.read_bytes())
    shard.unlink()
    shard.symlink_to(outside / "shard.json")
    result = cli("build", "-o", str(site), "--merge")
    assert result.exit_code == 2
    assert f"{shard}: cannot read this shard manifest: {LINKED}; not read; nothing was merged" in result.stderr
    assert not (site / MANIFEST).exists()


def test_a_pipe_at_the_manifest_is_not_waited_on(tmp_path, processes):
    notes, site, _outside = _folders(tmp_path)
    site.mkdir()
    os.mkfifo(site / ".confnotes-manifest.shard-1-of-1.json")
    result = _confnotes("build", "-o", str(site), "--merge")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "cannot read this shard manifest: is not a regular file; not read" in result.stderr


def test_render_refuses_a_link_planted_at_its_default_output(cli, tmp_path):
    notes, _site, outside = _folders(tmp_path)
    (notes / "a.html").symlink_to(outside / "a.html")
    before = _snapshot(outside)
    result = cli("render", str(notes / "a.md"))
    assert _snapshot(outside) == before
    assert result.exit_code == 2
    assert (
        result.stderr.strip()
        .splitlines()[-1]
        .endswith(f"{notes / 'a.html'}: {LINKED}; confnotes never writes through a link in its output (remove the link)")
    )


def test_render_writes_into_a_device_the_user_names_through_a_link(cli, tmp_path):
    notes, _site, _outside = _folders(tmp_path)
    link = tmp_path / "null"
    link.symlink_to(os.devnull)
    assert cli("render", str(notes / "a.md"), "-o", str(link)).exit_code == 0
    assert link.is_symlink()


def test_render_into_a_linked_folder_the_user_names_is_allowed(cli, tmp_path):
    """The output's own folder is the user's choice, link or not; only what is below it is checked."""
    notes, _site, outside = _folders(tmp_path)
    (tmp_path / "out").symlink_to(outside / "dir", target_is_directory=True)
    assert cli("render", str(notes / "a.md"), "-o", str(tmp_path / "out" / "a.html")).exit_code == 0
    assert (outside / "dir" / "a.html").read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("planted", ["page.md", "page.assets"])
def test_import_refuses_links_planted_where_it_writes(cli, tmp_path, planted):
    outside = tmp_path / "outside"
    (outside / "images").mkdir(parents=True)
    (outside / "page.md").write_text("precious\n")
    (outside / "images" / "image1.png").write_text("precious\n")
    page = tmp_path / "page.html"
    pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    page.write_text(f"<html><body><h1>Page</h1><p>text</p><img src='data:image/png;base64,{pixel}' alt='dot'></body></html>")
    folder = tmp_path / "imported"
    folder.mkdir()
    target = outside / ("page.md" if planted == "page.md" else "images")
    (folder / planted).symlink_to(target, target_is_directory=target.is_dir())
    before = _snapshot(outside)
    result = cli("import", str(page), "-o", str(folder), "--force")
    assert _snapshot(outside) == before
    assert result.exit_code == 2
    assert LINKED in result.stderr


# ------------------------------------------------------------------ template folders


def _templates(tmp_path: Path, files: dict[str, str]) -> tuple[Path, Path]:
    folder = tmp_path / "tpl"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## A\n\n- a point\n")
    return folder, note


def test_an_include_of_a_link_out_of_the_templates_folder_is_refused(cli, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-VALUE\n")
    folder, note = _templates(tmp_path, {"note.html": '{% include "leak.html" %}'})
    (folder / "leak.html").symlink_to(secret)
    result = cli("render", str(note), "-o", "-", "--templates", str(folder))
    assert "TOP-SECRET-VALUE" not in result.stdout + result.stderr
    assert result.exit_code == 2
    assert f"{folder / 'leak.html'}: links outside the templates folder" in result.stderr


def test_a_link_inside_the_templates_folder_is_followed(cli, tmp_path):
    folder, note = _templates(tmp_path, {"shared.html": "SHARED-PART", "note.html": '{% include "part.html" %}'})
    (folder / "part.html").symlink_to(folder / "shared.html")
    result = cli("render", str(note), "-o", "-", "--templates", str(folder))
    assert result.exit_code == 0, result.stderr
    assert "SHARED-PART" in result.stdout


@pytest.mark.parametrize(("static", "to"), [("note.css", "html"), ("deck.js", "slides"), ("deck.css", "slides")])
def test_static_files_linked_to_the_environment_are_not_read(tmp_path, static, to, processes):
    if not Path("/proc/self/environ").exists():
        pytest.skip("no /proc here")
    folder, note = _templates(tmp_path, {})
    (folder / static).symlink_to("/proc/self/environ")
    env = {**os.environ, "CONFNOTES_PLANTED_TOKEN": "tok-3c1d5e-hostile", "CONFNOTES_TEMPLATE_CACHE": ""}
    result = subprocess.run(
        [sys.executable, "-m", "confnotes", "render", str(note), "--to", to, "-o", "-", "--templates", str(folder)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert "tok-3c1d5e-hostile" not in result.stdout + result.stderr
    assert result.returncode == 2
    assert f"{folder / static}: links outside the templates folder" in result.stderr


def test_a_pipe_in_the_templates_folder_is_refused_not_waited_on(tmp_path, processes):
    folder, note = _templates(tmp_path, {})
    os.mkfifo(folder / "note.css")  # nobody writes into it: reading it would wait for ever
    result = subprocess.run(
        [sys.executable, "-m", "confnotes", "render", str(note), "-o", "-", "--templates", str(folder)],
        capture_output=True,
        text=True,
        env={**os.environ, "CONFNOTES_TEMPLATE_CACHE": ""},
        timeout=300,
    )
    assert result.returncode == 2
    assert f"{folder / 'note.css'}: not a regular file" in result.stderr


def _sparse_file(path: Path, size: int) -> Path:
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


def test_build_never_reads_a_template_file_linked_out_of_its_folder(tmp_path, processes):
    """Hashing the templates folder for incremental builds reads it as rendering does: a link out of
    it (to a secret, or a 3 GB file) is not read, and a build under a 2 GB memory bound completes."""
    import resource

    folder, note = _templates(tmp_path, {"note.html": "MY-PAGE"})
    (folder / "unused.css").symlink_to(_sparse_file(tmp_path / "huge.bin", 3 << 30))
    notes, site = tmp_path / "notes", tmp_path / "site"
    notes.mkdir()
    note.rename(notes / "talk.md")
    (notes / "confnotes.toml").write_text(f"templates = {str(folder)!r}\n")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    result = subprocess.run(
        [sys.executable, "-m", "confnotes", "build", str(notes), "-o", str(site), "--to", "html", "-j", "1"],
        capture_output=True,
        text=True,
        env={**os.environ, "CONFNOTES_TEMPLATE_CACHE": ""},
        timeout=300,
        preexec_fn=limit,
    )
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 0, result.stderr
    assert (site / "talk.html").read_text() == "MY-PAGE"


# ------------------------------------------------------------------ reads that could block


def _one_line(result: subprocess.CompletedProcess[str]) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and "Traceback" not in result.stderr, result.stderr[-2000:]
    return lines[0]


def _never_ending(path: Path, kind: str) -> Path:
    """``path`` made a file whose read never ends: a pipe nobody writes to, or a device (/dev/zero)."""
    if kind == "pipe":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return path


@pytest.mark.parametrize("kind", ["pipe", "device"])
def test_a_reference_pptx_from_a_config_that_is_a_pipe_is_one_error_line(tmp_path, kind, processes):
    """A notes folder's config names the reference PPTX: a pipe there would hold the render for ever."""
    folder, note = _templates(tmp_path, {})
    reference = _never_ending(tmp_path / "ref.pptx", kind)
    (tmp_path / "confnotes.toml").write_text('reference_pptx = "ref.pptx"\n')
    line = _one_line(_confnotes("render", str(note), "--to", "pptx", "-o", str(tmp_path / "talk.pptx")))
    # the config's path, links resolved (/dev/zero for the device)
    assert line == f"{reference.resolve()}: cannot read reference PPTX: not a regular file"
    assert not (tmp_path / "talk.pptx").exists()


@pytest.mark.parametrize("kind", ["pipe", "device"])
def test_rehearsal_timings_that_are_a_pipe_are_one_error_line(tmp_path, kind, processes):
    _folder, note = _templates(tmp_path, {})
    timings = _never_ending(tmp_path / "talk.timings.json", kind)
    line = _one_line(_confnotes("time", str(note), "--rehearsal", str(timings)))
    assert line == f"{timings}: cannot read rehearsal timings: not a regular file"


def test_lint_names_a_pipe_it_is_given_without_waiting_on_it(tmp_path, processes):
    """lint's cache hashed a note before reading it, with a plain read that waited on a pipe."""
    os.mkfifo(tmp_path / "pipe.md")
    result = subprocess.run(
        [sys.executable, "-m", "confnotes", "lint", str(tmp_path / "pipe.md")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "CONFNOTES_CACHE_DIR": str(tmp_path / "cache")},
        timeout=120,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"{tmp_path / 'pipe.md'}: not a regular file" in result.stderr


# ------------------------------------------------------------------ lint's cache in a notes repository


@pytest.mark.parametrize("planted", [".confnotes_cache/lint-v1.json", ".confnotes_cache/.gitignore", ".confnotes_cache"])
def test_lint_never_writes_its_cache_through_a_planted_link(tmp_path, monkeypatch, planted):
    """A repository's ``.confnotes_cache`` (lint's default cache, in the folder lint runs in) may
    hold links: the cache is then not written, and nothing outside changes."""
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    repo.mkdir()
    (outside / "dir").mkdir(parents=True)
    (outside / "file").write_text("precious\n")
    (repo / "talk.md").write_text("# Talk\n\n## A\n\n- a point\n")
    link = repo / planted
    link.parent.mkdir(parents=True, exist_ok=True)
    target = outside / ("dir" if planted == ".confnotes_cache" else "file")
    link.symlink_to(target, target_is_directory=target.is_dir())
    before = _snapshot(outside)
    monkeypatch.chdir(repo)
    monkeypatch.delenv("CONFNOTES_CACHE_DIR", raising=False)
    from click.testing import CliRunner

    from confnotes.cli import main

    result = CliRunner().invoke(main, ["lint", "talk.md"], catch_exceptions=False)
    assert result.exit_code in (0, 1) and "Traceback" not in result.output
    assert _snapshot(outside) == before
    assert sorted(p.name for p in (outside / "dir").iterdir()) == []
