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


def _literal_markers(text: str) -> tuple[str, int] | None:
    """The first marker ``text`` prints literally, and where in ``text`` it stands."""
    from confnotes.parse.markdown import inline_parser

    searched = 0  # text tokens come in order: each is looked for past the one before
    for token in inline_parser().parseInline(text):
        for child in token.children or []:
            if child.type != "text":
                continue
            at = text.find(child.content, searched)
            searched = max(searched, at) if at >= 0 else searched
            for marker in ("**", "__"):
                if marker in child.content:
                    return marker, (at + child.content.index(marker) if at >= 0 else 0)
    return None


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    if "**" not in ctx.text and "__" not in ctx.text:
        return
    for kind, text, line, col in ctx.texts:
        if kind not in ("title", "paragraph") or ("**" not in text and "__" not in text):
            continue
        found = _literal_markers(text)
        if found is not None:
            marker, index = found
            before = text[:index]
            row = before.count("\n")
            in_line = index - (before.rfind("\n") + 1)
            if row == 0:
                at = col + in_line
            else:  # a later line of the text: where that line stands in the source (past its indentation)
                written = text.split("\n")[row]
                source = ctx.lines[line + row - 1] if line + row <= len(ctx.lines) else written
                at = max(source.find(written), 0) + 1 + in_line
            yield Report(line + row, at, f"unclosed '{marker}' emphasis")
