"""CN101 no-title: the note has no title of its own."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="The note has no title; its file name is used instead",
    rationale="Documents, decks and the site index show the title first. A file name such as "
    "`talk-03` makes a poor title on a handout, so give the note a `title:` in front matter or a "
    "single `#` heading.",
    bad="## Opening\n\n- Welcome\n\n## Closing\n\n- Thanks\n",
    good="# Platform Day 2026\n\n## Opening\n\n- Welcome\n",
)


Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    if ctx.doc.meta.title_origin == "stem":
        yield Report(1, 1, f"no title; the file name '{ctx.doc.meta.title}' is used (add a '# Title' or front matter title)")
