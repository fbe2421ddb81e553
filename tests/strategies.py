"""Hypothesis strategies for notes in both styles: Markdown and pasted from chat, Docs or Word."""

from __future__ import annotations

import os

from hypothesis import strategies as st

#: Hypothesis examples a property runs at full count (`make stress`); the Makefile sets fewer for
#: `make check` and `make test` (CONFNOTES_FUZZ_EXAMPLES), and ``examples`` scales every property alike.
FULL_EXAMPLES = 300
EXAMPLES = int(os.environ.get("CONFNOTES_FUZZ_EXAMPLES", str(FULL_EXAMPLES)))


def examples(at_full_count: int) -> int:
    """A property's example count in this run: ``at_full_count`` scaled as EXAMPLES is to the full count."""
    return max(10, at_full_count * EXAMPLES // FULL_EXAMPLES)


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
        for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):  # bold topic lines: "**Q&A**" over what it heads
            parts.append(f"**{draw(TITLE)}**")
            parts.append(draw(content()))
        if draw(st.integers(0, 3)) == 0:
            parts.append(f"### {draw(TITLE)}")
            parts.append(draw(content()))
    return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------- well-formed notes in one consistent style


@st.composite
def note_style(draw) -> dict[str, str]:
    """One consistent style, as a note written by hand in one editor has it."""
    return {
        "bullet": draw(st.sampled_from(["-", "*", "+"])),
        "heading": draw(st.sampled_from(["atx", "setext"])),
        "em": draw(st.sampled_from(["*", "_"])),
        "strong": draw(st.sampled_from(["**", "__"])),
        "ordered": draw(st.sampled_from(["ordered", "one"])),
        "nesting": draw(st.sampled_from(["content", "    ", "\t"])),
    }


@st.composite
def styled_sentence(draw, style: dict[str, str]) -> str:
    """A sentence, sometimes with emphasis or strong emphasis in the note's markers."""
    words = draw(st.lists(PLAIN, min_size=2, max_size=8))
    kind = draw(st.sampled_from(["plain", "plain", "em", "strong"]))
    if kind != "plain":
        mark = style["em"] if kind == "em" else style["strong"]
        index = draw(st.integers(0, len(words) - 1))
        words[index] = f"{mark}{words[index]}{mark}"
    return " ".join(words).capitalize() + "."


@st.composite
def styled_item_title(draw, style: dict[str, str]) -> str:
    kind = draw(st.sampled_from(["title", "title", "label", "sentence"]))
    if kind == "label":
        return f"{draw(st.sampled_from(['Speaker', 'Slides', 'Why', 'Takeaway']))}: {draw(TITLE)}"
    return draw(TITLE) if kind == "title" else draw(styled_sentence(style))


@st.composite
def styled_list(draw, style: dict[str, str], indent: str, depth: int, ordered: bool) -> str:
    """A tight list (items and what they hold right below each other, code between bullets) or a
    loose one (blank lines between items, as the author left them)."""
    tight = draw(st.booleans())
    start = draw(st.sampled_from([1, 1, 1, 2])) if ordered and depth == 0 else 1
    count = draw(st.integers(1, 4))
    items = []
    for index in range(count):
        number = start if style["ordered"] == "one" else start + index
        marker = f"{number}." if ordered else style["bullet"]
        inner = indent + " " * (len(marker) + 1)
        lines = [f"{indent}{marker} {draw(styled_item_title(style))}"]
        if depth < 2 and draw(st.integers(0, 2)) == 0:
            nested = inner if style["nesting"] == "content" else indent + style["nesting"]
            if style["nesting"] == "\t" and indent.strip(" "):
                nested = indent + "\t"
            lines.append(draw(styled_list(style, nested, depth + 1, draw(st.booleans()))))
        elif depth == 0 and draw(st.integers(0, 3)) == 0:
            code = draw(st.lists(st.lists(PLAIN, min_size=1, max_size=3).map(" ".join), min_size=1, max_size=2))
            fence = "\n".join(inner + line for line in ["```text", *code, "```"])
            lines.append(fence if tight else "\n" + fence)
        items.append("\n".join(lines))
    return ("\n" if tight else "\n\n").join(items)


@st.composite
def styled_content(draw, style: dict[str, str]) -> str:
    entries: list[str] = []
    previous_list = False
    for _ in range(draw(st.integers(1, 4))):
        if not previous_list and draw(st.booleans()):
            ordered = draw(st.booleans())
            lst = draw(styled_list(style, "", 0, ordered))
            if entries and not entries[-1].startswith(("```", "|")) and draw(st.booleans()) and not lst.startswith(("2.", "3.")):
                entries[-1] += "\n" + lst  # "Three things:\n- …": a list right below its lead-in
            else:
                entries.append(lst)
            previous_list = True
        else:
            kind = draw(st.sampled_from(["paragraph", "paragraph", "code", "quote"]))
            if kind == "paragraph":
                entries.append("\n".join(draw(st.lists(styled_sentence(style), min_size=1, max_size=3))))
            elif kind == "code":
                entries.append("```sh\n" + " ".join(draw(st.lists(PLAIN, min_size=1, max_size=4))) + "\n```")
            else:
                entries.append("> " + draw(styled_sentence(style)))
            previous_list = False
    return "\n\n".join(entries)


def _styled_heading(style: dict[str, str], text: str, level: int) -> str:
    if style["heading"] == "setext" and level <= 2:
        return text + "\n" + ("=" if level == 1 else "-") * max(3, len(text))
    return "#" * level + " " + text


@st.composite
def styled_note(draw) -> str:
    """A well-formed Markdown note in one consistent style — any bullet marker, setext or ATX
    headings, either emphasis marker, ``1. 2. 3.`` or ``1. 1. 1.``, nested lists at the content
    column, four spaces or a tab — with ``---`` between talks: ``fmt`` must leave it byte for byte."""
    style = draw(note_style())
    parts = [_styled_heading(style, draw(TITLE), 1)]
    if draw(st.booleans()):
        parts.insert(0, f"---\nevent: {draw(TITLE)}\n---")
    if draw(st.booleans()):
        parts.append(draw(styled_content(style)))
    breaks = draw(st.booleans())
    for index in range(draw(st.integers(0, 3))):
        if breaks and (index or len(parts) > 1):
            parts.append("---")
        parts.append(_styled_heading(style, draw(TITLE), 2))
        parts.append(draw(styled_content(style)))
        for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):  # bold topic lines in the note's strong marker
            parts.append(f"{style['strong']}{draw(TITLE)}{style['strong']}")
            parts.append(draw(styled_content(style)))
        if draw(st.integers(0, 3)) == 0:
            parts.append(f"### {draw(TITLE)}")
            parts.append(draw(styled_content(style)))
    return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------- blank lines anywhere


@st.composite
def layout_block(draw, indent: str) -> str:
    kind = draw(st.sampled_from(["paragraph", "paragraph", "code", "quote", "table", "comment", "directive", "image", "notes"]))
    text = draw(TITLE)
    return {
        "paragraph": f"{indent}{text}.",
        "code": f"{indent}```\n{indent}{text}\n{indent}```",
        "quote": f"{indent}> {text}",
        "table": f"{indent}| {text} | x |\n{indent}|---|---|\n{indent}| a | b |",
        "comment": f"{indent}<!-- {text} -->",
        "directive": f"{indent}<!-- confnotes-disable-next-line long-item -->",
        "image": f"{indent}![{text}](a.png)",
        "notes": f"{indent}::: notes\n{indent}{text}\n{indent}:::",
    }[kind]


SEPARATOR = st.sampled_from(["\n", "\n\n", "\n\n"])


@st.composite
def layout_list(draw, indent: str, depth: int) -> str:
    """A list with a blank line, or none, wherever: between items, between a title and its code."""
    ordered = draw(st.booleans())
    bullet = draw(st.sampled_from(["-", "*", "+"]))
    one = draw(st.booleans())
    out = ""
    for index in range(draw(st.integers(1, 4))):
        marker = f"{1 if one else index + 1}." if ordered else bullet
        inner = indent + " " * (len(marker) + 1)
        item = f"{indent}{marker} {draw(TITLE)}"
        for _ in range(draw(st.integers(0, 2))):
            nested = depth < 2 and draw(st.booleans())
            item += draw(SEPARATOR) + draw(layout_list(inner, depth + 1) if nested else layout_block(inner))
        out += (draw(SEPARATOR) if out else "") + item
    return out


@st.composite
def layout_note(draw) -> str:
    """Markdown notes laid out the way people leave them: blank lines here and not there, code right
    under a bullet, comments and directives between items, ``---`` or ``***`` before a heading."""
    out = f"# {draw(TITLE)}"
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            out += "\n\n" + draw(st.sampled_from(["---", "***"]))
        out += draw(SEPARATOR) + draw(st.sampled_from(["## ", "### "])) + draw(TITLE)
        for _ in range(draw(st.integers(1, 4))):
            out += draw(SEPARATOR) + draw(st.one_of(layout_list("", 0), layout_block("")))
    return out + "\n"
