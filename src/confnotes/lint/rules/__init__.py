"""The rule catalogue: one static table of every rule's identity and when it runs.

Selecting rules (config, ``--select``, profiles, inline directives) needs only this table;
a rule's module (its documentation, options and check) is imported when the rule runs, so
``confnotes lint`` on a note that is not a talk never loads the slide and timing code.
Ids are never reused. A rule module's ``META`` takes its identity from its row here.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from types import ModuleType
from typing import NamedTuple


class Entry(NamedTuple):
    """What the engine needs to know of a rule before it loads it."""

    id: str
    name: str
    module: str  # confnotes.lint.rules.<module>
    severity: str  # default severity: info, warning or error
    default: bool = True  # on unless turned off; False: opt-in, runs only when named
    profile: str = "notes"  # "notes": every note; "talk": notes meant as a talk (slide advice)
    project: bool = False  # checks the notes of a run together (facts per note, then one check)


CATALOGUE: tuple[Entry, ...] = (
    Entry("CN101", "no-title", "cn101_no_title", "warning"),
    Entry("CN102", "heading-skip", "cn102_heading_skip", "warning"),
    Entry("CN103", "duplicate-heading", "cn103_duplicate_heading", "warning"),
    Entry("CN104", "empty-section", "cn104_empty_section", "warning"),
    Entry("CN105", "numbering", "cn105_numbering", "warning"),
    Entry("CN106", "mixed-markers", "cn106_mixed_markers", "warning"),
    Entry("CN107", "inconsistent-indent", "cn107_inconsistent_indent", "warning"),
    Entry("CN108", "deep-nesting", "cn108_deep_nesting", "warning"),
    Entry("CN109", "lone-subpoint", "cn109_lone_subpoint", "info", default=False),
    Entry("CN110", "pasted-structure", "cn110_pasted_structure", "info"),
    Entry("CN111", "stray-filename", "cn111_stray_filename", "warning"),
    Entry("CN112", "misplaced-break", "cn112_misplaced_break", "warning"),
    Entry("CN113", "unknown-rule", "cn113_unknown_rule", "warning"),
    Entry("CN201", "long-item", "cn201_long_item", "warning"),
    Entry("CN202", "heading-punctuation", "cn202_heading_punctuation", "warning"),
    Entry("CN203", "empty-item", "cn203_empty_item", "warning"),
    Entry("CN204", "bare-url", "cn204_bare_url", "warning", default=False),
    Entry("CN205", "broken-link", "cn205_broken_link", "error"),
    Entry("CN206", "unbalanced-emphasis", "cn206_unbalanced_emphasis", "warning"),
    Entry("CN207", "empty-link", "cn207_empty_link", "warning"),
    Entry("CN208", "missing-alt-text", "cn208_missing_alt_text", "error"),
    Entry("CN301", "too-many-items", "cn301_too_many_items", "warning", profile="talk"),
    Entry("CN302", "dense-slide", "cn302_dense_slide", "warning", profile="talk"),
    Entry("CN303", "long-title", "cn303_long_title", "warning", profile="talk"),
    Entry("CN304", "over-time", "cn304_over_time", "warning", profile="talk"),
    Entry("CN305", "under-time", "cn305_under_time", "info", profile="talk"),
    Entry("CN306", "slide-overflow", "cn306_slide_overflow", "info", profile="talk"),
    Entry("CN401", "duplicate-entry", "cn401_duplicate_entry", "warning", project=True),
)

BY_ID = {entry.id: entry for entry in CATALOGUE}
BY_NAME = {entry.name: entry for entry in CATALOGUE}
BY_MODULE = {entry.module: entry for entry in CATALOGUE}


def lookup(key: str) -> Entry | None:
    """The rule for an id (``CN104``, any case) or a name (``empty-section``), else None."""
    return BY_ID.get(key.upper()) or BY_NAME.get(key.lower())


@cache
def load(rule_id: str) -> ModuleType:
    """The module of a rule (imported on first use)."""
    return import_module(f"{__name__}.{BY_ID[rule_id].module}")


def modules() -> tuple[ModuleType, ...]:
    """Every rule's module, in catalogue order (for listings, docs and SARIF)."""
    return tuple(load(entry.id) for entry in CATALOGUE)
