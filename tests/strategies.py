"""Hypothesis strategies for notes in both styles: Markdown and pasted from chat, Docs or Word."""

from __future__ import annotations

import os

from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("CONFNOTES_FUZZ_EXAMPLES", "300"))
WORDS = st.sampled_from(
    ["Scaling", "systems", "design", "for", "failure", "会议", "масштаб", "🚀", "naïve", "“quoted”",
     "x", "I/O", "e.g.,", "(RAG)", "v6", "—", "Label:", "http://example.org", "**bold**", "_em_", "`code`",
     "[link](https://example.org)", "![img](pic.png)", "<b>", "&amp;", "\\*", "#tag", "1.", "a|b", "\t"]
)
PHRASE = st.lists(WORDS, min_size=1, max_size=8).map(" ".join)
GLYPHS = st.sampled_from(list("•◦▪▫‣⁃●○■□➢➤–—"))


@st.composite
def line(draw) -> str:
    kind = draw(st.integers(0, 16))
    text = draw(PHRASE)
    indent = draw(st.sampled_from(["", "", "  ", "   ", "    ", "     ", "\t", " \t"]))
    return [
        f"{text}",
        f"{indent}{draw(GLYPHS)} {text}",
        f"{indent}{draw(st.integers(0, 12))}{draw(st.sampled_from(['.', ')']))} {text}",
        f"{indent}{draw(st.sampled_from(['-', '*', '+']))} {text}",
        f"{'#' * draw(st.integers(1, 7))} {text}",
        "",
        "",
        draw(st.sampled_from(["---", "***", "___", "==="])),
        f"> {text}",
        f"| {text} | b |\n|---|---|\n| 1 | 2 |",
        f"```\n{indent}• {text}\n```",
        f"<!-- {text} -->",
        f"Note: {text}",
        f"{text}.",
        f"{text}:",
        f"::: notes\n{text}\n:::",
        f"notes-{draw(st.integers(0, 99))}.md",
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
