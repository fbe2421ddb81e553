"""A block's typed value: what ``parse`` read it as, once, for every output (docs/design.md, "Typed blocks").

A ``Block`` keeps its source text (lossless, order-true) and, where its kind has structure, one of
these frozen values: a table's cells and alignments, a code block's language and lines, a diagram's
tool and source, a formula's TeX, a quote's lines (lists included), a callout's kind, title and
lines, a paragraph of pictures. Outputs, the fit engine and lint rules match on the value's type;
they never recognise structure in the text again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


class BodyLine(NamedTuple):
    """A line a quote's or callout's box shows: a paragraph, or one item of a list (``marker`` ``-``,
    ``1.``…; ``level`` 1 for an item under an item)."""

    text: str
    marker: str | None = None
    level: int = 0

    @property
    def shown(self) -> str:
        """The line as a box without list markup shows it (PPTX, Word): an item behind its number or
        a bullet (``•``, ``◦`` under an item), indented by its level."""
        if self.marker is None:
            return self.text
        mark = self.marker if self.marker[0].isdigit() else "•◦"[self.level]
        return "\u2003" * self.level + f"{mark} {self.text}"


@dataclass(frozen=True, slots=True)
class Code:
    """A code block: its language (the info string's first word, as written; ``""`` for none), the
    rest of its info string (``{2|4-5}``, ``{.python}``) and its lines without fences or the four
    spaces of indented code (tabs expanded to 4)."""

    language: str
    attributes: str
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True, slots=True)
class Diagram:
    """A fence a drawing tool reads (``confnotes.markup.diagrams.LANGUAGES``): the tool (``mermaid``,
    ``dot``), the fence's language as written and its source. Where the tool is missing every output
    shows ``code`` instead, with one warning."""

    tool: str
    code: Code

    @property
    def source(self) -> str:
        return self.code.text


@dataclass(frozen=True, slots=True)
class Math:
    """A display formula (``$$…$$``): its TeX."""

    tex: str


@dataclass(frozen=True, slots=True)
class Table:
    """A pipe table: the header's cells, the body's rows of cells (inline Markdown, an escaped pipe
    kept in its cell) and each column's alignment (``left``, ``center``, ``right`` or ``""`` for the
    output's own)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    aligns: tuple[str, ...] = ()

    @property
    def all_rows(self) -> tuple[tuple[str, ...], ...]:
        """The header, then the body's rows."""
        return (self.header, *self.rows)

    @property
    def columns(self) -> int:
        return max((len(row) for row in self.all_rows), default=1)

    def part(self, body: range) -> Table:
        """The header and the body rows in ``body``: a table of its own (a slide's share of a long one)."""
        return Table(self.header, tuple(self.rows[index] for index in body), self.aligns)

    def markdown(self) -> str:
        """The table as a pipe table (a part's source, for outputs that print Markdown)."""
        marks = {"left": ":--", "center": ":-:", "right": "--:"}
        width = self.columns
        delimiter = [marks.get(self.aligns[index] if index < len(self.aligns) else "", "---") for index in range(width)]
        return "\n".join(f"| {' | '.join(row)} |" for row in (self.header, tuple(delimiter), *self.rows))


@dataclass(frozen=True, slots=True)
class Quote:
    """A quote's body (Markdown, its ``>`` markers taken off) and the lines its box shows, each
    paragraph a line and each list item its own, behind its marker."""

    body: str
    lines: tuple[BodyLine, ...]

    def ends_block(self, index: int) -> bool:
        """Whether line ``index`` ends a paragraph or a list, so a paragraph's gap follows it (not
        between a list's items): how the fit engine measures a quote and PPTX sets it."""
        return self.lines[index].marker is None or index + 1 == len(self.lines) or self.lines[index + 1].marker is None


@dataclass(frozen=True, slots=True)
class Callout:
    """A callout (GitHub's ``> [!NOTE]``, Obsidian's ``> [!faq]- Why?``, Quarto's ``::: {.callout-tip}``):
    its canonical kind (``confnotes.markup.callouts.KINDS``; ``note`` for a type confnotes does not know), its
    title as written (inline Markdown, or the kind's name), its folding (``""``, ``-`` folded, ``+``
    open), whether the written type is known, the type as written, and its body (a quote's; a
    Quarto div's body is the entries up to its closing fence: ``holds`` of them, text and lists
    only; a div holding anything else has no body and is no box)."""

    kind: str
    title: str
    fold: str = ""
    known: bool = True
    written: str = ""
    body: Quote | None = None
    holds: int = 0


@dataclass(frozen=True, slots=True)
class Picture:
    src: str
    alt: str
    title: str = ""


@dataclass(frozen=True, slots=True)
class Pictures:
    """A paragraph that is only pictures (``![alt](src "title")``), in order."""

    pictures: tuple[Picture, ...]


@dataclass(frozen=True, slots=True)
class Directives:
    """What one ``<!-- slide … -->`` comment asks for (``confnotes.parse.directives``), and what in it
    could not be read."""

    classes: tuple[str, ...] = ()
    background: str = ""
    hide: bool = False
    layout: str = ""
    incremental: bool = False
    notes: str = ""
    problems: tuple[str, ...] = field(default=(), compare=False)


#: What a block's ``value`` may be.
Value = Code | Diagram | Math | Table | Quote | Callout | Pictures | Directives
