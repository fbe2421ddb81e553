"""Every limit on the work one note may cost, in one registry: what it bounds, its value (read from
the constant the code uses), where it applies and the test that holds it.

docs/security.md's "Limits" table is written from ``LIMITS`` (``make docs``; ``tests/test_limits.py``
fails when the table and the registry differ, or when a ``MAX_``/``MIN_`` constant is in neither
``LIMITS`` nor ``ELSEWHERE``), so the documented values are the code's.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field

#: the table's marker in docs/security.md: what follows it, to the next blank line, is written here
MARKER = "<!-- the limits table: written from confnotes.limits by `make docs` -->"


@dataclass(frozen=True)
class Limit:
    what: str
    value: str  # ``{name}`` or ``{name:MB}`` fields, each filled from ``values``
    where: str
    guarded_by: str
    values: dict[str, str] = field(default_factory=dict)  # field -> ``module.CONSTANT``


def constant(path: str) -> object:
    module, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


def _shown(value: object, unit: str) -> str:
    if unit == "MB":
        return f"{int(value) // 1024**2:,}"  # type: ignore[call-overload]
    if isinstance(value, float):
        return f"{value:g}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def value_text(limit: Limit) -> str:
    return re.sub(r"\{(\w+)(?::(\w+))?\}", lambda m: _shown(constant(limit.values[m.group(1)]), m.group(2) or ""), limit.value)


SANDBOX = "confnotes.edges.sandbox"
TEMPLATES = "sandboxed user templates"
DECKS = "every deck format"
PRINTED = "PDF, slides PDF, handout"
HOSTILE = "`test_hostile_limits.py::"

LIMITS: tuple[Limit, ...] = (
    Limit(
        "Template run time",
        "{s} s (wall clock)",
        TEMPLATES,
        f"{HOSTILE}test_a_user_template_that_would_run_for_ever_is_stopped`",
        {"s": f"{SANDBOX}.TEMPLATE_SECONDS"},
    ),
    Limit("Template loop turns", "{n} in one render", TEMPLATES, "same", {"n": f"{SANDBOX}.TEMPLATE_LOOP_TURNS"}),
    Limit("Template text made", "{n:MB} M characters in one render", TEMPLATES, "same", {"n": f"{SANDBOX}.TEMPLATE_CHARACTERS"}),
    Limit(
        "Numbers given to filters and methods",
        "{n} (widths, counts); format widths alike",
        TEMPLATES,
        "same",
        {"n": f"{SANDBOX}.TEMPLATE_NUMBER"},
    ),
    Limit(
        "One string or list made by `*` or `+`",
        "{n:MB} M items; numbers {bits} bits",
        TEMPLATES,
        "same",
        {"n": f"{SANDBOX}.TEMPLATE_STRING", "bits": f"{SANDBOX}.TEMPLATE_BITS"},
    ),
    Limit(
        "Template file size", "{n:MB} MB", "user template folders", "`test_hostile_fs.py`", {"n": "confnotes.templating.MAX_TEMPLATE_BYTES"}
    ),
    Limit(
        "Slides in one deck",
        "{n} (`[slides] max_slides`, 10 to 5,000); the rest of the note is named on a last slide",
        f"{DECKS}, `time`",
        f"{HOSTILE}test_a_deck_stops_at_its_slide_limit_and_says_what_is_left_out`",
        {"n": "confnotes.slides.limits.MAX_SLIDES"},
    ),
    Limit(
        "Code on slides",
        "{n} lines (`[slides] max_code_lines`, 50 to 100,000) or {chars} characters a line, a block; up to them it is split over slides",
        DECKS,
        f"{HOSTILE}test_a_long_code_block_is_cut_on_slides`",
        {"n": "confnotes.slides.limits.MAX_CODE_LINES", "chars": "confnotes.slides.limits.CODE_LINE_CHARS"},
    ),
    Limit(
        "Text on slides",
        "{words} words or {chars} characters a paragraph, quote or item",
        DECKS,
        f"{HOSTILE}test_a_long_paragraph_is_cut_on_slides`",
        {"words": "confnotes.slides.limits.MAX_TEXT_WORDS", "chars": "confnotes.slides.limits.MAX_TEXT_CHARS"},
    ),
    Limit(
        "Tables on slides",
        "{columns} columns and {cells} cells a table",
        DECKS,
        f"{HOSTILE}test_a_wide_long_table_is_cut_on_slides`",
        {"columns": "confnotes.slides.limits.MAX_TABLE_COLUMNS", "cells": "confnotes.slides.limits.MAX_TABLE_CELLS"},
    ),
    Limit(
        "Entries on one slide before it is split",
        "{n}",
        DECKS,
        f"{HOSTILE}test_the_issues_huge_notes_make_bounded_decks`",
        {"n": "confnotes.slides.limits.MAX_ENTRIES"},
    ),
    Limit(
        "Code printed",
        "{lines} lines or {chars} characters a block",
        PRINTED,
        f"{HOSTILE}test_a_long_code_block_is_cut_in_a_pdf`",
        {"lines": "confnotes.render.inline.code.MAX_PRINTED_CODE_LINES", "chars": "confnotes.render.inline.code.MAX_PRINTED_CODE_CHARS"},
    ),
    Limit(
        "SVG elements drawn",
        "{n} in a PDF, all its SVGs together (each copy counts, each `<use>` expanded; an SVG that draws other images or "
        "declares entities counts as past it)",
        PRINTED,
        f"{HOSTILE}test_an_svg_too_heavy_to_draw_is_its_alt_text_in_a_pdf`",
        {"n": "confnotes.render.inline.pictures.MAX_PRINTED_SVG_ELEMENTS"},
    ),
    Limit(
        "Notes in a book",
        "{n} notes; each printed up to the PDF's parts, characters and boxes (above)",
        "`--to book`",
        "`test_book.py::test_a_book_too_large_or_of_a_broken_note_writes_nothing`",
        {"n": "confnotes.render.book.MAX_BOOK_NOTES"},
    ),
    Limit(
        "Slide pictures",
        "the slides PDF's limits (slides, boxes), drawn at a scale of {low} to {high} (at most 7680 × 4320 a picture); a contact "
        "sheet of the first {sheet} slides, with a warning past them; each picture written before the next is drawn (one held "
        "at a time)",
        "`--to png`",
        "`test_render_many.py` (`--scale 9` refused; `::test_a_contact_sheet_holds_its_first_hundred_slides_and_says_so`, "
        "`::test_each_picture_is_written_before_the_next_is_drawn`)",
        {
            "low": "confnotes.render.pictures.MIN_SCALE",
            "high": "confnotes.render.pictures.MAX_SCALE",
            "sheet": "confnotes.render.pictures.MAX_SHEET_SLIDES",
        },
    ),
    Limit(
        "Words a note gives the site's search",
        "{n} distinct words of at most {chars} characters; the index is data (`strict_json` in a script, no markup)",
        "`build`",
        "`test_conference_site.py::test_the_search_index_is_small_beside_the_html`, `test_build.py`",
        {"n": "confnotes.build.search.MAX_NOTE_WORDS", "chars": "confnotes.build.search.MAX_WORD"},
    ),
    Limit(
        "Reference Word document",
        "{n:MB} MiB; its archive checked as imports are; only its styles and parts without external relationships are taken",
        "`docx`",
        "`test_hostile_word.py::test_a_hostile_reference_document_gives_its_styles_and_nothing_external`",
        {"n": "confnotes.render.docx.MAX_REFERENCE_BYTES"},
    ),
    Limit(
        "Reference PPTX",
        "{n:MB} MB; its archive checked as imports are ({unpacked:MB} MB unpacked, {members} members, ratio {ratio})",
        "`pptx`",
        f"{HOSTILE}test_a_zip_bomb_reference_pptx_is_refused_saying_why`",
        {
            "n": "confnotes.render.pptx.presentation.MAX_REFERENCE_BYTES",
            "unpacked": "confnotes.edges.archives.MAX_UNPACKED",
            "members": "confnotes.edges.archives.MAX_MEMBERS",
            "ratio": "confnotes.edges.archives.MAX_RATIO",
        },
    ),
    Limit(
        "Rehearsal timings",
        "{n:MB} MB, {entries} timings, slides 1 to {slides}, seconds 0 to a day, flat entries, strict JSON",
        "`time --rehearsal`",
        f"{HOSTILE}test_a_tampered_rehearsal_file_is_one_error_line`",
        {
            "n": "confnotes.timing.rehearsal.MAX_REHEARSAL_BYTES",
            "entries": "confnotes.timing.rehearsal.MAX_REHEARSAL_ENTRIES",
            "slides": "confnotes.timing.rehearsal.MAX_REHEARSAL_SLIDES",
        },
    ),
    Limit(
        "Nesting",
        "{n} levels of lists and quotes, counted together",
        "every command",
        f"{HOSTILE}test_nesting_is_refused_past_32_levels_and_not_before`",
        {"n": "confnotes.parse.markdown.MAX_DEPTH"},
    ),
    Limit(
        "Parts printed",
        "{parts} sections, items and blocks, or {chars} characters; the rest named on a last line",
        "PDF",
        "`test_hostile_sizes.py::test_a_pdf_prints_up_to_its_limit_and_says_what_it_left_out`",
        {"parts": "confnotes.render.printed.MAX_PRINTED_PARTS", "chars": "confnotes.render.printed.MAX_PRINTED_CHARS"},
    ),
    Limit(
        "Boxes printed",
        "{n}: a token of highlighted code, a line of plain code, a table cell, a printed line of a paragraph or speaker note "
        "each; the rest named on a last line (PDF) or a last slide (slides PDF, handout)",
        PRINTED,
        "`test_hostile_sizes.py::test_a_pdf_counts_what_code_and_tables_cost_its_layout`, "
        "`::test_a_slides_pdf_stops_at_the_box_budget_and_says_so`; the 20 MB code and table shapes in "
        "`test_twenty_megabytes_of_code_or_tables_print_within_a_gigabyte` (stress)",
        {"n": "confnotes.render.printed.MAX_PRINTED_BOXES"},
    ),
    Limit(
        "Parts in a Word document",
        "{parts} sections, items and blocks, {chars} characters or {boxes} pieces of code, table cells and lines; the rest "
        "named on a last line and in a warning (a 23 MB list note: 35 s and 1.1 GB, of which reading the note 27.5 s; "
        "40,000 items took 69 s, now 4.9 s; a 400-row table 116 s, now 0.4 s)",
        "`docx`",
        "`test_hostile_word.py`; ten times the rows cost about ten times the time in `test_hostile_bombs.py`",
        {
            "parts": "confnotes.render.printed.WORD_PARTS",
            "chars": "confnotes.render.printed.WORD_CHARS",
            "boxes": "confnotes.render.printed.WORD_BOXES",
        },
    ),
    Limit(
        "An Evernote export",
        "{notes} notes and {resources} resources; a resource of more than {chars:MB} M base64 characters is not decoded; "
        "the XML read without entities",
        "`import`",
        "`test_import_round3.py::test_an_export_of_too_many_notes_is_refused_before_it_is_read`, "
        "`::test_a_file_import_cannot_read_is_one_line`",
        {
            "notes": "confnotes.importers.enex.MAX_NOTES",
            "resources": "confnotes.importers.enex.MAX_RESOURCES",
            "chars": "confnotes.importers.enex.MAX_RESOURCE_CHARS",
        },
    ),
    Limit(
        "Followers of a talk (`serve --audience`)",
        "{n} phones at once; a presenter's report at most {bytes} bytes",
        "`serve --audience`",
        "`test_audience.py::test_a_presenters_report_is_read_only_when_it_is_a_slide_of_a_deck`",
        {"n": "confnotes.audience.MAX_FOLLOWERS", "bytes": "confnotes.audience.MAX_PUBLISH_BYTES"},
    ),
    Limit(
        "Videos",
        "{bytes:MB} MB a video (larger: linked); its poster from at most {packets} packets of a picture at most {side} pixels a side, "
        "shown at most {poster} pixels a side",
        "every format",
        "`test_video.py::test_a_video_over_the_limit_is_linked_not_embedded`,"
        " `::test_a_file_that_only_looks_like_a_video_gets_a_play_mark_not_a_crash`",
        {
            "bytes": "confnotes.edges.video.MAX_VIDEO_BYTES",
            "packets": "confnotes.edges.video.MAX_POSTER_PACKETS",
            "side": "confnotes.edges.video.MAX_VIDEO_SIDE",
            "poster": "confnotes.edges.video.MAX_POSTER_SIDE",
        },
    ),
    Limit(
        "Table cells laid out",
        "{n} a table; a bigger table is shown as its text",
        "HTML page, PDF, Word",
        "`test_hostile_sizes.py::test_a_twenty_megabyte_table_reads_renders_and_lints_in_bounded_memory`",
        {"n": "confnotes.render.markdown.MAX_PAGE_TABLE_CELLS"},
    ),
)

#: every other ``MAX_``/``MIN_`` constant, and where it is documented instead (or why it bounds no work)
ELSEWHERE: dict[str, str] = {
    "confnotes.config.MAX_CONFIG_BYTES": "security.md, What confnotes reads (configs)",
    "confnotes.config.MAX_CONFIG_DEPTH": "security.md, Attacks tried (a deep TOML config)",
    "confnotes.config.MAX_EXTENDS": "security.md, Attacks tried (a long or circular extends)",
    "confnotes.lsp.core.MAX_STALE": "editors.md: how stale a reply may be (a time, not a size)",
    "confnotes.lsp.symbols.MAX_WORKSPACE_SYMBOLS": "the size of one workspace/symbol reply (an editor shows a page of them)",
    "confnotes.lsp.options.MIN_MAX_BYTES": "editors.md: maxBytes",
    "confnotes.edges.source.MAX_BYTES": "security.md, What confnotes reads (64 MB a note)",
    "confnotes.lint.engine.MAX_FIX_PASSES": "commands.md, lint --fix: at most 10 passes",
    "confnotes.names.MAX_NAME_CHARS": "commands.md, new: file names",
    "confnotes.names.MAX_NAME_BYTES": "commands.md, new: file names",
    "confnotes.schedule.notes.MAX_NAME_ROOM": "commands.md, new --schedule: file names",
    "confnotes.render.docx.MAX_PICTURE_INCHES": "a page's width, not a bound on work",
    "confnotes.render.inline.pictures.MAX_PAGE_IMAGE_BYTES": "security.md, What confnotes reads (pictures)",
    "confnotes.render.inline.pictures.MAX_IMAGE_BYTES": "security.md, What confnotes reads (pictures)",
    "confnotes.render.options.MAX_CSS_BYTES": "security.md, What confnotes reads (stylesheets)",
    "confnotes.slides.geometry.MIN_BODY": "a slide's layout, not a bound on work",
    "confnotes.render.deck.MAX_IMAGE_PIXELS": "security.md, Attacks tried (a decompression bomb PNG)",
    "confnotes.importers.noteapps.MAX_DATA_PICTURE": "import.md, Obsidian and Logseq Markdown (a page's picture limit)",
    "confnotes.importers.opml.MAX_DEPTH": "import.md, Outliners: deeper outlines kept as siblings",
    "confnotes.slides.limits.MAX_CODE_CHARS": "derived: max_code_lines times CODE_LINE_CHARS",
    "confnotes.slides.geometry.MIN_IMAGE": "a slide's layout, not a bound on work",
    "confnotes.markup.codesteps.MAX_STEPS": "slides.md, Code steps: a walk-through's steps, at most 50",
    "confnotes.markup.math.MAX_TEX": "security.md, Attacks tried (TeX in math)",
    "confnotes.markup.math.MAX_DEPTH": "security.md, Attacks tried (nested \\frac)",
    "confnotes.markup.math.MAX_LAYOUTS": "security.md, Attacks tried (nested \\frac)",
    "confnotes.markup.diagrams.MAX_SOURCE": "slides.md: diagrams",
    "confnotes.markup.citations.MAX_BIBLIOGRAPHY_BYTES": "security.md, Attacks tried (a BibTeX macro bomb)",
    "confnotes.markup.citations.MAX_EXPANDED_CHARS": "security.md, Attacks tried (a BibTeX macro bomb)",
    "confnotes.markup.citations.MAX_CITATIONS": "reading.md: citations",
    "confnotes.timing.durations.MAX_CLOCK_HOURS": "timing.md: a slot's length (not a size)",
    "confnotes.timing.talk.MIN_WPM": "timing.md: a speaking rate (not a size)",
    "confnotes.timing.talk.MAX_WPM": "timing.md: a speaking rate (not a size)",
    "confnotes.schedule.model.MAX_SCHEDULE_BYTES": "security.md, Attacks tried (schedule fields)",
    "confnotes.schedule.model.MAX_SESSIONS": "conference.md, Safe reading",
    "confnotes.schedule.model.MAX_MINUTES": "conference.md, Safe reading",
    "confnotes.schedule.model.MAX_ID": "conference.md, Safe reading",
    "confnotes.schedule.zones.MAX_ZONES": "security.md, Attacks tried (a calendar time-zone bomb)",
    "confnotes.schedule.zones.MAX_CHANGES": "security.md, Attacks tried (a calendar time-zone bomb)",
    "confnotes.build.manifest.MAX_MANIFEST_BYTES": "security.md, Attacks tried (forged caches)",
    "confnotes.parse.recover.MAX_HEADING_WORDS": "reading.md: a bare line as a heading (not a bound on work)",
    "confnotes.parse.glyphs.MAX_GLYPH_DEPTH": "the nesting limit, for glyph bullets",
    "confnotes.parse.markdown.MAX_NESTING": "derived from the nesting limit (markdown-it's token levels)",
}


def table() -> str:
    """The docs' table: a header and a row a limit."""
    rows = ["| Limit | Value | Where it applies | Guarded by |", "|---|---|---|---|"]
    rows += [f"| {limit.what} | {value_text(limit)} | {limit.where} | {limit.guarded_by} |" for limit in LIMITS]
    return "\n".join(rows)


def with_table(document: str) -> str:
    """``document`` (docs/security.md) with the table after ``MARKER`` written from ``LIMITS``."""
    head, _, rest = document.partition(MARKER)
    tail = rest.lstrip("\n").split("\n\n", 1)[1] if "\n\n" in rest.lstrip("\n") else ""
    return f"{head}{MARKER}\n{table()}\n\n{tail}"


if __name__ == "__main__":  # ``make docs``: rewrite the table in docs/security.md (the file named, or that one)
    import sys
    from pathlib import Path

    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/security.md")
    target.write_text(with_table(target.read_text(encoding="utf-8")), encoding="utf-8")
