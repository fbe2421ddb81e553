"""The ``confnotes`` command: options, printing and exit codes only; the work lives in the library."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from confnotes import __version__
from confnotes.errors import ErrorKind, NotesError
from confnotes.render.formats import FORMATS  # the one table of output formats (light: no renderer loads)

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class NotesGroup(click.Group):
    """Turns every ``NotesError`` into one ``path:line:col: message`` line and exit 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except NotesError as exc:
            from confnotes.escape import terminal_safe

            click.echo(terminal_safe(f"confnotes: {exc}" if exc.path is None else str(exc)), err=True)
            ctx.exit(EXIT_ERROR)
        except BrokenPipeError:
            sys.stderr.close()
            ctx.exit(EXIT_OK)
        except OSError as exc:  # standard output on a full disk (/dev/full), a closed terminal, …
            click.echo(f"confnotes: cannot write the output: {exc.strerror or exc}", err=True)
            ctx.exit(EXIT_ERROR)


@click.group(cls=NotesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="confnotes")
def main() -> None:
    """Conference notes to outlines, lint findings, documents and decks.

    Exit codes: 0 clean, 1 findings (or files that would be reformatted), 2 usage,
    input or config error. Errors print as one line: path:line:col: message.
    """


@main.command()
@click.argument("note", type=click.Path(allow_dash=True, readable=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["tree", "json", "markdown", "opml"]),
    default="tree",
    show_default=True,
    help="tree: readable outline in source order; json: the model, schema "
    "confnotes.outline/2 (docs/outline-json.md); markdown: bare heading/list outline; opml: OPML 2.0 "
    "for outliners.",
)
def outline(note: str, fmt: str) -> None:
    """Print the outline confnotes reads from NOTE (- reads standard input).

    A note is meta and one ordered content: its lede, then sections; each section and item
    holds its blocks (text, code, images, tables, quotes, speaker notes), its lists (each
    list as written, with its own numbers) and sub-sections, exactly in the author's order.
    Pasted notes are read as a person would: bare-line headings (only in notes that show
    they were pasted), pasted bullets, labels and titles (README, "How notes are read").
    """
    from confnotes import export
    from confnotes.load import load_note

    doc = load_note(note).doc
    click.echo(export.OUTLINE_FORMATS[fmt](doc, sys.stdout.isatty()), nl=False)


def _warn(messages: list[str], where: str) -> None:
    for message in dict.fromkeys(messages):
        click.echo(f"{where}: warning: {message}", err=True)


@main.command()
@click.argument("note", required=False, type=click.Path(allow_dash=True, readable=False))
@click.option(
    "--to",
    "to",
    type=click.Choice(list(FORMATS)),
    default="html",
    show_default=True,
    help="html: one self-contained page; pdf: a printable PDF (WeasyPrint); slides, slides-pdf, "
    "handout, marp, pptx, outline: a deck built from the outline.",
)
@click.option(
    "-o",
    "--output",
    metavar="OUT",
    help="Output file ('-' for standard output). Default: next to the note, e.g. talk.html, talk.pdf, talk.slides.html.",
)
@click.option("--theme", default=None, help="Built-in theme (see --list-themes). Default: config or 'default'.")
@click.option("--css", "css", multiple=True, type=click.Path(dir_okay=False), help="Add a stylesheet (repeatable).")
@click.option(
    "--templates",
    "templates",
    default=None,
    type=click.Path(file_okay=False),
    help="A folder whose templates shadow the built-in ones by file name.",
)
@click.option(
    "--paper", type=click.Choice(["a4", "letter"], case_sensitive=False), default=None, help="PDF paper size. Default: config or a4."
)
@click.option("--notes/--no-notes", "notes", default=None, help="Show speaker notes in documents (hidden by default).")
@click.option("--untagged", is_flag=True, help="PDF without PDF/UA tagging (tagged, accessible PDF is the default).")
@click.option("--max-items", type=click.IntRange(min=1), default=None, help="Slides: split slides with more items.")
@click.option("--max-words", type=click.IntRange(min=1), default=None, help="Slides: split slides with more words.")
@click.option("--agenda/--no-agenda", "agenda", default=None, help="Slides: include the agenda slide (default on).")
@click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Use this config file instead of searching upward from the note.",
)
@click.option("--list-themes", is_flag=True, help="List the built-in themes and exit.")
@click.option("--trust-templates", is_flag=True, help="Run user templates outside Jinja's sandbox (only for templates you wrote).")
@click.option(
    "--per-page",
    type=click.IntRange(1, 3),
    default=None,
    help="Handout: slides a page, 1, 2 or 3 (default 3), each with its notes and lines.",
)
@click.option(
    "--reference-pptx",
    metavar="FILE",
    type=click.Path(dir_okay=False, readable=False),
    default=None,
    help="PPTX: use this PowerPoint template's theme and layouts (Title Slide, Section Header, Title and Content, "
    "Title Only). Default: config reference_pptx.",
)
def render(
    note: str | None,
    to: str,
    output: str | None,
    theme: str | None,
    css: tuple[str, ...],
    templates: str | None,
    paper: str | None,
    notes: bool | None,
    untagged: bool,
    max_items: int | None,
    max_words: int | None,
    agenda: bool | None,
    config_file: str | None,
    list_themes: bool,
    trust_templates: bool,
    per_page: int | None,
    reference_pptx: str | None,
) -> None:
    """Render NOTE to a document (html, pdf) or a slide format.

    Templates come from the built-ins, shadowed file by file by --templates DIR (or
    config `templates = "…"`); a user template can {% extends "!default/note.html" %}.
    """
    from pathlib import Path

    from confnotes.config import find_config, read_config_file
    from confnotes.load import load_note
    from confnotes.output import emit
    from confnotes.render.formats import output_format, output_path, render_note
    from confnotes.render.options import RenderOverrides, resolve_render_options

    if list_themes:
        from confnotes.templating import themes

        click.echo("\n".join(themes()))
        return
    if note is None:
        raise NotesError("missing NOTE (the note to render)", kind=ErrorKind.USAGE)
    config = read_config_file(config_file) if config_file else find_config(note)
    doc = load_note(note, config).doc
    overrides = RenderOverrides(
        theme=theme,
        css=css,
        templates=templates,
        notes=notes,
        paper=paper,
        tagged=False if untagged else None,
        max_items=max_items,
        max_words=max_words,
        agenda=agenda,
        trust_templates=trust_templates,
        reference_pptx=reference_pptx,
        per_page=per_page,
    )
    options = resolve_render_options(config, doc, overrides)
    base_dir = Path(note).resolve().parent if note != "-" else Path.cwd()
    if output is None:
        output = "-" if note == "-" else output_path(note, to)
    data, warnings = render_note(doc, to, options, base_dir, output)
    if output == "-" and output_format(to).binary and sys.stdout.isatty():
        raise NotesError(f"refusing to write {to} bytes to a terminal; use -o FILE", kind=ErrorKind.USAGE)
    _warn(warnings, note)
    written = emit(output, data, note)
    if written:
        click.echo(f"wrote {written}", err=True)


def _configured_excludes(targets: list[str], config_file: str | None, excludes_of: Any) -> tuple[str, ...]:
    """The config's ``[lint] exclude`` globs for each folder or file named: the config found from a
    folder itself (``lint .`` at the project root), from a file's folder, or ``--config``."""
    from confnotes.config import config_for_target

    globs: list[str] = []
    for target in targets:
        if target != "-":
            globs += [glob for glob in excludes_of(config_for_target(target, config_file)) if glob not in globs]
    return tuple(globs)


def _csv(values: tuple[str, ...]) -> tuple[str, ...] | None:
    if not values:
        return None
    return tuple(part for value in values for part in value.split(",") if part.strip())


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(allow_dash=True, readable=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github", "sarif", "junit"]),
    default="text",
    show_default=True,
    help="text: path:line:col: CN104 name message; json: a list of findings "
    "(README); github: workflow commands; sarif: SARIF 2.1.0; junit: JUnit XML.",
)
@click.option("--fix", is_flag=True, help="Apply safe fixes in place (atomically; only files that change).")
@click.option("--select", multiple=True, help="Only these rules (ids, names or id prefixes; comma-separated).")
@click.option("--ignore", multiple=True, help="Skip these rules (ids, names or id prefixes; comma-separated).")
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info"]),
    default=None,
    help="Exit 1 when a finding is at least this severe. Default: config or warning.",
)
@click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Use this config file instead of searching upward from each note.",
)
@click.option("--exclude", multiple=True, help="Skip paths matching this glob when walking folders (repeatable).")
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
    type=click.Choice(["auto", "notes", "talk"]),
    default=None,
    help="talk: also give slide advice (dense-slide, too-many-items, long-title); notes: never; "
    "auto (default): for notes with kind: talk, slides: or duration: in their front matter.",
)
def lint(
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
    from confnotes.lint import report
    from confnotes.lint.engine import failing
    from confnotes.source import discover

    cache_dir = None if no_cache else os.environ.get("CONFNOTES_CACHE_DIR", ".confnotes_cache")
    request = LintRequest(config_file, _csv(select), _csv(ignore), fail_on, fix, jobs, cache_dir, profile, stdin_filename)
    checker = Checker(request)
    targets = list(paths) or ["."]
    excluded = tuple(exclude)
    excluded += _configured_excludes(targets, config_file, lambda config: checker.settings_for(config).exclude)
    notes = discover(targets, excluded)
    run = checker.lint_paths(notes)
    findings = run.findings
    from confnotes.config import config_for_target

    settings = checker.settings_for(config_for_target(targets[0], config_file))
    click.echo(report.REPORTS[fmt](findings, notes, sys.stdout.isatty(), settings.docs_url), nl=False)
    if fmt == "text" and (findings or run.fixes_applied):
        click.echo(report.summary(findings, run.files, run.fixes_applied))
    if statistics:
        click.echo(report.statistics(findings), nl=False, err=fmt != "text")
    for error in run.errors:
        click.echo(str(error), err=True)
    if run.errors:
        sys.exit(EXIT_ERROR)
    level = fail_on or settings.fail_on
    sys.exit(EXIT_FINDINGS if failing(findings, level) and not exit_zero else EXIT_OK)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True, readable=False))
@click.option("--check", is_flag=True, help="Write nothing; exit 1 and list the files that would change.")
@click.option("--diff", is_flag=True, help="Write nothing; print a unified diff of the changes.")
@click.option("--exclude", multiple=True, help="Skip paths matching this glob when walking folders (repeatable).")
def fmt(paths: tuple[str, ...], check: bool, diff: bool, exclude: tuple[str, ...]) -> None:
    """Rewrite notes (files, or folders walked for *.md) as canonical Markdown.

    In the author's order: '#' title, '##' sections, each list as written (numbers as written,
    '-' bullets), text between lists left where it is; front matter for recovered meta; pasted
    notes become real Markdown. Text is never changed, a note without headings gets none, and
    a note whose ordered outline would change is left alone with an error. '-' formats
    standard input to standard output.
    """
    from confnotes.lint.engine import build_settings
    from confnotes.reformat import format_notes
    from confnotes.source import discover

    configured = _configured_excludes(list(paths), None, lambda config: build_settings(config.lint, config.slides, config.path).exclude)
    notes = discover(list(paths), tuple(exclude) + configured)
    changed: list[str] = []
    errors: list[NotesError] = []
    for result in format_notes(notes, write=not (check or diff), with_diff=diff):
        if result.error is not None:
            errors.append(result.error)
        elif result.path == "-":
            click.echo(result.text, nl=False)
        elif result.changed:
            changed.append(result.path)
            if diff:
                click.echo(result.diff, nl=False)
            elif check:
                click.echo(f"would reformat {result.path}")
            else:
                click.echo(f"reformatted {result.path}", err=True)
    for error in errors:
        click.echo(str(error), err=True)
    if errors:
        sys.exit(EXIT_ERROR)
    if (check or diff) and changed:
        click.echo(f"{len(changed)} of {len(notes)} note(s) would be reformatted", err=True)
        sys.exit(EXIT_FINDINGS)


@main.command()
@click.argument("rule", required=False)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: every rule (or RULE) with its id, name, severity, profile, default, options and docs.",
)
def rules(rule: str | None, fmt: str) -> None:
    """List the lint rules, or explain one (by id or name): what, why, example, fix, options."""
    from confnotes.lint.report import rule_doc, rules_json
    from confnotes.lint.rules import REGISTRY, lookup

    found = lookup(rule) if rule is not None else None
    if rule is not None and found is None:
        raise NotesError(f"unknown rule '{rule}'; 'confnotes rules' lists them", kind=ErrorKind.USAGE)
    if fmt == "json":
        click.echo(rules_json([found] if found is not None else list(REGISTRY)))
        return
    if found is not None:
        click.echo(rule_doc(found.META.id), nl=False)
        return
    for module in REGISTRY:
        meta = module.META
        mark = "*" if meta.fixable else " "
        state = ("talk" if meta.profile == "talk" else "") + ("" if meta.default else "opt-in")
        click.echo(f"{meta.id}  {meta.name:<22} {meta.severity:<8}{mark} {state:<7} {meta.summary}")
    click.echo(
        "\n* fixable with 'confnotes lint --fix'. talk: runs for notes meant as a talk (--profile). "
        "opt-in: runs only when selected by id or name.\n'confnotes rules ID' explains one rule."
    )


@main.command("time")
@click.argument("note", type=click.Path(allow_dash=True, readable=False))
@click.option(
    "--wpm",
    type=click.IntRange(50, 400),
    default=None,
    help="Speaking rate in words a minute; most speakers talk at 100-200 (default: config slides.wpm, else 130).",
)
@click.option(
    "--slide-seconds",
    type=click.FloatRange(0, 60),
    default=None,
    help="Time allowed per slide on top of its words (default: config slides.slide_seconds, else 2).",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="json: docs/timing.md.")
@click.option(
    "--rehearsal",
    metavar="TIMINGS",
    type=click.Path(dir_okay=False, readable=False),
    help="Compare with the timings the deck's presenter view saved (r records, then 'Save timings').",
)
@click.option(
    "--write-budgets",
    is_flag=True,
    help="Write each section's time into the note as <!-- time: … --> under its heading, rounded to half "
    "minutes and replacing a budget comment already there: the rehearsed times with --rehearsal, else the "
    "estimate. Nothing else in the note changes.",
)
def time_command(note: str, wpm: int | None, slide_seconds: float | None, fmt: str, rehearsal: str | None, write_budgets: bool) -> None:
    """How long the talk in NOTE runs: per section, per slide, against its slot.

    Counts what will be spoken on each slide of the deck (its speaker notes where it has them,
    else its title and text; code counts no words) at the speaking rate, plus an allowance per
    slide. The slot is front matter 'duration: 20min' (also 20m, 1h, 1h30m, 00:20); a section's
    budget is '<!-- time: 5min -->' right under its heading, or front matter 'budgets:'. Exit 2 on
    a value confnotes cannot read.
    """
    import json

    from confnotes import timing
    from confnotes.load import load_note
    from confnotes.output import write_atomic
    from confnotes.slides import DeckOptions, build_deck, slide_settings

    loaded = load_note(note)
    doc = loaded.doc
    settings = slide_settings(loaded.config.slides, doc)
    rate, seconds = timing.pace(settings, wpm, slide_seconds, loaded.config.path or note)
    folder = None if note == "-" else os.path.dirname(os.path.abspath(note))
    plan = timing.plan(doc, build_deck(doc, DeckOptions.from_mapping(settings, folder)), rate, seconds)
    rehearsed = timing.read_rehearsal(rehearsal) if rehearsal else None
    if write_budgets:
        if note == "-":
            raise NotesError("--write-budgets writes into the note; give a file, not -", kind=ErrorKind.USAGE)
        if not doc.parts:
            raise NotesError("the note has no sections to budget", path=note)
        minutes = timing.compare(plan, rehearsed)[0] if rehearsed else [section.minutes for section in plan.sections]
        text = timing.write_budgets(loaded.source.text, doc, minutes)
        _check_budgets_written(text, loaded, minutes)
        if text != loaded.source.text:
            from confnotes.check import encode_like

            write_atomic(note, encode_like(loaded.source, text))
        click.echo(f"{note}: wrote {len(minutes)} section budgets", err=True)
        return
    if fmt == "json":
        data = plan.as_json()
        if rehearsed:
            actual, measured = timing.compare(plan, rehearsed)
            data["rehearsal"] = {
                "sections": [round(value, 2) for value in actual],
                "total_minutes": round(sum(actual), 2),
                "measured_wpm": None if measured is None else round(measured),
            }
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo(timing.rehearsal_table(plan, rehearsed) if rehearsed else timing.table(plan), nl=False)


def _check_budgets_written(text: str, loaded: Any, minutes: list[float]) -> None:
    """Read the written note back: the same parts, each with the budget just written, or refuse."""
    from confnotes import timing
    from confnotes.load import read_text

    again = read_text(text, loaded.source.path, loaded.config)
    before = [section.title for section in loaded.doc.parts]
    after = [section.title for section in again.parts]
    wanted = {index: timing.budget_minutes(value) for index, value in enumerate(minutes)}
    if before != after or timing.budgets(again) != wanted:
        raise NotesError("cannot place budget comments in this note without changing its outline; nothing written", path=loaded.source.path)


def _formats(value: str | None, configured: list[str] | None) -> tuple[str, ...]:
    """--to, else the config's [build] formats, else the default; every name checked against the table."""
    from confnotes.build import DEFAULT_FORMATS
    from confnotes.render.formats import output_format

    if value:
        names = [part.strip() for part in value.split(",") if part.strip()]
    elif configured:
        names = [str(name) for name in configured]
    else:
        return DEFAULT_FORMATS
    formats = tuple(dict.fromkeys(names))
    for name in formats:
        output_format(name)
    return formats


@main.command()
@click.argument("directory", required=False, default="notes", type=click.Path(file_okay=False, readable=False))
@click.option("-o", "--output", default="site", show_default=True, help="The site folder to write.")
@click.option(
    "--to",
    "to",
    default=None,
    metavar="FORMATS",
    help="Comma-separated formats (html, pdf, slides, slides-pdf, handout, marp, pptx, outline). Default: html,pdf,slides,pptx.",
)
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, help="Worker processes (default: one per core; 1 runs in-process).")
@click.option("--force", is_flag=True, help="Render every note, even unchanged ones.")
@click.option("--shard", default=None, metavar="K/N", help="Build only every N-th note, starting with the K-th (for CI matrices).")
@click.option("--merge", is_flag=True, help="Assemble the index from the shard manifests in the output folder.")
@click.option("--theme", default=None, help="Theme for every note (default: each note's config or 'default').")
@click.option("--exclude", multiple=True, help="Skip paths matching this glob (repeatable).")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but failures.")
@click.option("--trust-templates", is_flag=True, help="Run the notes' own templates outside Jinja's sandbox (only if you trust them).")
def build(
    directory: str,
    output: str,
    to: str | None,
    jobs: int,
    force: bool,
    shard: str | None,
    merge: bool,
    theme: str | None,
    exclude: tuple[str, ...],
    quiet: bool,
    trust_templates: bool,
) -> None:
    """Build a folder of notes (default: notes/) into a site: every note in every format, plus
    index.html (filterable by event and tag) and outline.json.

    Incremental: unchanged notes are skipped (a manifest in the output folder records a hash of
    each note, its config, the templates and the confnotes version); removed notes lose their
    files. A note that fails is reported and the others are still built; the exit code is then 1.
    """
    from confnotes.build import BuildRequest, build_site, merge_shards, parse_shard

    if merge:
        count = merge_shards(output)
        if not quiet:
            click.echo(f"merged {count} note(s) into {output}/index.html")
        return
    from confnotes.config import config_for_folder

    config = config_for_folder(directory)
    build_config = config.build
    request = BuildRequest(
        directory,
        output,
        _formats(to, build_config.get("formats")),
        jobs,
        force,
        parse_shard(shard) if shard else None,
        theme,
        tuple(exclude) + tuple(str(glob) for glob in build_config.get("exclude", ())),
        trust_templates=trust_templates,
    )
    if sys.stderr.isatty() and not quiet:
        bars: list[Any] = []

        def progress(name: str, done: int, total: int) -> None:
            if done == 0:  # the first call gives the total: only now is there a bar to show
                if total:
                    bars.append(
                        click.progressbar(
                            length=total, label="Building", show_eta=True, show_pos=True, file=sys.stderr, item_show_func=lambda item: item
                        )
                    )
                    bars[0].__enter__()
                return
            bars[0].update(1, name)

        try:
            report = build_site(request, progress)
        finally:
            for bar in bars:
                bar.__exit__(None, None, None)
    else:
        report = build_site(request)
    if not quiet:
        for rel in report.removed:
            click.echo(f"removed {rel}")
        click.echo(report.summary(output))
    for _rel, reason in report.failed:
        click.echo(f"failed: {reason}", err=True)
    sys.exit(EXIT_FINDINGS if report.failed else EXIT_OK)


@main.command()
@click.argument("directory", required=False, default="notes", type=click.Path(file_okay=False, readable=False))
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0 picks a free one).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind; only this machine by default.")
@click.option("--trust-templates", is_flag=True, help="Run the notes' own templates outside Jinja's sandbox (only if you trust them).")
def serve(directory: str, port: int, host: str, trust_templates: bool) -> None:
    """Live preview of a folder of notes: pages and decks rebuilt on save, open pages reload.

    Serves only its own output folder; Ctrl-C stops it.
    """
    from pathlib import Path

    from confnotes.serve import PreviewServer

    if not Path(directory).is_dir():
        raise NotesError("no such folder", path=directory, kind=ErrorKind.USAGE)
    try:
        server = PreviewServer(directory, host, port, lambda text, err=False: click.echo(text, err=err), trust_templates)
    except OSError as exc:
        raise NotesError(f"cannot listen on {host}:{port}: {exc.strerror}", kind=ErrorKind.USAGE) from None
    server.run()


@main.command()
@click.argument("note", required=False, type=click.Path(allow_dash=True, readable=False))
def doctor(note: str | None) -> None:
    """Check what this machine has for each output: WeasyPrint, Pango and HarfBuzz for PDFs, fonts for
    the scripts NOTE uses (all scripts without NOTE), and the programs the test suite drives.

    Prints one line a check with the install line for what is missing; exits 1 when something PDF
    output needs is missing.
    """
    from confnotes.doctor import checks

    text = None
    if note is not None:
        from confnotes.source import read_source

        text = read_source(note).text
    found = checks(text)
    for check in found:
        click.echo(check.line())
    sys.exit(EXIT_FINDINGS if any(check.required and not check.ok for check in found) else EXIT_OK)


@main.command()
@click.argument("title")
@click.option("--event", default=None, help="The event, e.g. 'PyCon 2026'.")
@click.option("--date", default=None, help="The date, e.g. 2026-05-14.")
@click.option("--reading-list", is_flag=True, help="Scaffold a reading list (entries with annotations).")
@click.option(
    "--dir",
    "folder",
    default="notes",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder for the note (created if missing).",
)
@click.option("-o", "--output", default=None, help="The note's file name (default: from the title).")
def new(title: str, event: str | None, date: str | None, reading_list: bool, folder: str, output: str | None) -> None:
    """Create a note from a template: front matter and a skeleton. Never overwrites a file."""
    from pathlib import Path

    from confnotes.render.html import slugify
    from confnotes.templating import render_template

    if not title.strip():
        raise NotesError('the title is empty; give the note a title, e.g. confnotes new "Keynote notes"', kind=ErrorKind.USAGE)
    if date is not None:
        import datetime

        try:
            datetime.date.fromisoformat(date)
        except ValueError:
            raise NotesError(f"--date must be a date like 2026-05-14, not '{date}'", kind=ErrorKind.USAGE) from None
    if output is None and not any(char.isalnum() for char in title):
        raise NotesError(f"cannot make a file name from the title '{title}'; name the file with -o FILE", kind=ErrorKind.USAGE)
    target = Path(output) if output else Path(folder) / f"{slugify(title)}.md"
    text = render_template("new-reading-list.md" if reading_list else "new-note.md", (), title=title, event=event, date=date)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise NotesError("already exists; confnotes new never overwrites a note", path=str(target), kind=ErrorKind.USAGE) from None
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    click.echo(str(target))
