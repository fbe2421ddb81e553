"""Hostile inputs small enough to write in a test and costly enough to stop a program that trusts
them: a BibTeX macro bomb, a calendar whose time zone repeats every second, a long Word table.

The hostile tests (tests/test_hostile_*.py) and the bombs' benchmark (``make bench-sizes``,
bench/sizes.py) make them here, so the figures in docs/benchmarks.md are of the inputs the tests
refuse.
"""

from __future__ import annotations

import subprocess
import sys

EVENT = (
    "BEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20270101T000000Z\r\nDTSTART{start}\r\nDURATION:PT45M\r\n"
    "SUMMARY:Talk {uid}\r\nLOCATION:Hall\r\nEND:VEVENT\r\n"
)


def bib_bomb(depth: int = 29) -> str:
    """29 ``@string``s, each four times the one before: about 1 KB that citeproc-py would expand to
    4^29 characters (23.5 GB before the kernel stopped it)."""
    lines = ['@string{m0 = "xxxxxxxx"}']
    lines += [f"@string{{m{n} = m{n - 1} # m{n - 1} # m{n - 1} # m{n - 1}}}" for n in range(1, depth)]
    lines.append(f"@book{{key, title = m{depth - 1}, author = {{A. Author}}, year = 2020}}")
    return "\n".join(lines) + "\n"


def citing_note(bibliography: str = "refs.bib") -> str:
    """A note that names ``bibliography`` and cites its one entry."""
    return f"---\ntitle: T\nbibliography: {bibliography}\n---\n\n## A\n\nAs shown [@key].\n"


def calendar(zones: str, *starts: str) -> str:
    """A VCALENDAR of ``zones`` and one 45-minute event for each ``DTSTART`` tail in ``starts``."""
    events = "".join(EVENT.format(uid=f"u{n}", start=start) for n, start in enumerate(starts))
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\n{zones}{events}END:VCALENDAR\r\n"


def zone(name: str, *parts: tuple[str, str]) -> str:
    """A VTIMEZONE of ``(DTSTART, RRULE)`` parts, alternating +01:00 and +02:00."""
    body = ""
    for index, (start, rule) in enumerate(parts):
        kind = "STANDARD" if index % 2 == 0 else "DAYLIGHT"
        offsets = ("+0200", "+0100") if index % 2 == 0 else ("+0100", "+0200")
        body += f"BEGIN:{kind}\r\nDTSTART:{start}\r\nRRULE:{rule}\r\nTZOFFSETFROM:{offsets[0]}\r\nTZOFFSETTO:{offsets[1]}\r\nEND:{kind}\r\n"
    return f"BEGIN:VTIMEZONE\r\nTZID:{name}\r\n{body}END:VTIMEZONE\r\n"


def zone_bomb() -> str:
    """507 bytes: one session in a zone whose two parts repeat every second since 1970 (it kept
    ``new --schedule`` expanding past 120 s, and growing)."""
    bomb = zone("Bomb/Zone", ("19700101T000000", "FREQ=SECONDLY"), ("19700101T000001", "FREQ=SECONDLY"))
    return calendar(bomb, ";TZID=Bomb/Zone:20270609T100000")


def table_note(rows: int, columns: int = 6) -> str:
    """A note of one table of ``rows`` rows (400 rows of 6 columns took Word 116 s; HTML 0.39 s)."""
    head = "| " + " | ".join("abcdefghij"[:columns]) + " |\n|" + "---|" * columns + "\n"
    cells = [[f"r{r}", str(r * 2), f"word{r} and more words", "x", "y", "z"][:columns] for r in range(rows)]
    body = "\n".join("| " + " | ".join(row) + " |" for row in cells)
    return f"# Tables\n\n## One\n\n{head}{body}\n"


def peak_resident(args: list[str], memory: int, timeout: float) -> tuple[subprocess.CompletedProcess[str], int]:
    """``args`` run by a fresh Python whose only child it is, under ``memory`` bytes of address space,
    and that child's peak resident memory in bytes (Linux reports it in KB)."""
    script = (
        "import resource, subprocess, sys\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))\n"
        "result = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)\n"
        "sys.stderr.write(result.stderr)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.exit(result.returncode)\n"
    )
    result = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=timeout)
    return result, int(result.stdout.split()[-1]) * 1024 if result.stdout.split() else 0
