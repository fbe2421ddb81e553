"""The site around the notes: search, a timetable, pages per track, speaker and tag, a feed and a sitemap.

Everything here is made from the manifest's entries (each note's index facts) and the schedule, so
a plain build and ``--merge`` of sharded builds write the same bytes. A note's own page never
depends on another note: its search box and its previous/next links come from the site's
``_site/site.js`` with ``_site/nav.js``, so changing one note's slot rebuilds that note and the
site's pages, not its neighbours.

The schedule is the conference's file (``[build] schedule`` or ``build --schedule``), or else the
notes' own front matter (``start`` and ``room``, as ``new --schedule`` writes them). A note is its
session by ``session`` id, else by title.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from confnotes.config import Config
    from confnotes.schedule import Conference, Reading

#: Static files every site has, copied from the templates folder into ``_site/``.
ASSETS = ("site.js", "site.css", "attend.js")


@dataclass(frozen=True)
class SiteInputs:
    """What the site's pages are made from besides the notes: the schedule and the site's address."""

    schedule: Conference | None = None
    schedule_sha256: str | None = None
    base_url: str | None = None
    theme: str = "default"  # the site's own pages' (index, timetable, lists): --theme, else the config's
    schedule_path: str = ""  # where the schedule was read from (its warnings name it)

    def record(self) -> dict[str, Any]:
        """For the manifest: a build whose inputs differ writes the site's pages again."""
        return {"schedule": self.schedule_sha256, "base_url": self.base_url, "theme": self.theme}


def site_inputs_for(
    config: Config, schedule: str | None = None, base_url: str | None = None, reading: Reading | None = None, theme: str | None = None
) -> SiteInputs:
    """The site's inputs for ``build`` and ``serve``: each option given on the command line, else
    the config's key (a schedule relative to the config file's folder; ``reading``: how it is read,
    ``schedule.schedule_reading``)."""
    from dataclasses import replace

    from confnotes.schedule import schedule_reading

    settings = config.build
    if schedule is None and settings.schedule:
        schedule = settings.schedule if config.root is None else str(config.root / settings.schedule)
    return replace(site_inputs(schedule, base_url or settings.base_url, reading or schedule_reading(settings)), theme=theme or config.theme)


def site_inputs(schedule: str | None, base_url: str | None, reading: Reading | None = None) -> SiteInputs:
    """The schedule read (one line and exit 2 when it cannot be) and the base URL checked."""
    from confnotes.errors import ErrorKind, NotesError

    if base_url is not None:
        import re

        if not re.fullmatch(r"https?://[^\s<>\"']+", base_url):
            raise NotesError(f"--base-url must be an http(s) address, not '{base_url}'", kind=ErrorKind.USAGE)
        base_url = base_url.rstrip("/") + "/"
    if schedule is None:
        return SiteInputs(base_url=base_url)
    from confnotes.edges.source import read_bytes
    from confnotes.schedule import read_schedule

    conference = read_schedule(schedule, reading)
    digest = hashlib.sha256(read_bytes(schedule, "schedule") + repr(reading).encode()).hexdigest()
    return SiteInputs(conference, digest, base_url, schedule_path=schedule)


@dataclass
class Slot:
    """A session as the timetable shows it: from the schedule or a note's front matter, and its note."""

    title: str
    start: dt.datetime
    minutes: int
    room: str
    speakers: tuple[str, ...] = ()
    track: str = ""
    service: bool = False
    note: dict[str, Any] | None = None  # the manifest entry of its note
    url: str = ""
    links: dict[str, str] = field(default_factory=dict)  # speaker/track -> their page
    #: the schedule's day (``Session.day``: a session after midnight is its evening's), else its start's
    day: dt.date | None = None
    #: its identity, kept in an attendee's stars: the schedule's session key, else its note's place in the site
    key: str = ""
    language: str = ""
    #: the session's recording, slides and feedback form (``Session.links``, or its note's ``links``)
    resources: dict[str, str] = field(default_factory=dict)
    ics: str = ""  # its calendar file in the site (``sessions/….ics``; ``attend.session_files``)

    @property
    def end(self) -> dt.datetime:
        return self.start + dt.timedelta(minutes=self.minutes)

    @property
    def on(self) -> dt.date:
        return self.day or self.start.date()


def slots(notes: list[dict[str, Any]], conference: Conference | None) -> tuple[list[Slot], str | None, str]:
    """Every session with its note (if any), the zone, and the conference's name; no slots without a schedule."""
    if conference is not None:
        noted = notes_of_sessions(notes, conference)
        found = [
            Slot(
                s.title,
                s.start,
                s.minutes,
                s.room,
                s.speakers,
                s.track,
                s.service,
                noted.get(s.key),
                s.url,
                day=s.day,
                key=s.key,
                language=s.language,
                resources=dict(s.links),
            )
            for s in conference.sessions
        ]
        return found, conference.timezone, conference.title
    found = []
    for entry in notes:
        facts = entry.get("schedule") or {}
        start = _when(facts.get("start"))
        if start is None or not facts.get("room"):
            continue
        found.append(
            Slot(
                entry["title"],
                start,
                facts.get("minutes") or 30,
                facts["room"],
                tuple(entry["speakers"]),
                facts.get("track", ""),
                False,
                entry,
                day=_note_day(entry.get("date"), start),
                key=facts.get("session") or entry["rel"],
                language=facts.get("language", ""),
                resources=dict(facts.get("links") or {}),
            )
        )
    events = [e["event"] for e in notes if e.get("event")]
    found.sort(key=lambda s: (s.start.isoformat(), s.room, s.title))
    return found, None, max(sorted(set(events)), key=events.count) if events else ""


def _note_day(date: Any, start: dt.datetime) -> dt.date:
    """A note's day in the timetable: its front matter ``date`` when that is its start's date or the
    one before (``new --schedule`` writes the schedule's day: a session after midnight is its
    evening's), else its start's date."""
    try:
        day = dt.date.fromisoformat(str(date or "")[:10])
    except ValueError:
        return start.date()
    return day if dt.timedelta(0) <= start.date() - day <= dt.timedelta(days=1) else start.date()


def notes_of_sessions(notes: list[dict[str, Any]], conference: Conference) -> dict[str, dict[str, Any]]:
    """Each session's note (``schedule.match``: one to one), by session key."""
    from confnotes.schedule.match import Claim, matched

    claims = []
    for entry in notes:
        facts = entry.get("schedule") or {}
        session = str(facts["session"]) if facts.get("session") else None
        claims.append(Claim(entry, session, str(entry.get("title") or ""), _when(facts.get("start")), str(facts.get("room") or "")))
    return matched(conference.sessions, claims)


def schedule_warnings(notes: list[dict[str, Any]], conference: Conference | None) -> list[tuple[str, str]]:
    """``(note, warning)`` for each note the schedule has moved since it was made, then each note of
    a session the schedule no longer has; the notes matched to sessions once for both."""
    if conference is None:
        return []
    noted = notes_of_sessions(notes, conference)
    gone = [
        (
            entry["rel"],
            f"the schedule no longer has session {entry['schedule']['session']} (cancelled?); the timetable lists the note "
            "apart and its page says so",
        )
        for entry in cancelled(notes, conference, {id(entry) for entry in noted.values()})
    ]
    return moved(noted, conference) + gone


def moved(noted: dict[str, dict[str, Any]], conference: Conference) -> list[tuple[str, str]]:
    """``(note, warning)`` for each note (``noted``: by session key, ``notes_of_sessions``) whose room
    or start the schedule now says otherwise (a talk moved since the note was made): the timetable
    follows the schedule, the note's own front matter (which ``time``, the page and a build without
    the schedule read) does not."""
    out: list[tuple[str, str]] = []
    sessions = {s.key: s for s in conference.sessions}
    for key, entry in noted.items():
        facts = entry.get("schedule") or {}
        session = sessions[key]
        start = _when(facts.get("start"))
        if start is None or session.service:
            continue
        room = str(facts.get("room") or "")
        if start != session.start or (room and room != session.room):
            out.append(
                (
                    entry["rel"],
                    f"the schedule has this talk in {session.room} at {session.start:%Y-%m-%d %H:%M}; the note says "
                    f"{room or 'no room'} at {start.astimezone(session.start.tzinfo):%Y-%m-%d %H:%M} "
                    "(confnotes new --schedule FILE --update sets the note's)",
                )
            )
    return out


def cancelled(notes: list[dict[str, Any]], conference: Conference, placed: set[int]) -> list[dict[str, Any]]:
    """The notes of this conference's sessions that the schedule no longer has (a cancelled talk):
    those naming a ``session`` and this event (or none) that are not ``placed`` (the ``id`` of each
    note matched to a session). The timetable lists them apart, and ``_site/nav.js`` marks their pages."""
    return [
        entry
        for entry in notes
        if (entry.get("schedule") or {}).get("session")
        and id(entry) not in placed
        and (not entry.get("event") or not conference.title or entry["event"] == conference.title)
    ]


def _when(value: Any) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def grid(day_slots: list[Slot], rooms: list[str]) -> list[tuple[dt.datetime, list[tuple[list[Slot], int] | None | str]]]:
    """One day's timetable: rows by start time, a column per room; a cell holds its sessions and the
    rows it spans, ``"covered"`` under it, or None (nothing then). A session that overlaps another
    in its room (a schedule's mistake, or two talks sharing a slot) is shown in that session's cell,
    below it, and the cell grows to its end: no session of the schedule is left out."""
    times = sorted({s.start for s in day_slots})
    rows: list[tuple[dt.datetime, list[tuple[list[Slot], int] | None | str]]] = [(t, [None] * len(rooms)) for t in times]
    index = {t: n for n, t in enumerate(times)}
    owner: dict[tuple[int, int], int] = {}  # (row, column) -> the row of the cell that shows it
    for slot in day_slots:
        column, first = rooms.index(slot.room), index[slot.start]
        top = owner.get((first, column), first)
        held = rows[top][1][column]
        shown, span = (held[0], held[1]) if isinstance(held, tuple) else ([], 0)
        shown.append(slot)
        span = max(span, 1, first - top + 1)
        while top + span < len(times) and times[top + span] < slot.end and (top + span, column) not in owner:
            span += 1
        rows[top][1][column] = (shown, span)
        for row in range(top, top + span):
            owner[(row, column)] = top
            if row > top:
                rows[row][1][column] = "covered"
    return rows


def slugged(names: list[str]) -> dict[str, str]:
    """A file name for each name, unique among them (``Zoë Müller`` -> ``zoë-müller``; a clash gets ``-2``)."""
    from confnotes.build.search import folded
    from confnotes.names import file_slug

    out: dict[str, str] = {}
    used: set[str] = set()
    for name in sorted(set(names), key=lambda name: (folded(name), name)):  # Łukasz by L, Ömer by O
        base = file_slug(name) if any(char.isalnum() for char in name) else "page"
        slug, number = base, 2
        while slug in used:
            slug, number = f"{base}-{number}", number + 1
        used.add(slug)
        out[name] = slug
    return out


def write_site_pages(
    out_dir: Path, notes: list[dict[str, Any]], inputs: SiteInputs, href: Callable[[str], str], page: Callable[..., str]
) -> dict[str, bytes]:
    """Every page of the site besides index.html and outline.json, by its name in the site."""
    from confnotes.build.search import site_index
    from confnotes.templating import read_builtin

    files: dict[str, bytes] = {name: read_builtin(name).encode("utf-8") for name in ASSETS}
    files = {f"_site/{name}": data for name, data in files.items()}
    files.update({name: text.encode("utf-8") for name, text in site_index(out_dir, notes, href).items()})
    found, zone, conference = slots(notes, inputs.schedule)
    order = [s.note for s in found if s.note is not None] or notes
    gone = cancelled(notes, inputs.schedule, {id(s.note) for s in found if s.note is not None}) if inputs.schedule else []
    pages = _browse_pages(notes, found, zone, conference, page, gone, inputs.base_url, href) if found else {}
    files.update(pages)
    files["_site/nav.js"] = _nav(order, href, found, _note_pages(gone), conference, zone).encode("utf-8")
    files["feed.xml"] = feed(notes, href, inputs.base_url, conference)
    if inputs.base_url:
        files["sitemap.xml"] = sitemap([href(name) for name in [*_note_pages(notes), "index.html", *sorted(pages)]], inputs.base_url)
    return files


def _note_pages(notes: list[dict[str, Any]]) -> list[str]:
    return [entry["outputs"]["html"] for entry in notes if entry["outputs"].get("html")]


def _nav(
    order: list[dict[str, Any]],
    href: Callable[[str], str],
    found: list[Slot],
    cancelled: Sequence[str] = (),
    conference: str = "",
    zone: str | None = None,
) -> str:
    """``_site/nav.js``: each note page's previous and next note (in the schedule's order, else the
    index's), the session each note page is (its key, for its star: ``attend.js``), and the pages of
    sessions the schedule no longer has (``cancelled``)."""
    from confnotes.markup.escape import strict_json

    pages = [(e["outputs"]["html"], e["title"]) for e in order if e["outputs"].get("html")]
    links = {}
    for number, (name, _title) in enumerate(pages):
        before = pages[number - 1] if number else None
        after = pages[number + 1] if number + 1 < len(pages) else None
        links[name] = [before and href(before[0]), before and before[1], after and href(after[0]), after and after[1]]
    data: dict[str, Any] = {"timetable": bool(found), "pages": links}
    if found:  # the attendee's stars are kept per conference; its zone is the times' default
        data |= {"conference": conference, "zone": zone}
    sessions = {s.note["outputs"]["html"]: s.key for s in found if s.note is not None and s.note["outputs"].get("html")}
    if sessions:
        data["sessions"] = dict(sorted(sessions.items()))
    if cancelled:
        data["cancelled"] = sorted(cancelled)
    return "window.CONFNOTES_NAV = " + strict_json(data, compact=True) + ";\n"


def _browse_pages(
    notes: list[dict[str, Any]],
    found: list[Slot],
    zone: str | None,
    conference: str,
    page: Callable[..., str],
    gone: list[dict[str, Any]],
    base_url: str | None,
    href: Callable[[str], str],
) -> dict[str, bytes]:
    """timetable.html, browse.html, a page per track, speaker and tag, and the attendee's pages and
    files (``attend``: a calendar file per session, "My schedule", "Now", the sessions' data)."""
    from confnotes.build import attend

    files = _attendee_files(found, zone, conference, page, base_url, href)
    speakers = slugged([name for s in found for name in s.speakers] + [name for e in notes for name in e["speakers"]])
    tracks = slugged([s.track for s in found if s.track])
    tags = slugged([tag for e in notes for tag in e["tags"]])
    for slot in found:
        slot.links = {name: f"speakers/{speakers[name]}.html" for name in slot.speakers}
        if slot.track:
            slot.links[slot.track] = f"tracks/{tracks[slot.track]}.html"
    rooms = list(dict.fromkeys(s.room for s in found))
    days = []
    for day in sorted({s.on for s in found}):
        day_slots = [s for s in found if s.on == day]
        used = [room for room in rooms if any(s.room == room for s in day_slots)]
        days.append({"date": day, "rooms": used, "rows": grid(day_slots, used), "slots": day_slots})
    files |= {
        "timetable.html": page(
            "timetable.html", days=days, zone=zone, conference=conference, root="./", cancelled=gone, resources=attend.RESOURCES
        ),
        "browse.html": page(
            "browse.html", root="./", conference=conference, tracks=tracks, speakers=speakers, tags=tags, counts=_counts(found, notes)
        ),
    }
    groups: list[tuple[str, dict[str, str], Callable[[str], list[Slot]], str]] = [
        ("tracks", tracks, lambda name: [s for s in found if s.track == name], "Track"),
        (
            "speakers",
            speakers,
            lambda name: [s for s in found if name in s.speakers] or _unscheduled(notes, found, "speakers", name),
            "Speaker",
        ),
        (
            "tags",
            tags,
            lambda name: [s for s in found if s.note and name in s.note["tags"]] or _unscheduled(notes, found, "tags", name),
            "Tag",
        ),
    ]
    for folder, names, members, kind in groups:
        for name, slug in names.items():
            files[f"{folder}/{slug}.html"] = page(
                "list.html", root="../", kind=kind, subject=name, slots=members(name), conference=conference
            )
    return {name: (data if isinstance(data, bytes) else data.encode("utf-8")) for name, data in files.items()}


def _attendee_files(
    found: list[Slot], zone: str | None, conference: str, page: Callable[..., str], base_url: str | None, href: Callable[[str], str]
) -> dict[str, bytes | str]:
    """A calendar file per session (each slot's ``ics`` set), the sessions' data for the pages'
    scripts, "My schedule" and "Now" (``attend``)."""
    from confnotes.build import attend

    if attend.writes_calendars():
        calendars = slugged([s.key for s in found if not s.service])
        for slot in found:
            slot.ics = "" if slot.service else f"sessions/{calendars[slot.key]}.ics"
    files: dict[str, bytes | str] = dict(attend.session_files(found, conference, base_url, href))
    files[attend.SESSIONS_JS] = attend.sessions_data(found, zone, conference, href)
    files.update(attend.attendee_pages(page, conference, zone))
    return files


def _unscheduled(notes: list[dict[str, Any]], found: list[Slot], key: str, name: str) -> list[Slot]:
    """Notes with this speaker or tag that are no session of the schedule: listed without a time."""
    placed = {id(s.note) for s in found if s.note is not None}
    return [
        Slot(e["title"], dt.datetime.min, 0, "", tuple(e["speakers"]), "", False, e)
        for e in notes
        if name in e[key] and id(e) not in placed
    ]


def _counts(found: list[Slot], notes: list[dict[str, Any]]) -> dict[str, int]:
    talks = [s for s in found if not s.service]
    return {"sessions": len(talks), "with_notes": sum(1 for s in talks if s.note is not None), "notes": len(notes)}


def feed(notes: list[dict[str, Any]], href: Callable[[str], str], base_url: str | None, conference: str) -> bytes:
    """``feed.xml``: an Atom feed of the notes that have a date (newest first; Atom needs one per entry)."""
    import uuid

    from confnotes.markup.escape import xml_attr, xml_text

    def link(name: str) -> str:
        return (base_url + href(name)[2:]) if base_url else href(name)

    dated = [(_updated(e), e) for e in notes if e["outputs"].get("html")]
    dated = sorted(
        ((when, e) for when, e in dated if when), key=lambda pair: (pair[0], pair[1]["title"].casefold(), pair[1]["rel"]), reverse=True
    )
    site_id = base_url or f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, 'confnotes-site:' + conference)}"
    updated = dated[0][0] if dated else "1970-01-01T00:00:00Z"
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        f"<title>{xml_text(conference or 'Notes')}</title>",
        f"<id>{xml_text(site_id)}</id>",
        f"<updated>{updated}</updated>",
        f"<link href={xml_attr(link('index.html'))}/>",
        "<generator>confnotes</generator>",
    ]
    for when, entry in dated:
        page = entry["outputs"]["html"]
        entry_id = (base_url + href(page)[2:]) if base_url else f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, site_id + '/' + entry['rel'])}"
        authors = (
            "".join(f"<author><name>{xml_text(name)}</name></author>" for name in entry["speakers"])
            or "<author><name>confnotes</name></author>"
        )
        summary = " · ".join(part for part in (entry.get("event"), ", ".join(entry["speakers"])) if part)
        out.append(
            f"<entry><title>{xml_text(entry['title'])}</title><id>{xml_text(entry_id)}</id>"
            f"<updated>{when}</updated><link href={xml_attr(link(page))}/>{authors}"
            f"<summary>{xml_text(summary)}</summary></entry>"
        )
    out.append("</feed>")
    return ("\n".join(out) + "\n").encode("utf-8")


def _updated(entry: dict[str, Any]) -> str | None:
    """An entry's Atom time: its session's start (in UTC), else its date; None without either."""
    start = _when((entry.get("schedule") or {}).get("start"))
    if start is not None and start.tzinfo is not None:
        return start.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        return dt.date.fromisoformat(str(entry.get("date") or "")[:10]).isoformat() + "T00:00:00Z"
    except ValueError:
        return None


def sitemap(links: list[str], base_url: str) -> bytes:
    """``sitemap.xml`` (only with a base URL: a sitemap lists absolute addresses); ``links`` are ``./``-relative."""
    from confnotes.markup.escape import xml_text

    rows = [f"<url><loc>{xml_text(base_url + link[2:])}</loc></url>" for link in dict.fromkeys(links)]
    text = '<?xml version="1.0" encoding="utf-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    return (text + "\n".join(rows) + "\n</urlset>\n").encode("utf-8")
