"""confnotes time: how long a talk runs."""

from __future__ import annotations

from typing import Any

import click

from confnotes.commands import Choice, config_option, say, shown, warn
from confnotes.config.settings import SlideSettings, setting_range
from confnotes.errors import ErrorKind, NotesError


@click.command("time")
@click.argument("note", type=click.Path(allow_dash=True, readable=False))
@click.option(
    "--wpm",
    type=click.IntRange(*setting_range(SlideSettings, "wpm")),
    default=None,
    help="Speaking rate in words a minute; most speakers talk at 100-200 (default: config slides.wpm, else 130).",
)
@click.option(
    "--slide-seconds",
    type=click.FloatRange(*setting_range(SlideSettings, "slide_seconds")),
    default=None,
    help="Time allowed per slide on top of its words (default: config slides.slide_seconds, else 2).",
)
@click.option("--format", "fmt", type=Choice(["text", "json"]), default="text", show_default=True, help="json: docs/timing.md.")
@click.option(
    "--rehearsal",
    metavar="TIMINGS",
    type=click.Path(dir_okay=False, readable=False),
    help="Compare with the timings the deck's presenter view saved (r records, then 'Save timings').",
)
@click.option(
    "--write-budgets",
    is_flag=True,
    help="Write each section's time into the note as <!-- time: … --> under its heading (or in front matter "
    "budgets: where its budget is), rounded to half minutes: the rehearsed times with --rehearsal (sections "
    "the rehearsal did not time are left as they are), else the estimate. Nothing else in the note changes.",
)
@click.option(
    "--write-wpm",
    is_flag=True,
    help="With --rehearsal: keep the speaking rate you measured as front matter slides: wpm:.",
)
@config_option
def command(
    note: str,
    wpm: int | None,
    slide_seconds: float | None,
    fmt: str,
    rehearsal: str | None,
    write_budgets: bool,
    write_wpm: bool,
    config_file: str | None,
) -> None:
    """How long the talk in NOTE runs: per section, per slide, against its slot.

    Counts what will be spoken on each slide of the deck (its speaker notes where it has them,
    else its title and text; code counts no words) at the speaking rate, plus an allowance per
    slide. The slot is front matter 'duration: 20min' (also 20m, 1h, 1h30m, 20:00); a section's
    budget is '<!-- time: 5min -->' right under its heading, or front matter 'budgets:'. Exit 2 on
    a value confnotes cannot read.
    """
    from confnotes import timing
    from confnotes.config import config_for_target
    from confnotes.edges.source import note_folder
    from confnotes.load import load_note
    from confnotes.markup.escape import strict_json
    from confnotes.slides import slide_settings

    loaded = load_note(note, config_for_target(note, config_file))
    doc = loaded.doc
    settings = slide_settings(loaded.config.slides, doc).overridden(wpm=wpm, slide_seconds=slide_seconds)
    deck, plan = timing.talk_plan(doc, settings, note_folder(note))
    warn(list(deck.cut), note)  # what the deck's limits left out is not timed: said as render says it
    rehearsed = timing.read_rehearsal(rehearsal) if rehearsal else None
    if write_budgets or write_wpm:
        _write_back(note, loaded, plan, rehearsed, write_budgets, write_wpm)
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
        click.echo(strict_json(data, indent=2))
    else:
        say(timing.rehearsal_table(plan, rehearsed) if rehearsed else timing.table(plan, _tolerance(loaded.config)), nl=False)


def _tolerance(config: Any) -> Any:
    """The over-time rule's thresholds as the note's config sets them (``[lint.CN304]``)."""
    from confnotes.lint.engine import build_settings
    from confnotes.lint.rules import load

    rule = load("CN304")
    return build_settings(config.lint, config.path).options_for(rule).tolerance


def _write_back(note: str, loaded: Any, plan: Any, rehearsed: Any, budgets: bool, wpm: bool) -> None:
    """--write-budgets and --write-wpm: the note rewritten in place, checked, and a plain report."""
    from confnotes import timing
    from confnotes.edges.output import rewrite_note

    if note == "-":
        raise NotesError("--write-budgets and --write-wpm write into the note; give a file, not -", kind=ErrorKind.USAGE)
    text, said = loaded.source.text, []
    if budgets:
        if not loaded.doc.parts:
            raise NotesError("the note has no sections to budget", path=note)
        minutes: list[float | None] = [section.minutes for section in plan.sections]
        if rehearsed:
            actual = timing.compare(plan, rehearsed)[0]
            timed = timing.timed_sections(plan, rehearsed)
            minutes = [value if index in timed else None for index, value in enumerate(actual)]
            skipped = [section.title for index, section in enumerate(plan.sections) if index not in timed and section.slides]
            if skipped:
                said.append(f"left {len(skipped)} untimed section budget(s) as they were: {', '.join(skipped)}")
        text = timing.write_budgets(text, loaded.doc, minutes)
        after = _check_budgets_written(text, loaded, minutes)
        before = timing.budgets(loaded.doc)
        changed = sum(1 for index, value in after.items() if before.get(index) != value)
        if changed:
            said.insert(0, f"wrote {changed} section budget{'s' if changed != 1 else ''}")
    if wpm:
        measured = timing.compare(plan, rehearsed)[1] if rehearsed else None
        if measured is None or not timing.MIN_WPM <= measured <= timing.MAX_WPM:
            raise NotesError("--write-wpm needs a --rehearsal that measured a speaking rate", path=note, kind=ErrorKind.USAGE)
        text = timing.write_wpm(text, loaded.doc, round(measured))
        said.append(f"set slides.wpm to {round(measured)}")
    if text == loaded.source.text:
        unchanged = "nothing changed; the budgets and pace are already as written"
        say(f"{shown(note)}: {unchanged}" + "".join(f"; {shown(s)}" for s in said), err=True)
        return
    from confnotes.check import encode_like

    _check_pace_written(text, loaded, wpm)
    refused = rewrite_note(note, loaded.source.text, encode_like(loaded.source, text))
    if refused:
        raise NotesError(f"not written: {refused}", path=note)
    say(f"{shown(note)}: " + "; ".join(shown(s) for s in said), err=True)


def _check_pace_written(text: str, loaded: Any, wpm: bool) -> None:
    """Read the note back: its slide settings are what they were (but for the rate written), or refuse."""
    from dataclasses import replace

    from confnotes.load import read_text
    from confnotes.slides import slide_settings

    again = read_text(text, loaded.source.path, loaded.config)
    before = slide_settings(loaded.config.slides, loaded.doc)
    after = slide_settings(loaded.config.slides, again)
    if (replace(after, wpm=before.wpm) if wpm else after) != before or again.meta.title != loaded.doc.meta.title:
        raise NotesError("cannot write this into the note without changing its other settings; nothing written", path=loaded.source.path)


def _check_budgets_written(text: str, loaded: Any, minutes: list[float | None]) -> dict[int, float]:
    """Read the written note back: the same parts, each with the budget just written (the others
    as they were), or refuse. Returns the budgets it reads."""
    from confnotes import timing
    from confnotes.load import read_text

    again = read_text(text, loaded.source.path, loaded.config)
    before = [section.title for section in loaded.doc.parts]
    after = [section.title for section in again.parts]
    wanted = {
        **timing.budgets(loaded.doc),
        **{index: timing.budget_minutes(value) for index, value in enumerate(minutes) if value is not None},
    }
    found = timing.budgets(again)
    if before != after or found != wanted:
        raise NotesError("cannot place budget comments in this note without changing its outline; nothing written", path=loaded.source.path)
    return found
