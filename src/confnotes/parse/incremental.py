"""Reading a note again after an edit: markdown-it's tokens of the blocks the edit cannot have changed are kept
(docs/design.md, "Incremental analysis").

The editor re-reads a note at every pause in typing; markdown-it's block parse is over half of that
reading. A note the language server has open is *tracked* (``track``): its last token stream is kept,
and the next text is compared with the last one line by line. Markdown-it reads top-level blocks
left to right, and a block's tokens depend only on the lines from where it starts to what its rules
looked at, so:

- the blocks before the edit are kept when every line their rules may have looked at is unchanged.
  A block's rules look at its own lines, at the line after it (to end a paragraph or a list) and,
  for a ``$$`` line that never closes, on to the next blank line: a block is kept when the first
  blank line at or after its end, and the line after that, stand before the edit. The last such
  block is read again all the same, from its first line (where a block starts is known exactly;
  where markdown-it went on after one is not always its last line: a ``:::`` container's close);
- from there a *window* of the new text is parsed, ending just after a blank line (no rule's search
  runs past one, and an unclosed fence or comment runs to the window's end, so it cannot seem closed);
- as soon as the window starts a top-level block where an old block started in the unchanged tail
  of the note, the old tokens from there on are the new ones (their lines moved by the lines the
  edit added or removed). When no such block is found, the window grows, at most to the end.

The result is the token stream a full parse makes (``tests/test_incremental_parse.py`` checks it
after every edit of random edit scripts, and the language server's findings against ``lint``'s).
A text whose fenced-div rule differs from the last one's (a ``:::`` typed or removed), an edit in
the note's first two blocks (its front matter, its title), or a first line of dashes that opened no
front matter (the front-matter rule looks for its close to the end), is parsed whole. Nothing is kept for notes that are
not tracked: the command line parses each note once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from confnotes.parse.markdown import markdown_parser, window_parser

if TYPE_CHECKING:
    from confnotes.model import Node
    from confnotes.parse.reuse import Memo

#: the notes kept at once (an editor's open notes); the least recently read is let go first
KEPT = 32


class _Reading(NamedTuple):
    lines: list[str]
    divs: bool
    tokens: list[Any]
    starts: list[int]  # the index in ``tokens`` of each top-level block's first token


_tracked: set[str] = set()
_kept: OrderedDict[str, _Reading] = OrderedDict()
_sections: OrderedDict[str, Memo] = OrderedDict()  # each tracked note's last assembled sections (parse.reuse)
_lock = threading.Lock()
#: how the last ``tokens`` call of a tracked note went, for tests and benchmarks: "whole" or "window"
last_reading: dict[str, Any] = {}


def track(path: str) -> None:
    """Keep ``path``'s tokens between readings (an editor opened it)."""
    with _lock:
        _tracked.add(path)


#: what else lets a note go when it is forgotten (the slides' kept tables: ``slides.kept``)
_forgetters: list[Callable[[str], None]] = []


def on_forget(forgetter: Callable[[str], None]) -> None:
    """Call ``forgetter(path)`` whenever a note is forgotten: what a layer above keeps for tracked notes."""
    if forgetter not in _forgetters:
        _forgetters.append(forgetter)


def forget(path: str) -> None:
    """Stop keeping ``path``'s tokens and sections, and what layers above keep for it (the editor closed it)."""
    with _lock:
        _tracked.discard(path)
        _kept.pop(path, None)
        _sections.pop(path, None)
    for forgetter in _forgetters:
        forgetter(path)


def tracked(path: str) -> bool:
    return path in _tracked


def sections(path: str) -> Memo | None:
    """The sections the last reading of a tracked ``path`` assembled (taken: a reading that fails
    half-way leaves none behind)."""
    with _lock:
        return _sections.pop(path, None)


def moved(path: str, node: Node) -> tuple[Node, int] | None:
    """The section of the last reading ``node`` was taken from, moved by how many lines (None: it
    was not: read anew, or taken where it stood)."""
    memo = _sections.get(path)
    found = memo.moved.get(id(node)) if memo is not None else None
    return (found[1], found[2]) if found is not None and found[0] is node else None


def newest(table: OrderedDict[Any, Any], key: Any, value: Any, most: int = KEPT) -> None:
    """``table[key] = value`` as its most recent entry, the least recent let go past ``most``: how each
    layer bounds what it keeps for the notes the editor has open (the caller holds its lock)."""
    table[key] = value
    table.move_to_end(key)
    while len(table) > most:
        table.popitem(last=False)


def keep_sections(path: str, memo: Memo) -> None:
    with _lock:
        if path in _tracked:
            newest(_sections, path, memo)


def tokens(text: str, path: str) -> list[Any]:
    """markdown-it's block tokens of ``text`` (LF line ends), reusing the last reading of a tracked ``path``."""
    if path not in _tracked or "\0" in text:  # markdown-it replaces NUL, so its lines would not be the text's
        return markdown_parser(text).parse(text)
    divs = ":::" in text
    lines = text.split("\n")
    with _lock:
        old = _kept.pop(path, None)  # taken out: a reading that fails half-way leaves nothing behind
    reading = _reread(old, lines, divs) if old is not None and old.divs == divs else None
    if reading is None:
        found = markdown_parser(text).parse(text)
        reading = _Reading(lines, divs, found, _starts(found, 0))
        last_reading.update(path=path, how="whole", parsed=len(lines))
    with _lock:
        if path in _tracked:
            newest(_kept, path, reading)
    return list(reading.tokens)  # a copy: the outline's builder lets go of tokens as it reads them


def _starts(found: list[Any], offset: int) -> list[int]:
    return [offset + i for i, token in enumerate(found) if token.nesting >= 0 and token.level == 0 and token.type != "inline"]


def _blank(line: str) -> bool:
    return not line.strip(" \t")


def _reach(lines: list[str], end: int) -> int:
    """One past the last line a block ending before ``end`` may have looked at: the first blank line
    at or after ``end``, and the line after it (where a list decides whether it goes on); past the
    text's end when there is none (an unclosed fence runs to the end, so any line added there is its)."""
    while end < len(lines) and not _blank(lines[end]):
        end += 1
    return end + 2 if end < len(lines) else len(lines) + 1


def _window_end(lines: list[str], at: int) -> int:
    """Just past the first blank line at or after ``at`` (the text's end when there is none)."""
    while at < len(lines) and not _blank(lines[at]):
        at += 1
    return min(at + 1, len(lines))


def _moved(found: list[Any], lines: int) -> None:
    """Moves the tokens' source lines by ``lines``, in place (only tokens of this reading hold them)."""
    if lines:
        for token in found:
            if getattr(token, "a", -1) >= 0:
                token.a += lines
                token.b += lines


def _reread(old: _Reading, lines: list[str], divs: bool) -> _Reading | None:
    before, after = old.lines, lines
    n_old, n_new = len(before), len(after)
    limit = min(n_old, n_new)
    same = 0
    while same < limit and before[same] == after[same]:
        same += 1
    if same == n_old == n_new:
        return old
    tail = 0
    while tail < limit - same and before[n_old - 1 - tail] == after[n_new - 1 - tail]:
        tail += 1
    moved = n_new - n_old
    spans = [(old.tokens[i].a, old.tokens[i].b) for i in old.starts]
    if any(a < 0 for a, _ in spans):
        return None
    if before and before[0].startswith("---") and old.tokens[old.starts[0]].type != "front_matter":
        return None  # a first line of dashes that closed no front matter looks for its close to the very end
    seen = 0  # blocks before the edit, every line they looked at unchanged
    while seen < len(spans) and _reach(before, spans[seen][1]) <= same:
        seen += 1
    # the last of them is read again, from its first line: where a block starts is known exactly,
    # where markdown-it went on after one is not always its last line (a ::: container's close)
    kept = seen - 1
    if kept < 1:
        return None  # the edit is in the first blocks (front matter, the title): read the note whole
    start = spans[kept][0]
    # where an old block started in the unchanged tail, in the new text's lines: the window may join there
    resume = {a + moved: k for k, (a, _) in enumerate(spans) if a >= n_old - tail and a + moved > start}
    first = min(resume, default=n_new)
    size = max(first + 1 - start, 1)
    parser = window_parser(divs)
    joined: tuple[int, int] | None = None  # (the window's block, the old block it joins)
    while True:
        stop = n_new if first >= n_new else _window_end(after, start + size)
        found: list[Any] = parser.parse("\n".join(after[start:stop]) + ("\n" if stop < n_new else ""))  # compact tokens
        starts = _starts(found, 0)
        joined = next(((j, resume[found[i].a + start]) for j, i in enumerate(starts) if found[i].a + start in resume), None)
        if joined is not None or stop >= n_new:
            break
        size *= 2
    new_tokens = old.tokens[: old.starts[kept]]
    new_starts = old.starts[:kept]
    if joined is not None:  # the window's tokens up to the block where the old ones take over
        found, starts = found[: starts[joined[0]]], starts[: joined[0]]
    _moved(found, start)
    new_starts += [len(new_tokens) + i for i in starts]
    new_tokens += found
    joined_at = len(spans)
    if joined is not None:
        joined_at = joined[1]
        tail_tokens = old.tokens[old.starts[joined_at] :]
        _moved(tail_tokens, moved)
        shift = len(new_tokens) - old.starts[joined_at]
        new_starts += [index + shift for index in old.starts[joined_at:]]
        new_tokens += tail_tokens
    last_reading.update(how="window", parsed=stop - start, kept_before=kept, kept_after=len(spans) - joined_at)
    return _Reading(lines, divs, new_tokens, new_starts)
