"""A rehearsal the presenter view saved, read within bounds and matched to the plan's slides and sections."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from confnotes.errors import NotesError, input_error
from confnotes.slides.limits import SLIDES_CEILING
from confnotes.timing.durations import format_minutes
from confnotes.timing.talk import MAX_WPM, MIN_WPM, Timing

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


#: A rehearsal names slides 1 to this (no deck has more: ``slides.limits.SLIDES_CEILING``), holds at most
#: ``MAX_REHEARSAL_ENTRIES`` timings (a presenter saves one a slide, more when a slide is revisited)
#: in a file of at most ``MAX_REHEARSAL_BYTES``, and each timing is flat: numbers and names, nothing nested.
MAX_REHEARSAL_SLIDES = SLIDES_CEILING


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
    identities = [entry.identity for entry in entries if entry.identity is not None]
    if len(set(identities)) < len(identities):
        section, title, occurrence = next(one for one in identities if identities.count(one) > 1)
        raise input_error(f"not a confnotes timings file: slide '{title}' ({section}, occurrence {occurrence}) is timed twice", path)
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

    from confnotes.edges.source import read_bytes

    try:  # a regular file only: a pipe or a device would block ``time`` for ever
        raw = read_bytes(path, "timings file", MAX_REHEARSAL_BYTES)
    except NotesError as exc:
        raise input_error(f"cannot read rehearsal timings: {exc.message}", path) from None
    try:  # a byte-order mark, as some editors save one, is no part of the JSON
        return json.loads(raw.decode("utf-8-sig"), parse_constant=not_a_number)
    except json.JSONDecodeError as exc:
        raise input_error(f"not a confnotes timings file: {exc.msg}", path, exc.lineno) from None
    except UnicodeDecodeError as exc:
        raise input_error(f"not a confnotes timings file: it is not UTF-8 text (byte {exc.start + 1})", path) from None
    except RecursionError:
        raise input_error("not a confnotes timings file: its data nests too deep", path) from None
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
        raise input_error(f"every timing needs a slide number (1 to {MAX_REHEARSAL_SLIDES:,}) and its seconds (0 to a day)", path)
    assert isinstance(entry, dict)
    section, title, occurrence = entry.get("section"), entry.get("title"), entry.get("occurrence")
    known = (
        isinstance(section, str)
        and isinstance(title, str)
        and isinstance(occurrence, int)
        and not isinstance(occurrence, bool)
        and 1 <= occurrence <= MAX_REHEARSAL_ENTRIES
    )
    if not known and any(key in entry for key in ("section", "title", "occurrence")):  # (older files have none)
        raise input_error(f"slide {number}'s identity needs a section and a title (text) and an occurrence counted from 1", path)
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
    timed_parts = timed_sections(timing, rehearsal)
    # a hidden part (no slide in the deck) cannot be rehearsed: neither a row nor "not timed"
    given = [index for index, section in enumerate(timing.sections) if section.slides]
    skipped = [timing.sections[index].title for index in given if index not in timed_parts]
    total = f"Total of {len(timed_parts)} timed" if skipped else "Total"
    width = min(max([len("Section"), len(total), *(len(section.title) for section in timing.sections)]), 48)
    lines = [f"{'Section':<{width}}  {'Planned':>7}  {'Actual':>7}  {'Diff':>7}"]

    def row(title: str, planned: float, spent: float | None) -> str:
        if spent is None:  # a section the rehearsal skipped: not 0:00 and minus its plan
            return f"{title:<{width}}  {format_minutes(planned):>7}  {'-':>7}  {'-':>7}"
        diff = spent - planned
        shown = format_minutes(abs(diff))
        change = ("-" if diff < 0 and shown != "0:00" else "+") + shown
        return f"{title:<{width}}  {format_minutes(planned):>7}  {format_minutes(spent):>7}  {change:>7}"

    for index, (section, spent) in enumerate(zip(timing.sections, actual, strict=True)):
        if index not in given:
            continue
        title = section.title if len(section.title) <= width else section.title[: width - 1] + "…"
        lines.append(row(title, section.planned_minutes, spent if index in timed_parts else None))
    planned = sum(section.planned_minutes for index, section in enumerate(timing.sections) if index in timed_parts)
    lines.append(row(total, planned, sum(actual)))
    lines += ["", "Planned: each section's budget, else its estimate."]
    hidden = [section.title for section in timing.sections if not section.slides]
    if hidden:
        lines.append(f"Not in the deck (hidden), so not rehearsed: {'; '.join(hidden)}.")
    if skipped:
        shown = "; ".join(skipped[:5]) + (f"; and {len(skipped) - 5} more" if len(skipped) > 5 else "")
        lines.append(f"A partial rehearsal: {len(skipped)} of {len(given)} sections not timed ({shown}).")
    matched = match(timing, rehearsal)
    timed = sum(1 for seconds in matched.seconds.values() if seconds > 0)
    lines += _changes_since(matched, timing, rehearsal)
    if timed < 0.8 * len(timing.slides) and not skipped:
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
