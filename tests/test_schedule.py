"""A conference's schedule: the four formats read alike, `new --schedule` makes notes whose front
matter is the schedule, `--update` follows a moved talk and touches nothing else, bad schedules are
one line (tests/fixtures/schedules: one 3-day, 6-room, 150-talk conference in Europe/Berlin, as
pretalx, Sessionize and a calendar app write it, and a second version where one talk moved)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from confnotes.schedule import Reading, read_schedule
from conftest import FIXTURES
from helpers import one_error_line

SCHEDULES = FIXTURES / "schedules"
FORMATS = {
    "frab.xml": (),
    "pretalx.json": (),
    "sessionize.json": ("--timezone", "Europe/Berlin", "--event", "PyConf Europe 2027"),
    "ics": (),
}


def _read(name: str, version: str = ""):
    timezone = "Europe/Berlin" if "sessionize" in name else None
    return read_schedule(str(SCHEDULES / f"pyconf2027{version}.{name}"), Reading(timezone=timezone))


def _shape(conference) -> list[tuple]:
    """What every format holds alike (ids differ: each exporter has its own)."""
    return sorted((s.title, s.start.isoformat(), s.minutes, s.room, s.speakers, s.track, s.service) for s in conference.sessions)


@pytest.mark.parametrize("name", list(FORMATS))
def test_every_format_reads_the_same_conference(name):
    conference = _read(name)
    talks = [s for s in conference.sessions if not s.service]
    assert len(talks) == 150 and len(conference.sessions) == 153  # and a lunch a day
    assert conference.timezone == "Europe/Berlin"
    assert [d.isoformat() for d in conference.days] == ["2027-06-09", "2027-06-10", "2027-06-11"]
    assert sorted(conference.rooms) == sorted(["Hall A", "Hall B", "Saal Ü1", "Room 101", "Workshop Room", "Lightning Stage"])
    assert all(s.start.utcoffset().total_seconds() == 7200 for s in conference.sessions)  # CEST, as the grid shows
    assert _shape(conference) == _shape(_read("frab.xml"))
    names = {speaker for s in talks for speaker in s.speakers}
    assert {"Zoë Müller", "山田 太郎", "Ngô Bảo Châu", "Olga Петрова"} <= names
    assert len({s.id for s in conference.sessions}) == 153


def test_a_schedule_without_a_zone_keeps_its_local_times():
    conference = read_schedule(str(SCHEDULES / "pyconf2027.sessionize.json"))
    assert conference.timezone is None
    first = conference.sessions[0]
    assert first.start.tzinfo is None and first.start.isoformat() == "2027-06-09T09:00:00"


def _front(path: Path) -> dict:
    from confnotes.load import load_note

    doc = load_note(str(path)).doc
    return {**doc.meta.extra, "title": doc.meta.title, "speakers": list(doc.meta.speakers), "event": doc.meta.event, "date": doc.meta.date}


@pytest.mark.parametrize("name", list(FORMATS))
def test_new_makes_a_note_per_session_whose_front_matter_is_the_schedule(cli, tmp_path, name):
    result = cli("new", "--schedule", str(SCHEDULES / f"pyconf2027.{name}"), "--all", "-o", str(tmp_path / "notes"), *FORMATS[name])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1] == f"150 new note(s) in {tmp_path / 'notes'}"
    notes = sorted((tmp_path / "notes").glob("*.md"))
    assert len(notes) == 150
    conference = _read(name)
    by_id = {s.id: s for s in conference.sessions}
    for path in notes:
        front = _front(path)
        session = by_id[str(front["session"])]
        assert front["title"] == session.title
        assert front["speakers"] == list(session.speakers)
        assert front["event"] == "PyConf Europe 2027"
        assert front["room"] == session.room
        assert front["start"] == session.start.isoformat()
        assert front["duration"] == f"{session.minutes}min"
        assert front.get("track", "") == session.track
        assert front.get("url", "") == session.url
        assert path.name.startswith(f"{session.day.isoformat()}-")
    assert {_front(p)["session"] for p in notes} == {s.id for s in conference.sessions if not s.service}


def test_notes_from_a_schedule_are_clean_and_named_by_day_room_and_title(cli, tmp_path):
    result = cli("new", "--schedule", str(SCHEDULES / "pyconf2027.frab.xml"), "--day", "1", "--room", "saal ü1", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in tmp_path.glob("*.md"))
    assert len(names) == 8 and all(name.startswith("2027-06-09-saal-ü1-") for name in names)
    lint = cli("lint", str(tmp_path), "--format", "json")
    findings = json.loads(lint.stdout)
    assert len(findings) == 8 and {f["name"] for f in findings} == {"under-time"}, lint.stdout  # the talk is not written yet
    text = (tmp_path / names[0]).read_text(encoding="utf-8")
    assert "\n---\n\n> " in text  # the abstract, quoted below the front matter


def test_time_uses_the_slot_from_the_schedule(cli, tmp_path):
    conference = _read("frab.xml")
    workshop = next(s for s in conference.sessions if s.type == "Workshop")
    cli("new", "--schedule", str(SCHEDULES / "pyconf2027.frab.xml"), "--session", workshop.id, "-o", str(tmp_path))
    (note,) = tmp_path.glob("*.md")
    result = cli("time", str(note), "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["slot_minutes"] == 90


def test_update_follows_a_moved_talk_and_changes_nothing_else(cli, tmp_path):
    folder = tmp_path / "notes"
    cli("new", "--schedule", str(SCHEDULES / "pyconf2027.frab.xml"), "--all", "-o", str(folder))
    # the note-taker writes into the notes: bodies and their own keys are theirs
    for path in sorted(folder.glob("*.md"))[::10]:
        with path.open("a", encoding="utf-8") as handle:
            handle.write("\n## What I heard\n\n- The speaker's first point\n")
    before = {p.name: p.read_bytes() for p in folder.glob("*.md")}
    again = cli("new", "--schedule", str(SCHEDULES / "pyconf2027.v2.frab.xml"), "--all", "-o", str(folder))
    assert "0 new note(s)" in again.stdout and "--update refreshes" in again.stdout
    assert {p.name: p.read_bytes() for p in folder.glob("*.md")} == before  # without --update nothing is touched
    result = cli("new", "--schedule", str(SCHEDULES / "pyconf2027.v2.frab.xml"), "--all", "--update", "-o", str(folder))
    assert result.exit_code == 0, result.output
    after = {p.name: p.read_bytes() for p in folder.glob("*.md")}
    changed = [name for name in before if before[name] != after[name]]
    assert changed == ["2027-06-10-hall-b-" + changed[0].split("2027-06-10-hall-b-")[1]] and len(changed) == 1
    old, new = before[changed[0]].decode().splitlines(), after[changed[0]].decode().splitlines()
    differing = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    assert differing == [
        ('room: "Hall B"', 'room: "Saal Ü1"'),
        ('start: "2027-06-10T14:15:00+02:00"', 'start: "2027-06-10T17:15:00+02:00"'),
    ]
    assert f"updated {folder / changed[0]}: room, start" in result.stdout


def test_update_keeps_the_authors_front_matter_and_line_endings(cli, tmp_path):
    conference = _read("frab.xml")
    moved = next(s for s in conference.sessions if s.day.isoformat() == "2027-06-10" and s.room == "Hall B" and s.start.hour == 14)
    cli("new", "--schedule", str(SCHEDULES / "pyconf2027.frab.xml"), "--session", moved.id, "-o", str(tmp_path))
    (note,) = tmp_path.glob("*.md")
    text = note.read_text(encoding="utf-8").replace('room: "Hall B"', "room: Hall B   # the big one\nslides:\n  wpm: 150")
    text = text.replace('tags: ["talk"]', "tags:\n- talk\n- favourite").replace("\n", "\r\n") + "Body, mine.\r\n"
    note.write_bytes(text.encode())
    cli("new", "--schedule", str(SCHEDULES / "pyconf2027.v2.frab.xml"), "--session", moved.id, "--update", "-o", str(tmp_path))
    updated = note.read_bytes().decode()
    assert updated == text.replace("room: Hall B   # the big one", 'room: "Saal Ü1"').replace("14:15:00", "17:15:00")


def test_new_never_overwrites_and_names_a_clash_apart(cli, tmp_path):
    conference = _read("pretalx.json")
    first = next(s for s in conference.sessions if not s.service)
    from confnotes.schedule.notes import note_name

    (tmp_path / note_name(first)).write_text("# Someone else's note\n", encoding="utf-8")
    result = cli("new", "--schedule", str(SCHEDULES / "pyconf2027.pretalx.json"), "--session", first.id, "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert (tmp_path / note_name(first)).read_text(encoding="utf-8") == "# Someone else's note\n"
    assert (tmp_path / note_name(first).replace(".md", "-2.md")).exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--room", "Hal A"), "no room 'Hal A'; did you mean 'Hall A'?"),
        (("--day", "2027-06-12"), "no day '2027-06-12'"),
        (("--session", "nope"), "no session 'nope'"),
        ((), "choose the sessions: --all, --session ID, --day, --room or --track"),
    ],
)
def test_choices_the_schedule_does_not_have_are_one_line(cli, tmp_path, args, message):
    result = cli("new", "--schedule", str(SCHEDULES / "pyconf2027.frab.xml"), *args, "-o", str(tmp_path / "out"))
    assert message in one_error_line(result)
    assert not (tmp_path / "out").exists()


def _bad(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


FRAB = (SCHEDULES / "pyconf2027.frab.xml").read_bytes()
PRETALX = (SCHEDULES / "pyconf2027.pretalx.json").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "make", "message"),
    [
        ("broken.xml", lambda: FRAB[: len(FRAB) // 2], "not well-formed XML"),
        (
            "bomb.xml",
            lambda: b'<?xml version="1.0"?><!DOCTYPE s [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]><schedule>&b;</schedule>',
            "declares XML entities",
        ),
        ("latin1.json", lambda: PRETALX.encode("latin-1", "replace").replace(b"?", b"\xe9"), "not UTF-8"),
        (
            "notime.xml",
            lambda: re.sub(rb"<date>[^<]*</date>", b"<date>x</date>", FRAB.replace(b"<start>", b"<start>x")),
            "has no start time",
        ),
        ("notes.md", lambda: b"# Not a schedule\n", "not a schedule"),
        ("view.json", lambda: b'[{"groupId": null, "sessions": []}]', "export the 'All data' view"),
        ("deep.json", lambda: b"[" * 100_000 + b"]" * 100_000, "nests too deep"),
        ("broken.ics", lambda: b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:x\r\n", "iCalendar"),
    ],
)
def test_bad_schedules_are_one_line_and_write_nothing(cli, tmp_path, name, make, message):
    path = _bad(tmp_path, name, make())
    result = cli("new", "--schedule", str(path), "--all", "-o", str(tmp_path / "out"))
    line = one_error_line(result)
    assert line.startswith(str(path)) and message in line, line
    assert not (tmp_path / "out").exists()


def test_a_bad_session_costs_only_itself_and_is_named_by_its_own_id(cli, tmp_path):
    """A session with no room, or no start, among good ones: skipped with one warning naming its id
    and why; every other session is read and gets its note."""
    path = _bad(tmp_path, "noroom.json", PRETALX.replace('"room": "Hall B"', '"room": ""').replace('"Hall B": [', '"": [').encode())
    result = cli("new", "--schedule", str(path), "--all", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    skipped = [line for line in result.stderr.splitlines() if "skipped" in line]
    assert skipped and all(line.startswith(f"{path}: warning: session '") and "has no room" in line for line in skipped)
    assert "session 1 " not in result.stderr  # named by its id, not the reader's count
    from confnotes.schedule import read_schedule

    whole = read_schedule(str(_bad(tmp_path, "whole.json", PRETALX.encode())))
    assert len(skipped) == sum(1 for session in whole.sessions if session.room == "Hall B")
    made = list((tmp_path / "out").glob("*.md"))
    assert len(made) == sum(1 for session in whole.sessions if session.room != "Hall B" and not session.service)


def test_a_50_mb_schedule_is_refused_before_it_is_read(cli, tmp_path):
    path = tmp_path / "huge.xml"
    with path.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    line = one_error_line(cli("new", "--schedule", str(path), "--all", "-o", str(tmp_path / "out")))
    assert "52,428,800 bytes, more than the 16 MiB (16,777,216-byte) limit" in line
    assert not (tmp_path / "out").exists()


def test_schedule_choices_need_a_schedule(cli, tmp_path):
    assert "--all chooses sessions of a schedule; add --schedule FILE" in one_error_line(cli("new", "--all"))
    assert "drop TITLE" in one_error_line(cli("new", "Talk", "--schedule", str(SCHEDULES / "pyconf2027.ics"), "--all"))


def test_fixtures_are_what_the_generator_writes(tmp_path):
    """The committed schedules are the generator's output (edit generate.py, not the files)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("generate", SCHEDULES / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.HERE = tmp_path
    module.main()
    for path in tmp_path.iterdir():
        assert path.read_bytes() == (SCHEDULES / path.name).read_bytes(), path.name
    shutil.rmtree(tmp_path)
