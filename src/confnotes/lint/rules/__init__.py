"""The rule catalogue: one static table of every rule's identity and when it runs.

Selecting rules (config, ``--select``, profiles, inline directives) needs only this table;
a rule's module (its documentation, options and check) is imported when the rule runs, so
``confnotes lint`` on a note that is not a talk never loads the slide and timing code.
Ids are never reused. A rule module's ``META`` takes its identity from its row here.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from confnotes.lint.types import NoteRule, ProjectRule, Rule


class Entry(NamedTuple):
    """What the engine needs to know of a rule before it loads it."""

    id: str
    name: str
    severity: str  # default severity: info, warning or error
    default: bool = True  # on unless turned off; False: opt-in, runs only when named
    profile: str = "notes"  # "notes": every note; "talk": notes meant as a talk (slide advice)
    project: bool = False  # checks the notes of a run together (facts per note, then one check)
    #: text every note it can report on holds ("$" for math; several: one of them): for other notes
    #: the rule is not even imported (most notes have no formulas, no footnotes, no images)
    needs: str | tuple[str, ...] = ""
    #: the classes the rule belongs to (``structure``, ``links``…): the editor switches findings by them
    tags: tuple[str, ...] = ()

    def may_report(self, text: str) -> bool:
        """Whether a note of ``text`` holds what the rule needs to report anything."""
        needs = self.needs
        return needs in text if type(needs) is str else any(need in text for need in needs)

    @property
    def module(self) -> str:
        """The rule's module in this package: ``cn104_empty_section`` for CN104 empty-section."""
        return f"{self.id.lower()}_{self.name.replace('-', '_')}"


CATALOGUE: tuple[Entry, ...] = (
    Entry("CN101", "no-title", "warning", tags=("structure",)),
    Entry("CN102", "heading-skip", "warning", tags=("structure",)),
    Entry("CN103", "duplicate-heading", "warning", tags=("structure",)),
    Entry("CN104", "empty-section", "warning", tags=("structure",)),
    Entry("CN105", "numbering", "warning", tags=("structure",)),
    Entry("CN106", "mixed-markers", "warning", tags=("structure",)),
    Entry("CN107", "inconsistent-indent", "warning", tags=("structure",)),
    Entry("CN108", "deep-nesting", "warning", tags=("structure",)),
    Entry("CN109", "lone-subpoint", "info", default=False, tags=("structure",)),
    Entry("CN110", "pasted-structure", "info", tags=("structure", "pasted")),
    Entry("CN111", "stray-filename", "warning", tags=("structure", "pasted")),
    Entry("CN112", "misplaced-break", "warning", tags=("structure",)),
    Entry("CN113", "unknown-rule", "warning", tags=("config",)),
    Entry("CN114", "slide-directive", "warning", needs=("<!--", ":::", "|"), tags=("slides",)),
    Entry("CN115", "unclosed-fence", "warning", needs=("```", "~~~"), tags=("structure",)),
    Entry("CN201", "long-item", "warning", profile="talk", tags=("text",)),
    Entry("CN202", "heading-punctuation", "warning", tags=("text",)),
    Entry("CN203", "empty-item", "warning", tags=("text",)),
    Entry("CN204", "bare-url", "warning", default=False, tags=("text",)),
    Entry("CN205", "broken-link", "error", tags=("text",)),
    Entry("CN206", "unbalanced-emphasis", "warning", tags=("text",)),
    Entry("CN207", "empty-link", "warning", needs=("](", "]:"), tags=("links",)),
    Entry("CN208", "missing-alt-text", "error", needs=("![", "<img", "<IMG", "<Img"), tags=("links", "accessibility")),
    Entry("CN209", "bad-math", "warning", needs="$", tags=("math",)),
    Entry("CN210", "dangling-footnote", "warning", needs="[^", tags=("footnotes",)),
    Entry("CN211", "unknown-callout", "warning", needs=("[!", "callout-"), tags=("text",)),
    Entry("CN212", "unknown-citation", "warning", needs="bibliography", tags=("links",)),
    Entry("CN301", "too-many-items", "warning", profile="talk", tags=("slides",)),
    Entry("CN302", "dense-slide", "warning", profile="talk", tags=("slides",)),
    Entry("CN303", "long-title", "warning", profile="talk", tags=("slides",)),
    Entry("CN304", "over-time", "warning", profile="talk", tags=("talk",)),
    Entry("CN305", "under-time", "info", profile="talk", tags=("talk",)),
    Entry("CN306", "slide-overflow", "info", profile="talk", tags=("slides",)),
    Entry("CN401", "duplicate-entry", "warning", project=True, tags=("project",)),
)

BY_ID = {entry.id: entry for entry in CATALOGUE}
BY_NAME = {entry.name: entry for entry in CATALOGUE}
BY_MODULE = {entry.module: entry for entry in CATALOGUE}
#: every rule tag, in catalogue order: the one list of the classes of findings
TAGS: tuple[str, ...] = tuple(dict.fromkeys(tag for entry in CATALOGUE for tag in entry.tags))


def lookup(key: str) -> Entry | None:
    """The rule for an id (``CN104``, any case) or a name (``empty-section``), else None."""
    return BY_ID.get(key.upper()) or BY_NAME.get(key.lower())


@cache
def load(rule_id: str) -> Any:
    """The module of a rule (imported on first use): a ``NoteRule``, or a ``ProjectRule`` for
    the rules the catalogue marks ``project`` (``load_note_rule`` and ``load_project_rule`` say which)."""
    return import_module(f"{__name__}.{BY_ID[rule_id].module}")


def load_note_rule(rule_id: str) -> NoteRule:
    rule: NoteRule = load(rule_id)
    return rule


def load_project_rule(rule_id: str) -> ProjectRule:
    rule: ProjectRule = load(rule_id)
    return rule


def modules() -> tuple[Rule, ...]:
    """Every rule's module, in catalogue order (for listings, docs and SARIF)."""
    return tuple(load(entry.id) for entry in CATALOGUE)
