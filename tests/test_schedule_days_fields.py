"""The schedule's own days, its time zones, its breaks as the user says, and more of each session
in its note (tests/fixtures/schedules/generate.py writes the files): a congress whose days run
06:00 to 06:00, a community calendar in UTC naming speakers only in descriptions, and a Sessionize
file whose track category is a question asked of speakers."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES
from helpers import frab_schedule, note_digests, one_error_line

SCHEDULES = FIXTURES / "schedules"
CONGRESS = SCHEDULES / "congress.frab.xml"
MEETUPS = SCHEDULES / "meetups.utc.ics"
ASKED = SCHEDULES / "community.sessionize.json"
PLAIN_SESSIONIZE = SCHEDULES / "pyconf2027.sessionize.json"


def _front(path: Path) -> dict:
    from confnotes.api import read_note

    doc = read_note(str(path))
    return {**doc.meta.extra, "date": doc.meta.date, "speakers": list(doc.meta.speakers), "title": doc.meta.title}


def _calendar(events: list[tuple[str, str, str]], head: str = "") -> str:
    """An .ics of ``(uid, DTSTART line, DESCRIPTION)`` events, one hour each, in one room."""
    body = "".join(
        f"BEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20270101T000000Z\r\nSUMMARY:Talk {uid}\r\n{start}\r\nDURATION:PT45M\r\n"
        f"LOCATION:Main hall\r\nDESCRIPTION:{description}\r\nEND:VEVENT\r\n"
        for uid, start, description in events
    )
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\n{head}{body}END:VCALENDAR\r\n"


# -- the schedule's own days -------------------------------------------------------------------


def test_a_congress_has_its_four_days_and_after_midnight_stays_on_its_evening():
    from confnotes.schedule import read_schedule

    congress = read_schedule(str(CONGRESS))
    assert congress.days == tuple(dt.date(2027, 12, 27) + dt.timedelta(days=n) for n in range(4))  # not a fifth calendar date
    assert congress.numbered_days()[1] == dt.date(2027, 12, 27)
    late = [s for s in congress.sessions if s.start.hour < 6]
    assert late and all(s.day == s.start.date() - dt.timedelta(days=1) for s in late)
    by_date = Counter(s.start.date() for s in congress.sessions)
    by_day = Counter(s.day for s in congress.sessions)
    assert by_day[dt.date(2027, 12, 27)] > by_date[dt.date(2027, 12, 27)]  # the schedule's day 1 holds its small hours


def test_day_one_gives_the_schedules_day_one_and_its_notes_say_that_day(cli, tmp_path):
    from confnotes.schedule import read_schedule

    congress = read_schedule(str(CONGRESS))
    out = tmp_path / "notes"
    result = cli("new", "--schedule", str(CONGRESS), "--day", "1", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    wanted = [s for s in congress.sessions if s.day == dt.date(2027, 12, 27) and not s.service]
    notes = list(out.glob("*.md"))
    assert len(notes) == len(wanted) > sum(1 for s in wanted if s.start.date() == dt.date(2027, 12, 27))
    fronts = [_front(path) for path in notes]
    assert {str(front["date"]) for front in fronts} == {"2027-12-27"}
    assert any(str(front["start"]).startswith("2027-12-28T0") for front in fronts)  # a small-hours session of day 1


def test_the_timetable_draws_a_congress_day_to_its_small_hours(cli, tmp_path, processes):
    out = tmp_path / "notes"
    out.mkdir()
    (out / "one.md").write_text("# One note\n\n- a point\n", encoding="utf-8")
    site = tmp_path / "site"
    result = cli("build", str(out), "-o", str(site), "--to", "html", "--schedule", str(CONGRESS))
    assert result.exit_code == 0, result.stderr
    page = (site / "timetable.html").read_text(encoding="utf-8")
    assert page.count('<section class="day" id="day-') == 4
    first = page.split('id="day-2027-12-27"')[1].split('<section class="day"')[0]
    assert 'data-start="2027-12-28T01:' in first and "2027-12-28T10:00" not in first  # its small hours, not the next morning


def test_a_calendars_evening_keeps_its_small_hours_and_the_day_change_can_be_set(cli, tmp_path):
    from confnotes.schedule import Reading, read_schedule
    from confnotes.schedule.model import derived_day_change

    starts = [f"DTSTART;TZID=Europe/Berlin:202706{day + (hour < 12):02d}T{hour:02d}0000" for day in (9, 10) for hour in (19, 21, 23, 1)]
    path = tmp_path / "evenings.ics"
    path.write_text(_calendar([(f"e{n}", start, "Come along") for n, start in enumerate(starts)]), encoding="utf-8")
    evenings = read_schedule(str(path))
    assert derived_day_change(s.start for s in evenings.sessions) == 2
    one_am = [s for s in evenings.sessions if s.start.hour == 1]
    assert all(s.day == s.start.date() - dt.timedelta(days=1) for s in one_am)
    assert len(evenings.days) == 2  # 9 and 10 June, no third day for the last small hours
    assert len(read_schedule(str(path), Reading(day_change=0)).days) == 3  # set: calendar dates
    out = tmp_path / "notes"
    assert cli("new", "--schedule", str(path), "--day", "2", "-o", str(out)).exit_code == 0
    assert len(list(out.glob("*.md"))) == 4
    assert derived_day_change([dt.datetime(2027, 6, 9, h) for h in (9, 11, 14, 17)]) == 0  # a day programme: midnight


# -- breaks as the user says ------------------------------------------------------------------


def test_break_types_say_which_types_are_breaks_on_the_command_line_and_in_build(cli, tmp_path):
    from confnotes.schedule import read_schedule

    congress = read_schedule(str(CONGRESS))
    lectures = sum(1 for s in congress.sessions if s.type == "lecture")
    out = tmp_path / "notes"
    result = cli("new", "--schedule", str(CONGRESS), "--all", "--break-types", "other,Break", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert len(list(out.glob("*.md"))) == lectures  # every `other` session is a break now
    (tmp_path / "confnotes.toml").write_text('[build]\nbreak_types = ["lecture"]\n', encoding="utf-8")
    configured = tmp_path / "configured"
    assert cli("new", "--schedule", str(CONGRESS), "--all", "-o", str(configured)).exit_code == 0
    assert len(list(configured.glob("*.md"))) == len(congress.sessions) - lectures


def test_no_break_types_makes_a_titled_break_a_session():
    from confnotes.schedule import Reading, read_schedule

    plain = read_schedule(str(PLAIN_SESSIONIZE), Reading(timezone="Europe/Berlin"))
    titled = [s for s in plain.sessions if s.service]
    assert titled
    none = read_schedule(str(PLAIN_SESSIONIZE), Reading(timezone="Europe/Berlin", break_types=()))
    assert sum(1 for s in none.sessions if s.service) == sum(1 for s in titled if s.type == "" and s.service)


# -- time zones --------------------------------------------------------------------------------


def test_a_calendar_in_utc_warns_naming_timezone_and_the_option_gives_local_times(cli, tmp_path):
    out = tmp_path / "notes"
    result = cli("new", "--schedule", str(MEETUPS), "--all", "-o", str(out))
    assert result.exit_code == 0
    assert "in UTC and names no time zone; --timezone" in result.stderr
    zoned = tmp_path / "zoned"
    again = cli("new", "--schedule", str(MEETUPS), "--all", "--timezone", "Europe/Berlin", "-o", str(zoned))
    assert again.exit_code == 0 and "in UTC" not in again.stderr
    assert {str(_front(p)["start"])[-6:] for p in zoned.glob("*.md")} <= {"+01:00", "+02:00"}


def test_x_wr_timezone_and_tzid_name_the_conferences_zone(tmp_path):
    from confnotes.schedule import read_schedule

    path = tmp_path / "wr.ics"
    path.write_text(_calendar([("a", "DTSTART:20270609T080000Z", "x")], "X-WR-TIMEZONE:Europe/Berlin\r\n"), encoding="utf-8")
    named = read_schedule(str(path))
    assert named.timezone == "Europe/Berlin" and named.sessions[0].start.isoformat() == "2027-06-09T10:00:00+02:00"
    assert not named.warnings
    path.write_text(_calendar([("b", "DTSTART;TZID=America/New_York:20270609T090000", "x")]), encoding="utf-8")
    tzid = read_schedule(str(path))
    assert tzid.timezone == "America/New_York" and tzid.sessions[0].start.utcoffset() == dt.timedelta(hours=-4)


# -- more of the schedule in the note ---------------------------------------------------------


def test_a_calendar_names_its_speakers_in_its_descriptions():
    from confnotes.schedule import read_schedule
    from confnotes.schedule.readers import described_speakers

    meetups = read_schedule(str(MEETUPS))
    assert all(len(s.speakers) == 2 for s in meetups.sessions)
    assert described_speakers("Hi!\nSpeaker: Ann Lee and Bo Chen\n") == ["Ann Lee", "Bo Chen"]
    assert described_speakers("Referentin: Zoë Müller") == ["Zoë Müller"]
    assert described_speakers("We speak: plainly") == []


def test_a_question_titled_category_gives_the_tracks_and_track_field_chooses(cli, tmp_path):
    from confnotes.schedule import Reading, read_schedule

    asked = read_schedule(str(ASKED), Reading(timezone="Europe/Berlin"))
    plain = read_schedule(str(PLAIN_SESSIONIZE), Reading(timezone="Europe/Berlin"))
    assert asked.tracks == plain.tracks and len(asked.tracks) == 5
    assert all("Beginner" in s.tags for s in asked.sessions if not s.service)  # the other question: a tag
    by_level = read_schedule(str(ASKED), Reading(timezone="Europe/Berlin", track_field="level"))
    assert by_level.tracks == ("Beginner",)
    result = cli("new", "--schedule", str(ASKED), "--all", "--track-field", "Room size", "-o", str(tmp_path / "n"))
    assert result.exit_code == 2
    line = one_error_line(result)
    assert "no category 'Room size'" in line and "'which track does your talk fit best?'" in line


def test_description_language_and_links_reach_the_front_matter(cli, tmp_path):
    out = tmp_path / "notes"
    assert cli("new", "--schedule", str(CONGRESS), "--session", "10003", "-o", str(out)).exit_code == 0
    (note,) = out.glob("*.md")
    front = _front(note)
    assert front["language"] == "en"
    assert front["links"] == {
        "slides": "https://talks.example.org/3/slides.pdf",
        "feedback": "https://frab.example.org/41c3/events/3/feedback",
    }
    assert front["description"].endswith("matters.\n\nWe bring hardware; bring questions.")
    text = note.read_text(encoding="utf-8")
    assert "description: |-\n  Why " in text and "\n\n  We bring hardware" in text  # paragraphs as a block, readable
    before = note_digests(out)
    assert cli("new", "--schedule", str(CONGRESS), "--update", "-o", str(out)).exit_code == 0
    assert note_digests(out) == before


def test_update_after_the_event_adds_the_recordings_and_nothing_else(cli, tmp_path):
    out = tmp_path / "notes"
    made = cli("new", "--schedule", str(PLAIN_SESSIONIZE), "--all", "--timezone", "Europe/Berlin", "--event", "PyConf", "-o", str(out))
    assert made.exit_code == 0, made.stderr
    before = {path.name: path.read_text(encoding="utf-8") for path in out.glob("*.md")}
    result = cli("new", "--schedule", str(ASKED), "--update", "--timezone", "Europe/Berlin", "--event", "PyConf", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    changed = 0
    for path in out.glob("*.md"):
        after = path.read_text(encoding="utf-8")
        if after != before[path.name]:
            changed += 1
            added = [line for line in after.splitlines() if line not in before[path.name].splitlines()]
            assert len(added) == 1 and added[0].startswith('links: {"recording": "https://www.youtube.com/watch?v=pyconf')
            assert after.replace(added[0] + "\n", "") == before[path.name]
    assert changed == result.stdout.count("updated ") > 20


def test_a_frab_recording_after_the_event_is_added_by_update(cli, tmp_path):
    out = tmp_path / "notes"
    assert cli("new", "--schedule", str(CONGRESS), "--session", "10003", "-o", str(out)).exit_code == 0
    after = tmp_path / "after.xml"
    recorded = "<links><link href='https://media.ccc.de/v/41c3-3'>Video</link>"
    after.write_text(CONGRESS.read_text(encoding="utf-8").replace("<links>", recorded, 1), encoding="utf-8")
    result = cli("new", "--schedule", str(after), "--update", "-o", str(out))
    assert result.exit_code == 0 and "updated" in result.stdout and ": links" in result.stdout
    (note,) = out.glob("*.md")
    assert _front(note)["links"]["recording"] == "https://media.ccc.de/v/41c3-3"


# -- cancelled talks and files that are no schedule ---------------------------------------------


def test_build_names_a_cancelled_talks_note_and_marks_it(cli, tmp_path, processes):
    out = tmp_path / "notes"
    plain = SCHEDULES / "pyconf2027.frab.xml"
    assert cli("new", "--schedule", str(plain), "--day", "1", "--room", "Hall A", "-o", str(out)).exit_code == 0
    note = sorted(out.glob("*.md"))[1]
    session = str(_front(note)["session"])
    text = plain.read_text(encoding="utf-8")
    start = text.index(f"id='{session}'") if f"id='{session}'" in text else text.index(f'id="{session}"')
    event_start = text.rindex("<event", 0, start)
    event_end = text.index("</event>", start) + len("</event>")
    smaller = tmp_path / "schedule.xml"
    smaller.write_text(text[:event_start] + text[event_end:], encoding="utf-8")
    site = tmp_path / "site"
    result = cli("build", str(out), "-o", str(site), "--to", "html", "--schedule", str(smaller))
    assert result.exit_code == 0, result.stderr
    assert f"{note.name}: warning: the schedule no longer has session {session} (cancelled?)" in result.stderr
    timetable = (site / "timetable.html").read_text(encoding="utf-8")
    assert "No longer in the schedule" in timetable and _front(note)["title"] in timetable.split("No longer in the schedule")[1]
    nav = (site / "_site" / "nav.js").read_text(encoding="utf-8")
    assert '"cancelled":["' + note.with_suffix(".html").name in nav


@pytest.mark.parametrize(
    ("name", "content", "found"),
    [
        ("feed.xml", "<rss version='2.0'><channel><title>x</title></channel></rss>", "root is <rss>"),
        ("other.xml", "<schedule><version>1</version><conference/></schedule>", "it holds <version>, <conference>"),
        ("data.json", '{"talks": [], "venue": "Hall"}', "keys talks, venue"),
        ("list.json", "[1, 2, 3]", "a list of 3 item(s)"),
        ("empty.json", '{"schedule": {"version": "1", "conference": {"days": []}}}', "schedule has version, conference"),
    ],
)
def test_a_file_that_is_no_frab_or_pretalx_schedule_says_what_it_found(cli, tmp_path, name, content, found):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    result = cli("new", "--schedule", str(path), "--all", "-o", str(tmp_path / "notes"))
    assert result.exit_code == 2
    line = one_error_line(result)
    assert "not a frab or pretalx schedule" in line and found in line


# -- the property: --update of an unchanged schedule, with the new keys -------------------------

_WORDS = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cn")), min_size=1, max_size=30)  # what XML can hold


@st.composite
def _described(draw):
    """A frab XML schedule whose sessions carry descriptions of any text in paragraphs, and links."""
    count = draw(st.integers(1, 5))
    events = []
    for index in range(count):
        paragraphs = draw(st.lists(_WORDS, min_size=1, max_size=3))
        from xml.sax.saxutils import escape

        description = escape("\n\n".join(paragraphs).replace("\r", ""))
        link = draw(st.sampled_from(["", "<links><link href='https://x.example/s.pdf'>Slides</link></links>"]))
        hour = draw(st.integers(0, 23))
        events.append(
            f"<event id='{index}'><room>Hall</room><title>Talk {index}</title><type>talk</type>"
            f"<date>2027-12-27T{hour:02d}:00:00+01:00</date><duration>00:25</duration><abstract>A.</abstract>"
            f"<description>{description}</description>{link}<language>de</language></event>"
        )
    return frab_schedule("".join(events))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(xml=_described())
def test_update_of_an_unchanged_schedule_with_descriptions_changes_nothing(cli, tmp_path_factory, xml):
    from confnotes.schedule import read_schedule

    folder = tmp_path_factory.mktemp("described")
    schedule = folder / "schedule.xml"
    schedule.write_text(xml, encoding="utf-8")
    out = folder / "notes"
    made = cli("new", "--schedule", str(schedule), "--all", "-o", str(out))
    assert made.exit_code == 0, made.stderr
    sessions = {s.key: s for s in read_schedule(str(schedule)).sessions}
    for path in out.glob("*.md"):  # the description reads back as the schedule's
        front = _front(path)
        assert front.get("description", "") == sessions[str(front["session"])].description
    before = note_digests(out)
    again = cli("new", "--schedule", str(schedule), "--update", "-o", str(out))
    assert again.exit_code == 0 and note_digests(out) == before


@pytest.mark.parametrize(
    "name", ["pyconf2027.frab.xml", "pyconf2027.pretalx.json", "pyconf2027.sessionize.json", "pyconf2027.ics", "community.sessionize.json"]
)
def test_update_of_every_unchanged_fixture_changes_no_byte(cli, tmp_path, name):
    out = tmp_path / "notes"
    zone = ("--timezone", "Europe/Berlin", "--event", "PyConf") if "sessionize" in name else ()
    assert cli("new", "--schedule", str(SCHEDULES / name), "--all", *zone, "-o", str(out)).exit_code == 0
    before = note_digests(out)
    again = cli("new", "--schedule", str(SCHEDULES / name), "--update", *zone, "-o", str(out))
    assert again.exit_code == 0 and "updated" not in again.stdout and note_digests(out) == before and len(before) > 100
