"""CN209 bad-math: TeX that cannot be typeset, ``$\\frac{a}{$``: every output shows it as code."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A formula's TeX cannot be typeset ($\\frac{a}{$): it is shown as code",
    rationale="confnotes typesets `$…$` and `$$…$$` in the page, the PDFs, the decks and PPTX. TeX "
    "it cannot read (a missing brace, a `\\left` without `\\right`, a `^` with nothing after it) is "
    "shown as its source, in code, in every output, and each render warns; this rule says so in "
    "the editor, where the typo is. The message names what is missing.",
    bad="- Loss: $\\frac{1}{N \\sum_i \\ell_i$\n",
    good="- Loss: $\\frac{1}{N} \\sum_i \\ell_i$\n",
)

Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    if "$" not in ctx.text:
        return
    from confnotes.markup.footnotes import blank_code_spans  # (code spans' dollars are code)
    from confnotes.markup.math import MathError, math_pieces, mathml
    from confnotes.model import Block, walk_content
    from confnotes.model.values import Math

    formulas = {e.span.start: e.value.tex for e in walk_content(ctx.doc.content) if type(e) is Block and type(e.value) is Math}
    for kind, text, line, col in ctx.texts:
        if kind == "code" or "$" not in text:
            continue
        if kind == "math":
            found = [(0, text, formulas.get(line, ""), True)]
        else:
            blanked = blank_code_spans(text)
            found = []
            offset = 0
            for math, piece in math_pieces(blanked):
                if math:
                    display = piece.startswith("$$") and len(piece) > 3
                    found.append((offset, piece, piece[2:-2] if display else piece[1:-1], display))
                offset += len(piece)
        for offset, piece, tex, display in found:
            try:
                mathml(tex.strip(), display)
            except MathError as exc:
                before = text[:offset]
                at_line = line + before.count("\n")
                at_col = (offset - before.rfind("\n")) if "\n" in before else col + offset
                shown = " ".join(piece.split())
                shown = shown if len(shown) <= 40 else shown[:37] + "…"
                yield Report(at_line, at_col, f"math `{shown}` cannot be typeset: {exc}")
