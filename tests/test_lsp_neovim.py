"""Headless Neovim (Debian's neovim, as CI installs it) runs confnotes lsp: diagnostics arrive and a quick fix applies."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import require_program

SCRIPT = Path(__file__).resolve().parent / "nvim" / "lsp_check.lua"
NOTE = "# Talk\n\n## Points\n\n1. one\n3. three\n4. four\n"


def test_neovim_opens_a_note_sees_diagnostics_and_applies_a_fix(cli, tmp_path: Path, processes):
    nvim = require_program("nvim", install="apt-get install neovim")
    note = tmp_path / "talk.md"
    note.write_text(NOTE, encoding="utf-8")
    fixed = tmp_path / "fixed.md"
    shutil.copy(note, fixed)
    cli("lint", "--fix", "--no-cache", "--exit-zero", str(fixed))
    out = tmp_path / "result.txt"
    env = {
        **os.environ,
        "CONFNOTES_NOTE": str(note),
        "CONFNOTES_PYTHON": sys.executable,
        "CONFNOTES_OUT": str(out),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),  # no user config, plugins or shada
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    # the timeout only stops a hung editor; it says nothing about speed
    proc = subprocess.run(
        [nvim, "--headless", "--clean", "-n", "-c", f"luafile {SCRIPT}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        cwd=tmp_path,
    )
    assert out.exists(), f"nvim wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}"
    status, *details = out.read_text(encoding="utf-8").splitlines()
    assert status == "ok", "\n".join(details)
    assert details[0].startswith("diagnostic CN105 line 6: points jump from 1 to 3")
    buffer = details[details.index("--- buffer") + 1 :]
    assert "\n".join(buffer) + "\n" == fixed.read_text(encoding="utf-8")
    assert note.read_text(encoding="utf-8") == NOTE  # the fix changed the buffer, the file is unsaved
