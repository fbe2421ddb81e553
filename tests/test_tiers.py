"""The tiers hold: a unit test that lays out a PDF or starts a program fails, naming the fixture to
request, whether it does so in its own body or in a module-scoped fixture made before it (which the
function-scoped guard once missed: four PDF tests ran in ``make check``)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).parent / "conftest.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("scope", ["function", "module", "session"])
def test_a_unit_test_laying_out_a_pdf_in_a_fixture_is_refused(pytester, scope, processes):
    pytester.makeconftest(CONFTEST.replace("Path(__file__).resolve().parent))", f"{str(Path(__file__).parent)!r}))", 1))
    pytester.makepyfile(
        test_inner=f"""
import pytest
import confnotes.render.pdf

@pytest.fixture(scope="{scope}")
def laid_out():
    return confnotes.render.pdf.load_weasyprint()

def test_reads_the_pdf(laid_out):
    assert laid_out
"""
    )
    result = pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*requests no `weasyprint` fixture*"])


def test_a_fixture_that_says_what_it_uses_is_let_through(pytester, processes):
    pytester.makeconftest(CONFTEST.replace("Path(__file__).resolve().parent))", f"{str(Path(__file__).parent)!r}))", 1))
    pytester.makepyfile(
        test_inner="""
import pytest
import subprocess, sys

@pytest.fixture(scope="module")
def ran(processes):
    return subprocess.run([sys.executable, "-c", "print(1)"], capture_output=True, text=True).stdout

def test_reads_what_ran(ran):
    assert ran == "1\\n"
"""
    )
    result = pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


class _Reporter:
    def __init__(self, *keywords: str) -> None:
        from types import SimpleNamespace

        report = SimpleNamespace(when="call", nodeid="tests/test_matrix.py::test_x", passed=True, keywords=dict.fromkeys(keywords))
        self.stats = {"passed": [report]}
        self.lines: list[str] = []

    def write_sep(self, _sep: str, title: str) -> None:
        self.lines.append(title)

    def write_line(self, line: str) -> None:
        self.lines.append(line)


def test_the_matrix_summary_counts_only_cells_that_were_rendered():
    """``make check`` printed "231 pairs x 9 outputs = 2079 cells" though it rendered none of them."""
    from conftest import _matrix_summary

    quick = _Reporter("unit")
    _matrix_summary(quick)
    assert "no cell rendered in this run" in quick.lines[-1] and "2079" not in quick.lines[-1]
    full = _Reporter("integration")
    _matrix_summary(full)
    assert "cells rendered; 1 of 1 checks on them held" in full.lines[-1]
