"""The block stream written as plain Markdown, the text the shared recovery rules then read.

Only what a format states for certain becomes Markdown syntax (heading styles, list levels,
tables, code); what a person infers from the look of a line (a bold-only line, ``Talk: …``,
``Speaker: …``, a typed ``•``) is written as that line, so a document and a paste of the same
shape go through the same recovery rules and give the same outline.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

from confnotes.importers.blocks import Block, Code, Image, Imported, Item, Note, Para, Run, Table

_ESCAPE = re.compile(r"([\\`*\[\]<])")
_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")
_ENTITY = re.compile(r"&(?=#?\w+;)")
_LINE_START = re.compile(r"^([ \t]*)([#>]|=+[ \t]*$|-{3,}[ \t]*$|_{3,}[ \t]*$|\*{3,}[ \t]*$)", re.M)
_ITEM_START = re.compile(r"^(\d{0,9})([-+.)])(?=[ \t]|$)")
_SAFE_LINK = re.compile(r"^(?:https?://|mailto:|#)", re.I)


def escape(text: str) -> str:
    """Text that Markdown reads back as the same characters (no emphasis, code, links or HTML)."""
    text = _ESCAPE.sub(r"\\\1", text)
    text = _UNDERSCORE.sub(r"\\_", text)
    text = _ENTITY.sub("&amp;", text)
    return _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


def _escape_marker(match: re.Match[str]) -> str:
    number, mark = match.groups()
    if bool(number) != (mark in ".)"):
        return match.group(0)  # "5-" or a bare "." opens no list
    return f"{number}\\{mark}"


def _merge(runs: Iterable[Run]) -> list[Run]:
    """Neighbouring runs with the same look as one (Word splits a word into several runs)."""
    out: list[Run] = []
    for run in runs:
        if not run.text:
            continue
        if out:
            last = out[-1]
            if (last.bold, last.italic, last.code, last.link, last.raw) == (run.bold, run.italic, run.code, run.link, run.raw):
                out[-1] = Run(last.text + run.text, last.bold, last.italic, last.code, last.link, last.raw)
                continue
        out.append(run)
    return out


def _code_span(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _wrap(text: str, mark: str) -> str:
    """``**text**`` with the spaces at its edges moved outside, as CommonMark needs them."""
    core = text.strip()
    if not core:
        return text
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    return f"{lead}{mark}{core}{mark}{trail}"


def plain_look(runs: Sequence[Run]) -> tuple[Run, ...]:
    """A heading's runs without the bold or italic its whole text has (the heading's style, not emphasis)."""
    texts = [run for run in runs if run.text.strip()]
    bold = bool(texts) and all(run.bold for run in texts)
    italic = bool(texts) and all(run.italic for run in texts)
    return tuple(Run(run.text, run.bold and not bold, run.italic and not italic, run.code, run.link, run.raw) for run in runs)


def inline(runs: Sequence[Run], dropped: list[str] | None = None) -> str:
    """Runs as inline Markdown: bold, italic, code spans and links (only web and mail links)."""
    parts: list[str] = []
    for run in _merge(runs):
        if run.raw:
            text = _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), run.text)
        elif run.code and run.text.strip() and "\n" not in run.text:
            text = _wrap(run.text, "").replace(run.text.strip(), _code_span(run.text.strip()))
        else:
            text = "\n".join(escape(line) for line in run.text.split("\n"))
            if run.italic:
                text = _wrap(text, "*")
            if run.bold:
                text = _wrap(text, "**")
        if run.link:
            if _SAFE_LINK.match(run.link):
                target = run.link.replace(" ", "%20").replace("(", "%28").replace(")", "%29")
                lead = text[: len(text) - len(text.lstrip())]
                trail = text[len(text.rstrip()) :]
                text = f"{lead}[{text.strip()}]({target}){trail}" if text.strip() else text
            elif dropped is not None:
                dropped.append(f"link to {run.link.split(':', 1)[0]}: (kept its text)")
        parts.append(text)
    text = "".join(parts)
    return "\n".join(line.strip() for line in text.split("\n")).strip()


def _cell(runs: Sequence[Run]) -> str:
    return " ".join(inline(runs).split("\n")).replace("|", "\\|") or " "


def _table(table: Table) -> list[str]:
    width = max(len(row) for row in table.rows)
    rows = [[_cell(cell) for cell in row] + [" "] * (width - len(row)) for row in table.rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "|".join(["---"] * width) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    return lines


def _fence(text: str) -> list[str]:
    longest = max((len(m) for m in re.findall(r"^[ \t]*(`{3,})", text, re.M)), default=2)
    fence = "`" * max(3, longest + 1)
    return [fence, *text.rstrip("\n").split("\n"), fence]


def asset_link(folder: str, name: str) -> str:
    path = f"{folder}/{name}"
    return f"<{path}>" if any(char in path for char in " ()<>") else path


def heading_offset(blocks: Sequence[Block]) -> int:
    """How many levels headings move down: one under a Title, none when a lone level-1 heading
    is the title already (or when there are no headings)."""
    headings = [block for block in blocks if isinstance(block, Para) and block.style == "heading"]
    if any(isinstance(block, Para) and block.style == "title" for block in blocks):
        return 1 - min((block.level for block in headings), default=1) + 1
    if not headings:
        return 0
    top = min(block.level for block in headings)
    if sum(1 for block in headings if block.level == top) == 1 and headings[0].level == top:
        return 1 - top  # the one top heading opens the note: it is the title (#), the rest follow
    return 2 - top  # several top headings: sections (##) under a title found elsewhere


_TYPED_ITEM = re.compile(r"^\s*(?:\d{1,3}[.)]|[•◦▪▫‣⁃●○■□➢➤–—·§o*+-])\s")
#: A paragraph typed as a Markdown bullet (``* three``, ``+ four``, ``- five``): its marker escaped
#: by ``inline`` (``\* three``), written back as the bullet it is
_TYPED_MARKDOWN_BULLET = re.compile(r"^(\s*)\\?[*+-]\s+")


#: A task's box at an item's start, as ``inline`` escapes it (``\[x\] done``)
#: A task's box drawn as a character at an item's start (Google Keep writes ``☑``/``☐``)
_TASK_GLYPH = re.compile(r"^([☑☒✅✔☐])\s*")
_TASK_BOX = re.compile(r"^\\\[([ xX])\\\] ")


def typed_item(block: Block | None) -> bool:
    """A paragraph typed as a list item (``1. …``, ``• …``): one paragraph each in a word processor,
    one list in a paste, so they are written as lines of one list for the recovery rules to read."""
    return isinstance(block, Para) and not block.style and _TYPED_ITEM.match(block.text) is not None


def front_matter(meta: dict[str, str]) -> list[str]:
    """YAML front matter (JSON strings are YAML); speakers as a list, so "Name, Company" stays one
    speaker, and "Ada; Grace" (as ``render --to docx`` writes several) two."""
    if not meta:
        return []
    lines = []
    for key, value in meta.items():
        speakers = [name.strip() for name in value.split(";") if name.strip()] if key == "speakers" else []
        written = json.dumps(speakers or value, ensure_ascii=False)
        lines.append(f"{key}: {written}")
    return ["---", *lines, "---", ""]


def _restarts(block: Item, previous: Block | None) -> bool:
    """Whether a numbered item starts a list again right below another at its level (``3. three``
    then ``1. again``): Markdown would read the two as one list numbered on (3, 4)."""
    return (
        isinstance(previous, Item)
        and previous.ordered
        and previous.level == block.level
        and block.number is not None
        and previous.number is not None
        and block.number <= previous.number
    )


class _Writer:
    """Markdown lines for the stream, with the text column of each open list level."""

    def __init__(self, imported: Imported, assets_folder: str, out: list[str]) -> None:
        self.imported = imported
        self.assets_folder = assets_folder
        self.out = out
        self.offset = heading_offset(imported.blocks)
        self.indents: list[int] = []
        self.delimiters: dict[int, str] = {}  # the delimiter of the numbered list open at each level
        self.titled = False
        self.o_items: set[int] = set()  # paragraphs typed as ``o`` bullets, two or more in a row (``_o_runs``)

    def blank(self) -> None:
        if self.out and self.out[-1] != "":
            self.out.append("")

    def item(self, block: Item, previous: Block | None) -> None:
        if not isinstance(previous, (Item, Note)):
            self.blank()
        indents = self.indents
        del indents[min(block.level, len(indents)) :]
        pad = indents[-1] if indents else 0
        marker = f"{block.number if block.number is not None else 1}{self.delimiter(block, previous)}" if block.ordered else "-"
        text = inline(block.runs, self.imported.dropped)
        # an item whose own text opens with "1." or "-" keeps it as text, not as a list inside the item
        lines = [_ITEM_START.sub(_escape_marker, line, count=1) for line in text.split("\n")] if text else [""]
        lines[0] = _TASK_GLYPH.sub(lambda m: "[x] " if m.group(1) in "☑☒✅✔" else "[ ] ", lines[0], count=1)  # Keep's ☑ and ☐
        lines[0] = _TASK_BOX.sub(r"[\1] ", lines[0], count=1)  # a task's box (Evernote, Keep): "- [x] done", as GitHub writes it
        self.out.append(" " * pad + f"{marker} {lines[0]}".rstrip())
        indents.append(pad + len(marker) + 1)
        self.out.extend(" " * indents[-1] + line for line in lines[1:])

    def delimiter(self, block: Item, previous: Block | None) -> str:
        """``.``, and ``)`` for a list that starts again right below another (then ``.`` again), so
        that Markdown reads it as a new list."""
        continues = isinstance(previous, Item) and previous.level >= block.level and block.level in self.delimiters
        if _restarts(block, previous):
            self.delimiters[block.level] = ")" if self.delimiters.get(block.level) == "." else "."
        elif not continues:
            self.delimiters[block.level] = "."
        return self.delimiters[block.level]

    def note(self, block: Note) -> None:
        indents = self.indents
        pad = indents[min(block.level, len(indents)) - 1] if indents and block.level else 0
        self.blank()
        self.out.extend((" " * pad + line) if line.strip() else "" for line in block.text.split("\n"))
        self.out.append("")

    def para(self, block: Para) -> None:
        text = inline(plain_look(block.runs) if block.style else block.runs, self.imported.dropped)
        if not text:
            return
        if block.style == "title" and not self.titled:
            self.out.append("# " + " ".join(text.split()))
            self.titled = True
        elif block.style == "heading":
            level = max(1, min(6, block.level + self.offset))
            self.out.append("#" * level + " " + " ".join(text.split()))
        elif block.style == "quote":
            self.quote(text)
        else:
            if id(block) in self.o_items:
                text = re.sub(r"^(\s*)o\s+", "\\1• ", text, count=1)
            elif _TYPED_MARKDOWN_BULLET.match(text) and typed_item(block):
                # "* three" typed in Word is a bullet, as "• three" is: written as one, the paste rules read both alike
                text = _TYPED_MARKDOWN_BULLET.sub("\\1• ", text, count=1)
            # a line break inside a paragraph is a hard break, as the document showed it
            self.out.append("\\\n".join(text.split("\n")))

    def quote(self, text: str) -> None:
        """A quoted paragraph; one that starts with a callout's sign (``⚠ Locks``, as ``render --to
        docx`` writes a callout's title) opens a callout, and bullets written as text are items."""
        from confnotes.markup.callouts import GLYPHS

        first, _, rest = text.partition(" ")
        kinds = {glyph: kind for kind, glyph in reversed(GLYPHS.items())}
        if first in kinds and rest.strip():
            self.out.append(f"> [!{kinds[first].upper()}] {' '.join(rest.split())}")
            return
        item = _QUOTED_ITEM.match(text)
        if item is not None:
            text = ("  " if item.group(1) else "") + "- " + item.group(2)
        self.out.extend("> " + line for line in text.split("\n"))

    def block(self, block: Block, previous: Block | None) -> None:
        self.indents = []
        quoted = all(isinstance(one, Para) and one.style == "quote" and one.level == block.level for one in (block, previous))  # type: ignore[union-attr]
        if quoted and self.out and self.out[-1] == "":
            # a quote goes on: one blockquote, its paragraphs apart, a list's items one under another
            self.out[-1] = ">"
            if _QUOTED_ITEM.match(inline(block.runs, [])) and self.out[-2].lstrip("> ").startswith("- "):  # type: ignore[union-attr]
                self.out.pop()
        elif not (typed_item(block) and typed_item(previous)):
            self.blank()
        if isinstance(block, Para):
            self.para(block)
        elif isinstance(block, Code):
            self.out.extend(_fence(block.text))
        elif isinstance(block, Table) and block.rows:
            self.out.extend(_table(block))
        elif isinstance(block, Image):
            alt = escape(" ".join(block.alt.split()))
            target = f"<{block.name}>" if block.remote else asset_link(self.assets_folder, block.name)
            self.out.append(f"![{alt}]({target})")
        self.out.append("")


#: An item of a list inside a quote, written as text behind a bullet (``• a``, ``\u2003◦ b``).
_QUOTED_ITEM = re.compile(r"(\u2003)?[•◦‣▪] (.*)", re.S)


def _o_runs(blocks: Sequence[Block]) -> set[int]:
    """The paragraphs typed as ``o`` bullets (Word's second-level glyph, typed or pasted as a letter),
    two or more in a row: alone, ``o well`` is a word."""
    typed = [typed_item(block) and isinstance(block, Para) and block.text.lstrip().startswith("o ") for block in blocks]
    return {id(block) for n, block in enumerate(blocks) if typed[n] and ((n and typed[n - 1]) or (n + 1 < len(typed) and typed[n + 1]))}


def to_markdown(imported: Imported, assets_folder: str, meta: dict[str, str] | None = None) -> str:
    """The stream as Markdown, in reading order; images link into ``assets_folder``."""
    out: list[str] = front_matter(meta or {})
    writer = _Writer(imported, assets_folder, out)
    writer.o_items = _o_runs(imported.blocks)
    previous: Block | None = None
    for block in imported.blocks:
        if isinstance(block, Item):
            writer.item(block, previous)
        elif isinstance(block, Note):
            writer.note(block)
        else:
            writer.block(block, previous)
        previous = block
    while out and out[-1] == "":
        out.pop()
    if not out:
        return ""
    out.append("")  # the final newline, joined in: the text is made once, not copied to add it
    return "\n".join(out)
