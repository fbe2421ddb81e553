"""Schedules shaped like the real files that broke the last release (tests/fixtures/schedules/generate.py
writes them): a congress's frab XML of 1,025 events over four days of 06:00 to 06:00, most typed
``other``, one recurring id, a zero-length session and one event with no time; a community calendar in
UTC whose 88 events share 5 UIDs, some with no end. Every session that can be read is read, a
session is never a break for its type alone, and no note is ever tied to another session."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES
from helpers import frab_schedule, note_digests

SCHEDULES = FIXTURES / "schedules"
CONGRESS = SCHEDULES / "congress.frab.xml"
MEETUPS = SCHEDULES / "meetups.utc.ics"


def test_one_bad_event_costs_only_itself_and_other_sessions_are_sessions():
    from confnotes.schedule import read_schedule

    congress = read_schedule(str(CONGRESS))
    assert len(congress.sessions) == 1024  # 1,025 events, one with no time
    assert len(congress.skipped) == 1 and congress.skipped[0].startswith("session '10400'") and "has no start" in congress.skipped[0]
    others = [s for s in congress.sessions if s.type == "other"]
    assert len(others) > 800
    assert not any(s.service for s in others if s.speakers)  # a session with speakers is a session
    assert any(s.minutes == 0 for s in congress.sessions)  # a zero-length session is kept
    assert congress.repeated_ids == 1
    recurring = [s for s in congress.sessions if s.id == "9000"]
    assert len(recurring) == 4 and len({s.key for s in recurring}) == 4 and all(s.key.startswith("9000@2027-12-") for s in recurring)


def test_a_calendar_without_ends_and_with_repeated_uids_is_read_whole():
    from confnotes.schedule import read_schedule

    meetups = read_schedule(str(MEETUPS))
    assert len(meetups.sessions) == 88 and not meetups.skipped
    assert sum(1 for s in meetups.sessions if s.minutes == 0) == 13  # no DTEND: it ends where it starts
    assert meetups.repeated_ids == 5 and len({s.key for s in meetups.sessions}) == 88


@pytest.mark.parametrize("schedule", [CONGRESS, MEETUPS], ids=["congress", "calendar"])
def test_each_note_is_its_own_sessions_and_an_unchanged_update_changes_no_byte(cli, tmp_path, schedule):
    from confnotes.api import read_note
    from confnotes.schedule import read_schedule

    out = tmp_path / "notes"
    made = cli("new", "--schedule", str(schedule), "--all", "-o", str(out))
    assert made.exit_code == 0, made.stderr
    assert "given to more than one session" in made.stderr  # new warns that the file's ids repeat
    sessions = {s.key: s for s in read_schedule(str(schedule)).sessions}
    notes = sorted(out.glob("*.md"))
    assert len(notes) == sum(1 for s in sessions.values() if not s.service)
    for path in notes:  # every note carries its own session's title and start: none swapped
        doc = read_note(str(path))
        session = sessions[str(doc.meta.extra["session"])]
        assert doc.meta.title == session.title and str(doc.meta.extra["start"]) == session.start.isoformat(timespec="seconds")
    before = note_digests(out)
    for _ in range(2):  # twice: nothing flips back and forth
        again = cli("new", "--schedule", str(schedule), "--update", "-o", str(out))
        assert again.exit_code == 0, again.stderr
        assert "updated" not in again.stdout and note_digests(out) == before


def test_build_of_notes_just_made_warns_of_no_move_and_counts_every_session(cli, tmp_path, processes):
    out = tmp_path / "notes"
    assert cli("new", "--schedule", str(CONGRESS), "--day", "2027-12-28", "-o", str(out)).exit_code == 0
    site = tmp_path / "site"
    result = cli("build", str(out), "-o", str(site), "--to", "html", "--schedule", str(CONGRESS))
    assert result.exit_code == 0, result.stderr
    assert "moved" not in result.stderr and "the schedule has this talk" not in result.stderr
    assert "session '10400'" in result.stderr  # the one bad event, named by its own id
    from confnotes.schedule import read_schedule

    talks = sum(1 for s in read_schedule(str(CONGRESS)).sessions if not s.service)
    browse = (site / "browse.html").read_text(encoding="utf-8")
    assert f"{len(list(out.glob('*.md')))} of {talks} sessions have notes" in browse  # other sessions counted, not breaks


def test_the_same_conference_from_another_exporter_duplicates_no_note(cli, tmp_path):
    out = tmp_path / "notes"
    assert cli("new", "--schedule", str(SCHEDULES / "pyconf2027.frab.xml"), "--all", "-o", str(out)).exit_code == 0
    before = note_digests(out)
    result = cli("new", "--schedule", str(SCHEDULES / "pyconf2027.ics"), "--all", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert note_digests(out) == before and "0 new note(s)" in result.stdout


@st.composite
def _schedules(draw):
    """A frab XML schedule of a few sessions whose ids may repeat and whose starts may fall after
    midnight: what ``--update`` must leave byte for byte."""
    count = draw(st.integers(1, 8))
    ids = draw(st.lists(st.sampled_from(["1", "2", "3", "4"]), min_size=count, max_size=count))
    hours = draw(st.lists(st.integers(0, 23), min_size=count, max_size=count))
    events = "".join(
        f"<event id='{event_id}'><room>Hall {index % 2}</room><title>Talk {index}</title><type>other</type>"
        f"<date>2027-12-27T{hour:02d}:{index % 4 * 15:02d}:00+01:00</date><duration>00:25</duration>"
        f"<persons><person>Ann {index}</person></persons></event>"
        for index, (event_id, hour) in enumerate(zip(ids, hours, strict=True))
    )
    return frab_schedule(events, room="Hall 0")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(xml=_schedules())
def test_update_of_an_unchanged_generated_schedule_changes_nothing(cli, tmp_path_factory, xml):
    folder = tmp_path_factory.mktemp("prop")
    schedule = folder / "schedule.xml"
    schedule.write_text(xml, encoding="utf-8")
    out = folder / "notes"
    assert cli("new", "--schedule", str(schedule), "--all", "-o", str(out)).exit_code == 0
    before = note_digests(out)
    again = cli("new", "--schedule", str(schedule), "--update", "-o", str(out))
    assert again.exit_code == 0 and note_digests(out) == before


def test_one_id_at_one_start_twice_is_still_two_sessions_with_two_notes(cli, tmp_path):
    """Found by the property above: two sessions sharing an id and a start (a copy in the export)
    had one key, and --update wrote the second one's title into the first one's note."""
    events = "".join(
        f"<event id='1'><room>Hall 0</room><title>Talk {n}</title><type>other</type><date>2027-12-27T10:00:00+01:00</date>"
        f"<duration>00:25</duration><persons><person>Ann {n}</person></persons></event>"
        for n in range(3)
    )
    schedule = tmp_path / "schedule.xml"
    schedule.write_text(
        f"<schedule><conference><title>Prop</title></conference><day index='1'><room name='Hall 0'>{events}</room></day></schedule>"
    )
    out = tmp_path / "notes"
    assert cli("new", "--schedule", str(schedule), "--all", "-o", str(out)).exit_code == 0
    before = note_digests(out)
    assert len(before) == 3
    assert cli("new", "--schedule", str(schedule), "--update", "-o", str(out)).exit_code == 0
    assert note_digests(out) == before
