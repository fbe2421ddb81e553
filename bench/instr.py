"""Deterministic cost of one job over the first N notes of a folder, for callgrind (bench/run.py).

Usage: python bench/instr.py bare|outline|lint FOLDER N
"""

from __future__ import annotations

import sys
from pathlib import Path


def main() -> None:
    which, folder, count = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    paths = [str(p) for p in sorted(folder.glob("*.md"))[:count]]
    if which == "bare":
        from markdown_it import MarkdownIt

        md = MarkdownIt("commonmark").enable("table")
        for path in paths:
            md.parse(Path(path).read_text(encoding="utf-8"))
    elif which == "outline":
        from confnotes.parse import parse

        for path in paths:
            parse(Path(path).read_text(encoding="utf-8"), path)
    else:
        from confnotes.check import Checker, LintRequest

        checker = Checker(LintRequest(jobs=1))
        for path in paths:
            checker.lint_note(path)


if __name__ == "__main__":
    main()
