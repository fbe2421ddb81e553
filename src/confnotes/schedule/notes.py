"""Notes from a schedule: each session's front matter, its file name, and refreshing it when the schedule changes.

``front_matter`` decides which keys a session gives a note (``SCHEDULE_KEYS`` are the ones the
schedule owns: ``new --schedule --update`` sets them again and touches nothing else — not the
note's tags, not its body, not its file name).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from confnotes.edges.source import Source
from confnotes.schedule.model import Conference, Session

#: The front matter keys a schedule owns, in the order a new note writes them.
SCHEDULE_KEYS = ("title", "speakers", "event", "date", "room", "start", "duration", "track", "language", "url", "links", "description")
#: The key that ties a note to its session (with ``event``).
SESSION_KEY = "session"
#: A file name's room part is cut at a word end within this many characters and half of
#: ``names.MAX_NAME_BYTES`` (its title part as every file name made from a title is).
MAX_NAME_ROOM = 40


def start_text(start: dt.datetime) -> str:
    """A start as front matter writes it: ISO 8601 to the second, with its offset when it has one."""
    return start.isoformat(timespec="seconds")


def duration_text(minutes: int) -> str:
    return f"{minutes}min"


def front_matter(session: Session, conference: Conference, event: str | None = None) -> dict[str, Any]:
    """The note's front matter for ``session``, ordered: the schedule's keys, then ``session`` and ``tags``.
    Keys with no value (no track, no url) are left out."""
    values: dict[str, Any] = {
        "title": session.title,
        "speakers": list(session.speakers),
        "event": event or conference.title,
        "date": session.day.isoformat(),
        "room": session.room,
        "start": start_text(session.start),
        "duration": duration_text(session.minutes) if session.minutes else "",  # a zero-length session: no slot
        "track": session.track,
        "language": session.language,
        "url": session.url,
        "links": dict(session.links),  # slides, recording, feedback: --update after the event adds the recording
        "description": session.description,
    }
    values = {key: value for key, value in values.items() if value or key == "speakers"}
    values[SESSION_KEY] = session.key
    values["tags"] = [tag.casefold() for tag in dict.fromkeys([session.type, *session.tags]) if tag]
    return values


def yaml_line(key: str, value: Any) -> str:
    """``key: value`` as YAML that reads back to ``value``: text in double quotes (JSON's escapes
    are YAML's), paragraphs as a literal block (``|-``, each line indented), lists in brackets,
    mappings in braces, a duration bare (``30min``)."""
    from confnotes.markup.escape import strict_json

    if key == "duration":
        return f"{key}: {value}"
    if isinstance(value, str) and "\n" in value and not value.startswith((" ", "\n")):
        return f"{key}: |-\n" + "\n".join(f"  {line}" if line else "" for line in value.split("\n"))
    return f"{key}: {strict_json(value)}"


def note_text(session: Session, conference: Conference, event: str | None = None) -> str:
    """A new note for ``session``: its front matter, then the abstract as a quote, paragraph by
    paragraph (the note-taker writes below it)."""
    lines = ["---", *(yaml_line(key, value) for key, value in front_matter(session, conference, event).items()), "---", ""]
    paragraphs = [paragraph for paragraph in session.abstract.split("\n\n") if paragraph]
    if paragraphs:
        lines += ["\n>\n".join(f"> {paragraph}" for paragraph in paragraphs), ""]
    return "\n".join(lines)


def note_name(session: Session) -> str:
    """``2027-06-09-hall-a-a-tour-of-mentoring.md``: the day, the room and the title (each cut at a word end)."""
    from confnotes.names import MAX_NAME_BYTES, file_slug

    room = file_slug(session.room, MAX_NAME_ROOM, MAX_NAME_BYTES // 2)
    return f"{session.day.isoformat()}-{room}-{file_slug(session.title)}.md"


@dataclass(frozen=True)
class SessionNote:
    """A note in the folder that names a session of the schedule: where, and its text as read."""

    path: Path
    source: Source  # its text with \n line endings, and the endings and BOM it is written back with
    values: dict[str, Any]


def session_notes(
    folder: Path, conference: Conference, event: str | None = None, gone: list[SessionNote] | None = None
) -> dict[str, SessionNote]:
    """The notes under ``folder`` that are sessions' of this conference, by session key
    (``schedule.match``): those of this event (front matter ``event``; a note whose event is written
    otherwise, by ``--event`` say, takes part when its title is a session's). The notes of this event
    that are no session's (a cancelled talk) are added to ``gone``."""
    from confnotes.config import config_for_target
    from confnotes.edges.source import read_source
    from confnotes.errors import NotesError
    from confnotes.load import read_text
    from confnotes.schedule.match import Claim, matched, written_time

    if not folder.is_dir():
        return {}
    name = event or conference.title
    titles = {session.title.casefold() for session in conference.sessions}
    claims: list[Claim] = []
    ours: list[SessionNote] = []
    for path in sorted(folder.rglob("*.md")):
        if any(part.startswith(".") for part in path.relative_to(folder).parts) or not path.is_file():
            continue
        try:
            source = read_source(path)
            if not source.text.startswith("---"):
                continue
            doc = read_text(source.text, str(path), config_for_target(str(path)))
        except NotesError:
            continue
        extra = doc.meta.extra
        if extra.get(SESSION_KEY) is None:
            continue
        values = {**extra, "title": doc.meta.title, "event": doc.meta.event, "date": doc.meta.date, "speakers": list(doc.meta.speakers)}
        note = SessionNote(path, source, values)
        mine = not doc.meta.event or not name or doc.meta.event == name
        if mine and doc.meta.event:
            ours.append(note)
        if mine or doc.meta.title.casefold() in titles:
            claim = Claim(note, str(extra[SESSION_KEY]), doc.meta.title, written_time(extra.get("start")), str(extra.get("room") or ""))
            claims.append(claim)
    found: dict[str, SessionNote] = matched(conference.sessions, claims)
    if gone is not None:
        placed = {id(note) for note in found.values()}
        gone += [note for note in ours if id(note) not in placed]
    return found


def changed_keys(note: SessionNote, wanted: dict[str, Any]) -> list[str]:
    """The schedule's keys whose value in the note differs from the schedule's."""

    def same(key: str, have: Any, want: Any) -> bool:
        if have is None:
            return False
        if key == "start":
            have_time = have if isinstance(have, dt.datetime) else _datetime(str(have))
            want_time = _datetime(str(want))
            return (
                have_time is not None and want_time is not None and (have_time, have_time.utcoffset()) == (want_time, want_time.utcoffset())
            )
        if key == "duration":
            from confnotes.timing.durations import DurationError, parse_duration

            if str(have) == str(want):  # as written: a zero-length session's "0min" too
                return True

            try:
                return parse_duration(have) == parse_duration(want)
            except DurationError:
                return False
        if isinstance(want, list):
            return isinstance(have, list | tuple) and [str(item) for item in have] == want
        if isinstance(want, dict):
            return isinstance(have, dict) and {str(k): str(v) for k, v in have.items()} == want
        return str(have) == str(want)

    keys = [key for key in SCHEDULE_KEYS if key in wanted and not same(key, note.values.get(key), wanted[key])]
    # the note's tie to its session: another exporter's id, or a repeated id before ids were keyed
    return keys + [SESSION_KEY] if str(note.values.get(SESSION_KEY)) != str(wanted[SESSION_KEY]) else keys


def _datetime(text: str) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(text)
    except ValueError:
        return None


_FENCE = re.compile(r"^(?:---|\.\.\.)[ \t]*$")
_KEY = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:")


def _blank_within(lines: list[str], index: int, end: int) -> bool:
    """Whether ``lines[index]`` is a blank line inside a block value (an indented line follows)."""
    if lines[index].strip():
        return False
    after = next((line for line in lines[index + 1 : end] if line.strip()), "")
    return after[:1] in (" ", "\t")


def with_front_matter(text: str, wanted: dict[str, Any], keys: list[str]) -> str:
    """``text`` with the front matter ``keys`` set to ``wanted``'s values: each key's line (and the
    lines that continue it) replaced in place, a missing key added at the end of the front matter;
    every other byte of the note as it was."""
    lines = text.split("\n")
    end = next(index for index in range(1, len(lines)) if _FENCE.match(lines[index]))
    todo = list(keys)
    out = [lines[0]]
    index = 1
    while index < end:
        match = _KEY.match(lines[index])
        stop = index + 1
        if match:  # the key's own lines: those that follow it indented (blank ones within), or as "- item" at its level
            while stop < end and (lines[stop][:1] in (" ", "\t") or lines[stop].startswith("- ") or _blank_within(lines, stop, end)):
                stop += 1
        if match and match.group(1) in todo:
            todo.remove(match.group(1))
            out.append(yaml_line(match.group(1), wanted[match.group(1)]))
        else:
            out.extend(lines[index:stop])
        index = stop
    out += [yaml_line(key, wanted[key]) for key in todo]
    return "\n".join(out + lines[end:])
