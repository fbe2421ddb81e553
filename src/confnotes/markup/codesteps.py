"""Code walked through step by step: a fence's ``{2|4-5}`` (``{all|2}``, ``{1,3-4|6}``) names the
lines each step highlights, in turn, as reveal.js and Slidev write it. The HTML deck highlights the
first step as the slide arrives and each next one on the next key (``deck.js``); a deck printed
whole (slides PDF, PNG, handout) shows the last step.
"""

from __future__ import annotations

import re

#: The braces of an info string that name steps: groups of lines (``2``, ``4-5``, ``1,3``) or
#: ``all``, separated by ``|``
_GROUP = r"(?:all|\d+(?:\s*-\s*\d+)?(?:\s*,\s*\d+(?:\s*-\s*\d+)?)*)"
_STEPS = re.compile(rf"\{{\s*({_GROUP}(?:\s*\|\s*{_GROUP})+)\s*\}}")
#: More steps than this is no walk-through (a typo, or an attack on the deck's size)
MAX_STEPS = 50


def code_steps(info: str, lines: int) -> tuple[frozenset[int] | None, ...]:
    """The steps a code block's info string names, each the set of its lines (1-based) to
    highlight, None for ``all``; lines past the block's end are left out. Empty: no steps (a
    single group, ``{2}``, highlights no step: it is an attribute of its own)."""
    found = _STEPS.search(info or "")
    if found is None:
        return ()
    steps: list[frozenset[int] | None] = []
    for group in found.group(1).split("|")[:MAX_STEPS]:
        group = group.strip()
        if group == "all":
            steps.append(None)
            continue
        numbers: set[int] = set()
        for part in group.split(","):
            first, _, last = part.partition("-")
            start, stop = int(first), int(last or first)
            numbers.update(range(max(1, start), min(stop, lines) + 1))
        steps.append(frozenset(numbers))
    return tuple(steps)


_BRACED = re.compile(r"\{([^{}]*\|[^{}]*)\}")


def step_problem(attributes: str, lines: int) -> str | None:
    """Why a fence's steps (``{2|4-5}`` in its info string) will not all be walked through, in the
    words lint says it (CN114), or None: braces with a ``|`` that are no steps are ignored by every
    output, a step that names no line of the block highlights nothing."""
    braced = _BRACED.search(attributes or "")
    if braced is None:
        return None
    if _STEPS.search(attributes) is None:
        written = braced.group(1).strip()[:40]
        return f"code steps {{{written}}} cannot be read (write lines, ranges such as 4-5, or all, between |); no step is shown"
    groups = _STEPS.search(attributes).group(1).split("|")  # type: ignore[union-attr]
    if len(groups) > MAX_STEPS:
        return f"code steps: {len(groups)} steps, only the first {MAX_STEPS} are walked through"
    for number, step in enumerate(code_steps(attributes, lines), start=1):
        if step is not None and not step:
            size = f"{lines} line{'s' if lines != 1 else ''}"
            return f"code step {number} ({{{groups[number - 1].strip()}}}) names no line of the block ({size}); it highlights nothing"
    return None


def steps_on(info: str, first: int, count: int) -> tuple[frozenset[int] | None, ...]:
    """The steps of a block's piece on one slide: its lines ``first + 1`` to ``first + count`` (a
    block the deck splits keeps on each slide the steps of the lines it shows); empty when fewer
    than two are left, as there is nothing to walk through then."""
    piece = frozenset(range(first + 1, first + count + 1))
    steps = code_steps(info, first + count)
    kept = tuple(step if step is None else step & piece for step in steps if step is None or step & piece)
    return kept if len(kept) > 1 else ()
