"""Footnotes (``text[^id]`` and a ``[^id]: …`` definition anywhere in the note), numbered once.

Every output numbers a note's footnotes the same way, from here: in the order their first
reference is read (titles, text and items, depth-first, code aside), then any definition that
nothing refers to, in the order written (it is shown, not lost). The page lists them at its end,
the PDF at the foot of the page that refers to them, a deck at the foot of each slide.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from functools import cached_property

from confnotes.model import Block, Document, Node, walk_content

#: a reference: ``[^id]`` (no space in the id), not a definition's own ``[^id]:`` at a line start
REFERENCE = re.compile(r"\[\^([^\]\s]+)\](?!:)")
#: a definition's first line: ``[^id]:`` and the text after it
_DEFINITION = re.compile(r"\A[ \t]*\[\^([^\]\s]+)\]:[ \t]?")
#: code spans, whose text is code: blanked before references are looked for
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.S)


_SUPERSCRIPT_DIGITS = str.maketrans("0123456789?", "⁰¹²³⁴⁵⁶⁷⁸⁹ˀ")


def blank_code_spans(text: str) -> str:
    """``text`` with its code spans blanked, each character a space (columns stay where they were):
    what is inside code is never a call, nor a formula."""
    return _CODE_SPAN.sub(lambda match: " " * len(match.group(0)), text) if "`" in text else text


def call_mark(number: int | str) -> str:
    """A footnote's number as the superscript a line of plain text can hold (``¹²``): PPTX, Marp."""
    return str(number).translate(_SUPERSCRIPT_DIGITS)


def references(text: str) -> list[str]:
    """The ids ``text`` (inline Markdown) refers to, in order; code spans aside."""
    if "[^" not in text:
        return []
    return REFERENCE.findall(blank_code_spans(text))


def body(block: Block) -> str:
    """A definition's text as Markdown: without ``[^id]:``, its continuation lines dedented."""
    first, _, rest = block.text.partition("\n")
    first = _DEFINITION.sub("", first, count=1)
    return (first + ("\n" + textwrap.dedent(rest) if rest else "")).strip()


@dataclass(frozen=True)
class Footnotes:
    """A note's footnotes: each id's number and Markdown text, in number order."""

    numbers: dict[str, int] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    #: the ids something refers to (a definition nothing cites is shown at the end all the same)
    cited_ids: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.texts)

    @cached_property
    def ordered(self) -> list[tuple[int, str, str]]:
        """``(number, id, text)`` of every footnote, by number."""
        return sorted((number, label, self.texts[label]) for label, number in self.numbers.items())

    def cited(self, *texts: str) -> list[tuple[int, str, str]]:
        """The footnotes ``texts`` refer to (each once, by number): a slide's."""
        seen: dict[str, None] = {}
        for text in texts:
            for label in references(text):
                if label in self.numbers:
                    seen.setdefault(label, None)
        return sorted((self.numbers[label], label, self.texts[label]) for label in seen)


def footnotes_of(doc: Document) -> Footnotes:
    """The note's footnotes, numbered (see the module's docstring); empty for a note without any."""
    definitions: dict[str, str] = {}
    texts: list[str] = []
    for entry in walk_content(doc.content):
        if type(entry) is Block:
            if entry.kind == "footnote":
                definitions.setdefault(entry.info, body(entry))  # the first definition of an id counts, as in markdown-it
            elif entry.kind != "code":
                texts.append(entry.text)
        elif type(entry) is Node:
            texts.append(entry.title)
    if not definitions:
        return Footnotes()
    numbers: dict[str, int] = {}
    for text in [doc.meta.title, *texts]:
        for label in references(text):
            if label in definitions and label not in numbers:
                numbers[label] = len(numbers) + 1
    cited = frozenset(numbers)
    for label in definitions:
        numbers.setdefault(label, len(numbers) + 1)
    return Footnotes(numbers, definitions, cited)
