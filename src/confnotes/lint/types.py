"""Findings, fixes and rule metadata: plain data that rules yield and the engine consumes."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from confnotes.config.settings import SlideSettings

if TYPE_CHECKING:  # the model loads with the first note parsed, not for a run served from the cache
    from pathlib import Path

    from confnotes.model import Document, List, Node
    from confnotes.parse import ParseOptions
    from confnotes.slides import Deck, Decks
    from confnotes.timing import Timing

SEVERITIES = ("info", "warning", "error")
RANK = {name: index for index, name in enumerate(SEVERITIES)}


#: An inline link or image and its target: ``[text](target "title")``, ``![alt](<target>)``.
LINK_TARGET = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s<>]+)>?(?:\s+[\"'(][^)]*)?\)")


class LocalLink(NamedTuple):
    """A relative link or image target: the path it names (percent-decoded), the target as
    written, and where the link starts (1-based line and column)."""

    path: str
    target: str
    line: int
    col: int


#: An inline lint directive: <!-- confnotes-disable CN201 -->, -enable, -disable-next-line.
DIRECTIVE = re.compile(r"<!--\s*confnotes-(disable-next-line|disable|enable)\b([^>]*?)-->", re.DOTALL)


class Edit(NamedTuple):
    """Replace ``text[start:end]`` (offsets into the note's normalised text) with ``replacement``."""

    start: int
    end: int
    replacement: str


class Fix(NamedTuple):
    """A finding's fix: what ``--fix`` and the editor's quick fix apply (every fix is safe: it keeps
    every word of the note, in order; a rule that cannot promise that offers none)."""

    title: str
    edits: tuple[Edit, ...]


class Finding(NamedTuple):
    path: str
    line: int
    col: int
    rule: str
    name: str
    severity: str
    message: str
    fix: Fix | None = None

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.col, self.rule)


class RuleMeta(NamedTuple):
    """A rule's identity and documentation (six parts: what, why, example, instead, fix, options)."""

    id: str
    name: str
    severity: str
    summary: str
    rationale: str
    bad: str
    good: str
    tags: tuple[str, ...] = ()
    fixable: bool = False
    fix_note: str = "No automatic fix."
    project: bool = False
    #: on unless the config or command line turns it off; False: opt-in, runs only when named
    default: bool = True
    #: "notes": every note; "talk": notes meant as a talk (slides advice)
    profile: str = "notes"

    @classmethod
    def of(cls, module: str, **docs: Any) -> RuleMeta:
        """A rule module's metadata: its identity from the catalogue row, its documentation here."""
        from confnotes.lint.rules import BY_MODULE

        entry = BY_MODULE[module.rpartition(".")[2]]
        return cls(
            id=entry.id,
            name=entry.name,
            severity=entry.severity,
            default=entry.default,
            profile=entry.profile,
            project=entry.project,
            tags=entry.tags,
            **docs,
        )


@dataclass
class LintContext:
    """What a rule may look at, built once per note: the outline, the note's text, a file-existence
    check (relative to the note's real folder, as renderers resolve it), the settings that apply
    and the note's decks and timing, each made at most once and shared by the rules."""

    doc: Document
    text: str
    #: each relative link checked so far, and whether it exists (the lint cache records them);
    #: None: links are not checked (every one exists)
    links: dict[str, bool] | None = None
    #: the config's slide settings; ``slides`` adds the note's front matter
    configured_slides: SlideSettings = field(default_factory=SlideSettings)
    parse: ParseOptions | None = None
    fix: bool = False  # a --fix run: rules may offer fixes that cost more to compute
    #: the note's decks: a build's (shared with the formats it renders), else made on first use
    shared_decks: Decks | None = None

    @cached_property
    def slides(self) -> SlideSettings:
        """The note's slide settings as every deck output reads them (config < front matter)."""
        from confnotes.slides import slide_settings

        return slide_settings(self.configured_slides, self.doc)

    def exists(self, rel: str) -> bool:
        """Whether a relative link's file exists, from the note's real folder (found, symlinks resolved,
        only for a note that links). A method, not a stored check: a check that closed over its context
        made a cycle, and each note's outline, decks and timing waited for the cycle collector."""
        if self.links is None:
            return True
        if rel not in self.links:
            from pathlib import Path

            self.links[rel] = ((self.folder or Path.cwd()) / rel).exists()
        return self.links[rel]

    @cached_property
    def folder(self) -> Path | None:
        """The note's real folder (``source.note_folder``), where its relative links and images
        resolve; None for standard input. Found once, and only when a rule asks."""
        from confnotes.edges.source import note_folder

        return note_folder(self.doc.path)

    @cached_property
    def decks(self) -> Decks:
        from confnotes.slides import Decks

        if self.shared_decks is not None and self.shared_decks.doc is self.doc:
            return self.shared_decks
        return Decks(self.doc)

    @cached_property
    def unsplit_deck(self) -> Deck:
        """The deck before the limits and the fit: what slide-fitness rules measure."""
        from confnotes.slides import UNLIMITED, DeckOptions

        return self.decks.get(DeckOptions(max_items=UNLIMITED, max_words=UNLIMITED, agenda=False, fit=False))

    @cached_property
    def fitted_deck(self) -> Deck:
        """The deck as every deck output renders it (the note's limits, then the fit engine)."""
        from confnotes.timing import fitted_deck

        return fitted_deck(self.doc, self.slides, self.folder, self.decks)

    @cached_property
    def timing(self) -> Timing:
        """The talk's estimate as ``confnotes time`` prints it (the deck as rendered, the note's pace)."""
        from confnotes.timing import talk_plan

        return talk_plan(self.doc, self.slides, self.folder, self.decks).timing

    @cached_property
    def _starts(self) -> list[int]:
        starts = [0]
        find = self.text.find
        index = find("\n")
        while index >= 0:
            starts.append(index + 1)
            index = find("\n", index + 1)
        return starts

    @cached_property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    @cached_property
    def walked(self) -> list[tuple[Node, tuple[Node, ...]]]:
        """Every node with its ancestors, computed once and shared by the rules."""
        from confnotes.model import walk

        return list(walk(self.doc.nodes))

    @cached_property
    def texts(self) -> list[tuple[str, str, int, int]]:
        """``(kind, text, line, col)`` of the lede's blocks and every node's title and body blocks,
        in source order; ``kind`` is ``"title"`` or the block's kind. A title's column is where its
        text stands in the source line (past a list item's marker, a heading's ``#``), so a finding
        inside it points at the very characters."""
        from confnotes.model import UNPRINTED, Block, Node, walk_content

        out: list[tuple[str, str, int, int]] = []
        lines = self.lines
        for entry in walk_content(self.doc.content):
            if type(entry) is Node:
                line = entry.span.start
                first = entry.title.split("\n", 1)[0]
                at = lines[line - 1].find(first, entry.col - 1) if first and line <= len(lines) else -1
                out.append(("title", entry.title, line, at + 1 if at >= 0 else entry.col))
            elif type(entry) is Block and entry.kind not in UNPRINTED:
                out.append((entry.kind, entry.text, entry.span.start, 1))
        return out

    @cached_property
    def section_nodes(self) -> list[tuple[Node, tuple[Node, ...]]]:
        return [pair for pair in self.walked if pair[0].kind == "section"]

    @cached_property
    def item_nodes(self) -> list[tuple[Node, tuple[Node, ...]]]:
        return [pair for pair in self.walked if pair[0].kind != "section"]

    @cached_property
    def parents(self) -> list[tuple[Node | None, tuple[Node, ...]]]:
        """Every parent's children (items of all its lists, and sub-sections; the document's top level
        first) with the parent."""
        parents: list[tuple[Node | None, tuple[Node, ...]]] = [(None, self.doc.nodes)]
        for node, _ in self.walked:
            if node.content and (children := node.children):
                parents.append((node, children))
        return parents

    @cached_property
    def lists(self) -> list[tuple[Node | None, List]]:
        """Every list as the author wrote it, with the node it stands under (None: the lede)."""
        from confnotes.model import List

        out: list[tuple[Node | None, List]] = [(None, entry) for entry in self.doc.content if type(entry) is List]
        for node, _ in self.walked:
            out += [(node, entry) for entry in node.content if type(entry) is List]
        return out

    @cached_property
    def local_links(self) -> list[LocalLink]:
        """Every relative link or image target in the note's text (code left out), as the note's
        folder resolves it: what broken-link checks and an editor links to. Web links, anchors
        and empty targets are not local."""
        from urllib.parse import unquote, urlsplit

        out: list[LocalLink] = []
        if "](" not in self.text:
            return out  # no inline link or image anywhere in the note
        for kind, text, line, col in self.texts:
            if kind == "code" or "](" not in text:
                continue
            for number, part in enumerate(text.split("\n")):
                base = col
                if number or kind != "title":  # a wrapped line or a block, held without its item's indentation
                    source_line = self.lines[line + number - 1] if line + number - 1 < len(self.lines) else ""
                    base = max(source_line.find(part), 0) + 1 if part else 1
                for match in LINK_TARGET.finditer(part):
                    target = match.group(1)
                    parts = urlsplit(target)
                    if parts.scheme or parts.netloc or target.startswith("#") or not parts.path:
                        continue
                    at_col = base + match.start()
                    out.append(LocalLink(unquote(parts.path), target, line + number, at_col))
        return out

    def offset(self, line: int, col: int = 1) -> int:
        """Offset of 1-based ``line``/``col`` in the text."""
        starts = self._starts
        if line - 1 >= len(starts):
            return len(self.text)
        return starts[line - 1] + col - 1

    def line_span(self, line: int, with_newline: bool = True) -> tuple[int, int]:
        starts = self._starts
        start = starts[line - 1]
        end = starts[line] if line < len(starts) else len(self.text)
        if not with_newline and end > start and self.text[end - 1] == "\n":
            end -= 1
        return start, end


class NoOptions(NamedTuple):
    """The options of a rule that has none (one shared class keeps start-up light)."""


def option_defaults(options: type) -> dict[str, Any]:
    """A rule's options and their defaults (every option has one), from its ``Options`` named tuple."""
    return dict(options._field_defaults)  # type: ignore[attr-defined]


class Report(NamedTuple):
    """What a rule yields; the engine adds the path, rule id, name and configured severity."""

    line: int
    col: int
    message: str
    fix: Fix | None = None


class Rule(Protocol):
    """What every rule module provides: its metadata (identity and six-part docs) and its options
    (a named tuple whose annotations type the config's ``[lint.rules.NAME]`` table)."""

    META: RuleMeta
    Options: type


class NoteRule(Rule, Protocol):
    """A rule that reads one note at a time."""

    def check(self, ctx: LintContext, options: Any, /) -> Iterable[Report]: ...


class ProjectRule(Rule, Protocol):
    """A rule that reads all the notes of a run: each note's facts, then the findings across them."""

    def facts(self, ctx: LintContext, /) -> list[Any]: ...

    def check_project(self, notes: Iterable[tuple[str, list[Any]]], options: Any, /) -> Iterable[tuple[str, Report]]: ...
