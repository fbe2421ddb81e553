"""CN211 unknown-callout: a callout (``> [!TYPE]``, ``::: {.callout-TYPE}``) of a type no output knows."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A callout names a type that GitHub, Obsidian and Quarto do not know ([!NOTES], callout-hint-box)",
    rationale="A callout of an unknown type is shown as a note in every output — without the colour "
    "and title its author meant, and GitHub shows it as a plain quote with `[!NOTES]` in it. The types: "
    "GitHub's NOTE, TIP, IMPORTANT, WARNING and CAUTION (Quarto's are the same five, as "
    "`callout-note` …), and Obsidian's abstract, info, todo, success, question, failure, danger, bug, "
    "example and quote with their aliases (summary, tldr, hint, check, done, help, faq, attention, "
    "fail, missing, error, cite).",
    bad="> [!WARN]\n> The demo needs the VPN.\n",
    good="> [!WARNING]\n> The demo needs the VPN.\n",
)

Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    from confnotes.errors import closest
    from confnotes.markup.callouts import KINDS
    from confnotes.model import Block, walk_content
    from confnotes.model.values import Callout

    names = sorted(alias for aliases in KINDS.values() for alias in aliases)
    for entry in walk_content(ctx.doc.content):
        if type(entry) is not Block or entry.kind not in ("quote", "div"):
            continue
        found = entry.value
        if type(found) is not Callout:
            continue
        if found.known:
            continue
        line = ctx.lines[entry.span.start - 1] if entry.span.start <= len(ctx.lines) else ""
        at = line.find(found.written)
        hint = closest(found.written.lower(), names)
        also = f"; did you mean '{hint.upper() if found.written.isupper() else hint}'?" if hint else ""
        yield Report(
            entry.span.start, at + 1 if at >= 0 else 1, f"callout type '{found.written}' is not one any output knows: shown as a note{also}"
        )
