"""Lint: a structure linter for notes, with a documented rule catalogue and autofixes."""
