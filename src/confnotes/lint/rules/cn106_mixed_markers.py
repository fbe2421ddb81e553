"""CN106 mixed-markers: sibling bullets use different markers."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import Edit, Fix, LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    fixable=True,
    summary="Sibling bullets use different markers (- and *)",
    rationale="In Markdown a change of bullet marker ends one list and starts another, so bullets "
    "that look like one list render as two, with a gap between them. One marker per list keeps them together.",
    bad="- Alpha\n* Beta\n",
    good="- Alpha\n- Beta\n",
    fix_note="Rewrites the markers to the first sibling's marker (safe).",
)

MARKDOWN_MARKERS = "-*+"


Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    lines = ctx.lines
    for _, children in ctx.parents:
        bullets = [n for n in children if n.is_bullet and n.origin == "list" and n.marker in tuple(MARKDOWN_MARKERS)]
        if len({n.marker for n in bullets}) < 2:
            continue
        want = bullets[0].marker or "-"
        edits = []
        for node in bullets:
            if node.marker != want and lines[node.span.start - 1][node.col - 1 : node.col] == node.marker:
                start = ctx.offset(node.span.start, node.col)
                edits.append(Edit(start, start + 1, want))
        odd = next(n for n in bullets if n.marker != want)
        yield Report(
            odd.span.start,
            odd.col,
            f"bullet marker '{odd.marker}' differs from its siblings' '{want}'",
            Fix(f"use '{want}' for every sibling bullet", tuple(edits)) if edits else None,
        )
