"""Shared test fixtures: paths, the golden-file flag and a CLI runner."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
NOTES = ROOT / "notes"
sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite golden files from current output")


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture
def cli():
    """Run ``confnotes`` in-process; returns click's Result (exit_code, stdout, stderr)."""
    from click.testing import CliRunner

    from confnotes.cli import main

    def run(*args: str, input: str | bytes | None = None):
        return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)

    return run
