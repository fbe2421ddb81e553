"""Damaged documents: every truncation and corruption of the fixtures is a note or one NotesError, never a traceback."""

from __future__ import annotations

import random

import pytest

from confnotes.errors import NotesError
from confnotes.importers import convert
from conftest import FIXTURES

SOURCES = sorted(path for path in (FIXTURES / "import").iterdir() if path.suffix in (".docx", ".html", ".zip", ".opml"))


def damaged(data: bytes, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    cuts = [data[: rng.randrange(1, len(data))] for _ in range(4)]
    flips = []
    for _ in range(4):
        broken = bytearray(data)
        for _ in range(8):
            broken[rng.randrange(len(broken))] = rng.randrange(256)
        flips.append(bytes(broken))
    return cuts + flips


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_damaged_documents_give_a_note_or_one_error(path):
    for number, data in enumerate(damaged(path.read_bytes(), len(path.name))):
        try:
            result = convert(data, path.name, "damaged")
        except NotesError as exc:
            assert "\n" not in str(exc) and str(exc).startswith(path.name), str(exc)
        else:
            assert isinstance(result.markdown, str), number
