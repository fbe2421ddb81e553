"""A conference's schedule: one model read from frab XML, pretalx/frab JSON, Sessionize JSON or iCalendar.

``read_schedule`` is the one way a schedule file is read (``new --schedule``, ``build`` with a
``schedule`` setting): a regular file within ``MAX_SCHEDULE_BYTES``, its format told from its
content, every session checked (a title, a start, a length, a room) before anything is written.
Times keep the conference's time zone: a schedule that names one (frab's ``time_zone_name``, an
iCalendar ``TZID``) has every start in it; one that does not (Sessionize) takes ``timezone`` from
the caller, or keeps the local times as written.
"""

from __future__ import annotations

import datetime as dt

from confnotes.errors import input_error
from confnotes.schedule.model import MAX_SCHEDULE_BYTES, Conference, Session

__all__ = ["MAX_SCHEDULE_BYTES", "Conference", "Session", "in_zone", "read_schedule"]


def read_schedule(path: str, timezone: str | None = None) -> Conference:
    """The schedule in ``path`` (any of the four formats, told from its content); a file that is
    not one, or a session that lacks what a timetable needs, is one ``NotesError`` line."""
    from confnotes.schedule import readers
    from confnotes.source import read_bytes

    data = read_bytes(path, "schedule", MAX_SCHEDULE_BYTES)
    zone = _zone(timezone, path) if timezone else None
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:64]
    if head.startswith(b"<"):
        conference = readers.frab_xml(data, path)
    elif head.startswith((b"{", b"[")):
        conference = readers.json_schedule(data, path)
    elif head.upper().startswith(b"BEGIN:VCALENDAR"):
        conference = readers.icalendar(data, path)
    else:
        raise input_error("not a schedule: expected frab XML, pretalx/frab JSON, Sessionize JSON or iCalendar (.ics)", path)
    if not conference.sessions:
        raise input_error("the schedule has no sessions", path)
    return keyed(in_zone(conference, zone or (_zone(conference.timezone, path) if conference.timezone else None)))


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
    except (ZoneInfoNotFoundError, ValueError):
        raise input_error(f"unknown time zone '{name}' (an IANA name such as Europe/Berlin)", path) from None
