"""The presenter view under ``confnotes serve``: a saved note reloads the pages, but a presenter that is
recording a rehearsal holds the reload and says so; one that is not reloads and keeps its clock.
Chromium with Playwright's clock paused (the test moves it by hand)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from playwright.sync_api import Error as PlaywrightError

from test_browser_stage import TALK, paused_context


@pytest.fixture
def served(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text(TALK, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "confnotes", "serve", str(notes), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    line = proc.stdout.readline()
    match = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
    assert match, line + (proc.stderr.read() if proc.poll() is not None else "")
    yield notes / "talk.md", match.group(1)
    proc.kill()
    proc.wait()


def _save_until(note, page, condition: str, edit: str) -> None:
    """Save the note until the page shows ``condition`` (the watcher starts just after the first build)."""
    for attempt in range(40):
        note.write_text(TALK.replace("Deploys used to break on the weekend", f"{edit} {attempt}"), encoding="utf-8")
        try:
            page.wait_for_function(condition, timeout=500)
            return
        except PlaywrightError:  # not yet, or the page is reloading
            continue
    raise AssertionError(f"the page never showed {condition}")


@pytest.mark.browser
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
