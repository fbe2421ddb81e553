"""confnotes build: a folder of notes into a site."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from confnotes.commands import (
    EXIT_FINDINGS,
    EXIT_OK,
    allow_remote_option,
    complete_format_list,
    complete_theme,
    config_option,
    exclude_option,
    say,
    schedule_options,
    shown,
    trust_templates_option,
    warn,
)


def _formats(value: str | None, configured: list[str] | None) -> tuple[str, ...]:
    """--to, else the config's [build] formats, else the default; every name checked against the table."""
    from confnotes.build import DEFAULT_FORMATS
    from confnotes.errors import ErrorKind, NotesError
    from confnotes.render.formats import output_format

    if value:
        names = [part.strip() for part in value.split(",") if part.strip()]
    elif configured:
        names = [str(name) for name in configured]
    else:  # the default: what this install can make, saying what an extra would add
        missing = {name: output_format(name).missing() for name in DEFAULT_FORMATS}
        warn([f"{line} (left out of the default formats)" for line in missing.values() if line], "build")
        return tuple(name for name, line in missing.items() if line is None)
    formats = tuple(dict.fromkeys(names))
    for name in formats:
        if (line := output_format(name).missing()) is not None:
            raise NotesError(line, kind=ErrorKind.USAGE)
    return formats


@click.command("build")
@click.argument("directory", required=False, default="notes", type=click.Path(file_okay=False, readable=False))
@click.option("-o", "--output", default="site", show_default=True, help="The site folder to write.")
@click.option(
    "--to",
    "to",
    multiple=True,
    metavar="FORMATS",
    shell_complete=complete_format_list,
    help="Comma-separated formats (html, pdf, slides, slides-pdf, handout, marp, pptx, outline); repeatable, "
    "so --to html --to slides builds both. Default: html,pdf,slides,pptx.",
)
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, help="Worker processes (default: one per core; 1 runs in-process).")
@click.option("--force", is_flag=True, help="Render every note, even unchanged ones.")
@click.option("--shard", default=None, metavar="K/N", help="Build only every N-th note, starting with the K-th (for CI matrices).")
@click.option("--merge", is_flag=True, help="Assemble the index from the shard manifests in the output folder.")
@click.option(
    "--theme", default=None, shell_complete=complete_theme, help="Theme for every note (default: each note's config or 'default')."
)
@exclude_option
@click.option(
    "--schedule",
    default=None,
    metavar="FILE",
    help="The conference's schedule (frab XML, pretalx/frab JSON, Sessionize JSON or .ics): adds a timetable and pages per "
    "track, speaker and tag (default: config [build] schedule, else the notes' own start/room front matter).",
)
@schedule_options
@click.option(
    "--base-url", default=None, metavar="URL", help="Where the site is published (https://…): absolute feed links and sitemap.xml."
)
@config_option
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but failures.")
@trust_templates_option
@allow_remote_option
def command(
    directory: str,
    output: str,
    to: tuple[str, ...],
    jobs: int,
    force: bool,
    shard: str | None,
    merge: bool,
    theme: str | None,
    exclude: tuple[str, ...],
    schedule: str | None,
    reading: dict[str, Any],
    base_url: str | None,
    config_file: str | None,
    quiet: bool,
    trust_templates: bool,
    allow_remote: bool,
) -> None:
    """Build a folder of notes (default: notes/) into a site: every note in every format, plus
    index.html (filterable by event and tag), outline.json, a search box on every page (an index
    that works offline, from file:// too) and an Atom feed. With a schedule (--schedule, config
    [build] schedule, or the notes' own start and room), a timetable by day, time and room, pages
    per track, speaker and tag, and each note's previous and next session.

    Incremental: unchanged notes are skipped (a manifest records a hash of each note, its config,
    the templates and the version); removed notes lose their files. A note that fails is
    reported and the others are still built; the exit code is then 1.
    """
    from confnotes.build import BuildRequest, build_site, merge_shards, parse_shard
    from confnotes.build.site import site_inputs_for
    from confnotes.config import config_for_target
    from confnotes.config.ignore import config_excludes
    from confnotes.schedule import schedule_reading

    config = config_for_target(directory, config_file)
    site = site_inputs_for(config, schedule, base_url, schedule_reading(config.build, **reading), theme)  # read before anything is built
    if merge:
        count = merge_shards(output, site)
        if not quiet:
            say(f"merged {count} note(s) into {shown(output)}/index.html")
        return
    request = BuildRequest(
        directory,
        output,
        _formats(",".join(to), list(config.build.formats)),
        jobs,
        force,
        parse_shard(shard) if shard else None,
        theme,
        tuple(exclude) + config_excludes(config.build.exclude, config.path),
        trust_templates=trust_templates,
        allow_remote=allow_remote,
        config_file=config_file,
        site=site,
    )
    with progress_bar(sys.stderr.isatty() and not quiet) as progress:
        report = build_site(request, progress)
    _report(report, output, quiet)


def _report(report: Any, output: str, quiet: bool) -> None:
    """What the build did, its warnings and its failures; exit 1 when a note failed."""
    if not quiet:  # build_site keeps each note's warnings once
        for rel in report.removed:
            say(f"removed {shown(rel)}")
        say(report.summary(shown(output)))
        for rel, message in report.warnings:
            warn([message], rel)
    for _rel, reason in report.failed:
        say(f"failed: {shown(reason)}", err=True)
    sys.exit(EXIT_FINDINGS if report.failed else EXIT_OK)


def _shown_item(item: str | None) -> str | None:
    return None if item is None else shown(item)


@contextmanager
def progress_bar(visible: bool = True) -> Iterator[Callable[[str, int, int], None] | None]:
    """A progress bar on standard error, shown once ``build_site`` says how many notes it renders
    (None when not ``visible``: a quiet run, or no terminal)."""
    if not visible:
        yield None
        return
    bars: list[Any] = []

    def progress(name: str, done: int, total: int) -> None:
        if done == 0:  # the first call gives the total: only now is there a bar to show
            if total:
                bars.append(
                    click.progressbar(
                        length=total, label="Building", show_eta=True, show_pos=True, file=sys.stderr, item_show_func=_shown_item
                    )
                )
                bars[0].__enter__()
            return
        bars[0].update(1, name)

    try:
        yield progress
    finally:
        for bar in bars:
            bar.__exit__(None, None, None)
