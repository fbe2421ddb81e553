"""Headless Neovim (Debian's neovim, as CI installs it) runs confnotes lsp: diagnostics arrive and a quick fix applies."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import require_program

SCRIPT = Path(__file__).resolve().parent / "nvim" / "lsp_check.lua"
SESSION = Path(__file__).resolve().parent / "nvim" / "lsp_session.lua"
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


TALK = """---
duration: 20min
---
# Error budgets

## Why budgets fail

*   product never agreed
*   nobody stops shipping

## A policy

1. at 50% burn
3. at 75% burn
"""


def test_neovim_07_shows_symbols_lenses_formats_and_reloads_a_config(cli, tmp_path: Path, processes):
    """The rest of docs/editors.md's promises for Neovim, in the Neovim CI has (0.7): document symbols
    are the outline, lenses the talk clock, formatting is fmt's text, and a confnotes.toml written on
    disk re-checks the note with no edit (0.7 registers no file watchers)."""
    nvim = require_program("nvim", install="apt-get install neovim")
    note = tmp_path / "talk.md"
    note.write_text(TALK, encoding="utf-8")
    formatted = tmp_path / "formatted.md"
    formatted.write_text(TALK, encoding="utf-8")
    cli("fmt", str(formatted))
    out = tmp_path / "result.txt"
    env = {
        **os.environ,
        "CONFNOTES_NOTE": str(note),
        "CONFNOTES_PYTHON": sys.executable,
        "CONFNOTES_OUT": str(out),
        "CONFNOTES_CONFIG": str(tmp_path / "confnotes.toml"),
        "CONFNOTES_CONFIG_TEXT": '[lint]\nignore = ["numbering"]\n',
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    proc = subprocess.run(
        [nvim, "--headless", "--clean", "-n", "-c", f"luafile {SESSION}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert out.exists(), f"nvim wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}"
    status, *details = out.read_text(encoding="utf-8").splitlines()
    assert status == "ok", "\n".join(details)
    assert "symbol Why budgets fail line 6" in details and "symbol A policy line 11" in details
    lenses = [line for line in details if line.startswith("lens ")]
    assert any("slot" in line for line in lenses) and "lens line 4: Preview deck" in lenses
    text = details[details.index("--- formatted") + 1 : details.index("--- end")]
    assert "\n".join(text) + "\n" == formatted.read_text(encoding="utf-8")
    counts = [int(line.rsplit(" ", 1)[1]) for line in details if line.startswith("diagnostics")]
    assert counts[0] > counts[-1], details


SETUP = Path(__file__).resolve().parent / "nvim" / "lsp_setup07.lua"
EDITORS = Path(__file__).resolve().parent.parent / "docs" / "editors.md"
PASTED_TALK = TALK.replace("*   product", "• product").replace("*   nobody", "• nobody")


def documented_setup() -> str:
    """The Lua block docs/editors.md gives for Neovim 0.7 (after its marker), as written."""
    text = EDITORS.read_text(encoding="utf-8")
    return text.split("<!-- neovim 0.7: run as written by tests/test_lsp_neovim.py -->", 1)[1].split("```lua\n", 1)[1].split("```", 1)[0]


def test_neovim_07_runs_the_documented_setup_as_written(tmp_path: Path, processes):
    """The 0.7 setup in docs/editors.md, run verbatim: its settings reach the server (0.7 sends no
    ``settings`` and answers no ``workspace/configuration``, so they go in ``init_options``: the
    info finding is not shown), and the first note gets its lenses (a refresh on ``BufEnter`` left
    the first buffer without them)."""
    nvim = require_program("nvim", install="apt-get install neovim")
    note = tmp_path / "talk.md"
    note.write_text(PASTED_TALK, encoding="utf-8")
    setup = tmp_path / "setup.lua"
    setup.write_text(documented_setup(), encoding="utf-8")
    out = tmp_path / "result.txt"
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),  # `confnotes` as installed
        "CONFNOTES_SETUP": str(setup),
        "CONFNOTES_NOTE": str(note),
        "CONFNOTES_OUT": str(out),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    proc = subprocess.run(
        [nvim, "--headless", "--clean", "-n", "-c", f"luafile {SETUP}"], env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert out.exists(), f"nvim wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}"
    status, *details = out.read_text(encoding="utf-8").splitlines()
    assert status == "ok", "\n".join(details)
    diagnostics = [line for line in details if line.startswith("diagnostic ")]
    assert "diagnostic CN105 severity 2" in diagnostics  # the warning is shown
    assert not any(line.startswith("diagnostic CN110") for line in diagnostics), details  # info is off, as set
    assert any(line.startswith("lens ") and "slot" in line for line in details), details
