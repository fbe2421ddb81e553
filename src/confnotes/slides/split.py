"""The limits' split: a slide with more than ``max_items`` items or ``max_words`` words is shared
out over the fewest "(cont.)" slides, as evenly as it goes, a point's sub-points kept with it."""

from __future__ import annotations

from dataclasses import replace

from confnotes.slides.model import Slide, SlideEntry, SlideItem, entry_words, is_lead_in, slide_words
from confnotes.slides.options import UNLIMITED, DeckOptions


def carry_over(page: list[SlideEntry], entry: SlideEntry) -> list[SlideEntry]:
    """When ``entry`` starts a new slide, what moves over with it from the end of ``page`` (which
    loses it): a sub-point's point and what follows that point, else the lead-in (``is_lead_in``)
    of an item. The fit engine breaks slides this way; the limits' split keeps the same runs
    together (``_groups``)."""
    if isinstance(entry, SlideItem) and entry.level > 0:
        start = max((i for i, e in enumerate(page) if isinstance(e, SlideItem) and e.level == 0), default=-1)
        if start > 0:
            carried = page[start:]
            del page[start:]
            return carried
    if type(entry) is SlideItem and len(page) > 1 and is_lead_in(page[-1]):
        return [page.pop()]
    return []


def split_slide(slide: Slide, options: DeckOptions) -> list[Slide]:
    """Split an overfull slide into continued slides between entries, never inside one.

    The entries are first grouped as they must stay together (a point with its sub-points; a
    lead-in text with the item it introduces), then the groups are shared out over as few slides
    as the limits allow, as evenly as they can be (7 items at 6 a slide: 4 + 3; a point with two
    sub-points is not left alone on a slide while the rest crowd the next)."""
    if slide.grid is not None or slide.layout:
        return [slide]  # laid out by its author: the fit engine holds it to its boxes
    items = sum(1 for entry in slide.content if type(entry) is SlideItem)
    if options.max_words >= UNLIMITED and items <= options.max_items:
        return [slide]  # nothing to measure (lint's unsplit deck)
    if items <= options.max_items and slide_words(slide) <= options.max_words:
        return [slide]
    groups = [part for group in _groups(slide.content) for part in _within_limits(group, options)]
    pages = _share_out(groups, options)
    last, before = pages[-1], pages[-2] if len(pages) > 1 else []
    if len(last) == 1 and type(last[0]) is SlideItem and before and type(before[-1]) is SlideItem:
        # never one item alone when its siblings are on the slide before: take one of them if that
        # leaves the slide before with two, else join it (a denser slide beats an orphan)
        if len(before) > 2 and sum(entry_words(e) for e in (before[-1], last[0])) <= options.max_words:
            pages[-1] = [before.pop(), last[0]]
        elif sum(1 for e in before if type(e) is SlideItem) < options.max_items:
            before.append(pages.pop()[0])
    parts = len(pages)
    out: list[Slide] = []
    notes = _notes_by_page(slide, [len(page) for page in pages])
    for index, page in enumerate(pages):
        page_notes, page_at = notes[index]
        continued = slide.continued or index > 0
        part = replace(slide, content=tuple(page), notes=page_notes, notes_at=page_at, continued=continued, part=index + 1, parts=parts)
        page_items = sum(1 for entry in page if type(entry) is SlideItem)
        out.append(replace(part, dense=slide_words(part) > options.max_words or page_items > options.max_items))
    return out


def _groups(content: tuple[SlideEntry, ...]) -> list[list[SlideEntry]]:
    """The entries in the runs a split keeps together: a point and its sub-points; a lead-in right
    before an item and that item (as ``carry_over`` keeps them)."""
    groups: list[list[SlideEntry]] = []
    for entry in content:
        if type(entry) is SlideItem and entry.level > 0 and groups:
            groups[-1].append(entry)
        elif type(entry) is SlideItem and groups and len(groups[-1]) == 1 and is_lead_in(groups[-1][0]):
            groups[-1].append(entry)  # the lead-in's item
        else:
            groups.append([entry])
    return groups


def _within_limits(group: list[SlideEntry], options: DeckOptions) -> list[list[SlideEntry]]:
    """``group`` in parts that each fit the limits, as even as they can be (a point with more
    sub-points than a slide holds goes on over the next slide), or whole."""
    items = sum(1 for entry in group if type(entry) is SlideItem)
    if items <= options.max_items and sum(entry_words(entry) for entry in group) <= options.max_words:
        return [group]
    per_part = min(options.max_items, -(-items // max(1, -(-items // max(options.max_items, 1)))))
    parts: list[list[SlideEntry]] = [[]]
    words = count = 0
    for entry in group:
        size, is_item = entry_words(entry), type(entry) is SlideItem
        # a sentence that ends in a colon introduces the list: it is never left alone on a slide
        introduced = is_item and len(parts[-1]) == 1 and is_lead_in(parts[-1][0]) and parts[-1][0].text.rstrip().endswith(":")
        if parts[-1] and not introduced and ((is_item and count + 1 > per_part) or words + size > options.max_words):
            parts.append([])
            words = count = 0
        parts[-1].append(entry)
        words += size
        count += is_item
    return parts


def _share_out(groups: list[list[SlideEntry]], options: DeckOptions) -> list[list[SlideEntry]]:
    """The groups, in order, on the fewest slides within the limits, shared out so the fullest slide
    is as empty as it can be (the earlier slides the fuller). A group over the limits on its own (a
    paragraph longer than ``max_words``) has a slide to itself."""
    weights = [(sum(1 for e in group if type(e) is SlideItem), sum(entry_words(e) for e in group)) for group in groups]
    most_items, most_words = max(options.max_items, 1), max(options.max_words, 1)

    def alone(weight: tuple[int, int]) -> bool:
        return weight[0] > most_items or weight[1] > most_words

    def pack(share: float) -> list[int]:
        """Where each slide starts when every slide takes groups up to ``share`` of the limits."""
        items_cap, words_cap = share * most_items + 1e-9, share * most_words + 1e-9
        starts: list[int] = []
        items = words = 0
        for index, weight in enumerate(weights):
            full = items + weight[0] > items_cap or words + weight[1] > words_cap
            if not starts or alone(weight) or alone(weights[index - 1]) or full:
                starts.append(index)
                items = words = 0
            items += weight[0]
            words += weight[1]
        return starts

    fewest = len(pack(1.0))
    low, high = 0.0, 1.0  # the smallest share that still needs no more slides: the evenest split
    for _ in range(30):
        middle = (low + high) / 2
        low, high = (low, middle) if len(pack(middle)) <= fewest else (middle, high)
    bounds = [*pack(high), len(groups)]
    return [[entry for group in groups[bounds[k] : bounds[k + 1]] for entry in group] for k in range(len(bounds) - 1)]


def _notes_by_page(slide: Slide, sizes: list[int]) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    """Each part's notes (and their positions on it): a note goes with the entry written before
    it, so notes after content that moved to a "(cont.)" slide follow it there."""
    out: list[tuple[list[str], list[int]]] = [([], []) for _ in sizes]
    ends = [sum(sizes[: index + 1]) for index in range(len(sizes))]
    for note, at in zip(slide.notes, slide.note_positions(), strict=True):
        index = next((i for i, end in enumerate(ends) if at <= end), len(sizes) - 1) if at else 0
        start = ends[index] - sizes[index]
        out[index][0].append(note)
        out[index][1].append(max(0, at - start))
    return [(tuple(notes), tuple(at)) for notes, at in out]
