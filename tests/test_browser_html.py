"""The HTML page in a real headless Chromium: no console errors, no requests, not blank."""

from __future__ import annotations

import pytest

from conftest import NOTES
from helpers import assert_not_blank


@pytest.mark.parametrize("name", ["scale2025.md", "scaling-reading-list.md"])
def test_page_loads_cleanly(cli, tmp_path, open_page, name):
    out = tmp_path / "page.html"
    assert cli("render", str(NOTES / name), "-o", str(out)).exit_code == 0
    page, errors, requests = open_page(out)
    assert errors == []
    assert requests == []
    assert page.locator("h1").count() == 1
    assert page.evaluate("document.documentElement.lang") == "en"
    shot = tmp_path / "page.png"
    page.screenshot(path=str(shot), full_page=True)
    assert_not_blank(shot)
    # the table of contents links to sections that exist
    hrefs = page.eval_on_selector_all("nav.toc a", "els => els.map(e => e.getAttribute('href'))")
    for href in hrefs:
        assert page.locator(href).count() == 1


def test_page_is_responsive(cli, tmp_path, open_page):
    out = tmp_path / "page.html"
    assert cli("render", str(NOTES / "scale2025.md"), "-o", str(out)).exit_code == 0
    page, errors, _ = open_page(out, viewport=(375, 700))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, "the page scrolls sideways on a phone"
    assert errors == []
