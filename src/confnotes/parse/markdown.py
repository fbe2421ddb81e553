"""The one place a MarkdownIt parser is built: CommonMark + tables + front matter + ``::: notes``."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt

from confnotes.parse import recover

#: Lists and quotes nested deeper than this, counted together (a quote in a list in a quote is three
#: levels), are refused with a clear error (``parse.build``) instead of being silently truncated.
MAX_DEPTH = 32
#: Deepest token nesting markdown-it will follow (it drops content beyond it): a list takes two
#: token levels (the list, its item), so room for ``MAX_DEPTH`` lists and what stands in the deepest.
MAX_NESTING = 2 * MAX_DEPTH + 8


#: a fenced div's fence, as pandoc reads it: ``:::: columns``, ``::: column``, ``::: {.column
#: width="40%"}``, ``::: incremental``, ``:::tip`` (any class name), ``:::`` (a closing fence)
_FENCE = re.compile(r"^(:{3,})[ \t]*(?:\{[ \t]*\.([A-Za-z][\w-]{0,40})([^}]*)\}|([A-Za-z][\w-]{0,40}))?[ \t]*:*[ \t]*$")


def fence(line: str) -> tuple[str, str, str] | None:
    """A fence line's colons, its div's name (its first class; ``end`` for a closing fence) and
    the rest of its attributes."""
    match = _FENCE.match(line.strip())
    if match is None:
        return None
    name = match.group(2) or match.group(4) or "end"
    return match.group(1), name.lower(), match.group(3) or ""


def div_fence_rule(state: Any, start: int, end: int, silent: bool) -> bool:  # noqa: ARG001 - markdown-it's signature
    """A markdown-it block rule: one fence line of a div is one ``div_fence`` token (info: its name)."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    begin = state.bMarks[start] + state.tShift[start]
    if state.src[begin : begin + 3] != ":::":
        return False
    found = fence(state.src[begin : state.eMarks[start]])
    if found is None:
        return False
    if silent:
        return True
    token = state.push("div_fence", "div", 0)
    token.map = [start, start + 1]
    token.markup, token.info = found[0], found[1]
    state.line = start + 1
    return True


def div_plugin(md: MarkdownIt) -> None:
    """pandoc's fenced divs (``:::: columns``, ``::: column``, ``::: incremental``, ``::: tip``):
    each fence line is a block of its own, and what stands between them stays in place (pairing
    them is ``parse.divs``'); a closing fence ends the paragraph or list item above it. Runs
    after ``::: notes``, which is a container of its own."""
    md.block.ruler.before("fence", "div_fence", div_fence_rule, {"alt": ["paragraph", "reference", "blockquote", "list"]})


def lazy_break_rule(state: Any, start: int, _end: int, silent: bool) -> bool:
    """Ends a list item's paragraph at a lazy line (one not indented to the item's text) that
    starts a block of its own: ``Talk: Cost as an SLO`` or ``Takeaways`` under ``- alerts on burn``
    in a chat paste, ``Sam Lee  10:45 AM`` under a Slack message's bullet (``recover.breaks_lazy_line``).
    Only a terminator: it makes no token, so the line is read as the paragraph it starts."""
    if not silent or state.sCount[start] >= state.blkIndent or state.sCount[start] < 0:
        return False
    line = state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]
    following = start + 1
    after = state.src[state.bMarks[following] : state.eMarks[following]] if following < state.lineMax else None
    return recover.breaks_lazy_line(line, after)


_DASH_UNDERLINE = re.compile(r"^ {0,3}-+[ \t]*$")


def sentence_over_rule(state: Any, start: int, end: int, silent: bool) -> bool:
    """A line that reads as a sentence over a line of dashes is a paragraph and a rule, not a
    heading: people type ``----`` under a line to separate, and CommonMark's setext reading would
    make ``Thanks to everyone who came.`` a section (``recover.is_sentence_over_rule``). Runs before
    markdown-it's ``lheading``; the dashes are then read as the thematic break they look like."""
    following = start + 1
    if following >= end or state.sCount[start] - state.blkIndent >= 4 or state.sCount[following] < state.blkIndent:
        return False
    underline = state.src[state.bMarks[following] : state.eMarks[following]]
    line = state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]
    if _DASH_UNDERLINE.match(underline) is None or not recover.is_sentence_over_rule(line):
        return False
    if silent:
        return True
    opened = state.push("paragraph_open", "p", 1)
    opened.map = [start, following]
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = line.strip(), [start, following], []
    state.push("paragraph_close", "p", -1)
    state.line = following
    return True


def markdown_parser(text: str) -> MarkdownIt:
    """The parser for ``text``: with the fenced-div rule only when the text has a ``:::`` (the rule
    is tried at every line of every paragraph: 6% of a parse, for the few notes that use it)."""
    return _parser(":::" in text)


def window_parser(divs: bool) -> MarkdownIt:
    """The parser for a stretch of a note that starts at one of its top-level blocks, not at its first
    line (``parse.incremental``): the same rules, less front matter, which only the first line opens."""
    return _parser(divs, front_matter=False)


@lru_cache(maxsize=4)
def _parser(divs: bool, front_matter: bool = True) -> MarkdownIt:
    from mdit_py_plugins.container import container_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable("table")
    if front_matter:
        md.use(front_matter_plugin)
    md.use(container_plugin, name="notes")
    if divs:
        div_plugin(md)
    # a display formula ($$ on its own lines) is one block, read verbatim: its lines are TeX, never
    # a list or a heading (``- x`` or ``+ y`` inside one)
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    dollarmath_plugin(md, allow_labels=False, allow_space=False, allow_digits=False, allow_blank_lines=False)
    md.block.ruler.before("paragraph", "lazy_break", lazy_break_rule, {"alt": ["paragraph"]})
    md.block.ruler.before("lheading", "sentence_over_rule", sentence_over_rule)
    # a footnote's definition ([^id]: text, and the indented lines under it) is one block, where the
    # author wrote it: the plugin's tail rule, which moves definitions to the end, stays off
    from mdit_py_plugins.footnote import footnote_plugin

    footnote_plugin(md, inline=False, move_to_end=False)
    # The outline keeps inline Markdown verbatim (renderers render it once, later), so the
    # block structure is all the builder needs: skipping inline parsing makes reading
    # notes cheaper than a full markdown-it parse.
    md.disable("inline")
    md.disable("text_join", ignoreInvalid=True)  # it joins inline text tokens, and there are none
    md.block.parse = _lean_block_parse.__get__(md.block)  # type: ignore[method-assign]
    md.core.ruler.at("normalize", _normalize)
    return md


def _lean_block_parse(self: Any, src: str, md: MarkdownIt, env: Any, out: list[Any]) -> list[Any] | None:
    """markdown-it's block parse, with the lean tokens of ``_LeanState``, each top-level block's
    made compact (``_compact``) once the next one begins, and the rest at the end."""
    if not src:
        return None
    state = _lean_state()(src, md, env, out)
    self.tokenize(state, state.line, state.lineMax)
    tokens: list[Any] = state.tokens
    _compact(tokens, state.finished)
    return tokens


def _normalize(state: Any) -> None:
    """markdown-it's ``normalize`` core rule (CR and CR LF to LF, NUL to U+FFFD), which copies the
    text only where it has something to change: its own always copies, and the copy was held
    beside the whole token stream (a 185,000-character note: 370 KB of a 3.2 MB parse)."""
    src = state.src
    if "\r" in src:
        src = src.replace("\r\n", "\n").replace("\r", "\n")
    if "\0" in src:
        src = src.replace("\0", "\ufffd")
    state.src = src


@lru_cache(maxsize=1)
def _lean_state() -> type:
    """A block state whose tokens cost half as much: the outline reads a block's type, lines,
    content, markup and info, never attributes or plugin data, so its tokens share one empty,
    read-only mapping for both instead of two new dicts each, and an inline token keeps only its
    content (its lines are its paragraph's or heading's); and a table is read as its lines
    (the outline keeps its source), so its rows and cells make no tokens. A 20 MB note of
    bullets made 2.3 million tokens of 264 bytes before; a 300-column table three per cell.

    When a top-level block begins, the tokens of the blocks before it are finished (markdown-it's
    rules change only the tokens of the block they read), and ``_compact`` makes them small."""
    from types import MappingProxyType

    from markdown_it.rules_block import StateBlock
    from markdown_it.token import Token

    empty: MappingProxyType[str, Any] = MappingProxyType({})  # read-only: a rule that wrote to it would fail, not corrupt other tokens

    class LeanState(StateBlock):
        scratch = Token("", "", 0)
        finished = 0  # the tokens before this one are compact

        def push(self, ttype: str, tag: str, nesting: Any) -> Token:
            if self.parentType == "table" and ttype != "table_open" and ttype != "table_close":
                return self.scratch  # a row or cell: written to and dropped
            tokens = self.tokens
            if not self.level and nesting >= 0 and self.finished < len(tokens):  # a top-level block begins
                _compact(tokens, self.finished)
                self.finished = len(tokens)  # this block's tokens, from the one made below, are not
            elif tokens and tokens[-1].type == "inline":  # its rule is done with it: the outline reads its content only
                tokens[-1].map = tokens[-1].children = None
            token = Token(ttype, tag, nesting, meta=empty, block=True)  # type: ignore[arg-type]
            token.attrs = empty  # type: ignore[assignment]  # (the dataclass makes a dict of an empty mapping)
            if nesting < 0:
                self.level -= 1
            token.level = self.level
            if nesting > 0:
                self.level += 1
            tokens.append(token)
            return token

    return LeanState


class _Close:
    """A closing token, one for each type: what reads a close reads its type (and nesting) only.
    Shared, it takes no writes: a rule that changed the tokens of a finished block (markdown-it's
    ``footnote_tail`` or ``tasklists``, both off here) would fail here loudly, not corrupt others."""

    __slots__ = ("type",)
    nesting = -1
    level = 0
    map = None
    hidden = False
    markup = info = content = tag = ""

    def __init__(self, kind: str) -> None:
        self.type = kind


class _Inline:
    """An inline token: its content (the text of its paragraph or heading, inline Markdown kept)."""

    __slots__ = ("content",)
    content: str
    type = "inline"
    nesting = level = 0
    map = None
    hidden = False
    markup = info = tag = ""


class _Spanned:
    """What every compact opening token has: its nesting level and source lines ``[a, b)``."""

    __slots__ = ("level", "a", "b")
    level: int
    a: int  # -1: no lines
    b: int

    @property
    def map(self) -> tuple[int, int] | None:
        return None if self.a < 0 else (self.a, self.b)


class _Paragraph(_Spanned):
    """A ``paragraph_open``, the commonest token: its lines, level and whether a tight list hides it."""

    __slots__ = ("hidden",)
    hidden: bool
    type = "paragraph_open"
    nesting = 1
    markup = info = content = ""
    tag = "p"


class _Item(_Spanned):
    """A ``list_item_open``: its lines, level, marker and (in an ordered list) number."""

    __slots__ = ("markup", "info")
    markup: str
    info: str
    type = "list_item_open"
    nesting = 1
    content = tag = ""
    hidden = False


class _Block(_Spanned):
    """Any other block token (a list, heading, fence, quote, table, …), everything the outline reads."""

    __slots__ = ("type", "nesting", "tag", "markup", "info", "content", "hidden", "meta", "attrs")
    type: str
    nesting: int
    tag: str
    markup: str
    info: str
    content: str
    hidden: bool
    meta: Any
    attrs: Any

    def attrGet(self, name: str) -> Any:  # markdown-it's name
        return self.attrs.get(name)


_CLOSES: dict[str, _Close] = {}


def _compact(tokens: list[Any], start: int) -> None:
    """Tokens ``start`` on, in place, as small objects that read the same (a close shared by all of
    its type): about a third of markdown-it's tokens and their ``map`` lists. (No ``__init__``: the
    fields are set here, a third faster than through one.)"""
    closes, inline, paragraph, item, block = _CLOSES, _Inline, _Paragraph, _Item, _Block
    for index in range(start, len(tokens)):
        token = tokens[index]
        kind = token.type
        small: Any
        if token.nesting < 0:
            small = closes.get(kind)
            if small is None:
                small = closes[kind] = _Close(kind)
        elif kind == "inline":
            small = inline()
            small.content = token.content
        elif kind == "paragraph_open":
            small = paragraph()
            small.level, small.hidden = token.level, token.hidden
            small.a, small.b = token.map or (-1, -1)
        elif kind == "list_item_open":
            small = item()
            small.level, small.markup, small.info = token.level, token.markup, token.info
            small.a, small.b = token.map or (-1, -1)
        else:
            small = block()
            small.type, small.nesting, small.tag, small.markup = kind, token.nesting, token.tag, token.markup
            small.level, small.info, small.content, small.hidden = token.level, token.info, token.content, token.hidden
            small.meta, small.attrs = token.meta, token.attrs
            small.a, small.b = token.map or (-1, -1)
        tokens[index] = small


@lru_cache(maxsize=1)
def inline_parser() -> MarkdownIt:
    """For the few checks that need inline tokens (emphasis, links) of one title or paragraph."""
    return MarkdownIt("commonmark", {"maxNesting": MAX_NESTING})


@lru_cache(maxsize=1)
def _plain_parser() -> MarkdownIt:
    return inline_parser()


def plain_text(markdown: str) -> str:
    """Inline Markdown as the words a reader sees, on one line: no emphasis or code marks, links
    and pictures as their text (a title in the index, search, a book's contents, metadata)."""
    if not any(mark in markdown for mark in "*_`[]<>\\&!"):
        return " ".join(markdown.split())
    pieces: list[str] = []
    for token in _plain_parser().parseInline(markdown):
        for child in token.children or ():
            if child.type in ("text", "code_inline"):
                pieces.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                pieces.append(" ")
            elif child.type == "image":
                pieces.append(child.content)
    return " ".join("".join(pieces).split())


def render_parser() -> MarkdownIt:
    """A parser for rendering inline Markdown to HTML (the renderer escapes raw HTML unless allowed).

    Links are validated by the renderer (``render.markdown``), which keeps the text of a
    dropped link, so markdown-it's own validation is relaxed here.
    """
    # bare URLs become links, as in every Markdown viewer people read notes in (linkify-it-py)
    # raw HTML is always parsed as HTML, so that, when it is not allowed, the renderer can print
    # its text without its tags (render.markdown)
    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING, "html": True, "linkify": True}).enable(["table", "linkify"])
    setattr(md, "validateLink", lambda url: True)  # noqa: ARG005, B010 - links are checked at render time
    math(md)
    # footnote references ([^id]); their definitions are blocks of the outline, numbered and placed
    # by the renderer (confnotes.markup.footnotes), so the plugin's definition rule stays off
    from mdit_py_plugins.footnote import footnote_plugin

    footnote_plugin(md, inline=False, move_to_end=False)
    md.disable("footnote_def")
    return md


def math(md: MarkdownIt) -> None:
    """TeX math as pandoc reads it: ``$…$`` with no space inside the dollars and no digit right
    after the closing one (so "$5 and $10" stays prices), ``$$…$$`` on its own lines or in text,
    no blank line inside a formula."""
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    dollarmath_plugin(md, allow_labels=False, allow_space=False, allow_digits=False, allow_blank_lines=False, double_inline=True)
    dollars = md.inline.ruler.__rules__[md.inline.ruler.__find__("math_inline")].fn

    def math_inline(state: Any, silent: bool) -> bool:
        # dollarmath reads the character before position 0 as src[-1], the text's last: "$x$ 1" or
        # "$x$ \\" would not be math, nor "\\\\$x$ \\". A space after the text gives it nothing to
        # read there, and changes nothing else it reads.
        if not state.src or not (state.src[-1] == "\\" or state.src[-1].isdigit()):
            return bool(dollars(state, silent))
        source = state.src
        state.src = source + " "
        try:
            return bool(dollars(state, silent))
        finally:
            state.src = source

    md.inline.ruler.at("math_inline", math_inline)


def _positioned_emphasis(state: Any, silent: bool) -> bool:
    """markdown-it's emphasis rule, and each delimiter token it pushes told where it stands in the
    source (``token.meta["pos"]``): emphasis tokens keep no source offsets of their own."""
    from markdown_it.rules_inline import emphasis

    start = state.pos
    if not emphasis.tokenize(state, silent):
        return False
    for offset, token in enumerate(state.tokens[start - state.pos :]):
        token.meta = {**token.meta, "pos": start + offset}
    return True


@lru_cache(maxsize=1)
def delimiter_parser() -> MarkdownIt:
    """An inline parser whose emphasis and strong tokens know their source offsets: what ``fmt``
    needs to change a note's ``*`` and ``_`` markers and nothing else."""
    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING})
    md.inline.ruler.at("emphasis", _positioned_emphasis)
    return md
