"""CN110 pasted-structure: structure was recovered from pasted plain text."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import Edit, Fix, LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    fixable=True,
    summary="Structure was recovered from pasted text (• bullets, bare-line headings)",
    rationale="confnotes reads notes pasted from chat, Docs or Word, but other Markdown tools do "
    "not: on GitHub or in an editor's preview they show as one run of text. Writing them back as "
    "Markdown makes them portable.",
    bad="Key Challenges\n\n1. Training\n\n   • Checkpointing limits: …\n",
    good="## Key Challenges\n\n1. Training\n   - Checkpointing limits: …\n",
    fix_note="Rewrites the note as Markdown: bare-line headings become headings, pasted bullets lists, recovered meta "
    "front matter, as `confnotes import` does (safe: the outline is checked to be unchanged). `confnotes fmt` only tidies.",
)

_DESCRIBE = {
    "glyph-bullets": "• bullets",
    "inferred-headings": "bare-line headings",
    "breaks": "--- breaks",
    "inferred-title": "a bare-line title",
    "lede-title": "a title inside the lede",
    "filename-line": "a file-name line",
    "bold-points": "**1. …** numbered lines",
    "front-matter-text": "a --- block that is text, not YAML front matter",
}
_REPORTED = ("glyph-bullets", "inferred-headings", "inferred-title", "bold-points", "front-matter-text")


Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    doc = ctx.doc
    kinds = [name for name in doc.recovered if name in _REPORTED]
    if not kinds:
        return
    # bold points are pasted structure; bold sub-headings (**Q&A**) are the author's Markdown
    pasted = (node for node, _ in ctx.walked if node.origin in ("glyph", "inferred") or (node.origin == "bold" and not node.is_section))
    first = next(pasted, None)
    line, col = (first.span.start, first.col) if first and "front-matter-text" not in kinds else (1, 1)
    if doc.meta.title_origin == "inferred" and doc.meta.title_span is not None:
        line, col = min((line, col), (doc.meta.title_span.start, 1))
    title = "rewrite as Markdown (headings, lists, front matter)"
    fix: Fix | None = Fix(title, ())  # formatting is costly: only done when fixes are applied
    if ctx.fix:
        from confnotes.errors import NotesError
        from confnotes.fmt import format_markdown

        try:
            formatted = format_markdown(doc, ctx.parse, convert=True)
        except NotesError:  # fmt refuses notes it cannot round-trip; then there is no fix
            formatted = ctx.text
        fix = Fix(title, (Edit(0, len(ctx.text), formatted),)) if formatted != ctx.text else None
    described = ", ".join(_DESCRIBE[name] for name in kinds)
    yield Report(line, col, f"structure recovered from pasted text ({described}); 'confnotes lint --fix' writes it as Markdown", fix)
