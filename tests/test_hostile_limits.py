"""Hostile sizes (issue "Hardening, round 3"): every command on any note finishes in bounded time and
memory, and says where a limit (docs/security.md, "Limits") cut something.

Wall-clock time is never asserted: each row asserts the limit's cap or its message, and runs in
a fresh process with a generous ``timeout=`` and an address-space limit, so a regression fails
(or is killed) instead of hanging the suite.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

#: every row's process: killed past this, so a hang fails the test rather than the suite
TIMEOUT = 300
#: and refused memory past this (address space; Python and WeasyPrint map ~0.5 GB before any note)
MEMORY = 2 * 1024**3


def confnotes(*args: str, cwd: Path | None = None, memory: int = MEMORY) -> subprocess.CompletedProcess[str]:
    """confnotes in a fresh process, with a bound on its memory and a generous time-out."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = {**os.environ, "CONFNOTES_TEMPLATE_CACHE": ""}
    return subprocess.run(
        [sys.executable, "-m", "confnotes", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=TIMEOUT,
        preexec_fn=limit,
        env=env,
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr[-2000:]
    return lines[0]


# ------------------------------------------------------------------ user templates


TEMPLATE_BOMBS = {
    "nested-range": ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", "loop turns"),
    "nested-output": ("{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}", "loop turns"),
    "doubling": (
        "{% set ns = namespace(s='0123456789') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}",
        "characters of text",
    ),
    "repeat": ("{{ 'x' * 1000000000 }}", "longer than"),
    "center": ("{{ 'x'|center(1000000000) }}", "a number larger than 100,000"),
    "ljust": ("{{ 'x'.ljust(1000000000) }}", "a number larger than 100,000"),
    "format-width": ("{{ '{:>1000000000}'.format(1) }}", "a format width"),
    "percent-width": ("{{ '%1000000000d' % 1 }}", "a format width"),
    "power": ("{% set ns = namespace(x=3) %}{% for i in range(60) %}{% set ns.x = ns.x * ns.x %}{% endfor %}{{ ns.x }}", "bits"),
}


@pytest.mark.parametrize("bomb", list(TEMPLATE_BOMBS))
def test_a_user_template_that_would_run_for_ever_is_stopped(tmp_path, bomb):
    text, says = TEMPLATE_BOMBS[bomb]
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "note.html").write_text(text)
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## A\n\n- a\n")
    result = confnotes("render", str(note), "-o", "-", "--templates", str(folder))
    assert result.returncode == 2
    line = one_line(result)
    assert "template note.html: stopped:" in line and says in line, line
    assert "(a limit for user templates; see docs/security.md)" in line


def test_limits_leave_ordinary_user_templates_alone(tmp_path, cli):
    """What templates do (loops, ``~``, filters with widths, ``%`` and ``format``) renders as Jinja renders it."""
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "note.html").write_text(
        "{% for i in range(3) %}{{ i ~ '<' }}{% endfor %}|{{ '%5d'|format(3) }}|{{ 123456|filesizeformat }}|"
        "{{ '{:>4}'.format(7) }}|{{ 'ab'|center(6) }}|{{ ('a' ~ 'b')|upper }}|{{ [1, 2] * 2 }}|{{ 2 ** 10 }}|"
        "{% for s in doc.sections %}{{ loop.index }}/{{ loop.length }} {{ s.title }}{% else %}none{% endfor %}"
    )
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## A\n\n- a\n\n## B <b>\n\n- b\n")
    result = cli("render", str(note), "-o", "-", "--templates", str(folder))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "0&lt;1&lt;2&lt;|    3|123.5 kB|   7|  ab  |AB|[1, 2, 1, 2]|1024|1/2 A2/2 B &lt;b&gt;"


def test_trusted_templates_have_no_template_limits(tmp_path, cli):
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "note.html").write_text("{{ ('x' * 200000)|length }}")
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n")
    result = cli("render", str(note), "-o", "-", "--templates", str(folder), "--trust-templates")
    assert result.exit_code == 0 and result.stdout == "200000"
