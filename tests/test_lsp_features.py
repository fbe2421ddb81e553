"""What the language server answers, in process (``lsp.features`` on one analysis): the findings,
the outline and its folds, the talk clock's lenses and hovers, completions, links and fixes. The
server over pipes, in real editors, is tested in test_lsp.py, test_lsp_neovim.py and test_lsp_emacs.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp

TALK = """---
title: Shipping on Fridays
kind: talk
duration: 10min
budgets:
  Why Fridays: 2min
---

# Shipping on Fridays

## Why Fridays

- Small changes ship any day
* Big ones never do
- See [the runbook](runbook.md) and ![the chart](chart.png)

## How we ship

1. Canary first
2. Then half the fleet

::: notes
Tell the okapi story.
:::

## What broke

- One config change, once
"""


@pytest.fixture
def analysis(tmp_path: Path):
    from confnotes.lsp.analysis import analyse

    (tmp_path / "runbook.md").write_text("# Runbook\n", encoding="utf-8")
    note = tmp_path / "talk.md"
    note.write_text(TALK, encoding="utf-8")
    return analyse(str(note), TALK, 1)


def _line(text: str, needle: str) -> int:
    """The 1-based line of the first line holding ``needle``."""
    return next(number for number, line in enumerate(text.split("\n"), 1) if needle in line)


def test_the_findings_are_the_command_lines_with_their_rule_links(analysis):
    from confnotes.check import Checker, LintRequest
    from confnotes.lsp.features import diagnostics
    from confnotes.lsp.options import ServerOptions

    shown = diagnostics(analysis, ServerOptions())
    checker = Checker(LintRequest())
    ctx = checker.context(analysis.source, checker.config_for(analysis.path))
    cli = sorted((f.rule, f.line) for f in checker.lint(ctx, checker.config_for(analysis.path)))
    assert sorted((d.code, d.range.start.line + 1) for d in shown) == cli
    mixed = next(d for d in shown if d.code == "CN106")
    assert mixed.range.start.line + 1 == _line(TALK, "* Big ones") and mixed.source == "confnotes"
    assert mixed.code_description is not None and mixed.code_description.href.endswith("#cn106-mixed-markers")
    assert diagnostics(analysis, ServerOptions(diagnostics=False)) == []
    assert all(d.code != "CN106" for d in diagnostics(analysis, ServerOptions(ignore=("CN106",))))


def test_the_outline_and_its_folds(analysis):
    from confnotes.lsp.features import document_symbols, folding_ranges

    symbols = document_symbols(analysis)  # the title's heading is the note's title, not a part
    assert [(symbol.name, symbol.kind) for symbol in symbols] == [
        ("Why Fridays", lsp.SymbolKind.Namespace),
        ("How we ship", lsp.SymbolKind.Namespace),
        ("What broke", lsp.SymbolKind.Namespace),
    ]
    assert [child.name for child in symbols[1].children or []] == ["Canary first", "Then half the fleet"]
    folds = folding_ranges(analysis)
    assert folds[0].kind == lsp.FoldingRangeKind.Imports and (folds[0].start_line, folds[0].end_line) == (0, 6)
    why = _line(TALK, "## Why Fridays") - 1
    assert any(fold.start_line == why and fold.kind == lsp.FoldingRangeKind.Region for fold in folds)


def test_the_talk_clock_over_the_parts_and_on_hover(analysis):
    from confnotes.lsp.features import code_lenses, hover, timing_table

    lenses = code_lenses(analysis, Path(analysis.path).as_uri())
    titles = [lens.command.title for lens in lenses if lens.command is not None]
    assert titles[0] == "Preview deck" and " of a 10:00 slot · " in titles[1] and titles[1].endswith("wpm")
    why = next(lens for lens in lenses if lens.range.start.line == _line(TALK, "## Why Fridays") - 1)
    assert why.command is not None and why.command.title.endswith("of 2:00")
    assert "Why Fridays" in timing_table(analysis)
    shown = hover(analysis, lsp.Position(_line(TALK, "## Why Fridays") - 1, 3))
    assert shown is not None and "**Why Fridays**" in shown.contents.value and "Budget 2:00" in shown.contents.value
    finding = hover(analysis, lsp.Position(_line(TALK, "* Big ones") - 1, 0))
    assert finding is not None and "CN106" in finding.contents.value and "rule catalogue" in finding.contents.value
    assert hover(analysis, lsp.Position(_line(TALK, "Tell the okapi") - 1, 0)) is None


def test_the_slide_under_the_cursor(analysis):
    from confnotes.lsp.features import slide_at

    decks = analysis.context.fitted_deck.slides
    titles = {number: slide.title for number, slide in enumerate(decks, 1)}
    assert slide_at(analysis, 1) == 1  # the front matter: the title slide
    assert titles[slide_at(analysis, _line(TALK, "1. Canary first"))] == "How we ship"
    assert titles[slide_at(analysis, _line(TALK, "## What broke"))] == "What broke"


def test_completions_in_the_front_matter_slide_directives_and_disable_comments():
    from confnotes.lsp.features import completions

    def labels(text: str, line: int, character: int) -> list[str]:
        return [item.label for item in completions(text, lsp.Position(line, character))]

    front = "---\nti\n---\n"
    assert "title" in labels(front, 1, 2) and "duration" in labels(front, 1, 2)
    assert labels("---\nkind: \n---\n", 1, 6) == ["notes", "talk", "reading-list"]
    assert "max_items" in labels("---\nslides:\n  \n---\n", 2, 2)
    assert labels("---\ntags:\n  \n---\n", 2, 2) == []  # a key of another table
    assert "layout" in labels("<!-- slide ", 0, 11) and "incremental" in labels("<!-- slide ", 0, 11)
    assert "big-number" in labels("<!-- slide layout: ", 0, 19)
    assert "CN106" in labels("<!-- confnotes-disable ", 0, 23)
    assert labels("# After the front matter\n", 0, 5) == []


def test_links_to_files_beside_the_note(analysis, tmp_path):
    from confnotes.lsp.features import document_links

    (link,) = document_links(analysis)  # the chart is missing: no link to it
    assert link.target == (tmp_path / "runbook.md").resolve().as_uri() and link.range.start.line == _line(TALK, "runbook") - 1


def test_fixes_formatting_and_a_disable_comment(analysis):
    from confnotes.lsp.analysis import fixed_text, formatted_text, silences
    from confnotes.lsp.features import disable_edit, text_edits, whole

    mixed = next(f for f in analysis.findings if f.rule == "CN106")
    (edit,) = text_edits(analysis, mixed)
    assert edit.new_text == "-" and edit.range.start.line == _line(TALK, "* Big ones") - 1
    fixed = fixed_text(analysis)
    assert "- Big ones never do" in fixed and "* Big ones" not in fixed
    assert whole(analysis, analysis.text) == []
    (replaced,) = whole(analysis, fixed)
    assert replaced.new_text == fixed and replaced.range.start == lsp.Position(0, 0)
    assert formatted_text(analysis) == analysis.text  # a list that changes its marker is a list of its own: fmt keeps it
    comment = disable_edit(analysis, mixed)
    assert comment is not None and "confnotes-disable-next-line CN106" in comment.new_text
    lines = TALK.split("\n")
    at = comment.range.start.line
    assert silences(analysis, mixed, "\n".join([*lines[:at], comment.new_text.rstrip("\n"), *lines[at:]]))


def test_workspace_symbols_match_a_sections_title_in_order(analysis):
    from confnotes.lsp.features import section_index, workspace_symbols

    sections = section_index(analysis.context.doc)
    assert [title for title, _, _ in sections] == ["Why Fridays", "How we ship", "What broke"]
    found = workspace_symbols(analysis.path, sections, "hwsh")  # "How we ship", letters in order
    assert [symbol.name for symbol in found] == ["How we ship"] and found[0].container_name == "Shipping on Fridays"
    assert len(workspace_symbols(analysis.path, sections, "")) == 3


def test_formatting_what_fmt_would_tidy(tmp_path):
    from confnotes.lsp.analysis import analyse, formatted_text

    note = tmp_path / "notes.md"
    text = "# Notes\n\n## Takeaways\n\n-   one\n- two\n\n\n\n## Next\n\nText\n"
    assert formatted_text(analyse(str(note), text, 1)) == "# Notes\n\n## Takeaways\n\n- one\n- two\n\n## Next\n\nText\n"
