"""CN207 empty-link and CN208 missing-alt-text against markdownlint's MD042 and MD045 on the same
note (issue 49): reference links to an empty definition, ``![][ref]`` and ``<img>`` without ``alt``
are found where markdownlint finds them, at the same line and column."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from confnotes.api import lint_note
from conftest import FIXTURES, ROOT
from helpers import require

NOTE = FIXTURES / "markdownlint" / "links-and-images.md"
RULES = {"MD042": "CN207", "MD045": "CN208"}


def _markdownlint() -> str:
    local = ROOT / ".ci" / "node_modules" / ".bin" / "markdownlint-cli2"
    return require(
        str(local) if local.exists() else None, "markdownlint-cli2 is not installed (npm install --prefix .ci markdownlint-cli2)"
    )


def test_empty_links_and_missing_alt_text_are_where_markdownlint_finds_them(tmp_path: Path, processes):
    program = _markdownlint()
    note = tmp_path / NOTE.name
    note.write_bytes(NOTE.read_bytes())
    (tmp_path / ".markdownlint-cli2.jsonc").write_text(json.dumps({"config": {"default": False, "MD042": True, "MD045": True}}))
    result = subprocess.run([program, note.name], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    theirs = sorted(
        (RULES[rule], int(line), int(col or 1))
        for line, col, rule in re.findall(r"^\S+?:(\d+)(?::(\d+))? error (MD04[25])/", result.stdout + result.stderr, re.MULTILINE)
    )
    ours = sorted((finding.rule, finding.line, finding.col) for finding in lint_note(note, select=["CN207", "CN208"]))
    assert len(theirs) >= 8, result.stdout + result.stderr
    assert ours == theirs
