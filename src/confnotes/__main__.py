"""Allow ``python -m confnotes``."""

from confnotes.cli import main

main()
