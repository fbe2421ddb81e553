"""Which plain lines are headings: the roles of top-level paragraphs (heading, filename, bold point, group).

Precision matters more than recall: a heading wrongly invented changes every output and
``fmt`` would write it into the user's file. So headings are inferred only in notes that
show they were pasted — pasted bullets, a file-name line, or a bare-line pattern of short heading-like lines
each followed by the text they head — and only for lines that read as headings.
"""

from __future__ import annotations

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


def _following(blocks: list[Top], position: int) -> Top | None:
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
        verdict = _heads_body(blocks[position], _following(blocks, position), state)
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
        out.append(top)
    return out


def _is_session(top: Top, state: ParseState) -> bool:
    return (
        top.kind == "paragraph"
        and not top.role
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
    for position in sessions:
        blocks[position].role = "heading"
    state.recovered.add("session-lines")
    opening = next((top for top in blocks if top.kind not in ("html_block", "reference") and top.role not in ("filename", "email")), None)
    if (
        opening is not None
        and _is_candidate(opening, state)
        and blocks.index(opening) < sessions[0]
        and all(top.kind in ("paragraph", "html_block", "reference") for top in blocks[blocks.index(opening) : sessions[0]])
    ):
        opening.role = "heading"


def classify(_tokens: list[Any], blocks: list[Top], state: ParseState) -> None:
    """Give every top-level paragraph its role: heading, filename, bold-point, group or text
    (``blocks`` may gain entries: a pasted heading line split from the text below it)."""
    explicit = [top for top in blocks if top.kind == "heading"]
    mode = state.options.infer_headings
    allowed = mode == "always" or (mode == "auto" and all(top.level == 1 for top in explicit) and len(explicit) <= 1)
    seen_section = False
    opening = True  # nothing but comments and a file-name line stands before this block
    for position, top in enumerate(blocks):
        if top.kind == "heading":
            seen_section = True
        if top.kind != "paragraph" or top.role:
            opening = opening and (top.kind == "html_block" or top.role == "filename")
            continue
        content = top.content
        following = _following(blocks, position)
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
    if not allowed:
        return
    _session_headings(blocks, state)
    pasted = bool(state.glyph_indexes) or mode == "always" or any(top.role == "filename" for top in blocks)
    if pasted:
        blocks[:] = _split_heading_lines(blocks, state)
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
            if position not in chosen and _is_candidate(top, state, question=True) and _heads_body(top, _following(blocks, position), state)
        ]
        if not _bare_line_pattern(candidates, titles, blocks, state):
            return
        candidates += titles
    for position in candidates:
        blocks[position].role = "heading"
