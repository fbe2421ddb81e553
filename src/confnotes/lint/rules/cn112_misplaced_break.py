"""CN112 misplaced-break: a --- in the middle of a section's text, where it separates nothing."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta
from confnotes.model import UNPRINTED, Block, Entry, Node

META = RuleMeta.of(
    __name__,
    summary="A --- break sits in the middle of a section instead of between sections",
    rationale="confnotes reads `---` as the boundary between sections. In the middle of a section's "
    "text it splits nothing and renders as a stray rule; a heading or a new section says what was "
    "meant. A `---` under the title (before the first section) or at the end of a section, right "
    "before the next heading, is how notes separate talks and parts, and is fine.",
    bad="## Results\n\nFirst part.\n\n---\n\nSecond part.\n",
    good="## Results\n\nFirst part.\n\n---\n\n## Follow-up\n\nSecond part.\n",
)


Options = NoOptions

#: What may stand between a closing break and the next heading: more breaks, comments, speaker notes.
_QUIET = UNPRINTED | {"break"}


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    # the lede (under the title, before the first section) is not a section: a break there is the
    # author's separator between the title and the notes, or between talks in a note without headings
    for node, _ in ctx.walked:
        content = node.content
        for index, entry in enumerate(content):
            if type(entry) is not Block or entry.kind != "break":
                continue
            if node.is_section and _closes_section(content[index + 1 :]):
                continue
            yield Report(entry.span.start, 1, "'---' in the middle of a section does not separate sections")


def _closes_section(after: tuple[Entry, ...]) -> bool:
    """Whether a break is the last thing of a section's text: only breaks, comments and speaker notes
    follow it before its first sub-section or the next heading."""
    for entry in after:
        if type(entry) is Node:
            return True
        if type(entry) is not Block or entry.kind not in _QUIET:
            return False
    return True
