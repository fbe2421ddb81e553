"""CN115 unclosed-fence: a code fence that never closes, so the rest of the note is code."""

from __future__ import annotations

import re
from collections.abc import Iterator

from confnotes.lint.types import LintContext, NoOptions, Report, RuleMeta

META = RuleMeta.of(
    __name__,
    summary="A code fence (``` or ~~~) never closes: everything after it is code",
    rationale="Markdown runs an unclosed fence to the end of the note (or of the list item or quote "
    "it stands in): the headings, lists and text after it are shown as code in every output, "
    "and the outline loses them as structure. The usual cause is a closing fence typed with "
    "fewer backticks than the opening one, or with text after it.",
    bad="## Setup\n\n```bash\nkubectl apply -f deploy.yaml\n\n## Results\n\n- p99 fell to 240 ms\n",
    good="## Setup\n\n```bash\nkubectl apply -f deploy.yaml\n```\n\n## Results\n\n- p99 fell to 240 ms\n",
)

Options = NoOptions

_OPENER = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def check(ctx: LintContext, _options: Options) -> Iterator[Report]:
    from confnotes.model import Block, walk_content

    for entry in walk_content(ctx.doc.content):
        if type(entry) is not Block or entry.kind != "code":
            continue
        lines = entry.text.split("\n")
        opened = _OPENER.match(lines[0])
        if opened is None:
            continue  # an indented code block has no fence
        fence = opened.group(1)
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        if len(lines) > 1 and closing.match(lines[-1].rstrip("\r")):
            continue
        rest = len(lines) - 1
        yield Report(
            entry.span.start,
            len(lines[0]) - len(lines[0].lstrip()) + 1,
            f"code fence {fence} never closes: the {rest:,} line{'s' if rest != 1 else ''} after it "
            f"{'are' if rest != 1 else 'is'} code (close it with {fence})",
        )
