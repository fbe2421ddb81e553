"""The schedule's model: a conference and its sessions, and the checks every reader's sessions pass."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from confnotes.errors import input_error

#: A schedule of a large conference (frab XML of 1,000 sessions with abstracts) is a few MB.
MAX_SCHEDULE_BYTES = 16 * 1024 * 1024
#: More sessions than this is no conference's schedule.
MAX_SESSIONS = 20_000
#: A session longer than a day is no session of a timetable.
MAX_MINUTES = 24 * 60
#: A session starts within these years (a year 9999 start overflows in a far-east zone).
FIRST_YEAR, LAST_YEAR = 1900, 2200
#: A session's id is at most this long (it is written in its note's front matter).
MAX_ID = 200

#: Sessions of these types, with no speakers, are the timetable's breaks, not talks to take notes at
#: (frab's default type ``other`` is not one: a congress files workshops and meetups under it).
SERVICE_TYPES = frozenset(("break", "lunch", "coffee break", "coffee", "registration", "pause", "mittagspause", "social event"))


@dataclass(frozen=True, slots=True)
class Reading:
    """How a schedule is read, where the file leaves it open: the options of ``new --schedule`` and
    ``build`` over ``[build]``'s keys (``schedule_reading`` decides which wins)."""

    #: the conference's IANA zone, for a schedule that names none (Sessionize, a calendar in UTC)
    timezone: str | None = None
    #: the hour (0-23) a schedule's day begins: its sessions before it belong to the day before.
    #: None: frab's own days, else derived from the sessions (``derived_day_change``)
    day_change: int | None = None
    #: the session types (case-folded) that are breaks; None: ``SERVICE_TYPES`` and breaks by title
    break_types: tuple[str, ...] | None = None
    #: Sessionize: the title of the category that holds the tracks (else one titled Track, or asking for one)
    track_field: str | None = None


@dataclass(frozen=True, slots=True)
class Session:
    """One slot of the schedule: a talk, a workshop, a keynote, or a break (``service``)."""

    id: str
    title: str
    start: dt.datetime  # in the conference's zone when the schedule names one, else as written
    minutes: int
    room: str
    speakers: tuple[str, ...] = ()
    subtitle: str = ""
    track: str = ""
    type: str = ""
    language: str = ""
    abstract: str = ""
    url: str = ""
    tags: tuple[str, ...] = ()
    service: bool = False  # a break, lunch or registration: in the timetable, no note
    description: str = ""  # the schedule's longer description, when it has one besides the abstract
    #: the session's addresses by kind (``slides``, ``recording``, ``feedback``), as the schedule gives them
    links: tuple[tuple[str, str], ...] = ()
    #: the schedule's day the session belongs to (frab's ``<day>``; else its start's, the day changing
    #: at ``Reading.day_change``): a session at 01:00 after a congress evening is that evening's
    schedule_day: dt.date | None = None
    #: the session's identity in its schedule: its id, or, where the schedule gives several
    #: sessions one id (a recurring session, a calendar's repeated UID), its id and its start
    #: (``schedule.keyed``)
    key: str = ""

    def __post_init__(self) -> None:
        if not self.key:
            object.__setattr__(self, "key", self.id)

    @property
    def end(self) -> dt.datetime:
        return self.start + dt.timedelta(minutes=self.minutes)

    @property
    def day(self) -> dt.date:
        """The schedule's day of the session (``schedule_day``), else its start's date."""
        return self.schedule_day or self.start.date()


@dataclass(frozen=True, slots=True)
class Conference:
    """A schedule: the conference's name and zone, its rooms and tracks in the schedule's order, its sessions by time."""

    title: str
    sessions: tuple[Session, ...]
    timezone: str | None = None  # an IANA name (Europe/Berlin), when the schedule names one
    acronym: str = ""
    url: str = ""
    rooms: tuple[str, ...] = field(default=())
    tracks: tuple[str, ...] = field(default=())
    #: the sessions that could not be read, one line each naming the session and why (left out)
    skipped: tuple[str, ...] = field(default=())
    #: how many session ids the schedule gives to more than one session
    repeated_ids: int = 0
    #: the schedule's own numbers of its days (frab's ``<day index>``); else the days in order from 1
    day_numbers: tuple[tuple[int, dt.date], ...] = field(default=())
    #: what a reader of the schedule should know (a calendar in UTC, repeated ids), one line each
    notices: tuple[str, ...] = field(default=())

    @property
    def days(self) -> tuple[dt.date, ...]:
        return tuple(sorted({session.day for session in self.sessions}))

    def numbered_days(self) -> dict[int, dt.date]:
        """The days with sessions by their number (``new --day 2``): the schedule's own, else 1, 2, …"""
        days = self.days
        given = {number: day for number, day in self.day_numbers if day in days}
        return given if len(given) == len(days) else {number: day for number, day in enumerate(days, 1)}

    @property
    def warnings(self) -> tuple[str, ...]:
        """Every line a command prints when it reads the schedule: each session skipped, then the notices."""
        return (*self.skipped, *self.notices)

    def session(self, key: str) -> Session | None:
        """The session of this identity (``Session.key``), or the first with this id."""
        return next((s for s in self.sessions if s.key == key), None) or next((s for s in self.sessions if s.id == key), None)


class SkippedSession(Exception):
    """A session a reader cannot read: the one line saying which and why; the rest is read."""


def read_sessions(path: str, made: Iterable[tuple[int, Mapping[str, object]]]) -> tuple[list[Session], list[str]]:
    """The sessions a reader found, each ``(number, fields)``, checked (``checked_session``): those
    that can be read, and a line for each that cannot (it is left out; one bad session costs
    only itself)."""
    sessions: list[Session] = []
    skipped: list[str] = []
    for number, fields in made:
        try:
            sessions.append(checked_session(number, **fields))
        except SkippedSession as exc:
            skipped.append(str(exc))
    if not sessions and skipped:
        raise input_error(f"no session of the schedule can be read: {skipped[0]}", path)
    return sessions, skipped


def checked_session(number: int, **fields: object) -> Session:
    """A session from a reader's fields; ``SkippedSession`` naming it by its own id (or its place in
    the file, 1-based ``number``, when it has none) and its title when it lacks a title, a start, a
    length or a room. A session with no end lasts no time (RFC 5545: it ends where it starts)."""
    title = clean(str(fields.get("title") or ""))
    own = clean(str(fields.get("id") or ""))
    name = (f"session '{own[:40]}'" if own else f"session {number}") + (f" ('{title[:60]}')" if title else "")
    if not title:
        raise SkippedSession(f"{name} has no title; skipped")
    start = fields.get("start")
    if not isinstance(start, dt.datetime):
        raise SkippedSession(f"{name} has no start time; skipped (a timetable needs one)")
    if not FIRST_YEAR <= start.year <= LAST_YEAR:
        raise SkippedSession(f"{name} starts in the year {start.year}; skipped (a conference's is {FIRST_YEAR}-{LAST_YEAR})")
    if len(own) > MAX_ID:
        raise SkippedSession(f"{name} has an id of {len(own):,} characters; skipped (at most {MAX_ID})")
    minutes = fields.get("minutes")
    if not isinstance(minutes, int) or not 0 <= minutes <= MAX_MINUTES:
        raise SkippedSession(f"{name} has no length (an end or a duration up to 24 hours); skipped")
    room = clean(str(fields.get("room") or ""))
    if not room:
        raise SkippedSession(f"{name} has no room; skipped (a timetable needs one)")
    kind = clean(str(fields.get("type") or ""))
    speakers = tuple(dict.fromkeys(clean(s) for s in _texts(fields.get("speakers")) if clean(s)))
    return Session(
        id=clean(str(fields.get("id") or "")) or str(number),
        title=title,
        start=fields["start"],  # type: ignore[arg-type]
        minutes=minutes,
        room=room,
        speakers=speakers,
        subtitle=clean(str(fields.get("subtitle") or "")),
        track=clean(str(fields.get("track") or "")),
        type=kind,
        language=clean(str(fields.get("language") or "")),
        abstract=plain_abstract(str(fields.get("abstract") or "")),
        url=safe_url(str(fields.get("url") or "")),
        tags=tuple(dict.fromkeys(clean(t) for t in _texts(fields.get("tags")) if clean(t))),
        service=bool(fields.get("service")),  # marked by the schedule; ``is_break`` decides the rest
        description=plain_abstract(str(fields.get("description") or "")),
        links=tuple((kind, url) for kind, url in _links(fields.get("links")) if url),
        schedule_day=fields.get("day") if isinstance(fields.get("day"), dt.date) else None,  # type: ignore[arg-type]
    )


def _links(value: object) -> Iterable[tuple[str, str]]:
    pairs = value if isinstance(value, list | tuple) else []
    seen: set[str] = set()
    for pair in pairs:
        if isinstance(pair, tuple) and len(pair) == 2 and pair[0] not in seen:
            seen.add(str(pair[0]))
            yield str(pair[0]), safe_url(str(pair[1]))


def is_break(marked: bool, kind: str, title: str, speakers: tuple[str, ...], types: tuple[str, ...] | None = None) -> bool:
    """Whether a session is a break (in the timetable, no note): marked so by the schedule
    (Sessionize's service sessions); else, with ``types`` given (``--break-types``), typed as one of
    them; else speakerless and typed as one (``SERVICE_TYPES``) or titled as one ("Lunch", "Coffee
    break"). A session with speakers is a session, whatever its type, unless ``types`` says so."""
    if marked:
        return True
    if types is not None:
        return kind.casefold() in types
    return not speakers and (kind.casefold() in SERVICE_TYPES or bool(_BREAK.match(title)))


def derived_day_change(starts: Iterable[dt.datetime]) -> int:
    """The hour a schedule's day begins, read from when its sessions start: the first full hour of
    the longest quiet stretch of the clock, when that stretch does not hold midnight (an evening
    programme running past it: sessions at 01:00 stay on their evening's day); else 0 (midnight).
    A schedule whose sessions start at every hour (no quiet stretch of 4 hours) keeps midnight."""
    minutes = sorted({start.hour * 60 + start.minute for start in starts})
    if len(minutes) < 2:
        return 0
    gap, after = max(((later - earlier) % 1440, earlier) for earlier, later in zip(minutes, [*minutes[1:], minutes[0]], strict=True))
    if gap < 4 * 60 or after + gap >= 1440:  # round the clock, or quiet over midnight: calendar days
        return 0
    return after // 60 + 1


def _texts(value: object) -> Iterable[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [str(item) for item in value if isinstance(item, str | int)]
    return []


#: a speakerless session so named is a break: "Lunch", "Coffee break (Wednesday)", "Mittagspause"
_BREAK = re.compile(r"(?i)(lunch|coffee|break|registration|pause|mittagspause|dinner|breakfast)\b")
_SPACE = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")
#: a lone surrogate (JSON's ``"\ud800"``): no UTF-8 file can hold it
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def clean(text: str) -> str:
    """One line of text from a schedule: controls dropped, a lone surrogate U+FFFD, runs of space one space."""
    return _SPACE.sub(" ", _CONTROL.sub("", _SURROGATE.sub("\ufffd", text))).strip()


def plain_abstract(text: str) -> str:
    """An abstract as paragraphs of plain text: schedules hold Markdown or HTML (pretalx, Sessionize),
    whose tags are dropped and entities read; paragraphs stay apart, lines within one are joined."""
    import html

    if "<" in text:
        text = re.sub(r"(?i)<\s*(br|/p|/li|/h\d)\b[^>]*>", "\n\n", text)
        text = html.unescape(re.sub(r"<[^>]*>", "", text))
    paragraphs = [clean(part) for part in re.split(r"\n\s*\n", _CONTROL.sub("", text.replace("\r\n", "\n")))]
    return "\n\n".join(part for part in paragraphs if part)


def safe_url(url: str) -> str:
    """A session's web address, kept only when it is one (http or https)."""
    url = clean(url)
    return url if re.match(r"(?i)https?://[^\s]+$", url) else ""
