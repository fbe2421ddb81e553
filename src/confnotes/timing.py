"""How long a talk runs: an estimate per slide and per section from the words that will be spoken.

A slide's spoken words are its speaker notes where it has them, otherwise what it shows (its
title and its text; code counts no words, as on the slides). Time = words at the speaking
rate plus a fixed allowance per slide (the pause as a slide changes and the audience reads).
Rows are the talk's parts (``Document.parts``: its top-level sections); the title, agenda and opening slides count toward
the first section, so the rows always add up to the total.

Budgets come from the note: front matter ``duration: 20min`` is the slot; a section's budget
is a ``<!-- time: 5min -->`` comment right under its heading, or front matter ``budgets:``
mapping section titles to durations. Every value is read by ``parse_duration``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from confnotes.errors import NotesError, input_error
from confnotes.model import Block, Document, Node, count_words
from confnotes.settings import SlideSettings, setting_range
from confnotes.slides import Deck, Decks, Slide, slide_words
from confnotes.slides.fit import plain
from confnotes.slides.limits import MAX_SLIDES

DEFAULT_WPM = SlideSettings().wpm
#: rates confnotes accepts; most speakers talk at 100–200 words a minute (``TYPICAL_WPM``)
MIN_WPM, MAX_WPM = setting_range(SlideSettings, "wpm")
TYPICAL_WPM = (100, 200)
DEFAULT_SLIDE_SECONDS = SlideSettings().slide_seconds
#: an ``h:mm`` duration at or above this many hours is refused as a likely ``mm:ss``
MAX_CLOCK_HOURS = 8

_UNITS = {"h": 60.0, "hr": 60.0, "hrs": 60.0, "hour": 60.0, "hours": 60.0, "m": 1.0, "min": 1.0, "mins": 1.0}
_UNITS |= {"minute": 1.0, "minutes": 1.0, "s": 1 / 60, "sec": 1 / 60, "secs": 1 / 60, "second": 1 / 60, "seconds": 1 / 60}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]+)")
_CLOCK = re.compile(r"(\d{1,3}):([0-5]\d)(?::([0-5]\d))?")
#: A section's budget: ``<!-- time: 5min -->``.
BUDGET_COMMENT = re.compile(r"^<!--\s*time\s*:\s*(.*?)\s*-->\s*$", re.IGNORECASE)


class DurationError(ValueError):
    """A duration confnotes cannot read; the message says which forms it can."""


def parse_duration(value: Any) -> float:
    """Minutes from ``20min``, ``20 min``, ``20m``, ``90s``, ``1h``, ``1h30m``, ``1h 30min``,
    ``20:00`` (minutes:seconds, as a talk's clock reads), ``0:20:00`` (hours:minutes:seconds) or a
    bare number of minutes (``20``, ``7.5``)."""
    if isinstance(value, bool) or value is None:
        raise DurationError(f"not a duration: {value!r}")
    if isinstance(value, (int, float)):
        minutes = float(value)
    else:
        text = str(value).strip().lower()
        clock = _CLOCK.fullmatch(text)
        if clock:
            first, second, third = int(clock.group(1)), int(clock.group(2)), clock.group(3)
            if third is None:  # m:ss, as the presenter's clock and `confnotes time` print it
                minutes = first + second / 60
            else:
                if first >= MAX_CLOCK_HOURS:
                    raise DurationError(f"duration {str(value)!r} reads as {first} hours (hours:minutes:seconds)")
                minutes = first * 60 + second + int(third) / 60
        elif re.fullmatch(r"\d+(?:\.\d+)?", text):
            minutes = float(text)
        else:
            parts = list(_PART.finditer(text))
            rest = _PART.sub("", text).strip()
            if not parts or rest or any(part.group(2) not in _UNITS for part in parts):
                raise DurationError(f"cannot read duration {str(value)!r} (use e.g. 20min, 20m, 1h, 1h30m or 20:00)")
            minutes = sum(float(part.group(1)) * _UNITS[part.group(2)] for part in parts)
    if not math.isfinite(minutes) or minutes <= 0 or minutes > 24 * 60:
        raise DurationError(f"duration {str(value)!r} must be more than 0 and at most 24 hours")
    return minutes


def format_minutes(minutes: float) -> str:
    """``4.1`` → ``4:06`` (minutes:seconds), as a speaker reads a clock."""
    seconds = round(minutes * 60)
    return f"{seconds // 60}:{seconds % 60:02d}"


def spoken_minutes(minutes: float) -> str:
    """``4.1`` → ``4 min 6 s``, ``0.98`` → ``59 s``, ``30`` → ``30 min``: a duration in a sentence
    (a clock's ``0:59 min`` reads as neither)."""
    seconds = round(minutes * 60)
    whole, rest = divmod(seconds, 60)
    if not whole:
        return f"{rest} s"
    return f"{whole} min" + (f" {rest} s" if rest else "")


@dataclass(frozen=True, slots=True)
class SlideTime:
    number: int  # 1-based, as the deck numbers slides
    title: str
    section: int  # index into Timing.sections
    words: int
    minutes: float
    start_minutes: float  # where the slide starts in the plan
    #: (section title, slide title without "(cont.)", occurrence): what a rehearsal matches slides by
    identity: tuple[str, str, int] = ("", "", 1)


@dataclass(frozen=True, slots=True)
class SectionTime:
    title: str
    line: int
    slides: int
    words: int
    minutes: float
    budget_minutes: float | None = None

    @property
    def planned_minutes(self) -> float:
        """What the talk plans for the part: its budget, else its estimate (the presenter view, the
        agenda and the rehearsal table all use this)."""
        return self.budget_minutes if self.budget_minutes is not None else self.minutes

    @property
    def status(self) -> str:
        """``ok`` within its budget, ``over, within tolerance`` up to 125% of it (where lint's
        over-time starts), ``over`` beyond; ``-`` without a budget. Above its budget is never ok."""
        if self.budget_minutes is None:
            return "-"
        if self.minutes <= self.budget_minutes:
            return "ok"
        return "over, within tolerance" if self.minutes <= 1.25 * self.budget_minutes else "over"


@dataclass(frozen=True, slots=True)
class Timing:
    wpm: int
    slide_seconds: float
    slot_minutes: float | None
    sections: tuple[SectionTime, ...]
    slides: tuple[SlideTime, ...]

    @property
    def total_minutes(self) -> float:
        return sum(section.minutes for section in self.sections)

    @property
    def spoken_minutes(self) -> float:
        """The talking part, without the per-slide allowance."""
        return sum(section.words for section in self.sections) / self.wpm

    def as_json(self) -> dict[str, Any]:
        """The ``time --format json`` document (docs/timing.md)."""
        # the total is the sum of the sections as printed, so the rows always add up
        return {
            "wpm": self.wpm,
            "slot_minutes": _round(self.slot_minutes),
            "total_minutes": round(sum(round(section.minutes, 2) for section in self.sections), 2),
            "sections": [
                {
                    "title": section.title,
                    "line": section.line,
                    "slides": section.slides,
                    "words": section.words,
                    "minutes": _round(section.minutes),
                    "budget_minutes": _round(section.budget_minutes),
                }
                for section in self.sections
            ],
            "slide_marks": [
                {
                    "slide": s.number,
                    "title": s.title,
                    "words": s.words,
                    "start_minutes": _round(s.start_minutes),
                    "minutes": _round(s.minutes),
                }
                for s in self.slides
            ],
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def spoken_words(slide: Slide) -> int:
    """What the speaker says on a slide: the notes if it has them, else its title and text."""
    if slide.notes:
        return sum(count_words(note) for note in slide.notes)
    title = 0 if slide.continued or slide.kind == "title" and not slide.title else count_words(slide.title)
    return title + slide_words(slide)


def front_matter_line(doc: Document, key: str) -> int | None:
    """The line of a top-level front matter key (for error messages)."""
    span = doc.meta.front_matter_span
    if span is None or doc.meta.front_matter is None:
        return None
    pattern = re.compile(rf"^{re.escape(key)}\s*:")
    for offset, line in enumerate(doc.meta.front_matter.split("\n")):
        if pattern.match(line):
            return span.start + offset + (0 if doc.meta.front_matter.startswith("---") else 1)
    return span.start


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


def _section_of_slides(doc: Document, deck: Deck) -> Iterator[int]:
    """For each slide, the index of the top-level section it belongs to (opening slides: the first)."""
    starts = [section.span.start for section in doc.parts]
    current = 0
    for slide in deck.slides:
        if slide.line:
            while current + 1 < len(starts) and slide.line >= starts[current + 1]:
                current += 1
        yield current


class TalkPlan(NamedTuple):
    """A note's talk: the deck every deck output renders and its timing (slides, minutes, agenda)."""

    deck: Deck
    timing: Timing


def talk_plan(doc: Document, settings: SlideSettings, folder: Path | None, decks: Decks | None = None) -> TalkPlan:
    """The one talk plan of a note, as ``time``, lint, every deck output and ``build`` read it: the deck
    its slide ``settings`` make (images looked up in ``folder``), fitted, and its timing at their pace;
    each made once per note where its ``Decks`` are shared."""
    deck = fitted_deck(doc, settings, folder, decks)
    return TalkPlan(deck, shared_plan(doc, decks, deck, settings.wpm, settings.slide_seconds))


def fitted_deck(doc: Document, settings: SlideSettings, folder: Path | None, decks: Decks | None = None) -> Deck:
    """The deck of a talk plan alone (a renderer that shows no minutes needs no timing)."""
    from confnotes.slides import DeckOptions, build_deck

    options = DeckOptions.from_settings(settings, folder)
    return decks.get(options) if decks is not None and decks.doc is doc else build_deck(doc, options)


def shared_plan(doc: Document, decks: Decks | None, deck: Deck, wpm: int, slide_seconds: float) -> Timing:
    """The talk plan of ``deck``, made once per note where the note's ``Decks`` are shared (a
    build's lint run, every deck format and the index read the same plan); else made here."""
    if decks is None or decks.doc is not doc or decks.get(deck.options) is not deck:
        return plan(doc, deck, wpm, slide_seconds)
    key = (deck.options, wpm, slide_seconds)
    if key not in decks.plans:
        decks.plans[key] = plan(doc, deck, wpm, slide_seconds)
    found: Timing = decks.plans[key]
    return found


def plan(doc: Document, deck: Deck, wpm: int = DEFAULT_WPM, slide_seconds: float = DEFAULT_SLIDE_SECONDS) -> Timing:
    """The talk's estimate: per slide, per top-level section, against the slot and the budgets."""
    rows = [(section.title, section.span.start) for section in doc.parts] or [(doc.meta.title, 1)]
    counts = [[0, 0, 0.0] for _ in rows]  # slides, words, minutes
    slide_times: list[SlideTime] = []
    elapsed = 0.0
    seen: dict[tuple[str, str], int] = {}
    for number, (slide, index) in enumerate(zip(deck.slides, _section_of_slides(doc, deck), strict=True), start=1):
        words = spoken_words(slide)
        minutes = words / wpm + slide_seconds / 60
        key = (rows[index][0], " ".join(plain(slide.title).split()))
        seen[key] = seen.get(key, 0) + 1
        slide_times.append(SlideTime(number, slide.display_title, index, words, minutes, elapsed, (*key, seen[key])))
        elapsed += minutes
        row = counts[index]
        row[0] += 1
        row[1] += words
        row[2] += minutes
    given = budgets(doc)
    return Timing(
        wpm,
        slide_seconds,
        slot_minutes(doc),
        tuple(
            SectionTime(title, line, int(row[0]), int(row[1]), float(row[2]), given.get(index))
            for index, ((title, line), row) in enumerate(zip(rows, counts, strict=True))
        ),
        tuple(slide_times),
    )


def schedule(timing: Timing) -> dict[str, Any]:
    """The plan the presenter view keeps time against: each part takes its budget where it has one,
    else its estimate, and each slide starts at its share of its part (minutes from the start)."""
    starts = [0.0 for _ in timing.sections]
    estimated_start = [0.0 for _ in timing.sections]
    planned = [section.planned_minutes for section in timing.sections]
    clock = estimate = 0.0
    for index, section in enumerate(timing.sections):
        starts[index], estimated_start[index] = clock, estimate
        clock += planned[index]
        estimate += section.minutes
    slides = []
    for slide in timing.slides:
        section = timing.sections[slide.section]
        factor = planned[slide.section] / section.minutes if section.minutes else 1.0
        offset = (slide.start_minutes - estimated_start[slide.section]) * factor
        slides.append({"section": slide.section, "start": round(starts[slide.section] + offset, 3)})
    return {
        "wpm": timing.wpm,
        "slot": timing.slot_minutes,
        "total": round(sum(planned), 3),
        "sections": [
            {"title": section.title, "start": round(start, 3), "minutes": round(minutes, 3)}
            for section, start, minutes in zip(timing.sections, starts, planned, strict=True)
        ],
        "slides": slides,
    }


def agenda_label(minutes: float) -> str:
    """Minutes as an agenda shows them, to the half minute budgets are written in, halves rounded
    up (not to even, as Python's ``round`` does): ``4 min``, ``4.5 min``, ``<1 min``."""
    halves = math.floor(minutes * 2 + 0.5)
    return "<1 min" if minutes < 0.75 else f"{halves / 2:g} min"


# ---------------------------------------------------------------- reports


def slot_verdict(share: float) -> str:
    """The estimate against the slot, plainly: it fits only at or under 100%; up to 110% (where
    lint's over-time starts) it is over, within tolerance."""
    if share > 1.10:
        return "over the slot"
    if share > 1.0:
        return "over the slot, within tolerance"
    return "well under the slot" if share < 0.60 else "fits the slot"


def table(timing: Timing) -> str:
    """``confnotes time``'s text output: a row per part, then the total against the slot."""
    width = max([len("Section"), *(len(section.title) for section in timing.sections)])
    width = min(width, 48)
    lines = [f"{'Section':<{width}}  {'Slides':>6}  {'Words':>6}  {'Time':>6}  {'Budget':>6}  Status"]
    for section in timing.sections:
        title = section.title if len(section.title) <= width else section.title[: width - 1] + "…"
        budget = format_minutes(section.budget_minutes) if section.budget_minutes is not None else "-"
        time = format_minutes(section.minutes)
        lines.append(f"{title:<{width}}  {section.slides:>6}  {section.words:>6}  {time:>6}  {budget:>6}  {section.status}")
    slides = sum(section.slides for section in timing.sections)
    words = sum(section.words for section in timing.sections)
    lines.append(f"{'Total':<{width}}  {slides:>6}  {words:>6}  {format_minutes(timing.total_minutes):>6}")
    lines.append("")
    pace = f"at {timing.wpm} words a minute and {timing.slide_seconds:g} s a slide"
    if not TYPICAL_WPM[0] <= timing.wpm <= TYPICAL_WPM[1]:
        pace += f" (most speakers talk at {TYPICAL_WPM[0]}–{TYPICAL_WPM[1]})"
    if timing.slot_minutes is None:
        lines.append(f"About {format_minutes(timing.total_minutes)} {pace}. No slot given: add 'duration: 20min' to the front matter.")
    else:
        share = timing.total_minutes / timing.slot_minutes
        total, slot = format_minutes(timing.total_minutes), format_minutes(timing.slot_minutes)
        lines.append(f"About {total} of a {slot} slot ({share:.0%}): {slot_verdict(share)}, {pace}.")
        budgeted = [section.budget_minutes for section in timing.sections if section.budget_minutes is not None]
        if budgeted:
            every = "" if len(budgeted) == len(timing.sections) else f" ({len(budgeted)} of {len(timing.sections)} sections)"
            budget_share = sum(budgeted) / timing.slot_minutes
            lines.append(f"Budgets{every} add up to {format_minutes(sum(budgeted))} of the {slot} slot ({budget_share:.0%}).")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- rehearsal


REHEARSAL_FORMAT = "confnotes.rehearsal/1"


@dataclass(frozen=True, slots=True)
class RehearsedSlide:
    """One slide's time in a rehearsal, with the identity the presenter saved (when it did)."""

    number: int
    seconds: float
    identity: tuple[str, str, int] | None = None  # (section, title, occurrence)


@dataclass(frozen=True, slots=True)
class Rehearsal:
    """Seconds spent on each slide in a rehearsal (index 0 is slide 1), from the presenter view."""

    seconds: tuple[float, ...]
    title: str = ""
    slides: tuple[RehearsedSlide, ...] = ()


#: A rehearsal names slides 1 to this (no deck has more: ``slides.limits.MAX_SLIDES``), holds at most
#: ``MAX_REHEARSAL_ENTRIES`` timings (a presenter saves one a slide, more when a slide is revisited)
#: in a file of at most ``MAX_REHEARSAL_BYTES``, and each timing is flat: numbers and names, nothing nested.
MAX_REHEARSAL_SLIDES = MAX_SLIDES
MAX_REHEARSAL_ENTRIES = 10_000
MAX_REHEARSAL_BYTES = 4 * 1024 * 1024


def read_rehearsal(path: str) -> Rehearsal:
    """A timings file saved by the deck's presenter view (``r`` records, "Save timings" saves), checked
    against its shape and ranges before anything is made of it (a tampered file is one error line)."""
    data = _rehearsal_json(path)
    slides = data.get("slides") if isinstance(data, dict) else None
    if not isinstance(data, dict) or data.get("format") != REHEARSAL_FORMAT or not isinstance(slides, list):
        raise input_error(f'not a confnotes timings file (expected "format": "{REHEARSAL_FORMAT}")', path)
    if len(slides) > MAX_REHEARSAL_ENTRIES:
        raise input_error(f"a timings file holds at most {MAX_REHEARSAL_ENTRIES:,} timings, not {len(slides):,}", path)
    if not isinstance(data.get("title", ""), str):
        raise input_error("not a confnotes timings file: its title is not text", path)
    entries = [_rehearsed_slide(entry, path) for entry in slides]
    seconds: dict[int, float] = {}
    for entry in entries:
        seconds[entry.number] = seconds.get(entry.number, 0.0) + entry.seconds
    count = max(seconds, default=0)
    return Rehearsal(tuple(seconds.get(number, 0.0) for number in range(1, count + 1)), str(data.get("title", "")), tuple(entries))


def _rehearsal_json(path: str) -> Any:
    """The JSON of a timings file: UTF-8, at most ``MAX_REHEARSAL_BYTES``, strict (no NaN or Infinity)."""
    import json

    def not_a_number(name: str) -> None:
        raise ValueError(f"{name} is not a number JSON allows")

    from confnotes.source import read_bytes

    try:  # a regular file only: a pipe or a device would block ``time`` for ever
        raw = read_bytes(path, "timings file", MAX_REHEARSAL_BYTES)
    except NotesError as exc:
        raise input_error(f"cannot read rehearsal timings: {exc.message}", path) from None
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=not_a_number)
    except json.JSONDecodeError as exc:
        raise input_error(f"not a confnotes timings file: {exc.msg}", path, exc.lineno) from None
    except (UnicodeDecodeError, RecursionError) as exc:
        raise input_error(f"not a confnotes timings file: {str(exc)[:200]}", path) from None
    except ValueError as exc:  # NaN or Infinity, or a number of thousands of digits
        message = str(exc) if "JSON allows" in str(exc) else "it holds a number too long to read"
        raise input_error(f"not a confnotes timings file: {message}", path) from None


#: what a timing may hold: its slide, seconds and identity; numbers and text, nothing nested
_FLAT = (str, int, float, bool, type(None))


def _rehearsed_slide(entry: Any, path: str) -> RehearsedSlide:
    if isinstance(entry, dict) and not all(isinstance(value, _FLAT) for value in entry.values()):
        raise input_error("not a confnotes timings file: a timing holds nested data", path)
    number, spent = (entry.get("slide"), entry.get("seconds")) if isinstance(entry, dict) else (None, None)
    if (
        isinstance(number, bool)
        or not isinstance(number, int)
        or not 1 <= number <= MAX_REHEARSAL_SLIDES
        or isinstance(spent, bool)
        or not isinstance(spent, int | float)
        or not 0 <= spent < 24 * 3600  # NaN and infinity fail too
    ):
        raise input_error(f"every timing needs a slide number (1 to {MAX_REHEARSAL_SLIDES}) and its seconds (0 to a day)", path)
    assert isinstance(entry, dict)
    section, title, occurrence = entry.get("section"), entry.get("title"), entry.get("occurrence")
    known = (
        isinstance(section, str)
        and isinstance(title, str)
        and isinstance(occurrence, int)
        and not isinstance(occurrence, bool)
        and 1 <= occurrence <= MAX_REHEARSAL_ENTRIES
    )
    return RehearsedSlide(number, float(spent), (section, " ".join(title.split()), occurrence) if known else None)  # type: ignore[arg-type,union-attr]


@dataclass(frozen=True, slots=True)
class Matched:
    """A rehearsal laid over the deck as it is now: seconds per slide number, and what changed."""

    seconds: dict[int, float]
    added: tuple[str, ...] = ()  # slides of the deck the rehearsal never saw
    removed: tuple[str, ...] = ()  # slides of the rehearsal the deck no longer has (or renamed)
    by_identity: bool = False


def match(timing: Timing, rehearsal: Rehearsal) -> Matched:
    """Each slide's rehearsed seconds, matched by its identity (section, title, occurrence) when
    the presenter saved it, so an added or removed slide does not shift every later time; by
    position for older timings files."""
    entries = rehearsal.slides
    if not entries or any(entry.identity is None for entry in entries):
        return Matched({number: spent for number, spent in enumerate(rehearsal.seconds, start=1) if number <= len(timing.slides)})
    rehearsed: dict[tuple[str, str, int], float] = {}
    for entry in entries:
        assert entry.identity is not None
        rehearsed[entry.identity] = rehearsed.get(entry.identity, 0.0) + entry.seconds
    ours = {slide.identity: slide.number for slide in timing.slides}
    seconds = {ours[key]: spent for key, spent in rehearsed.items() if key in ours}
    added = tuple(_named(slide.identity) for slide in timing.slides if slide.identity not in rehearsed)
    removed = tuple(_named(key) for key in rehearsed if key not in ours)
    return Matched(seconds, added, removed, True)


def _named(identity: tuple[str, str, int]) -> str:
    section, title, occurrence = identity
    name = title if title == section or not section else f"{section} › {title}"
    return name if occurrence == 1 else f"{name} ({occurrence})"


def compare(timing: Timing, rehearsal: Rehearsal) -> tuple[list[float], float | None]:
    """Rehearsed minutes per part, and the speaker's measured rate (words a minute, without the
    per-slide allowance) over the slides that were rehearsed."""
    matched = match(timing, rehearsal).seconds
    actual = [0.0 for _ in timing.sections]
    words = 0
    talking = 0.0
    for slide in timing.slides:
        spent = matched.get(slide.number, 0.0)
        actual[slide.section] += spent / 60
        if spent > 0:
            words += slide.words
            talking += max(spent - timing.slide_seconds, 0.0) / 60
    rate = words / talking if talking > 0 and words else None
    return actual, rate


def timed_sections(timing: Timing, rehearsal: Rehearsal) -> set[int]:
    """The parts the rehearsal timed (at least one of their slides has seconds)."""
    matched = match(timing, rehearsal).seconds
    return {slide.section for slide in timing.slides if matched.get(slide.number, 0.0) > 0}


def rehearsal_table(timing: Timing, rehearsal: Rehearsal) -> str:
    """Planned (each part's budget, else its estimate) against rehearsed minutes, and the pace."""
    actual, rate = compare(timing, rehearsal)
    width = min(max([len("Section"), *(len(section.title) for section in timing.sections)]), 48)
    lines = [f"{'Section':<{width}}  {'Planned':>7}  {'Actual':>7}  {'Diff':>7}"]

    def row(title: str, planned: float, spent: float) -> str:
        diff = spent - planned
        shown = format_minutes(abs(diff))
        change = ("-" if diff < 0 and shown != "0:00" else "+") + shown
        return f"{title:<{width}}  {format_minutes(planned):>7}  {format_minutes(spent):>7}  {change:>7}"

    for section, spent in zip(timing.sections, actual, strict=True):
        title = section.title if len(section.title) <= width else section.title[: width - 1] + "…"
        lines.append(row(title, section.planned_minutes, spent))
    lines.append(row("Total", sum(section.planned_minutes for section in timing.sections), sum(actual)))
    lines += ["", "Planned: each section's budget, else its estimate."]
    matched = match(timing, rehearsal)
    timed = sum(1 for seconds in matched.seconds.values() if seconds > 0)
    lines += _changes_since(matched, timing, rehearsal)
    if timed < 0.8 * len(timing.slides):
        lines.append(f"Only {timed} of {len(timing.slides)} slides were timed: a partial rehearsal, not the talk's length.")
    elif rate is not None and MIN_WPM <= rate <= MAX_WPM:
        lines.append(f"You spoke at about {rate:.0f} words a minute (planned {timing.wpm}); try --wpm {round(rate)}.")
    elif rate is not None:
        why = "were the slides clicked through?" if rate > MAX_WPM else "did you say much more than the slides and notes hold?"
        lines.append(f"The rehearsal's pace ({rate:.0f} words a minute) is not a speaking rate: {why}")
    return "\n".join(lines) + "\n"


def _changes_since(matched: Matched, timing: Timing, rehearsal: Rehearsal) -> list[str]:
    """What changed in the deck since the rehearsal, by name where the timings say which slide is which."""
    if not matched.by_identity:
        if len(rehearsal.seconds) == len(timing.slides):
            return []
        return [f"The rehearsal timed {len(rehearsal.seconds)} slides; the deck now has {len(timing.slides)} (matched by position)."]
    lines = []
    for label, names in (("added since the rehearsal (not timed)", matched.added), ("timed but no longer in the deck", matched.removed)):
        if names:
            shown = "; ".join(names[:5]) + (f"; and {len(names) - 5} more" if len(names) > 5 else "")
            lines.append(f"{len(names)} slide{'s' if len(names) != 1 else ''} {label}: {shown}.")
    return lines


# ---------------------------------------------------------------- budgets written back


def budget_minutes(minutes: float) -> float:
    """Minutes as ``--write-budgets`` writes them: to the half minute, at least half a minute."""
    return max(0.5, round(minutes * 2) / 2)


def budget_value(minutes: float) -> str:
    return f"{budget_minutes(minutes):g}min"


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
