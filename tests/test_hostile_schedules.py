"""Hostile schedules, calendars and styles, as a repository or a download could hold them: a
calendar's time zone whose rules repeat every second, starts in the year 9999, lone surrogates,
ids of thousands of digits, room names of a thousand characters, a time zone that is a folder, a
FIFO bibliography, a dependent CSL style. Each is one warning or one line, never a traceback, a
hang or a note left half-written."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bombs import calendar, zone, zone_bomb
from helpers import frab_schedule, one_error_line


@pytest.mark.timeout(60)
def test_a_time_zone_bomb_is_left_out_with_a_warning(cli, tmp_path):
    """507 bytes whose two parts repeat every second kept `new --schedule` expanding for minutes."""
    path = tmp_path / "bomb.ics"
    path.write_text(zone_bomb(), encoding="utf-8")
    result = cli("new", "--schedule", str(path), "--all", "-o", str(tmp_path / "notes"))
    assert result.exit_code == 0, result.stderr
    assert "time zone 'Bomb/Zone' repeats FREQ=SECONDLY" in result.stderr and "read as written" in result.stderr
    (note,) = (tmp_path / "notes").glob("*.md")
    assert 'start: "2027-06-09T10:00:00"' in note.read_text(encoding="utf-8")


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("rule", "start", "said"),
    [
        ("FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYHOUR=0,1,2,3", "19700101T000000", "repeats by BYHOUR"),
        (
            "FREQ=YEARLY;BYMONTH=" + ",".join(map(str, range(1, 13))) + ";BYMONTHDAY=" + ",".join(map(str, range(1, 29))),
            "19700101T000000",
            "more than 20,000 times",
        ),
        ("FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "00010101T000000", "starts in the year 0001"),
        ("FREQ=DAILY", "19700101T000000", "repeats FREQ=DAILY"),
    ],
)
def test_a_zone_rule_no_zone_has_is_refused_before_it_is_expanded(tmp_path, rule, start, said):
    from confnotes.schedule import read_schedule

    path = tmp_path / "zone.ics"
    path.write_text(
        calendar(zone("Odd", (start, rule), ("19700101T000000", "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU")), ";TZID=Odd:20270609T100000")
    )
    conference = read_schedule(str(path))
    assert len(conference.notices) == 1 and said in conference.notices[0]
    assert conference.sessions[0].start.tzinfo is None


def test_an_outlook_zone_from_1601_and_too_many_zones(tmp_path):
    from confnotes.schedule import read_schedule
    from confnotes.schedule.zones import MAX_ZONES

    outlook = zone(
        "Customized Time Zone",
        ("16010101T030000", "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10"),
        ("16010101T020000", "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3"),
    )
    path = tmp_path / "outlook.ics"
    path.write_text(calendar(outlook, ";TZID=Customized Time Zone:20270609T100000"))
    session = read_schedule(str(path)).sessions[0]
    assert session.start.utcoffset() is not None and session.start.utcoffset().total_seconds() == 7200  # read, summer time
    many = "".join(zone(f"Zone {n}", ("19700101T000000", "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU")) for n in range(MAX_ZONES + 3))
    path.write_text(calendar(many, ";TZID=Zone 0:20270609T100000"))
    notices = read_schedule(str(path)).notices
    assert len(notices) == 3 and all(f"more than the {MAX_ZONES} zones" in n or f"the {MAX_ZONES} zones" in n for n in notices)


def _frab(*events: str, zone: str = "Europe/Berlin") -> str:
    return frab_schedule("".join(events), date="2027-06-09", zone=zone, title="C")


def _event(event_id: str, date: str = "2027-06-09T10:00:00+02:00", room: str = "Hall", title: str = "Talk") -> str:
    return (
        f"<event id='{event_id}'><room>{room}</room><title>{title}</title><type>talk</type>"
        f"<date>{date}</date><duration>00:30</duration></event>"
    )


def test_a_start_in_the_year_9999_or_an_id_of_9000_digits_costs_only_its_session(cli, tmp_path):
    path = tmp_path / "s.xml"
    path.write_text(_frab(_event("1"), _event("2", "9999-12-31T23:30:00+14:00"), _event("9" * 9000), zone="Pacific/Kiritimati"))
    out = tmp_path / "notes"
    result = cli("new", "--schedule", str(path), "--all", "-o", str(out))
    assert result.exit_code == 0 and "Traceback" not in result.stderr
    assert "session '2' ('Talk') starts in the year 9999; skipped" in result.stderr
    assert "has an id of 9,000 characters; skipped" in result.stderr
    assert len(list(out.glob("*.md"))) == 1


def test_a_json_id_of_9000_digits_is_one_line(cli, tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"schedule": {"conference": {"days": [{"rooms": {"Hall": [{"id": ' + "9" * 9000 + "}]}}]}}}")
    line = one_error_line(cli("new", "--schedule", str(path), "--all", "-o", str(tmp_path / "n")))
    assert "not readable JSON" in line and "digits" in line


def test_a_lone_surrogate_is_written_as_a_replacement_and_no_empty_note_is_left(cli, tmp_path):
    event = {"id": 1, "title": "Talk \\ud800 one", "date": "2027-06-09T10:00:00+02:00", "duration": "00:30", "room": "Hall \\udfff"}
    text = json.dumps({"schedule": {"conference": {"title": "C", "days": [{"date": "2027-06-09", "rooms": {"Hall": [event]}}]}}})
    path = tmp_path / "s.json"
    path.write_text(text.replace("\\\\u", "\\u"), encoding="utf-8")
    out = tmp_path / "notes"
    result = cli("new", "--schedule", str(path), "--all", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    (note,) = out.glob("*.md")
    assert note.stat().st_size > 0 and "Talk \ufffd one" in note.read_text(encoding="utf-8")


@pytest.mark.parametrize(("room", "title"), [("R" * 1004, "Talk"), ("会議室" * 100, "日本語のタイトル" * 40)])
def test_long_room_names_and_titles_make_file_names_a_file_system_holds(cli, tmp_path, room, title):
    path = tmp_path / "s.xml"
    path.write_text(_frab(_event("1", room=room, title=title), _event("2")), encoding="utf-8")
    out = tmp_path / "notes"
    result = cli("new", "--schedule", str(path), "--all", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    names = [note.name for note in out.glob("*.md")]
    assert len(names) == 2 and all(len(name.encode("utf-8")) <= 255 for name in names)


def test_messages_name_the_right_thing(cli, tmp_path):
    schedule = tmp_path / "s.xml"
    schedule.write_text(_frab(_event("1")))
    line = one_error_line(cli("new", "--schedule", str(schedule), "--all", "--timezone", "Europe", "-o", str(tmp_path / "n")))
    assert "unknown time zone 'Europe'" in line
    a_file = tmp_path / "notes.md"
    a_file.write_text("# mine\n")
    line = one_error_line(cli("new", "--schedule", str(schedule), "--all", "-o", str(a_file)))
    assert "-o names the folder for the notes" in line and "is a file" in line
    assert a_file.read_text() == "# mine\n"


def test_a_fifo_bibliography_is_not_a_regular_file_and_a_dependent_style_falls_back(cli, tmp_path):
    os.mkfifo(tmp_path / "refs.bib")
    note = tmp_path / "talk.md"
    note.write_text("---\ntitle: T\nbibliography: refs.bib\n---\n\n## A\n\nAs shown [@key].\n", encoding="utf-8")
    result = cli("render", str(note), "--to", "html", "-o", str(tmp_path / "t.html"))
    assert result.exit_code == 0 and "bibliography 'refs.bib' is not a regular file" in result.stderr
    (tmp_path / "refs.bib").unlink()
    (tmp_path / "refs.bib").write_text("@book{key, title = {Time}, author = {A. Author}, year = 2020}\n")
    (tmp_path / "dependent.csl").write_text(
        '<?xml version="1.0"?><style xmlns="http://purl.org/net/xbiblio/csl" version="1.0"><info><title>D</title>'
        '<link href="http://www.zotero.org/styles/apa" rel="independent-parent"/></info></style>'
    )
    note.write_text("---\ntitle: T\nbibliography: refs.bib\ncsl: dependent.csl\n---\n\n## A\n\nAs shown [@key].\n", encoding="utf-8")
    result = cli("render", str(note), "--to", "html", "-o", str(tmp_path / "t.html"))
    assert result.exit_code == 0 and "Traceback" not in result.stderr
    assert "has no <citation>" in result.stderr and "Author" in (tmp_path / "t.html").read_text(encoding="utf-8")


# -- a property: any calendar, frab file or bibliography is read or refused in one line -----------

_FIELD = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
_STAMP = st.builds(
    lambda y, mo, d, h: f"{y:04d}{mo:02d}{d:02d}T{h:02d}0000",
    st.integers(1, 9999),
    st.integers(1, 12),
    st.integers(1, 28),
    st.integers(0, 23),
)


@st.composite
def _any_calendar(draw):
    zones = draw(
        st.sampled_from(
            ["", zone("Z", ("19700101T000000", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU")), zone("Z", ("00010101T000000", "FREQ=HOURLY"))]
        )
    )
    starts = draw(
        st.lists(st.one_of(_STAMP.map(lambda s: ":" + s), _STAMP.map(lambda s: ";TZID=Z:" + s), _FIELD.map(lambda s: ":" + s)), max_size=4)
    )
    return calendar(zones, *starts)


@st.composite
def _any_frab(draw):
    events = [
        _event(
            draw(st.text("0123456789ab", max_size=8)),
            draw(st.sampled_from(["2027-06-09T10:00:00+02:00", "9999-12-31T23:59:59+14:00", "x"])),
        )
        for _ in range(draw(st.integers(0, 3)))
    ]
    return _frab(*events, zone=draw(st.sampled_from(["Europe/Berlin", "Nowhere/Land", "Europe", ""])))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=st.one_of(_any_calendar(), _any_frab()))
@pytest.mark.timeout(300)
def test_any_schedule_is_read_or_refused_in_one_line(tmp_path_factory, text):
    from confnotes.errors import NotesError
    from confnotes.schedule import read_schedule

    path = tmp_path_factory.mktemp("any") / "schedule"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        conference = read_schedule(str(path))
    except NotesError as exc:
        assert "\n" not in str(exc)
    else:
        for session in conference.sessions:
            assert session.end > session.start or session.minutes == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    bib=st.lists(
        st.sampled_from(
            ['@string{a = "x"}', "@string{b = a # a}", "@book{key, title = b, year = 2020}", "@article{", "}", "{{{{", '"', "#"]
        ),
        max_size=8,
    ).map("\n".join)
)
def test_any_bibliography_is_read_or_one_warning(tmp_path_factory, bib):
    from confnotes.config import Config
    from confnotes.load import read_text
    from confnotes.markup.citations import cited

    folder = tmp_path_factory.mktemp("bib")
    (folder / "refs.bib").write_text(bib, encoding="utf-8")
    doc = read_text("---\ntitle: T\nbibliography: refs.bib\n---\n\n## A\n\nAs shown [@key].\n", str(folder / "t.md"), Config())
    _doc, warnings = cited(doc, folder)
    assert all("\n" not in warning for warning in warnings)


@pytest.mark.parametrize("title", ["日本語のタイトル" * 40, "word " * 120])
def test_new_names_a_long_title_as_a_schedule_note_is_named(cli, tmp_path, title):
    """``new "TITLE"`` cut no title: 300 CJK characters made a 900-byte name, and the file system
    refused it ("File name too long"). Every name made from a title is cut by ``names.file_slug``."""
    result = cli("new", title, "--dir", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    (note,) = tmp_path.glob("*.md")
    text = " ".join(note.read_text(encoding="utf-8").replace('"', " ").split())
    assert len(note.name.encode("utf-8")) <= 160 and " ".join(title.split()) in text


def test_a_site_page_for_a_long_name_is_cut_within_the_bytes_a_file_name_holds():
    from confnotes.build.site import slugged

    names = slugged(["会議室" * 100, "Zoë Müller", "!!!"])
    assert names["Zoë Müller"] == "zoë-müller" and names["!!!"] == "page"
    assert len(names["会議室" * 100].encode("utf-8")) <= 150
