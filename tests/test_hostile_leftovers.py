"""What still failed after the last round of attacks (issue 50): a FIFO named by raw HTML in a PDF,
Marp keeping links to ``smb:`` and ``file:``, a preview whose terminal closed, a site built into its
own notes folder. Each test fails before its fix."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from test_decisions import _serve

posix = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and SIGHUP are POSIX")


@posix
def test_a_fifo_named_by_raw_html_does_not_hold_the_pdf(tmp_path: Path, weasyprint, processes):
    os.mkfifo(tmp_path / "pipe.png")
    (tmp_path / "confnotes.toml").write_text("allow_html = true\n", encoding="utf-8")
    (tmp_path / "talk.md").write_text('# Talk\n\n## Diagram\n\n- before\n\n<img src="pipe.png" alt="wedge">\n\n- after\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "confnotes", "render", "talk.md", "--to", "pdf", "-o", "talk.pdf"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,  # before: it waited on the FIFO for ever
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "talk.pdf").read_bytes().startswith(b"%PDF")
    warnings = [line for line in done.stderr.splitlines() if "pipe.png" in line]
    assert warnings == ["talk.md: warning: refused to fetch pipe.png (not a regular file)"], done.stderr


LINKS = (
    "# Talk\n\n## Links\n\n"
    "- slides on [the share](smb://fileserver/talks/deck.pptx) and [local copy](file:///etc/passwd)\n"
    "- mirror <smb://fileserver/mirror> and ftp://files.example.org/talk.zip\n"
    "- kept: [the site](https://example.org/talk) and <mailto:speaker@example.org>\n"
    "- code stays: `[x](smb://in/code)`\n"
)


def test_marp_keeps_no_link_to_an_unsafe_scheme(cli, tmp_path: Path):
    from confnotes.render.marp_guard import unsafe_hrefs

    note = tmp_path / "talk.md"
    note.write_text(LINKS, encoding="utf-8")
    result = cli("render", str(note), "--to", "marp", "-o", str(tmp_path / "talk.marp.md"))
    assert result.exit_code == 0, result.output
    deck = (tmp_path / "talk.marp.md").read_text(encoding="utf-8")
    assert unsafe_hrefs(deck) == []  # what markdown-it (Marp's parser) would link
    for words in ("the share", "local copy", "the site", "code stays"):
        assert words in deck
    assert "](https://example.org/talk)" in deck and "<mailto:speaker@example.org>" in deck
    assert "`[x](smb://in/code)`" in deck
    assert "dropped unsafe link 'smb://fileserver/talks/deck.pptx'" in result.stderr


@pytest.mark.parametrize("inside", [".", ".."])
def test_a_site_is_never_built_into_its_own_notes_folder(cli, tmp_path: Path, inside: str):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Talk\n\n## Part\n\n- a point\n", encoding="utf-8")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    result = cli("build", str(notes), "-o", os.path.normpath(notes / inside))
    assert result.exit_code == 2
    assert "is the notes folder or holds it" in result.stderr and result.stderr.count("\n") == 1
    assert sorted(p.name for p in tmp_path.rglob("*")) == before, "nothing written"


@posix
def test_serve_removes_its_folder_when_its_terminal_closes(tmp_path: Path, processes):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Talk\n\n## Part\n\n- a point\n", encoding="utf-8")
    temp = tmp_path / "tmp"
    temp.mkdir()
    proc, _port = _serve(notes, {"TMPDIR": str(temp)})
    assert list(temp.iterdir()), "the preview builds into a temporary folder"
    proc.send_signal(signal.SIGHUP)
    proc.wait(timeout=120)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    assert list(temp.iterdir()) == [], "the preview's temporary folder is left behind"
