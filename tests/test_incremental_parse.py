"""The editor re-reads a note after each edit from the blocks the edit did not touch (parse.incremental):
after every edit of random edit scripts, the tokens, the outline and the findings equal a fresh
reading's. The edits are those that change how markdown-it reads what follows them: a fence, a
``$$`` or comment opened and never closed, a ``:::`` container, a heading, front matter, a lazy line,
an indent, a blank line typed or removed — between realistic notes' blocks and inside them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confnotes.check import Checker, LintRequest
from confnotes.edges.source import decode
from confnotes.errors import NotesError
from confnotes.parse import incremental, parse
from confnotes.parse.markdown import markdown_parser
from strategies import examples
from strategies import note as generated_note

ROOT = Path(__file__).resolve().parent
CORPUS = sorted(
    [*ROOT.parent.glob("notes/*.md"), *(ROOT / "fixtures" / "real").glob("*.md")],
    key=lambda path: path.name,
)
#: lines whose typing or deletion changes how the lines after them read
TYPED = [
    "```",
    "~~~~",
    "```python",
    "$$",
    "$$ x = 1",
    "<!--",
    "-->",
    "<div>",
    "::: notes",
    ":::",
    "# A heading",
    "## Talk: a session",
    "---",
    "Takeaways",
    "- a bullet",
    "  - nested",
    "1. first",
    "> quoted",
    "| a | b |",
    "|---|---|",
    "[ref]: https://example.org",
    "[^1]: a footnote",
    "    indented code",
    "Title",
    "=====",
    "",
    "",
]


def _signature(tokens: list) -> list[tuple]:
    return [(t.type, t.nesting, t.level, t.map, t.content, t.markup, t.info) for t in tokens]


def _edit(rng: random.Random, lines: list[str]) -> None:
    """One edit as a person makes it: a line typed or deleted, words typed into a line, a line
    indented or outdented, a character deleted — anywhere, front matter included."""
    at = rng.randrange(len(lines) + 1)
    kind = rng.randrange(6)
    if kind == 0 or not lines:
        lines.insert(at, rng.choice(TYPED))
    elif kind == 1:
        del lines[min(at, len(lines) - 1)]
    elif kind == 2:
        line = min(at, len(lines) - 1)
        col = rng.randrange(len(lines[line]) + 1)
        lines[line] = lines[line][:col] + rng.choice(["word ", "x", "$$", "`", "**", ": ", " "]) + lines[line][col:]
    elif kind == 3:
        line = min(at, len(lines) - 1)
        lines[line] = rng.choice(["  ", "    ", "\t"]) + lines[line]
    elif kind == 4:
        line = min(at, len(lines) - 1)
        lines[line] = lines[line][rng.randrange(1, 3) :] if lines[line] else lines[line]
    else:
        line = min(at, len(lines) - 1)
        col = rng.randrange(len(lines[line]) + 1)
        lines[line : line + 1] = [lines[line][:col], lines[line][col:]]  # Enter in the middle of a line


@pytest.fixture
def tracked():
    path = "/notes/tracked-talk.md"
    incremental.track(path)
    yield path
    incremental.forget(path)


@settings(max_examples=examples(120), deadline=None)
@given(st.sampled_from(CORPUS), st.integers(0, 2**32 - 1))
def test_tokens_after_every_edit_equal_a_fresh_parse(note, seed):
    path = f"/notes/{note.name}"
    incremental.track(path)
    try:
        rng = random.Random(seed)
        lines = note.read_text(encoding="utf-8").split("\n")
        incremental.tokens("\n".join(lines), path)
        for _ in range(12):
            _edit(rng, lines)
            text = "\n".join(lines)
            assert _signature(incremental.tokens(text, path)) == _signature(markdown_parser(text).parse(text)), incremental.last_reading
    finally:
        incremental.forget(path)


@settings(max_examples=examples(120), deadline=None)
@given(generated_note(), st.integers(0, 2**32 - 1))
def test_tokens_of_generated_notes_after_every_edit_equal_a_fresh_parse(text, seed):
    """The same on generated notes of every shape (pasted glyph bullets, tables, quotes, setext
    underlines, ``:::`` blocks, CR LF line ends as the parser gets them: already LF)."""
    path = "/notes/generated.md"
    incremental.track(path)
    try:
        rng = random.Random(seed)
        lines = text.replace("\r\n", "\n").split("\n")
        incremental.tokens("\n".join(lines), path)
        for _ in range(12):
            _edit(rng, lines)
            edited = "\n".join(lines)
            assert _signature(incremental.tokens(edited, path)) == _signature(markdown_parser(edited).parse(edited))
    finally:
        incremental.forget(path)


def test_an_edit_reparses_a_few_lines_and_keeps_the_rest(tracked):
    """The point of it: on a 600-line talk, a word typed in a section re-reads that section's
    neighbourhood, not the note; a fence opened without its close re-reads everything after it."""
    sections = [f"## Section {k}\n\n- point {k} one\n- point {k} two\n  - detail\n\nA paragraph {k}.\n" for k in range(100)]
    text = "---\nduration: 45min\n---\n# Talk\n\n" + "\n".join(sections)
    incremental.tokens(text, tracked)
    lines = text.split("\n")
    lines[300] = "typed " + lines[300]
    incremental.tokens("\n".join(lines), tracked)
    assert incremental.last_reading["how"] == "window"
    assert incremental.last_reading["parsed"] <= 12
    blocks = 2 + 3 * 100  # front matter, title; each section's heading, list and paragraph
    assert incremental.last_reading["kept_before"] + incremental.last_reading["kept_after"] >= blocks - 4
    lines.insert(300, "```")
    opened = "\n".join(lines)
    assert _signature(incremental.tokens(opened, tracked)) == _signature(markdown_parser(opened).parse(opened))
    assert incremental.last_reading["kept_after"] == 0  # the unclosed fence runs to the end: nothing after it is kept


def test_a_note_not_tracked_keeps_nothing():
    incremental.tokens("# Talk\n\n- a\n", "/notes/untracked.md")
    assert "/notes/untracked.md" not in incremental._kept


def _fresh(path: str, read):
    """``read()`` as a note not tracked reads (the tracked reading is kept for the next edit)."""
    incremental._tracked.discard(path)
    try:
        return read()
    finally:
        incremental._tracked.add(path)


def test_outline_and_findings_after_every_edit_equal_lint(tracked, tmp_path):
    """What the editor shows after each edit (the outline, then every finding) equals a fresh
    ``confnotes lint`` of the same text, on realistic notes and a long talk."""
    checker = Checker(LintRequest())
    config = checker.config_for(str(tmp_path / "talk.md"))
    rng = random.Random(2026)
    for note in [*CORPUS[:: max(1, len(CORPUS) // 12)], ROOT.parent / "notes" / "scale2025.md"]:
        lines = note.read_text(encoding="utf-8").split("\n")
        for _ in range(8):
            _edit(rng, lines)
            source = decode("\n".join(lines).encode(), tracked)
            again = checker.check(source, config)
            fresh = _fresh(tracked, lambda source=source: checker.check(source, config))
            assert again[0].doc == fresh[0].doc
            assert [(f.rule, f.line, f.col, f.message) for f in again[1]] == [(f.rule, f.line, f.col, f.message) for f in fresh[1]]


def test_a_refused_reading_leaves_the_next_one_right(tracked):
    """A note nested past the limit is refused; the reading after it equals a fresh one."""
    from confnotes.errors import NotesError

    parse("# Talk\n\n- a\n\nText.\n\n## More\n\n- b\n", tracked)
    with pytest.raises(NotesError):
        parse("# Talk\n\n- a\n\nText.\n\n" + "".join("  " * depth + "- x\n" for depth in range(200)), tracked)
    text = "# Talk\n\n- a\n\nText.\n\n## More\n\n- b\n- c\n"
    assert parse(text, tracked) == _fresh(tracked, lambda: parse(text, tracked))


def _outline_after_edits(text: str, path: str, seed: int, edits: int = 12) -> None:
    """After each of ``edits`` random edits, the tracked reading (tokens and sections reused) equals a
    fresh parse of the same text, every span included."""
    rng = random.Random(seed)
    lines = text.split("\n")
    parse("\n".join(lines), path)
    for _ in range(edits):
        _edit(rng, lines)
        edited = "\n".join(lines)
        try:
            fresh = _fresh(path, lambda edited=edited: parse(edited, path))
        except NotesError:
            with pytest.raises(NotesError):
                parse(edited, path)
            continue
        assert parse(edited, path) == fresh, incremental.last_reading


@settings(max_examples=examples(120), deadline=None)
@given(st.sampled_from(CORPUS), st.integers(0, 2**32 - 1))
def test_the_reused_outline_after_every_edit_equals_a_fresh_parse(note, seed):
    """Sections an edit left alone are taken from the last reading (``parse.reuse``), moved by the
    lines it added: on real notes, after every edit of random edit scripts, the outline equals a
    fresh parse's."""
    path = f"/notes/{note.name}"
    incremental.track(path)
    try:
        _outline_after_edits(note.read_text(encoding="utf-8"), path, seed)
    finally:
        incremental.forget(path)


@settings(max_examples=examples(120), deadline=None)
@given(generated_note(), st.integers(0, 2**32 - 1))
def test_the_reused_outline_of_generated_notes_equals_a_fresh_parse(text, seed):
    """The same on generated notes of every shape: pasted bullets (whose reading is decided over the
    whole note), bold and bare-line headings, slide directives, ``---`` breaks, quotes, tables."""
    path = "/notes/generated-outline.md"
    incremental.track(path)
    try:
        _outline_after_edits(text.replace("\r\n", "\n"), path, seed)
    finally:
        incremental.forget(path)


def test_an_edit_reassembles_only_the_section_it_is_in(tracked):
    """The point of it: on a 100-section talk, a word typed in one section, or a line added above
    the rest, takes every other section from the last reading; a ``---`` break, a slide directive
    and a recovery inside a taken section are kept with it."""
    sections = [
        f"## Section {k}\n\n- point {k} one\n- point {k} two\n  - detail\n\n<!-- confnotes-disable CN201 -->\n\nA paragraph {k}.\n\n---\n"
        for k in range(100)
    ]
    text = "---\nduration: 45min\n---\n# Talk\n\n" + "\n".join(sections)
    parse(text, tracked)
    lines = text.split("\n")
    lines[300] = "typed " + lines[300]
    parse("\n".join(lines), tracked)
    assert incremental.last_reading["sections_taken"] == incremental.last_reading["sections_clean"] - 1 == 99  # all but the edited one
    lines.insert(300, "- a line added")
    edited = "\n".join(lines)
    doc = parse(edited, tracked)
    assert incremental.last_reading["sections_taken"] == 99
    fresh = _fresh(tracked, lambda: parse(edited, tracked))
    assert doc == fresh and len(doc.directives) == len(doc.breaks) == 100 and doc.recovered == ("breaks",)


def _decks(path: str, text: str) -> tuple[object, ...]:
    from confnotes.slides import UNLIMITED, DeckOptions, build_deck

    doc = parse(text, path)
    return build_deck(doc), build_deck(doc, DeckOptions(max_items=UNLIMITED, max_words=UNLIMITED, agenda=False, fit=False))


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(CORPUS), st.integers(0, 2**32 - 1))
def test_the_kept_slides_after_every_edit_equal_a_fresh_deck(note, seed):
    """An open note's sections' slides and each slide's fitted parts are kept by the section and the
    slide (``slides.kept``): after every edit of random edit scripts, both decks lint builds (as
    written, and limited and fitted) equal a fresh build's."""
    path = f"/notes/decks-{note.name}"
    incremental.track(path)
    try:
        rng = random.Random(seed)
        lines = note.read_text(encoding="utf-8").split("\n")
        _decks(path, "\n".join(lines))
        for _ in range(8):
            _edit(rng, lines)
            edited = "\n".join(lines)
            try:
                fresh = _fresh(path, lambda edited=edited: _decks(path, edited))
            except NotesError:
                continue
            assert _decks(path, edited) == fresh
    finally:
        incremental.forget(path)


@pytest.mark.parametrize(
    "extra",
    [
        "",
        "::: tip\nA fenced div (found by review: pairing divs made every section anew).\n:::\n",
        "A claim.[^1]\n\n[^1]: Footnotes (found by review: every slide was given them anew).\n",
    ],
)
def test_a_word_typed_fits_only_the_slides_of_its_section(tracked, monkeypatch, extra):
    """The point of it: a word typed in one section of a 100-section talk makes that section's slides
    and fits them; every other slide is the last build's, the same objects. A closed note keeps none."""
    from confnotes.slides import build as slides_build
    from confnotes.slides import kept

    sections = [f"## Section {k}\n\n- point {k} one\n- point {k} two\n  - detail\n\nA paragraph {k}.\n" for k in range(100)]
    sections[0] += "\n" + extra
    lines = ("---\nduration: 45min\n---\n# Talk\n\n" + "\n".join(sections)).split("\n")
    before = _decks(tracked, "\n".join(lines))[0]
    fitted: list[object] = []
    real = slides_build._slides_of
    monkeypatch.setattr(slides_build, "_slides_of", lambda slide, *rest: fitted.append(slide) or real(slide, *rest))
    at = lines.index("A paragraph 49.")
    lines[at] = "A typed paragraph 49."
    after = _decks(tracked, "\n".join(lines))[0]
    # the fitted deck's and the unsplit deck's: the title slide is made anew (cheap), and the section
    # holding the div or citing the footnote (it is paired, or given its footnotes, anew); the agenda
    # is made anew too, but the same: kept by its value
    again = ["Section 0"] if extra else []
    assert [slide.title for slide in fitted] == ["Talk", *again, "Section 49", "Talk", *again, "Section 49"]
    changed = [a for a, b in zip(after.slides, before.slides, strict=True) if a is not b]
    assert {slide.title for slide in changed} == {"Talk", *again, "Section 49"}
    incremental.forget(tracked)
    assert not [key for key in kept._kept if key[0] == tracked]


def test_a_slide_with_a_picture_is_fitted_again_at_every_build(tracked, monkeypatch):
    """Whether a picture's file exists, and its size, can change between two readings: its slide is
    never taken from the last build."""
    from confnotes.slides import build as slides_build

    lines = ["# Talk", "", "## Pictures", "", "![the room](room.png)", "", "## Words", "", "- one", "- two", ""]
    _decks(tracked, "\n".join(lines))
    fitted: list[object] = []
    real = slides_build._slides_of
    monkeypatch.setattr(slides_build, "_slides_of", lambda slide, *rest: fitted.append(slide) or real(slide, *rest))
    lines[-2] = "- two and three"
    _decks(tracked, "\n".join(lines))
    assert [slide.title for slide in fitted].count("Pictures") == 2  # in both decks


def test_a_moved_section_carries_every_field_of_its_entries():
    """``parse.reuse.shifted`` builds each entry field by field, and ``slides.kept`` each slide: a
    field added to the model and left out there would fall back to its default. Every field here
    is off its default."""
    from dataclasses import fields

    from confnotes.model import Block, List, Node, Span
    from confnotes.model.values import Math
    from confnotes.parse.reuse import shifted
    from confnotes.slides.kept import _moved
    from confnotes.slides.model import Slide

    block = Block("math", "$$x$$", Span(4, 4), "info", Math("x"))
    item = Node("item", "A: b", Span(3, 4), "glyph", 2, 3, "7", ")", "•", "A", (block,), 2)
    lst = List((item,), Span(3, 4), True, "7", ")", False, "glyph")
    section = Node("section", "S", Span(2, 4), "setext", 3, 2, "1", ".", "**", "L", (lst,), 1)
    for entry in (block, item, lst, section):
        assert all(getattr(entry, f.name) != f.default for f in fields(entry) if f.name != "value")
        assert shifted(shifted(entry, 5), -5) == entry and shifted(entry, 5).span == Span(entry.span.start + 5, entry.span.end + 5)
    assert shifted(block, 2).value is block.value
    slide = Slide(**{f.name: f.default for f in fields(Slide)} | {"kind": "text", "title": "T", "line": 9, "continued": True, "parts": 2})
    assert _moved(_moved(slide, 3), -3) == slide and _moved(slide, 3).line == 12


def test_a_section_the_title_stands_in_is_read_again(tracked):
    """A front matter title names the one ``#`` heading that says it, wherever it stands: the
    assembler skips that heading without closing the section before it, which goes on after it.
    That section was taken whole, so the paragraph after the title came twice (found by review)."""
    text = "---\ntitle: Deep Dive\n---\n## Summary\n\n- one\n\n# Deep Dive\n\nIntro paragraph.\n\n## Part 1\n\n- x\n"
    parse(text, tracked)
    for edited in (text, text.replace("Intro paragraph.", "Intro paragraph, edited.")):
        assert parse(edited, tracked) == _fresh(tracked, lambda edited=edited: parse(edited, tracked))


def test_a_diagram_s_slide_is_made_again_when_its_tool_comes_or_goes(tracked, monkeypatch):
    """Whether a ``dot`` fence is drawn or shown as code depends on the tools installed now: its
    section's slides are not kept (found by review: a tool removed while the note was open)."""
    from confnotes.markup import diagrams

    text = "# Talk\n\n## Graph\n\n```dot\ndigraph { a -> b }\n```\n\n## Words\n\n- one\n"
    lines = text.split("\n")
    monkeypatch.setattr(diagrams, "program", lambda _tool: "/usr/bin/dot")
    _decks(tracked, "\n".join(lines))
    monkeypatch.setattr(diagrams, "program", lambda _tool: None)
    lines[-2] = "- one and two"
    edited = "\n".join(lines)
    assert _decks(tracked, edited) == _fresh(tracked, lambda: _decks(tracked, edited))
