"""fmt keeps what the author wrote (issue 28): ``---`` between sections, each list tight or loose as
written, and the note's own consistent style — bullet marker, ATX or setext headings, emphasis
markers, ``1. 2. 3.`` or ``1. 1. 1.`` — so a well-formed note is left byte for byte and only
pasted structure is rewritten; ``[fmt]`` in the config forces a style, for ``fmt`` and
``lint --fix`` alike; and a second run changes nothing, on every realistic note."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from confnotes.config.settings import FmtSettings
from confnotes.errors import NotesError
from confnotes.fmt import format_markdown, outline_signature, render_markdown
from confnotes.fmt.emphasis import marks_of
from confnotes.fmt.styles import NoteParts
from confnotes.model import List, Node, walk_content
from confnotes.parse import ParseOptions, parse
from conftest import FIXTURES, NOTES, note_fixtures
from helpers import assert_same_words, source_words

KEPT = sorted((FIXTURES / "fmt" / "kept").glob("*.md"))
PASTED = sorted((FIXTURES / "fmt" / "pasted").glob("*.md"))
REALISTIC = sorted({*NOTES.glob("*.md"), *note_fixtures()})
GLYPHS = "•◦▪▫‣⁃●○■□➢➤"


def _fmt(text: str, **styles: str) -> str:
    options = ParseOptions(fmt=FmtSettings(**styles))
    return format_markdown(parse(text, "note.md", options), options, text)


def _lists(text: str) -> list[List]:
    return [entry for entry in walk_content(parse(text, "note.md").content) if type(entry) is List]


# ---------------------------------------------------------------- well-formed notes stay as they are


def test_enough_fixtures_of_each_kind():
    assert len(KEPT) >= 6 and len(PASTED) >= 3


@pytest.mark.parametrize("path", KEPT, ids=lambda p: p.stem)
def test_fmt_check_finds_nothing_to_change_in_a_well_formed_note(cli, path):
    """Session notes with code between bullets, a talk page of ``Speaker : name`` lines, a blog post
    of one-line paragraphs, ``*``/setext/``1. 1. 1.`` notes, ``+``/``__``/tab-nested notes and notes
    with ``---`` between talks: each in its own consistent style, each left byte for byte."""
    result = cli("fmt", "--check", str(path))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout == ""


def test_fmt_leaves_the_files_untouched(cli, tmp_path):
    for path in KEPT:
        shutil.copy(path, tmp_path / path.name)
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    result = cli("fmt", str(tmp_path))
    assert result.exit_code == 0 and result.stderr == ""
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before


@pytest.mark.parametrize("path", PASTED, ids=lambda p: p.stem)
def test_pasted_notes_are_tidied_by_fmt_and_rewritten_as_markdown_by_lint_fix(cli, tmp_path, path):
    """fmt never writes a heading the author did not write (issue 49): a paste keeps its bare lines
    and bullets; ``lint --fix`` (CN110) is how its author asks for Markdown."""
    note = tmp_path / path.name
    shutil.copy(path, note)
    text = note.read_text(encoding="utf-8")
    assert cli("fmt", str(note)).exit_code == 0
    assert note.read_text(encoding="utf-8").split() == text.split()  # whitespace at most
    assert cli("lint", "--fix", "--no-cache", "--select", "pasted-structure", str(note)).exit_code in (0, 1)
    out = note.read_text(encoding="utf-8")
    assert not any(line.lstrip().startswith(tuple(GLYPHS)) for line in out.splitlines())
    assert "\n## " in out and "\n- " in out
    assert_same_words(source_words(text), source_words(out), "lint --fix output")
    assert cli("fmt", "--check", str(note)).exit_code == 0  # and the Markdown is fmt's own


# ---------------------------------------------------------------- --- breaks


def test_breaks_between_sections_are_kept_where_the_author_wrote_them():
    text = "# Day one\n\n---\n\n## Keynote\n\n- a point\n\n***\n\n## Talk\n\nText.\n\n- - -\n\n## Second part\n\nMore text.\n\n---\n"
    assert _fmt(text) == text


def test_the_seeds_breaks_survive_fmt():
    text = (NOTES / "scale2025.md").read_text(encoding="utf-8")
    out = _fmt(text)
    rules = [line for line in out.splitlines()[4:] if line == "---"]  # after the front matter fmt adds
    assert len(rules) == len([line for line in text.splitlines() if line == "---"]) == 4
    assert len(parse(out, "scale2025.md").breaks) == len(parse(text, "scale2025.md").breaks) == 4


# ---------------------------------------------------------------- tight and loose lists


def test_a_tight_list_with_code_and_notes_between_bullets_stays_tight():
    text = (
        "# Deploy\n\n- Build the image:\n  ```sh\n  make image\n  ```\n- Push it\n  <!-- notes: mention the registry -->\n"
        "- Roll out:\n  > watch the error rate\n- Done\n"
    )
    assert _fmt(text) == text
    assert [lst.tight for lst in _lists(text)] == [True]


@pytest.mark.parametrize(
    "tail",
    ["    ```sh\n    kubectl get pods -l app=web\n    ```\n", "    | pods | ready |\n    |---|---|\n    | web | 3/3 |\n"],
    ids=["code", "table"],
)
def test_a_sub_point_ending_in_code_then_more_text_stays_tight(tail):
    """Before: fmt wrote a blank line between a sub-list that ends with a closed code fence (or a
    table) and the text under its parent point (a line right below a list would continue its last
    paragraph, but nothing continues a fence), so a second run read that point's list as loose."""
    text = f"# Kubernetes at scale\n\n## Rollouts\n\n- Canary first\n  - Check the pods:\n{tail}"
    text += "  Then widen it to 10%.\n- Roll back on errors\n"
    assert _fmt(text) == text
    assert [lst.tight for lst in _lists(text)] == [True, True]
    assert [lst.tight for lst in _lists(_fmt(text))] == [True, True]


def test_a_loose_list_keeps_the_one_blank_line_the_author_left():
    text = "# Plan\n\n- Monday: travel\n- Tuesday: talks\n\n- Wednesday: workshops\n- Thursday: home\n"
    assert _fmt(text) == text
    assert [lst.tight for lst in _lists(text)] == [False]


def test_a_list_item_with_a_blank_line_inside_stays_as_written():
    text = "# Steps\n\n1. Install\n\n   Use the wheel, not the sdist.\n2. Configure\n3. Run\n"
    assert _fmt(text) == text


@pytest.mark.parametrize("path", REALISTIC, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_fmt_keeps_every_markdown_lists_looseness(path):
    text = path.read_text(encoding="utf-8")
    try:
        out = _fmt(text)
    except NotesError:
        return
    before = [lst.tight for lst in _lists(text) if lst.origin == "list"]
    after = [lst.tight for lst in _lists(out) if lst.origin == "list"][: len(before)]
    if not parse(text, "note.md").recovered:
        assert after == before


# ---------------------------------------------------------------- a second run changes nothing


@pytest.mark.parametrize("path", REALISTIC, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_fmt_is_idempotent_on_realistic_notes(path):
    text = path.read_text(encoding="utf-8")
    try:
        once = _fmt(text)
    except NotesError:
        return  # fmt refuses what it cannot round-trip; refusing is the safe outcome
    assert _fmt(once) == once


@pytest.mark.parametrize(
    "text",
    [
        "# T\n\n- ```\n  SELECT 1;\n  ```\n\n## Next\n",  # a code block opened on the marker's line
        "# T\n\n- a\n  <!-- confnotes-disable-next-line long-item -->\n  - b\n- c\n",  # a directive inside a tight list
        "# T\n\n• pasted\n• bullets\n  ```\n  code\n  ```\n\nText.\n",  # code under a pasted bullet
        "# T\n\n- alpha\n- beta\n  ```\n  code\n  ```\n- gamma\n",  # code right under a bullet: was loose, then looser
    ],
)
def test_fmt_is_idempotent_where_blank_lines_used_to_move(text):
    """Shapes on which fmt refused, or wrote blank lines that its second run moved again."""
    once = _fmt(text)
    assert _fmt(once) == once
    assert outline_signature(parse(once, "note.md")) == outline_signature(parse(text, "note.md"))


# ---------------------------------------------------------------- styles: the note's own, or the config's


def test_a_consistent_note_keeps_its_own_markers():
    text = "Title\n=====\n\nSection\n-------\n\n* one _two_ __three__\n* four\n\n1. a\n1. b\n"
    assert _fmt(text) == text


def test_a_note_that_mixes_styles_gets_the_first_choice_of_each_on_a_tie():
    text = (
        "Title\n=====\n\n## S\n\n* a\n\nText.\n\n+ b\n\nWith *one* and _two_, **three** and __four__.\n\n"
        "1. x\n1. y\n\nText.\n\n1. p\n2. q\n"
    )
    assert _fmt(text) == (
        "Title\n=====\n\nS\n---\n\n* a\n\nText.\n\n* b\n\nWith *one* and *two*, **three** and **four**.\n\n"
        "1. x\n1. y\n\nText.\n\n1. p\n1. q\n"
    )


def test_a_note_that_mixes_styles_gets_its_majority_of_each():
    """Issue 49: seven ``1. 1. 1.`` lists are not renumbered because the first list counted up."""
    text = (
        "# Title\n\n## S\n\nS2\n--\n\n## S3\n\n* a\n\nText.\n\n- b\n\nText.\n\n- c\n\n"
        "With *one*, _two_ and *three*, __four__, __five__ and **six**.\n\n1. x\n2. y\n\nText.\n\n1. p\n1. q\n\nText.\n\n1. r\n1. s\n"
    )
    assert _fmt(text) == (
        "# Title\n\n## S\n\n## S2\n\n## S3\n\n- a\n\nText.\n\n- b\n\nText.\n\n- c\n\n"
        "With *one*, *two* and *three*, __four__, __five__ and __six__.\n\n1. x\n1. y\n\nText.\n\n1. p\n1. q\n\nText.\n\n1. r\n1. s\n"
    )


def test_bullet_markers_are_a_style_per_list_level():
    """``*`` at the top and ``-`` below is a style (kept); a stray marker at a level takes that level's majority."""
    kept = "# T\n\n* a\n  - b\n\n## S\n\n* c\n  - d\n  - e\n"
    assert _fmt(kept) == kept
    stray = "# T\n\n* a\n  - b\n\n## S\n\n* c\n  + d\n\n## U\n\n* f\n  - g\n"
    assert _fmt(stray) == stray.replace("+ d", "- d")


STYLE_CASES = [
    ("bullet", "+"),
    ("bullet", "*"),
    ("bullet", "-"),
    ("heading", "setext"),
    ("heading", "atx"),
    ("emphasis", "_"),
    ("emphasis", "*"),
    ("strong", "_"),
    ("strong", "*"),
    ("ordered", "one"),
    ("ordered", "ordered"),
]


def _style_holds(text: str, option: str, value: str) -> bool:
    doc = parse(text, "note.md")
    lists = [lst for lst in walk_content(doc.content) if type(lst) is List and lst.origin == "list"]
    if option == "bullet":
        return all(lst.marker == value for lst in lists if not lst.ordered)
    if option == "heading":
        sections = [node for node in walk_content(doc.content) if type(node) is Node and node.is_section]
        levels = {"setext": lambda node: node.level <= 2, "atx": lambda node: "\n" not in node.title}
        written = [node for node in sections if node.origin != "inferred"]  # a paste's bare lines stay bare
        return all(node.origin == value for node in written if levels[value](node))
    if option == "ordered":
        numbered = [[int(item.number or 0) for item in lst.items] for lst in lists if lst.ordered]
        wanted = {"one": lambda ns: [ns[0]] * len(ns), "ordered": lambda ns: list(range(ns[0], ns[0] + len(ns)))}[value]
        return all(numbers == wanted(numbers) for numbers in numbered)
    marks = [marks_of(text) for text in NoteParts.of(doc).texts]
    return all(set(getattr(mark, option)) <= {value} for mark in marks)


@pytest.mark.parametrize(("option", "value"), STYLE_CASES)
def test_each_fmt_setting_forces_its_style(cli, tmp_path, option, value):
    (tmp_path / "confnotes.toml").write_text(f'[fmt]\n{option} = "{value}"\n', encoding="utf-8")
    for path in [*KEPT, *PASTED]:
        shutil.copy(path, tmp_path / path.name)
    result = cli("fmt", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    for path in [*KEPT, *PASTED]:
        text, out = path.read_text(encoding="utf-8"), (tmp_path / path.name).read_text(encoding="utf-8")
        assert _style_holds(out, option, value), path.name
        assert_same_words(source_words(text), source_words(out), f"fmt {option}={value} of {path.name}")
    assert cli("fmt", "--check", str(tmp_path)).exit_code == 0  # written once, then stable


def test_the_default_style_of_each_fixture_holds_and_a_forced_one_changes_it():
    text = (FIXTURES / "fmt" / "kept" / "star-setext-one-one-one.md").read_text(encoding="utf-8")
    assert _style_holds(text, "bullet", "*") and _style_holds(text, "heading", "setext") and _style_holds(text, "ordered", "one")
    forced = _fmt(text, bullet="-", heading="atx", ordered="ordered", emphasis="*", strong="_")
    assert "\n* " not in forced and "\n====" not in forced and "\n1. Set a freshness" not in forced
    assert "2. Set a freshness target" in forced and "*consumer*" in forced and "__never__" in forced


def test_lint_fix_writes_the_configured_style_and_fmt_keeps_it(cli, tmp_path):
    (tmp_path / "confnotes.toml").write_text('[fmt]\nbullet = "*"\nheading = "setext"\n', encoding="utf-8")
    shutil.copy(FIXTURES / "fmt" / "pasted" / "docs-paste.md", tmp_path / "notes.md")
    cli("lint", "--fix", "--no-cache", "--select", "pasted-structure", str(tmp_path))
    by_lint = (tmp_path / "notes.md").read_text(encoding="utf-8")
    assert "\n* Platforms fail" in by_lint and "Opening keynote\n---------------" in by_lint
    assert cli("fmt", "--check", str(tmp_path)).exit_code == 0


def test_styles_never_change_what_a_text_says():
    # `foo*bar*` is emphasis; `foo_bar_` would not be: that one stays as written
    assert _fmt("# T\n\nA foo*bar* and *baz*.\n", emphasis="_") == "# T\n\nA foo*bar* and _baz_.\n"
    # a heading that, underlined, would read as a list item stays ATX
    assert _fmt("# T\n\n## 1. Intro\n\nText.\n", heading="setext") == "T\n===\n\n## 1. Intro\n\nText.\n"
    # and so does an empty one: underlined, it would be a rule
    assert _fmt("# T\n\n##\n\n- a\n", heading="setext") == "T\n===\n\n##\n\n- a\n"
    # code keeps its underscores and asterisks
    text = "# T\n\nUse `snake_case` and `a*b*c`, _really_.\n\n```py\nx = a * b * c  # _not_ emphasis\n```\n"
    assert _fmt(text, emphasis="*") == text.replace("_really_", "*really*")


def test_renumbering_keeps_a_lists_first_number():
    text = "# T\n\n1. a\n2. b\n4. c\n\nText.\n\n3. d\n4. e\n"
    assert _fmt(text) == "# T\n\n1. a\n2. b\n3. c\n\nText.\n\n3. d\n4. e\n"
    assert _fmt(text, ordered="one") == "# T\n\n1. a\n1. b\n1. c\n\nText.\n\n3. d\n3. e\n"


def test_render_markdown_takes_the_settings_too():
    doc = parse("# T\n\n- a\n- b\n", "note.md")
    assert render_markdown(doc, FmtSettings(bullet="+")) == "# T\n\n+ a\n+ b\n"
    assert render_markdown(doc) == "# T\n\n- a\n- b\n"


def test_fmt_settings_are_checked(tmp_path):
    from confnotes.config import config_from_table

    assert config_from_table({"fmt": {"bullet": "*"}}, "confnotes.toml").fmt == FmtSettings(bullet="*")
    with pytest.raises(NotesError, match="'fmt.bullet' must be one of consistent, -, \\*, \\+"):
        config_from_table({"fmt": {"bullet": "•"}}, "confnotes.toml")
    with pytest.raises(NotesError, match="unknown key 'fmt.indent'"):
        config_from_table({"fmt": {"indent": 4}}, "confnotes.toml")
    with pytest.raises(NotesError, match="'fmt' must be a table"):
        config_from_table({"fmt": "atx"}, "confnotes.toml")


def test_the_default_is_consistent_everywhere():
    assert FmtSettings() == FmtSettings("consistent", "consistent", "consistent", "consistent", "consistent")


def test_outline_differences_agree_with_the_whole_signatures():
    """fmt compares outlines entry by entry (``outline_differences``), never building two whole
    signatures; it names the same parts ``iter_differences`` does, on every pair of fixtures and
    on each fixture against its own converted text (glyph bullets become Markdown lists there)."""
    from confnotes.fmt import iter_differences, outline_differences

    fixtures = Path(__file__).parent / "fixtures"
    docs = [parse(path.read_text(encoding="utf-8"), path.name) for path in sorted(fixtures.rglob("*.md"))[:60]]
    formatted = []
    for doc in docs:
        try:
            formatted.append(parse(format_markdown(doc, convert=True), doc.path))
        except NotesError:
            continue
    assert len(formatted) > 40
    pairs = [*zip(docs, formatted, strict=False), *zip(docs, docs[1:], strict=False), *zip(formatted, docs[3:], strict=False)]
    for before, after in pairs:
        expected = list(iter_differences(outline_signature(before), outline_signature(after)))
        assert outline_differences(before, after) == expected, (before.path, after.path)
