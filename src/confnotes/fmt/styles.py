"""The Markdown style ``fmt`` writes a note in, each decided once, by one function, from the note and
its ``[fmt]`` settings.

``consistent`` (every setting's default) keeps the style the note already uses throughout — its
bullet marker at each list level, its heading style and setext underlines, its emphasis markers,
its numbering — so a note written in one style is written back byte for byte. Only what is
inconsistent within the note is normalised, to the style most of the note uses (on a tie, the
one it uses first); a note with none of its own gets ``-``, ATX, ``*``, ``**``, ``1. 2. 3.``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from confnotes.config.settings import FmtSettings
from confnotes.fmt.emphasis import marks_in, marks_of, restyle
from confnotes.model import Block, Document, Entry, List, Node, walk_content


@dataclass
class Styles:
    """The concrete styles of one note, ``consistent`` resolved."""

    bullet: str = "-"  # "-", "*" or "+": at a list level the note has no bullet list of its own at
    bullets: dict[int, str] = field(default_factory=dict)  # the marker at each list level (0: top) that has one
    heading: str = "atx"  # "atx" or "setext"
    underline: str | int = "title"  # a new setext underline: as long as its title's last line, or this many characters
    underlines: dict[int, int] = field(default_factory=dict)  # the note's own underlines: source line -> width, kept
    emphasis: str = "*"  # "*" or "_"
    strong: str = "*"  # "*" (``**``) or "_" (``__``)
    ordered: str = "ordered"  # "ordered" (1. 2. 3.) or "one" (1. 1. 1.)
    nesting: str | None = None  # what a nested list's marker stands right of its item's (None: at its content)
    _restyled: dict[str, str] = field(default_factory=dict, repr=False)

    def bullet_at(self, depth: int) -> str:
        """The bullet marker of a list ``depth`` lists deep (0: a top-level list)."""
        return self.bullets.get(depth, self.bullet)

    def underline_of(self, title: str, char: str, line: int | None = None) -> str:
        """A setext underline for a heading whose last line is ``title``: as long as the note wrote
        it (``line``: its underline's source line; its length is the author's style), else by ``underline``."""
        if line in self.underlines:
            return char * self.underlines[line]
        width = len(title) if self.underline == "title" else int(self.underline)
        return char * max(3, width)

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


def resolve_styles(doc: Document, settings: FmtSettings, source: str | None = None) -> Styles:
    """The styles ``doc`` is written in under ``settings`` (``source``: the text it was read from,
    where the setext underlines are read)."""
    parts = NoteParts.of(doc)
    emphasis, strong = emphasis_styles(parts, settings.emphasis, settings.strong)
    bullets = bullet_styles(parts, settings.bullet)
    # the note's setext underlines as written, read once (``consistent`` keeps them; any other setting sizes them)
    underlines = _setext_underlines(parts, source) if settings.setext_underline == "consistent" and source is not None else []
    return Styles(
        bullet=bullets.get(0, "-") if settings.bullet == "consistent" else settings.bullet,
        bullets=bullets,
        heading=heading_style(parts, settings.heading),
        underline=underline_style(underlines),
        underlines=written_underlines(underlines),
        emphasis=emphasis,
        strong=strong,
        ordered=ordered_style(parts, settings.ordered),
        nesting=nesting_style(parts),
    )


def majority(votes: Iterable[str], default: str) -> str:
    """The style most votes are for; on a tie the one voted for first; ``default`` with no vote."""
    counted = Counter(votes)  # counts in first-seen order, and max keeps the first of equals
    return max(counted, key=counted.__getitem__) if counted else default


@dataclass
class NoteParts:
    """What the styles are read from, gathered in one walk of the note."""

    doc: Document
    contents: list[tuple[Entry, ...]] = field(default_factory=list)  # the note's and every node's content
    lists: list[List] = field(default_factory=list)  # its Markdown lists (not pasted bullets)
    bullet_votes: list[tuple[int, str]] = field(default_factory=list)  # (list level, marker) of each bullet list
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
        parts.bullet_votes = list(_bullet_votes(doc.content, 0))
        return parts


def _bullet_votes(content: tuple[Entry, ...], depth: int) -> Iterator[tuple[int, str]]:
    """``(level, marker)`` of each Markdown bullet list in ``content`` and below, in source order;
    a list right after another (which needs another marker to stay apart) has no vote."""
    follows = dict((id(lst), after) for lst, after in follows_bullets(content))
    for entry in content:
        if type(entry) is List:
            if entry.origin == "list" and not entry.ordered and not follows.get(id(entry)):
                yield depth, entry.marker
            for item in entry.items:
                yield from _bullet_votes(item.content, depth + 1)
        elif type(entry) is Node:
            yield from _bullet_votes(entry.content, depth)


def follows_bullets(content: tuple[Entry, ...]) -> Iterator[tuple[List, bool]]:
    """Each bullet list of ``content``, and whether it comes right after another (so it needs
    another marker to stay a list of its own)."""
    previous: Entry | None = None
    for entry in content:
        if type(entry) is List and not entry.ordered:
            yield entry, type(previous) is List and not previous.ordered
        previous = entry


def bullet_styles(parts: NoteParts, setting: str) -> dict[int, str]:
    """The marker at each list level: the setting's everywhere, or the one most of the note's bullet
    lists at that level use (``*`` at the top and ``-`` below is a style, not a mix)."""
    if setting != "consistent":
        return {}
    depths = sorted({depth for depth, _ in parts.bullet_votes})
    return {depth: majority((marker for at, marker in parts.bullet_votes if at == depth), "-") for depth in depths}


def heading_style(parts: NoteParts, setting: str) -> str:
    """``atx`` or ``setext``: the setting, or the style most headings of level 1 or 2 (the only
    levels setext has) are written in."""
    if setting != "consistent":
        return setting
    votes: list[tuple[int, str]] = [
        (node.span.start, node.origin) for node in parts.sections if node.level <= 2 and node.origin in ("atx", "setext")
    ]
    meta = parts.doc.meta
    if meta.title_origin == "heading" and meta.title_span is not None and meta.title_level <= 2:
        lines = meta.title_span.end - meta.title_span.start + 1
        votes.append((meta.title_span.start, "setext" if lines > meta.title.count("\n") + 1 else "atx"))
    return majority((origin for _, origin in sorted(votes)), "atx")


def _setext_underlines(parts: NoteParts, source: str) -> list[tuple[int, str, str]]:
    """``(line, title, underline)`` of each setext heading of the note, the title's included: the
    underline's source line (1-based), the heading's title and the underline as written (stripped)."""
    lines = source.split("\n")
    ends = [(node.span.start + node.title.count("\n") + 1, node.title) for node in parts.sections if node.origin == "setext"]
    meta = parts.doc.meta
    if (
        meta.title_origin == "heading"
        and meta.title_span is not None
        and meta.title_span.end - meta.title_span.start > meta.title.count("\n")
    ):
        ends.append((meta.title_span.end, meta.title))
    return [(end, title, lines[end - 1].strip()) for end, title in ends if 0 < end <= len(lines)]


def underline_style(underlines: list[tuple[int, str, str]]) -> str | int:
    """How long a setext underline is: ``title`` (as its title's last line), or the one length all
    the note's underlines (``_setext_underlines``) share when they do not follow their titles
    (``=====`` under every heading)."""
    widths = [(len(title.split("\n")[-1]), len(underline)) for _, title, underline in underlines]
    if not widths or all(wanted == written for wanted, written in widths):
        return "title"
    written = {width for _, width in widths}
    return written.pop() if len(written) == 1 else "title"


def written_underlines(underlines: list[tuple[int, str, str]]) -> dict[int, int]:
    """The width of each setext underline the note writes, by its source line
    (1-based), when the note's underlines agree with each other: each at least as long as its title
    (an author who underlines long, or to a column, keeps that: its length is the author's style).
    Underlines that disagree (some short of their titles, some past them) are sized by
    ``underline_style`` instead: that is what fmt tidies."""
    widths, agree = {}, True
    for end, title, underline in underlines:
        if len(underline) >= 3 and set(underline) in ({"="}, {"-"}):
            widths[end] = len(underline)
            agree = agree and len(underline) >= len(title.split("\n")[-1])
    return widths if agree else {}


def ordered_style(parts: NoteParts, setting: str) -> str:
    """``ordered`` or ``one``: the setting, or the numbering most of the note's numbered lists of two
    or more items use (``1. 1. 1.`` repeats the first number)."""
    if setting != "consistent":
        return setting
    votes: list[str] = []
    for lst in parts.lists:
        numbers = [int(item.number) for item in lst.items if item.number is not None and item.number.isdigit()]
        if not lst.ordered or len(numbers) < 2:
            continue
        if all(number == numbers[0] for number in numbers):
            votes.append("one")
        elif numbers == list(range(numbers[0], numbers[0] + len(numbers))):
            votes.append("ordered")
    return majority(votes, "ordered")


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
    """``*`` or ``_`` for emphasis and for strong emphasis: the settings, or the marker most of the
    note's texts use for each."""
    if emphasis != "consistent" and strong != "consistent":
        return emphasis, strong
    marks = [marks_of(text) for text in parts.texts if "_" in text]
    if not any("_" in found.emphasis or "_" in found.strong for found in marks):  # no ``_`` marker: nothing to outvote ``*``
        return ("*" if emphasis == "consistent" else emphasis, "*" if strong == "consistent" else strong)
    used = [found for text in parts.texts if "_" in text or "*" in text for found in marks_in(text)]  # in source order, for a tie
    return (
        majority((mark for kind, mark in used if kind == "em"), "*") if emphasis == "consistent" else emphasis,
        majority((mark for kind, mark in used if kind == "strong"), "*") if strong == "consistent" else strong,
    )
