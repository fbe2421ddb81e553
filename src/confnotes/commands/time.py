"""confnotes time: how long a talk runs."""

from __future__ import annotations

from typing import Any

import click

from confnotes.errors import ErrorKind, NotesError
from confnotes.settings import SlideSettings, setting_range


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
def command(note: str, wpm: int | None, slide_seconds: float | None, fmt: str, rehearsal: str | None, write_budgets: bool) -> None:
    """How long the talk in NOTE runs: per section, per slide, against its slot.

    Counts what will be spoken on each slide of the deck (its speaker notes where it has them,
    else its title and text; code counts no words) at the speaking rate, plus an allowance per
    slide. The slot is front matter 'duration: 20min' (also 20m, 1h, 1h30m, 20:00); a section's
    budget is '<!-- time: 5min -->' right under its heading, or front matter 'budgets:'. Exit 2 on
    a value confnotes cannot read.
    """
    import json

    from confnotes import timing
    from confnotes.load import load_note
    from confnotes.output import write_atomic
    from confnotes.slides import DeckOptions, build_deck, slide_settings
    from confnotes.source import note_folder

    loaded = load_note(note)
    doc = loaded.doc
    settings = slide_settings(loaded.config.slides, doc).overridden(wpm=wpm, slide_seconds=slide_seconds)
    folder = note_folder(note)
    plan = timing.plan(doc, build_deck(doc, DeckOptions.from_settings(settings, folder)), settings.wpm, settings.slide_seconds)
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
