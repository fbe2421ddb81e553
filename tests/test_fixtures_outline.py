"""Golden outlines for every fixture note, and the lossless rule on each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from confnotes.edges.source import read_source
from confnotes.export import to_dict
from confnotes.parse import parse_source
from conftest import FIXTURES
from helpers import assert_lossless, check_golden

#: Minimal notes (one recovery rule or Markdown shape each) and notes written the way people write them.
NOTE_FILES = sorted((FIXTURES / "notes").glob("*.md")) + sorted((FIXTURES / "real").glob("*.md"))


def _doc(path: Path):
    source = read_source(path)
    doc = parse_source(source)
    return source, doc


def test_every_note_has_one_golden_and_every_golden_a_note():
    """Goldens are named by note: a renamed or removed note must not leave a stale golden behind."""
    stems = [path.stem for path in NOTE_FILES]
    assert len(set(stems)) == len(stems), "two notes would share a golden"
    goldens = {path.stem for path in (FIXTURES / "outline").glob("*.json")}
    assert goldens == set(stems)
    assert len(list((FIXTURES / "real").glob("*.md"))) >= 40


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


@pytest.mark.parametrize("path", NOTE_FILES, ids=lambda p: p.stem)
def test_item_levels_match_their_nesting(path: Path):
    from confnotes.model import walk

    _, doc = _doc(path)
    for node, ancestors in walk(doc.nodes):
        if not node.is_section:
            assert node.level == 1 + sum(1 for a in ancestors if not a.is_section), (node.title, node.level)
