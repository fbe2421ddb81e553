"""CN114 slide-directive: a ``<!-- slide … -->`` comment with a word or value the decks do not know,
or a layout its slide cannot use, or a fenced div (``:::: columns``, ``::: column``,
``::: incremental``) that pairs with nothing, or a fence's code steps (``{2|4-5}``) that name no line."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A <!-- slide … --> directive has a word or value the decks do not know or a layout its slide cannot use, "
    "a ::: fence pairs with nothing, or a fence's code steps {2|4-5} name no line",
    rationale="A slide directive the decks cannot read is left out silently in every deck: a "
    "misspelt `backgroud:` or `hidden` leaves the slide as it was, which is found only on stage. "
    "The message names what is allowed: `layout:` with one of the layouts, `class:` with CSS class "
    "names, `background:` with a colour or an image file, `notes: presenter`, `hide` and "
    "`incremental`. A `:::: columns`, `::: column` or `::: incremental` fence that no `:::` closes "
    "(or a `:::` that closes nothing, or a column outside `:::: columns`, or a heading inside a "
    "column) is shown as text in every output, the columns lost. A layout the slide cannot use "
    "(`image-left` with no image on the slide, `quote` with no quote) is dropped in every deck. "
    "Code steps on a fence (`{2|4-5|all}`) that cannot be read are ignored by every deck, and a step "
    "that names no line of the block (`{0}`, `{5-2}`, a line past its end) highlights nothing.",
    bad="## Results\n\n<!-- slide backgroud: #0b1f3a; hidden -->\n\n- p99 down 40%\n",
    good="## Results\n\n<!-- slide background: #0b1f3a -->\n\n- p99 down 40%\n",
)

Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    from confnotes.model import Block, walk_content
    from confnotes.model.values import Code, Directives

    laid_out = False
    for entry in walk_content(ctx.doc.content):
        if type(entry) is not Block:
            continue
        if type(entry.value) is Directives:
            directed = entry.value
            laid_out = laid_out or bool(directed.layout)
            for problem in directed.problems:
                yield Report(entry.span.start, 1, problem)
        elif entry.kind == "div" and not entry.info:
            yield Report(entry.span.start, 1, _unpaired(entry.text))
        elif type(entry.value) is Code and "|" in entry.value.attributes:
            from confnotes.markup.codesteps import step_problem

            if (found := step_problem(entry.value.attributes, len(entry.value.lines))) is not None:
                yield Report(entry.span.start, 1, found)
    if laid_out:  # a layout the slide cannot use (image-left with no image): the decks drop it
        yield from _unusable(ctx)


def _unusable(ctx: LintContext) -> Iterator[Report]:
    from confnotes.slides.layouts import problem

    for slide in ctx.decks.base():
        if slide.layout and (found := problem(slide)) is not None:
            yield Report(slide.line or 1, 1, found)


def _unpaired(text: str) -> str:
    fence = text.strip()[:40]
    if fence.rstrip(":") == "":
        return f"'{fence}' closes no whole div (the div it closes is never closed itself, or none is open); shown as text"
    if "column" in fence and "columns" not in fence:
        return f"'{fence}' stands outside a ':::: columns' div, or is never closed by ':::'; shown as text"
    return f"'{fence}' is never closed by ':::' in its section (a heading ends it); shown as text"
