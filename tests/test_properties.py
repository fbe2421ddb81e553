"""Properties over generated notes (pasted and Markdown styles), and replay of tests/fuzz/.

Every input that once broke a property is kept in tests/fuzz/ and replayed here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from confnotes.config.settings import FmtSettings, LintConfig
from confnotes.edges.source import decode
from confnotes.errors import NotesError
from confnotes.fmt import format_markdown, outline_signature
from confnotes.lint.engine import apply_edits, build_settings, fix_until_stable, lint_context
from confnotes.lint.types import LintContext
from confnotes.model import List, walk_content
from confnotes.parse import ParseOptions, parse
from helpers import assert_lossless
from strategies import examples, layout_note, markdown_note, note, styled_note

FUZZ = sorted((Path(__file__).parent / "fuzz").glob("*.md"))
PROPERTY = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
LINT_SETTINGS = build_settings(LintConfig())


def _text(raw: str) -> str:
    return decode(raw.encode("utf-8"), "gen.md").text


def _parse(text: str):
    try:
        return parse(text, "gen.md")
    except NotesError:
        return None


def _no_numbers(words: list[str]) -> list[str]:
    return [word for word in words if not word.isdigit()]


def check_parse_and_lossless(text: str) -> None:
    from helpers import assert_same_words, model_words, source_words

    doc = _parse(text)
    if doc is not None:
        assert_lossless(text, doc)
        # in syntax soup only a parser can tell a list number from a word, so numbers are left out
        assert_same_words(_no_numbers(source_words(text)), _no_numbers(model_words(doc)), "the model")


def check_fmt(text: str) -> None:
    doc = _parse(text)
    if doc is None:
        return
    try:
        once = format_markdown(doc, source=text)
    except NotesError:
        return  # fmt refuses what it cannot round-trip; refusing is the safe outcome
    again = parse(once, "gen.md")
    assert outline_signature(again) == outline_signature(doc)
    assert format_markdown(again, source=once) == once
    from helpers import assert_same_words, model_words

    assert_same_words(_no_numbers(model_words(doc)), _no_numbers(model_words(again)), "fmt output")


def _relint(text: str):
    doc = parse(text, "gen.md")
    return lint_context(LintContext(doc, text, fix=True), LINT_SETTINGS)


def check_fix_fixpoint(text: str) -> None:
    if _parse(text) is None:
        return
    fixed, findings, _ = fix_until_stable(text, _relint)
    again, _ = apply_edits(fixed, _relint(fixed))
    assert again == fixed, "lint --fix did not reach a fixpoint"


def check_render_html(text: str) -> None:
    from confnotes.render.html import render_html
    from confnotes.render.options import RenderOptions

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


# ---------------------------------------------------------------- order, on notes shaped like real ones

ORDERED = settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@ORDERED
@given(markdown_note())
def test_model_and_fmt_keep_words_in_order(text: str):
    from helpers import assert_same_words, model_words, source_words

    doc = parse(text, "gen.md")
    assert_same_words(source_words(text), model_words(doc), "the model")
    once = format_markdown(doc, source=text)  # a plain Markdown note always formats
    assert_same_words(source_words(text), source_words(once), "fmt output")
    assert outline_signature(parse(once, "gen.md")) == outline_signature(doc)
    assert format_markdown(parse(once, "gen.md"), source=once) == once


@ORDERED
@given(markdown_note())
def test_page_and_deck_keep_words_in_order(text: str):
    import re

    from confnotes.render.deck_html import render as render_deck
    from confnotes.render.html import render_html
    from confnotes.render.options import RenderOptions
    from helpers import assert_words_in_order, page_words, source_words

    doc = parse(text, "gen.md")
    expected = source_words(text, notes=False)
    html, _ = render_html(doc, RenderOptions())
    assert_words_in_order(expected, page_words(html), "the HTML page")
    deck, _ = render_deck(doc, RenderOptions(), None)
    deck = re.sub(r'<aside class="notes(?:-panel)?"[^>]*>.*?</aside>', " ", deck, flags=re.S)
    assert_words_in_order(expected, page_words(deck), "the deck")


# ---------------------------------------------------------------- fmt keeps the author's style and layout

STYLED = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@STYLED
@given(styled_note())
def test_a_well_formed_note_in_one_style_is_left_byte_identical(text: str):
    """Any bullet marker, setext or ATX, ``*`` or ``_``, ``1. 1. 1.`` or ``1. 2. 3.``, tab or
    four-space nesting, tight or loose lists, ``---`` between talks: fmt writes it back as it is."""
    assert format_markdown(parse(text, "gen.md"), None, text) == text


STYLE_SETTINGS = st.builds(
    FmtSettings,
    bullet=st.sampled_from(["consistent", "-", "*", "+"]),
    heading=st.sampled_from(["consistent", "atx", "setext"]),
    emphasis=st.sampled_from(["consistent", "*", "_"]),
    strong=st.sampled_from(["consistent", "*", "_"]),
    ordered=st.sampled_from(["consistent", "ordered", "one"]),
)


@STYLED
@given(st.one_of(styled_note(), markdown_note(), note()), STYLE_SETTINGS)
def test_fmt_in_any_style_keeps_the_outline_and_is_idempotent(raw: str, settings_: FmtSettings):
    from helpers import assert_same_words, model_words

    options = ParseOptions(fmt=settings_)
    text = _text(raw)
    doc = parse(text, "gen.md", options)
    try:
        once = format_markdown(doc, options, text)
    except NotesError:
        return
    again = parse(once, "gen.md", options)
    assert outline_signature(again) == outline_signature(doc)
    assert format_markdown(again, options, once) == once
    assert_same_words(_no_numbers(model_words(doc)), _no_numbers(model_words(again)), "fmt output")


@STYLED
@given(layout_note())
def test_fmt_is_idempotent_whatever_the_blank_lines(text: str):
    """A second run never moves a blank line: tight lists stay tight, loose ones keep theirs."""
    check_fmt(text)
    doc = parse(text, "gen.md")
    if not doc.recovered:
        try:
            once = format_markdown(doc)
        except NotesError:
            return
        tight = [entry.tight for entry in walk_content(doc.content) if type(entry) is List]
        assert [entry.tight for entry in walk_content(parse(once, "gen.md").content) if type(entry) is List] == tight


def test_text_right_below_a_comment_in_a_nested_item_stays_in_a_tight_list():
    """Found by Hypothesis: an HTML comment ends at its ``-->`` line, so the paragraph right below it
    needs no blank line (one made the list loose)."""
    text = "# Alpha\n## Alpha\n- Alpha\n  - Alpha\n    - Alpha\n      <!-- Alpha -->\n    Alpha.\n"
    assert format_markdown(parse(text, "gen.md"), source=text) == text
    directive = text.replace("<!-- Alpha -->", "<!-- confnotes-disable-next-line long-item -->")
    assert format_markdown(parse(directive, "gen.md"), source=directive) == directive
    container = text.replace("<!-- Alpha -->", "::: notes\n      Alpha\n      :::")
    assert format_markdown(parse(container, "gen.md"), source=container) == container
