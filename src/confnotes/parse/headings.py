"""Which plain lines are headings: the roles of top-level paragraphs (heading, bold heading,
filename, bold point, group).

Precision matters more than recall: a heading wrongly invented changes every output and
``fmt`` would write it into the user's file. So headings are inferred only in notes that
show they were pasted — pasted bullets, a file-name line, or a bare-line pattern of short heading-like lines
each followed by the text they head — and only for lines that read as headings. In a note
with Markdown headings, bold topic lines (``**Day 1**``, ``**Q&A**``) that stand alone over what
they head are its sub-headings when there are at least two of them.
"""

from __future__ import annotations

import re
from typing import Any

from confnotes.parse import recover
from confnotes.parse.blocks import Top, is_image_only
from confnotes.parse.state import ParseState

#: Blocks that a heading can head besides a paragraph.
_BODY_KINDS = frozenset(("bullet_list", "ordered_list", "glyph", "fence", "code_block", "table", "blockquote"))
#: In a note without other signs of pasting, a paragraph a bare line heads is at least this many
#: words (and 1.5 × the line) or several lines: one-line paragraphs of a blog post head nothing.
_BODY_WORDS = 15


def _words(text: str) -> int:
    return len(text.split())


def _is_candidate(top: Top, state: ParseState, question: bool = False) -> bool:
    return (
        top.kind == "paragraph"
        and top.b - top.a == 1
        and not top.role
        and recover.is_heading_candidate(top.content, state.options.max_heading_length, question)
        and (top.lead or not is_image_only(top.content))
    )


def next_block(blocks: list[Top], position: int) -> Top | None:
    """The block after ``position`` that a reader sees: comments (a budget, a lint directive, speaker
    notes) are skipped, so a comment under a heading does not change what the heading heads."""
    for index in range(position + 1, len(blocks)):  # no slice: a copy of the rest for every block was quadratic
        top = blocks[index]
        if top.kind == "html_block" and top.content.lstrip().startswith("<!--"):
            continue
        return top
    return None


def _heads_body(candidate: Top, following: Top | None, state: ParseState) -> bool | None:
    """Whether ``following`` is text a heading heads: True, False, or None (another candidate)."""
    if following is None:
        return False
    if following.kind in _BODY_KINDS:
        return True
    if following.kind != "paragraph" or following.role:
        return following.kind == "heading" and None
    if _is_candidate(following, state, question=True):
        return None
    words = _words(following.content)
    lines = following.b - following.a
    return lines >= 2 or (words >= _BODY_WORDS and words >= 1.5 * _words(candidate.content))


def _bare_line_pattern(candidates: list[int], titles: list[int], blocks: list[Top], state: ParseState) -> bool:
    """Short lines each followed by what they head, with no exception: sections or a reading list.
    ``titles`` (linked or question titles) count only where they head a body."""
    if len(candidates) + len(titles) < 2:
        return False
    heads = 0
    for position in candidates:
        verdict = _heads_body(blocks[position], next_block(blocks, position), state)
        if verdict is False:
            return False
        heads += verdict is True
    heads += len(titles)
    return heads >= 2 and heads * 5 >= (len(candidates) + len(titles)) * 3


def _split_heading_lines(blocks: list[Top], state: ParseState) -> list[Top]:
    """In a pasted note, a paragraph whose first line reads as a heading and whose other lines
    are the text it heads (Docs and Word pastes lose the blank line between them) becomes two."""
    out: list[Top] = []
    for top in blocks:
        if top.kind == "paragraph" and not top.role and top.b - top.a >= 2 and "\n" in top.content:
            first, rest = top.content.split("\n", 1)
            words = len(rest.split())
            if (
                recover.is_heading_candidate(first, state.options.max_heading_length)
                and words >= _BODY_WORDS
                and len(first.split()) * 3 <= words
                and not recover.is_glyph_line(rest)
            ):
                out.append(Top("paragraph", top.start, top.stop, top.a, top.a + 1, content=first, lead=True))
                out.append(Top("paragraph", top.start, top.stop, top.a + 1, top.b, content=rest, lead=True))
                continue
            head, last = top.content.rsplit("\n", 1)
            if recover.is_session_line(last, state.options.max_heading_length):
                # "DevOpsDays notes" over "Talk: Paved roads" over its bullets: the session line heads them
                out.append(Top("paragraph", top.start, top.stop, top.a, top.b - 1, content=head, lead=True))
                out.append(Top("paragraph", top.start, top.stop, top.b - 1, top.b, content=last, lead=True))
                continue
        out.append(top)
    return out


def _is_session(top: Top, state: ParseState) -> bool:
    """A paragraph that is one session line: ``Talk: …``, or ``**Talk: …**`` over the list it heads."""
    return (
        top.kind == "paragraph"
        and top.role in ("", "group")
        and top.b - top.a == 1
        and recover.is_session_line(top.content, state.options.max_heading_length)
    )


def _session_heads(blocks: list[Top], position: int, state: ParseState) -> bool:
    """A session line heads what follows it (``Speaker:`` lines aside): a list, text, code — not
    another session line, and not nothing."""
    for index in range(position + 1, len(blocks)):  # no slice: a copy of the rest for every session was quadratic
        top = blocks[index]
        if top.kind == "html_block" and top.content.lstrip().startswith("<!--"):
            continue
        if top.kind == "paragraph" and not top.role and top.b - top.a == 1 and recover.is_known_label_line(top.content):
            continue
        return top.kind in _BODY_KINDS or (top.kind == "paragraph" and not top.role and not _is_session(top, state))
    return False


def _session_headings(blocks: list[Top], state: ParseState) -> None:
    """``Talk: …``, ``Keynote: …``, ``Session 2: …`` lines standing between what they head are the
    note's sections when there are at least two, each heading something; the heading-like line that
    opens the note before them (text and label lines between aside) is then its title."""
    sessions = [position for position, top in enumerate(blocks) if _is_session(top, state)]
    if len(sessions) < 2 or not all(_session_heads(blocks, position, state) for position in sessions):
        return
    for position in sessions:  # a bold one is a bold heading: its title without the **, written back bold
        blocks[position].role = "bold-heading" if recover.is_bold_line(blocks[position].content.strip()) else "heading"
    if all(blocks[position].role == "bold-heading" for position in sessions):
        # **Takeaways** among **Session 1: …** lines is written as they are: a section beside them
        for position, top in enumerate(blocks):
            if (
                position > sessions[0]
                and top.role in ("", "group")
                and is_bold_topic(top, state)
                and _heads_content(blocks, position, state)
            ):
                top.role = "bold-heading"
    if any(blocks[position].role == "heading" for position in sessions):
        state.recovered.add("session-lines")  # (bold headings say "bold-headings" as they are built)
    opening = next((top for top in blocks if top.kind not in ("html_block", "reference") and top.role not in ("filename", "email")), None)
    if (
        opening is not None
        and _is_candidate(opening, state)
        and blocks.index(opening) < sessions[0]
        and all(top.kind in ("paragraph", "html_block", "reference") for top in blocks[blocks.index(opening) : sessions[0]])
    ):
        opening.role = "heading"


def _broke_lazy_lines(blocks: list[Top], lines: list[str]) -> bool:
    """Whether a paragraph starts on the line right under a list, with no blank line between: only
    a line that broke the list's lazy continuation does (``parse.markdown.lazy_break_rule``), so
    the note was written as a chat or a paste is, without blank lines."""
    return any(
        top.kind == "paragraph" and before.kind in ("bullet_list", "ordered_list") and top.a > 0 and lines[top.a - 1].strip() != ""
        for before, top in zip(blocks, blocks[1:], strict=False)
    )


def classify(_tokens: list[Any], blocks: list[Top], state: ParseState, titled: str = "") -> None:
    """Give every top-level paragraph its role: heading, bold-heading, filename, bold-point, group
    or text (``blocks`` may gain entries: a pasted heading line split from the text below it).
    ``titled`` is the front matter's title, if any: a ``#`` heading that does not repeat it is a
    section of the author's own, so the note gets no inferred headings."""
    explicit = [top for top in blocks if top.kind == "heading"]
    mode = state.options.infer_headings
    own = explicit and not (len(explicit) == 1 and _opens_note(blocks, explicit[0], titled))
    allowed = mode == "always" or (mode == "auto" and not own)
    seen_section = False
    opening = True  # nothing but comments and a file-name line stands before this block
    for position, top in enumerate(blocks):
        if top.kind == "heading":
            seen_section = True
        if top.kind != "paragraph" or top.role:
            opening = opening and (top.kind == "html_block" or top.role == "filename")
            continue
        content = top.content
        following = next_block(blocks, position)
        if not seen_section and top.b - top.a == 1 and recover.is_filename_line(content):
            top.role = "filename"
        elif (
            not seen_section
            and opening  # no slice of what came before: one for every paragraph was quadratic
            and (recover.email_headers(content) is not None)
        ):
            top.role = "email"
        elif recover.bold_point(content) is not None and top.b - top.a == 1:
            top.role = "bold-point"
        elif recover.is_bold_line(content) and following is not None and following.kind in ("bullet_list", "ordered_list"):
            top.role = "group"
        opening = opening and top.role == "filename"
    if mode != "never":
        _talk_titles(blocks, state)
    if allowed:
        _infer_headings(blocks, state)
    if mode != "never":
        _bold_headings(blocks, state)


def _opens_note(blocks: list[Top], heading: Top, titled: str = "") -> bool:
    """Whether ``heading`` is a ``#`` title over the whole note: level 1, with nothing but comments
    and front matter above it, and not a section under a different front-matter ``titled``. Only
    then may bare lines below it be inferred as its sections; a note with any other Markdown
    heading has its author's headings and gets no invented ones."""
    if heading.level != 1 or (titled and not recover.same_title(heading.content, titled)):
        return False
    for top in blocks:
        if top is heading:
            return True
        if top.kind not in ("html_block", "reference", "front_matter"):
            return False
    return False


def _infer_headings(blocks: list[Top], state: ParseState) -> None:
    """Bare lines as headings, in a note without Markdown headings (but a title) that shows it was
    pasted or whose short lines each head real text."""
    mode = state.options.infer_headings
    pasted = bool(state.glyph_indexes) or mode == "always" or any(top.role == "filename" for top in blocks)
    pasted = pasted or _broke_lazy_lines(blocks, state.lines)
    if pasted:
        blocks[:] = _split_heading_lines(blocks, state)
    _session_headings(blocks, state)
    last = len(blocks) - 1
    while last >= 0 and blocks[last].kind in ("html_block", "reference"):
        last -= 1
    candidates = [position for position, top in enumerate(blocks[:last]) if _is_candidate(top, state)]
    if not pasted:
        # a reading list's linked or question titles count where they head a long annotation
        chosen = set(candidates)
        titles = [
            position
            for position, top in enumerate(blocks[:last])
            if position not in chosen and _is_candidate(top, state, question=True) and _heads_body(top, next_block(blocks, position), state)
        ]
        if not _bare_line_pattern(candidates, titles, blocks, state):
            return
        candidates += titles
    for position in candidates:
        blocks[position].role = "heading"


#: What a bold topic line heads besides a paragraph: a list, pasted bullets, code, a table, a quote, raw HTML.
_BOLD_BODY_KINDS = _BODY_KINDS | {"html_block"}
#: The fewest bold topic lines that make a note's pattern: one alone is emphasis, not structure.
_BOLD_PATTERN = 2


def is_bold_topic(top: Top, state: ParseState) -> bool:
    """A paragraph that is one line of bold text and nothing else, reading as a heading: ``**Day 1**``,
    ``**Q&A**``, ``**Talk: Cells at Scale**`` — not a sentence (``**We should have load tested.**``),
    not a label line (``**Speaker: Priya Raman**``), not a bold point (``**1. Why Rust?**``)."""
    if top.kind != "paragraph" or top.role not in ("", "group") or top.b - top.a != 1:
        return False
    content = top.content.strip()
    if not recover.is_bold_line(content):
        return False
    inner = content[2:-2].strip()
    limit = state.options.max_heading_length
    return recover.is_heading_candidate(inner, limit) or recover.is_session_line(inner, limit)


def _heads_content(blocks: list[Top], position: int, state: ParseState) -> bool:
    """Whether the bold topic line at ``position`` heads something: the block after it (comments
    aside) is a list, code, a table, a quote or text — not a heading, another bold topic line, a
    ``---`` break or the end of the note."""
    following = next_block(blocks, position)
    if following is None:
        return False
    if following.kind == "paragraph":
        return following.role in ("", "group") and not is_bold_topic(following, state)
    return following.kind in _BOLD_BODY_KINDS


def _is_talk_title(text: str, state: ParseState) -> bool:
    """``**Gateway API is GA, now what?**``, ``*Why we left Kafka!*``: an emphasised line (or a
    title wrapped over two lines) short enough for a heading that is no lead-in (``:``, ``;``,
    ``,``), label or numbered point, whatever else ends it. The speaker line under it is what says
    it is a talk's title."""
    found = recover.emphasised_title(text)
    if found is None or recover.bold_point(text.strip()) is not None:
        return False
    inner = " ".join(found[1].split())
    limit = state.options.max_heading_length
    if recover.is_session_line(inner, limit):
        return True
    return 0 < len(inner) <= limit and inner[-1] not in ":;," and not recover.is_label_line(inner) and any(char.isalpha() for char in inner)


def _byline(line: str) -> bool:
    """A short line under a talk's title that is no sentence (``various speakers``)."""
    stripped = line.strip()
    return bool(stripped) and len(stripped.split()) <= 6 and stripped[-1] not in ".!?:;" and not recover.is_glyph_line(stripped)


#: The fewest talks in bold-title + speaker form that make a note's pattern.
_TALK_PATTERN = 2


def _talk_titles(blocks: list[Top], state: ParseState) -> None:
    """A conference day written as ``**Talk title**`` over a line naming its speakers (``Priya Raman
    (CNCF)``), on the next line or as the next paragraph: each talk is a section, its speaker line
    the section's first paragraph (``info`` ``speakers``), when the note has at least two. Then a
    bold title over any short byline (``**Lightning talks**`` / ``various speakers``) is one too."""
    joined: list[int] = []  # "**Title**\nName" in one paragraph
    apart: list[int] = []  # "**Title**" then a paragraph "Name"
    for position, top in enumerate(blocks):
        if top.kind != "paragraph" or top.role:
            continue
        lines = top.content.split("\n")
        if len(lines) in (2, 3) and top.b - top.a == len(lines) and _is_talk_title("\n".join(lines[:-1]), state) and _byline(lines[-1]):
            joined.append(position)
        elif top.b - top.a <= 2 and _is_talk_title(top.content, state):
            following = next_block(blocks, position)
            if (
                following is not None
                and following.kind == "paragraph"
                and not following.role
                and following.b - following.a == 1
                and recover.speaker_names(following.content)
            ):
                apart.append(position)
    named = [position for position in joined if recover.speaker_names(blocks[position].content.split("\n")[-1])]
    if len(named) + len(apart) < _TALK_PATTERN:
        return
    for position in apart:
        blocks[position].role = "bold-heading"
        following = next_block(blocks, position)
        if following is not None:
            following.role = "speakers"
    split: list[Top] = []
    chosen = set(joined)
    for position, top in enumerate(blocks):
        if position not in chosen:
            split.append(top)
            continue
        title, byline = top.content.rsplit("\n", 1)
        split.append(Top("paragraph", top.start, top.stop, top.a, top.b - 1, content=title, role="bold-heading", lead=True))
        split.append(Top("paragraph", top.start, top.stop, top.b - 1, top.b, content=byline, role="speakers", lead=True))
    blocks[:] = split
    state.recovered.add("talk-titles")


def _naming_line(blocks: list[Top]) -> Top | None:
    """The note's first line when it names the notes (``KubeCon EU 2026 notes``): the title
    ``meta.find_title`` takes where nothing above it gives one, and ``fmt`` writes as ``#``."""
    content = [top for top in blocks if top.role not in ("filename", "skip", "email") and top.kind not in ("html_block", "reference")]
    if len(content) < 2:
        return None
    first = content[0]
    if first.kind != "paragraph" or first.role or first.b - first.a != 1:
        return None
    return first if recover.is_note_title(first.content) and not recover.is_label_line(first.content) else None


#: The parts of a talk's notes a bold line names on its own: a heading even where it is the only one.
_SECTION_WORD = re.compile(
    r"(?:q ?& ?a|q and a|questions(?: and answers)?|takeaways?|key takeaways|summary|demo|resources|links|references|"
    r"further reading|next steps|action items|my notes|wrap[- ]up|conclusions?)$",
    re.IGNORECASE,
)


def _bold_headings(blocks: list[Top], state: ParseState) -> None:
    """In a note with headings, bold topic lines each standing alone over what they head are
    sub-headings (the assembler places them one level below the section they stand in), when the
    note has at least two: one bold line alone is the author's emphasis, not a pattern.

    A note has headings when it has Markdown headings, headings recovered from bare lines, or a
    first line naming the notes: everything ``fmt`` writes as a heading, so that a note reads the
    same before and after ``fmt``."""
    naming = _naming_line(blocks)
    if naming is None and not any(top.kind == "heading" or top.role in ("heading", "bold-heading") for top in blocks):
        return
    topics = [
        position
        for position, top in enumerate(blocks)
        if top is not naming and is_bold_topic(top, state) and _heads_content(blocks, position, state)
    ]
    if len(topics) < _BOLD_PATTERN:
        # one alone is emphasis, unless it names a part every talk may have (**Q&A**, **Takeaways**)
        topics = [position for position in topics if _SECTION_WORD.match(blocks[position].content.strip()[2:-2].strip())]
    for position in topics:
        blocks[position].role = "bold-heading"
