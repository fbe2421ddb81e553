"""Print docs/rules.md from the rule catalogue: ``python -m confnotes.lint.docs > docs/rules.md``."""

from __future__ import annotations

import sys

from confnotes.lint.report import catalogue_markdown

if __name__ == "__main__":
    sys.stdout.write(catalogue_markdown())
