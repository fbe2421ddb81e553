"""Typed settings: each decision made once, so lint, the deck and ``time`` read a note the same way."""

from __future__ import annotations

import json
import os

import pytest

from confnotes.config import Config, config_from_table
from confnotes.config.settings import SlideSettings
from confnotes.errors import NotesError

SEVEN = "\n".join(f"   - sub point {n}" for n in range(1, 8))
TALK = f"# Talk\n\n## Part\n\n1. Point\n{SEVEN}\n"


def _lint_json(cli, *args: str) -> list[dict]:
    result = cli("lint", "--format", "json", "--profile", "talk", *args)
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)


def _rules(findings: list[dict]) -> list[str]:
    return [finding["name"] for finding in findings]


def test_lint_reads_the_front_matters_slide_limits_as_the_deck_does(cli, tmp_path):
    """Disagreement 1: lint said "limit 6" for a slide the deck keeps whole with front matter max_items 8."""
    note = tmp_path / "talk.md"
    note.write_text(f"---\nslides:\n  max_items: 8\n---\n{TALK}")
    assert "too-many-items" not in _rules(_lint_json(cli, str(note)))
    deck = cli("render", str(note), "--to", "outline", "-o", "-")
    assert deck.exit_code == 0 and "(cont.)" not in deck.stdout  # the deck keeps the slide whole too
    (tmp_path / "confnotes.toml").write_text("[slides]\nmax_items = 8\n")
    note.write_text(f"---\nslides:\n  max_items: 5\n---\n{TALK}")  # the note's own limit wins over the config's
    messages = [f["message"] for f in _lint_json(cli, str(note)) if f["name"] == "too-many-items"]
    assert messages == ["slide 'Point' has 7 items (limit 5)"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_lint_resolves_links_from_a_symlinked_notes_real_folder(cli, tmp_path):
    """Disagreement 2: lint resolved images from the symlink's folder while renderers follow the link."""
    real = tmp_path / "talks"
    real.mkdir()
    (real / "diagram.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (real / "talk.md").write_text("# Talk\n\nThe architecture:\n\n![Architecture](diagram.png)\n")
    published = tmp_path / "site-notes"
    published.mkdir()
    (published / "talk.md").symlink_to(real / "talk.md")
    findings = _lint_json(cli, str(published / "talk.md"))
    assert "broken-link" not in _rules(findings)
    (real / "diagram.png").unlink()  # and a real miss is still found
    assert "broken-link" in _rules(_lint_json(cli, str(published / "talk.md")))


def test_slide_seconds_is_a_number_everywhere(cli, tmp_path):
    """Disagreement 3: slide_seconds = 2.5 was refused in the config although --slide-seconds 2.5 worked."""
    (tmp_path / "confnotes.toml").write_text("[slides]\nslide_seconds = 2.5\n")
    note = tmp_path / "talk.md"
    note.write_text("---\nduration: 20min\n---\n# Talk\n\n## Part\n\n- one two three\n")
    from_config = cli("time", str(note), "--format", "json")
    assert from_config.exit_code == 0, from_config.stderr
    from_flag = cli("time", str(note), "--format", "json", "--slide-seconds", "2.5")
    assert json.loads(from_config.stdout) == json.loads(from_flag.stdout)
    note.write_text("---\nslides:\n  slide_seconds: 1.5\n---\n# Talk\n\n## Part\n\n- one two three\n")
    assert cli("time", str(note)).exit_code == 0


def test_one_merge_defaults_config_front_matter_command_line():
    configured = SlideSettings().merged({"max_items": 8, "wpm": 150}, "slides.", "confnotes.toml")
    assert (configured.max_items, configured.wpm, configured.max_words) == (8, 150, 60)
    noted = configured.merged({"max_items": 5}, "slides.", "talk.md")
    assert (noted.max_items, noted.wpm) == (5, 150)
    assert noted.overridden(max_items=None, wpm=120) == SlideSettings(max_items=5, wpm=120)
    assert isinstance(SlideSettings().merged({"slide_seconds": 3}).slide_seconds, float)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"slides": {"max_items": 0}}, "'slides.max_items' must be a whole number from 1 to 1000, not 0"),
        ({"slides": {"notes": "no"}}, "'slides.notes' must be true or false, not 'no'"),
        ({"slides": {"wpm": True}}, "'slides.wpm' must be a whole number from 50 to 400, not True"),
        ({"slides": {"slide_seconds": float("nan")}}, "'slides.slide_seconds' must be a number from 0 to 60"),
        ({"slides": {"max_itemz": 3}}, "unknown key 'slides.max_itemz'"),
        ({"paper": "a5"}, "'paper' must be one of a4, letter, not 'a5'"),
        ({"build": {"formats": "pdf"}}, "'build.formats' must be a list of strings, not 'pdf'"),
        ({"lint": {"fail_on": "never"}}, "'lint.fail_on' must be one of info, warning, error, not 'never'"),
        ({"slides": 3}, "'slides' must be a table"),
    ],
)
def test_every_value_is_checked_against_its_type(table, message, cli, tmp_path):
    if "lint" in table:
        (tmp_path / "confnotes.toml").write_text('[lint]\nfail_on = "never"\n')
        (tmp_path / "a.md").write_text("# A\n")
        result = cli("lint", str(tmp_path / "a.md"))
        assert result.exit_code == 2 and message in result.stderr
        return
    with pytest.raises(NotesError) as raised:
        config_from_table(table, "confnotes.toml")
    assert message in str(raised.value)


def test_config_is_typed():
    config = config_from_table({"slides": {"max_items": 4}, "build": {"formats": ["html"]}, "paper": "Letter"}, "confnotes.toml")
    assert isinstance(config, Config) and config.slides.max_items == 4 and config.build.formats == ("html",)
    assert config.paper == "letter"


def test_rule_option_types_come_from_their_annotations(cli, tmp_path):
    """Option types were guessed from key names (an option starting with "max"); now each is read
    from the rule's ``Options`` annotation, allowed values included."""
    note = tmp_path / "a.md"
    note.write_text("# A\n\n1. one\n1. two\n")
    (tmp_path / "confnotes.toml").write_text('[lint.rules.numbering]\nstyle = "roman"\n')
    result = cli("lint", str(note))
    assert result.exit_code == 2 and "option 'style' of numbering must be one of one_or_ordered, ordered, one, not 'roman'" in result.stderr
    (tmp_path / "confnotes.toml").write_text('[lint.rules.numbering]\nstart = "one"\n')
    result = cli("lint", str(note))
    assert result.exit_code == 2 and "option 'start' of numbering must be a whole number of at least 1" in result.stderr
