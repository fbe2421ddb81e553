"""confnotes new: a note from a template, or one note per session of a conference's schedule."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from confnotes.commands import say, schedule_options, shown, warn
from confnotes.errors import ErrorKind, NotesError

if TYPE_CHECKING:
    from confnotes.schedule import Conference, Reading, Session


@click.command("new")
@click.argument("title", required=False)
@click.option("--event", default=None, help="The event, e.g. 'PyCon 2026' (with --schedule: instead of the schedule's name).")
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
@click.option("-o", "--output", default=None, help="The note's file name (default: from the title); with --schedule, the folder.")
@click.option(
    "--schedule",
    "schedule",
    default=None,
    metavar="FILE",
    help="A conference's schedule (frab XML, pretalx/frab JSON, Sessionize JSON or .ics): a note per chosen session.",
)
@click.option("--all", "every", is_flag=True, help="With --schedule: every session (breaks aside).")
@click.option("--session", "sessions", multiple=True, metavar="ID", help="With --schedule: this session (repeatable).")
@click.option(
    "--day",
    default=None,
    help="With --schedule: the sessions of this day of the schedule (2027-12-27, or its number: 1 for the first); "
    "a session after midnight is its evening's.",
)
@click.option("--room", default=None, help="With --schedule: the sessions in this room.")
@click.option("--track", default=None, help="With --schedule: the sessions of this track.")
@click.option(
    "--update",
    is_flag=True,
    help="With --schedule: refresh the schedule's keys (title, speakers, room, start, …) in notes made before; bodies stay. "
    "Alone, it refreshes every note of the schedule in the folder and makes no new one.",
)
@schedule_options
def command(
    title: str | None,
    event: str | None,
    date: str | None,
    reading_list: bool,
    folder: str,
    output: str | None,
    schedule: str | None,
    every: bool,
    sessions: tuple[str, ...],
    day: str | None,
    room: str | None,
    track: str | None,
    update: bool,
    reading: dict[str, Any],
) -> None:
    """Create a note from a template: front matter and a skeleton. Never overwrites a file.

    With --schedule FILE, create a note per session of a conference's schedule instead (choose
    them with --all, --session, --day, --room, --track; the choices combine): front matter with
    the title, speakers, event, room, start, duration (the slot `time` uses), track, url and
    session id, the abstract as a quote, named DATE-ROOM-TITLE.md. A session that already has a
    note in the folder is left alone; --update sets that note's schedule keys to the schedule's
    (a moved talk) and keeps every other byte (with no choice of sessions: every note the folder
    has for this schedule, and no new note).

    \b
    Examples:
      confnotes new "Keynote notes" --event "PyCon 2026"
      confnotes new --schedule schedule.xml --day 1 --room "Hall A" -o notes/
      confnotes new --schedule schedule.json --update
    """
    if schedule is not None:
        if title is not None or reading_list or date is not None:
            raise NotesError("with --schedule the schedule names the notes; drop TITLE, --date and --reading-list", kind=ErrorKind.USAGE)
        from confnotes.config import config_for_target
        from confnotes.schedule import schedule_reading

        how = schedule_reading(config_for_target(str(Path(output or folder))).build, **reading)
        _from_schedule(schedule, Path(output or folder), event, every, sessions, day, room, track, update, how)
        return
    chosen = [
        name
        for name, given in (
            ("--all", every),
            ("--session", sessions),
            ("--day", day),
            ("--room", room),
            ("--track", track),
            ("--update", update),
            *((f"--{name.replace('_', '-')}", value is not None) for name, value in reading.items()),
        )
        if given
    ]
    if chosen:
        raise NotesError(f"{chosen[0]} chooses sessions of a schedule; add --schedule FILE", kind=ErrorKind.USAGE)
    if title is None or not title.strip():
        raise NotesError('the title is empty; give the note a title, e.g. confnotes new "Keynote notes"', kind=ErrorKind.USAGE)
    _from_template(title, event, date, reading_list, folder, output)


def _from_template(title: str, event: str | None, date: str | None, reading_list: bool, folder: str, output: str | None) -> None:
    from confnotes.names import file_slug
    from confnotes.templating import render_template

    if date is not None:
        import datetime

        try:
            datetime.date.fromisoformat(date)
        except ValueError:
            raise NotesError(f"--date must be a date like 2026-05-14, not '{date}'", kind=ErrorKind.USAGE) from None
    if output is None and not any(char.isalnum() for char in title):
        raise NotesError(f"cannot make a file name from the title '{title}'; name the file with -o FILE", kind=ErrorKind.USAGE)
    target = Path(output) if output else Path(folder) / f"{file_slug(title)}.md"
    text = render_template("new-reading-list.md" if reading_list else "new-note.md", (), title=title, event=event, date=date)
    target.parent.mkdir(parents=True, exist_ok=True)
    if not _create(target, text):
        raise NotesError("already exists; confnotes new never overwrites a note", path=str(target), kind=ErrorKind.USAGE)
    say(shown(target))


def _create(target: Path, text: str) -> bool:
    """Write a new note; False when a file of that name is there (it is never overwritten). The
    text is encoded before the file is made: no empty note is left behind by a character UTF-8
    cannot hold."""
    data = text.encode("utf-8", "replace")
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        return False
    except OSError as exc:
        from confnotes.edges.source import os_message

        raise NotesError(os_message(exc), path=str(target)) from None
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    return True


def choose_sessions(
    conference: Conference, every: bool, ids: tuple[str, ...], day: str | None, room: str | None, track: str | None
) -> list[Session]:
    """The sessions the options name (they combine); a name the schedule does not have is a usage error naming the closest."""
    from confnotes.errors import closest

    if not (every or ids or day or room or track):
        raise NotesError("choose the sessions: --all, --session ID, --day, --room or --track", kind=ErrorKind.USAGE)
    chosen = [s for s in conference.sessions if not s.service or s.id in ids]

    def pick(value: str, names: list[str], what: str) -> str:
        for name in names:
            if name.casefold() == value.casefold():
                return name
        hint = closest(value, names)
        suggestion = f"; did you mean '{hint}'?" if hint else f" (it has: {', '.join(names[:12])})"
        raise NotesError(f"the schedule has no {what} '{value}'{suggestion}", kind=ErrorKind.USAGE)

    for wanted in ids:
        if conference.session(wanted) is None:
            pick(wanted, [s.id for s in conference.sessions], "session")
    if ids:
        chosen = [s for s in chosen if s.id in ids]
    if day:
        numbered = conference.numbered_days()
        days = [d.isoformat() for d in numbered.values()]
        if day.isdigit() and int(day) in numbered:
            day = numbered[int(day)].isoformat()
        when = pick(day, days, "day")
        chosen = [s for s in chosen if s.day.isoformat() == when]
    if room:
        where = pick(room, list(conference.rooms), "room")
        chosen = [s for s in chosen if s.room == where]
    if track:
        which = pick(track, list(conference.tracks), "track")
        chosen = [s for s in chosen if s.track == which]
    return chosen


def _from_schedule(
    path: str,
    folder: Path,
    event: str | None,
    every: bool,
    ids: tuple[str, ...],
    day: str | None,
    room: str | None,
    track: str | None,
    update: bool,
    reading: Reading,
) -> None:
    """Every chosen session's note planned first (the schedule read whole, every name made), then written."""
    from confnotes.check import encode_like
    from confnotes.schedule import read_schedule
    from confnotes.schedule.notes import changed_keys, front_matter, note_name, note_text, session_notes, with_front_matter

    if folder.exists() and not folder.is_dir():
        raise NotesError(f"with --schedule, -o names the folder for the notes; {shown(folder)} is a file", kind=ErrorKind.USAGE)
    conference = read_schedule(path, reading)
    warn(list(conference.warnings), path)
    gone: list[Any] = []
    existing = session_notes(folder, conference, event, gone)
    if update and not (every or ids or day or room or track):  # refresh the notes there are; make none
        chosen = [s for s in conference.sessions if s.key in existing]
    else:
        chosen = choose_sessions(conference, every, ids, day, room, track)
        if not chosen:
            raise NotesError("no session of the schedule matches those choices", kind=ErrorKind.USAGE)
    taken = {p.name for p in folder.iterdir()} if folder.is_dir() else set()
    made: list[tuple[Path, str]] = []
    kept = 0
    updates: list[tuple[Path, str, bytes, list[str]]] = []
    for session in chosen:
        note = existing.get(session.key)
        if note is not None:
            kept += 1
            wanted = front_matter(session, conference, event)
            keys = changed_keys(note, wanted)
            if update and keys:
                new_text = with_front_matter(note.source.text, wanted, keys)
                updates.append((note.path, note.source.text, encode_like(note.source, new_text), keys))
            continue
        name = note_name(session)
        stem, number = name[:-3], 2
        while name in taken:  # two sessions with one day, room and title; or a file that is not this session's note
            name, number = f"{stem}-{number}.md", number + 1
        taken.add(name)
        made.append((folder / name, note_text(session, conference, event)))
    _write_planned(folder, made, updates, gone)
    summary = f"{sum(1 for target, _ in made if target.exists())} new note(s) in {shown(folder)}"
    if kept:
        summary += f"; {kept} session(s) already had a note" + ("" if update else " (--update refreshes their front matter)")
    say(summary)


def _write_planned(folder: Path, made: list[tuple[Path, str]], updates: list[tuple[Path, str, bytes, list[str]]], gone: list[Any]) -> None:
    """The new notes (never over a file), the refreshed ones (never over an edit saved meanwhile),
    and a line for each note whose session the schedule no longer has (left as it is)."""
    from confnotes.edges.output import rewrite_note

    folder.mkdir(parents=True, exist_ok=True)
    for target, text in made:
        if _create(target, text):
            say(shown(target))
    for target, read, payload, keys in updates:
        problem = rewrite_note(str(target), read, payload)
        say(f"{shown(target)}: {problem}" if problem else f"updated {shown(target)}: {', '.join(keys)}")
    for note in gone:  # a cancelled talk, or one the schedule now names otherwise: the note is the user's
        say(f"{shown(note.path)}: session {note.values.get('session')} is no longer in the schedule; left as it is")
