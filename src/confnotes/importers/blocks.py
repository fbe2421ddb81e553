"""The neutral block stream every import reader produces: what a person sees, not how a format stores it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Run:
    """A stretch of text with one look: bold, italic, monospace, or a link's target."""

    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False
    link: str | None = None
    #: the text is Markdown already (an outliner that stores Markdown, such as Dynalist or Logseq)
    raw: bool = False


@dataclass(frozen=True, slots=True)
class Para:
    """A paragraph; ``style`` is ``title``, ``subtitle``, ``heading`` (with ``level``), ``author`` or
    ``date`` (the lines pandoc writes under a title), ``quote``, or ``""``."""

    runs: tuple[Run, ...]
    style: str = ""
    level: int = 0

    @property
    def text(self) -> str:
        return "".join(run.text for run in self.runs)


@dataclass(frozen=True, slots=True)
class Item:
    """A list item at ``level`` (0 = top), numbered or not; ``number`` is the number a reader sees."""

    runs: tuple[Run, ...]
    level: int = 0
    ordered: bool = False
    number: int | None = None

    @property
    def text(self) -> str:
        return "".join(run.text for run in self.runs)


@dataclass(frozen=True, slots=True)
class Code:
    """Monospace lines: a ``<pre>``, a run of monospace paragraphs."""

    text: str


@dataclass(frozen=True, slots=True)
class Table:
    """Rows of cells, each cell's runs; the first row is read as the header."""

    rows: tuple[tuple[tuple[Run, ...], ...], ...]


@dataclass(frozen=True, slots=True)
class Image:
    """A picture extracted into the note's assets folder as ``name``, or (``remote``) one that lives
    at the web address ``name``: kept as a reference, never fetched."""

    name: str
    alt: str = ""
    remote: bool = False


@dataclass(frozen=True, slots=True)
class Note:
    """Text an outliner keeps under an item (``_note``), written under that item."""

    text: str
    level: int = 0


Block = Para | Item | Code | Table | Image | Note


@dataclass
class Imported:
    """A reader's result: the blocks in reading order, image bytes by asset name, meta the document
    states (its title property, author…) and what was dropped, each as a phrase for the summary."""

    format: str
    blocks: list[Block] = field(default_factory=list)
    assets: dict[str, bytes] = field(default_factory=dict)
    title: str | None = None
    dropped: list[str] = field(default_factory=list)
    #: what was kept in a way the reader should know of (a remote picture kept as its address)
    remarks: list[str] = field(default_factory=list)
    #: front matter the document states apart from its text (Notion's page properties, an Evernote note's tags)
    stated: dict[str, str] = field(default_factory=dict)

    def drop(self, what: str) -> None:
        self.dropped.append(what)

    def add_asset(self, data: bytes) -> str | None:
        """Keep a picture's bytes under the next free name (``image1.png``…, the suffix read from the
        bytes); returns the name, or None (and names the drop) when the bytes hold no picture."""
        from confnotes.edges.images import picture_suffix

        suffix = picture_suffix(data)
        if suffix is None:
            self.drop("an embedded file that is not a picture")
            return None
        name = f"image{len(self.assets) + 1}{suffix}"
        self.assets[name] = data
        return name


MONOSPACE_FONTS = (
    "courier",
    "consolas",
    "menlo",
    "monaco",
    "mono",
    "source code",
    "lucida console",
    "cascadia",
    "fira code",
    "inconsolata",
    "andale",
    "fixedsys",
    "monospace",
)


def is_monospace(font: str | None) -> bool:
    """A font family people write code in (``Courier New``, ``Roboto Mono``, ``Consolas``…)."""
    if not font:
        return False
    first = font.split(",")[0].strip().strip("'\"").casefold()
    return any(name in first for name in MONOSPACE_FONTS)


def merge_code(blocks: list[Block]) -> list[Block]:
    """Consecutive monospace paragraphs are one code block, as the author laid them out; an empty
    one (``Code("")``) is a blank line inside the block, and nothing at its ends."""
    out: list[Block] = []
    for block in blocks:
        if isinstance(block, Code) and out and isinstance(out[-1], Code):
            out[-1] = Code(out[-1].text + "\n" + block.text)
        else:
            out.append(block)
    trimmed = [Code(block.text.strip("\n")) if isinstance(block, Code) else block for block in out]
    return [block for block in trimmed if not isinstance(block, Code) or block.text.strip()]


def footnote_definition(number: int, paragraphs: list[list[Run]]) -> Para | None:
    """A footnote as Markdown's definition (``[^1]: …``), its paragraphs run together, the space
    a word processor leaves after the mark dropped; None for one with no text."""
    runs: list[Run] = [Run(f"[^{number}]: ", raw=True)]
    for part in paragraphs:
        if part and len(runs) > 1:
            runs.append(Run(" "))
        runs += part
    if len(runs) == 1:
        return None
    first = runs[1]
    runs[1] = Run(first.text.lstrip(), first.bold, first.italic, first.code, first.link, first.raw)
    return Para(tuple(runs))
