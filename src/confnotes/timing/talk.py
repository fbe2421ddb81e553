"""The one talk plan: the fitted deck, each slide's spoken words and minutes, each part against its budget and the slot."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from confnotes.config.settings import SlideSettings, setting_range
from confnotes.model import Document, count_words
from confnotes.slides import Deck, Decks, Slide, slide_words
from confnotes.slides.fit import plain
from confnotes.timing.durations import format_minutes
from confnotes.timing.front_matter import budgets, slot_minutes

DEFAULT_WPM = SlideSettings().wpm


#: rates confnotes accepts; most speakers talk at 100–200 words a minute (``TYPICAL_WPM``)
MIN_WPM, MAX_WPM = setting_range(SlideSettings, "wpm")


TYPICAL_WPM = (100, 200)


DEFAULT_SLIDE_SECONDS = SlideSettings().slide_seconds


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


class Tolerance(NamedTuple):
    """How far past its slot a talk, and past its budget a section, may run before it is over: the
    over-time rule's ``slot_percent`` and ``budget_percent``, as ``time`` and lint both read them."""

    slot: float = 1.10
    budget: float = 1.25


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
        return self.status_within(Tolerance())

    def status_within(self, tolerance: Tolerance) -> str:
        """``ok`` within its budget, ``over, within tolerance`` up to the tolerance (125% of it by
        default, where lint's over-time starts), ``over`` beyond; ``-`` without a budget."""
        if self.budget_minutes is None:
            return "-"
        if self.minutes <= self.budget_minutes:
            return "ok"
        return "over, within tolerance" if self.minutes <= tolerance.budget * self.budget_minutes else "over"


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
    else its estimate, and each slide starts at its share of its part (minutes from the start). A
    hidden part is in the plan, marked ``hidden``, and takes no time."""
    starts = [0.0 for _ in timing.sections]
    estimated_start = [0.0 for _ in timing.sections]
    # a hidden part (``<!-- slide hide -->``: no slide in the deck) takes none of the talk's time
    planned = [section.planned_minutes if section.slides else 0.0 for section in timing.sections]
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
            {"title": section.title, "start": round(start, 3), "minutes": round(minutes, 3)} | ({} if section.slides else {"hidden": True})
            for section, start, minutes in zip(timing.sections, starts, planned, strict=True)
        ],
        "slides": slides,
    }


def slot_verdict(share: float, tolerance: Tolerance = Tolerance()) -> str:  # noqa: B008 (immutable)
    """The estimate against the slot, plainly: it fits only at or under 100%; up to the tolerance
    (110% by default, where lint's over-time starts) it is over, within tolerance."""
    if share > tolerance.slot:
        return "over the slot"
    if share > 1.0:
        return "over the slot, within tolerance"
    return "well under the slot" if share < 0.60 else "fits the slot"


def table(timing: Timing, tolerance: Tolerance = Tolerance()) -> str:  # noqa: B008 (immutable)
    """``confnotes time``'s text output: a row per part, then the total against the slot."""
    width = max([len("Section"), *(len(section.title) for section in timing.sections)])
    width = min(width, 48)
    lines = [f"{'Section':<{width}}  {'Slides':>6}  {'Words':>6}  {'Time':>6}  {'Budget':>6}  Status"]
    for section in timing.sections:
        title = section.title if len(section.title) <= width else section.title[: width - 1] + "…"
        budget = format_minutes(section.budget_minutes) if section.budget_minutes is not None else "-"
        time = format_minutes(section.minutes)
        status = section.status_within(tolerance)
        lines.append(f"{title:<{width}}  {section.slides:>6}  {section.words:>6}  {time:>6}  {budget:>6}  {status}")
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
        lines.append(f"About {total} of a {slot} slot ({share:.0%}): {slot_verdict(share, tolerance)}, {pace}.")
        budgeted = [section.budget_minutes for section in timing.sections if section.budget_minutes is not None]
        if budgeted:
            every = "" if len(budgeted) == len(timing.sections) else f" ({len(budgeted)} of {len(timing.sections)} sections)"
            budget_share = sum(budgeted) / timing.slot_minutes
            lines.append(f"Budgets{every} add up to {format_minutes(sum(budgeted))} of the {slot} slot ({budget_share:.0%}).")
    return "\n".join(lines) + "\n"
