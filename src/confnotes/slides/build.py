"""Outline to Deck: the slides of a note, in source order, before and after the limits and the fit."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from confnotes.markup.diagrams import MAX_SOURCE, shown_as_drawing
from confnotes.model import UNPRINTED, Block, Document, Entry, List, Node, Span, note_text, walk_content
from confnotes.model.values import Callout, Directives
from confnotes.slides.kept import Table, refits, table
from confnotes.slides.model import Deck, Slide, SlideEntry, SlideItem, SlideText, is_image
from confnotes.slides.options import DeckOptions
from confnotes.slides.split import split_slide

#: A title shorter than this (characters) never needs cutting (``fit.short_title``): two lines of
#: the widest title font hold more.
LONG_TITLE = 80

#: Blocks a slide leaves to the speaker notes or drops (they say nothing on screen).
#: (A footnote's definition goes to the foot of the slides that refer to it.)
_OFF_SLIDE = frozenset(("reference", "break", "footnote", *UNPRINTED))


class Decks:
    """The decks built for one note, by their options. A build hands one ``Decks`` to the note's lint
    run and to each deck format it renders, so the deck is built and fitted once, not once a format;
    lint's unsplit deck and the rendered deck start from the same ``base_slides``."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._built: dict[DeckOptions, Deck] = {}
        self._bases: dict[bool, tuple[Slide, ...]] = {}
        #: the talk plans made from these decks, by deck options and pace (``timing.shared_plan``)
        self.plans: dict[tuple[DeckOptions, int, float], Any] = {}

    def get(self, options: DeckOptions) -> Deck:
        if options not in self._built:
            self._built[options] = build_deck(self.doc, options, self.base(options.notes))
        return self._built[options]

    def base(self, notes: bool = True) -> tuple[Slide, ...]:
        """The note's slides as written, directed and not yet limited or fitted (``base_slides``)."""
        if notes not in self._bases:
            self._bases[notes] = base_slides(self.doc, notes)
        return self._bases[notes]


def _notes_text(blocks: tuple[Block, ...] | list[Block]) -> tuple[str, ...]:
    if not blocks:
        return ()
    return tuple(text for text in (note_text(block) for block in blocks) if text)


def _notes_in(content: tuple[Entry, ...]) -> tuple[str, ...]:
    """Every speaker note in ``content``, depth-first (a slide's notes, wherever they were written)."""
    return _notes_text([entry for entry in walk_content(content) if type(entry) is Block and entry.kind == "note"])


def _no_notes(_content: tuple[Entry, ...]) -> tuple[str, ...]:
    return ()


NotesOf = Callable[[tuple[Entry, ...]], tuple[str, ...]]


def _block_line(block: Block) -> str:
    """A block under an item (quote, code, table, paragraph) as one line of slide text."""
    lines = [line[1:].lstrip() if block.kind == "quote" and line.startswith(">") else line for line in block.text.split("\n")]
    return " ".join(" ".join(lines).split())


def _fold(node: Node) -> str:
    """A node's text with everything below it folded in, in order (for levels deeper than two)."""
    parts = [node.text if node.label is None else node.title]
    for entry in walk_content(node.content):
        if type(entry) is Node:
            parts.append(entry.title)
        elif type(entry) is Block and entry.kind not in _OFF_SLIDE and not (entry.kind == "div" and entry.info):
            parts.append(_block_line(entry))
    return "; ".join(part for part in parts if part)


#: Blocks under an item that keep their own form on a slide (a code sample is not a bullet).
_SHOWN_AS_IS = frozenset(("code", "table", "image", "math"))


def boxed(content: tuple[Entry, ...]) -> tuple[Entry, ...]:
    """Quarto's callout divs holding text and lists (``parse.divs``: their ``Callout`` has a body)
    as the callout quote every deck format draws as a box (``> [!tip] …``); others as they are."""
    if not any(type(e) is Block and type(e.value) is Callout and e.value.body is not None for e in content):
        return content
    out: list[Entry] = []
    index = 0
    while index < len(content):
        entry = content[index]
        found = entry.value if type(entry) is Block and entry.kind == "div" else None
        if type(found) is not Callout or found.body is None:
            out.append(entry)
            index += 1
            continue
        end = index + 1 + found.holds
        closer = content[end]
        quoted = "\n".join(f"> {line}" if line else ">" for line in found.body.body.split("\n"))
        text = f"> [!{found.written}] {found.title}\n{quoted}"
        out.append(Block("quote", text, Span(entry.span.start, closer.span.end), value=found))
        index = end + 1
    return tuple(out)


def _shown(block: Block) -> SlideText:
    """A block as slide content; a diagram's fence (```` ```mermaid ````, ```` ```dot ````) is a
    ``diagram`` where its tool is installed (measured as a picture), else code."""
    if block.kind == "code" and block.info and len(block.text) <= MAX_SOURCE and shown_as_drawing(block.info):
        return SlideText(block.text, "diagram", block.info, value=block.value)
    if block.kind == "div":  # a fence of a fenced div (read by slides.layouts), or, paired with nothing, text
        return SlideText(block.text, "div" if block.info else "paragraph", block.info, value=block.value)
    return SlideText(block.text, block.kind, block.info, value=block.value)


def _bullet(node: Node, level: int, number: str | None) -> SlideItem:
    """An item as a slide bullet: its label apart from its text, the number a reader sees."""
    return SlideItem(node.text if node.label is not None else node.title, node.label, level, number)


def _item_entries(node: Node, number: str | None) -> Iterator[SlideEntry]:
    """A list item (its ``number`` as shown) as slide bullets: the item (level 0), then what is
    under it in order (level 1; code, tables and images as themselves)."""
    yield _bullet(node, 0, number)
    for entry in node.content:
        if type(entry) is Block:
            if entry.kind == "div" and entry.info:
                continue  # a fenced div inside an item directs nothing
            if entry.kind in _SHOWN_AS_IS:
                yield _shown(entry)
            elif entry.kind not in _OFF_SLIDE:
                yield SlideItem(_block_line(entry), None, 1)
        elif type(entry) is List:
            for index, child in enumerate(entry.items):
                shown = entry.shown_number(index)
                if child.lists or child.body:
                    yield SlideItem(_fold(replace(child, label=None)), None, 1, shown)
                else:
                    yield _bullet(child, 1, shown)


def _slide_entries(content: tuple[Entry, ...]) -> list[SlideEntry]:
    """Blocks and lists as slide content, in source order (sections are not slide content)."""
    out: list[SlideEntry] = []
    for entry in content:
        if type(entry) is Block:
            if entry.kind not in _OFF_SLIDE:
                out.append(_shown(entry))
        elif type(entry) is List:
            for index, item in enumerate(entry.items):
                out.extend(_item_entries(item, entry.shown_number(index)))
    return out


def _with_notes(content: tuple[Entry, ...], notes_in: NotesOf) -> tuple[list[SlideEntry], tuple[str, ...], tuple[int, ...]]:
    """``content`` as slide entries, with its notes and where each stands (after how many entries:
    a note after a list item goes after that item's entries), so a split keeps them together."""
    out: list[SlideEntry] = []
    notes: list[str] = []
    at: list[int] = []
    for entry in content:
        parts: tuple[Entry, ...] = entry.items if type(entry) is List else (entry,)
        for index, part in enumerate(parts):
            if type(entry) is List:
                out.extend(_item_entries(part, entry.shown_number(index)))  # type: ignore[arg-type]
            else:
                out.extend(_slide_entries((part,)))
            found = notes_in((part,))
            notes += found
            at += [len(out)] * len(found)
    return out, tuple(notes), tuple(at)


def _subtitle(meta: Any) -> str:
    return " · ".join(part for part in (meta.event, meta.date, ", ".join(meta.speakers)) if part)


def base_slides(doc: Document, notes: bool = True) -> tuple[Slide, ...]:
    """The deck's slides as the outline gives them: before the agenda, the limits' splits and the fit
    engine (lint's unsplit deck is these; every deck starts from them)."""
    meta = doc.meta
    # most notes have no speaker notes: then no slide needs to look for them
    notes_in: NotesOf = _notes_in if notes and _notes_in(doc.content) else _no_notes
    lede = boxed(doc.lede)
    opening = 0
    while opening < len(lede) and type(lede[opening]) is Block:
        opening += 1
    slides: list[Slide] = [
        Slide("title", meta.title, _subtitle(meta), content=tuple(_slide_entries(lede[:opening])), notes=notes_in(lede[:opening]))
    ]
    slides[0] = _directed(slides[0], _segments(lede[:opening])[0][0])
    if not slides[0].layout and any(type(entry) is SlideText and is_image(entry) for entry in slides[0].content):
        # a picture in the opening goes beside the title, filling the slide's right side (it once took
        # the title's room: over the title in the deck, a page of its own in the PDF, its alt text in PPTX)
        slides[0] = replace(slides[0], layout="image-right")
    if opening < len(lede):
        rest = lede[opening:]
        slides.append(Slide("bullets", meta.title, content=tuple(_slide_entries(rest)), notes=notes_in(rest), line=rest[0].span.start))
    bare: list[Node] = []  # reading-list entries without an annotation share one slide
    kept = table(doc.path, "sections", notes, notes_in is _notes_in)  # an open note's sections' slides, by section
    for section in doc.sections:
        if doc.is_reading_list:
            content = tuple(_slide_entries(section.content))
            if not content:
                bare.append(section)
                continue
            _flush_entries(bare, meta.title, slides)
            slides.append(Slide("entry", section.title, content=content, notes=notes_in(section.content), line=section.span.start))
            continue
        _section_slides(section, slides, notes_in, kept)
    _flush_entries(bare, meta.title, slides)
    if kept is not None:
        kept.close()
    if any(slide.hidden for slide in slides):  # <!-- slide hide -->: out of every deck and the talk's plan
        slides = [slide for slide in slides if not slide.hidden]
    from confnotes.slides.layouts import arrange_all

    slides = arrange_all(slides)
    if any(entry.kind == "footnote" for entry in walk_content(doc.content) if type(entry) is Block):
        slides = _with_footnotes(doc, slides)
    if any(len(slide.title) > LONG_TITLE for slide in slides):  # a setext heading holding a whole paragraph
        from confnotes.slides.fit import long_titles

        slides = long_titles(slides)
    return tuple(slides)


def _slide_texts(slide: Slide) -> list[str]:
    return [slide.title, slide.subtitle, *(entry.full if type(entry) is SlideItem else entry.text for entry in slide.content)]


def _with_footnotes(doc: Document, slides: list[Slide]) -> list[Slide]:
    """Each slide with the footnotes it cites (numbered as in every output: ``confnotes.markup.footnotes``)."""
    from confnotes.markup.footnotes import footnotes_of

    notes = footnotes_of(doc)
    out = []
    for slide in slides:
        cited = tuple(notes.cited(*_slide_texts(slide)))
        out.append(slide if cited == slide.footnotes else replace(slide, footnotes=cited))  # the same slide: its fit is kept
    return out


def own_footnotes(slide: Slide) -> Slide:
    """A part of a split slide with the footnotes its own content cites (the fit engine kept room
    for all of the whole slide's)."""
    if not slide.footnotes:
        return slide
    from confnotes.markup.footnotes import references

    cited = {label for text in _slide_texts(slide) for label in references(text)}
    kept = tuple(note for note in slide.footnotes if note[1] in cited)
    return slide if kept == slide.footnotes else replace(slide, footnotes=kept)


def build_deck(doc: Document, options: DeckOptions | None = None, base: tuple[Slide, ...] | None = None) -> Deck:
    """The deck for ``doc``: pure, built once, shared by every slide renderer. ``base`` is
    ``base_slides(doc, options.notes)`` when the caller has it already."""
    options = options or DeckOptions()
    meta = doc.meta
    slides = list(base if base is not None else base_slides(doc, options.notes))
    # a talk gets an agenda unless the author wrote one (a reading list gets none)
    own = any(part.title.strip().strip("*_").strip().lower() == "agenda" for part in doc.parts)
    agenda = options.agenda if options.agenda is not None else not doc.is_reading_list and not own
    parts = [(index, part) for index, (part, shown) in enumerate(zip(doc.parts, shown_parts(doc), strict=True)) if shown]
    if agenda and doc.sections:  # right after the title slide
        slides.insert(1, Slide("agenda", "Agenda", content=tuple(SlideItem(s.title, part=index) for index, s in parts)))
    if agenda and any(len(part.title) > LONG_TITLE for _, part in parts):
        from confnotes.slides.fit import short_title

        items = tuple(SlideItem(short_title(s.title, "agenda")[0], part=index) for index, s in parts)
        slides[1] = replace(slides[1], content=items)
    expanded, cut = _capped(slides, options, doc.path)
    return Deck(meta.title, _subtitle(meta), meta.lang, tuple(expanded), options, (*_undrawn(slides), *cut))


def _undrawn(slides: list[Slide]) -> list[str]:
    """A warning for each diagram fence the decks show as its code (its tool not installed, its
    source too long), as the page warns of it."""
    from confnotes.markup.diagrams import language, not_drawn, shown_as_code
    from confnotes.slides.fit import code_lines

    out = []
    for slide in slides:
        for entry in slide.content:
            if type(entry) is SlideText and entry.kind == "code" and entry.info and (tool := language(entry.info)) is not None:
                source = "\n".join(code_lines(entry))  # (the fence's lines left out, as the page draws it)
                out.append(shown_as_code(tool, source, not_drawn(tool, source) or "it could not be drawn"))
    return out


def stepped(deck: Deck, lists: bool = True) -> Deck:
    """The deck a slide a step, as the HTML deck reveals them: each step of an incremental list
    (``Slide.upto``; with ``lists``: the slides PDF's ``steps``) and each step of a code
    walk-through (``SlideText.shown_step``: PPTX and Marp always, the slides PDF with ``steps``).
    Each step keeps the whole slide's room; ``Slide.step_of`` numbers a slide's copies."""
    out: list[Slide] = []
    for slide in deck.slides:
        values = sorted({entry.step for entry in slide.content if type(entry) is SlideItem and entry.step}) if lists else []
        # first the slide with none of them (as the HTML deck arrives), then one more a page; then
        # the code's steps, the list whole (the deck's order: a list's steps come before the code's)
        listed = [replace(slide, upto=value) for value in (values[0] - 1, *values)] if values else []
        walked = _code_steps(slide)
        if listed and walked and _code_arrives_first(slide):
            # the deck shows a walk-through's first step on arriving when no list item stands before it
            listed, walked = [replace(copy, content=walked[0].content) for copy in listed], walked[1:]
        elif listed and walked:
            listed = [_code_steps(copy, before=True)[0] for copy in listed]
        copies = listed + walked or [slide]
        out += [replace(copy, step_of=index) for index, copy in enumerate(copies)] if len(copies) > 1 else copies
    return replace(deck, slides=tuple(out))


def _code_arrives_first(slide: Slide) -> bool:
    """Whether the slide's first walk-through stands before every step of its lists, so the deck
    shows its first step as the slide arrives (``deck.js``'s ``arriveWithCode``)."""
    for entry in slide.content:
        if type(entry) is SlideItem and entry.step:
            return False
        if type(entry) is SlideText and entry.walked:
            return True
    return False


def _code_steps(slide: Slide, before: bool = False) -> list[Slide]:
    """The slide once for each step of its code walk-throughs, block after block (a block not
    reached yet shows no step, a block walked through its last); none when it has none. With
    ``before``: the slide once, before any step (every block plain)."""
    counts = slide.code_steps
    if not counts:
        return []
    if before:
        counts = (0,) * len(counts)
    blocks = [index for index, entry in enumerate(slide.content) if type(entry) is SlideText and entry.walked]
    out = []
    for active, count in enumerate(counts):
        for step in range(1 if count else 0, count + 1):
            shown = {index: (counts[at] if at < active else step if at == active else 0) for at, index in enumerate(blocks)}
            content = tuple(
                replace(entry, shown_step=shown[index]) if type(entry) is SlideText and index in shown else entry
                for index, entry in enumerate(slide.content)
            )
            out.append(replace(slide, content=content))
    return out


def _capped(slides: list[Slide], options: DeckOptions, path: str = "") -> tuple[list[Slide], list[str]]:
    """Each slide as the slides it becomes (its blocks cut to what slides show, split by the
    limits, each part fitted and split), up to ``options.max_slides``: a deck that would be longer
    ends with a slide that says what is left out. Returns the slides and a warning for each cut."""
    from confnotes.slides.limits import last_slide, limit_slide

    most = options.max_slides
    expanded: list[Slide] = []
    cut: list[str] = []
    kept = table(path, "fitted", options) if path else None  # an open note's slides as fitted, by slide
    for index, whole in enumerate(slides):
        room = most - len(expanded) - (1 if index + 1 < len(slides) else 0)
        made = kept.fitted(whole) if kept is not None else None
        if made is not None and len(made[1]) <= room:
            cut += made[0]
            expanded += made[1]
            continue
        slide, warnings = limit_slide(whole, options.max_code_lines)
        warnings = list(warnings)
        group = list(itertools.islice(_slides_of(slide, options, warnings), room + 1))
        cut += warnings
        if len(group) > room:  # no room left for the whole of this slide, or for the ones after it
            expanded += _numbered(group[: most - 1 - len(expanded)])
            final, warning = last_slide(slides[index:], most)
            if kept is not None:
                kept.close()
            return [*expanded, final], [*cut, warning]
        group = _numbered(group)
        if kept is not None and not refits(whole):
            kept.keep_fitted(whole, (tuple(warnings), tuple(group)))
        expanded += group
    if kept is not None:
        kept.close()
    return expanded, cut


def _slides_of(slide: Slide, options: DeckOptions, warnings: list[str]) -> Iterator[Slide]:
    """The slides one slide becomes, one at a time: split by the limits, then each part fitted (and
    split). A layout the slide cannot use, or whose boxes its content cannot fit, is dropped, with
    a warning in ``warnings`` (``slides.layouts``)."""
    from confnotes.errors import placed

    if slide.layout:  # before the limits, which leave a laid-out slide whole
        from confnotes.slides.layouts import problem

        if (found := problem(slide)) is not None:
            warnings.append(placed(slide.line, found))
            slide = replace(slide, layout="")
    parts = split_slide(slide, options) if slide.kind not in ("title", "divider") else [slide]
    if not options.fit:
        yield from map(own_footnotes, parts)
        return
    from confnotes.slides.fit import fit_slide, unshown_images

    for part in parts:
        shown = unshown_images([part], options.image_root)[0] if options.image_root is not None else part
        if shown.grid is None and not shown.layout:
            yield from map(own_footnotes, fit_slide(shown))
            continue
        from confnotes.slides.layouts import fit_laid_out, problem

        found = problem(shown)
        if found is not None:
            warnings.append(placed(shown.line, found))
            yield from map(own_footnotes, fit_slide(replace(shown, layout="")))
            continue
        fitted = fit_laid_out(shown)
        if shown.kind not in ("title", "divider") and not any(one.layout or one.grid is not None for one in fitted):
            what = f"layout {shown.layout}" if shown.layout else "columns"
            too_much = f"slide '{shown.title[:60]}': too much for its {what} at the smallest text; laid out one block under another"
            warnings.append(placed(shown.line, too_much))
        yield from map(own_footnotes, fitted)


def _numbered(group: list[Slide]) -> list[Slide]:
    """The slides one slide became, numbered 1 to N across both splits (a part the limits made and
    the fit engine split again does not start over at 1)."""
    if len(group) < 2:
        return group
    count = len(group)
    return [replace(part, part=index, parts=count) for index, part in enumerate(group, 1)]


def _point_slides(node: Node, slides: list[Slide], notes_in: NotesOf) -> None:
    """A section with points: a divider, its opening text, a slide per point (text after a point stays
    on it), and a slide per bullet list, all in source order."""
    own = boxed(tuple(entry for entry in node.content if type(entry) is not Node))
    first_list = next((index for index, entry in enumerate(own) if type(entry) is List), len(own))
    line = node.span.start
    start = len(slides)
    heading = _segments(own[:first_list])[0][0]  # a directive under the heading: the section's first slide
    opening = _slide_entries(own[:first_list])
    if any(type(entry) is not SlideText or entry.kind != "div" for entry in opening):
        # the section's own text opens it (a divider with the same title before it would repeat it)
        slides.append(Slide("text", node.title, content=tuple(opening), notes=notes_in(own[:first_list]), line=line))
    else:  # (a div's fences, if any, for slides.layouts to read: ``::: incremental`` over the points)
        slides.append(Slide("divider", node.title, content=tuple(opening), notes=notes_in(own[:first_list]), line=line))
    _after_the_opening(node, own[first_list:], slides, notes_in)
    divider = slides[start]
    if divider.kind == "divider" and len(slides) > start + 1 and slides[start + 1].title == divider.title:
        # the points were listed on one slide with the section's title: that slide opens the section
        merged = slides[start + 1]
        fences = len(divider.content)
        at = (0,) * len(divider.notes) + tuple(position + fences for position in merged.note_positions())
        slides[start + 1] = replace(merged, content=divider.content + merged.content, notes=divider.notes + merged.notes, notes_at=at)
        del slides[start]
    for index in range(start + 1, len(slides)):  # the section's title again, after its points: "(cont.)"
        if slides[index].title == node.title and slides[index].kind != "divider":
            slides[index] = replace(slides[index], continued=True)
    if heading is not None:
        slides[start] = _directed(slides[start], heading)


def _after_the_opening(node: Node, rest: tuple[Entry, ...], slides: list[Slide], notes_in: NotesOf) -> None:
    """A points section's slides from its first list on: a slide per point and per bullet list,
    text after either staying on it; a ``<!-- slide … -->`` comment starts the next one, directed
    (text after it, before any list, is a slide of its own; notes after it go to the slide it
    starts), and one after the section's last shown entry directs the slide it ends."""
    from confnotes.slides.directives import merged

    current: Slide | None = None
    pending: Directives | None = None
    held: list[Block] = []  # notes between a break and the slide it starts

    def started(slide: Slide) -> Slide:
        nonlocal pending
        slide = _directed(slide, pending, forced=True)
        pending = None
        added = notes_in(tuple(held))
        held.clear()
        return replace(slide, notes=added + slide.notes, notes_at=(0,) * len(added) + slide.note_positions()) if added else slide

    for entry in rest:
        if _is_directive(entry):
            pending = merged(pending, _directives(entry))
            if current is not None:
                slides.append(current)
                current = None
            continue
        if type(entry) is Block:
            if current is not None:
                current = _with_block(current, entry, notes_in)
            elif entry.kind in _OFF_SLIDE:
                held.append(entry)
            else:  # text after a break, before any list: a slide of its own, under the section's title
                current = started(Slide("text", node.title, content=(_shown(entry),), line=entry.span.start))
            continue
        if current is not None:
            slides.append(current)
        lst: List = entry  # type: ignore[assignment]
        if not lst.ordered:
            listed = Slide("bullets", node.title, content=tuple(_slide_entries((lst,))), notes=notes_in((lst,)), line=lst.span.start)
            current = started(listed)
            continue
        point_slides = _points(lst, node.title, notes_in)
        point_slides[0] = started(point_slides[0])
        slides.extend(point_slides[:-1])
        current = point_slides[-1]
    if current is not None:
        slides.append(current)
    if (pending is not None or held) and slides:  # after the last shown entry: the slide it ends
        slides[-1] = _directed(slides[-1], pending)
        for block in held:
            slides[-1] = _with_block(slides[-1], block, notes_in)


def _with_block(current: Slide, entry: Block, notes_in: NotesOf) -> Slide:
    """A block after a point or list: its note goes to that slide (unless notes are off), its text on it."""
    if entry.kind == "note":
        added = notes_in((entry,))
        at = current.note_positions() + (len(current.content),) * len(added)
        return replace(current, notes=current.notes + added, notes_at=at)
    if entry.kind not in _OFF_SLIDE:
        return replace(current, content=current.content + (_shown(entry),))
    return current


def _flush_entries(bare: list[Node], title: str, slides: list[Slide]) -> None:
    if bare:
        slides.append(Slide("bullets", title, content=tuple(SlideItem(entry.title) for entry in bare), line=bare[0].span.start))
        bare.clear()


def _points(lst: List, section_title: str, notes_in: NotesOf) -> list[Slide]:
    """A slide per point; consecutive points with nothing under them share one slide that lists
    them under the section's title (a slide with only a title says nothing)."""
    out: list[Slide] = []
    bare: list[int] = []  # the points with nothing under them, by index (their numbers as shown)

    def flush() -> None:
        if bare:
            points = tuple(lst.items[index] for index in bare)
            items = tuple(_bullet(lst.items[index], 0, lst.shown_number(index)) for index in bare)
            out.append(Slide("bullets", section_title, content=items, notes=notes_in(points), line=points[0].span.start))
            bare.clear()

    for index, point in enumerate(lst.items):
        slide = _point_slide(point, section_title, notes_in)
        if slide.content:
            flush()
            out.append(slide)
        else:
            bare.append(index)
    flush()
    return out


def _point_slide(point: Node, section_title: str, notes_in: NotesOf) -> Slide:
    return Slide(
        "point",
        point.title,
        section_title,
        content=tuple(_slide_entries(point.content)),
        notes=notes_in(point.content),
        line=point.span.start,
    )


def _section_slides(section: Node, slides: list[Slide], notes_in: NotesOf, kept: Table | None = None) -> None:
    """Slides for one section and, depth-first, its subsections (no recursion); an open note's
    sections' own slides are kept by the section (``slides.kept``)."""
    stack = [section]
    while stack:
        node = stack.pop()
        made = kept.made(node) if kept is not None else None
        if made is not None:
            slides += made
        else:
            at = len(slides)
            _own_slides(node, slides, notes_in)
            if kept is not None and not any(refits(slide) for slide in slides[at:]):
                kept.put(node, tuple(slides[at:]))  # (a diagram is drawn or shown as code by the tools there are now)
        stack.extend(reversed(node.sections))


def _own_slides(node: Node, slides: list[Slide], notes_in: NotesOf) -> None:
    """A section's own slides (not its subsections'): its points', or one a part its directives cut."""
    if node.points:
        _point_slides(node, slides, notes_in)
        return
    own = boxed(tuple(entry for entry in node.content if type(entry) is not Node))
    for index, (directed, part) in enumerate(_segments(own)):
        entries, notes, at = _with_notes(part, notes_in)
        if entries or not node.sections:
            kind = "bullets" if any(type(entry) is List for entry in part) else "text"
            line = part[0].span.start if index and part else node.span.start
            slide = Slide(
                kind, node.title, content=tuple(entries), notes=notes, notes_at=at, line=line, continued=index > 0, forced=index > 0
            )
        else:  # a section that only groups sub-sections ("Day 2") opens them with a divider
            slide = Slide("divider", node.title, notes=notes_in(part), line=node.span.start)
        slides.append(_directed(slide, directed))


def shown_parts(doc: Document) -> list[bool]:
    """For each of the talk's parts (``doc.parts``), whether the deck shows it: not when every slide
    it makes is hidden (``<!-- slide hide -->`` under its heading, and after each break), so the
    agenda never announces a backup slide."""
    out = []
    for part in doc.parts:
        own = tuple(entry for entry in part.content if type(entry) is not Node)
        segments = _segments(own) if not part.sections and any(_is_directive(entry) for entry in own) else [(None, own)]
        out.append(not all(directed is not None and directed.hide for directed, _ in segments))
    return out


def _is_directive(entry: Entry) -> bool:
    return type(entry) is Block and type(entry.value) is Directives


def _directives(entry: Entry) -> Directives:
    """A directive comment's ``Directives``, as ``parse`` read them."""
    assert type(entry) is Block and type(entry.value) is Directives
    return entry.value


def _segments(content: tuple[Entry, ...]) -> list[tuple[Directives | None, tuple[Entry, ...]]]:
    """``content`` cut where a ``<!-- slide … -->`` comment stands (a new slide starts there), each
    part with the directives that opened it; a comment before anything directs the first part,
    and one with nothing shown after it (its section's notes at most) directs the part it ends:
    ``<!-- slide notes: presenter -->`` under a slide's points is about that slide."""
    if not any(_is_directive(entry) for entry in content):
        return [(None, content)]
    from confnotes.slides.directives import merged

    def shown(part: list[Entry]) -> bool:
        return any(type(kept) is not Block or kept.kind not in _OFF_SLIDE for kept in part)

    out: list[tuple[Directives | None, list[Entry]]] = [(None, [])]
    for entry in content:
        if not _is_directive(entry):
            out[-1][1].append(entry)
            continue
        found = _directives(entry)
        directed, part = out[-1]
        if shown(part):
            out.append((found, []))  # after something shown: a new slide
        else:
            out[-1] = (merged(directed, found), part)
    if len(out) > 1 and not shown(out[-1][1]):
        (ending, rest), (directed, part) = out.pop(), out[-1]  # (a part after the first is a directive's)
        out[-1] = (merged(directed, ending) if ending is not None else directed, part + rest)
    return [(directed, tuple(part)) for directed, part in out if part or directed is not None or len(out) == 1]


def _directed(slide: Slide, directed: Directives | None, forced: bool = False) -> Slide:
    """The slide as ``directed`` asks, added to what it was asked before (``forced``: the comment
    started it, mid-section)."""
    if directed is None:
        return slide
    content = slide.content
    if directed.incremental:  # its items revealed one by one (numbered by slides.layouts.arrange)
        content = tuple(replace(entry, step=-1) if type(entry) is SlideItem and not entry.step else entry for entry in content)
    return replace(
        slide,
        content=content,
        classes=slide.classes + tuple(name for name in directed.classes if name not in slide.classes),
        background=directed.background or slide.background,
        hidden=slide.hidden or directed.hide,
        forced=forced or slide.forced,
        layout=directed.layout or slide.layout,
        private_notes=directed.notes == "presenter" if directed.notes else slide.private_notes,
    )
