"""A talk's slot and budgets as the note states them, and the budgets and pace written back into it (nothing else changes)."""

from __future__ import annotations

import re
from typing import Any

from confnotes.errors import input_error
from confnotes.model import Block, Document, Node
from confnotes.parse.meta import front_matter_line
from confnotes.timing.durations import DurationError, budget_value, parse_duration

#: A section's budget: ``<!-- time: 5min -->``.
BUDGET_COMMENT = re.compile(r"^<!--\s*time\s*:\s*(.*?)\s*-->\s*$", re.IGNORECASE)


def as_written(doc: Document, value: Any, key: str, parent: str | None = None) -> Any:
    """A front matter duration as the author wrote it. YAML reads an unquoted ``20:00`` as the
    base-60 integer 1200 (and ``0:20:00`` too), so a number is looked up in the source text: the
    line of ``key`` (under ``parent``, for ``budgets:``) gives back ``20:00``."""
    if not isinstance(value, int | float) or isinstance(value, bool) or doc.meta.front_matter is None:
        return value
    lines = doc.meta.front_matter.split("\n")
    if parent is not None:
        found = _key_block(lines, 0, len(lines), parent)
        if found is None:
            return value
        flow = _FLOW.match(lines[found[0]])
        if flow:  # budgets: {Intro: 5min, "Main part": 4:00}
            entry = _flow_entry(str(key)).search(flow.group(2))
            written = entry.group(4).strip().strip("\"'") if entry else ""
            return written if re.fullmatch(r"\d+(?::\d+){1,2}", written) else value
        lines = [lines[index].strip() for index in found[1]]
    pattern = re.compile(rf"""^["']?{re.escape(str(key))}["']?\s*:\s*(\d+(?::\d+){{1,2}})\s*(?:#.*)?$""")
    for line in lines:
        match = pattern.match(line)
        if match:
            return match.group(1)
    return value


#: ``key: {a: 1, b: 2}``: a mapping written in flow style on one line (groups: key part, the braces' inside, the rest)
_FLOW = re.compile(r"^(\w+\s*:\s*\{)(.*)(\}\s*(?:#.*)?)$")


def _flow_entry(key: str) -> re.Pattern[str]:
    """``key: value`` inside a flow mapping (groups: what comes before the value, the key, the value)."""
    return re.compile(rf"""((?:^|,)\s*["']?)({re.escape(key)})(["']?\s*:\s*)([^,]*?)\s*(?=,|$)""", re.IGNORECASE)


def _with_flow_value(flow: re.Match[str], entry: re.Match[str], value: str) -> str:
    """A flow mapping's line with ``entry``'s value (found in ``flow.group(2)``) set to ``value``."""
    inner = flow.group(2)
    return flow.group(1) + inner[: entry.start(4)] + value + inner[entry.end(4) :] + flow.group(3)


#: ``  key: value  # comment`` under a block mapping (groups: indent and quote, key, colon, value, comment)
_BLOCK_ENTRY = re.compile(r"""^(\s+["']?)(.+?)(["']?\s*:\s*)([^#]*?)(\s*(?:#.*)?)$""")


def _key_block(lines: list[str], start: int, stop: int, key: str) -> tuple[int, list[int]] | None:
    """Where top-level ``key:`` stands in ``lines[start:stop]``, and the indented lines under it."""
    at = next((index for index in range(start, stop) if re.match(rf"{re.escape(key)}\s*:", lines[index])), None)
    if at is None:
        return None
    block = []
    for index in range(at + 1, stop):
        if lines[index].strip() and not lines[index][:1].isspace():
            break
        block.append(index)
    return at, block


def slot_minutes(doc: Document) -> float | None:
    """The talk's slot from front matter ``duration:`` (None without one), read as written."""
    value = doc.meta.extra.get("duration")
    if value is None:
        return None
    line = front_matter_line(doc, "duration")
    try:
        minutes = parse_duration(as_written(doc, value, "duration"))
    except DurationError as exc:
        raise input_error(f"front matter 'duration': {exc}", doc.path, line, 1) from None
    if minutes < 1:  # "00:20" meant as twenty minutes (hours:minutes) reads as twenty seconds
        shown, seconds = str(as_written(doc, value, "duration")), round(minutes * 60)
        hint = f"for {seconds} minutes write {seconds}:00 or {seconds}min"
        raise input_error(f"front matter 'duration': {shown!r} is {seconds} seconds (minutes:seconds); {hint}", doc.path, line, 1)
    return minutes


def budget_comment(section: Node) -> Block | None:
    """The ``<!-- time: … -->`` comment right under a section's heading (before any other content)."""
    for entry in section.content:
        if type(entry) is Block and entry.kind in ("comment", "directive", "note"):
            if BUDGET_COMMENT.match(entry.text.strip()):
                return entry
            continue
        return None
    return None


def budgets(doc: Document) -> dict[int, float]:
    """Budget minutes by part (``Document.parts``) index, from comments and front matter ``budgets:``."""
    out: dict[int, float] = {}
    sections = doc.parts
    table = doc.meta.extra.get("budgets")
    if table is not None:
        line = front_matter_line(doc, "budgets")
        if not isinstance(table, dict):
            raise input_error("front matter 'budgets' must map section titles to durations", doc.path, line, 1)
        titles = {section.title.strip().lower(): index for index, section in enumerate(sections)}
        for title, value in table.items():
            index = titles.get(str(title).strip().lower())
            if index is None:
                raise input_error(f"front matter 'budgets': no section titled {str(title)!r}", doc.path, line, 1)
            try:
                out[index] = parse_duration(as_written(doc, value, title, "budgets"))
            except DurationError as exc:
                raise input_error(f"front matter 'budgets' for {str(title)!r}: {exc}", doc.path, line, 1) from None
    for index, section in enumerate(sections):
        comment = budget_comment(section)
        if comment is None:
            continue
        match = BUDGET_COMMENT.match(comment.text.strip())
        assert match is not None
        try:
            out[index] = parse_duration(match.group(1))
        except DurationError as exc:
            raise input_error(f"budget comment: {exc}", doc.path, comment.span.start, 1) from None
    return out


_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")


_ATX = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")


def write_budgets(text: str, doc: Document, minutes: list[float | None]) -> str:
    """``text`` with each part's budget set to ``minutes`` (rounded to half minutes; ``None``
    leaves a part as it is). A budget that lives in the front matter's ``budgets:`` is changed
    there; an existing ``<!-- time: … -->`` line is replaced; else one is inserted right under
    the heading. Nothing else in the text changes."""
    lines = text.split("\n")
    inserts: list[tuple[int, str]] = []  # (index to insert before, line)
    for section, value in zip(doc.parts, minutes, strict=True):
        if value is None:
            continue
        comment = f"<!-- time: {budget_value(value)} -->"
        existing = budget_comment(section)
        if existing is not None and existing.span.start == existing.span.end:
            index = existing.span.start - 1
            indent = lines[index][: len(lines[index]) - len(lines[index].lstrip())]
            lines[index] = indent + comment
            continue
        if existing is None and _set_front_matter_budget(lines, doc, section.title, budget_value(value)):
            continue
        inserts.append((_budget_line(lines, section.span.start), comment))
    for index, line in sorted(inserts, reverse=True):
        lines.insert(index, line)
    return "\n".join(lines)


def _budget_line(lines: list[str], at: int) -> int:
    """Where a budget comment goes: the line after the heading (a setext underline, or a bare
    line's blank line, comes first)."""
    if _ATX.match(lines[at - 1]):
        return at
    if at < len(lines) and (_SETEXT.match(lines[at]) or not lines[at].strip()):
        return at + 1
    return at


def _set_front_matter_budget(lines: list[str], doc: Document, title: str, value: str) -> bool:
    """Change ``title``'s entry under the front matter's ``budgets:`` to ``value``, in place (its
    key, quotes, indent and comment kept); False when the budget is not there."""
    span = doc.meta.front_matter_span
    if span is None or not isinstance(doc.meta.extra.get("budgets"), dict):
        return False
    found = _key_block(lines, span.start, span.end - 1, "budgets")  # between the fences
    if found is None:
        return False
    at, block = found
    flow = _FLOW.match(lines[at])
    if flow:  # budgets: {Intro: 5min, "Main part": 4:00}: the entry changed inside the braces
        entry = _flow_entry(title.strip()).search(flow.group(2))
        if entry is None:
            return False
        lines[at] = _with_flow_value(flow, entry, value)
        return True
    for index in block:
        entry = _BLOCK_ENTRY.match(lines[index])
        if entry and entry.group(2).strip().lower() == title.strip().lower():
            lines[index] = entry.group(1) + entry.group(2) + entry.group(3) + value + entry.group(5)
            return True
    return False


def write_wpm(text: str, doc: Document, wpm: int) -> str:
    """``text`` with the front matter's ``slides: wpm:`` set to ``wpm`` (the section and the front
    matter made if missing). Nothing else in the text changes."""
    lines = text.split("\n")
    span = doc.meta.front_matter_span
    if span is None:
        return "\n".join(["---", "slides:", f"  wpm: {wpm}", "---", *lines])
    start, end = span.start - 1, span.end - 1  # the opening and closing fence lines
    found = _key_block(lines, start + 1, end, "slides")
    if found is None:
        lines.insert(end, f"slides:\n  wpm: {wpm}")
        return "\n".join(lines)
    at, block = found
    flow = _FLOW.match(lines[at])
    if flow:  # slides: {max_items: 5}: wpm set inside the braces
        entry = _flow_entry("wpm").search(flow.group(2))
        added = flow.group(1) + (flow.group(2).rstrip() + f", wpm: {wpm}").lstrip(", ") + flow.group(3)
        lines[at] = _with_flow_value(flow, entry, str(wpm)) if entry else added
        return "\n".join(lines)
    if not re.match(r"slides\s*:\s*(#.*)?$", lines[at]):
        raise input_error("front matter 'slides' is written in a form --write-wpm cannot edit; set slides.wpm by hand", doc.path)
    for index in block:
        entry = _BLOCK_ENTRY.match(lines[index])
        if entry and entry.group(2).strip() == "wpm":
            lines[index] = entry.group(1) + entry.group(2) + entry.group(3) + str(wpm) + entry.group(5)
            return "\n".join(lines)
    indent = next((lines[index][: len(lines[index]) - len(lines[index].lstrip())] for index in block if lines[index].strip()), "  ")
    lines.insert(at + 1, f"{indent}wpm: {wpm}")
    return "\n".join(lines)
