"""CN113 unknown-rule: an inline confnotes-disable/enable comment names a rule that does not exist."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.lint.rules import lookup
from confnotes.lint.types import DIRECTIVE, LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A confnotes-disable or -enable comment names a rule that does not exist",
    rationale="A directive with a typo (CN999, bare_url) silences nothing, so the finding it was "
    "meant to quiet comes back and nobody knows why. Rules are named by id (CN204) or name (bare-url).",
    bad="<!-- confnotes-disable CN999 -->\n\n# Talk\n",
    good="<!-- confnotes-disable CN204 -->\n\n# Talk\n",
)

Options = NoOptions


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    for block in ctx.doc.directives:
        for match in DIRECTIVE.finditer(block.text):
            for name in (part for part in re.split(r"[\s,]+", match.group(2)) if part):
                if lookup(name) is None:
                    yield Report(block.span.start, 1, f"no rule '{name}' ('confnotes rules' lists them); this silences nothing")
