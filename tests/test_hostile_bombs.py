"""The bombs' cost, bounded (``make stress``): a BibTeX macro bomb through render, lint and build; a
calendar whose time zone repeats every second through ``new --schedule`` and ``build``; a Word table
ten times longer costs about ten times as much, not a hundred.

Each command runs in a fresh process under a cap on its address space and a time-out: before the
budgets, the macro bomb grew render to 23.5 GB (here: killed at the cap, a failure), and the time
zone bomb kept ``new --schedule`` running past 120 s (here: the time-out, a failure). Their figures
are in docs/benchmarks.md (``make bench-sizes``); no duration is asserted.
"""

from __future__ import annotations

import sys
import time

import pytest

from bombs import bib_bomb, citing_note, peak_resident, table_note, zone_bomb

#: address space for one command (Python and its libraries, WeasyPrint's among them, are about 1 GB of it)
MEMORY = 2048 * 1024**2
#: what a refused bomb may leave resident: the command's own cost and no more
RESIDENT = 300 * 1024**2
TIMEOUT = 120


def confnotes(*args: str):  # -> (CompletedProcess, peak resident bytes)
    return peak_resident([sys.executable, "-m", "confnotes", *args], MEMORY, TIMEOUT)


@pytest.fixture
def bombed(tmp_path):
    """A folder of notes whose one note names a macro bomb, and whose settings name a time-zone bomb."""
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "refs.bib").write_text(bib_bomb(), encoding="utf-8")
    (notes / "talk.md").write_text(citing_note(), encoding="utf-8")
    (tmp_path / "bomb.ics").write_text(zone_bomb(), encoding="utf-8")
    (tmp_path / "confnotes.toml").write_text('[build]\nschedule = "bomb.ics"\n', encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    "command",
    [("render", "notes/talk.md", "--to", "html", "-o", "talk.html"), ("lint", "--no-cache", "notes/talk.md")],
    ids=["render", "lint"],
)
def test_a_macro_bomb_costs_a_command_no_more_than_a_note(bombed, command, monkeypatch, processes, stress):
    monkeypatch.chdir(bombed)
    result, resident = confnotes(*command)
    assert result.returncode in (0, 1), result.stderr[-2000:]
    assert "macros expand to" in result.stderr or command[0] == "lint"
    assert resident < RESIDENT, f"{resident / 1e6:.0f} MB"


def test_a_time_zone_bomb_costs_new_schedule_no_more_than_a_session(bombed, processes, stress):
    result, resident = confnotes("new", "--schedule", str(bombed / "bomb.ics"), "--all", "-o", str(bombed / "out"))
    assert result.returncode == 0, result.stderr[-2000:]
    assert "repeats FREQ=SECONDLY" in result.stderr
    assert resident < RESIDENT, f"{resident / 1e6:.0f} MB"


def test_a_build_of_both_bombs_is_bounded(bombed, monkeypatch, processes, stress):
    monkeypatch.chdir(bombed)
    result, resident = confnotes("build", "-o", "site", "notes")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "macros expand to" in result.stderr and "repeats FREQ=SECONDLY" in result.stderr
    assert (bombed / "site" / "index.html").exists()
    assert resident < RESIDENT, f"{resident / 1e6:.0f} MB"


def test_a_word_table_ten_times_longer_costs_about_ten_times_as_much(stress):
    """Before rows were written whole, a 400-row table took Word 116 s and 100 rows 7 s (16 times
    for 4 times the rows). Here 3,000 rows of 3 columns against 300, each the best of three runs
    taken in turn: linear is about 10, quadratic 100; the bound is 25."""
    import confnotes
    from confnotes.parse import parse

    short, long = parse(table_note(300, 3), "short.md"), parse(table_note(3000, 3), "long.md")
    confnotes.render_note(short, "docx")  # python-docx's imports and template, once
    best = {"short": float("inf"), "long": float("inf")}
    for _ in range(3):
        for name, doc in (("short", short), ("long", long)):
            started = time.process_time()
            confnotes.render_note(doc, "docx")
            best[name] = min(best[name], time.process_time() - started)
    assert best["long"] < 25 * best["short"], f"{best['long'] / best['short']:.1f}x"
