"""Callouts as GitHub, Obsidian and Quarto users write them: read one way, a box of their kind with a
title in the page (foldable on screen), open in print; unknown types a lint finding; fmt keeps them."""

from __future__ import annotations

import pytest

from confnotes.markup.callouts import callout, div_callout, plain_quote, quote_body, quote_callout

NOTE = """---
title: Reading group, week 3
---

Notes from the session on *Designing Data-Intensive Applications*.

## Replication

> [!NOTE]
> Leader-based replication is what most databases ship with.

> [!IMPORTANT]
>
> Read-your-writes needs routing, not just replicas.

- Sync vs async followers
  > [!tip] Use **uv** for the demo
  > It installs in seconds.

> [!faq]- Why not multi-leader?
> Conflicts. Every one of them is a product decision.

> [!example]+ The chat app
> Two devices, one inbox.

> An ordinary quote stays a quote.

::: {.callout-warning title="Before the exam"}
Re-read chapter 5.
:::
"""


@pytest.mark.parametrize(
    ("line", "kind", "title", "fold"),
    [
        ("[!NOTE]", "note", "Note", ""),
        ("[!TIP]", "tip", "Tip", ""),
        ("[!IMPORTANT]", "important", "Important", ""),
        ("[!WARNING]", "warning", "Warning", ""),
        ("[!CAUTION]", "caution", "Caution", ""),
        ("[!quote] Ada Lovelace", "quote", "Ada Lovelace", ""),
        ("[!faq]- Why?", "question", "Why?", "-"),
        ("[!tldr]+ In short", "abstract", "In short", "+"),
        ("[!error]", "danger", "Danger", ""),
    ],
)
def test_every_type_github_and_obsidian_know(line, kind, title, fold):
    found = callout(line)
    assert (found.kind, found.title, found.fold, found.known) == (kind, title, fold, True)


def test_unknown_types_and_what_is_no_callout():
    unknown = callout("[!bogus] Mine")
    assert (unknown.kind, unknown.title, unknown.known) == ("note", "Mine", False)
    assert callout("[NOTE]") is None and callout("Just text [!NOTE]") is None
    assert quote_callout("Some paragraph") is None
    assert div_callout("columns", "::: columns") is None
    found = div_callout("callout-tip", "::: {.callout-tip title='Do this'}")
    assert (found.kind, found.title) == ("tip", "Do this")
    assert div_callout("callout-note", "::: {.callout-note}").title == "Note"


def test_a_callout_as_plain_markdown():
    text = "> [!WARNING] Mind the gap\n> Line one\n>\n> Line two"
    assert quote_body(text) == ("Mind the gap", "Line one\n\nLine two")
    found = quote_callout(text)
    assert found is not None and found.body is not None and found.body.body == "Line one\n\nLine two"
    assert plain_quote(found) == "> **⚠ Mind the gap**\n>\n> Line one\n>\n> Line two"
    assert quote_callout("> just a quote") is None


def _page(tmp_path, cli, to="html"):
    note = tmp_path / "week3.md"
    note.write_text(NOTE, encoding="utf-8")
    out = tmp_path / f"week3.{to}"
    result = cli("render", str(note), "--to", to, "-o", str(out))
    assert result.exit_code == 0, result.output
    return out


def test_the_page_draws_each_callout_as_a_box_of_its_kind(tmp_path, cli):
    html = _page(tmp_path, cli).read_text(encoding="utf-8")
    assert '<div class="callout callout-note keep" role="note" dir="auto">\n<p class="callout-title">Note</p>' in html
    # the marker alone on its line: the title is the type's, the body the next paragraph
    assert '<p class="callout-title">Important</p><p dir="auto">Read-your-writes needs routing' in html
    assert '<p class="callout-title">Use <strong>uv</strong> for the demo</p>' in html  # inside a list item, inline Markdown in the title
    assert (
        '<details class="callout callout-question keep" dir="auto">\n<summary class="callout-title">Why not multi-leader?</summary>' in html
    )
    assert '<details class="callout callout-example keep" open="" dir="auto">' in html
    assert "<blockquote" in html and "An ordinary quote stays a quote." in html
    assert '<div class="callout callout-warning" role="note"><p class="callout-title">Before the exam</p>' in html
    assert "[!" not in html


def test_print_shows_foldable_callouts_open(tmp_path, cli, weasyprint):
    from helpers import pdf_text

    text = " ".join(pdf_text(_page(tmp_path, cli, "pdf").read_bytes()).split())
    assert "Why not multi-leader? Conflicts. Every one of them is a product decision." in text
    assert "Before the exam Re-read chapter 5." in text and "[!" not in text


def test_a_title_cannot_carry_markup_in(tmp_path, cli):
    note = tmp_path / "x.md"
    note.write_text("# X\n\n> [!note] <img src=x onerror=alert(1)>\n> body\n", encoding="utf-8")
    cli("render", str(note), "--to", "html", "-o", str(tmp_path / "x.html"))
    html = (tmp_path / "x.html").read_text(encoding="utf-8")
    assert (
        "onerror" not in html and '<p class="callout-title"></p><p dir="auto">body</p>' in html
    )  # raw HTML's tags are dropped, as anywhere


def test_lint_names_unknown_types_and_fmt_keeps_callouts(tmp_path, cli):
    import json

    note = tmp_path / "week3.md"
    text = NOTE.replace("[!IMPORTANT]", "[!IMPORTANTE]") + "\n::: {.callout-hint-box}\nHm.\n:::\n"
    note.write_text(text, encoding="utf-8")
    div_line = text.split("\n").index("::: {.callout-hint-box}") + 1
    findings = [f for f in json.loads(cli("lint", str(note), "--format", "json").stdout) if f["name"] == "unknown-callout"]
    assert [(f["line"], f["message"]) for f in findings] == [
        (12, "callout type 'IMPORTANTE' is not one any output knows: shown as a note; did you mean 'IMPORTANT'?"),
        (div_line, "callout type 'hint-box' is not one any output knows: shown as a note; did you mean 'hint'?"),
    ]
    clean = tmp_path / "clean.md"
    clean.write_text(NOTE, encoding="utf-8")
    assert [f for f in json.loads(cli("lint", str(clean), "--format", "json").stdout) if f["name"] == "unknown-callout"] == []
    assert cli("fmt", "--check", str(clean)).exit_code == 0  # nothing to tidy: a callout is a quote as written


LISTS = """# Incident reviews

## What we changed

::: {.callout-tip title="Three habits"}
- Write the timeline first
- Name no one
  - not even in the channel
- Publish within a week
:::

Then the numbers.

## Where

> [!NOTE] Every Monday
> 1. one review
> 2. one action
"""


def test_a_callout_holding_a_list_is_a_box_with_its_title_and_items_on_every_deck(tmp_path, cli):
    """A Quarto callout div or a GitHub alert holding a list: the deck draws the box with its
    title (the div's title was lost on slides, its box too), Marp keeps each item on its line (they
    ran onto one), PPTX writes each item as its own line behind its bullet or number."""
    import zipfile

    note = tmp_path / "reviews.md"
    note.write_text(LISTS, encoding="utf-8")
    for fmt in ("slides", "marp", "pptx"):
        cli("render", str(note), "--to", fmt, "-o", str(tmp_path / f"out.{fmt}"))
    deck = (tmp_path / "out.slides").read_text(encoding="utf-8")
    assert '<div class="callout callout-tip keep" role="note" dir="auto">\n<p class="callout-title">Three habits</p><ul>' in deck
    assert "not even in the channel" in deck and deck.count('class="callout-title"') == 2
    marp = (tmp_path / "out.marp").read_text(encoding="utf-8")
    assert "> - Write the timeline first\n> - Name no one\n>   - not even in the channel\n> - Publish within a week" in marp
    assert "> 1. one review\n> 2. one action" in marp
    with zipfile.ZipFile(tmp_path / "out.pptx") as archive:
        texts = " | ".join(archive.read(name).decode() for name in sorted(archive.namelist()) if name.startswith("ppt/slides/slide"))
    for shown in ("<a:t>Three habits</a:t>", "<a:t>• Write the timeline first</a:t>", "<a:t>\u2003◦ not even in the channel</a:t>"):
        assert shown in texts, shown
    assert "<a:t>1. one review</a:t>" in texts and "<a:t>2. one action</a:t>" in texts


def test_the_fit_engine_measures_a_callouts_list_a_line_an_item():
    """Three short items are three lines in the box (they were measured as one paragraph), so the
    box PPTX draws is tall enough for them and its text is not shrunk."""
    from confnotes.slides.fit import entry_height
    from helpers import slide_text

    title = entry_height(slide_text("> [!tip] Three habits", "quote"), 1.0)
    line = entry_height(slide_text("> [!tip] Three habits\n> Write the timeline first", "quote"), 1.0) - title
    listed = entry_height(slide_text("> [!tip] Three habits\n> - Write it first\n> - Name no one\n> - Publish it", "quote"), 1.0)
    assert listed - title == pytest.approx(3 * line)
