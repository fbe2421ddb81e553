"""A conference's site: the timetable shows each note at its slot and room, a moved talk moves with
one note rebuilt, pages per track, speaker and tag, previous/next in the schedule's order, a feed and
a sitemap, search index within 15% of the HTML, sharded builds byte for byte (the notes: what
`new --schedule` makes of tests/fixtures/schedules, with what a note-taker writes into some)."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote
from xml.etree import ElementTree

import pytest

from confnotes.build.search import shard_of
from conftest import FIXTURES, NOTES
from helpers import one_error_line, search_index

SCHEDULES = FIXTURES / "schedules"
FRAB = SCHEDULES / "pyconf2027.frab.xml"

#: what a note-taker writes under a session's abstract (a few notes get it)
HEARD = """
## What I heard

- The speaker showed a flamegraph of the event loop
- Backpressure matters more than raw throughput
  - Bounded queues everywhere

## Takeaways

1. Measure before tuning
"""


def _notes(cli, folder: Path, *choices: str) -> list[Path]:
    result = cli("new", "--schedule", str(FRAB), *choices, "-o", str(folder))
    assert result.exit_code == 0, result.output
    made = sorted(folder.glob("*.md"))
    for path in made[::7]:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(HEARD)
    return made


def _build(cli, notes: Path, site: Path, *extra: str):
    result = cli("build", str(notes), "-o", str(site), "--to", "html", "-j", "1", *extra)
    assert result.exit_code == 0, result.output
    return result


class Cells(HTMLParser):
    """The timetable's sessions: (room, start, title, linked page or None, classes) a cell of the
    grid; ``listed``: the same for the day lists (the view phones get)."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[dict] = []
        self.listed: list[dict] = []
        self.current: dict | None = None
        self.in_list = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "ol" and "day-list" in (attrs.get("class") or "").split():
            self.in_list = True
        elif tag == "div" and "session" in (attrs.get("class") or "").split():
            self.current = {"room": attrs["data-room"], "start": attrs["data-start"], "class": attrs["class"].split(), "page": None}
            (self.listed if self.in_list else self.cells).append(self.current)
        elif tag == "a" and self.current is not None and attrs.get("class") == "title":
            self.current["page"] = attrs["href"]

    def handle_endtag(self, tag):
        if tag in ("td", "div"):
            self.current = None
        elif tag == "ol":
            self.in_list = False


def _parsed(site: Path) -> Cells:
    parser = Cells()
    parser.feed((site / "timetable.html").read_text(encoding="utf-8"))
    return parser


def _cells(site: Path) -> list[dict]:
    return _parsed(site).cells


def _front(path: Path) -> dict:
    from confnotes.load import load_note

    return load_note(str(path)).doc.meta.extra


@pytest.fixture(scope="module")
def conference(tmp_path_factory):
    from click.testing import CliRunner

    from confnotes.cli import main

    def cli(*args):
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    root = tmp_path_factory.mktemp("conference")
    notes = _notes(cli, root / "notes", "--day", "1")
    _build(cli, root / "notes", root / "site", "--schedule", str(FRAB), "--base-url", "https://notes.example.org/pyconf2027")
    return root, notes


def test_the_timetable_shows_each_note_at_its_slot_and_room(conference):
    root, notes = conference
    parsed = _parsed(root / "site")
    cells = parsed.cells
    assert len(cells) == 153  # every session of the three days, breaks included
    # the day lists (what a phone shows) hold the same sessions, each day in time order
    assert sorted(map(repr, parsed.listed)) == sorted(map(repr, cells))
    assert [cell["start"] for cell in parsed.listed] == sorted(cell["start"] for cell in parsed.listed)
    linked = {cell["page"]: cell for cell in cells if cell["page"]}
    assert len(linked) == len(notes) == 50
    for note in notes:
        front = _front(note)
        cell = linked["./" + quote(note.name.replace(".md", ".html"))]
        assert (cell["room"], cell["start"]) == (front["room"], front["start"])
    without = [cell for cell in cells if "no-note" in cell["class"]]
    assert len(without) == 100 and all(cell["page"] is None for cell in without)
    assert sum("service" in cell["class"] for cell in cells) == 3
    html = (root / "site" / "timetable.html").read_text(encoding="utf-8")
    assert 'times in <span class="zone-name">Europe/Berlin</span>' in html and html.count("no notes yet") == 2 * 100
    assert [h for h in re.findall(r'<h2 id="heading-[^"]+">([^<]+)</h2>', html)] == [
        "Wednesday, 09 June 2027",
        "Thursday, 10 June 2027",
        "Friday, 11 June 2027",
    ]


def test_a_moved_talk_moves_in_the_timetable_and_rebuilds_only_its_note(cli, tmp_path):
    notes = _notes(cli, tmp_path / "notes", "--day", "2", "--room", "Hall B")
    _build(cli, tmp_path / "notes", tmp_path / "site", "--schedule", str(FRAB))
    moved = next(p for p in notes if _front(p)["start"] == "2027-06-10T14:15:00+02:00")
    page = "./" + quote(moved.name.replace(".md", ".html"))
    assert {(c["room"], c["start"]) for c in _cells(tmp_path / "site") if c["page"] == page} == {("Hall B", "2027-06-10T14:15:00+02:00")}
    v2 = SCHEDULES / "pyconf2027.v2.frab.xml"
    updated = cli("new", "--schedule", str(v2), "--update", "-o", str(tmp_path / "notes")).stdout
    assert f"updated {moved}: room, start" in updated and "0 new note(s)" in updated
    result = _build(cli, tmp_path / "notes", tmp_path / "site", "--schedule", str(v2))
    assert "rendered 1, skipped 7 unchanged" in result.stdout
    assert {(c["room"], c["start"]) for c in _cells(tmp_path / "site") if c["page"] == page} == {("Saal Ü1", "2027-06-10T17:15:00+02:00")}


def test_without_a_schedule_file_the_notes_front_matter_makes_the_timetable(cli, conference, tmp_path):
    root, notes = conference
    _build(cli, root / "notes", tmp_path / "site")
    cells = _cells(tmp_path / "site")
    assert len(cells) == 50 and all(c["page"] for c in cells)
    assert {c["page"]: (c["room"], c["start"]) for c in cells} == {
        c["page"]: (c["room"], c["start"]) for c in _cells(root / "site") if c["page"]
    }


def test_without_a_schedule_the_index_stays(cli, tmp_path):
    _build(cli, NOTES, tmp_path / "site")
    site = tmp_path / "site"
    assert not (site / "timetable.html").exists() and not (site / "browse.html").exists() and not (site / "speakers").exists()
    assert "timetable.html" not in (site / "index.html").read_text(encoding="utf-8")
    assert json.loads((site / "_site" / "nav.js").read_text().split("=", 1)[1].rstrip(";\n"))["timetable"] is False
    assert (site / "_site" / "search" / "index.js").exists() and (site / "feed.xml").exists() and not (site / "sitemap.xml").exists()


def test_pages_per_track_speaker_and_tag(conference):
    root, notes = conference
    site = root / "site"
    from confnotes.schedule import read_schedule

    schedule = read_schedule(str(FRAB))
    speakers = {name for s in schedule.sessions for name in s.speakers}
    assert len(list((site / "speakers").glob("*.html"))) == len(speakers)
    page = (site / "speakers" / "zoë-müller.html").read_text(encoding="utf-8")
    theirs = [s for s in schedule.sessions if "Zoë Müller" in s.speakers]
    assert page.count("<tr") == len(theirs) + 1 and all(s.title.replace("'", "&#39;").replace('"', "&#34;") in page for s in theirs)
    for track in schedule.tracks:
        assert (site / "tracks" / f"{track.lower().replace(' & ', '-').replace(' ', '-')}.html").exists(), track
    assert (site / "tags" / "talk.html").exists() and (site / "tags" / "keynote.html").exists()
    browse = (site / "browse.html").read_text(encoding="utf-8")
    assert "50 of 150 sessions have notes" in browse


def test_previous_and_next_follow_the_schedule(conference):
    root, notes = conference
    nav = json.loads((root / "site" / "_site" / "nav.js").read_text(encoding="utf-8").split("=", 1)[1].rstrip(";\n"))
    order = sorted(
        notes,
        key=lambda p: (
            _front(p)["start"],
            ["Hall A", "Hall B", "Saal Ü1", "Room 101", "Workshop Room", "Lightning Stage"].index(_front(p)["room"]),
        ),
    )
    pages = [p.name.replace(".md", ".html") for p in order]
    assert nav["timetable"] is True
    for before, page, after in zip(pages, pages[1:], pages[2:], strict=False):
        assert nav["pages"][page][0] == "./" + quote(before) and nav["pages"][page][2] == "./" + quote(after)
    assert nav["pages"][pages[0]][0] is None and nav["pages"][pages[-1]][2] is None


def test_feed_and_sitemap(conference):
    root, notes = conference
    atom = "{http://www.w3.org/2005/Atom}"
    feed = ElementTree.parse(root / "site" / "feed.xml").getroot()
    entries = feed.findall(f"{atom}entry")
    assert len(entries) == 50 and feed.find(f"{atom}title").text == "PyConf Europe 2027"
    updated = [e.find(f"{atom}updated").text for e in entries]
    assert updated == sorted(updated, reverse=True) and updated[-1] == "2027-06-09T07:00:00Z"  # 09:00 in Berlin
    assert all(e.find(f"{atom}link").get("href").startswith("https://notes.example.org/pyconf2027/") for e in entries)
    sitemap = ElementTree.parse(root / "site" / "sitemap.xml").getroot()
    locs = [loc.text for loc in sitemap.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert "https://notes.example.org/pyconf2027/timetable.html" in locs and len(locs) == len(set(locs))
    assert "https://notes.example.org/pyconf2027/2027-06-09-saal-%C3%BC1-" in " ".join(locs)


def test_the_search_index_is_small_beside_the_html(conference):
    root, _ = conference
    site = root / "site"
    html = sum(p.stat().st_size for p in site.rglob("*.html"))
    index = sum(p.stat().st_size for p in (site / "_site" / "search").iterdir())
    assert index <= 0.15 * html, (index, html)
    meta, parts = search_index(site)
    for key in meta["shards"]:  # each part's words sorted as JavaScript compares strings, each beginning with its key
        terms = parts[f"t-{key}"]["terms"]
        assert terms == sorted(terms, key=lambda t: t.encode("utf-16-be"))
        assert all(t.startswith(key) for t in terms) if "-" not in key else {shard_of(t) for t in terms} == {key}
    docs = [doc for n in range(-(-meta["docs"] // meta["perFile"])) for doc in parts[f"d-{n}"]["docs"]]
    assert len(docs) == meta["docs"]
    sections = [doc for doc in docs if doc[2] == "What I heard"]
    assert len(sections) == 8 and all(doc[1] == "what-i-heard" for doc in sections)


def test_sharded_builds_merge_into_the_same_site(cli, conference, tmp_path):
    root, _ = conference
    plain, merged = tmp_path / "plain", tmp_path / "merged"
    _build(cli, root / "notes", plain, "--schedule", str(FRAB))
    for k in (1, 2):
        _build(cli, root / "notes", tmp_path / f"shard{k}", "--schedule", str(FRAB), "--shard", f"{k}/2")
        shutil.copytree(tmp_path / f"shard{k}", merged, dirs_exist_ok=True)
    result = cli("build", str(root / "notes"), "--merge", "-o", str(merged), "--schedule", str(FRAB))
    assert result.exit_code == 0, result.output
    site = json.loads((plain / ".confnotes-manifest.json").read_text())["site"]
    assert len(site) > 30 and "timetable.html" in site  # the search index, the feed and a page per track, speaker and tag
    for name in site:
        assert (merged / name).read_bytes() == (plain / name).read_bytes(), name


def test_a_bad_schedule_stops_the_build_before_it_writes(cli, tmp_path):
    bad = tmp_path / "schedule.xml"
    bad.write_bytes(b'<?xml version="1.0"?><!DOCTYPE s [<!ENTITY a "x">]><schedule>&a;</schedule>')
    line = one_error_line(cli("build", str(NOTES), "-o", str(tmp_path / "site"), "--schedule", str(bad)))
    assert line.startswith(str(bad)) and "declares XML entities" in line
    assert not (tmp_path / "site").exists()


def test_the_config_names_the_schedule_relative_to_itself(cli, tmp_path):
    (tmp_path / "conf").mkdir()
    shutil.copy(FRAB, tmp_path / "conf" / "schedule.xml")
    _notes(cli, tmp_path / "notes", "--session", "4107")
    (tmp_path / "confnotes.toml").write_text('[build]\nschedule = "conf/schedule.xml"\nbase_url = "https://example.org/n"\n')
    _build(cli, tmp_path / "notes", tmp_path / "site")
    assert len(_cells(tmp_path / "site")) == 153 and (tmp_path / "site" / "sitemap.xml").exists()


def test_sessions_that_overlap_in_a_room_are_all_in_the_timetable(cli, tmp_path):
    """Before: a session that overlapped another in its room vanished from the grid without a word."""
    notes = tmp_path / "notes"
    notes.mkdir()
    for name, start, minutes in (
        ("Keynote", "09:00", 45),
        ("Late start", "09:30", 30),
        ("Same start", "09:00", 30),
        ("After", "10:00", 30),
    ):
        front = f'title: "{name}"\nevent: Conf\nroom: "Hall A"\nstart: "2027-06-09T{start}:00+02:00"\nduration: {minutes}min'
        (notes / f"{name.lower().replace(' ', '-')}.md").write_text(f"---\n{front}\n---\n\nText.\n", encoding="utf-8")
    _build(cli, notes, tmp_path / "site")
    cells = _cells(tmp_path / "site")
    assert sorted(c["page"] for c in cells) == ["./after.html", "./keynote.html", "./late-start.html", "./same-start.html"]
    html = (tmp_path / "site" / "timetable.html").read_text(encoding="utf-8")
    assert html.count('class="cell overlap"') == 1  # the three morning sessions share a cell; "After" has its own


def test_update_names_a_note_whose_session_is_gone_and_matches_a_renamed_event(cli, tmp_path):
    folder = tmp_path / "notes"
    cli("new", "--schedule", str(FRAB), "--session", "4101", "--session", "4102", "-o", str(folder))
    renamed = cli("new", "--schedule", str(FRAB), "--session", "4103", "--event", "PyConf EU", "-o", str(folder))
    assert renamed.exit_code == 0
    cancelled = tmp_path / "cancelled.xml"
    text = FRAB.read_text(encoding="utf-8")
    start = text.index("<event guid=", text.index("id='4102'") - 80)
    cancelled.write_text(text[:start] + text[text.index("</event>", start) + len("</event>") :], encoding="utf-8")
    result = cli("new", "--schedule", str(cancelled), "--update", "-o", str(folder))
    assert result.exit_code == 0, result.output
    gone = [line for line in result.stdout.splitlines() if "no longer in the schedule" in line]
    assert len(gone) == 1 and "session 4102" in gone[0]
    again = cli("new", "--schedule", str(FRAB), "--session", "4103", "-o", str(folder))
    assert "0 new note(s)" in again.stdout and len(list(folder.glob("*.md"))) == 3  # no duplicate of the renamed event's note


def test_search_words_fold_as_the_page_script_folds_them():
    from confnotes.build.search import words

    assert words("Jürgen WEIß, Søren Kierkegård, Łukasz, Ömer Yıldız, Æsir") == [
        "jurgen", "weiss", "soren", "kierkegard", "lukasz", "omer", "yildiz", "aesir"
    ]  # fmt: skip
    assert words("非同期処理") == ["非", "同", "期", "処", "理"]


def test_a_note_the_schedule_has_moved_since_is_named_until_it_is_updated(cli, tmp_path):
    """The timetable follows the schedule, the note's own front matter (the page, ``time``) did
    not: the build said nothing of a talk moved since its note was made."""
    notes = _notes(cli, tmp_path / "notes", "--day", "2", "--room", "Hall B")
    moved = next(p for p in notes if _front(p)["start"] == "2027-06-10T14:15:00+02:00")
    v2 = SCHEDULES / "pyconf2027.v2.frab.xml"
    result = _build(cli, tmp_path / "notes", tmp_path / "site", "--schedule", str(v2))
    said = [line for line in result.output.splitlines() if "the schedule has this talk" in line]
    assert len(said) == 1 and moved.name in said[0]
    assert "in Saal Ü1 at 2027-06-10 17:15; the note says Hall B at 2027-06-10 14:15" in said[0]
    cli("new", "--schedule", str(v2), "--update", "-o", str(tmp_path / "notes"))
    again = _build(cli, tmp_path / "notes", tmp_path / "site", "--schedule", str(v2))
    assert "the schedule has this talk" not in again.output


def test_the_index_parts_split_by_the_next_letter_and_keep_each_word_where_the_page_looks(monkeypatch):
    """A part over its size is split by the next letter of its words; a word stays in the part of
    the longest key it begins with, so the page finds a word and every word it begins."""
    from confnotes.build import search

    monkeypatch.setattr(search, "PART_BYTES", 100)
    terms = sorted(["s", "se", "sea", "seal", "section", "sections", "sectional", "sé", "stop", "k", "日"])
    size = {t: 30 if t.startswith("sect") else 10 for t in terms}
    keys = search.shard_keys(terms, size)
    placed = {t: key for key, held in keys.items() for t in held}
    assert sorted(placed) == terms  # every word in one part
    assert placed["section"] == placed["sections"] == placed["sectional"] != placed["sea"]  # "sect…" outgrew "se"
    for term, key in placed.items():  # the longest key it begins with
        longest = max((k for k in keys if "-" not in k and term.startswith(k)), key=len, default=None)
        assert key == (longest or search.shard_of(term)), term
    assert placed["日"] == "u-65" and placed["k"] == "k"
