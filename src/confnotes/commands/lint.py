"""confnotes lint: check the structure of notes."""

from __future__ import annotations

import sys

import click

from confnotes.commands import (
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_OK,
    Choice,
    complete_rule_list,
    config_option,
    configured_excludes,
    csv,
    exclude_option,
    say,
    shown,
)
from confnotes.config.settings import LintTable, choices


@click.command("lint")
@click.argument("paths", nargs=-1, type=click.Path(allow_dash=True, readable=False))
@click.option(
    "--format",
    "fmt",
    type=Choice(["text", "json", "github", "sarif", "junit"]),
    default="text",
    show_default=True,
    help="text: path:line:col: CN104 name message; json: a list of findings "
    "(README); github: workflow commands; sarif: SARIF 2.1.0; junit: JUnit XML.",
)
@click.option("--fix", is_flag=True, help="Apply safe fixes in place (atomically; only files that change).")
@click.option(
    "--select", multiple=True, shell_complete=complete_rule_list, help="Only these rules (ids, names or id prefixes; comma-separated)."
)
@click.option(
    "--ignore", multiple=True, shell_complete=complete_rule_list, help="Skip these rules (ids, names or id prefixes; comma-separated)."
)
@click.option(
    "--fail-on",
    type=Choice(choices(LintTable, "fail_on")),
    default=None,
    help="Exit 1 when a finding is at least this severe. Default: config or warning.",
)
@config_option
@exclude_option
@click.option("--statistics", is_flag=True, help="Print how many findings each rule produced.")
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=0),
    default=0,
    help="Worker processes for large runs (default: one per core; 1 stays in one process).",
)
@click.option("--no-cache", is_flag=True, help="Ignore and do not update the lint cache (.confnotes_cache/).")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings reach --fail-on (errors reading notes still exit 2).")
@click.option(
    "--stdin-filename",
    default=None,
    metavar="PATH",
    help="With '-': the path the text on standard input comes from (its config, and the path in messages), as editors pass it.",
)
@click.option(
    "--profile",
    type=Choice(choices(LintTable, "profile")),
    default=None,
    help="talk: also give slide advice (dense-slide, too-many-items, long-title, long-item); notes: never; "
    "auto (default): for notes with kind: talk, slides: or duration: in their front matter.",
)
def command(
    paths: tuple[str, ...],
    fmt: str,
    fix: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    fail_on: str | None,
    config_file: str | None,
    exclude: tuple[str, ...],
    statistics: bool,
    jobs: int,
    no_cache: bool,
    exit_zero: bool,
    stdin_filename: str | None,
    profile: str | None,
) -> None:
    """Check the structure of notes: files, or folders walked for *.md (default: .).

    Exit 0 when clean, 1 when a finding reaches --fail-on, 2 on usage, input or config errors.
    Results are cached in .confnotes_cache/ (keyed by each note's content, its config and the
    confnotes version); --no-cache bypasses it. Disable rules inline with <!-- confnotes-disable CN201 -->, <!-- confnotes-enable CN201 -->
    or <!-- confnotes-disable-next-line CN201 -->. 'confnotes rules' lists the rules.
    """

    from confnotes.check import Checker, LintRequest
    from confnotes.edges.cachedir import cache_root
    from confnotes.edges.source import discover
    from confnotes.lint import report
    from confnotes.lint.engine import failing

    cache_dir = None if no_cache else str(cache_root())
    request = LintRequest(config_file, csv(select), csv(ignore), fail_on, fix, jobs, cache_dir, profile, stdin_filename)
    checker = Checker(request)
    targets = list(paths) or ["."]
    configured = configured_excludes(targets, config_file, lambda config: checker.settings_for(config).exclude)
    notes = discover(targets, (*exclude, *configured))
    run = checker.lint_paths(notes)
    findings = run.findings
    from confnotes.config import config_for_target

    settings = checker.settings_for(config_for_target(targets[0], config_file))
    click.echo(report.REPORTS[fmt](findings, notes, sys.stdout.isatty(), settings.docs_url, run.errors), nl=False)
    if fmt == "text" and (findings or run.fixes_applied):
        say(report.summary(findings, run.files, run.fixes_applied))
    if statistics:
        click.echo(report.statistics(findings), nl=False, err=fmt != "text")
    for error in run.errors:
        say(shown(error), err=True)
    if run.errors:
        sys.exit(EXIT_ERROR)
    level = fail_on or settings.fail_on
    sys.exit(EXIT_FINDINGS if failing(findings, level) and not exit_zero else EXIT_OK)
