"""The ``confnotes`` subcommands, one module each, imported only when run (see ``confnotes.cli``).

A command module defines one click command (``command``) and does options, printing and exit
codes only; the work lives in the library. What several commands share is here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

    from confnotes.config.ignore import Exclude

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def say(text: str, err: bool = False, nl: bool = True) -> None:
    """Print text for a person (a table, a summary, a list of paths): every control character a note
    or a file name brings is shown (``\\x1b``), never obeyed by the terminal (``escape.terminal_safe``)."""
    from confnotes.markup.escape import terminal_safe

    click.echo(terminal_safe(text), err=err, nl=nl)


def shown(text: object) -> str:
    """A path, title or message to print inside a line: control characters shown, newlines too
    (a file name holding a newline must not forge a line of its own)."""
    from confnotes.markup.escape import terminal_safe

    return terminal_safe(str(text), one_line=True)


def warn(messages: list[str], where: str) -> None:
    """Each warning once, as ``path: warning: message``, or ``path:line:col: warning: message`` for
    one about a place in the note (``errors.placed``)."""
    from confnotes.errors import place_of

    for message in dict.fromkeys(messages):
        place, words = place_of(message)
        say(f"{shown(where)}{':' + place if place else ''}: warning: {shown(words)}", err=True)


def config_option(function: Any) -> Any:
    """``--config FILE``: the one spelling of the option on every command that reads a config."""
    return click.option(
        "--config",
        "config_file",
        type=click.Path(dir_okay=False),
        default=None,
        metavar="FILE",
        help="Use this config file (confnotes.toml, or pyproject.toml with [tool.confnotes]) for every note, "
        "instead of the one found upward from each note.",
    )(function)


def exclude_option(function: Any) -> Any:
    """``--exclude GLOB``: the one spelling of the option on every command that walks folders."""
    return click.option(
        "--exclude", multiple=True, metavar="GLOB", help="Skip paths matching this glob when walking folders (repeatable)."
    )(function)


def trust_templates_option(function: Any) -> Any:
    """``--trust-templates``: the one spelling on every command that renders with user templates."""
    return click.option(
        "--trust-templates", is_flag=True, help="Run the notes' own templates outside Jinja's sandbox (only if you trust them)."
    )(function)


def allow_remote_option(function: Any) -> Any:
    """``--allow-remote``: the one spelling on every command that writes Marp decks."""
    return click.option(
        "--allow-remote",
        is_flag=True,
        help="Marp: let a deck load web images and emoji images (from a CDN) when opened; by default it loads nothing remote.",
    )(function)


def schedule_options(function: Any) -> Any:
    """How a schedule is read, the one spelling on ``new`` and ``build`` (each over the config's
    ``[build]`` key of the same name; ``schedule.schedule_reading`` decides): the command gets them
    as one ``reading`` argument, a mapping of ``READING_OPTIONS``."""
    options = [
        click.option(
            "--timezone",
            default=None,
            metavar="ZONE",
            help="The conference's time zone (an IANA name, e.g. Europe/Berlin) when its schedule names none "
            "(Sessionize, a calendar in UTC).",
        ),
        click.option(
            "--day-change",
            type=click.IntRange(0, 23),
            default=None,
            metavar="HOUR",
            help="The hour the schedule's day begins: sessions before it belong to the evening before "
            "(default: frab's own days, else read from when the sessions start).",
        ),
        click.option(
            "--break-types",
            default=None,
            metavar="TYPES",
            help="Comma-separated session types that are breaks, not talks ('' for none; default: break, lunch, "
            "coffee, registration, … and speakerless sessions so titled).",
        ),
        click.option(
            "--track-field",
            default=None,
            metavar="CATEGORY",
            help="Sessionize: the category that holds the tracks (default: one titled Track, or one asking speakers for theirs).",
        ),
    ]
    import functools

    @functools.wraps(function)
    def with_reading(*args: Any, **kwargs: Any) -> Any:  # the four options as one ``reading`` argument
        kwargs["reading"] = {name: kwargs.pop(name) for name in READING_OPTIONS}
        return function(*args, **kwargs)

    for option in reversed(options):
        with_reading = option(with_reading)
    return with_reading


#: the parameters of ``schedule_options``, handed to the command as one ``reading`` mapping (the
#: arguments of ``schedule.schedule_reading``)
READING_OPTIONS = ("timezone", "day_change", "break_types", "track_field")


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


class Choice(click.Choice[str]):
    """click's choice, whose error also names the value meant: the closest (``--to slide`` → did you
    mean 'slides'?), or with ``suggest`` the one that function names (``--to word`` → 'docx')."""

    def __init__(
        self, choices: Iterable[str], case_sensitive: bool = True, suggest: Callable[[str, list[str]], str | None] | None = None
    ) -> None:
        super().__init__(list(choices), case_sensitive=case_sensitive)
        self.suggest = suggest

    def get_invalid_choice_message(self, value: Any, ctx: click.Context | None) -> str:
        from confnotes.errors import closest

        message = super().get_invalid_choice_message(value, ctx)
        names = [str(choice) for choice in self.choices]
        near = self.suggest(str(value), names) if self.suggest else closest(str(value), names)
        return f"{message} Did you mean '{near}'?" if near else message


# ---------------------------------------------------------------- shell completion
# Each reads the registry its command resolves names from, so completion offers exactly what the
# command accepts; docs/commands.md ("Shell completion") says how to turn completion on.


def completions(names: Iterable[tuple[str, str]], incomplete: str, comma: bool = False) -> list[CompletionItem]:
    """The ``(name, help)`` pairs whose name starts with what was typed (any case); with ``comma``,
    the value is a comma-separated list and only its last part is completed."""
    from click.shell_completion import CompletionItem

    head, _, last = incomplete.rpartition(",") if comma else ("", "", incomplete)
    given = {part.strip().casefold() for part in head.split(",")}
    prefix = f"{head}," if head else ""
    return [
        CompletionItem(prefix + name, help=about)
        for name, about in names
        if name.casefold().startswith(last.strip().casefold()) and name.casefold() not in given
    ]


def rule_names() -> list[tuple[str, str]]:
    """Every rule by id and by name (the catalogue: no rule module loads), and ``ALL``."""
    from confnotes.lint.rules import CATALOGUE

    return [(entry.id, entry.name) for entry in CATALOGUE] + [(entry.name, entry.id) for entry in CATALOGUE] + [("ALL", "every rule")]


def complete_rule_list(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``--select``/``--ignore``: rule ids and names, comma-separated."""
    return completions(rule_names(), incomplete, comma=True)


def complete_rule(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``rules RULE``: one rule id or name."""
    return completions(rule_names()[:-1], incomplete)


def complete_theme(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``--theme``: the built-in themes, as ``render --list-themes`` lists them."""
    from confnotes.templating import themes

    return completions(((name, "theme") for name in themes()), incomplete)


def complete_format_list(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``build --to``: output formats, comma-separated, from the one table of formats."""
    from confnotes.render.formats import FORMATS

    return completions(((name, fmt.summary) for name, fmt in FORMATS.items()), incomplete, comma=True)
