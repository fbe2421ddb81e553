"""``make demo`` prints the outlines and writes the HTML and PDF of both example notes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def test_make_demo(tmp_path, processes):
    out = tmp_path / "demo"
    bin_dir = Path(sys.executable).parent
    proc = subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), "demo", f"OUT={out}", f"BIN={bin_dir}", "-o", ".venv/.installed"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert "System & Reliability @scale Conference  (title from lede" in proc.stdout
    for name in ("scale2025", "scaling-reading-list"):
        for suffix in ("html", "pdf", "slides.html", "pptx"):
            path = out / f"{name}.{suffix}"
            assert path.stat().st_size > 1000
            assert str(path) in proc.stdout
