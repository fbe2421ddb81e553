"""How long a talk runs: an estimate per slide and per section from the words that will be spoken.

A slide's spoken words are its speaker notes where it has them, otherwise what it shows (its
title and its text; code counts no words, as on the slides). Time = words at the speaking
rate plus a fixed allowance per slide (the pause as a slide changes and the audience reads).
Rows are the talk's parts (``Document.parts``: its top-level sections); the title, agenda and opening slides count toward
the first section, so the rows always add up to the total.

Budgets come from the note: front matter ``duration: 20min`` is the slot; a section's budget
is a ``<!-- time: 5min -->`` comment right under its heading, or front matter ``budgets:``
mapping section titles to durations. Every value is read by ``parse_duration``.

The package: ``durations`` (reading and printing minutes), ``front_matter`` (the slot and budgets a
note states, and writing them back), ``talk`` (the one talk plan) and ``rehearsal`` (a rehearsal
matched to the plan).
"""

from __future__ import annotations

from confnotes.parse.meta import front_matter_line
from confnotes.timing.durations import (
    MAX_CLOCK_HOURS,
    DurationError,
    agenda_label,
    budget_minutes,
    budget_value,
    format_minutes,
    parse_duration,
    spoken_minutes,
)
from confnotes.timing.front_matter import (
    BUDGET_COMMENT,
    as_written,
    budget_comment,
    budgets,
    slot_minutes,
    write_budgets,
    write_wpm,
)
from confnotes.timing.rehearsal import (
    MAX_REHEARSAL_BYTES,
    MAX_REHEARSAL_ENTRIES,
    MAX_REHEARSAL_SLIDES,
    REHEARSAL_FORMAT,
    Matched,
    Rehearsal,
    RehearsedSlide,
    compare,
    match,
    read_rehearsal,
    rehearsal_table,
    timed_sections,
)
from confnotes.timing.talk import (
    DEFAULT_SLIDE_SECONDS,
    DEFAULT_WPM,
    MAX_WPM,
    MIN_WPM,
    TYPICAL_WPM,
    SectionTime,
    SlideTime,
    TalkPlan,
    Timing,
    Tolerance,
    fitted_deck,
    plan,
    schedule,
    shared_plan,
    slot_verdict,
    spoken_words,
    table,
    talk_plan,
)

__all__ = [
    "BUDGET_COMMENT",
    "DEFAULT_SLIDE_SECONDS",
    "DEFAULT_WPM",
    "DurationError",
    "MAX_CLOCK_HOURS",
    "MAX_REHEARSAL_BYTES",
    "MAX_REHEARSAL_ENTRIES",
    "MAX_REHEARSAL_SLIDES",
    "MAX_WPM",
    "MIN_WPM",
    "Matched",
    "REHEARSAL_FORMAT",
    "Rehearsal",
    "RehearsedSlide",
    "SectionTime",
    "SlideTime",
    "TYPICAL_WPM",
    "TalkPlan",
    "Tolerance",
    "Timing",
    "agenda_label",
    "as_written",
    "budget_comment",
    "budget_minutes",
    "budget_value",
    "budgets",
    "compare",
    "fitted_deck",
    "format_minutes",
    "front_matter_line",
    "match",
    "parse_duration",
    "plan",
    "read_rehearsal",
    "rehearsal_table",
    "schedule",
    "shared_plan",
    "slot_minutes",
    "slot_verdict",
    "spoken_minutes",
    "spoken_words",
    "table",
    "talk_plan",
    "timed_sections",
    "write_budgets",
    "write_wpm",
]
