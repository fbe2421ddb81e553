"""The deck's presenter view in headless Chromium: a second window that drives the audience window,
with the current and next slide, the notes, a running clock against the plan, a pause, and a
rehearsal whose timings `confnotes time --rehearsal` reads back."""

from __future__ import annotations

import json

import pytest

from conftest import FIXTURES

TALK = FIXTURES / "rules" / "CN304-over-time" / "good.md"


@pytest.fixture
def talk_deck(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_bytes(TALK.read_bytes())
    out = tmp_path / "talk.slides.html"
    result = cli("render", str(note), "--to", "slides", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    plan = json.loads(cli("time", "--format", "json", str(note)).stdout)
    return note, out, plan


@pytest.fixture
def two_windows(browser, talk_deck):
    """The audience page with a fake clock, and the presenter window it opens with P."""
    _, deck, _ = talk_deck
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    # paused: the test moves the clock itself, so no real time leaks in (1:06 for 1:05, 20.1 s for 20 s)
    context.clock.install(time=1_800_000_000_000)
    context.clock.pause_at(1_800_000_000_000)
    errors: list[str] = []
    audience = context.new_page()
    audience.on("pageerror", lambda exc: errors.append(str(exc)))
    audience.goto(deck.resolve().as_uri())
    audience.wait_for_load_state("load")
    with context.expect_page() as opened:
        audience.keyboard.press("p")
    presenter = opened.value
    presenter.on("pageerror", lambda exc: errors.append(str(exc)))
    presenter.wait_for_load_state("load")
    presenter.wait_for_selector(".presenter-view")
    yield context, audience, presenter, errors
    context.close()


def _slide(page) -> int:
    return int(page.get_attribute("body", "data-slide"))


def _title(page, selector: str) -> str:
    return page.locator(selector).first.inner_text().strip()


def test_p_opens_a_presenter_that_drives_the_audience(two_windows):
    context, audience, presenter, errors = two_windows
    assert presenter.url.endswith("#presenter:1") and _slide(presenter) == 1
    assert presenter.locator(".pv-current .pv-frame .slide").count() == 1
    assert _title(presenter, ".pv-current .slide-title") == _title(audience, "#slide-1 .slide-title")
    assert _title(presenter, ".pv-next .slide-title") == audience.locator("#slide-2 .slide-title").text_content().strip()
    for expected in (2, 3, 4):
        presenter.keyboard.press("Space")
        audience.wait_for_function(f"document.body.dataset.slide === '{expected}'", timeout=120_000)
        assert _slide(presenter) == expected
        assert audience.locator(f"#slide-{expected}").is_visible()
    # the audience window drives the presenter too (a clicker plugged into the projector's machine)
    audience.keyboard.press("ArrowRight")
    presenter.wait_for_function("document.body.dataset.slide === '5'", timeout=120_000)
    assert errors == []


def test_presenter_shows_the_right_notes_and_next_slide(two_windows, talk_deck):
    _, audience, presenter, _ = two_windows
    # which slide has the speaker notes: the first one whose hidden notes are not empty
    with_notes = audience.evaluate(
        "Array.from(document.querySelectorAll('main.slides > .slide')).findIndex(s => s.querySelector('.notes')) + 1"
    )
    assert with_notes > 1
    presenter.keyboard.press("End")
    presenter.keyboard.press("Home")
    for _ in range(with_notes - 1):
        presenter.keyboard.press("ArrowRight")
    assert "Checkout was down for forty minutes" in presenter.locator(".pv-notes-body").inner_text()
    next_title = audience.locator(f"#slide-{with_notes + 1} .slide-title").text_content().strip()
    assert _title(presenter, ".pv-next .slide-title") == next_title
    presenter.keyboard.press("ArrowRight")
    assert "No notes for this slide" in presenter.locator(".pv-notes-body").inner_text()


def test_the_clock_runs_pauses_and_keeps_time_against_the_plan(two_windows):
    context, _, presenter, _ = two_windows
    assert presenter.locator(".pv-elapsed").inner_text() == "0:00"
    context.clock.run_for(30_000)
    assert presenter.locator(".pv-elapsed").inner_text() == "0:00", "the clock waits for the talk to start"
    presenter.keyboard.press("t")
    context.clock.run_for(65_000)
    assert presenter.locator(".pv-elapsed").inner_text() == "1:05"
    # on slide 1 after 65 s: the plan ends slide 1 well before that, so behind by about a minute
    status = presenter.locator(".pv-status")
    assert status.get_attribute("data-status") == "behind" and status.inner_text().startswith("behind 1:0")
    assert presenter.locator(".pv-section").inner_text() == "Part 1/3 · Why we stopped buying dashboards · 0:05 over its 1:00"
    presenter.keyboard.press("q")
    context.clock.run_for(30_000)
    assert presenter.locator(".pv-elapsed").inner_text() == "1:05", "paused for questions"
    presenter.keyboard.press("q")
    context.clock.run_for(5_000)
    assert presenter.locator(".pv-elapsed").inner_text() == "1:10"
    clock = presenter.locator(".pv-clock").inner_text()
    assert len(clock) == 5 and clock[2] == ":"


def test_rehearsal_timings_round_trip_through_confnotes_time(two_windows, talk_deck, cli, tmp_path):
    context, _, presenter, _ = two_windows
    note, _, plan = talk_deck
    presenter.keyboard.press("r")  # recording starts the clock
    spent = [20, 35, 50, 10, 15]
    for seconds in spent:
        context.clock.run_for(seconds * 1000)
        presenter.keyboard.press("ArrowRight")
    with presenter.expect_download() as download:
        presenter.get_by_role("button", name="Save timings").click()
    saved = tmp_path / "timings.json"
    download.value.save_as(saved)
    assert download.value.suggested_filename == "talk.timings.json"
    data = json.loads(saved.read_text())
    assert data["format"] == "confnotes.rehearsal/1"
    assert [s["seconds"] for s in data["slides"][: len(spent)]] == spent
    assert len(data["slides"]) == len(plan["slide_marks"])
    result = cli("time", "--format", "json", "--rehearsal", str(saved), str(note))
    assert result.exit_code == 0, result.stderr
    rehearsed = json.loads(result.stdout)["rehearsal"]
    assert rehearsed["total_minutes"] == pytest.approx(sum(spent) / 60, abs=0.01)
    first = sum(1 for mark in json.loads(result.stdout)["slide_marks"] if mark["slide"] <= len(spent))
    assert first == len(spent)
    text = cli("time", "--rehearsal", str(saved), str(note)).stdout
    assert "Planned" in text and "Actual" in text


@pytest.mark.parametrize("channel", ["BroadcastChannel", "localStorage"])
def test_windows_opened_separately_stay_in_step(browser, talk_deck, channel):
    """The presenter opened by hand (deck.html#presenter:1 in a second window) follows and leads the
    audience window over BroadcastChannel, or over localStorage events where there is none."""
    _, deck, _ = talk_deck
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.clock.install(time=1_800_000_000_000)
    context.clock.pause_at(1_800_000_000_000)
    if channel == "localStorage":
        context.add_init_script("delete window.BroadcastChannel;")
    try:
        audience = context.new_page()
        audience.goto(deck.resolve().as_uri())
        presenter = context.new_page()
        presenter.goto(deck.resolve().as_uri() + "#presenter:1")
        presenter.wait_for_selector(".presenter-view")
        assert presenter.evaluate("typeof window.BroadcastChannel") == ("function" if channel == "BroadcastChannel" else "undefined")
        presenter.keyboard.press("ArrowRight")
        presenter.keyboard.press("ArrowRight")
        audience.wait_for_function("document.body.dataset.slide === '3'", timeout=120_000)
        audience.keyboard.press("ArrowLeft")
        presenter.wait_for_function("document.body.dataset.slide === '2'", timeout=120_000)
    finally:
        context.close()


def test_a_speaker_on_plan_is_on_time_when_the_clock_starts_on_the_first_advance(two_windows, talk_deck):
    """The clock started at 0:00 on leaving the title slide, so a speaker on plan read "ahead 0:31"."""
    context, _, presenter, _ = two_windows
    _, _, plan = talk_deck
    title_minutes = plan["slide_marks"][1]["start_minutes"]
    assert title_minutes > 0  # the title slide has planned time of its own
    context.clock.run_for(round(title_minutes * 60_000))  # the title slide, spoken to plan (the clock waits)
    presenter.keyboard.press("ArrowRight")
    status = presenter.locator(".pv-status")
    assert status.get_attribute("data-status") == "on-time", status.inner_text()
    minutes, seconds = presenter.locator(".pv-elapsed").inner_text().split(":")
    assert abs(int(minutes) * 60 + int(seconds) - title_minutes * 60) <= 1  # the title slide's time, counted
