"""The ``confnotes`` subcommands, one module each, imported only when run (see ``confnotes.cli``).

A command module defines one click command (``command``) and does options, printing and exit
codes only; the work lives in the library. What several commands share is here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from confnotes.ignore import Exclude

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def warn(messages: list[str], where: str) -> None:
    for message in dict.fromkeys(messages):
        click.echo(f"{where}: warning: {message}", err=True)


def configured_excludes(targets: list[str], config_file: str | None, excludes_of: Any) -> tuple[str | Exclude, ...]:
    """The config's ``[lint] exclude`` globs for each folder or file named: the config found from a
    folder itself (``lint .`` at the project root), from a file's folder, or ``--config``; each glob
    relative to its config file's folder (``LintSettings.exclude``)."""
    from confnotes.config import config_for_target

    globs: list[str | Exclude] = []
    for target in targets:
        if target != "-":
            globs += [glob for glob in excludes_of(config_for_target(target, config_file)) if glob not in globs]
    return tuple(globs)


def csv(values: tuple[str, ...]) -> tuple[str, ...] | None:
    if not values:
        return None
    return tuple(part for value in values for part in value.split(",") if part.strip())
