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
    # mermaid-cli as .ci/run installs it (npm, beside the checkout), unless the machine names one
    local_mmdc = ROOT / ".ci" / "node_modules" / ".bin" / "mmdc"
    if "CONFNOTES_MMDC" not in os.environ and local_mmdc.exists():
        os.environ["CONFNOTES_MMDC"] = str(local_mmdc)
    yield


#: The slowest tests (``pytest --durations=60`` on a 2-core machine; a file name stands for all its
#: tests), marked ``slow`` so that ``make check`` leaves them out, each with why it takes its time.
SLOW: dict[str, str] = {
    "test_fit.py::test_no_slide_overflows_in_chromium": "every deck of the realistic notes measured in Chromium, slide by slide",
    "test_print.py::test_pdfs_pass_the_pdf_ua_checker": "a tagged PDF per realistic note, each read by the PDF/UA checker",
    "test_print.py::test_pages_fill_before_they_break": "long notes printed through WeasyPrint, every page's fill read back",
    "test_print.py::test_every_theme_prints_visibly": "every theme x every printed format through WeasyPrint",
    "test_print.py::test_a_wide_table_stays_inside_the_margins": "PDFs rendered and rasterised to check the margins",
    "test_print.py::test_paper_letter_for_pdf_and_handout": "PDF and handout on both paper sizes",
    "test_print.py::test_handout_per_page_and_notes_that_flow": "a handout per page count, each a WeasyPrint render",
    "test_build.py::test_incremental_build_of_200_notes": "200 notes built, rebuilt, edited, removed and forced",
    "test_hostile_folder.py::test_every_command_over_a_hostile_folder": "about 150 commands, each a fresh process, PDFs included",
    "test_build.py::test_build_notes_folder_links_every_note_and_format": "a site in every format, PDFs included",
    "test_decisions.py::test_sharded_build_is_byte_identical_to_a_plain_build": "three shards and a plain build, compared byte for byte",
    "test_decisions.py::test_shards_built_on_separate_machines_merge_into_the_one_machine_site": "four builds in fresh processes",
    "test_demo.py::test_make_demo": "make demo as a user runs it, in a fresh process per format",
    "test_wheel.py::test_wheel_renders_from_its_own_templates": "builds a wheel and installs it in a fresh environment",
    "test_hostile.py::test_hundred_thousand_headings": "a hostile note of 100,000 headings through every command",
    "test_hostile.py::test_twenty_megabyte_note": "a 20 MB note through every command",
    "test_fit.py::test_slides_pdf_has_a_page_per_slide": "slides PDFs of the realistic notes through WeasyPrint",
    "test_fit.py::test_marp_slides_fit_as_marp_cli_renders_them": "marp-cli renders each deck in Chromium",
    "test_fit.py::test_marp_cli_shows_as_many_slides_as_the_deck_for_every_fixture": "marp-cli over every fixture's deck",
    "test_hard_notes.py::test_a_tall_screenshot_stays_inside_the_page": "PDFs on two papers, rasterised and read pixel by pixel",
    "test_slides.py::test_marp_cli_renders_without_warnings": "marp-cli, a Node program, per deck",
    "test_properties.py::test_page_and_deck_keep_words_in_order": "Hypothesis: hundreds of generated notes rendered as page and deck",
    "test_properties.py::test_render_html_never_raises": "Hypothesis: hundreds of generated notes rendered",
    "test_properties.py::test_lint_fix_reaches_a_fixpoint": "Hypothesis: lint --fix to a fixpoint on generated notes",
    "test_properties.py::test_fmt_is_idempotent_and_preserves_the_outline": "Hypothesis: fmt twice on generated notes",
    "test_properties.py::test_model_and_fmt_keep_words_in_order": "Hypothesis: word order through model and fmt",
    "test_properties.py::test_parse_never_crashes_and_is_lossless": "Hypothesis: generated notes parsed and compared",
    "test_render_pdf.py::test_weasyprint_loads_without_asking_ldconfig_gcc_and_ld": "WeasyPrint imported in fresh processes",
    "test_inline_fast_path.py::test_any_text_the_fast_path_takes_matches_markdown_it": "Hypothesis against markdown-it",
    "test_fuzz_inputs.py::test_request_paths_get_an_answer_never_a_traceback": "Hypothesis: request paths against a live preview server",
    "test_fuzz_inputs.py::test_lint_caches_of_any_shape_are_a_miss_or_a_hit": "Hypothesis: cache files of every JSON shape",
    "test_lsp_robust.py": "each test starts its own language server (about a second to initialize) to break it",
    "test_lsp_neovim.py": "starts Neovim headless and the language server",
    "test_render_pdf.py::test_every_word_is_in_the_pdf": "a PDF per realistic note through WeasyPrint, read back",
    "test_startup.py::test_render_pdf_does_import_weasyprint": "a fresh process that imports WeasyPrint",
    "test_hostile_attacks.py::test_yaml_alias_bomb_is_one_error_line_bounded_and_small": "every command in a fresh process",
    "test_fuzz_hostile.py::test_front_matter_values_of_every_kind_through_every_command": "Hypothesis: 300 front matters, 5 commands",
    "test_fuzz_hostile.py::test_build_reads_any_manifest_as_a_rebuild": "Hypothesis: 300 damaged manifests, a site built past each",
    "test_fuzz_hostile.py::test_merge_takes_a_whole_shard_manifest_or_refuses_and_keeps_it": "Hypothesis: 300 shard manifests",
    "test_fuzz_hostile.py::test_lint_reads_any_cache_as_a_miss_or_a_hit": "Hypothesis: 300 damaged lint caches, two lint runs each",
    "test_fuzz_hostile.py::test_file_names_of_any_bytes_through_every_command": "Hypothesis: 300 byte names, every command",
    "test_hostile_remote.py::test_marp_cli_deck_obeys_no_author_directive_and_loads_nothing_remote": "marp-cli, a Node program, twice",
    "test_hostile_limits.py::test_nested_loops_in_a_user_template_stop": "a user template runs 5,000,000 loop turns before it is stopped",
    "test_hostile_limits.py::test_the_issues_huge_notes_make_bounded_decks": "the issue's 1-7 MB notes as decks and PPTX, ten processes",
    "test_hostile_sizes.py::test_twenty_megabytes_of_one_line_paragraphs_outline_in_linear_time": "a 20 MB note linted in a fresh process",
    "test_hostile_sizes.py::test_a_twenty_megabyte_table_reads_renders_and_lints_in_bounded_memory": "a 20 MB table, three processes",
    "test_hostile_sizes.py::test_twenty_megabytes_of_sections_and_bullets_stay_within_a_gigabyte": "135,000 sections, a process a command",
    "test_hostile_sizes.py::test_a_build_of_twenty_megabytes_of_sections_stays_within_a_gigabyte": "a 20 MB note built",
    "test_hostile_limits.py::test_twenty_thousand_code_lines_print_in_bounded_time": "a 20,000-line code block printed through WeasyPrint",
    "test_hostile_sizes.py::test_a_big_pdfs_layout_is_let_go_once_written": "a 600-part PDF laid out under tracemalloc",
    "test_hostile_sizes.py::test_fmt_holds_one_outline_at_a_time": "a 1 MB note read three times under tracemalloc",
    "test_hostile_sizes.py::test_an_import_of_a_hundred_pages_peaks_under_twenty_times_the_file": "a 100-page .docx made, imported twice",
    "test_diagrams.py": "mermaid-cli starts a Chromium for each diagram it draws (about 1.5 s)",
    "test_math.py::test_marp_cli_typesets_every_formula_with_no_network": "marp-cli, a Node program",
    "test_footnotes.py::test_marp_cli_shows_the_footnotes_in_each_slides_footer": "marp-cli, a Node program",
}

#: Fixtures that start a real program: a test using one is marked for it.
PROGRAM_FIXTURES = {"browser": "browser", "open_page": "browser"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark tests that start Chromium (by the fixtures they use) and the slow ones listed in ``SLOW``."""
    for item in items:
        for fixture, marker in PROGRAM_FIXTURES.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(marker)
        name = item.nodeid.split("::", 1)[-1].split("[", 1)[0]
        if item.path.name in SLOW or f"{item.path.name}::{name}" in SLOW:
            item.add_marker("slow")
