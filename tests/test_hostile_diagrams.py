"""Diagrams in bounded time (issue 50): a budget per note and per build on top of each diagram's
own limit, and a diagram that ran out of its own time remembered, so no rebuild waits for it again.
A stand-in for ``dot`` that never finishes (and counts its runs) plays the heavy graph: four
heavy ``dot`` fences took four minutes before, and every rebuild paid them again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the stand-in tool is a shell script")

FENCES = "".join(f"## Part {n}\n\n- a point before\n\n```dot\ndigraph G{n} {{ a -> b{n} }}\n```\n\n" for n in range(1, 5))
NOTE = "# Capacity planning\n\n" + FENCES


@pytest.fixture
def slow_dot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """``dot`` that sleeps far past every bound; returns a function counting its runs so far."""
    from confnotes.markup import diagrams

    runs = tmp_path / "runs.log"
    tool = tmp_path / "dot"
    tool.write_text(f"#!/bin/sh\necho run >> '{runs}'\nexec sleep 120\n", encoding="utf-8")
    tool.chmod(0o755)
    monkeypatch.setenv("CONFNOTES_DOT", str(tool))
    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(diagrams, "TIMEOUT", 1)
    diagrams._drawn.cache_clear()
    yield lambda: len(runs.read_text().splitlines()) if runs.exists() else 0
    diagrams._drawn.cache_clear()


def _render(note: str) -> list[str]:
    from confnotes.markup import diagrams
    from confnotes.render.markdown import InlineRenderer

    diagrams._drawn.cache_clear()  # a new process: only the cache folder remembers
    renderer = InlineRenderer()
    with diagrams.note_budget():
        renderer.blocks(note)
    return renderer.warnings


def test_a_notes_diagrams_share_one_budget_and_timeouts_are_remembered(slow_dot, monkeypatch, processes):
    from confnotes.markup import diagrams

    monkeypatch.setattr(diagrams, "NOTE_SECONDS", 2.5)
    warnings = _render(FENCES)
    assert [w.split(": ", 1)[1] for w in warnings] == [
        "took longer than 1 s",
        "took longer than 1 s",
        "the note's diagrams took their 2.5 s; the next build draws on",  # run for what was left, or not started
        "the note's diagrams took their 2.5 s; the next build draws on",
    ]
    first = slow_dot()
    assert first in (2, 3)  # the third ran for the half second left, unless starting the tools ate it
    # the next build: the two that ran out of their own time are not tried again; the others are
    warnings = _render(FENCES)
    assert slow_dot() == first + 2
    assert all("when last tried" in w for w in warnings[:2])
    assert _render(FENCES) and slow_dot() == first + 2, "every diagram is remembered now: nothing runs"


def test_a_changed_diagram_is_tried_again(slow_dot, processes):
    _render("```dot\ndigraph G { a -> b }\n```\n")
    _render("```dot\ndigraph G { a -> c }\n```\n")
    assert slow_dot() == 2


def test_a_builds_diagrams_share_one_budget_across_its_workers(cli, slow_dot, tmp_path, monkeypatch, processes):
    from confnotes.markup import diagrams

    monkeypatch.setattr(diagrams, "BUILD_SECONDS", 2.5)  # the workers are forked: they see it too
    notes = tmp_path / "notes"
    notes.mkdir()
    for n in range(1, 7):
        (notes / f"talk{n}.md").write_text(f"# Talk {n}\n\n## Graph\n\n```dot\ndigraph T{n} {{ x -> y{n} }}\n```\n", encoding="utf-8")
    result = cli("build", str(notes), "-o", str(tmp_path / "site"), "--to", "html", "--jobs", "2")
    assert result.exit_code == 0, result.output
    assert "the build's diagrams took their 2.5 s" in result.stderr
    assert slow_dot() <= 4, "six diagrams, one second each, in a budget of two and a half"
