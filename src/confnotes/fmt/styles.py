"""The Markdown style ``fmt`` writes a note in, each decided once, by one function, from the note and
its ``[fmt]`` settings.

``consistent`` (every setting's default) keeps the style the note already uses throughout — its
bullet marker, its heading style, its emphasis markers, its numbering — so a note written in one
style is written back byte for byte; a note that mixes styles (or has none of its own yet, as a
paste) gets the first choice of each: ``-``, ATX, ``*``, ``**``, ``1. 2. 3.``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from confnotes.fmt.emphasis import Marks, marks_of, restyle
from confnotes.model import Block, Document, Entry, List, Node, walk_content
from confnotes.settings import FmtSettings


@dataclass
class Styles:
    """The concrete styles of one note, ``consistent`` resolved."""

    bullet: str = "-"  # "-", "*" or "+"
    heading: str = "atx"  # "atx" or "setext"
    emphasis: str = "*"  # "*" or "_"
    strong: str = "*"  # "*" (``**``) or "_" (``__``)
    ordered: str = "ordered"  # "ordered" (1. 2. 3.) or "one" (1. 1. 1.)
    nesting: str | None = None  # what a nested list's marker stands right of its item's (None: at its content)
    _restyled: dict[str, str] = field(default_factory=dict, repr=False)

    def text(self, text: str) -> str:
        """Inline Markdown (a title, a paragraph) with this note's emphasis markers."""
        if not any(mark in text for mark in {"*", "_"} - {self.emphasis} | {"*", "_"} - {self.strong}):
            return text  # no marker this note does not use: nothing to change, nothing to parse
        if text not in self._restyled:
            self._restyled[text] = restyle(text, self.emphasis, self.strong)
        return self._restyled[text]

    def numbers(self, lst: List) -> list[str]:
        """The numbers of an ordered Markdown list's items: from its first number, as ``ordered``
        says; a number already right stays as written (``01.``)."""
        start = int(lst.start or lst.items[0].number or 1)
        out = []
        for index, item in enumerate(lst.items):
            wanted = start if self.ordered == "one" else start + index
            number = item.number or str(wanted)
            out.append(number if number.isdigit() and int(number) == wanted else str(wanted))
        return out


def resolve_styles(doc: Document, settings: FmtSettings) -> Styles:
    """The styles ``doc`` is written in under ``settings``."""
    parts = NoteParts.of(doc)
    emphasis, strong = emphasis_styles(parts, settings.emphasis, settings.strong)
    return Styles(
        bullet=bullet_style(parts, settings.bullet),
        heading=heading_style(parts, settings.heading),
        emphasis=emphasis,
        strong=strong,
        ordered=ordered_style(parts, settings.ordered),
        nesting=nesting_style(parts),
    )


@dataclass
class NoteParts:
    """What the styles are read from, gathered in one walk of the note."""

    doc: Document
    contents: list[tuple[Entry, ...]] = field(default_factory=list)  # the note's and every node's content
    lists: list[List] = field(default_factory=list)  # its Markdown lists (not pasted bullets)
    sections: list[Node] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # what fmt writes with the note's emphasis markers

    @classmethod
    def of(cls, doc: Document) -> NoteParts:
        parts = cls(doc, [doc.content])
        meta = doc.meta
        if meta.title_origin in ("heading", "inferred"):
            parts.texts.append(meta.title)
        for entry in walk_content(doc.content):
            if type(entry) is Node:
                parts.contents.append(entry.content)
                parts.texts.append(entry.title)
                if entry.is_section:
                    parts.sections.append(entry)
                    if entry.origin == "bold":  # a bold sub-heading's marks are the note's strong style too
                        parts.texts.append(f"{entry.marker}{entry.title}{entry.marker}")
            elif type(entry) is List:
                if entry.origin == "list":
                    parts.lists.append(entry)
            elif type(entry) is Block and entry.kind == "paragraph":
                parts.texts.append(entry.text)
        return parts


def _one_of(used: set[str], default: str) -> str:
    return next(iter(used)) if len(used) == 1 else default


def follows_bullets(content: tuple[Entry, ...]) -> Iterator[tuple[List, bool]]:
    """Each bullet list of ``content``, and whether it comes right after another (so it needs
    another marker to stay a list of its own)."""
    previous: Entry | None = None
    for entry in content:
        if type(entry) is List and not entry.ordered:
            yield entry, type(previous) is List and not previous.ordered
        previous = entry


def bullet_style(parts: NoteParts, setting: str) -> str:
    """``-``, ``*`` or ``+``: the setting, or the one marker all the note's bullet lists use (but
    a list right after another, which needs another marker)."""
    if setting != "consistent":
        return setting
    used = {lst.marker for content in parts.contents for lst, follows in follows_bullets(content) if lst.origin == "list" and not follows}
    return _one_of(used, "-")


def heading_style(parts: NoteParts, setting: str) -> str:
    """``atx`` or ``setext``: the setting, or setext when every heading of level 1 or 2 (the only
    levels setext has) is written so."""
    if setting != "consistent":
        return setting
    used = {node.origin for node in parts.sections if node.level <= 2}
    used.discard("inferred")
    used.discard("bold")  # bold sub-headings stay bold lines, whatever the heading style
    meta = parts.doc.meta
    if meta.title_origin == "heading" and meta.title_span is not None and meta.title_level <= 2:
        lines = meta.title_span.end - meta.title_span.start + 1
        used.add("setext" if lines > meta.title.count("\n") + 1 else "atx")
    return "setext" if used == {"setext"} else "atx"


def ordered_style(parts: NoteParts, setting: str) -> str:
    """``ordered`` or ``one``: the setting, or ``one`` when every numbered list of two or more items
    repeats its first number (``1. 1. 1.``)."""
    if setting != "consistent":
        return setting
    used: set[str] = set()
    for lst in parts.lists:
        numbers = [int(item.number) for item in lst.items if item.number is not None and item.number.isdigit()]
        if not lst.ordered or len(numbers) < 2:
            continue
        if all(number == numbers[0] for number in numbers):
            used.add("one")
        elif numbers != list(range(numbers[0], numbers[0] + len(numbers))):
            used.add("mixed")
        else:
            used.add("ordered")
    return "one" if used == {"one"} else "ordered"


def _leading(node: Node) -> str | None:
    """The whitespace before an item's marker, when it is all spaces or all tabs."""
    chars = node.col - 1
    if node.indent == chars:
        return " " * chars
    return "\t" * chars if node.indent == 4 * chars else None


def nesting_style(parts: NoteParts) -> str | None:
    """How the note indents nested lists: ``None`` (each at its item's content column, as fmt
    writes them), or the whitespace every nested marker stands right of its item's marker when
    the note uses one throughout (four spaces, a tab)."""
    units: set[str | None] = set()
    at_content = True
    for lst in parts.lists:
        for parent in lst.items:
            outer = _leading(parent)
            marker = len(f"{parent.number}{parent.delimiter}") if parent.number is not None else 1
            for child in (item for inner in parent.lists if inner.origin == "list" for item in inner.items):
                inner_ws = _leading(child)
                if outer is None or inner_ws is None or not inner_ws.startswith(outer):
                    return None
                units.add(inner_ws[len(outer) :])
                at_content = at_content and child.indent == parent.indent + marker + 1
    return units.pop() if len(units) == 1 and not at_content else None


def emphasis_styles(parts: NoteParts, emphasis: str, strong: str) -> tuple[str, str]:
    """``*`` or ``_`` for emphasis and for strong emphasis: the settings, or the one marker the
    note's texts use for each."""
    if emphasis != "consistent" and strong != "consistent":
        return emphasis, strong
    texts = parts.texts
    used = _union(marks_of(text) for text in texts if "_" in text)
    if "_" in used.emphasis or "_" in used.strong:  # only then can a note mix markers: look at the rest
        used = _union([used, *(marks_of(text) for text in texts if "_" not in text and "*" in text)])
    return (
        _one_of(set(used.emphasis), "*") if emphasis == "consistent" else emphasis,
        _one_of(set(used.strong), "*") if strong == "consistent" else strong,
    )


def _union(all_marks: Iterable[Marks]) -> Marks:
    emphasis: set[str] = set()
    strong: set[str] = set()
    for marks in all_marks:
        emphasis |= marks.emphasis
        strong |= marks.strong
    return Marks(frozenset(emphasis), frozenset(strong))
