"""The presenter view under ``confnotes serve``: a saved note reloads the pages, but a presenter that is
recording a rehearsal holds the reload and says so; one that is not reloads and keeps its clock.
Chromium with Playwright's clock paused (the test moves it by hand)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

from test_browser_stage import TALK, paused_context


@pytest.fixture
def served(tmp_path):
    from helpers import start_serve

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text(TALK, encoding="utf-8")
    proc, port = start_serve(notes)
    yield notes / "talk.md", f"http://127.0.0.1:{port}/"
    proc.kill()
    proc.wait()


def _save_until(note, page, condition: str, edit: str) -> None:
    """Save the note until the page shows ``condition`` (the watcher starts just after the first build)."""
    for attempt in range(240):  # 0.5 s each: a hang guard of two minutes
        note.write_text(TALK.replace("Deploys used to break on the weekend", f"{edit} {attempt}"), encoding="utf-8")
        try:
            page.wait_for_function(condition, timeout=500)
            return
        except PlaywrightError:  # not yet, or the page is reloading
            continue
    raise AssertionError(f"the page never showed {condition}")


def test_a_recording_presenter_holds_the_reload_under_serve(browser, served):
    """Before: a rehearsal in a presenter opened under serve was silently reset when the note was saved."""
    note, url = served
    context = paused_context(browser, (1366, 768))
    try:
        page = context.new_page()
        page.goto(url + "talk.slides.html#presenter:2")
        page.wait_for_selector(".presenter-view")
        page.keyboard.press("r")  # record: the clock starts
        context.clock.run_for(42_000)
        page.evaluate("window.sameDocument = true")
        _save_until(note, page, "!document.querySelector('.pv-banner').hidden", "edited")
        banner = page.locator(".pv-banner")
        assert banner.is_visible() and "Note changed — reload when ready" in banner.inner_text()
        assert page.evaluate("window.sameDocument") is True, "held: not reloaded"
        assert page.locator(".pv-elapsed").inner_text() == "0:42"
        # reload when ready: the clock, the slide and the recording carry on
        with page.expect_navigation():
            page.get_by_role("button", name="Reload").click()
        page.wait_for_selector(".presenter-view")
        assert page.evaluate("window.sameDocument") is None
        assert int(page.get_attribute("body", "data-slide")) == 2
        assert "edited" in page.locator(".pv-next").inner_text(), "the changed deck"
        assert page.locator(".pv-elapsed").inner_text() == "0:42"
        assert page.get_by_role("button", name="Stop recording").is_visible()
        assert page.locator(".pv-banner").is_hidden()
        # not recording: a save reloads at once, and the clock is kept
        page.keyboard.press("r")
        page.evaluate("window.sameDocument = true")
        reloaded = "document.readyState === 'complete' && !window.sameDocument && !!document.querySelector('.presenter-view')"
        _save_until(note, page, reloaded, "again")
        assert page.locator(".pv-elapsed").inner_text() == "0:42"
        assert page.get_by_role("button", name="Record rehearsal").is_visible()
    finally:
        context.close()


def test_a_page_reloads_for_its_own_file_and_once(browser):
    """Before: every page reloaded only when the whole build was done, and every page reloaded.
    Now a page reloads when its own file is announced, and is spared the build's final reload then;
    a page of a note the build left alone stays, unless every page must change (the error banner).
    The reloads are counted by the page's cancelable ``confnotes:reload`` event (cancelled here)."""
    from confnotes.serve import EVENTS_PATH, reload_script

    events = (
        "retry: 600000\n\n"
        'event: written\ndata: "other.html"\n\n'  # another page's file: not this one
        'event: written\ndata: "day 1/talk.html"\n\n'  # this page's: reload now
        'event: reload\ndata: {"notes": ["day 1/talk.md"], "written": ["day 1/talk.html"], "all": false}\n\n'  # done: not again
        'event: reload\ndata: {"notes": ["other.md"], "written": ["other.html"], "all": false}\n\n'  # another note's: stay
        'event: reload\ndata: {"notes": ["day 1/talk.md"], "written": [], "all": false}\n\n'  # this note's, not announced: reload
        'event: reload\ndata: {"notes": ["other.md"], "written": [], "all": true}\n\n'  # a banner came or went: reload
        "event: reload\ndata: \n\n"  # not understood: reload
    )
    served = []

    def answer(route):
        path = route.request.url.split("confnotes.test", 1)[1]
        served.append(path)
        if path.startswith(EVENTS_PATH):
            route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=events if len(served) == 2 else "")
        else:
            body = f"<!doctype html><title>t</title><p>talk</p>{reload_script('day 1/talk.md')}"
            route.fulfill(status=200, content_type="text/html", body=body)

    context = browser.new_context()
    try:
        context.add_init_script(
            "window.fired=[];window.addEventListener('confnotes:reload',function(e){window.fired.push(e.detail);e.preventDefault();});"
        )
        context.route("http://confnotes.test/**", answer)
        page = context.new_page()
        page.goto("http://confnotes.test/day%201/talk.html")
        page.wait_for_function("window.fired.length >= 4")
        assert page.evaluate("window.fired") == [
            '"day 1/talk.html"',
            '{"notes": ["day 1/talk.md"], "written": [], "all": false}',
            '{"notes": ["other.md"], "written": [], "all": true}',
            "",
        ]
        assert served[:2] == ["/day%201/talk.html", EVENTS_PATH + "?page=day%201%2Ftalk.html"], "the server is told the page"
    finally:
        context.close()


def test_a_saved_note_updates_its_open_page_in_place(browser, served):
    """Before: a save reloaded the whole page (on a 2,000-line note, Chromium read and laid out
    300 KB again) and the reader's place went with it. A page with no scripts of its own now
    takes in only what changed: the same document, at the same scroll, showing the new words; a
    build error's banner comes and goes the same way. A deck, which has scripts, still reloads."""
    note, url = served
    context = browser.new_context(viewport={"width": 900, "height": 500})
    try:
        page = context.new_page()
        page.goto(url + "talk.html")
        page.evaluate("window.sameDocument = true; window.scrollTo(0, 200)")
        scrolled = page.evaluate("window.scrollY")
        assert scrolled > 0
        _save_until(note, page, "/edited \\d+/.test(document.body.textContent)", "edited")
        assert page.evaluate("window.sameDocument") is True, "updated in place, not reloaded"
        assert page.evaluate("window.scrollY") == scrolled, "the reader keeps their place"
        assert "Deploys used to break on the weekend" not in page.inner_text("main")
        assert page.locator("script:not([src])").count() == 1, "the reload script is not taken in twice"
        assert page.locator(".cn-bar").count() == 1, "the site's search bar is kept, once"
        # a save that does not build: the banner appears, the last good version stays
        note.write_text("---\ntitle: [unclosed\n---\n# Broken\n", encoding="utf-8")
        page.wait_for_selector(".confnotes-build-error", timeout=120_000)
        assert page.evaluate("window.sameDocument") is True
        assert "edited" in page.inner_text("main")
        _save_until(note, page, "!document.querySelector('.confnotes-build-error')", "fixed")
        assert page.evaluate("window.sameDocument") is True and "fixed" in page.inner_text("main")
        # an edit that adds a section keeps the focus and the nodes outside what changed
        page.focus("nav a")  # the contents' first link
        page.evaluate("window.focusedBefore = document.activeElement; window.lastBefore = document.querySelector('main').lastElementChild")
        assert page.evaluate("document.activeElement.tagName") == "A"
        _save_until(note, page, "/Added part \\d+/.test(document.body.textContent)", "fixed\n\n## Added part")
        assert page.evaluate("document.activeElement === window.focusedBefore"), "the focus is kept"
        assert page.evaluate("document.querySelector('main').lastElementChild === window.lastBefore"), "the last section is the same node"
        # the deck has scripts of its own: it reloads
        deck = context.new_page()
        deck.goto(url + "talk.slides.html")
        deck.evaluate("window.sameDocument = true")
        _save_until(note, deck, "!window.sameDocument && document.body.textContent.includes('deck')", "deck")
    finally:
        context.close()
