"""Shared test fixtures: paths, the golden-file flag and a CLI runner."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
#: Markdown fixtures that are not notes but import's inputs in a note app's dialect (Obsidian, Logseq)
APP_MARKDOWN = (".obsidian.md", ".logseq.md")


def note_fixtures() -> list[Path]:
    """Every Markdown note among the fixtures (import's app-dialect inputs left out)."""
    return sorted(path for path in FIXTURES.rglob("*.md") if not path.name.endswith(APP_MARKDOWN))


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


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium driven by Playwright. Under CI=true a missing browser is a failure.
    One a module: Playwright's sync API keeps an event loop running while it is open, and the
    language server's asyncio tests cannot start their own beside it."""
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


@pytest.fixture(scope="session")
def chromium() -> str:
    """The path of Debian's Chromium, for a test that drives it with Playwright's async API beside
    its own asyncio work (a language server's client). Under CI=true a missing browser is a failure."""
    from helpers import require

    return require(_chromium_path(), "Debian's chromium is not installed (apt-get install chromium)")


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
        dialogs: list[str] = []  # an alert() a page runs: recorded, then dismissed
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.dialogs = dialogs  # type: ignore[attr-defined]
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
    # mermaid-cli as .ci/run installs it (npm, beside the checkout), unless the machine names one
    local_mmdc = ROOT / ".ci" / "node_modules" / ".bin" / "mmdc"
    if "CONFNOTES_MMDC" not in os.environ and local_mmdc.exists():
        os.environ["CONFNOTES_MMDC"] = str(local_mmdc)
    yield


# ---------------------------------------------------------------- tiers
# A test's tier follows from what it uses (docs/design.md, "Proving it"): the fixtures it requests say so,
# and the conftest marks it. unit: pure Python in this process (`make check`); integration: WeasyPrint,
# Chromium, LibreOffice, other programs or fresh processes (`make test` adds them); stress: notes of
# many megabytes and fuzzing at full counts (`make stress`; their figures are benchmarks). A unit test
# that lays out a PDF or starts a process without saying so fails with a line naming the fixture to
# request, so a new test cannot hide in the quick tier.

#: fixture -> (tier, the program marker it adds)
USES: dict[str, tuple[str, str | None]] = {
    "browser": ("integration", "browser"),
    "open_page": ("integration", "browser"),
    "chromium": ("integration", "browser"),
    "weasyprint": ("integration", None),
    "libreoffice": ("integration", "libreoffice"),
    "libreoffice_writer": ("integration", "libreoffice"),
    "libreoffice_math": ("integration", "libreoffice"),
    "processes": ("integration", None),
    "stress": ("stress", None),
}
TIER_ORDER = ("unit", "integration", "stress")


def tier_of(fixturenames: list[str] | tuple[str, ...]) -> str:
    """The highest tier among the fixtures a test requests (unit when it requests none of them)."""
    tiers = [USES[name][0] for name in fixturenames if name in USES]
    return max(tiers, key=TIER_ORDER.index, default="unit")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test with its tier and the programs it drives, from the fixtures it requests."""
    for item in items:
        names = tuple(getattr(item, "fixturenames", ())) + _server_clients(item)
        item.add_marker(tier_of(names))
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker("fuzz")  # run again at full count by `make stress`
        for name in names:
            program = USES.get(name, (None, None))[1]
            if program:
                item.add_marker(program)


def _server_clients(item: pytest.Item) -> tuple[str, ...]:
    """``processes`` when the test uses a fixture made by ``pytest_lsp.fixture``: a language server in a
    process of its own (the fixture hides the arguments it was written with)."""
    info = getattr(item, "_fixtureinfo", None)
    definitions = [defs[-1] for defs in (info.name2fixturedefs.values() if info else ()) if defs]
    return ("processes",) if any(getattr(d.func, "__module__", "").startswith("pytest_lsp") for d in definitions) else ()


@pytest.fixture(scope="session")
def weasyprint() -> None:
    """The test lays out PDFs with WeasyPrint (about a second a PDF): integration tier."""


@pytest.fixture(scope="session")
def processes() -> None:
    """The test starts programs or confnotes in fresh processes: integration tier."""


@pytest.fixture(scope="session")
def stress() -> None:
    """The test makes notes of many megabytes or fuzzes at full counts: stress tier (`make stress`)."""


@pytest.fixture(scope="session")
def libreoffice(processes) -> str:
    """LibreOffice's ``soffice`` (skipped without it; a failure under ``CI=true``)."""
    from helpers import require_program

    return require_program("soffice", "libreoffice", install="apt-get install libreoffice-impress-nogui")


@pytest.fixture(scope="session")
def libreoffice_writer(libreoffice: str) -> str:
    """``soffice`` with Writer, which opens a Word document (without it ``--convert-to pdf`` exits 0
    having written nothing)."""
    from helpers import require

    program = Path(libreoffice).resolve().parent
    found = libreoffice if any(program.glob("libswlo.so*")) or any(program.glob("libsw*.dylib")) else None
    return require(found, "LibreOffice Writer is not installed (apt-get install libreoffice-writer-nogui)")


@pytest.fixture(scope="session")
def libreoffice_math(libreoffice_writer: str) -> str:
    """``soffice`` with LibreOffice's Math module, which draws a Word document's equations (without
    it Writer prints them as nothing)."""
    from helpers import require

    libreoffice = libreoffice_writer
    program = Path(libreoffice).resolve().parent
    found = libreoffice if any(program.glob("libsmlo.so*")) or any(program.glob("libsm*.dylib")) else None
    return require(found, "LibreOffice Math is not installed (apt-get install libreoffice-math-nogui)")


class TierError(AssertionError):
    """A unit test used something of a higher tier without requesting its fixture."""


def _refuse(what: str, fixture: str):
    def refused(*_args: object, **_kwargs: object) -> None:
        raise TierError(
            f"this test {what} but requests no `{fixture}` fixture: request it, so the test runs in the "
            f"integration tier ('make test'), not in 'make check' (tests/conftest.py, tiers)"
        )

    return refused


def _guard(patch: pytest.MonkeyPatch) -> None:
    """Starting a process or laying out a PDF fails, naming the fixture to request."""
    import multiprocessing.process
    import subprocess

    import confnotes.render.pdf

    patch.setattr(subprocess.Popen, "__init__", _refuse("starts a program", "processes"))
    patch.setattr(multiprocessing.process.BaseProcess, "start", _refuse("starts a worker process", "processes"))
    patch.setattr(confnotes.render.pdf, "load_weasyprint", _refuse("lays out a PDF with WeasyPrint", "weasyprint"))


@pytest.fixture(autouse=True)
def _unit_tests_stay_in_process(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a unit test, starting a process or laying out a PDF fails and names the fixture to request."""
    if request.node.get_closest_marker("unit") is not None:
        _guard(monkeypatch)


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef, request: pytest.FixtureRequest):
    """The same guard while a unit test's module- and session-scoped fixtures are set up: they are made
    before the test's own autouse guard, so a PDF laid out there escaped it."""
    item = getattr(request, "_pyfuncitem", None)
    wider = fixturedef.scope != "function"  # function-scoped ones are made after the autouse guard
    if not wider or item is None or item.get_closest_marker("unit") is None or fixturedef.argname in USES:
        return (yield)
    with pytest.MonkeyPatch.context() as patch:
        _guard(patch)
        return (yield)


#: a unit test over this many seconds is named at the end of the run: make it cheaper, or say what it uses
UNIT_SECONDS = 1.0


def _matrix_summary(terminalreporter) -> None:
    """The conformance matrix's cells (feature pairs x outputs) and how many of its checks held."""
    reports = [
        report
        for kind in ("passed", "failed", "error")
        for report in terminalreporter.stats.get(kind, [])
        if report.when == "call" and report.nodeid.startswith("tests/test_matrix.py")
    ]
    if not reports:
        return
    from test_matrix import FEATURES, FORMATS, NOTES

    pairs = len(FEATURES) * (len(FEATURES) - 1) // 2
    rendered = [report for report in reports if "integration" in report.keywords]  # the checks of rendered cells
    held = sum(1 for report in rendered if report.passed)
    terminalreporter.write_sep("-", "conformance matrix (tests/test_matrix.py)")
    if not rendered:
        terminalreporter.write_line(
            f"{len(FEATURES)} features in {len(NOTES)} notes, {pairs} pairs: no cell rendered in this run ('make test' renders them)"
        )
        return
    terminalreporter.write_line(
        f"{len(FEATURES)} features in {len(NOTES)} notes, every pair meeting: {pairs} pairs x {len(FORMATS)} outputs = "
        f"{pairs * len(FORMATS)} cells rendered; {held} of {len(rendered)} checks on them held"
    )


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Name the unit tests that took over ``UNIT_SECONDS`` (a list, never a failure: machines differ),
    and report the conformance matrix."""
    _matrix_summary(terminalreporter)
    slow = sorted(
        (report.duration, report.nodeid)
        for report in terminalreporter.stats.get("passed", [])
        if report.when == "call" and "unit" in report.keywords and report.duration > UNIT_SECONDS
    )
    if slow:
        terminalreporter.write_sep("-", f"unit tests over {UNIT_SECONDS:g} s (make them cheaper, or request what they use)")
        for duration, nodeid in slow[::-1][:15]:
            terminalreporter.write_line(f"{duration:6.2f} s  {nodeid}")
