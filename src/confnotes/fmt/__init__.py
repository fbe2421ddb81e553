"""Outline to Markdown, in the author's order and, by default, in the author's own style: fmt tidies.

Text is never rewritten: titles, blocks and point numbers go out as written, code to the byte,
and every section's blocks and lists go out in source order. A heading confnotes inferred
stays the bare line it was and recovered meta stays where it stands; a note that shows it was
pasted is tidied line by line (``tidy_lines``). Only ``convert`` (``import``, CN110's fix)
writes recovered structure as Markdown: pasted bullets as lists, bare-line headings as
headings, a title found in the lede and a file-name line as front matter. Styles — the bullet
marker, ATX or setext headings, ``*`` or ``_`` emphasis, ``1. 2. 3.`` or ``1. 1. 1.`` — come
from ``fmt.styles``: the ``[fmt]`` settings, by default each note's own style (its majority where it mixes). The
``---`` lines between sections are kept where the author wrote them, a list is written tight
or loose as CommonMark read it, and in a Markdown note a blank line is left out where the
author left it out and Markdown reads the same without it. The result must parse back to the
same *ordered* outline — blocks, list boundaries and numbers included — or
``format_markdown`` refuses it.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from confnotes.config.settings import FmtSettings
from confnotes.errors import NotesError
from confnotes.fmt.styles import Styles, follows_bullets, resolve_styles
from confnotes.model import Block, Document, Entry, List, Node, walk_content

if TYPE_CHECKING:
    from confnotes.parse import ParseOptions

__all__ = ["format_markdown", "iter_differences", "outline_signature", "render_markdown"]

_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
#: What recovery made of plain text: notes with any of it get blank lines between all blocks.
_PASTED = frozenset(
    (
        "glyph-bullets",
        "inferred-headings",
        "inferred-title",
        "numbered-talks",
        "bold-points",
        "front-matter-text",
        "session-lines",
        "email-headers",
    )
)
#: What a text line written right below would continue: a paragraph (lazily, in a quote or list
#: item too) or a table (as its next row).
_CONTINUED = frozenset(("title", "bold", "paragraph", "image", "reference", "note", "quote", "list", "table", "footnote"))
#: What ends, inside a list item, at a less indented line below it (that line is not its text).
#: (An HTML comment ends at its ``-->`` line, a ``::: notes`` block at its ``:::``: what follows is a block of its own.)
_CLOSED = frozenset(("code", "table", "math", "heading", "comment", "container"))
#: What runs on to the next blank line, whatever the line below is (raw HTML other than a comment).
_RUNS_ON = frozenset(("html",))
#: What merges into a paragraph (or indented code, a quote) written right above it.
#: (A display formula's ``$$`` cannot interrupt a paragraph: right below one, it would be its text.)
_MERGES = frozenset(("paragraph", "image", "reference", "note", "html", "indented", "setext", "break", "math"))
#: A first heading line that would read as something else once underlined (a list item, a quote…).
_NOT_SETEXT = re.compile(
    r"^(?:[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|#{1,6}(?:[ \t]|$)|[>|<=:~`_\s]|\[[^\]]*\]:|([-*_])(?:[ \t]*\1){2,}[ \t]*$)"
)


class Above(NamedTuple):
    """What was written last: its kind (a block kind, ``list``, ``title``, ``heading``…) and last source line."""

    kind: str
    end: int


@dataclass
class _Context:
    """Where the writer is: the output lines, what stands right above, and what is still to place."""

    styles: Styles
    as_written: bool  # a Markdown note: leave out blank lines the author left out, where Markdown allows
    convert: bool = False  # write recovered structure as Markdown (import, CN110's fix), not as the author wrote it
    out: list[str] = field(default_factory=list)
    pending: list[Block] = field(default_factory=list)  # lint directives and section breaks, by line
    #: (words, level, first line, last line, inferred, the emphasis marker wrapping it) of a title still to write
    title: tuple[str, int, int, int, bool, str] | None = None
    above: Above | None = None
    source_name: tuple[str, int] | None = None  # a file-name line still to write, and its line

    def title_before(self, line: int) -> None:
        """Write the title heading and the file-name line where the author put them: before the
        first entry below their lines."""
        if self.source_name is not None and line > self.source_name[1] and (self.title is None or self.title[2] > self.source_name[1]):
            name, at = self.source_name
            self.source_name = None
            self.pending_before(at, "")
            _emit_bare_line(self, name, at)
        if self.title is not None and line > self.title[2]:
            words, level, first, last, inferred, marker = self.title
            self.title = None
            self.pending_before(first, "")
            written = f"{marker}{words}{marker}"  # "# **Title**" as the author wrote it
            if inferred and not self.convert:
                _emit_bare_line(self, written, first)
            else:  # a bold first line is written as "# Title", without its bold
                _emit_heading(self, words if inferred else written, level, first, last)
            self.title_before(line)  # a file-name line below the title

    def blank(self) -> None:
        if self.out and self.out[-1] != "":
            self.out.append("")

    def text(self, text: str, indent: str = "") -> None:
        for line in text.split("\n"):
            self.out.append(indent + line if line.strip() else "")

    def code(self, text: str, indent: str = "") -> None:
        """Code as written, to the byte: a line of spaces inside it is the code's too."""
        for line in text.split("\n"):
            self.out.append(indent + line if line else "")

    def separate(self, kind: str, start: int, tight: bool = False) -> None:
        """A blank line before what starts at ``start`` unless it may stand right below what is above:
        always in a tight list, elsewhere where the author wrote it so."""
        above = self.above
        if above is None or not self.out:
            return
        if _may_follow(above.kind, kind) and (tight or (self.as_written and start == above.end + 1)):
            return
        self.blank()

    def pending_before(self, line: int, indent: str, tight: bool = False) -> None:
        """Write the directives (and, at the top level, the section breaks) that stand before ``line``."""
        while self.pending and self.pending[0].span.start < line:
            if self.pending[0].kind == "break" and indent:
                return  # a section break waits for its heading
            block = self.pending.pop(0)
            if block.kind == "break" and not any(self.out):
                continue  # a rule on a note's first line would open front matter
            kind = "break" if block.kind == "break" else "directive"
            self.separate(kind, block.span.start, tight)
            self.text(block.text, indent)
            self.above = Above(kind, block.span.end)


def _kind(entry: Entry) -> str:
    """The kind of an entry as blank lines go: a block's kind, with the cases Markdown tells apart."""
    if type(entry) is List:
        return "list"
    if type(entry) is Node:
        return "section"
    block: Block = entry  # type: ignore[assignment]
    if block.kind == "note":
        return {"comment": "comment", "container": "container"}.get(block.info, "note")
    if block.kind == "code" and not block.text.lstrip().startswith(("```", "~~~")):
        return "indented"
    if block.kind == "heading" and "\n" in block.text:
        return "setext"
    return block.kind


def _may_follow(above: str, kind: str) -> bool:
    """Whether ``kind`` written right below ``above``, with no blank line, reads as written."""
    if above == "closed":  # a list whose last line ends a fence, table, formula or heading: no paragraph to continue
        return kind in ("paragraph", "image") or kind not in _MERGES
    if above in _RUNS_ON:
        return False
    if kind in _MERGES and above in _CONTINUED:
        return False
    return not (kind == above and kind in ("quote", "indented"))


def _front_matter(doc: Document, convert: bool) -> list[str]:
    """The note's front matter as written (trailing spaces aside). Recovered meta — a title read
    from the lede, a file-name line — stays where the author wrote it (the reader finds it there
    every time) unless the note is converted: then it moves into front matter."""
    meta = doc.meta
    existing = meta.front_matter
    added: list[str] = []
    if convert:
        keys = set(re.findall(r"^([A-Za-z_][\w-]*)\s*:", existing or "", re.MULTILINE))
        if meta.title_origin == "lede" and "title" not in keys:
            added.append(f"title: {json.dumps(meta.title, ensure_ascii=False)}")
        if meta.source_name_span is not None and "source_name" not in keys:
            added.append(f"source_name: {json.dumps(meta.source_name, ensure_ascii=False)}")
    if existing is None and not added:
        return []
    body = [line.rstrip() for line in (existing or "").strip("\n").split("\n")] if existing and existing.strip() else []
    return ["---", *body, *added, "---"]


def _dedent(text: str) -> str:
    """``text`` without the indentation all its lines share; unlike ``textwrap.dedent``, a line of
    only spaces keeps them unless it has that indentation too (inside code, they are the code's)."""
    lines = text.split("\n")
    indents = [line[: len(line) - len(line.lstrip(" \t"))] for line in lines if line.strip()]
    prefix = os.path.commonprefix(indents) if indents else ""
    if not prefix:
        return text
    return "\n".join(line[len(prefix) :] if line.startswith(prefix) else line for line in lines)


def _emit_block(ctx: _Context, block: Block, indent: str, tight: bool) -> None:
    kind = _kind(block)
    text = ctx.styles.text(block.text) if block.kind == "paragraph" else block.text
    if ctx.above is not None and ctx.above.kind in ("list", "closed") and kind != "indented":
        text = _dedent(text)  # a fence indented under a pasted bullet would join the list above
    ctx.separate(kind, block.span.start, tight)
    if block.kind == "code":
        ctx.code(text, indent)
    else:
        ctx.text(text, indent)
    ctx.above = Above(kind, block.span.end)


def _list_tail(lst: List) -> str:
    """A list as what may be written right below it: ``closed`` when its last line ends a fenced
    code block, a table, a display formula or a heading inside an item (a less indented line below
    ends them, and only a paragraph is continued lazily), else ``list``."""
    entry: Entry = lst
    while type(entry) is List:
        last = entry.items[-1].content if entry.items else ()
        if not last:
            return "list"
        entry = last[-1]
    return "closed" if type(entry) is Block and _kind(entry) in _CLOSED else "list"


def _loose(lst: List) -> bool:
    """Written with blank lines between items: as CommonMark read the list, or where an item holds
    two blocks that cannot stand without a blank line between them (recovered from a paste)."""
    if not lst.tight:
        return True
    for item in lst.items:
        kinds = [
            "title" if item.title else "marker",
            *(_list_tail(entry) if type(entry) is List else _kind(entry) for entry in item.content),
        ]
        if any(not _may_follow(above, kind) for above, kind in zip(kinds, kinds[1:], strict=False)):
            return True
    return False


def _bullet_markers(ctx: _Context, content: tuple[Entry, ...], depth: int) -> dict[int, str]:
    """The note's bullet marker at list level ``depth`` for every bullet list, but another for one
    right after another (nothing written between them), so the two stay two: its own marker when
    that differs from the one above, else another."""
    bullet = ctx.styles.bullet_at(depth)
    markers: dict[int, str] = {}
    previous: List | None = None
    for lst, follows in follows_bullets(content):
        between = previous is not None and any(previous.span.end < block.span.start < lst.span.start for block in ctx.pending)
        above = markers.get(id(previous)) if follows and not between else None
        own = lst.marker if lst.origin == "list" else bullet
        markers[id(lst)] = bullet if above is None else next(mark for mark in (own, bullet, "-", "*") if mark != above)
        previous = lst
    return markers


def _emit_content(
    ctx: _Context, content: tuple[Entry, ...], indent: str, tight: bool = False, lists: str | None = None, depth: int = 0
) -> None:
    """Write ``content`` at ``indent`` (its lists at ``lists``, when the note nests them otherwise),
    ``depth`` lists deep."""
    markers = _bullet_markers(ctx, content, depth)
    for entry in content:
        if not indent:
            ctx.title_before(entry.span.start)
        if type(entry) is Block:
            ctx.pending_before(entry.span.start, indent, tight)
            _emit_block(ctx, entry, indent, tight)
        elif type(entry) is List:
            ctx.pending_before(entry.span.start, indent, tight)
            ctx.separate("list", entry.span.start, tight)
            _emit_list(ctx, entry, indent if lists is None else lists, markers.get(id(entry), ctx.styles.bullet_at(depth)), depth)
            last = ctx.above
            if last is not None and last.kind == "directive":  # a lint directive ended the list: an HTML comment, closed at its -->
                ctx.above = Above("closed", max(last.end, entry.span.end))
            else:
                ctx.above = Above(_list_tail(entry), entry.span.end)
        else:
            _emit_section(ctx, entry)  # type: ignore[arg-type]


def _emit_list(ctx: _Context, lst: List, indent: str, bullet: str, depth: int) -> None:
    if lst.origin == "bold":
        _emit_bold_points(ctx, lst, indent, depth)
        return
    loose = _loose(lst)
    numbers = ctx.styles.numbers(lst) if lst.ordered and lst.origin == "list" else [item.number for item in lst.items]
    inner = indent
    for index, item in enumerate(lst.items):
        if index:
            ctx.pending_before(item.span.start, inner, not loose)  # inside the item above: the list goes on
            if loose and not (ctx.as_written and item.span.start == lst.items[index - 1].span.end + 1):
                ctx.blank()  # a loose list keeps the author's blank lines between items, a paste gets them all
        marker = f"{numbers[index]}{item.delimiter}" if item.number is not None else bullet
        inner = indent + " " * (len(marker) + 1)
        _emit_item(ctx, item, indent, marker, loose, depth)


def _emit_bold_points(ctx: _Context, lst: List, indent: str, depth: int) -> None:
    """``**1. Why Rust?**`` lines stay as the author wrote them, each with the list below it."""
    mark = "__" if ctx.styles.strong == "_" else "**"
    for index, item in enumerate(lst.items):
        ctx.pending_before(item.span.start, indent)
        if index:
            ctx.blank()
        ctx.out.append(f"{indent}{mark}{item.number}{item.delimiter} {ctx.styles.text(item.title)}{mark}")
        ctx.above = Above("bold", item.span.start)
        _emit_content(ctx, item.content, indent, tight=True, depth=depth)


def _emit_item(ctx: _Context, node: Node, indent: str, marker: str, loose: bool, depth: int) -> None:
    inner = indent + " " * (len(marker) + 1)
    title = ctx.styles.text(node.title)
    content = node.content
    first = content[0] if content else None
    above = Above("title" if title else "marker", node.span.start + title.count("\n"))
    if not title and type(first) is Block and first.span.start == node.span.start and _kind(first) != "indented":
        title = first.text  # "- ```": a block the author began on the marker's line stays there
        above = Above(_kind(first), first.span.end)
        content = content[1:]
    lines = title.split("\n")
    ctx.out.append(f"{indent}{marker} {lines[0]}".rstrip(" \t"))  # a no-break space is text: kept
    if len(lines) > 1:
        ctx.text("\n".join(lines[1:]), inner)
    ctx.above = above
    _emit_content(ctx, content, inner, not loose, _nested_indent(ctx, indent, inner), depth + 1)
    ctx.pending_before(node.span.end + 1, inner, not loose)  # a directive at the item's end stays in it


def _nested_indent(ctx: _Context, indent: str, inner: str) -> str | None:
    """Where an item's nested lists go in a note that nests them its own way (a tab, four spaces),
    when that still nests them (at or right of the item's content, not four columns past it)."""
    unit = ctx.styles.nesting
    if unit is None:
        return None
    content, nested = len(inner.expandtabs(4)), len((indent + unit).expandtabs(4))
    return indent + unit if content <= nested < content + 4 else None


def _emit_heading(ctx: _Context, title: str, level: int, first: int, last: int) -> None:
    """A heading in the note's style: setext where asked (levels 1 and 2 only, and only for a title
    that underlined still reads as a heading: not an empty one, not ``1. Intro``), and for a title
    of several lines; else ATX."""
    level = max(1, min(6, level))
    title = ctx.styles.text(title)
    lines = title.split("\n")
    setext = level <= 2 and ("\n" in title or (ctx.styles.heading == "setext" and bool(title) and not _NOT_SETEXT.match(title)))
    ctx.separate("setext" if setext else "heading", first)
    if setext:
        ctx.text(title)
        ctx.out.append(ctx.styles.underline_of(lines[-1], "=" if level == 1 else "-", last))
    else:
        ctx.out.append(("#" * level + " " + (" ".join(lines) if len(lines) > 1 else title)).rstrip(" \t"))
    ctx.above = Above("setext" if setext else "heading", last)


def _heading_end(node: Node) -> int:
    """The last source line of a section's heading (a setext heading's underline)."""
    return node.span.start + node.title.count("\n") + (1 if node.origin == "setext" else 0)


def _emit_bold_heading(ctx: _Context, node: Node) -> None:
    """A sub-heading the author wrote as a bold line (``**Q&A**``) stays a bold line, in the note's
    strong-emphasis marker: a paragraph, so a blank line parts it from text or a list above."""
    strong = "__" if ctx.styles.strong == "_" else "**"
    mark = ctx.styles.emphasis if node.marker in ("*", "_") else strong  # a talk's title in italics stays in italics
    ctx.separate("paragraph", node.span.start)
    ctx.out.append(f"{mark}{node.title}{mark}")
    ctx.above = Above("bold", node.span.start)


def _emit_bare_line(ctx: _Context, title: str, line: int) -> None:
    """A heading confnotes inferred from a bare line stays that bare line: fmt never writes a
    heading the author did not write (reading the note again infers it again)."""
    ctx.separate("paragraph", line)
    ctx.out.append(title)
    ctx.above = Above("paragraph", line)


def _emit_section(ctx: _Context, node: Node) -> None:
    ctx.pending_before(node.span.start, "")
    if node.origin == "inferred" and not ctx.convert:
        _emit_bare_line(ctx, node.title, node.span.start)
    elif node.origin == "bold":
        _emit_bold_heading(ctx, node)
        first = node.content[0] if node.content else None
        if type(first) is Block and first.info == "speakers" and first.span.start == node.span.start + node.title.count("\n") + 1:
            ctx.text(first.text)  # a talk's speaker line stays right under its bold title
            ctx.above = Above("paragraph", first.span.end)
            _emit_content(ctx, node.content[1:], "")
            return
    else:
        _emit_heading(ctx, node.title, node.level, node.span.start, _heading_end(node))
    _emit_content(ctx, node.content, "")


def render_markdown(doc: Document, settings: FmtSettings | None = None, *, source: str | None = None, convert: bool = False) -> str:
    """Write the canonical Markdown of ``doc`` in the styles ``settings`` ask for (default: the
    note's own); no round-trip check, see ``format_markdown``.

    By default fmt tidies: a heading confnotes inferred stays the bare line it was, recovered meta
    stays where it stands, and a note that shows it was pasted (``•`` bullets, bare-line headings)
    is tidied line by line from ``source``, the text it was read from: its structure is the
    reader's to find, and Markdown's rules would find another. ``convert`` writes recovered
    structure as Markdown instead — headings, lists, front matter — as ``import`` and CN110's fix do."""
    if not convert and _PASTED.intersection(doc.recovered):
        if source is None:
            raise ValueError("a pasted note is tidied from its text: pass source, or convert=True")
        return tidy_lines(doc, source)
    styles = resolve_styles(doc, settings or FmtSettings(), source)
    ctx = _Context(styles, as_written=not _PASTED.intersection(doc.recovered), convert=convert)
    ctx.pending = sorted((*doc.directives, *doc.breaks), key=lambda block: block.span.start)
    front = _front_matter(doc, convert)
    ctx.out.extend(front)
    meta = doc.meta
    if front:
        span = meta.front_matter_span
        ctx.above = Above("front-matter", span.end if span is not None else -2)
    if meta.title_origin in ("heading", "inferred") and meta.title_span:
        inferred = meta.title_origin == "inferred"
        ctx.title = (meta.title, meta.title_level, meta.title_span.start, meta.title_span.end, inferred, meta.title_marker)
    if meta.source_name_span is not None and meta.source_name is not None and not convert:
        ctx.source_name = (meta.source_name, meta.source_name_span.start)
    _emit_content(ctx, doc.content, "")
    ctx.title_before(10**12)
    ctx.pending_before(10**12, "")
    while ctx.out and ctx.out[0] == "":
        ctx.out.pop(0)
    while ctx.out and ctx.out[-1] == "":
        ctx.out.pop()
    if not ctx.out:
        return ""
    ctx.out.append("")  # the final newline, joined in: the text is made once, not copied to add it
    return "\n".join(ctx.out)


#: Blocks whose every byte is the author's: trailing spaces and blank lines in them are theirs.
_VERBATIM = frozenset(("code", "math", "html"))


def tidy_lines(doc: Document, source: str) -> str:
    """``source`` tidied line by line and nothing more: trailing spaces and tabs go (not a hard
    break's two spaces, not a no-break space), runs of blank lines become one, the text ends in
    one newline; code, formulas and raw HTML (``doc``'s blocks of those kinds, and what Markdown
    reads as such) are left to the byte."""
    from confnotes.parse.markdown import markdown_parser

    kept: set[int] = set()  # 0-based lines inside a verbatim block
    for entry in walk_content(doc.content):
        if type(entry) is Block and entry.kind in _VERBATIM:
            kept.update(range(entry.span.start - 1, entry.span.end))
    for token in markdown_parser(source).parse(source):  # and what Markdown alone reads as code (an indented paste)
        if token.type in ("fence", "code_block", "math_block", "html_block") and token.map:
            kept.update(range(*token.map))
    lines = source.split("\n")
    out: list[tuple[str, bool]] = []  # each line written, and whether it is a verbatim block's
    for index, line in enumerate(lines):
        if index in kept:
            out.append((line, True))
            continue
        tidy = line.rstrip(" \t")
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if tidy and line.endswith("  ") and following.strip():
            tidy = line  # two spaces before a line of text: a hard line break
        if not tidy and (not out or not out[-1][0]):
            continue  # a second blank line (or one opening the note)
        out.append((tidy, False))
    while out and not out[-1][0] and not out[-1][1]:
        out.pop()
    return "\n".join(line for line, _ in out) + "\n" if out else ""


def _norm(text: str | None) -> str | None:
    """Text as the outline must keep it: escapes, spacing and emphasis markers (``*`` or ``_``) aside."""
    if text is None:
        return None
    return " ".join(_ESCAPE.sub(r"\1", text).split()).replace("_", "*")


def _signature_items(content: tuple[Entry, ...], numbered: bool = True) -> Iterator[object]:
    """What fmt must keep of ``content``, one item an entry, depth-first in source order: each block's
    kind and text, each list's kind, first number and length, each node's kind, title, number,
    label and how much it holds. The lengths make the sequence say where each list and node ends,
    so two outlines are the same exactly when their sequences are."""
    for entry in content:
        if type(entry) is Block:
            yield (entry.kind, _norm(entry.text))
        elif type(entry) is List:
            yield ("list", entry.ordered, entry.start, len(entry.items))
            yield from _signature_items(entry.items, entry.origin != "list")  # a Markdown list's numbers after its first are style
        else:
            node: Node = entry  # type: ignore[assignment]
            yield (node.kind, _norm(node.title), node.number if numbered else None, _norm(node.label), len(node.content))
            yield from _signature_items(node.content)


#: The parts of what fmt must preserve, as ``_signature_parts`` gives them.
_PART_NAMES = ("title", "source name", "lede", "sections and items")


def _signature_parts(doc: Document) -> tuple[Iterator[object], ...]:
    """What fmt must preserve, part by part (``_PART_NAMES``), each as its items: the title, the
    source name and the whole ordered content — every block, list (its boundaries and first
    number) and node, in source order."""
    meta = doc.meta
    return iter((_norm(meta.title),)), iter((meta.source_name,)), _signature_items(doc.lede), _signature_items(doc.sections)


def outline_signature(doc: Document) -> tuple[object, ...]:
    """What fmt must preserve, whole: equal for two outlines exactly when fmt holds them the same."""
    return tuple(tuple(part) for part in _signature_parts(doc))


def iter_differences(before: tuple[object, ...], after: tuple[object, ...]) -> Iterator[str]:
    """The names of the parts in which two ``outline_signature``s differ."""
    for name, left, right in zip(_PART_NAMES, before, after, strict=True):
        if left != right:
            yield name


def outline_differences(before: Document, after: Document) -> list[str]:
    """``iter_differences`` of two outlines, compared item by item as their signatures are made,
    never holding either whole (a 2 MB note's two signatures took 26 MB beside its outlines)."""
    missing = object()
    return [
        name
        for name, left, right in zip(_PART_NAMES, _signature_parts(before), _signature_parts(after), strict=True)
        if any(a != b for a, b in itertools.zip_longest(left, right, fillvalue=missing))
    ]


def _signature_digest(doc: Document) -> tuple[bytes, ...]:
    """``outline_signature`` as one hash a part, made item by item: what proves a formatted note
    reads back the same without holding its first outline while the second is read."""
    digests = []
    for part in _signature_parts(doc):
        digest = hashlib.blake2b(digest_size=32)
        for item in part:
            digest.update(repr(item).encode("utf-8", "surrogatepass"))
            digest.update(b"\0")
        digests.append(digest.digest())
    return tuple(digests)


class Refused(NotesError):
    """fmt's output would not read back as the note's outline: the note is left as it is."""


def _refused(changed: list[str], path: str) -> Refused:
    return Refused(f"fmt cannot write this note without changing its outline ({', '.join(changed)}); left as is", path=path)


def format_markdown(doc: Document, options: ParseOptions | None = None, source: str | None = None, *, convert: bool = False) -> str:
    """Canonical Markdown for ``doc``, in the styles of ``options.fmt`` (the config's ``[fmt]``);
    raises ``NotesError`` if it would not read back the same (read with ``options``, the parse
    options ``doc`` was read with). ``source``: the text ``doc`` was read from; when the result is
    that very text (an already formatted note, the common case of ``fmt --check``), it reads back
    as ``doc`` by definition and is not parsed again. For a caller that holds ``doc`` anyway (an
    editor's analysis, a lint rule, an import); ``format_text`` reads a note's text itself."""
    from confnotes.parse import parse

    text = render_markdown(doc, options.fmt if options is not None else None, source=source, convert=convert)
    if source is not None and text == source:
        return text
    changed = outline_differences(doc, parse(text, doc.path, options))
    if changed:
        raise _refused(changed, doc.path)
    return text


def format_text(
    source: str | Callable[[], str],
    path: str,
    options: ParseOptions | None = None,
    seen: Callable[[Document], object] | None = None,
    *,
    convert: bool = False,
) -> str:
    """``format_markdown`` of the note ``source`` (at ``path``), holding one outline at a time: the
    note's outline gives the text and a digest of what fmt must keep, and is let go before the
    text is read back (a 20 MB note's outline is 240 MB beside the 780 MB its reading peaks at).
    Only a refusal reads both again, to name the parts that would change. ``seen`` is shown the
    note's outline first (an import counts its sections and items).

    ``source`` may be a function that makes the note's text (an import's Markdown): the text is
    then let go once its outline is read, not held while the canonical text is written and read
    back, and the function is called again only if fmt refuses, to name what would change."""
    from confnotes.parse import parse

    text = source() if callable(source) else source
    doc = parse(text, path, options)
    if seen is not None:
        seen(doc)
    # what tells whether the canonical text is the same: the text itself, or only its fingerprint
    fingerprint = _fingerprint(text) if callable(source) else None
    held = None if callable(source) else text
    del text
    if held is None and callable(source) and not convert and _PASTED.intersection(doc.recovered):
        held = source()  # a pasted note is tidied from its text: made again
    canonical = render_markdown(doc, options.fmt if options is not None else None, source=held, convert=convert)
    if canonical == held or (fingerprint is not None and _fingerprint(canonical) == fingerprint):
        return canonical
    kept = _signature_digest(doc)
    del doc
    if _signature_digest(parse(canonical, path, options)) != kept:
        before = source() if callable(source) else source
        raise _refused(outline_differences(parse(before, path, options), parse(canonical, path, options)), path)
    return canonical


def _fingerprint(text: str) -> bytes:
    """A digest of ``text``, encoded a slice at a time (encoding a whole text asks for three bytes a
    character first: 555 KB for a note of 185,000 characters)."""
    digest = hashlib.blake2b(digest_size=32)
    for start in range(0, len(text), 1 << 14):
        digest.update(text[start : start + (1 << 14)].encode("utf-8", "surrogatepass"))
    return digest.digest()
