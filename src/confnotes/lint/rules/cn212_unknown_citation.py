"""CN212 unknown-citation: ``[@key]`` that the note's bibliography lacks, or a bibliography that cannot be read."""

from __future__ import annotations

from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A citation names a key the bibliography lacks, or the bibliography (or its CSL style) cannot be read",
    rationale="A citation whose key is not in the bibliography prints as `[@key]` in every output and "
    "is missing from the References, usually a typo in the key or an entry not yet added. A "
    "bibliography that cannot be read (missing, outside the note's folder, broken BibTeX) leaves every "
    "citation of the note unformatted.",
    bad="---\nbibliography: refs.bib\n---\n\n# Reading group\n\n- Clocks order events [@lamport1987]\n",
    good="---\nbibliography: refs.bib\n---\n\n# Reading group\n\n- Clocks order events [@lamport1978]\n",
)

Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    if not ctx.doc.meta.extra.get("bibliography"):
        return
    from confnotes.edges.source import note_folder
    from confnotes.markup.citations import bibliography, groups

    found = bibliography(ctx.doc, note_folder(ctx.doc.path))
    if found is None:
        return
    from confnotes.parse.meta import front_matter_line

    at = front_matter_line(ctx.doc, "bibliography") or 1
    for problem in found.problems:
        yield Report(at, 1, problem)
    if found.engine is None:
        return
    for kind, text, line, col in ctx.texts:
        if kind in ("code", "math") or "@" not in text:
            continue
        for number, part in enumerate(text.split("\n")):
            for match, items in groups(part):
                for item in items:
                    if item.key.lower() not in found.keys:
                        source = ctx.lines[line + number - 1] if line + number <= len(ctx.lines) else ""
                        where = source.find("@" + item.key)
                        yield Report(
                            line + number,
                            where + 1 if where >= 0 else col + match.start(),
                            f"citation @{item.key} is not in the bibliography",
                        )
