"""CN114 slide-directive: a ``<!-- slide … -->`` comment with a word or value the decks do not know."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    tags=("slides",),
    summary="A <!-- slide … --> directive has a word or value the decks do not know",
    rationale="A slide directive the decks cannot read is left out silently in every deck: a "
    "misspelt `backgroud:` or `hidden` leaves the slide as it was, which is found only on stage. "
    "The message names what is allowed: `class:` with CSS class names, `background:` with a colour "
    "or an image file, and `hide`.",
    bad="## Results\n\n<!-- slide backgroud: #0b1f3a; hidden -->\n\n- p99 down 40%\n",
    good="## Results\n\n<!-- slide background: #0b1f3a -->\n\n- p99 down 40%\n",
)

Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    from confnotes.model import Block, walk_content
    from confnotes.slides.directives import read

    for entry in walk_content(ctx.doc.content):
        if type(entry) is Block and entry.kind == "comment" and entry.info == "slide":
            for problem in read(entry.text).problems:
                yield Report(entry.span.start, 1, problem)
