"""A conference's schedule: one model read from frab XML, pretalx/frab JSON, Sessionize JSON or iCalendar
(docs/design.md, "Readers").

``read_schedule`` is the one way a schedule file is read (``new --schedule``, ``build`` with a
``schedule`` setting): a regular file within ``MAX_SCHEDULE_BYTES``, its format told from its
content, every session checked (a title, a start, a length, a room) before anything is written.
Times keep the conference's time zone: a schedule that names one (frab's ``time_zone_name``, an
iCalendar ``X-WR-TIMEZONE`` or ``TZID``) has every start in it; one that does not (Sessionize, a
calendar in UTC) takes ``Reading.timezone`` from the caller, or keeps the times as written. Then,
in this order: the breaks (``model.is_break``), the schedule's days (frab's own, else the day
changing at ``Reading.day_change`` or the hour the sessions say), each session's identity (``keyed``).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from confnotes.errors import input_error
from confnotes.schedule.model import MAX_SCHEDULE_BYTES, Conference, Reading, Session

if TYPE_CHECKING:
    from confnotes.config.settings import BuildSettings

__all__ = ["MAX_SCHEDULE_BYTES", "Conference", "Reading", "Session", "in_zone", "read_schedule", "schedule_reading"]


def read_schedule(path: str, reading: Reading | None = None) -> Conference:
    """The schedule in ``path`` (any of the four formats, told from its content); a file that is
    not one, or one none of whose sessions can be read, is one ``NotesError`` line."""
    from confnotes.edges.source import read_bytes
    from confnotes.schedule import readers

    reading = reading or Reading()
    data = read_bytes(path, "schedule", MAX_SCHEDULE_BYTES)
    zone = _zone(reading.timezone, path) if reading.timezone else None
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:64]
    if head.startswith(b"<"):
        conference = readers.frab_xml(data, path)
    elif head.startswith((b"{", b"[")):
        conference = readers.json_schedule(data, path, reading.track_field)
    elif head.upper().startswith(b"BEGIN:VCALENDAR"):
        conference = readers.icalendar(data, path)
    else:
        raise input_error("not a schedule: expected frab XML, pretalx/frab JSON, Sessionize JSON or iCalendar (.ics)", path)
    if not conference.sessions:
        raise input_error("the schedule has no sessions", path)
    notices = list(conference.notices)
    if zone is None and conference.timezone is None and all(_in_utc(s.start) for s in conference.sessions):
        notices.append("the schedule gives its times in UTC and names no time zone; --timezone (or [build] timezone) shows local times")
    zone = zone or (_zone(conference.timezone, path) if conference.timezone else None)
    conference = keyed(on_days(with_breaks(in_zone(conference, zone), reading.break_types), reading.day_change))
    if conference.repeated_ids:
        notices.append(f"{conference.repeated_ids} session id(s) are given to more than one session; their notes name them by id and start")
    from dataclasses import replace

    return replace(conference, notices=tuple(notices))


def schedule_reading(
    settings: BuildSettings,
    timezone: str | None = None,
    day_change: int | None = None,
    break_types: str | None = None,
    track_field: str | None = None,
) -> Reading:
    """How to read the schedule: each option given on the command line (``new --schedule``,
    ``build``, ``serve``), else the config's ``[build]`` key. ``break_types`` is the option's
    comma-separated list (``--break-types ""``: no type is a break)."""
    types = settings.break_types if break_types is None else tuple(part for part in break_types.split(","))
    return Reading(
        timezone=timezone or settings.timezone,
        day_change=settings.day_change if day_change is None else day_change,
        break_types=None if types is None else tuple(sorted({t.strip().casefold() for t in types if t.strip()})),
        track_field=track_field or settings.track_field,
    )


def _in_utc(start: dt.datetime) -> bool:
    return start.tzinfo is not None and start.utcoffset() == dt.timedelta(0)


def with_breaks(conference: Conference, types: tuple[str, ...] | None) -> Conference:
    """The conference with each session a break or not (``model.is_break``; ``types``: ``--break-types``)."""
    from dataclasses import replace

    from confnotes.schedule.model import is_break

    sessions = tuple(replace(s, service=is_break(s.service, s.type, s.title, s.speakers, types)) for s in conference.sessions)
    return replace(conference, sessions=sessions)


def on_days(conference: Conference, change: int | None) -> Conference:
    """The conference with each session on its schedule's day: frab's own days (unless ``change``
    is given), else its start's date with the day beginning at ``change`` o'clock, or at the hour
    the sessions say (``derived_day_change``): a congress evening's 01:00 session stays on its evening."""
    from dataclasses import replace

    from confnotes.schedule.model import derived_day_change

    def placed_here(session: Session) -> bool:  # its day is this function's to say
        return change is not None or session.schedule_day is None

    open_ = [s for s in conference.sessions if placed_here(s)]
    if not open_:
        return conference
    shift = dt.timedelta(hours=change if change is not None else derived_day_change(s.start for s in open_))
    sessions = tuple(replace(s, schedule_day=(s.start - shift).date()) if placed_here(s) else s for s in conference.sessions)
    numbers = conference.day_numbers if change is None else ()
    return replace(conference, sessions=sessions, day_numbers=numbers)


def keyed(conference: Conference) -> Conference:
    """Each session's identity (``Session.key``): its id where the id is its own; where the schedule
    gives several sessions one id (a congress's recurring session, a calendar's repeated UID), its
    id and its start, so that no note is ever tied to another occurrence, or another talk."""
    from collections import Counter
    from dataclasses import replace

    from confnotes.schedule.notes import start_text

    count = Counter(session.id for session in conference.sessions)
    keys = [s.id if count[s.id] == 1 else f"{s.id}@{start_text(s.start)}" for s in conference.sessions]
    twice = Counter(keys)  # one id at one start twice (two rooms, or a copy): the room, then the order, tell them apart
    keys = [key if twice[key] == 1 else f"{key}@{s.room}" for key, s in zip(keys, conference.sessions, strict=True)]
    seen: Counter[str] = Counter()
    unique = []
    for key in keys:
        seen[key] += 1
        unique.append(key if seen[key] == 1 else f"{key}#{seen[key]}")
    sessions = tuple(replace(s, key=key) for s, key in zip(conference.sessions, unique, strict=True))
    return replace(conference, sessions=sessions, repeated_ids=sum(1 for times in count.values() if times > 1))


def in_zone(conference: Conference, zone: dt.tzinfo | None) -> Conference:
    """The conference with every start in ``zone`` (a local time as written is taken to be in it),
    sessions ordered by start, then room in the schedule's order, then title."""
    from dataclasses import replace

    def placed(session: Session) -> Session:
        if zone is None:
            return session
        start = session.start.replace(tzinfo=zone) if session.start.tzinfo is None else session.start.astimezone(zone)
        return replace(session, start=start)

    sessions = [placed(s) for s in conference.sessions]
    rooms = tuple(dict.fromkeys([*conference.rooms, *(s.room for s in sessions)]))
    tracks = tuple(dict.fromkeys([*conference.tracks, *(s.track for s in sessions if s.track)]))
    order = {room: index for index, room in enumerate(rooms)}
    sessions.sort(key=lambda s: (s.start.replace(tzinfo=None) if zone is None else s.start, order[s.room], s.title.casefold(), s.id))
    name = getattr(zone, "key", None) or conference.timezone
    return replace(conference, sessions=tuple(sessions), rooms=rooms, tracks=tracks, timezone=name)


def _zone(name: str, path: str) -> dt.tzinfo:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name that is a folder of zones ("Europe")
        raise input_error(f"unknown time zone '{name}' (an IANA name such as Europe/Berlin)", path) from None
