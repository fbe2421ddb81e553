"""CN111 stray-filename: a lone file-name line in the notes."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import Edit, Fix, LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    fixable=True,
    summary="A lone file-name line (scale2025.md) sits in the notes",
    rationale="A file name pasted along with the notes ends up printed in the handout and on a "
    "slide. confnotes keeps it as the note's source name; front matter is where that belongs.",
    bad="Notes from the meetup:\n\nmeetup.md\n\n## Storage\n",
    good='---\nsource_name: "meetup.md"\n---\n\nNotes from the meetup:\n\n## Storage\n',
    fix_note="Moves the line into front matter as `source_name` (safe).",
)


Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    meta = ctx.doc.meta
    span = meta.source_name_span
    if span is None or meta.source_name is None:
        return
    start, end = ctx.line_span(span.start)
    # swallow one blank line after the name so no double gap is left behind
    if end < len(ctx.text) and ctx.text[end] == "\n":
        end += 1
    import json

    entry = f"source_name: {json.dumps(meta.source_name, ensure_ascii=False)}\n"
    if meta.front_matter_span is not None:
        close_start, _ = ctx.line_span(meta.front_matter_span.end)
        edits = (Edit(close_start, close_start, entry), Edit(start, end, ""))
    else:
        edits = (Edit(0, 0, f"---\n{entry}---\n\n"), Edit(start, end, ""))
    yield Report(
        span.start,
        1,
        f"stray file-name line '{meta.source_name}'; move it to front matter",
        Fix("move the file name into front matter", edits),
    )
