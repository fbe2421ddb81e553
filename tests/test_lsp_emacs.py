"""Emacs (Debian's emacs-nox with elpa-eglot, as CI installs them) runs confnotes lsp headless
with the setup docs/editors.md gives, verbatim: diagnostics through Flymake honouring the
settings, the outline through imenu, a quick fix and formatting."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import require, require_program

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "emacs" / "eglot_check.el"
NOTE = "---\nduration: 40min\n---\n# Talk\n\n## Points\n\n1. one\n3. three\n4. four\n\n## More\n\n*   a\n*   b\n"


def _setup() -> str:
    """The elisp block under "Emacs (eglot)" in docs/editors.md."""
    page = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    section = page[page.index("## Emacs (eglot)") :]
    found = re.search(r"```elisp\n(.*?)```", section, flags=re.S)
    assert found is not None, "docs/editors.md has no elisp setup under Emacs (eglot)"
    return found.group(1)


def _emacs() -> str:
    emacs = require_program("emacs", install="apt-get install emacs-nox elpa-eglot elpa-markdown-mode")
    probe = subprocess.run(
        [emacs, "--batch", "--eval", "(progn (require 'eglot) (require 'markdown-mode))"], capture_output=True, text=True, timeout=60
    )
    return require(
        emacs if probe.returncode == 0 else None, "eglot or markdown-mode is not installed (apt-get install elpa-eglot elpa-markdown-mode)"
    )


def test_emacs_eglot_with_the_documented_setup_sees_findings_outline_fix_and_format(cli, tmp_path: Path, processes):
    emacs = _emacs()
    git = require_program("git", install="apt-get install git")
    subprocess.run([git, "init", "-q", str(tmp_path)], check=True, timeout=60)  # eglot's project: the repository
    (tmp_path / "setup.el").write_text(_setup(), encoding="utf-8")
    note = tmp_path / "talk.md"
    note.write_text(NOTE, encoding="utf-8")
    expected = tmp_path / "expected.md"
    shutil.copy(note, expected)
    linted = cli("lint", "--no-cache", "--exit-zero", str(expected)).output
    assert "CN305" in linted and "CN105" in linted  # lint shows the info finding the settings hide
    cli("lint", "--fix", "--no-cache", "--exit-zero", str(expected))
    cli("fmt", str(expected))
    out = tmp_path / "result.txt"
    env = {
        **os.environ,
        "HOME": str(tmp_path),  # no user init file or packages
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",  # "confnotes" as the setup names it
        "CONFNOTES_SETUP": str(tmp_path / "setup.el"),
        "CONFNOTES_NOTE": str(note),
        "CONFNOTES_OUT": str(out),
    }
    # the timeout only stops a hung editor; it says nothing about speed
    proc = subprocess.run([emacs, "--batch", "-l", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert out.exists(), f"emacs wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}"
    status, *details = out.read_text(encoding="utf-8").splitlines()
    assert status == "ok", "\n".join(details) + proc.stderr[-2000:]
    diagnostics = [line for line in details if line.startswith("diagnostic")]
    assert diagnostics == ["diagnostic line 9: confnotes [CN105]: points jump from 1 to 3 (numbering)"]  # no CN305: info off
    symbols = [line.removeprefix("symbol ") for line in details if line.startswith("symbol ")]
    assert sorted(symbols) == sorted(["Points", "one", "three", "four", "More", "a", "b"])  # eglot 1.9 groups them by kind
    assert any(line.startswith("actions renumber points 1, 2, 3 (CN105)") for line in details)
    buffer = details[details.index("--- buffer") + 1 :]
    assert "\n".join(buffer) + "\n" == expected.read_text(encoding="utf-8")
    assert note.read_text(encoding="utf-8") == NOTE  # the fix and the format changed the buffer, not the file
