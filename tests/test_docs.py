"""The docs say what the program does: docs/commands.md describes every command and every option
its ``--help`` shows, and the README stays a short front page that links to them."""

from __future__ import annotations

import re

import click
import pytest

from confnotes.cli import COMMANDS, main
from conftest import ROOT

COMMANDS_DOC = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def sections(name: str) -> str:
    """The text of every ``### `confnotes NAME …`` section of docs/commands.md."""
    parts = re.split(r"(?m)^(?=### )", COMMANDS_DOC)
    found = [part for part in parts if re.match(rf"### `confnotes {re.escape(name)}[ `]", part)]
    return "\n".join(found)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_and_option_is_in_docs_commands_md(name):
    text = sections(name)
    assert text, f"docs/commands.md has no '### `confnotes {name} …`' section"
    command = main.get_command(click.Context(main), name)
    assert command is not None
    missing = [
        max(param.opts, key=len)
        for param in command.params
        if isinstance(param, click.Option) and not param.hidden
        if not any(re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", text) for opt in param.opts)
    ]
    assert missing == [], f"docs/commands.md does not describe {name} {missing}"


def test_the_readme_is_a_front_page():
    assert len(README.splitlines()) <= 200
    assert "pip install confnotes" in README and "pipx install confnotes" in README
    for doc in ("docs/commands.md", "docs/api.md", "docs/editors.md", "docs/import.md", "docs/rules.md"):
        assert doc in README, f"the README does not link {doc}"


def test_docs_links_point_at_files():
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        for target in re.findall(r"\]\(((?:docs/)?[\w./-]+\.md)(?:#[\w-]*)?\)", path.read_text(encoding="utf-8")):
            assert (path.parent / target).exists(), f"{path.name} links {target}, which does not exist"
