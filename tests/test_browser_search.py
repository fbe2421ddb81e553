"""The site's search in Chromium, from file:// and under `confnotes serve`: typing finds a word
inside a section of a note, the results name the note and the section, the keyboard moves through
them and Enter opens the note at that section; each note page links its previous and next session."""

from __future__ import annotations

import re
from contextlib import contextmanager
from urllib.parse import quote

import pytest

from conftest import FIXTURES

FRAB = FIXTURES / "schedules" / "pyconf2027.frab.xml"

DEEP = """
## Hallway track

- Met the maintainers of the scheduler

### Questions from the room

- Someone asked about zygohistomorphic prepromorphisms
- Jürgen Weiß and Ömer Yıldız compared the Łódź benchmark
- The answer: measure first
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from click.testing import CliRunner

    from confnotes.cli import main

    def cli(*args):
        result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result

    root = tmp_path_factory.mktemp("search")
    cli("new", "--schedule", FRAB, "--day", "1", "--room", "Hall A", "-o", root / "notes")
    notes = sorted((root / "notes").glob("*.md"))
    with notes[3].open("a", encoding="utf-8") as handle:
        handle.write(DEEP)
    cli("build", root / "notes", "-o", root / "site", "--to", "html", "-j", "1", "--schedule", FRAB)
    return root, notes[3]


def _search(page, text: str):
    page.fill("#cn-q", text)
    page.wait_for_function(
        "document.querySelectorAll('#cn-results li').length > 0 || /No note/.test(document.querySelector('.cn-status').textContent)"
    )
    # each result's link (a session's note also has its star beside it)
    return [item.locator("a").inner_text().split("\n") for item in page.locator("#cn-results li").all()]


def _title(note) -> str:
    from confnotes.load import load_note

    return load_note(str(note)).doc.meta.title


def test_search_from_file_finds_a_word_inside_a_section_and_opens_it(site, open_page):
    root, note = site
    other = sorted((root / "site").glob("2027-06-09-hall-a-*.html"))[0]
    page, errors, requests = open_page(other)
    results = _search(page, "zygohisto")  # a word's beginning is enough
    assert results == [[_title(note), "Questions from the room"]]
    page.keyboard.press("ArrowDown")
    assert page.get_attribute("#cn-q", "aria-activedescendant") == "cn-r-0"
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(re.escape(quote(note.name.replace(".md", ".html"))) + "#questions-from-the-room$"))
    heading = page.locator("#questions-from-the-room")
    assert heading.is_visible() and heading.evaluate("h => h.getBoundingClientRect().top < window.innerHeight")
    assert errors == []
    assert all(url.startswith((root / "site").as_uri()) for url in requests)  # nothing fetched from elsewhere


def test_search_results_name_note_and_section_and_the_keyboard_moves(site, open_page):
    root, note = site
    page, errors, _ = open_page(root / "site" / "timetable.html")
    results = _search(page, "scheduler maintainers")  # every word must be in the section
    assert results == [[_title(note), "Hallway track"]]
    results = _search(page, "keynote pandas")
    assert results and results[0][0].startswith("Keynote:")
    several = _search(page, "checklist")  # every abstract says it: one result a note
    assert len(several) == 9  # the keynote and eight talks in Hall A on day 1
    page.keyboard.press("ArrowUp")  # from the box, up wraps to the last
    assert page.get_attribute("#cn-q", "aria-activedescendant") == "cn-r-8"
    page.keyboard.press("Escape")
    assert page.locator("#cn-results").is_hidden()
    assert _search(page, "nothingsaysthis") == [] and "No note says that." in page.inner_text(".cn-status")
    page.keyboard.press("Escape")
    page.locator("body").click()
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "cn-q"
    assert errors == []


def test_search_reads_letters_as_people_type_them_and_closes_when_left(site, open_page):
    """Before: ``weiss``, ``yildiz`` and ``lodz`` found nothing (ß, ı and ł are letters of their own)."""
    root, note = site
    page, errors, _ = open_page(root / "site" / "index.html")
    assert _search(page, "weiss yildiz lodz") == [[_title(note), "Questions from the room"]]
    assert _search(page, "WEIß Łódź") == [[_title(note), "Questions from the room"]]
    page.locator("h1").click()  # leaving the box closes the results
    assert page.locator("#cn-results").is_hidden()
    page.focus("#cn-q")  # and coming back shows them again
    assert page.locator("#cn-results").is_visible() and errors == []


def test_each_note_links_its_previous_and_next_session(site, open_page):
    root, note = site
    page, errors, _ = open_page(root / "site" / note.name.replace(".md", ".html"))
    notes = sorted((root / "notes").glob("*.md"), key=lambda p: _front_start(p))
    at = [p.name for p in notes].index(note.name)
    prev_link, next_link = page.locator("a[rel=prev]"), page.locator("a[rel=next]")
    assert prev_link.inner_text() == "← " + _title(notes[at - 1])
    assert next_link.inner_text() == _title(notes[at + 1]) + " →"
    next_link.click()
    page.wait_for_url("**/" + quote(notes[at + 1].name.replace(".md", ".html")))
    assert page.locator("a[href$='timetable.html']").first.is_visible() and errors == []


def _front_start(path):
    from confnotes.load import load_note

    return load_note(str(path)).doc.meta.extra["start"]


@pytest.fixture
def served(site, processes):
    from helpers import start_serve

    root, _ = site
    proc, port = start_serve(root / "notes")
    yield f"http://127.0.0.1:{port}/"
    proc.kill()
    proc.wait()


@contextmanager
def _served_page(browser):
    """A page of its own browser context (for a site under ``serve``), and the errors it raises."""
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page, errors
    finally:
        context.close()


def test_search_under_serve(site, served, browser):
    root, note = site
    with _served_page(browser) as (page, errors):
        page.goto(served + "index.html")
        results = _search(page, "zygohistomorphic")
        assert results == [[_title(note), "Questions from the room"]]
        page.keyboard.press("Enter")  # the first result, without moving to it
        page.wait_for_url(served + quote(note.name.replace(".md", ".html")) + "#questions-from-the-room")
        assert page.locator("#questions-from-the-room").is_visible() and errors == []


def test_stars_and_my_schedule_under_serve(site, served, browser):
    """The attendee's side works under ``serve`` as from ``file://``: a star on a note's page (the
    timetable made from the notes' own front matter) is in My schedule."""
    _, note = site
    with _served_page(browser) as (page, errors):
        page.goto(served + quote(note.name.replace(".md", ".html")))
        page.locator(".cn-session .cn-star").click()
        page.goto(served + "mine.html")
        assert page.locator("#cn-attend .session .title").all_inner_texts() == [_title(note)]
        assert page.get_by_role("link", name="Download my schedule (.ics)").is_visible() and errors == []


def test_a_cancelled_sessions_note_says_so_on_its_page(cli, tmp_path, open_page):
    """The schedule no longer has a session that has a note: its page says so at the top, where a
    reader sees it first, and the other notes' pages say nothing."""
    out = tmp_path / "notes"
    assert cli("new", "--schedule", str(FRAB), "--day", "1", "--room", "Hall A", "-o", str(out)).exit_code == 0
    gone, kept = sorted(out.glob("*.md"))[:2]
    text = FRAB.read_text(encoding="utf-8")
    start = text.index(f"id='{_session(gone)}'")
    smaller = tmp_path / "schedule.xml"
    smaller.write_text(text[: text.rindex("<event", 0, start)] + text[text.index("</event>", start) + len("</event>") :], encoding="utf-8")
    assert cli("build", str(out), "-o", str(tmp_path / "site"), "--to", "html", "-j", "1", "--schedule", str(smaller)).exit_code == 0
    page, errors, _ = open_page(tmp_path / "site" / gone.name.replace(".md", ".html"))
    banner = page.locator("main .cn-cancelled[role=note]")
    assert banner.is_visible() and "no longer has this session" in banner.inner_text()
    assert page.evaluate("document.querySelector('main').firstElementChild.className") == "cn-cancelled"
    other, errors_too, _ = open_page(tmp_path / "site" / kept.name.replace(".md", ".html"))
    assert other.locator(".cn-cancelled").count() == 0 and errors == errors_too == []


def _session(path) -> str:
    from confnotes.load import load_note

    return str(load_note(str(path)).doc.meta.extra["session"])
