"""Hostile input, one row each: the exit code and the message are what a user would want.

Rows already covered in test_bad_input.py: invalid UTF-8, UTF-16 with a BOM, NUL bytes,
a 10,000-deep list and an unreadable file; in test_render_html.py: output equal to input.
"""

from __future__ import annotations

import errno
import json
import os

import pytest

from helpers import one_error_line, run_confnotes_unprivileged


@pytest.mark.parametrize("content", [b"", b"   \n\t\n  \n"], ids=["empty", "whitespace-only"])
def test_empty_and_whitespace_only(cli, tmp_path, content):
    note = tmp_path / "blank.md"
    note.write_bytes(content)
    result = cli("outline", str(note), "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["content"] == [] and data["meta"]["title"] == "blank"
    lint = cli("lint", str(note), "--format", "json", "--no-cache")
    assert [f["name"] for f in json.loads(lint.stdout)] == ["no-title"]


def test_twenty_megabyte_note(cli, tmp_path, stress):
    paragraph = "Scaling systems demands proactive design for failure and simplification. " * 10 + "\n\n"
    note = tmp_path / "huge.md"
    note.write_text("# Big\n\n## Part\n\n" + paragraph * (20_000_000 // len(paragraph)))
    assert note.stat().st_size > 19_000_000
    result = cli("outline", str(note))
    assert result.exit_code == 0
    assert f"    · {20_000_000 // len(paragraph)} paragraphs  :5" in result.stdout


def test_note_over_the_size_limit(cli, tmp_path):
    note = tmp_path / "giant.md"
    with open(note, "wb") as handle:
        handle.truncate(65 * 1024 * 1024)
    assert (
        one_error_line(cli("outline", str(note)))
        == f"{note}: file is {65 * 1024 * 1024:,} bytes, more than the 64 MiB (67,108,864-byte) limit"
    )


def test_hundred_thousand_headings(cli, tmp_path, stress):
    note = tmp_path / "headings.md"
    note.write_text("# H\n\n" + "".join(f"## Heading {i}\n" for i in range(100_000)))
    result = cli("outline", str(note), "--format", "json")
    assert result.exit_code == 0
    assert len(json.loads(result.stdout)["content"]) == 100_000


def test_one_megabyte_line(cli, tmp_path):
    note = tmp_path / "line.md"
    note.write_text("# T\n\n## A\n\n" + "word " * 200_000 + "\n")
    result = cli("outline", str(note), "--format", "json")
    assert result.exit_code == 0
    assert len(json.loads(result.stdout)["content"][0]["content"][0]["text"]) == 1_000_000  # verbatim, trailing space kept


def test_symlink_loop_in_a_folder(cli, tmp_path):
    folder = tmp_path / "notes"
    (folder / "day1").mkdir(parents=True)
    (folder / "day1" / "talk.md").write_text("# Talk\n\n## A\n\n- a\n- b\n")
    (folder / "day1" / "loop").symlink_to(folder, target_is_directory=True)
    (folder / "self").symlink_to("self")  # a link to itself
    result = cli("lint", str(folder), "--format", "json", "--no-cache")
    assert result.exit_code == 0 and json.loads(result.stdout) == []


def test_note_named_dash(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_text("# Dash\n\n## A\n\n- a\n")
    result = cli("outline", "./-", "--format", "json")
    assert json.loads(result.stdout)["meta"]["title"] == "Dash"
    stdin = cli("outline", "-", "--format", "json", input="# From stdin\n")
    assert json.loads(stdin.stdout)["meta"]["title"] == "From stdin"


def test_output_folder_not_writable(tmp_path, processes):
    """Runs without root's power to ignore file modes (the suite may run as root)."""
    folder = tmp_path / "readonly"
    folder.mkdir()
    note = folder / "talk.md"
    note.write_text("# Talk\n\n## A\n\n- a\n")
    folder.chmod(0o555)
    try:
        proc = run_confnotes_unprivileged("render", str(note))
    finally:
        folder.chmod(0o755)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"{folder}/talk.html: cannot write here: permission denied"


def test_disk_full_keeps_the_old_file(cli, tmp_path, monkeypatch):
    note = tmp_path / "talk.md"
    original = "Talk\t\n\nPart\n\n\n• pasted bullet\n"
    note.write_text(original)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    result = cli("fmt", str(note))
    assert result.exit_code == 2
    assert one_error_line(result) == f"{note}: cannot write: no space left on device"
    assert note.read_text() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["talk.md"], "a temp file was left behind"


def test_output_to_a_device_or_pipe_is_written_not_replaced(cli, tmp_path):
    """-o /dev/null or a FIFO must be written into; an atomic rename would replace the device."""
    import stat
    import threading

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()))
    reader.start()
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## A\n\n- a\n")
    result = cli("render", str(note), "-o", str(pipe))
    reader.join(timeout=120)
    assert result.exit_code == 0
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)
    assert received and received[0].startswith(b"<!DOCTYPE html>")
    assert cli("render", str(note), "-o", os.devnull).exit_code == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
