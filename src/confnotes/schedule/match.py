"""Which note is which session's: the one matching that ``new --schedule``, its ``--update`` and the
site's timetable all use, one to one — a note is never given two sessions, nor a session two notes.

A note says what it is in its front matter (``session``, ``title``, ``start``, ``room``). In
passes, each taking only what the ones before left:

1. its ``session`` is a session's identity (``Session.key``: the id, or id and start where the
   schedule repeats ids);
2. its ``session`` is a repeated id (a note made before ids were keyed): the occurrence at the
   note's start, else the one of the note's title;
3. no id of this schedule (the same conference from another exporter: frab XML, then its
   calendar): the session of the note's title, start and room;
4. a note that names no session: the session of its title, when one session has it.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from confnotes.schedule.model import Session


@dataclass(frozen=True, slots=True)
class Claim:
    """What a note says of its session: ``ref`` is the caller's note, handed back when matched."""

    ref: Any
    session: str | None
    title: str
    start: dt.datetime | None = None
    room: str = ""


def matched(sessions: Sequence[Session], claims: Sequence[Claim]) -> dict[str, Any]:
    """Each matched session's key and its note's ``ref``."""
    by_key = {session.key: session for session in sessions}
    by_id: dict[str, list[Session]] = defaultdict(list)
    for session in sessions:
        by_id[session.id].append(session)
    taken: dict[str, Any] = {}
    placed: set[int] = set()

    def take(pick: Callable[[Claim], list[Session]]) -> None:
        for index, claim in enumerate(claims):
            if index in placed:
                continue
            found = [session for session in pick(claim) if session.key not in taken]
            if len(found) == 1:
                taken[found[0].key] = claim.ref
                placed.add(index)

    take(lambda claim: [by_key[claim.session]] if claim.session in by_key else [])
    take(lambda claim: [s for s in by_id.get(claim.session or "", []) if _same_time(s.start, claim.start)])
    take(lambda claim: [s for s in by_id.get(claim.session or "", []) if s.title.casefold() == claim.title.casefold()])
    take(
        lambda claim: [
            s
            for s in sessions
            if claim.session not in by_id
            and s.title.casefold() == claim.title.casefold()
            and _same_time(s.start, claim.start)
            and (not claim.room or claim.room == s.room)
        ]
    )
    take(lambda claim: [s for s in sessions if not claim.session and s.title.casefold() == claim.title.casefold()])
    return taken


def _same_time(start: dt.datetime, written: dt.datetime | None) -> bool:
    if written is None:
        return False
    if (start.tzinfo is None) != (written.tzinfo is None):
        return start.replace(tzinfo=None) == written.replace(tzinfo=None)
    return start == written


def written_time(value: Any) -> dt.datetime | None:
    """A front matter ``start`` as a time (YAML gives a datetime or a string)."""
    if isinstance(value, dt.datetime):
        return value
    try:
        return dt.datetime.fromisoformat(str(value)) if value else None
    except ValueError:
        return None
