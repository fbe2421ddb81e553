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


#: What `confnotes lint one.md` may import beyond the standard library, and how many of confnotes'
#: own modules; a change that grows either list must grow these on purpose.
LINT_THIRD_PARTY = {"click", "markdown_it", "mdit_py_plugins", "mdurl", "linkify_it", "uc_micro"}
LINT_OWN_MODULES = 64
IMPORTS = """
import json, sys
from confnotes.cli import main
sys.argv = ["confnotes", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
names = sorted(sys.modules)
sys.stderr.write("IMPORTS " + json.dumps(names) + "\\n")
"""


def test_the_import_list_of_lint_does_not_grow(tmp_path):
    note = tmp_path / "one.md"
    note.write_text("# One note\n\n## Part\n\n- a point\n")
    proc = subprocess.run([sys.executable, "-c", IMPORTS, "lint", "--no-cache", str(note)], capture_output=True, text=True)
    line = next(line for line in proc.stderr.splitlines() if line.startswith("IMPORTS "))
    names = json.loads(line.removeprefix("IMPORTS "))
    top = {name.split(".")[0] for name in names}
    third_party = {name for name in top if name not in sys.stdlib_module_names and not name.startswith("_") and name != "confnotes"}
    assert third_party <= LINT_THIRD_PARTY, sorted(third_party - LINT_THIRD_PARTY)
    own = [name for name in names if name.startswith("confnotes")]
    assert len(own) <= LINT_OWN_MODULES, f"{len(own)} confnotes modules imported: {own}"
    assert "yaml" not in top, "a note without front matter does not load YAML"
