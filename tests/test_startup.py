"""lint, outline and fmt start light: they never import WeasyPrint, python-pptx or Jinja."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import NOTES

HEAVY = ("weasyprint", "pptx", "jinja2")
PROBE = """
import json, sys
from confnotes.cli import main
sys.argv = ["confnotes", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
heavy = sorted({m.split(".")[0] for m in sys.modules} & set(%r))
sys.stderr.write("MODULES " + json.dumps(heavy) + "\\n")
"""


@pytest.mark.parametrize(
    "args",
    [
        ["lint", str(NOTES / "scale2025.md")],
        ["lint", "--fix", "--select", "CN105", str(NOTES / "scaling-reading-list.md")],
        ["outline", str(NOTES / "scale2025.md"), "--format", "json"],
        ["outline", str(NOTES / "scaling-reading-list.md"), "--format", "opml"],
        ["fmt", "--check", str(NOTES / "scale2025.md")],
    ],
)
def test_light_commands_do_not_import_heavy_modules(args):
    proc = subprocess.run([sys.executable, "-c", PROBE % (HEAVY,), *args], capture_output=True, text=True)
    line = next(line for line in proc.stderr.splitlines() if line.startswith("MODULES "))
    assert json.loads(line.removeprefix("MODULES ")) == []


def test_render_pdf_does_import_weasyprint(tmp_path):
    """The probe itself works: a PDF render does load WeasyPrint."""
    out = tmp_path / "x.pdf"
    proc = subprocess.run(
        [sys.executable, "-c", PROBE % (HEAVY,), "render", str(NOTES / "scale2025.md"), "--to", "pdf", "-o", str(out)],
        capture_output=True,
        text=True,
    )
    line = next(line for line in proc.stderr.splitlines() if line.startswith("MODULES "))
    assert "weasyprint" in json.loads(line.removeprefix("MODULES "))
