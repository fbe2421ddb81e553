"""CN206 unbalanced-emphasis: ** or __ without its partner."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="Emphasis markers (** or __) are not closed",
    rationale="An unclosed `**` prints literally in every output, usually because a paste lost half of a bold phrase.",
    bad="- **Reliability: atomic task orchestration\n",
    good="- **Reliability**: atomic task orchestration\n",
)


Options = NoOptions


def _literal_markers(text: str) -> str | None:
    from confnotes.parse.markdown import inline_parser

    for token in inline_parser().parseInline(text):
        for child in token.children or []:
            if child.type == "text":
                for marker in ("**", "__"):
                    if marker in child.content:
                        return marker
    return None


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    if "**" not in ctx.text and "__" not in ctx.text:
        return
    for kind, text, line, col in ctx.texts:
        if kind not in ("title", "paragraph") or ("**" not in text and "__" not in text):
            continue
        marker = _literal_markers(text)
        if marker is not None:
            yield Report(line, col, f"unclosed '{marker}' emphasis")
