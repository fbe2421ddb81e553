"""An option several commands share is declared once (``confnotes.commands``: ``config_option``,
``exclude_option``, ``trust_templates_option``, ``allow_remote_option``, ``schedule_options``), so
it reads the same everywhere: ``--exclude``, ``--trust-templates`` and ``--allow-remote`` were
declared on each command with their own help texts."""

from __future__ import annotations

from collections import defaultdict

import click

from confnotes.cli import main

#: options whose meaning differs by command on purpose (each documented in docs/commands.md)
OWN_MEANING = {
    "--to",
    "--output",
    "--format",
    "--fix",
    "--check",
    "--diff",
    "--jobs",
    "--theme",
    "--quiet",
    "--all",
    "--date",
    "--event",
    "--force",
    "--schedule",
}


def test_a_shared_option_has_one_help_text():
    helps: dict[str, dict[str, str]] = defaultdict(dict)
    context = click.Context(main)
    names = main.list_commands(context)
    assert len(names) > 10  # the commands load on demand: each is asked for
    for name in names:
        command = main.get_command(context, name)
        assert command is not None
        for param in command.params:
            if isinstance(param, click.Option):
                for flag in param.opts:
                    if flag.startswith("--") and flag not in OWN_MEANING:
                        helps[flag][name] = param.help or ""
    differing = {flag: by for flag, by in helps.items() if len(by) > 1 and len(set(by.values())) > 1}
    assert differing == {}
