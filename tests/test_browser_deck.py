"""The HTML deck in headless Chromium: keys, deep links, notes, overview, no errors."""

from __future__ import annotations

import pytest

from conftest import NOTES
from helpers import assert_not_blank


def _current(page) -> int:
    return int(page.get_attribute("body", "data-slide"))


@pytest.fixture
def deck_file(cli, tmp_path):
    out = tmp_path / "deck.html"
    note = tmp_path / "talk.md"
    note.write_text((NOTES / "scale2025.md").read_text(encoding="utf-8") + "\n\n<!-- notes: thank the audience. -->\n")
    result = cli("render", str(note), "--to", "slides", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    return out


def test_keyboard_navigation(open_page, deck_file, tmp_path):
    page, errors, requests = open_page(deck_file)
    assert _current(page) == 1
    for k in range(1, 6):
        page.keyboard.press("ArrowRight")
        assert _current(page) == k + 1
        assert page.locator(f"#slide-{k + 1}").is_visible()
        assert not page.locator(f"#slide-{k}").is_visible()
    page.keyboard.press("ArrowLeft")
    assert _current(page) == 5
    page.keyboard.press("Space")
    page.keyboard.press("PageDown")
    assert _current(page) == 7
    page.keyboard.press("PageUp")
    assert _current(page) == 6
    page.keyboard.press("End")
    assert _current(page) == 19
    assert page.evaluate("location.hash") == "#19"
    page.keyboard.press("ArrowRight")
    assert _current(page) == 19
    page.keyboard.press("Home")
    assert _current(page) == 1
    shot = tmp_path / "deck.png"
    page.screenshot(path=str(shot))
    assert_not_blank(shot)
    assert errors == [] and requests == []


def test_deep_link_survives_reload(open_page, deck_file):
    page, errors, _ = open_page(deck_file)
    page.goto(deck_file.resolve().as_uri() + "#5")
    page.reload()
    assert _current(page) == 5
    assert page.locator("#slide-5").is_visible()
    assert "Simplify to Scale" in page.locator("#slide-5").inner_text()
    assert errors == []


def test_notes_toggle_and_overview(open_page, deck_file):
    page, errors, _ = open_page(deck_file)
    assert not page.locator(".notes-panel").is_visible()
    page.keyboard.press("End")
    page.keyboard.press("s")
    panel = page.locator(".notes-panel")
    assert panel.is_visible() and "thank the audience." in panel.inner_text()
    page.keyboard.press("s")
    assert not panel.is_visible()
    page.keyboard.press("o")
    assert page.evaluate("document.body.classList.contains('overview')")
    assert page.locator(".slide:visible").count() == 19
    page.locator("#slide-4").click()
    assert _current(page) == 4
    assert not page.evaluate("document.body.classList.contains('overview')")
    assert errors == []


def test_slide_scales_to_the_window(open_page, deck_file):
    page, _, _ = open_page(deck_file, viewport=(640, 360))
    box = page.locator("#slide-1").bounding_box()
    assert abs(box["width"] - 640) < 2 and abs(box["height"] - 360) < 2
