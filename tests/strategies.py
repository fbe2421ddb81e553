"""Hypothesis strategies for notes in both styles: Markdown and pasted from chat, Docs or Word."""

from __future__ import annotations

import os

from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("CONFNOTES_FUZZ_EXAMPLES", "300"))
WORDS = st.sampled_from(
    [
        "Scaling",
        "systems",
        "design",
        "for",
        "failure",
        "会议",
        "масштаб",
        "🚀",
        "naïve",
        "“quoted”",
        "x",
        "I/O",
        "e.g.,",
        "(RAG)",
        "v6",
        "—",
        "Label:",
        "http://example.org",
        "**bold**",
        "_em_",
        "`code`",
        "[link](https://example.org)",
        "![img](pic.png)",
        "<b>",
        "&amp;",
        "\\*",
        "#tag",
        "1.",
        "a|b",
        "\t",
    ]
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


# ---------------------------------------------------------------- notes shaped like real Markdown notes

#: Plain words, so a test can follow each one through every output in order.
PLAIN = st.sampled_from(
    [
        "alpha",
        "bravo",
        "charlie",
        "delta",
        "echo",
        "foxtrot",
        "golf",
        "hotel",
        "india",
        "juliet",
        "kilo",
        "lima",
        "mike",
        "november",
        "oscar",
        "papa",
        "quebec",
        "romeo",
        "sierra",
        "tango",
        "uniform",
        "victor",
        "whiskey",
        "xray",
        "yankee",
        "zulu",
        "кластер",
        "会议",
        "naïve",
        "scaling",
        "latency",
        "cache",
    ]
)
SENTENCE = st.lists(PLAIN, min_size=2, max_size=9).map(lambda words: " ".join(words).capitalize() + ".")
TITLE = st.lists(PLAIN, min_size=1, max_size=5).map(lambda words: " ".join(words).capitalize())


@st.composite
def block(draw, indent: str) -> str:
    """One block as written inside a container indented by ``indent``."""
    kind = draw(st.sampled_from(["paragraph", "paragraph", "code", "image", "table", "quote"]))
    if kind == "paragraph":
        lines = draw(st.lists(SENTENCE, min_size=1, max_size=3))
        return "\n".join(indent + line for line in lines)
    if kind == "code":
        lines = draw(st.lists(st.lists(PLAIN, min_size=1, max_size=4).map(" ".join), min_size=1, max_size=3))
        return "\n".join(indent + line for line in ["```text", *lines, "```"])
    if kind == "image":
        return f"{indent}![{draw(TITLE)}](img/{draw(st.integers(1, 9))}.png)"
    if kind == "table":
        head, cell = draw(TITLE), draw(TITLE)
        return f"{indent}| {head} | {draw(TITLE)} |\n{indent}|---|---|\n{indent}| {cell} | {draw(TITLE)} |"
    return f"{indent}> {draw(SENTENCE)}"


@st.composite
def markdown_list(draw, indent: str, depth: int) -> str:
    ordered = draw(st.booleans())
    start = draw(st.integers(1, 3))
    items = []
    for index in range(draw(st.integers(1, 4))):
        marker = f"{start + index}." if ordered else draw(st.sampled_from(["-", "*", "+"]))
        inner = indent + " " * (len(marker) + 1)
        item = f"{indent}{marker} {draw(TITLE)}"
        if depth < 2 and draw(st.integers(0, 2)) == 0:
            item += "\n\n" + draw(content(inner, depth + 1))
        items.append(item)
    if not ordered:  # one marker for the whole list, as CommonMark reads a list
        first = items[0][len(indent)]
        items = [item[: len(indent)] + first + item[len(indent) + 1 :] for item in items]
    return "\n\n".join(items)


@st.composite
def content(draw, indent: str = "", depth: int = 0) -> str:
    """Blocks and lists interleaved, as people write them: text between lists, code after bullets."""
    entries: list[str] = []
    previous_list = False
    for _ in range(draw(st.integers(1, 4))):
        if not previous_list and draw(st.booleans()):
            entries.append(draw(markdown_list(indent, depth)))
            previous_list = True
        else:
            entries.append(draw(block(indent)))
            previous_list = False
    return "\n\n".join(entries)


@st.composite
def markdown_note(draw) -> str:
    """A Markdown note: a title, a lede, sections and sub-sections, each with interleaved content."""
    parts = [f"# {draw(TITLE)}"]
    if draw(st.booleans()):
        parts.append(draw(content()))
    for _ in range(draw(st.integers(0, 3))):
        parts.append(f"## {draw(TITLE)}")
        parts.append(draw(content()))
        if draw(st.integers(0, 3)) == 0:
            parts.append(f"### {draw(TITLE)}")
            parts.append(draw(content()))
    return "\n\n".join(parts) + "\n"
