"""The rule catalogue: an explicit, ordered registry (ids are never reused)."""

from __future__ import annotations

from types import ModuleType

from confnotes.lint.rules import (
    cn101_no_title,
    cn102_heading_skip,
    cn103_duplicate_heading,
    cn104_empty_section,
    cn105_numbering,
    cn106_mixed_markers,
    cn107_inconsistent_indent,
    cn108_deep_nesting,
    cn109_lone_subpoint,
    cn110_pasted_structure,
    cn111_stray_filename,
    cn112_misplaced_break,
    cn113_unknown_rule,
    cn201_long_item,
    cn202_heading_punctuation,
    cn203_empty_item,
    cn204_bare_url,
    cn205_broken_link,
    cn206_unbalanced_emphasis,
    cn207_empty_link,
    cn208_missing_alt_text,
    cn301_too_many_items,
    cn302_dense_slide,
    cn303_long_title,
    cn304_over_time,
    cn305_under_time,
    cn306_slide_overflow,
    cn401_duplicate_entry,
)

REGISTRY: tuple[ModuleType, ...] = (
    cn101_no_title,
    cn102_heading_skip,
    cn103_duplicate_heading,
    cn104_empty_section,
    cn105_numbering,
    cn106_mixed_markers,
    cn107_inconsistent_indent,
    cn108_deep_nesting,
    cn109_lone_subpoint,
    cn110_pasted_structure,
    cn111_stray_filename,
    cn112_misplaced_break,
    cn113_unknown_rule,
    cn201_long_item,
    cn202_heading_punctuation,
    cn203_empty_item,
    cn204_bare_url,
    cn205_broken_link,
    cn206_unbalanced_emphasis,
    cn207_empty_link,
    cn208_missing_alt_text,
    cn301_too_many_items,
    cn302_dense_slide,
    cn303_long_title,
    cn304_over_time,
    cn305_under_time,
    cn306_slide_overflow,
    cn401_duplicate_entry,
)

BY_ID = {rule.META.id: rule for rule in REGISTRY}
BY_NAME = {rule.META.name: rule for rule in REGISTRY}


def lookup(key: str) -> ModuleType | None:
    return BY_ID.get(key.upper()) or BY_NAME.get(key.lower())
