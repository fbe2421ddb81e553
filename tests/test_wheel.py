"""An installed wheel carries the templates and renders without the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

from conftest import NOTES, ROOT


def test_wheel_renders_from_its_own_templates(tmp_path, processes):
    dist = tmp_path / "dist"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    wheel = next(dist.glob("confnotes-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "confnotes/templates/note.html" in names
    assert "confnotes/templates/themes/default.css" in names
    assert "confnotes/py.typed" in names  # type information ships with the package
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    # run from a folder without the checkout, importing confnotes only from the unpacked wheel
    env = {**os.environ, "PYTHONPATH": str(site), "PYTHONSAFEPATH": "1"}
    out = tmp_path / "page.html"
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import confnotes, sys; site = sys.argv.pop(1); assert confnotes.__file__.startswith(site), confnotes.__file__;"
            "from confnotes.cli import main; main()",
            str(site),
            "render",
            str(NOTES / "scale2025.md"),
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Core Principles for Scaling Systems" in out.read_text()
