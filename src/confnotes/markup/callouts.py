"""Callouts: GitHub's alerts, Obsidian's callouts and Quarto's callout divs, read one way.

- GitHub: ``> [!NOTE]`` (also ``TIP``, ``IMPORTANT``, ``WARNING``, ``CAUTION``) opening a quote.
- Obsidian: ``> [!quote] Title`` — any of its types, a title after the marker, and ``-`` (folded)
  or ``+`` (open) right after it for a callout the reader can fold: ``> [!faq]- Why?``.
- Quarto: ``::: {.callout-note title="…"}`` … ``:::``.

Each output shows a callout as a box with its kind's colour and a title (the type's name when it
has none); foldable where the output can fold (the HTML page), open everywhere else. An unknown
type is shown as a note, and lint names it (CN118).
"""

from __future__ import annotations

import re
from dataclasses import replace

from confnotes.model.values import BodyLine, Callout, Quote

#: Each type a callout may name, by its canonical kind: the five GitHub has (and Quarto), and
#: Obsidian's, with their aliases.
KINDS: dict[str, tuple[str, ...]] = {
    "note": ("note",),
    "tip": ("tip", "hint"),
    "important": ("important",),
    "warning": ("warning", "attention"),
    "caution": ("caution",),
    "abstract": ("abstract", "summary", "tldr"),
    "info": ("info",),
    "todo": ("todo",),
    "success": ("success", "check", "done"),
    "question": ("question", "help", "faq"),
    "failure": ("failure", "fail", "missing"),
    "danger": ("danger", "error"),
    "bug": ("bug",),
    "example": ("example",),
    "quote": ("quote", "cite"),
}
_KIND_OF = {alias: kind for kind, aliases in KINDS.items() for alias in aliases}
#: A kind's glyph, shown before its title where an output has no colour of its own (PPTX, Marp, text)
GLYPHS = {
    "note": "ℹ",
    "tip": "💡",
    "important": "❗",
    "warning": "⚠",
    "caution": "⛔",
    "abstract": "📋",
    "info": "ℹ",
    "todo": "☑",
    "success": "✔",
    "question": "❓",
    "failure": "✘",
    "danger": "⚡",
    "bug": "🐞",
    "example": "📝",
    "quote": "❝",
}

#: A kind's colour (as note.css and deck.css draw it), for outputs without a stylesheet (PPTX)
COLOURS = {
    **dict.fromkeys(("note",), "0969DA"),
    **dict.fromkeys(("tip", "success"), "1A7F37"),
    **dict.fromkeys(("important", "example"), "8250DF"),
    **dict.fromkeys(("warning", "question", "todo"), "9A6700"),
    **dict.fromkeys(("caution", "danger", "failure", "bug"), "CF222E"),
    **dict.fromkeys(("abstract", "info"), "0B7285"),
    "quote": "6E7781",
}

#: ``[!TYPE]`` opening a quote's first line: the type, ``-``/``+`` (foldable), the title
MARKER = re.compile(r"^\[!([A-Za-z][\w-]{0,30})\]([+-]?)[ \t]*(.*)$")
#: Quarto's ``title="…"`` on a callout div's fence
_TITLE = re.compile(r"""\btitle\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def kind_title(kind: str) -> str:
    return kind.capitalize()


def callout(first_line: str) -> Callout | None:
    """The callout a quote's first line (its ``>`` markers taken off) opens, else None."""
    match = MARKER.match(first_line.strip())
    if match is None:
        return None
    written = match.group(1)
    kind = _KIND_OF.get(written.lower())
    title = match.group(3).strip()
    return Callout(kind or "note", title or kind_title(kind or written.lower()), match.group(2), kind is not None, written)


def quote_callout(quote_text: str) -> Callout | None:
    """The callout a quote block (its source, ``>`` markers and all) is, with its body, else None."""
    first = quote_text.split("\n", 1)[0].lstrip()
    found = callout(first[1:].lstrip()) if first.startswith(">") else None
    if found is None:
        return None
    _, body = quote_body(quote_text)
    return replace(found, body=Quote(body, tuple(body_lines(body))))


def quote_value(quote_text: str) -> Quote | Callout:
    """A quote block's typed value: the callout it opens, else its body and lines."""
    found = quote_callout(quote_text)
    if found is not None:
        return found
    body = "\n".join(_unquoted(quote_text)).strip("\n")
    return Quote(body, tuple(body_lines(body)))


def div_callout(name: str, fence_text: str) -> Callout | None:
    """The callout a fenced div is (``::: {.callout-warning title="…"}``), else None."""
    if not name.startswith("callout-"):
        return None
    written = name[len("callout-") :]
    kind = _KIND_OF.get(written)
    found = _TITLE.search(fence_text)
    title = (found.group(1) or found.group(2) or "").strip() if found else ""
    return Callout(kind or "note", title or kind_title(kind or written), "", kind is not None, written)


def quote_body(quote_text: str) -> tuple[str, str]:
    """A callout quote's first line's text (after the marker) and its body, as Markdown without
    the quote's ``>`` markers."""
    unquoted = _unquoted(quote_text)
    first = MARKER.match(unquoted[0].strip()) if unquoted else None
    return (first.group(3).strip() if first else ""), "\n".join(unquoted[1:]).strip("\n")


def _unquoted(quote_text: str) -> list[str]:
    """A quote's lines with one level of ``>`` markers taken off."""
    lines = [line.lstrip() for line in quote_text.split("\n")]
    return [line[1:][1:] if line.startswith("> ") else line[1:] if line.startswith(">") else line for line in lines]


#: A line of a list in a callout's body: its indent, marker and text.
_LIST_LINE = re.compile(r"([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(.*)")


def body_lines(body: str) -> list[BodyLine]:
    """A callout's body (``quote_body``) as the lines its box shows: each paragraph one line (to
    wrap), each item of a list its own, a list's continuation lines run onto their item. The fit
    engine measures these and PPTX writes them, so both see the same lines."""
    lines: list[BodyLine] = []
    for part in re.split(r"\n\s*\n", body):
        start = len(lines)
        for line in part.split("\n"):
            match = _LIST_LINE.fullmatch(line)
            if match is not None:
                indent, marker, text = match.groups()
                lines.append(BodyLine(text, marker, 1 if len(indent.expandtabs(4)) >= 2 else 0))
            elif line.strip() and len(lines) > start:
                last = lines[-1]
                lines[-1] = last._replace(text=f"{last.text} {line.strip()}")
            elif line.strip():
                lines.append(BodyLine(line.strip()))
    return lines


def plain_quote(found: Callout) -> str:
    """A callout as a plain Markdown quote any viewer shows well (Marp, a text outline): its glyph
    and title in bold on the first line, its body below."""
    body = found.body.body if found.body is not None else ""
    lines = [f"> **{GLYPHS[found.kind]} {found.title}**"]
    if body:
        lines += [">", *(f"> {line}" if line else ">" for line in body.split("\n"))]
    return "\n".join(lines)
