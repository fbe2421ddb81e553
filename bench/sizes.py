"""The three 20 MB shapes through the printed and slide formats, and the bombs: ``make bench-sizes``.

A note of up to 20 MB renders in bounded time and within 1 GB (docs/security.md, "Limits"). This
measures it for the shapes that cost the layout most — code, tables, and sections of bullets —
in `pdf`, `slides-pdf`, `pptx` and `docx`: wall time and peak resident memory of each command, run alone
in a fresh process. Writes its table into docs/benchmarks.md, below its own marker (``make bench``
keeps that part as it is).

The bombs are the hostile inputs of tests/bombs.py that tests/test_hostile_bombs.py bounds (a BibTeX
macro bomb, a calendar whose time zone repeats every second), and the Word table the issue timed
against HTML: each command's time and peak memory (``--bombs`` measures them alone).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
MARKER = "<!-- bench/sizes.py: the part below is written by `make bench-sizes` -->"
BOMBS_MARKER = "<!-- bench/sizes.py: the bombs -->"
SIZE = 20 * 1024 * 1024
FORMATS = ("pdf", "slides-pdf", "pptx", "docx")
LIMIT_SECONDS = 900
WORDS = ["cache", "shard", "replica", "queue", "latency", "budget", "rollout", "canary", "incident", "schema", "index", "token"]


def _fill(path: Path, piece: Callable[[int], str], title: str) -> Path:
    with path.open("w", encoding="utf-8") as out:
        out.write(f"# {title}\n\n")
        size, n = 0, 0
        while size < SIZE - 100_000:
            text = piece(n)
            out.write(text)
            size += len(text.encode("utf-8"))
            n += 1
    return path


def code_heavy(path: Path) -> Path:
    """Sections of a point and a 300-line Python block (what the issue's attack was shaped like)."""
    lines = "\n".join(f"    result_{i} = compute_value(alpha={i}, beta='text {i}', gamma=[1, 2, 3])  # note" for i in range(300))
    return _fill(path, lambda n: f"## Section {n}\n\n- point about {n}\n\n```python\n{lines}\n```\n\n", "Code-heavy notes")


def table_heavy(path: Path) -> Path:
    """Tables of 6 columns and 200 rows, one a section."""

    def table(n: int) -> str:
        rows = [f"| r{r} | {r * 2} | word{r} | x | y{n} | z |" for r in range(200)]
        return f"## Table {n}\n\n| a | b | c | d | e | f |\n|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n\n"

    return _fill(path, table, "Table-heavy notes")


def list_heavy(path: Path) -> Path:
    """Sections of three bullets, one nested (as tests/test_hostile_sizes.py makes them)."""
    rng = random.Random(2)

    def phrase(count: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(count))

    return _fill(path, lambda n: f"## Session {n}\n\n- {phrase(6)}\n- {phrase(6)}\n  - {phrase(4)}\n\n", "List-heavy notes")


def measure(note: Path, fmt: str, out: Path) -> tuple[float, float, str]:
    """Seconds, peak resident MB and the command's outcome ("ok", "cut: …", or its error)."""
    script = (
        "import resource, subprocess, sys\n"
        "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)\n"
        "sys.stderr.write(r.stderr)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.exit(r.returncode)\n"
    )
    command = [sys.executable, "-c", script, sys.executable, "-m", "confnotes", "render", str(note), "--to", fmt, "-o", str(out)]
    started = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        return LIMIT_SECONDS, 0.0, f"stopped after {LIMIT_SECONDS} s"
    seconds = time.perf_counter() - started
    peak = int(done.stdout.split()[-1]) / 1024 if done.stdout.split() else 0.0
    if done.returncode != 0:
        return seconds, peak, f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1][:80] if done.stderr.strip() else ''}"
    cut = re.search(r"(PDF cut|cut|not on slides)[^\n]*", done.stderr)
    return seconds, peak, "cut, and says so" if cut else "whole"


def shapes(work: Path) -> str:
    rows = []
    for name, make in (("code-heavy", code_heavy), ("table-heavy", table_heavy), ("list-heavy", list_heavy)):
        note = make(work / f"{name}.md")
        megabytes = note.stat().st_size / 1e6
        for fmt in FORMATS:
            seconds, peak, outcome = measure(note, fmt, work / f"{name}.{fmt}")
            held = "yes" if 0 < peak <= 1024 else "no"
            row = f"| {name} ({megabytes:.1f} MB) | `{fmt}` | {seconds:.1f} s | {peak:,.0f} MB | {outcome} | {held} |"
            print(row, flush=True)
            rows.append(row)
    return "\n".join(
        [
            MARKER,
            "",
            "## Three 20 MB shapes",
            "",
            "Each command run alone in a fresh process (`make bench-sizes`, `bench/sizes.py`): wall time and",
            "peak resident memory. A PDF prints the note up to its limits and says what it left out; a deck",
            'stops at its slide limit and names the rest (docs/security.md, "Limits"). Before PDFs counted',
            "boxes (code tokens, table cells), the code and table shapes' PDFs ran past 600 s and 3 GB and the",
            "code shape's slides PDF past 3.8 GB.",
            "",
            "| note | format | time | peak resident | output | <= 1 GB |",
            "|---|---|---:|---:|---|:---:|",
            *rows,
            "",
        ]
    )


def command_cost(args: list[str], repeat: int = 1) -> tuple[float, float]:
    """The best wall time of ``confnotes args`` (in the folder it runs in) over ``repeat`` runs, and its peak resident MB."""
    from bombs import peak_resident

    best, peak = float("inf"), 0.0
    for _ in range(repeat):
        started = time.perf_counter()
        done, resident = peak_resident([sys.executable, "-m", "confnotes", *args], 4 * 1024**3, LIMIT_SECONDS)
        best = min(best, time.perf_counter() - started)
        peak = max(peak, resident / 1024**2)
        if done.returncode not in (0, 1):
            raise SystemExit(f"confnotes {' '.join(args)}: exit {done.returncode}: {done.stderr[-300:]}")
    return best, peak


def bombs(work: Path) -> str:
    from bombs import bib_bomb, citing_note, table_note, zone_bomb

    (work / "refs.bib").write_text(bib_bomb(), encoding="utf-8")
    (work / "talk.md").write_text(citing_note(), encoding="utf-8")
    (work / "bomb.ics").write_text(zone_bomb(), encoding="utf-8")
    (work / "table.md").write_text(table_note(400), encoding="utf-8")
    runs = [
        ("BibTeX macro bomb (1.1 KB)", "`render --to html`", ["render", "talk.md", "--to", "html", "-o", "t.html"], "23.5 GB, killed"),
        ("BibTeX macro bomb", "`lint`", ["lint", "--no-cache", "talk.md"], "MemoryError under 3 GB"),
        ("zone repeating each second (507 B)", "`new --schedule`", ["new", "--schedule", "bomb.ics", "--all", "-o", "n"], "past 120 s"),
        ("400-row table (10 KB)", "`render --to html`", ["render", "table.md", "--to", "html", "-o", "t.html"], "0.39 s"),
        ("400-row table (10 KB)", "`render --to docx`", ["render", "table.md", "--to", "docx", "-o", "t.docx"], "116 s"),
    ]
    rows = []
    for what, command, args, before in runs:
        seconds, peak = command_cost(args, repeat=3)
        row = f"| {what} | {command} | {seconds:.2f} s | {peak:,.0f} MB | {before} |"
        print(row, flush=True)
        rows.append(row)
    return "\n".join(
        [
            BOMBS_MARKER,
            "",
            "## The bombs",
            "",
            "The hostile inputs of tests/bombs.py, each command the best of three runs in a fresh process, with",
            'its peak resident memory; tests/test_hostile_bombs.py bounds them (`make stress`). "Before" is',
            "what the release before the budgets did with the same input.",
            "",
            "| input | command | time | peak resident | before |",
            "|---|---|---:|---:|---|",
            *rows,
            "",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", default=str(ROOT / "docs" / "benchmarks.md"), help="the report to write the tables into")
    parser.add_argument("--bombs", action="store_true", help="measure the bombs only (the shapes' table stays as it is)")
    args = parser.parse_args()
    report = Path(args.write)
    text = report.read_text(encoding="utf-8") if report.exists() else ""
    head, _, rest = text.partition(MARKER)
    old_shapes = (MARKER + rest).partition(BOMBS_MARKER)[0] if rest else ""
    with tempfile.TemporaryDirectory(prefix="confnotes-sizes-") as folder:
        work = Path(folder)
        shapes_part = old_shapes.rstrip("\n") + "\n" if args.bombs and old_shapes else shapes(work)
        os.chdir(work)  # the bombs' commands name their files as a user in that folder would
        bombs_part = bombs(work)
        os.chdir(ROOT)
    head = head.rstrip("\n")
    report.write_text((head + "\n\n" if head else "") + shapes_part + "\n" + bombs_part, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
