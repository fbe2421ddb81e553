"""The attendee's side of a conference's site, in Chromium from ``file://`` at a phone's width and a
laptop's: a star on each session (timetable, note page, search result) kept in the browser, "My
schedule" with its ``.ics`` parsed by icalendar, "Now and next" and the line across today's grid
with a fixed clock, filters that hide empty rooms and are remembered, the reader's own zone, the
day lists phones get, and the recording, slides and feedback links once the schedule has them.

The site: the notes ``new --schedule`` makes of day 1 of the 3-day, 6-room fixture conference
(Europe/Berlin), built with a copy of its schedule in which two talks have their links after the
event."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from urllib.parse import quote

import pytest

from conftest import FIXTURES

FRAB = FIXTURES / "schedules" / "pyconf2027.frab.xml"
LAPTOP, PHONE = (1280, 800), (390, 844)
#: 10:20 in Berlin on day 1: "Debugging LLM evaluation at 3 a.m." (Hall A, 10:00-10:30) runs
DURING = "2027-06-09T10:20:00+02:00"
RECORDING = "https://media.example.org/v/pyconf2027-4102"
SLIDES = "https://slides.example.org/4102/deck.pdf"
FEEDBACK = "https://pretalx.example.org/pyconf2027/talk/C05523/feedback/"


def _with_links(text: str) -> str:
    """The schedule after the event: talk 4102 has its recording, slides and feedback form (frab's
    ``video_download_url``, a link and ``feedback_url``)."""
    start = text.index("id='4102'")
    end = text.index("</event>", start)
    event = text[start:end].replace(
        "<links></links>",
        f"<links><link href='{SLIDES}'>Slides</link></links><video_download_url>{RECORDING}</video_download_url>"
        f"<feedback_url>{FEEDBACK}</feedback_url>",
    )
    return text[:start] + event + text[end:]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    from click.testing import CliRunner

    from confnotes.cli import main

    root = tmp_path_factory.mktemp("attendee")
    schedule = root / "pyconf2027.xml"
    schedule.write_text(_with_links(FRAB.read_text(encoding="utf-8")), encoding="utf-8")
    for args in (
        ["new", "--schedule", str(schedule), "--day", "1", "-o", str(root / "notes")],
        ["build", str(root / "notes"), "-o", str(root / "site"), "--to", "html", "-j", "1", "--schedule", str(schedule)],
    ):
        result = CliRunner().invoke(main, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
    return root / "site"


@pytest.fixture
def visit(browser):
    """Open a page of the site in a fresh browser (its own storage), at a size, a zone and a fixed
    clock; the same context opens the next pages (``page.goto``)."""
    contexts = []

    def open_page(url: Path | str, size=LAPTOP, zone="Europe/Berlin", now=DURING):
        context = browser.new_context(viewport={"width": size[0], "height": size[1]}, timezone_id=zone, accept_downloads=True)
        context.clock.install(time=now)
        context.clock.pause_at(now)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.errors = errors  # type: ignore[attr-defined]
        page.goto(Path(url).resolve().as_uri() if isinstance(url, Path) else url)
        page.wait_for_load_state("load")
        return page

    yield open_page
    for context in contexts:
        context.close()


def _session(page, title: str):
    """The session shown at this size (the grid's at a laptop's width, the day list's on a phone)."""
    return page.locator(".session:visible", has=page.locator(".title", has_text=title)).first


def _calendar(data: bytes):
    import icalendar

    return {str(event["UID"]): event for event in icalendar.Calendar.from_ical(data).walk("VEVENT")}


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_star_in_the_timetable_is_in_my_schedule_and_its_ics(visit, site, size):
    page = visit(site / "timetable.html", size)
    talk = _session(page, "Debugging LLM evaluation at 3 a.m.")
    star = talk.locator(".cn-star")
    assert star.get_attribute("aria-pressed") == "false"
    assert star.get_attribute("aria-label") == "Star \u201cDebugging LLM evaluation at 3 a.m.\u201d"
    star.click()
    assert star.get_attribute("aria-pressed") == "true"
    _session(page, "A tour of pandas 3").locator(".cn-star").click()  # the same 10:00 slot, another room
    page.goto((site / "mine.html").as_uri())
    listed = page.locator("#cn-attend .session .title")
    assert listed.all_inner_texts() == ["Debugging LLM evaluation at 3 a.m.", "A tour of pandas 3"]
    assert page.locator("#cn-attend h2").all_inner_texts() == ["Wednesday, 09 June 2027"]
    assert page.locator(".cn-overlap").count() == 2  # both at 10:00: said on each
    with page.expect_download() as caught:
        page.get_by_role("link", name="Download my schedule (.ics)").click()
    events = _calendar(Path(caught.value.path()).read_bytes())
    assert caught.value.suggested_filename == "my-schedule.ics"
    event = events["4102@pyconf-europe-2027.confnotes"]  # the UID the site's own file for the session has
    assert event.decoded("DTSTART") == dt.datetime(2027, 6, 9, 8, 0, tzinfo=dt.UTC)  # 10:00 in Berlin
    assert event.decoded("DTEND") == dt.datetime(2027, 6, 9, 8, 30, tzinfo=dt.UTC)
    assert str(event["SUMMARY"]) == "Debugging LLM evaluation at 3 a.m." and str(event["LOCATION"]) == "Hall A"
    # as the session's own file has it: its address on the web (a file:// page is no one else's), its track
    assert str(event["URL"]) == "https://pretalx.example.org/pyconf2027/talk/C05523/"
    assert RECORDING in str(event["DESCRIPTION"]) and "Track: " in str(event["DESCRIPTION"])
    assert len(events) == 2 and page.errors == []  # type: ignore[attr-defined]


def test_each_session_has_its_own_ics_with_the_schedule_times(site):
    files = sorted((site / "sessions").glob("*.ics"))
    assert len(files) == 150  # every session of the three days but the three breaks
    event = _calendar((site / "sessions" / "4102.ics").read_bytes())["4102@pyconf-europe-2027.confnotes"]
    assert event.decoded("DTSTART") == dt.datetime(2027, 6, 9, 8, 0, tzinfo=dt.UTC)
    assert f"Recording: {RECORDING}" in str(event["DESCRIPTION"]) and "Jürgen Weiß, Aoife Ní Bhriain" in str(event["DESCRIPTION"])
    html = (site / "timetable.html").read_text(encoding="utf-8")
    assert html.count('href="./sessions/4102.ics" download') == 2  # in the grid and in the day's list


def test_a_star_on_a_note_page_and_on_a_search_result(visit, site):
    note = next(site.glob("2027-06-09-hall-a-debugging-llm-evaluation-at-3-am.html"))
    page = visit(note)
    box = page.locator(".cn-session")
    assert box.locator("time").first.inner_text() == "Wed 09 Jun, 10:00"
    box.locator(".cn-star").click()
    page.locator("#cn-q").fill("polars hard parts")
    result = page.locator("#cn-results li", has=page.locator(".cn-note", has_text="Polars, the hard parts")).first
    result.locator(".cn-star").click()
    page.goto((site / "mine.html").as_uri())
    assert page.locator("#cn-attend .session .title").all_inner_texts() == ["Debugging LLM evaluation at 3 a.m.", "Polars, the hard parts"]
    first = page.locator("#cn-attend .cn-star").first
    first.focus()
    page.keyboard.press("Enter")  # unstarred on My schedule: it stays (the focus with it) until the page is left
    assert first.get_attribute("aria-pressed") == "false" and page.evaluate("document.activeElement.classList.contains('cn-star')")
    assert page.locator(".cn-count").inner_text().startswith("1 session starred.")
    page.reload()
    assert page.locator("#cn-attend .session .title").all_inner_texts() == ["Polars, the hard parts"]
    page.locator("#cn-attend .cn-star").first.click()
    page.reload()
    assert "No session starred yet" in page.locator("#cn-attend").inner_text()
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_now_and_next_and_the_line_across_today(visit, site, size):
    page = visit(site / "now.html", size)
    assert "It is Wed 09 Jun, 10:20 (Europe/Berlin)." in page.locator(".cn-clock").inner_text()
    hall_a = page.locator(".cn-now-next tr[data-room='Hall A'] td .title")
    assert hall_a.all_inner_texts() == ["Debugging LLM evaluation at 3 a.m.", "Polars, the hard parts"]
    assert page.locator(".cn-now-next tbody tr").count() == 6  # each room has a talk now or next
    page.goto((site / "timetable.html").as_uri())
    running = page.locator(".session.cn-running:visible .title").all_inner_texts()
    assert "Debugging LLM evaluation at 3 a.m." in running and "Polars, the hard parts" not in running
    if size == LAPTOP:
        line = page.locator("#day-2027-06-09 .cn-now")
        assert line.inner_text() == "Now 10:20" and page.locator(".cn-now").count() == 1  # today's grid only
        ten = page.locator("#day-2027-06-09 tbody tr", has=page.locator("time", has_text="10:00")).bounding_box()
        top = line.bounding_box()["y"]
        assert ten["y"] < top < ten["y"] + ten["height"]  # 10:20 falls in the 10:00-10:45 row
    assert page.errors == []  # type: ignore[attr-defined]


def test_after_the_conference_now_says_it_is_over(visit, site):
    page = visit(site / "now.html", now="2027-06-12T09:00:00+02:00")
    assert "The conference is over" in page.locator("#cn-attend").inner_text()
    page.goto((site / "timetable.html").as_uri())
    assert page.locator(".cn-now").count() == 0 and page.locator(".cn-running").count() == 0


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_filters_hide_sessions_and_empty_rooms_and_are_remembered(visit, site, size):
    page = visit(site / "timetable.html", size)
    page.locator("select[data-filter=lang]").select_option("de")
    shown = page.locator(".session[data-key]:visible")
    assert shown.count() == 8 and set(shown.evaluate_all("all => all.map(s => s.dataset.lang)")) == {"de"}
    assert page.locator(".cn-shown").inner_text() == "8 of 150 sessions"
    page.locator("select[data-filter=track]").select_option("Web")
    shown_rooms = set(shown.evaluate_all("all => all.map(s => s.dataset.room)"))
    assert {s["track"] for s in shown.evaluate_all("all => all.map(s => ({track: s.dataset.track}))")} <= {"Web"}
    if size == LAPTOP:  # the grid: a room with nothing shown is no column, on every day
        headers = page.locator("table.timetable thead th[data-room]:visible").all_inner_texts()
        assert set(headers) == shown_rooms and len(headers) < 6 * 3
    page.reload()
    assert page.locator("select[data-filter=lang]").input_value() == "de"  # remembered in this browser
    assert page.locator("select[data-filter=track]").input_value() == "Web"
    page.locator("select[data-filter=lang]").select_option("")
    page.locator("select[data-filter=track]").select_option("")
    assert page.locator(".cn-shown").inner_text() == "" and page.locator("table.timetable thead th[data-room].cn-gone").count() == 0
    assert page.errors == []  # type: ignore[attr-defined]


def test_starred_only_shows_the_starred_sessions(visit, site):
    page = visit(site / "timetable.html")
    _session(page, "A tour of HTMX").locator(".cn-star").click()
    page.get_by_label("Starred only").check()
    assert page.locator(".session:visible .title").all_inner_texts() == ["A tour of HTMX"]
    assert page.locator("table.timetable thead th[data-room]:visible").all_inner_texts() == ["Hall A"]


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_reader_s_own_zone(visit, site, size):
    page = visit(site / "timetable.html", size, zone="America/New_York")
    first_row = page.locator("#day-2027-06-09 tbody th[scope=row] time").first  # the grid's (hidden on a phone: in the page all the same)
    assert first_row.inner_text() == "09:00" and page.locator(".zone-name").inner_text() == "Europe/Berlin"
    page.locator("#cn-zone").select_option("reader")
    assert first_row.inner_text() == "03:00" and page.locator(".zone-name").inner_text() == "America/New_York"
    talk = _session(page, "Debugging LLM evaluation at 3 a.m.")
    assert talk.locator(".when").inner_text().startswith("04:00\u201304:30")
    page.goto((site / "now.html").as_uri())  # remembered across pages
    assert "It is Wed 09 Jun, 04:20 (America/New_York)." in page.locator(".cn-clock").inner_text()
    note = next(site.glob("2027-06-09-hall-a-debugging-llm-evaluation-at-3-am.html"))
    page.goto(note.as_uri())
    assert page.locator(".cn-session time").first.inner_text() == "Wed 09 Jun, 04:00"
    # a reader in the conference's zone is offered no switch
    same = visit(site / "timetable.html", size)
    assert same.locator("#cn-zone").count() == 0


def test_phones_get_the_day_lists_and_laptops_the_grid_with_sticky_headers(visit, site):
    phone = visit(site / "timetable.html", PHONE)
    assert phone.locator(".grid-scroll").first.is_hidden() and phone.locator(".day-list").first.is_visible()
    assert phone.get_by_role("button", name="List").get_attribute("aria-pressed") == "true"
    phone.get_by_role("button", name="Grid").click()
    assert phone.locator(".grid-scroll").first.is_visible() and phone.locator(".day-list").first.is_hidden()
    phone.reload()
    assert phone.locator(".grid-scroll").first.is_visible()  # the reader's choice is kept
    laptop = visit(site / "timetable.html")
    assert laptop.locator(".grid-scroll").first.is_visible() and laptop.locator(".day-list").first.is_hidden()
    header = laptop.locator("#day-2027-06-09 thead th").nth(1)
    time_column = laptop.locator("#day-2027-06-09 tbody th[scope=row]").first
    assert header.evaluate("th => getComputedStyle(th).position") == "sticky"
    assert time_column.evaluate("th => getComputedStyle(th).position") == "sticky"
    laptop.locator("#day-2027-06-09 .grid-scroll").evaluate("box => { box.scrollTop = 400; box.scrollLeft = 300; }")
    box = laptop.locator("#day-2027-06-09 .grid-scroll").bounding_box()
    assert abs(header.bounding_box()["y"] - box["y"]) < 2 and abs(time_column.bounding_box()["x"] - box["x"]) < 2


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_links_after_the_event_in_the_timetable_and_on_the_note_page(visit, site, size):
    page = visit(site / "timetable.html", size)
    talk = _session(page, "Debugging LLM evaluation at 3 a.m.")
    links = {a.inner_text(): a.get_attribute("href") for a in talk.locator(".resources a").all()}
    assert links == {"Recording": RECORDING, "Slides": SLIDES, "Feedback": FEEDBACK, ".ics": "./sessions/4102.ics"}
    note = site / "2027-06-09-hall-a-debugging-llm-evaluation-at-3-am.html"
    page.goto(note.as_uri())
    shown = {a.inner_text(): a.get_attribute("href") for a in page.locator(".cn-session .resources a").all()}
    assert shown["Recording"] == RECORDING and shown["Feedback"] == FEEDBACK
    assert re.fullmatch(r"(\./)?sessions/4102\.ics", shown[".ics"].removeprefix("./")), shown
    other = visit(site / quote("2027-06-09-hall-a-polars-the-hard-parts.html"), size)
    assert other.locator(".cn-session .resources a").all_inner_texts() == [".ics"]  # no links yet: none shown


def test_a_search_result_is_starred_from_the_keyboard(visit, site):
    """The results are a listbox the arrow keys move through (the focus stays in the box): * stars
    the one chosen, and the status says so for a screen reader."""
    page = visit(site / "timetable.html")
    page.locator("#cn-q").fill("polars hard parts")
    page.wait_for_function("document.querySelectorAll('#cn-results li .cn-star').length > 0")
    page.keyboard.press("ArrowDown")
    star = page.locator("#cn-results li").first.locator(".cn-star")
    page.keyboard.press("*")
    assert star.get_attribute("aria-pressed") == "true" and page.locator("#cn-q").input_value() == "polars hard parts"
    assert page.locator(".cn-status").inner_text().startswith("Starred \u201c")
    page.goto((site / "mine.html").as_uri())
    assert page.locator("#cn-attend .session").count() == 1


def test_search_shows_every_result_a_page_at_a_time(visit, site):
    """Every result, 20 at a time ("Show 20 more", by click or by the keyboard): the index is split,
    and only the files a query needs are loaded."""
    page = visit(site / "timetable.html")
    loaded: list[str] = []
    page.on("request", lambda request: loaded.append(request.url.rsplit("/", 1)[-1]) if "/_site/search/" in request.url else None)
    page.locator("#cn-q").fill("bites")  # every note's abstract: "where it bites"
    status = page.locator(".cn-status")
    page.wait_for_function("/ of /.test(document.querySelector('.cn-status').textContent)")
    assert status.inner_text() == "20 of 50 sections"
    assert sorted(loaded) == ["d-0.js", "index.js", "t-b.js"]  # the part of its words, one file of titles
    page.get_by_role("button", name="Show 20 more").click()
    assert status.inner_text() == "40 of 50 sections" and page.locator("#cn-results li > a").count() == 40
    assert page.get_attribute("#cn-q", "aria-activedescendant") == "cn-r-20"  # the first of the new ones
    page.locator("#cn-q").focus()
    for _ in range(20):  # down to the last option, "Show 10 more"
        page.keyboard.press("ArrowDown")
    assert page.locator("#cn-results li.cn-more").get_attribute("aria-selected") == "true"
    page.keyboard.press("Enter")
    assert status.inner_text() == "50 sections" and page.locator("#cn-results li.cn-more").count() == 0
    assert page.get_attribute("#cn-q", "aria-activedescendant") == "cn-r-40"  # the first of the new ones
    titles = page.locator("#cn-results .cn-note").all_inner_texts()
    assert len(set(titles)) == 50 and page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_every_page_kind_runs_the_attendee_script_and_stars_each_session(visit, site, size):
    """Each kind of page of the site (index, timetable, browse, a track's, a speaker's and a tag's
    page, My schedule, Now, a note): no error, a star on each session it lists, and a star given on
    any of them is in My schedule."""
    track = next((site / "tracks").glob("*.html"))
    speaker = next((site / "speakers").glob("*.html"))
    note = site / "2027-06-09-hall-a-polars-the-hard-parts.html"
    kinds = {
        "index": (site / "index.html", 0),
        "timetable": (site / "timetable.html", None),
        "browse": (site / "browse.html", 0),
        "track": (track, None),
        "speaker": (speaker, None),
        "now": (site / "now.html", None),
        "note": (note, 1),
    }
    page = visit(site / "index.html", size)
    for kind, (path, stars) in kinds.items():
        page.goto(path.as_uri())
        sessions = page.locator(".session[data-key], tr[data-key], .cn-session").count()
        assert page.locator(".cn-star").count() == (sessions if stars is None else stars), kind
        assert sessions > 0 if stars is None else True, kind
        assert page.errors == [], (kind, page.errors)  # type: ignore[attr-defined]
    page.goto(track.as_uri())
    first = page.locator("tr[data-key]").first
    title = first.locator(".title").inner_text()
    first.locator(".cn-star").click()
    page.goto((site / "mine.html").as_uri())
    assert page.locator("#cn-attend .session .title").all_inner_texts() == [title]
    assert page.errors == []  # type: ignore[attr-defined]


def test_now_keeps_the_focus_as_time_passes_and_labels_its_columns_on_a_phone(visit, site):
    page = visit(site / "now.html", PHONE)
    star = page.locator(".cn-now-next tr[data-room='Hall A'] .cn-star").first
    star.focus()
    page.clock.run_for(31_000)  # the page looks at the clock again: the same sessions, so nothing is drawn again
    assert page.evaluate("document.activeElement.classList.contains('cn-star')")
    assert page.locator("#cn-attend").get_attribute("aria-live") is None  # no table read aloud every half minute
    labels = page.locator(".cn-now-next tr[data-room='Hall A'] td").evaluate_all(
        "cells => cells.map(td => getComputedStyle(td, '::before').content)"
    )
    assert labels == ['"Now"', '"Next"']  # the header row is hidden on a phone: each cell says which it is
    page.clock.run_for(10 * 60_000)  # 10:30: the sessions change, and the page says so
    assert page.locator(".cn-now-next tr[data-room='Hall A'] td .title").first.inner_text() == "Polars, the hard parts"


def test_a_break_gets_no_star_on_now(visit, site):
    page = visit(site / "now.html", now="2027-06-09T12:30:00+02:00")
    lunch = page.locator(".cn-now-next .session", has=page.locator(".title", has_text="Lunch"))
    assert lunch.count() >= 1 and lunch.locator(".cn-star").count() == 0


def test_the_line_is_placed_when_a_phone_switches_to_the_grid(visit, site):
    page = visit(site / "timetable.html", PHONE)
    assert page.locator(".cn-now").count() == 0  # the list is shown: no grid to draw on
    page.get_by_role("button", name="Grid").click()
    line = page.locator("#day-2027-06-09 .cn-now")
    ten = page.locator("#day-2027-06-09 tbody tr", has=page.locator("time", has_text="10:00")).bounding_box()
    assert ten["y"] < line.bounding_box()["y"] < ten["y"] + ten["height"]
    table = page.locator("#day-2027-06-09 table.timetable").bounding_box()
    assert line.bounding_box()["width"] == pytest.approx(table["width"], abs=2)  # across every room, those scrolled to too


def test_a_filtered_grid_keeps_only_its_rooms_and_times(visit, site):
    page = visit(site / "timetable.html")
    page.locator("select[data-filter=lang]").select_option("de")
    assert page.locator("select[data-filter=lang] option[value=de]").inner_text() == "German"
    day = page.locator("#day-2027-06-09")
    rows = day.locator("tbody tr:not(.cn-collapsed)")
    starts = set(day.locator("td .session[data-key]:visible").evaluate_all("all => all.map(s => s.dataset.start)"))
    assert starts and rows.count() < day.locator("tbody tr").count()
    assert starts <= set(rows.locator("th time").evaluate_all("all => all.map(t => t.getAttribute('datetime'))"))
    time_column = day.locator("thead th").first.bounding_box()["width"]
    assert time_column < 80  # the grid is as wide as its rooms: the time column does not take the rest
    hidden_days = page.locator("section.day[hidden]").evaluate_all("all => all.map(d => d.id)")
    for day_id in hidden_days:
        assert page.locator(f'.days a[href="#{day_id}"]').is_hidden()


def test_starred_only_with_nothing_starred_says_what_to_do(visit, site):
    page = visit(site / "timetable.html")
    page.get_by_label("Starred only").check()
    assert "none starred yet" in page.locator(".cn-shown").inner_text()


def test_a_note_page_names_the_zone_of_its_times(visit, site):
    note = site / "2027-06-09-hall-a-debugging-llm-evaluation-at-3-am.html"
    page = visit(site / "timetable.html", zone="America/New_York")
    page.locator("#cn-zone").select_option("reader")
    page.goto(note.as_uri())
    assert page.locator(".cn-session time").first.inner_text() == "Wed 09 Jun, 04:00"
    assert page.locator(".cn-zone-of").inner_text() == "(America/New_York)"
