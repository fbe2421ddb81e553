"""The four schedule formats conferences publish, each into ``Conference``.

- frab XML (``schedule.xml``: frab, pretalx, indico, the c3voc tools), read with defusedxml:
  no entity or external reference is expanded.
- frab JSON (``schedule.json``: pretalx's and frab's JSON export, the c3voc schema).
- Sessionize's "All data" JSON (``/api/v2/{id}/view/All``): sessions, speakers, rooms and
  categories joined by id; its local times name no zone.
- iCalendar (``.ics``: any schedule app), with the ``icalendar`` library: ``SUMMARY`` the title,
  ``LOCATION`` the room, ``ATTENDEE``/``ORGANIZER`` names the speakers, ``CATEGORIES`` the track.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

from confnotes.errors import input_error
from confnotes.schedule.model import MAX_SESSIONS, Conference, clean, read_sessions


def _text(data: bytes, path: str, what: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise input_error(f"the {what} is not UTF-8 (byte 0x{data[exc.start]:02X}); export it again as UTF-8", path, line) from None


def _many(path: str, count: int) -> None:
    if count > MAX_SESSIONS:
        raise input_error(f"the schedule has {count} sessions, more than the {MAX_SESSIONS} confnotes reads", path)


def _clock_minutes(value: str) -> int | None:
    """Minutes from frab's ``HH:MM`` duration (or ``HH:MM:SS``, seconds dropped)."""
    parts = value.strip().split(":")
    if not 2 <= len(parts) <= 3 or not all(part.isdigit() and len(part) <= 2 for part in parts):
        return None
    return int(parts[0]) * 60 + int(parts[1])


def _iso(value: str) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None


def _frab_start(date: str, start: str, day: str) -> dt.datetime | None:
    """frab's ``date`` (a full ISO time) or, in older exports, the day's date and ``start`` (HH:MM)."""
    if "T" in date:
        return _iso(date)
    if re.fullmatch(r"\d{1,2}:\d{2}", start.strip()) and (date or day):
        return _iso(f"{(date or day).strip()[:10]}T{start.strip():0>5}")
    return None


# -- frab XML ---------------------------------------------------------------------------------


def frab_xml(data: bytes, path: str) -> Conference:
    from xml.etree.ElementTree import ParseError

    import defusedxml.ElementTree as SafeTree  # type: ignore[import-untyped]
    from defusedxml import DefusedXmlException

    try:
        root = SafeTree.fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise input_error("the schedule declares XML entities; refused (they can expand a small file into gigabytes)", path) from None
    except ParseError as exc:
        line, col = getattr(exc, "position", (None, None))
        reason = str(exc).split(":")[0]
        raise input_error(f"not well-formed XML: {reason}", path, line, None if col is None else col + 1) from None
    except (LookupError, ValueError) as exc:
        raise input_error(f"not readable XML: {exc}", path) from None
    if root.tag != "schedule":
        raise input_error(f"not a frab schedule: the XML's root is <{root.tag}>, not <schedule>", path)
    conf = root.find("conference")

    events = root.findall("./day/room/event")
    _many(path, len(events))
    rooms = [clean(room.get("name") or "") for day in root.findall("day") for room in day.findall("room")]
    placed = [(event, day, room) for day in root.findall("day") for room in day.findall("room") for event in room.findall("event")]
    sessions, skipped = read_sessions(path, ((number, _frab_event(*where)) for number, where in enumerate(placed, 1)))
    tracks = [clean(track.get("name") or "") for track in (conf.findall("track") if conf is not None else [])]
    return Conference(
        title=clean(_text_of(conf, "title")) or clean(_text_of(conf, "acronym")),
        sessions=tuple(sessions),
        timezone=clean(_text_of(conf, "time_zone_name")) or None,
        acronym=clean(_text_of(conf, "acronym")),
        url=clean(_text_of(conf, "base_url")),
        rooms=tuple(r for r in dict.fromkeys(rooms) if r),
        tracks=tuple(t for t in tracks if t),
        skipped=tuple(skipped),
    )


def _text_of(element: Any, name: str) -> str:
    found = None if element is None else element.find(name)
    return "" if found is None or found.text is None else str(found.text)


def _frab_event(event: Any, day: Any, room: Any) -> dict[str, object]:
    def text(name: str) -> str:
        return _text_of(event, name)

    return dict(
        id=event.get("id") or event.get("guid") or text("slug"),
        title=text("title"),
        subtitle=text("subtitle"),
        start=_frab_start(text("date"), text("start"), day.get("date") or ""),
        minutes=_clock_minutes(text("duration")),
        room=text("room") or room.get("name"),
        speakers=[person.text or "" for person in event.findall("./persons/person")],
        track=text("track"),
        type=text("type"),
        language=text("language"),
        abstract=text("abstract") or text("description"),
        url=text("url"),
    )


# -- JSON: frab/pretalx and Sessionize ---------------------------------------------------------


def json_schedule(data: bytes, path: str) -> Conference:
    try:
        loaded = json.loads(_text(data, path, "schedule"))
    except json.JSONDecodeError as exc:
        raise input_error(f"not valid JSON: {exc.msg}", path, exc.lineno, exc.colno) from None
    except RecursionError:
        raise input_error("the JSON nests too deep to be a schedule", path) from None
    if isinstance(loaded, dict) and isinstance(loaded.get("schedule"), dict):
        return _frab_json(loaded["schedule"], path)
    if isinstance(loaded, dict) and isinstance(loaded.get("sessions"), list) and isinstance(loaded.get("rooms"), list):
        return _sessionize(loaded, path)
    if isinstance(loaded, list) and loaded and isinstance(loaded[0], dict) and "sessions" in loaded[0]:
        raise input_error("this is Sessionize's grouped 'Sessions' view; export the 'All data' view (/api/v2/{id}/view/All) instead", path)
    raise input_error("not a schedule JSON: expected pretalx/frab's {\"schedule\": …} or Sessionize's All data", path)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str:
    return value if isinstance(value, str) else str(value) if isinstance(value, int) and not isinstance(value, bool) else ""


def _frab_json(schedule: dict[str, Any], path: str) -> Conference:
    conf = _dict(schedule.get("conference"))
    days = _list(conf.get("days"))
    events = [(day, room, event) for day in days for room, listed in _dict(_dict(day).get("rooms")).items() for event in _list(listed)]
    _many(path, len(events))
    found = []
    for number, (day, room, event) in enumerate(events, 1):
        event = _dict(event)
        persons = [
            _str(p.get("public_name") or p.get("name") or p.get("full_public_name")) for p in map(_dict, _list(event.get("persons")))
        ]
        found.append(
            (
                number,
                dict(
                    id=_str(event.get("id")) or _str(event.get("code")) or _str(event.get("guid")),
                    title=_str(event.get("title")),
                    subtitle=_str(event.get("subtitle")),
                    start=_frab_start(_str(event.get("date")), _str(event.get("start")), _str(_dict(day).get("date"))),
                    minutes=_clock_minutes(_str(event.get("duration"))),
                    room=_str(event.get("room")) or room,
                    speakers=persons,
                    track=_str(event.get("track")),
                    type=_str(event.get("type")),
                    language=_str(event.get("language")),
                    abstract=_str(event.get("abstract")) or _str(event.get("description")),
                    url=_str(event.get("url")),
                ),
            )
        )
    sessions, skipped = read_sessions(path, found)
    return Conference(
        title=clean(_str(conf.get("title"))) or clean(_str(conf.get("acronym"))),
        sessions=tuple(sessions),
        timezone=clean(_str(conf.get("time_zone_name"))) or None,
        acronym=clean(_str(conf.get("acronym"))),
        url=clean(_str(schedule.get("base_url")) or _str(conf.get("url"))),
        rooms=tuple(r for r in (clean(_str(_dict(room).get("name"))) for room in _list(conf.get("rooms"))) if r),
        tracks=tuple(t for t in (clean(_str(_dict(track).get("name"))) for track in _list(conf.get("tracks"))) if t),
        skipped=tuple(skipped),
    )


#: Sessionize category titles that name a session's track, its format, its language
_TRACK_TITLES = ("track", "tracks", "stream", "topic")
_FORMAT_TITLES = ("session format", "format", "session type", "type")
_LANGUAGE_TITLES = ("language", "session language")


def _sessionize(data: dict[str, Any], path: str) -> Conference:
    listed = _list(data.get("sessions"))
    _many(path, len(listed))
    speakers = {
        _str(s.get("id")): _str(s.get("fullName")) or f"{_str(s.get('firstName'))} {_str(s.get('lastName'))}"
        for s in map(_dict, _list(data.get("speakers")))
    }
    room_names = {_str(r.get("id")): _str(r.get("name")) for r in map(_dict, _list(data.get("rooms")))}
    items: dict[str, tuple[str, str]] = {}  # category item id -> (category title, item name)
    for category in map(_dict, _list(data.get("categories"))):
        for item in map(_dict, _list(category.get("items"))):
            items[_str(item.get("id"))] = (_str(category.get("title")).casefold(), _str(item.get("name")))
    found = []
    tracks: list[str] = []
    for number, session in enumerate(map(_dict, listed), 1):
        start, end = _iso(_str(session.get("startsAt"))), _iso(_str(session.get("endsAt")))
        minutes = None if start is None or end is None else int((end - start).total_seconds() // 60)
        chosen = [items[_str(i)] for i in _list(session.get("categoryItems")) if _str(i) in items]
        track = next((name for title, name in chosen if title in _TRACK_TITLES), "")
        tracks += [track] if track else []
        found.append(
            (
                number,
                dict(
                    id=_str(session.get("id")),
                    title=_str(session.get("title")),
                    start=start,
                    minutes=minutes,
                    room=room_names.get(_str(session.get("roomId")), "") or _str(session.get("room")),
                    speakers=[speakers.get(_str(s), "") for s in _list(session.get("speakers"))],
                    track=track,
                    type=next((name for title, name in chosen if title in _FORMAT_TITLES), ""),
                    language=next((name for title, name in chosen if title in _LANGUAGE_TITLES), ""),
                    tags=[name for title, name in chosen if title not in (*_TRACK_TITLES, *_FORMAT_TITLES, *_LANGUAGE_TITLES)],
                    abstract=_str(session.get("description")),
                    service=session.get("isServiceSession") is True,
                ),
            )
        )
    sessions, skipped = read_sessions(path, found)
    return Conference(  # Sessionize's data names no conference: new --event names it
        title="",
        sessions=tuple(sessions),
        rooms=tuple(name for name in room_names.values() if name),
        tracks=tuple(dict.fromkeys(tracks)),
        skipped=tuple(skipped),
    )


# -- iCalendar ---------------------------------------------------------------------------------


def icalendar(data: bytes, path: str) -> Conference:
    import icalendar as ical

    text = _text(data, path, "calendar")
    try:
        calendar = ical.Calendar.from_ical(text)
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise input_error(f"not a readable iCalendar file: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}", path) from None
    events = list(calendar.walk("VEVENT"))
    _many(path, len(events))
    found = []
    zone = clean(_str(calendar.get("X-WR-TIMEZONE"))) or None
    for number, event in enumerate(events, 1):
        start = _ical_time(event, "DTSTART")
        end = _ical_time(event, "DTEND")
        minutes = None
        if start is not None and end is not None:
            minutes = int((end - start).total_seconds() // 60)
        elif start is not None and event.get("DURATION") is not None:
            minutes = int(event.decoded("DURATION").total_seconds() // 60)
        elif start is not None:  # no end and no duration: it ends when it starts (RFC 5545)
            minutes = 0
        if zone is None and start is not None and getattr(start.tzinfo, "key", None):
            zone = start.tzinfo.key  # type: ignore[union-attr]
        people = [p for p in _as_list(event.get("ATTENDEE")) + _as_list(event.get("ORGANIZER")) if getattr(p, "params", None) is not None]
        categories = [str(item) for value in _as_list(event.get("CATEGORIES")) for item in getattr(value, "cats", [value])]
        found.append(
            (
                number,
                dict(
                    id=_str(str(event.get("UID") or "")),
                    title=str(event.get("SUMMARY") or ""),
                    start=start,
                    minutes=minutes,
                    room=str(event.get("LOCATION") or ""),
                    speakers=[str(p.params.get("CN", "")) for p in people],
                    track=categories[0] if categories else "",
                    tags=categories[1:],
                    abstract=str(event.get("DESCRIPTION") or ""),
                    url=str(event.get("URL") or ""),
                ),
            )
        )
    sessions, skipped = read_sessions(path, found)
    title = clean(_str(str(calendar.get("X-WR-CALNAME") or "")))
    return Conference(title=title, sessions=tuple(sessions), timezone=zone, skipped=tuple(skipped))


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def _ical_time(event: Any, name: str) -> dt.datetime | None:
    if event.get(name) is None:
        return None
    try:
        value = event.decoded(name)
    except (ValueError, KeyError, TypeError):
        return None
    return value if isinstance(value, dt.datetime) else None
