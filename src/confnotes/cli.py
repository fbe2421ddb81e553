"""The ``confnotes`` command group: error handling and exit codes; each subcommand lives in
``confnotes.commands`` and is imported only when it runs (or when help lists it), so
``confnotes lint`` never pays for building the options of ``render`` or ``build``."""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Any

import click

from confnotes._version import __version__
from confnotes.commands import EXIT_ERROR, EXIT_OK
from confnotes.errors import NotesError

#: The subcommands: each is ``command`` in ``confnotes.commands.<name>``.
COMMANDS = ("build", "doctor", "fmt", "import", "lint", "lsp", "new", "outline", "render", "rules", "schema", "serve", "time")


class NotesGroup(click.Group):
    """Loads subcommands on demand, and turns every ``NotesError`` into one
    ``path:line:col: message`` line and exit 2."""

    def list_commands(self, _ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, _ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name == "help":
            return help_command
        if cmd_name not in COMMANDS:
            return None
        module = cmd_name + "_" if cmd_name == "import" else cmd_name  # a keyword cannot name a module
        command = import_module(f"confnotes.commands.{module}").command
        assert isinstance(command, click.Command)
        return command

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as exc:  # click suggests from the loaded commands: none yet
            raise no_such_command(exc.command_name, ctx) from None

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """click's entry point; ``--help`` and ``--version`` print before any command runs, so a
        failed write of theirs (standard output on a full disk) is caught here, as one line."""
        try:
            return super().main(*args, **kwargs)
        except OSError as exc:
            _cannot_write(exc)
            sys.exit(EXIT_ERROR)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except NotesError as exc:
            from confnotes.markup.escape import terminal_safe

            click.echo(terminal_safe(f"confnotes: {exc}" if exc.path is None else str(exc), one_line=True), err=True)
            ctx.exit(EXIT_ERROR)
        except BrokenPipeError:
            sys.stderr.close()
            ctx.exit(EXIT_OK)
        except OSError as exc:  # standard output on a full disk (/dev/full), a closed terminal, …
            _cannot_write(exc)
            ctx.exit(EXIT_ERROR)


def _cannot_write(exc: OSError) -> None:
    """One line on standard error for output that could not be written; what was left unwritten in
    standard output's buffer is dropped, so exiting does not fail (and print a traceback) again."""
    import contextlib
    import os

    click.echo(f"confnotes: cannot write the output: {exc.strerror or exc}", err=True)
    try:
        sys.stdout.flush()
    except OSError:
        # the buffer cannot be written: point standard output at nothing so exit does not try again
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)


@click.group(cls=NotesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="confnotes")
def main() -> None:
    """Conference notes to outlines, lint findings, documents and decks.

    Exit codes: 0 clean, 1 findings (or files that would be reformatted), 2 usage,
    input or config error. Errors print as one line: path:line:col: message.
    """


def no_such_command(name: str, ctx: click.Context) -> click.exceptions.NoSuchCommand:
    """The error for a command (or ``help`` topic) that does not exist: the closest command (difflib,
    as click does), else every command, so a mistyped name always gets a way forward."""
    from confnotes.errors import closest

    near = closest(name, COMMANDS)
    hint = f"Did you mean '{near}'?" if near else f"Commands: {', '.join(COMMANDS)}."
    return click.exceptions.NoSuchCommand(name, message=f"No such command '{name}'. {hint}", ctx=ctx)


def _complete_command(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[str]:
    return [name for name in COMMANDS if name.startswith(incomplete)]


@click.command("help", hidden=True)
@click.argument("command", required=False, shell_complete=_complete_command)
@click.pass_context
def help_command(ctx: click.Context, command: str | None) -> None:
    """Show the help of confnotes, or of one COMMAND (as --help does)."""
    group = ctx.parent
    assert group is not None
    if command is None:
        click.echo(group.get_help())
        return
    found = main.get_command(group, command)
    if found is None:
        raise no_such_command(command, group)
    with click.Context(found, info_name=command, parent=group) as sub:
        click.echo(found.get_help(sub))
