"""Properties over generated notes (pasted and Markdown styles), and replay of tests/fuzz/.

Every input that once broke a property is kept in tests/fuzz/ and replayed here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from confnotes.errors import NotesError
from confnotes.fmt import format_markdown, outline_signature
from confnotes.lint.engine import apply_edits, build_settings, fix_until_stable, lint_context
from confnotes.lint.types import LintContext
from confnotes.parse import parse
from confnotes.source import decode
from helpers import assert_lossless
from strategies import EXAMPLES, note

FUZZ = sorted((Path(__file__).parent / "fuzz").glob("*.md"))
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LINT_SETTINGS = build_settings({}, {})


def _text(raw: str) -> str:
    return decode(raw.encode("utf-8"), "gen.md").text


def _parse(text: str):
    try:
        return parse(text, "gen.md")
    except NotesError:
        return None


def check_parse_and_lossless(text: str) -> None:
    doc = _parse(text)
    if doc is not None:
        assert_lossless(text, doc)


def check_fmt(text: str) -> None:
    doc = _parse(text)
    if doc is None:
        return
    try:
        once = format_markdown(doc)
    except NotesError:
        return  # fmt refuses what it cannot round-trip; refusing is the safe outcome
    again = parse(once, "gen.md")
    assert outline_signature(again) == outline_signature(doc)
    assert format_markdown(again) == once


def _relint(text: str):
    doc = parse(text, "gen.md")
    return lint_context(LintContext(doc, text, settings={"fix": True}), LINT_SETTINGS)


def check_fix_fixpoint(text: str) -> None:
    if _parse(text) is None:
        return
    fixed, findings, _ = fix_until_stable(text, _relint)
    again, _ = apply_edits(fixed, _relint(fixed))
    assert again == fixed, "lint --fix did not reach a fixpoint"


def check_render_html(text: str) -> None:
    from confnotes.render.html import RenderOptions, render_html

    doc = _parse(text)
    if doc is not None:
        html, _ = render_html(doc, RenderOptions())
        assert html.startswith("<!DOCTYPE html>")


@PROPERTY
@given(note())
def test_parse_never_crashes_and_is_lossless(raw: str):
    check_parse_and_lossless(_text(raw))


@PROPERTY
@given(note())
def test_fmt_is_idempotent_and_preserves_the_outline(raw: str):
    check_fmt(_text(raw))


@PROPERTY
@given(note())
def test_lint_fix_reaches_a_fixpoint(raw: str):
    check_fix_fixpoint(_text(raw))


@PROPERTY
@given(note())
def test_render_html_never_raises(raw: str):
    check_render_html(_text(raw))


@pytest.mark.parametrize("path", FUZZ, ids=lambda p: p.stem)
def test_fuzz_corpus_replays(path: Path):
    text = decode(path.read_bytes(), str(path)).text
    for check in (check_parse_and_lossless, check_fmt, check_fix_fixpoint, check_render_html):
        check(text)
