"""The four schedule formats conferences publish, each into ``Conference``.

- frab XML (``schedule.xml``: frab, pretalx, indico, the c3voc tools), read by
  ``confnotes.edges.xmlread``: a schedule that declares entities is refused, nothing external is loaded.
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
from collections.abc import Iterable
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
    from confnotes.edges.xmlread import XmlError, parse_xml

    try:
        root = parse_xml(data)
    except XmlError as exc:
        if exc.entities:
            raise input_error("the schedule declares XML entities; refused (they can expand a small file into gigabytes)", path) from None
        raise input_error(f"not well-formed XML: {exc.reason}", path, exc.line, exc.col) from None
    if root.tag != "schedule":
        raise input_error(f"not a frab or pretalx schedule: the XML's root is <{_clip(root.tag)}> (a schedule's is <schedule>)", path)
    conf = root.find("conference")

    events = root.findall("./day/room/event")
    _many(path, len(events))
    if not events:
        found = ", ".join(f"<{_clip(tag)}>" for tag in dict.fromkeys(child.tag for child in root)) or "nothing"
        raise input_error(f"not a frab or pretalx schedule: its <schedule> holds no <day><room><event> (it holds {found})", path)
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
        day_numbers=_day_numbers((day.get("index") or "", day.get("date") or "") for day in root.findall("day")),
    )


def _clip(text: str, limit: int = 40) -> str:
    text = clean(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _day(value: str) -> dt.date | None:
    """frab's day ``date`` (``2027-12-27``), or None."""
    try:
        return dt.date.fromisoformat(value.strip()[:10])
    except ValueError:
        return None


def _day_numbers(days: Iterable[tuple[object, str]]) -> tuple[tuple[int, dt.date], ...]:
    """frab's ``(index, date)`` of each day, those that have both."""
    out = []
    for index, date in days:
        number, day = _str(index), _day(date)
        if number.isdigit() and day is not None:
            out.append((int(number), day))
    return tuple(out)


#: what a schedule's link is, by its title or address: the slides, the recording, the feedback form
_LINK_KINDS = (
    ("recording", re.compile(r"(?i)recording|video|aufzeichnung|media\.ccc\.de|youtube\.com|youtu\.be|vimeo\.com|peertube")),
    ("slides", re.compile(r"(?i)slides|folien|deck\b|speakerdeck\.com|slideshare\.net|\.(pdf|pptx?|key|odp)(\?|#|$)")),
    ("feedback", re.compile(r"(?i)feedback")),
)


def link_kind(title: str, url: str) -> str | None:
    """``slides``, ``recording`` or ``feedback`` for a schedule's link (by its title, then its
    address), or None for another kind of link."""
    for text in (title, url):
        for kind, pattern in _LINK_KINDS:
            if pattern.search(text):
                return kind
    return None


def _kinded(links: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """``(kind, url)`` of the links that are slides, a recording or a feedback form."""
    return [(kind, url) for title, url in links if (kind := link_kind(title, url))]


def _text_of(element: Any, name: str) -> str:
    found = None if element is None else element.find(name)
    return "" if found is None or found.text is None else str(found.text)


def _frab_event(event: Any, day: Any, room: Any) -> dict[str, object]:
    def text(name: str) -> str:
        return _text_of(event, name)

    listed = [
        (link.text or "", link.get("href") or "") for link in [*event.findall("./links/link"), *event.findall("./attachments/attachment")]
    ]
    feedback = [("feedback", text("feedback_url"))] if text("feedback_url") else []
    recording = [("recording", text("video_download_url"))] if text("video_download_url") else []
    abstract, description = text("abstract"), text("description")
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
        abstract=abstract or description,
        description=description if abstract and description.strip() != abstract.strip() else "",
        url=text("url"),
        links=[*recording, *_kinded(listed), *feedback],
        day=_day(day.get("date") or ""),
    )


# -- JSON: frab/pretalx and Sessionize ---------------------------------------------------------


def json_schedule(data: bytes, path: str, track_field: str | None = None) -> Conference:
    try:
        loaded = json.loads(_text(data, path, "schedule"))
    except json.JSONDecodeError as exc:
        raise input_error(f"not valid JSON: {exc.msg}", path, exc.lineno, exc.colno) from None
    except RecursionError:
        raise input_error("the JSON nests too deep to be a schedule", path) from None
    except ValueError as exc:  # a number of more digits than Python reads (4,300)
        raise input_error(f"not readable JSON: {str(exc).splitlines()[0][:80]}", path) from None
    if isinstance(loaded, dict) and isinstance(loaded.get("schedule"), dict):
        return _frab_json(loaded["schedule"], path)
    if isinstance(loaded, dict) and isinstance(loaded.get("sessions"), list) and isinstance(loaded.get("rooms"), list):
        return _sessionize(loaded, path, track_field)
    if isinstance(loaded, list) and loaded and isinstance(loaded[0], dict) and "sessions" in loaded[0]:
        raise input_error("this is Sessionize's grouped 'Sessions' view; export the 'All data' view (/api/v2/{id}/view/All) instead", path)
    if isinstance(loaded, dict):
        found = f"an object with keys {', '.join(_clip(str(key)) for key in list(loaded)[:8])}" if loaded else "an empty object"
    else:
        found = f"a list of {len(loaded)} item(s)" if isinstance(loaded, list) else f"a {type(loaded).__name__}"
    raise input_error(f"not a frab or pretalx schedule, nor Sessionize's All data: the JSON is {found}", path)


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
    if not events:
        found_keys = ", ".join(_clip(str(key)) for key in list(schedule)[:8]) or "nothing"
        raise input_error(
            f"not a frab or pretalx schedule: schedule.conference.days holds no rooms of events (schedule has {found_keys})", path
        )
    for number, (day, room, event) in enumerate(events, 1):
        event = _dict(event)
        abstract, description = _str(event.get("abstract")), _str(event.get("description"))
        listed = [
            (_str(_dict(link).get("title")), _str(_dict(link).get("url")))
            for link in [*_list(event.get("links")), *_list(event.get("attachments"))]
        ]
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
                    abstract=abstract or description,
                    description=description if abstract and description.strip() != abstract.strip() else "",
                    url=_str(event.get("url")),
                    links=[*_kinded(listed), *([("feedback", _str(event.get("feedback_url")))] if event.get("feedback_url") else [])],
                    day=_day(_str(_dict(day).get("date"))),
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
        day_numbers=_day_numbers((_dict(day).get("index"), _str(_dict(day).get("date"))) for day in days),
    )


#: Sessionize category titles that name a session's track, its format, its language
_TRACK_TITLES = ("track", "tracks", "stream", "topic")
_FORMAT_TITLES = ("session format", "format", "session type", "type")
_LANGUAGE_TITLES = ("language", "session language")
#: a category asked of speakers whose answer is the track: "Which track does your talk fit best?"
_TRACK_QUESTION = re.compile(r"(?i)\b(track|stream|topic area)s?\b.*\?\s*$")


def track_category(titles: Iterable[str], chosen: str | None, path: str) -> str | None:
    """The (case-folded) title of the Sessionize category that holds the tracks: ``chosen``
    (``--track-field``; a name the file lacks is an error naming the ones it has), else one titled
    Track (``_TRACK_TITLES``), else one asking speakers for their track; None when there is none."""
    titles = list(dict.fromkeys(titles))
    if chosen:
        if chosen.casefold() in titles:
            return chosen.casefold()
        named = ", ".join(f"'{_clip(title)}'" for title in titles) or "none"
        raise input_error(f"the schedule has no category '{_clip(chosen)}' for --track-field (its categories: {named})", path)
    return next((t for t in titles if t in _TRACK_TITLES), None) or next((t for t in titles if _TRACK_QUESTION.search(t)), None)


def _sessionize(data: dict[str, Any], path: str, track_field: str | None = None) -> Conference:
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
            items[_str(item.get("id"))] = (clean(_str(category.get("title"))).casefold(), _str(item.get("name")))
    tracked = track_category((clean(_str(c.get("title"))).casefold() for c in map(_dict, _list(data.get("categories")))), track_field, path)
    found = []
    tracks: list[str] = []
    for number, session in enumerate(map(_dict, listed), 1):
        start, end = _iso(_str(session.get("startsAt"))), _iso(_str(session.get("endsAt")))
        minutes = None if start is None or end is None else int((end - start).total_seconds() // 60)
        chosen = [items[_str(i)] for i in _list(session.get("categoryItems")) if _str(i) in items]
        track = next((name for title, name in chosen if title == tracked), "")
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
                    tags=[name for title, name in chosen if title != tracked and title not in (*_FORMAT_TITLES, *_LANGUAGE_TITLES)],
                    abstract=_str(session.get("description")),
                    links=[("recording", _str(session.get("recordingUrl")))] if session.get("recordingUrl") else [],
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
    from confnotes.edges.extras import require
    from confnotes.schedule.zones import tame

    ical = require("icalendar", "a calendar schedule (.ics)")

    text, notices = tame(_text(data, path, "calendar"))  # a zone whose rules are no zone's never reaches the library
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
        named = getattr(start.tzinfo, "key", None) if start is not None else None
        if zone is None and named and named not in _UTC_NAMES:  # a TZID; UTC ("...Z") names no conference's zone
            zone = named
        people = [p for p in _as_list(event.get("ATTENDEE")) + _as_list(event.get("ORGANIZER")) if getattr(p, "params", None) is not None]
        categories = [str(item) for value in _as_list(event.get("CATEGORIES")) for item in getattr(value, "cats", [value])]
        description = str(event.get("DESCRIPTION") or "")
        speakers = [str(p.params.get("CN", "")) for p in people] or described_speakers(description)
        url = str(event.get("URL") or "")
        found.append(
            (
                number,
                dict(
                    id=_str(str(event.get("UID") or "")),
                    title=str(event.get("SUMMARY") or ""),
                    start=start,
                    minutes=minutes,
                    room=str(event.get("LOCATION") or ""),
                    speakers=speakers,
                    track=categories[0] if categories else "",
                    tags=categories[1:],
                    abstract=description,
                    url=url,
                    links=_kinded([("", url)]),
                ),
            )
        )
    sessions, skipped = read_sessions(path, found)
    title = clean(_str(str(calendar.get("X-WR-CALNAME") or "")))
    return Conference(title=title, sessions=tuple(sessions), timezone=zone, skipped=tuple(skipped), notices=tuple(notices))


#: a description's line naming the speakers: "Speakers: A, B", "Speaker: A and B", "Referentin: C"
_SPEAKERS_LINE = re.compile(
    r"(?im)^[ \t]*(?:speakers?|presenters?|presented by|hosts?|referent(?:in|en|innen)?|sprecher(?:in|innen)?)[ \t]*:[ \t]*(.+?)[ \t]*$"
)
_NAMES = re.compile(r"\s*(?:,|;|&|\band\b|\bund\b)\s*")


def described_speakers(description: str) -> list[str]:
    """The names on a calendar event's description line naming its speakers (when its ATTENDEE and
    ORGANIZER name nobody), in order; none when it has no such line."""
    found = _SPEAKERS_LINE.search(description)
    if found is None:
        return []
    names = [name.strip(" .") for name in _NAMES.split(found.group(1))]
    return [name for name in names if name and len(name) <= 80][:20]


#: the zone names of UTC itself: a calendar whose times are in it has told no local time
_UTC_NAMES = frozenset(("UTC", "Etc/UTC", "Etc/GMT", "GMT", "Etc/Universal", "Universal", "Zulu", "Etc/Zulu"))


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
