"""Every test takes its formats from the one table (``render.formats.FORMATS``, through
``helpers.formats_where``): a list of formats copied by hand drifts (the never-leak test listed 8
formats, without Word, and the matrix and eight more files kept lists of their own)."""

from __future__ import annotations

import ast
from pathlib import Path

from confnotes.render.formats import FORMATS, RENDER_TARGETS
from helpers import formats_where

TESTS = Path(__file__).resolve().parent
#: a literal list naming this many output formats is a copy of the table
COPIED = 4


def copied_lists(source: str) -> list[int]:
    """The lines of each literal list, tuple or set of ``COPIED`` or more output format names."""
    names = set(RENDER_TARGETS)
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.Tuple, ast.List, ast.Set))
        and len(node.elts) >= COPIED
        and all(isinstance(elt, ast.Constant) and elt.value in names for elt in node.elts)
    ]


def test_no_test_keeps_its_own_list_of_formats():
    found = [f"{path.name}:{line}" for path in sorted(TESTS.glob("*.py")) for line in copied_lists(path.read_text(encoding="utf-8"))]
    assert not found, f"take these from helpers.formats_where(): {found}"


def test_the_check_finds_a_copied_list_and_lets_a_pair_through():
    assert copied_lists('FORMATS = ("slides", "slides-pdf", "handout", "marp", "pptx", "outline", "html", "pdf")\n') == [1]
    assert copied_lists('OUTPUTS = ("slides", "pptx")\n') == []


def test_the_derived_lists_follow_the_table():
    assert formats_where() == tuple(FORMATS) and "docx" in formats_where()
    assert set(formats_where(deck=True)) == {name for name, fmt in FORMATS.items() if fmt.deck} >= {"slides", "pptx"}
    assert set(formats_where(printed=True)) == {"pdf", "slides-pdf", "handout"}


def test_a_folders_walk_leaves_out_the_outputs_that_end_like_a_note(tmp_path):
    """``render --to marp`` writes ``talk.marp.md`` beside the note: a walk of the folder (lint,
    build, serve) took it for a second note and built a deck of the deck."""
    from confnotes.edges.source import NOTE_SUFFIXES, OWN_OUTPUT_SUFFIXES, discover
    from confnotes.render.formats import FORMATS

    ending_like_a_note = {fmt.suffix for fmt in FORMATS.values() if fmt.suffix.endswith(NOTE_SUFFIXES)}
    assert ending_like_a_note == set(OWN_OUTPUT_SUFFIXES)
    (tmp_path / "talk.md").write_text("# Talk\n", encoding="utf-8")
    (tmp_path / "talk.marp.md").write_text("---\nmarp: true\n---\n\n# Talk\n", encoding="utf-8")
    assert discover([str(tmp_path)]) == [str(tmp_path / "talk.md")]
    assert discover([str(tmp_path / "talk.marp.md")]) == [str(tmp_path / "talk.marp.md")]  # named: read as asked
