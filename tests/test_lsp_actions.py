"""The editor's "disable CNxxx on this line" action: the finding goes, nothing else changes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from confnotes.lsp import features
from confnotes.lsp.analysis import analyse, silences
from lsp_helpers import REALISTIC, ROOT, apply_edits, read_client_text


def name_of(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", REALISTIC, ids=name_of)
def test_disable_next_line_silences_only_that_finding(path: Path):
    """The comment lands where it works for every finding below the first line; a finding on the first
    line (no-title, a note that opens with pasted text) has no line above it to hold a comment."""
    text = read_client_text(path)
    before = analyse(str(path), text)
    for finding in before.findings:
        edit = features.disable_edit(before, finding)
        if edit is None:  # a finding in the front matter: no comment can stand above it
            front = before.context.doc.meta.front_matter_span if before.context else None
            assert front is not None and finding.line <= front.end
            continue
        if finding.line > 1:
            assert silences(before, finding, apply_edits(text, [edit])), f"disabling {finding.rule} at line {finding.line}"


def test_a_comment_that_would_change_the_note_is_refused():
    path = ROOT / "tests" / "fixtures" / "notes" / "filename-line.md"
    text = read_client_text(path)
    before = analyse(str(path), text)
    (no_title,) = [f for f in before.findings if f.rule == "CN101"]
    edit = features.disable_edit(before, no_title)
    assert edit is not None and not silences(before, no_title, apply_edits(text, [edit]))


def test_lint_does_not_load_the_language_server(processes):
    """pygls and lsprotocol load only for `confnotes lsp` (lint, outline and fmt start light)."""
    import subprocess

    probe = (
        "import sys\nfrom confnotes.cli import main\nsys.argv = ['confnotes', 'lint', sys.argv[1]]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol', 'cattrs')))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe, str(ROOT / "notes" / "scale2025.md")], capture_output=True, text=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_lsp_without_pygls_says_what_to_install(processes):
    import subprocess

    probe = "import sys\nsys.modules['pygls'] = None\nfrom confnotes.cli import main\nsys.argv = ['confnotes', 'lsp']\nmain()\n"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "pip install 'confnotes[lsp]'" in proc.stderr and "Traceback" not in proc.stderr
