"""Golden outlines for every fixture note, and the lossless rule on each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from confnotes.export import to_dict
from confnotes.parse import parse_source
from confnotes.source import read_source
from conftest import FIXTURES
from helpers import assert_lossless, check_golden

NOTE_FILES = sorted((FIXTURES / "notes").glob("*.md"))


def _doc(path: Path):
    source = read_source(path)
    doc = parse_source(source)
    return source, doc


def test_enough_fixtures():
    assert len(NOTE_FILES) >= 20


@pytest.mark.parametrize("path", NOTE_FILES, ids=lambda p: p.stem)
def test_outline_golden(path: Path, update_goldens: bool):
    _, doc = _doc(path)
    data = to_dict(doc)
    data["path"] = path.name
    actual = json.dumps(data, ensure_ascii=False, indent=1, default=str) + "\n"
    check_golden(FIXTURES / "outline" / f"{path.stem}.json", actual, update_goldens)


@pytest.mark.parametrize("path", NOTE_FILES, ids=lambda p: p.stem)
def test_fixture_lossless(path: Path):
    source, doc = _doc(path)
    assert_lossless(source.text, doc)
