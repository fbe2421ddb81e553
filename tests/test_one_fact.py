"""Each fact is stated once (issue "A suite contributors run in minutes, and each fact stated once"):
the rule tags, the words that name a session and the options commands share each live in one place,
and everything that needs them reads that place. Each test fails when a second list drifts from it."""

from __future__ import annotations

import json
import re

import click
import pytest

from confnotes.cli import main
from confnotes.lint.rules import CATALOGUE, TAGS, load
from conftest import ROOT

# ---------------------------------------------------------------- rule tags


def test_the_editor_switches_exactly_the_catalogue_tags():
    from confnotes.lsp.options import CLASSES, read_options

    assert (*TAGS, "read") == CLASSES
    for tag in TAGS:  # every class a rule has can be switched off in the editor, with no warning
        options, warnings = read_options({"confnotes": {"diagnostics": {tag: False}}})
        assert warnings == [] and not options.shows_class(tag)
    assert {"math", "footnotes", "project"} <= set(TAGS)  # the classes the server used to refuse


def test_a_rule_module_takes_its_tags_from_the_catalogue():
    for entry in CATALOGUE:
        assert entry.tags, f"{entry.id} has no tag"
        assert load(entry.id).META.tags == entry.tags


def test_the_editor_hides_a_finding_by_its_rule_tags_without_loading_the_rule():
    from confnotes.lsp.features import rule_tags

    assert rule_tags("CN209") == ("math",) and rule_tags("CN401") == ("project",)


def test_docs_editors_md_lists_every_class():
    text = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    block = re.search(r"```json\n(.*?)\n```", text, re.S)
    assert block is not None
    documented = json.loads(block.group(1))["confnotes"]["diagnostics"]
    from confnotes.lsp.options import CLASSES, SEVERITY_NAMES

    assert set(documented) == {"enable", *CLASSES, *SEVERITY_NAMES}


# ---------------------------------------------------------------- session words


@pytest.mark.parametrize("word", __import__("confnotes.parse.recover", fromlist=["SESSION_WORDS"]).SESSION_WORDS)
def test_every_session_word_heads_a_note_and_ends_an_imports_lede(word):
    """The outline reads ``Tutorial: …`` as a session's heading; an import's lede (where ``Speaker:`` sets
    the front matter's speakers) ends at the same words, and only there."""
    from confnotes.importers import stated_meta
    from confnotes.importers.blocks import Imported, Para, Run
    from confnotes.parse.recover import is_session_line

    line = f"{word.title()}: Incident Command at Scale"
    assert is_session_line(line)

    def lede(*texts: str) -> dict[str, str]:
        blocks: list = [Para((Run(text),)) for text in texts]
        return stated_meta(Imported(blocks=blocks, format="html"))

    assert lede("Speaker: Priya Raman") == {"speakers": "Priya Raman"}
    assert lede(line, "Speaker: Priya Raman") == {}  # the speaker of a session, not of the document


def test_a_track_line_is_not_a_session():
    from confnotes.parse.recover import SESSION_WORDS, opens_with_session_word

    assert "track" not in SESSION_WORDS and not opens_with_session_word("Track: Reliability")


# ---------------------------------------------------------------- options shared by commands

#: commands that read no config, and why (a new command must say which it is)
READS_NO_CONFIG = {
    "import": "writes a new note; the note's own config applies when it is read",
    "new": "writes a skeleton from its options",
    "rules": "prints the catalogue",
    "schema": "prints the config schema",
    "doctor": "asks the machine, not a config",
    "lsp": "each note's config is found from the note, as the editor opens it",
    "help": "prints help",
}


def _commands() -> dict[str, click.Command]:
    context = click.Context(main)
    return {name: main.get_command(context, name) for name in main.list_commands(context)}


def _option(command: click.Command, name: str) -> click.Option | None:
    return next((param for param in command.params if isinstance(param, click.Option) and name in param.opts), None)


def test_every_command_that_reads_a_config_takes_the_one_config_option():
    from confnotes.commands import config_option

    reference = _option(config_option(click.Command("x", callback=lambda **_: None)), "--config")
    assert reference is not None
    for name, command in _commands().items():
        option = _option(command, "--config")
        if name in READS_NO_CONFIG:
            assert option is None, f"{name} reads no config but takes --config"
            continue
        assert option is not None, f"confnotes {name} reads a config but has no --config"
        assert (option.name, option.help, option.metavar) == (reference.name, reference.help, reference.metavar), name


CONFIG = """
infer_headings = "never"

[slides]
wpm = 60

[fmt]
bullet = "*"
"""
PASTED = """Launch review

• Checkout latency doubled after the cache change
• Rollback took forty minutes

Follow-ups

• Add a canary stage
"""
TALK = """---
title: Deploys
duration: 10min
---

## Why

- Weekend pages doubled after the Friday deploys started
- Rollbacks had no owner
"""


@pytest.fixture
def elsewhere(tmp_path):
    """A config in a folder of its own, and notes in another folder with no config."""
    (tmp_path / "conf").mkdir()
    config = tmp_path / "conf" / "team.toml"
    config.write_text(CONFIG)
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "pasted.md").write_text(PASTED)
    (notes / "talk.md").write_text(TALK)
    return config, notes


def test_outline_reads_the_note_as_the_named_config_says(cli, elsewhere):
    config, notes = elsewhere
    found = json.loads(cli("outline", str(notes / "pasted.md"), "--format", "json").stdout)
    named = json.loads(cli("outline", str(notes / "pasted.md"), "--format", "json", "--config", str(config)).stdout)
    kinds = [[entry["kind"] for entry in data["content"]] for data in (found, named)]
    assert "section" in kinds[0] and "section" not in kinds[1]  # infer_headings = "never"


def test_time_takes_the_pace_from_the_named_config(cli, elsewhere):
    config, notes = elsewhere
    found = json.loads(cli("time", str(notes / "talk.md"), "--format", "json").stdout)
    named = json.loads(cli("time", str(notes / "talk.md"), "--format", "json", "--config", str(config)).stdout)
    assert found["wpm"] == 130 and named["wpm"] == 60


def test_fmt_writes_the_named_configs_style(cli, elsewhere):
    config, notes = elsewhere
    assert cli("fmt", "--check", str(notes / "talk.md")).exit_code == 0
    result = cli("fmt", "--diff", str(notes / "talk.md"), "--config", str(config))
    assert result.exit_code == 1 and "+* Weekend pages" in result.stdout


def test_build_builds_every_note_with_the_named_config(cli, elsewhere, tmp_path):
    config, notes = elsewhere
    site = tmp_path / "site"
    result = cli("build", str(notes), "-o", str(site), "--to", "outline", "-j", "1", "--config", str(config))
    assert result.exit_code == 0, result.stderr
    outline = json.loads((site / "outline.json").read_text())
    pasted = next(note for note in outline["notes"] if note["path"].endswith("pasted.md"))
    assert "section" not in [entry["kind"] for entry in pasted["content"]]


def test_a_missing_config_is_one_error_line_on_every_command(cli, elsewhere, tmp_path):
    from helpers import one_error_line

    _config, notes = elsewhere
    missing = str(tmp_path / "nope.toml")
    note = str(notes / "talk.md")
    for args in (["outline", note], ["fmt", "--check", note], ["time", note], ["lint", note], ["render", note, "--to", "outline"]):
        assert "config file not found" in one_error_line(cli(*args, "--config", missing)), args
