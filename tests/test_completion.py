"""Shell completion offers what each command accepts (themes, formats, rules, commands), from the
registries the commands read; a mistyped format, choice or help topic gets a suggestion."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from confnotes.cli import COMMANDS, main
from confnotes.lint.rules import CATALOGUE
from confnotes.render.formats import FORMATS
from confnotes.templating import themes


def complete(words: str, shell: str = "bash") -> list[str]:
    """What ``confnotes`` offers for the last word of ``words`` (an empty last word when it ends in a space),
    asked through click's completion protocol as the bash (or zsh) script asks it."""
    parts = words.split(" ")
    env = {"_CONFNOTES_COMPLETE": f"{shell}_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(parts) - 1)}
    result = CliRunner().invoke(main, [], env=env, prog_name="confnotes")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    if shell == "zsh":  # type, value, help: three lines a completion
        return [lines[index + 1] for index in range(0, len(lines), 3)]
    return [line.split(",", 1)[1] for line in lines]  # "plain,VALUE"


def test_theme_completes_from_the_built_in_themes():
    assert complete("confnotes render talk.md --theme ") == themes()
    assert complete("confnotes render talk.md --theme se") == ["serif"]
    assert complete("confnotes build notes --theme d") == [name for name in themes() if name.startswith("d")]


def test_to_completes_from_the_format_table():
    assert complete("confnotes render talk.md --to ") == [*FORMATS, "png", "book"]
    assert complete("confnotes render talk.md --to sl") == ["slides", "slides-pdf"]
    assert complete("confnotes build notes --to html,p") == ["html,pdf", "html,pptx"]


def test_select_and_ignore_complete_rule_ids_and_names_in_a_list():
    every = complete("confnotes lint --select ")
    assert every[: len(CATALOGUE)] == [entry.id for entry in CATALOGUE]
    assert set(every) == {entry.id for entry in CATALOGUE} | {entry.name for entry in CATALOGUE} | {"ALL"}
    assert complete("confnotes lint --ignore long") == ["long-item", "long-title"]
    assert complete("confnotes lint --ignore cn11") == ["CN110", "CN111", "CN112", "CN113", "CN114", "CN115"]
    assert complete("confnotes lint notes --select CN101,empty-") == ["CN101,empty-section", "CN101,empty-item", "CN101,empty-link"]
    assert complete("confnotes rules mis") == ["misplaced-break", "missing-alt-text"]


def test_commands_choices_and_help_topics_complete():
    assert complete("confnotes l") == ["lint", "lsp"]
    assert complete("confnotes help re") == ["render"]
    assert complete("confnotes lint --format s") == ["sarif"]
    assert complete("confnotes lint --profile ") == ["auto", "notes", "talk"]


def test_zsh_gets_the_same_values_with_their_help():
    assert complete("confnotes lint --select CN20", shell="zsh") == [f"CN20{n}" for n in range(1, 10)]


def test_the_scripts_documented_for_each_shell_are_generated(processes):
    """docs/commands.md: ``eval "$(_CONFNOTES_COMPLETE=bash_source confnotes)"``, and zsh_source, fish_source."""
    markers = {"bash": "complete -o nosort -F", "zsh": "#compdef confnotes", "fish": "complete --no-files --command confnotes"}
    for shell, marker in markers.items():
        result = CliRunner().invoke(main, [], env={"_CONFNOTES_COMPLETE": f"{shell}_source"}, prog_name="confnotes")
        assert result.exit_code == 0 and marker in result.output and "_CONFNOTES_COMPLETE" in result.output


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["render", "talk.md", "--to", "slide"], "Did you mean 'slides'?"),
        (["render", "talk.md", "--to", "PDF"], "Did you mean 'pdf'?"),
        (["outline", "talk.md", "--format", "jsn"], "Did you mean 'json'?"),
        (["lint", "--format", "sarf", "talk.md"], "Did you mean 'sarif'?"),
        (["help", "rendr"], "No such command 'rendr'. Did you mean 'render'?"),
        (["help", "nosuch"], "No such command 'nosuch'. Commands: " + ", ".join(COMMANDS) + "."),
        (["nosuch"], "No such command 'nosuch'. Commands: " + ", ".join(COMMANDS) + "."),
    ],
)
def test_a_near_miss_gets_a_suggestion(cli, tmp_path, args, hint):
    result = cli(*args)
    assert result.exit_code == 2
    assert hint in result.stderr


def test_build_to_names_the_closest_format(cli, tmp_path):
    (tmp_path / "n.md").write_text("# T\n\n## A\n\n- x\n", encoding="utf-8")
    result = cli("build", str(tmp_path), "--to", "html,slide", "-o", str(tmp_path / "site"))
    assert result.exit_code == 2
    assert result.stderr.strip() == ("confnotes: unknown format 'slide'; did you mean 'slides'? (choose from " + ", ".join(FORMATS) + ")")
