"""Deck limits keep content (issue 49): a long README-style note gets a deck that goes on past 300
slides, a 402-line code block is split over slides whole, and both limits are ``[slides]`` settings
(config or front matter) with a warning only where something is really left out."""

from __future__ import annotations

from confnotes.config.settings import SlideSettings
from confnotes.parse import parse
from confnotes.slides import DeckOptions, build_deck, slide_settings
from confnotes.slides.fit import code_lines


def _deck(text: str):
    doc = parse(text, "readme.md")
    return build_deck(doc, DeckOptions.from_settings(slide_settings(SlideSettings(), doc)))


def _readme(sections: int) -> str:
    """A long project README read as a talk: a section per command or option, each with a few
    points and a short example."""
    parts = ["# toolkit: the complete reference\n\nEverything the command line does, one section each.\n"]
    for index in range(sections):
        parts.append(
            f"\n## `toolkit sub{index}`\n\n- what it does: step {index} of the pipeline\n- when to use it: after `sub{index - 1}`\n\n"
            f"```sh\ntoolkit sub{index} --input data/{index}.csv\n```\n"
        )
    return "".join(parts)


def test_a_long_readme_gets_a_deck_past_300_slides_with_every_section():
    deck = _deck(_readme(320))
    titles = [slide.title for slide in deck.slides]
    assert len(deck.slides) > 320 and deck.cut == ()
    assert "`toolkit sub319`" in titles and "More in the notes" not in titles


def test_a_402_line_code_block_is_split_over_slides_not_cut():
    listing = "".join(f"    step_{i}()  # phase {i // 40}\n" for i in range(402))
    deck = _deck("# Migration script\n\n## The whole script\n\n```python\ndef migrate():\n" + listing + "```\n")
    shown = [line for slide in deck.slides for entry in slide.content if entry.kind == "code" for line in code_lines(entry)]
    assert deck.cut == () and len(deck.slides) > 5
    assert shown == ["def migrate():", *(f"    step_{i}()  # phase {i // 40}" for i in range(402))]


def test_both_limits_are_settings_and_past_them_a_warning_says_what_is_left_out():
    text = "---\nslides:\n  max_slides: 40\n  max_code_lines: 100\n---\n" + _readme(60) + "\n## Listing\n\n```\n" + "x\n" * 150 + "```\n"
    deck = _deck(text)
    assert len(deck.slides) == 40 and deck.slides[-1].title == "More in the notes"
    assert any("the deck stops at 40 slides (the limit for one deck: [slides] max_slides)" in cut for cut in deck.cut)
    code = _deck("---\nslides:\n  max_code_lines: 100\n---\n# Code\n\n## Listing\n\n```\n" + "x\n" * 150 + "```\n")
    assert code.cut[0].startswith("slide 'Listing': code block cut to its first 100 lines on slides (50 more;")


def test_the_config_sets_the_limits_for_every_note(cli, tmp_path):
    (tmp_path / "confnotes.toml").write_text("[slides]\nmax_slides = 20\n")
    note = tmp_path / "readme.md"
    note.write_text(_readme(40))
    result = cli("render", str(note), "--to", "outline", "-o", str(tmp_path / "out.txt"))
    assert result.exit_code == 0 and "the deck stops at 20 slides" in result.stderr
    bad = cli("render", str(note), "--to", "outline", "-o", "-", "--config", str(_config(tmp_path, "max_slides = 3")))
    assert bad.exit_code == 2 and "'slides.max_slides' must be a whole number from 10 to 5000" in bad.stderr


def _config(folder, line: str):
    path = folder / "other.toml"
    path.write_text(f"[slides]\n{line}\n")
    return path
