"""The attendee's side of a conference's site: a calendar file per session, and the sessions' data
that ``_site/attend.js`` reads in the browser — stars kept in the browser and "My schedule" with
its ``.ics``, "Now" and a line at the current time, filters by track, room and language, the
reader's own zone, and the links back after the event. All of it works offline, from ``file://``
as under ``serve``: the data is a script (``_site/sessions.js``), never fetched.

The times in the data are the schedule's, with their offset (``2027-06-09T10:00:00+02:00``): the
page shows them in the conference's zone, or the reader's own when asked, and a calendar file
carries them in UTC, so every calendar app places them right. A schedule that names no zone gives
floating times (``10:00`` wherever the reader is), as it wrote them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from confnotes.build.site import Slot

#: The sessions' data for the pages' scripts (``attend.js``), in the site's ``_site/`` folder.
SESSIONS_JS = "_site/sessions.js"
#: The kinds of a session's links shown after the event, in the order they are shown, with their labels.
RESOURCES = (("recording", "Recording"), ("slides", "Slides"), ("feedback", "Feedback"))


def writes_calendars() -> bool:
    """Whether this install writes each session's calendar file: the ``schedule`` extra's icalendar
    (without it, ``calendar_warning`` says so and no page links to one)."""
    from confnotes.edges.extras import available

    return available("icalendar")


def session_files(found: list[Slot], conference: str, base_url: str | None, href: Callable[[str], str]) -> dict[str, bytes]:
    """The calendar file of each session that has its name in the site (``Slot.ics``: every
    session but the breaks, where ``writes_calendars``)."""
    return {slot.ics: calendar([slot], conference, base_url, href) for slot in found if slot.ics}


def calendar_warning(timetable: bool) -> str | None:
    """A site with a timetable, built without the ``schedule`` extra: one line saying its sessions
    have no calendar files, and how to install it (the pages' own ``.ics`` of starred sessions work)."""
    from confnotes.edges.extras import missing

    return missing("icalendar", "each session's calendar file (.ics) in the site") if timetable else None


def calendar(slots: list[Slot], conference: str, base_url: str | None, href: Callable[[str], str]) -> bytes:
    """An iCalendar file of ``slots``: each an event with its room, speakers, track and links, its
    times in UTC (floating when the schedule names no zone). Its bytes follow from the slots alone,
    so a build, a sharded build and its merge write the same file: its ``DTSTAMP`` is the session's
    start, not the moment of the build. "My schedule" makes the same events (``attend.js``)."""
    import icalendar

    cal = icalendar.Calendar()
    cal.add("prodid", "-//confnotes//conference site//EN")
    cal.add("version", "2.0")
    if conference:
        cal.add("x-wr-calname", conference)
    for slot in slots:
        event = icalendar.Event()
        event.add("uid", f"{slot.key}@{_uid_domain(conference)}")
        event.add("dtstamp", _utc(slot.start) if slot.start.tzinfo else dt.datetime(1970, 1, 1, tzinfo=dt.UTC))
        event.add("dtstart", _utc(slot.start))
        event.add("dtend", _utc(slot.end))
        event.add("summary", slot.title)
        if slot.room:
            event.add("location", slot.room)
        page = slot.note["outputs"].get("html") if slot.note else None
        address = (base_url + href(page)[2:]) if page and base_url else slot.url
        if address:
            event.add("url", address)
        event.add("description", "\n".join(_described(slot, address)))
        cal.add_component(event)
    return bytes(cal.to_ical())


def _utc(when: dt.datetime) -> dt.datetime:
    return when.astimezone(dt.UTC) if when.tzinfo else when


def _uid_domain(conference: str) -> str:
    from confnotes.names import slugify

    return (slugify(conference) or "conference") + ".confnotes"


def _described(slot: Slot, address: str) -> list[str]:
    lines = []
    if slot.speakers:
        lines.append(", ".join(slot.speakers))
    if slot.track:
        lines.append(f"Track: {slot.track}")
    lines += [f"{label}: {slot.resources[kind]}" for kind, label in RESOURCES if slot.resources.get(kind)]
    if address:
        lines.append(address)
    return lines


def sessions_data(found: list[Slot], zone: str | None, conference: str, href: Callable[[str], str]) -> str:
    """``_site/sessions.js``: every session as the attendee's pages need it (``attend.js``), in the
    schedule's order; links relative to the site's top (``./…``)."""
    from confnotes.markup.escape import strict_json

    sessions: list[dict[str, Any]] = []
    for slot in found:
        page = slot.note["outputs"].get("html") if slot.note else None
        item: dict[str, Any] = {
            "key": slot.key,
            "title": slot.title,
            "start": slot.start.isoformat(),
            "end": slot.end.isoformat(),
            "day": slot.on.isoformat(),
            "room": slot.room,
        }
        optional: dict[str, Any] = {
            "track": slot.track,
            "lang": slot.language,
            "speakers": list(slot.speakers),
            "page": href(page) if page else "",
            "url": slot.url,
            "ics": href(slot.ics) if slot.ics else "",
            "links": {kind: slot.resources[kind] for kind, _ in RESOURCES if slot.resources.get(kind)},
            "service": slot.service,
        }
        item.update({name: value for name, value in optional.items() if value})
        sessions.append(item)
    data = {"conference": conference, "zone": zone, "uid": _uid_domain(conference), "labels": dict(RESOURCES), "sessions": sessions}
    return "window.CONFNOTES_SESSIONS = " + strict_json(data, compact=True) + ";\n"


def attendee_pages(page: Callable[..., str], conference: str, zone: str | None) -> dict[str, str]:
    """``mine.html`` (the starred sessions by day, and their ``.ics``) and ``now.html`` (what runs
    now and next in each room): pages the script fills from the sessions' data."""
    return {
        "mine.html": page("attend.html", root="./", conference=conference, zone=zone, view="mine", heading="My schedule"),
        "now.html": page("attend.html", root="./", conference=conference, zone=zone, view="now", heading="Now and next"),
    }
