"""Shared test fixtures: paths, the golden-file flag and a CLI runner."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
NOTES = ROOT / "notes"
sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite golden files from current output")


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture
def cli():
    """Run ``confnotes`` in-process; returns click's Result (exit_code, stdout, stderr)."""
    from click.testing import CliRunner

    from confnotes.cli import main

    def run(*args: str, input: str | bytes | None = None):
        return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)

    return run


def _chromium_path() -> str | None:
    import os
    import shutil

    return os.environ.get("CONFNOTES_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium driven by Playwright. Under CI=true a missing browser is a failure."""
    from helpers import require

    path = require(_chromium_path(), "Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=path,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield instance
        instance.close()


@pytest.fixture
def open_page(browser):
    """Open a local file in a fresh page; returns (page, console_errors, requests)."""
    pages = []

    def open_file(path, viewport=(1280, 800)):
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        context.clock.install(time=1_800_000_000_000)  # paused: no wall-clock time leaks into a test
        context.clock.pause_at(1_800_000_000_000)
        page = context.new_page()
        errors: list[str] = []
        requests: list[str] = []
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        url = path.resolve().as_uri()
        page.on("request", lambda req: requests.append(req.url) if req.url.split("#")[0] != url else None)
        page.goto(url)
        page.wait_for_load_state("load")
        pages.append(context)
        return page, errors, requests

    yield open_file
    for context in pages:
        context.close()


@pytest.fixture(autouse=True, scope="session")
def _lint_cache_outside_the_checkout(tmp_path_factory):
    """Keep the lint cache of in-process runs out of the working tree, and compiled templates out of
    the user's cache folder."""
    import os

    os.environ["CONFNOTES_CACHE_DIR"] = str(tmp_path_factory.mktemp("lint-cache"))
    os.environ["CONFNOTES_TEMPLATE_CACHE"] = str(tmp_path_factory.mktemp("template-cache"))
    yield
