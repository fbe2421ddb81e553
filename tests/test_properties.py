"""Property tests over generated notes in pasted and Markdown styles."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from confnotes.errors import NotesError
from confnotes.parse import parse
from helpers import assert_lossless

WORDS = st.sampled_from(
    ["Scaling", "systems", "design", "for", "failure", "会议", "масштаб", "🚀", "naïve", "“quoted”",
     "x", "I/O", "e.g.,", "(RAG)", "v6", "—", "Label:", "http://example.org", "**bold**", "_em_", "`code`"]
)
PHRASE = st.lists(WORDS, min_size=1, max_size=8).map(" ".join)
EXAMPLES = int(os.environ.get("CONFNOTES_FUZZ_EXAMPLES", "300"))
GLYPHS = st.sampled_from(list("•◦▪▫‣⁃●○■□➢➤–—"))


@st.composite
def line(draw) -> str:
    kind = draw(st.integers(0, 13))
    text = draw(PHRASE)
    indent = " " * draw(st.sampled_from([0, 0, 2, 3, 4, 5, 8]))
    return [
        f"{text}",
        f"{indent}{draw(GLYPHS)} {text}",
        f"{indent}{draw(st.integers(1, 12))}{draw(st.sampled_from(['.', ')']))} {text}",
        f"{indent}{draw(st.sampled_from(['-', '*', '+']))} {text}",
        f"{'#' * draw(st.integers(1, 6))} {text}",
        "",
        "",
        "---",
        f"> {text}",
        f"| {text} | b |\n|---|---|\n| 1 | 2 |",
        f"```\n{indent}• {text}\n```",
        f"<!-- {text} -->",
        f"Note: {text}",
        f"{text}.",
    ][kind]


@st.composite
def note(draw) -> str:
    lines = draw(st.lists(line(), max_size=30))
    text = "\n".join(lines)
    if draw(st.booleans()):
        text = f"---\ntitle: {draw(PHRASE)!r}\n---\n" + text
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    return text


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(note())
def test_parse_never_crashes_and_is_lossless(text: str):
    from confnotes.source import decode

    source = decode(text.encode("utf-8"), "gen.md")
    try:
        doc = parse(source.text, "gen.md")
    except NotesError:
        return
    assert_lossless(source.text, doc)
