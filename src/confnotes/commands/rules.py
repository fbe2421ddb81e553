"""confnotes rules: the lint rule catalogue."""

from __future__ import annotations

import click

from confnotes.commands import Choice, complete_rule
from confnotes.errors import ErrorKind, NotesError


@click.command("rules")
@click.argument("rule", required=False, shell_complete=complete_rule)
@click.option(
    "--format",
    "fmt",
    type=Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: every rule (or RULE) with its id, name, severity, profile, default, options and docs.",
)
def command(rule: str | None, fmt: str) -> None:
    """List the lint rules, or explain one (by id or name): what, why, example, fix, options."""
    from confnotes.lint.report import rule_doc, rules_json
    from confnotes.lint.rules import load, lookup, modules

    found = lookup(rule) if rule is not None else None
    if rule is not None and found is None:
        raise NotesError(f"unknown rule '{rule}'; 'confnotes rules' lists them", kind=ErrorKind.USAGE)
    if fmt == "json":
        click.echo(rules_json([load(found.id)] if found is not None else list(modules())))
        return
    if found is not None:
        click.echo(rule_doc(found.id), nl=False)
        return
    for module in modules():
        meta = module.META
        mark = "*" if meta.fixable else " "
        state = ("talk" if meta.profile == "talk" else "") + ("" if meta.default else "opt-in")
        click.echo(f"{meta.id}  {meta.name:<22} {meta.severity:<8}{mark} {state:<7} {meta.summary}")
    click.echo(
        "\n* fixable with 'confnotes lint --fix'. talk: runs for notes meant as a talk (--profile). "
        "opt-in: runs only when selected by id or name.\n'confnotes rules ID' explains one rule."
    )
