"""CN210 dangling-footnote: ``[^id]`` with no ``[^id]: …`` definition, or a definition nothing cites."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A footnote is cited but never defined ([^1] without [^1]: …), or defined but never cited",
    rationale="A call with no definition prints as `[^1]` in every output, and a definition that "
    "nothing cites has no number in the text to lead a reader to it: the page lists it at its end, "
    "and no slide shows it. Both are usually a typo in the id.",
    bad="- Failover took 11 s[^partiton]\n\n[^partition]: Median of 20 runs.\n",
    good="- Failover took 11 s[^partition]\n\n[^partition]: Median of 20 runs.\n",
)

Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    if "[^" not in ctx.text:
        return
    from confnotes.markup.footnotes import references

    defined = {text.split("]", 1)[0].removeprefix("[^").strip(): line for _, text, line, _ in _definitions(ctx)}
    cited: set[str] = set()
    for kind, text, line, col in ctx.texts:
        if kind in ("code", "footnote") or "[^" not in text:
            continue
        for number, part in enumerate(text.split("\n")):
            for label in references(part):
                cited.add(label)
                if label not in defined:
                    source = ctx.lines[line + number - 1] if line + number <= len(ctx.lines) else ""
                    at = source.find(f"[^{label}]")
                    yield Report(line + number, at + 1 if at >= 0 else col, f"footnote [^{label}] is cited but never defined")
    for _, text, line, _ in _definitions(ctx):
        label = text.split("]", 1)[0].removeprefix("[^").strip()
        if label not in cited:
            source = ctx.lines[line - 1] if line <= len(ctx.lines) else ""
            yield Report(line, source.find("[^") + 1 or 1, f"footnote [^{label}] is defined but nothing cites it")


def _definitions(ctx: LintContext) -> list[tuple[str, str, int, int]]:
    return [entry for entry in ctx.texts if entry[0] == "footnote"]
