"""Inline Markdown of titles and bodies to safe HTML, rendered once by markdown-it-py.

Raw HTML is escaped unless the config allows it; ``javascript:``, ``vbscript:``,
``file:`` and non-image ``data:`` links lose their link and keep their text; images
next to the note are embedded as data URIs, so the page is self-contained; remote
images become links, so opening the page makes no request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown_it.common.utils import escapeHtml
from markupsafe import Markup

from confnotes.model import Block, note_text
from confnotes.model.values import Callout
from confnotes.parse.recover import split_label
from confnotes.render.inline.blocks import BlockRules
from confnotes.render.inline.code import CodeRules
from confnotes.render.inline.formulas import FormulaRules
from confnotes.render.inline.links import safe_link
from confnotes.render.inline.notes import NoteRules
from confnotes.render.inline.pictures import PictureRules
from confnotes.render.inline.slides import SlideRules

#: What markdown-it (or linkify) could turn into more than text: markup and escapes, entities (``&`` before
#: ``#`` or a letter; a lone ``&`` is escaped alike), HTML, line breaks, and anything that may start a link
#: (``x.tld``, ``://``, ``//``, ``x@`` of an address; ``@scale`` alone is no address), and emoji
#: shortcodes (``:rocket:``). Most titles and items have none, and are escaped directly instead of
#: parsed (the same HTML, byte for byte).
_MAY_BE_MARKUP = re.compile(r"[\\`*_\[\]!<>~\n\r\x00]|&[#\w]|\S@|\.\w|:/|//|^\s|\s$|\$[^ \t]|:[\w+-]+:")
#: Cells of one table a page or PDF lays out; a bigger table is shown as its text (markdown-it
#: made 678 MB of tokens for a 300 × 2,000 table, and no reader reads one as a table).
MAX_PAGE_TABLE_CELLS = 20_000


#: Ink on a light ground and on a dark one where a theme names none (deck.css's dark slides).
INK_ON_LIGHT, INK_ON_DARK = "#1d2430", "#eef0f6"


@dataclass(frozen=True, slots=True)
class Inks:
    """The theme's inks for what its CSS cannot colour: a printed formula (WeasyPrint draws an
    inline SVG's ``currentColor`` black) and a diagram's picture. ``light``: ink on a light ground;
    ``dark``: on a dark one; ``dark_screen``: the theme's screen palette is dark (decks stay dark in
    print; pages and handouts print in the light palette)."""

    light: str = INK_ON_LIGHT
    dark: str = INK_ON_DARK
    dark_screen: bool = False


_INK = re.compile(r"--ink:\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})\b")


def theme_inks(css: str) -> Inks:
    """A theme's inks, read from its ``--ink`` colours: the first dark one is the ink on a light
    ground, the first light one the ink on a dark ground (``Inks``' own otherwise, as deck.css's
    dark slides), and the theme's first ``--ink`` says whether its screen palette is dark."""
    from confnotes.slides.directives import is_dark

    found = _INK.findall(css)
    light = next((colour for colour in found if is_dark(colour)), INK_ON_LIGHT)
    dark = next((colour for colour in found if not is_dark(colour)), INK_ON_DARK)
    return Inks(light, dark, bool(found) and not is_dark(found[0]))


@dataclass
class InlineRenderer(PictureRules, NoteRules, CodeRules, FormulaRules, SlideRules, BlockRules):
    """Renders one document's Markdown fragments; collects warnings (missing images, dropped links)."""

    base_dir: Path | None = None
    allow_html: bool = False
    embed_images: bool = True
    #: wrap code lines longer than this with a continuation mark (PDF pages); None: never (screens scroll)
    code_columns: int | None = None
    #: rendering for print (a PDF): code blocks and SVG images within the print limits above
    printed: bool = False
    warnings: list[str] = field(default_factory=list)
    references: dict[str, Any] = field(default_factory=dict)
    #: the note's footnotes (``load_footnotes``), and where a reference shows its footnote: ``end``
    #: (a numbered link to the page's list), ``page`` (WeasyPrint's page-bottom footnote, its text
    #: at the reference) or ``slide`` (a number; the slide lists its footnotes at its foot)
    footnotes: Any = None
    footnotes_at: str = "end"
    #: a foldable callout (``> [!faq]-``) folds: on a page on screen; a slide shows it open
    foldable: bool = True
    #: the theme's inks (``Inks``), and whether what is rendered next sits on a dark ground
    #: (``ground``): printed formulas and diagrams are drawn in the ground's ink
    inks: Inks = field(default_factory=Inks)
    dark: bool = False

    def __post_init__(self) -> None:
        from confnotes.parse.markdown import render_parser

        self.md = render_parser()
        for name, method in (
            ("link_open", self._link_open),
            ("link_close", self._link_close),
            ("image", self._image),
            ("fence", self._fence),
            ("code_block", self._code_block),
            ("html_inline", self._html),
            ("html_block", self._html),
            ("table_open", self._table_open),
            ("table_close", self._table_close),
            ("blockquote_open", self._small_block),
            ("math_inline", self._math),
            ("math_inline_double", self._math),
            ("math_block", self._math),
            ("footnote_ref", self._footnote_ref),
        ):
            # markdown-it binds rules to its renderer, so hand it plain functions
            self.md.add_render_rule(name, lambda renderer, *args, _method=method: _method(renderer, *args))
        self.md.core.ruler.push("shortcodes", _shortcodes)
        self.md.core.ruler.push("callouts", self._callouts)
        self.md.core.ruler.push("direction", _set_direction)
        self.md.core.ruler.push("label_lines", _keep_label_lines)
        self._dropped: list[bool] = []
        self._embedded: dict[Path, str] = {}
        self._embedded_bytes = 0
        self._svg_elements = 0
        self.code_blocks = 0  # code walk-throughs drawn so far: each block's steps are numbered apart (``slide_code``)
        self._called: set[int] = set()  # the footnotes whose first call is written (it holds the back link's anchor)

    # markdown-it render rules -------------------------------------------------
    def _link_open(self, renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        href = tokens[idx].attrGet("href") or ""
        if not safe_link(href):
            self._dropped.append(True)
            self.warnings.append(f"dropped unsafe link {href[:40]!r}")
            return ""
        self._dropped.append(False)
        return str(renderer.renderToken(tokens, idx, options, env))

    def _link_close(self, renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        dropped = self._dropped.pop() if self._dropped else False
        return "" if dropped else renderer.renderToken(tokens, idx, options, env)

    @staticmethod
    def direction(text: str) -> str:
        """``rtl`` for text whose first strong letter is Hebrew or Arabic, else ``auto``."""
        return direction_of(text)

    def inline(self, text: str) -> Markup:
        if _MAY_BE_MARKUP.search(text) is None:
            return Markup(escapeHtml(text))
        return Markup(self.md.renderInline(text, self._env()))

    def unlinked(self, text: str) -> Markup:
        """Inline Markdown with its links' text but not the links: for text that is a link itself
        (a table of contents entry for a heading that holds a link; a link in a link is invalid HTML)."""
        if _MAY_BE_MARKUP.search(text) is None:
            return Markup(escapeHtml(text))
        env = self._env()
        tokens = self.md.parseInline(text, env)
        for token in tokens:  # (a footnote's call too: a contents entry is a link to its heading, not a citation)
            token.children = [child for child in token.children or [] if child.type not in ("link_open", "link_close", "footnote_ref")]
        return Markup(self.md.renderer.render(tokens, self.md.options, env))

    def toc_entry(self, title: str, limit: int = 90) -> Markup:
        """A heading as its table of contents entry: without links (``unlinked``), and a heading
        that holds a whole paragraph cut at a word to about ``limit`` characters, ending in "…"."""
        if len(title) > limit:
            from confnotes.slides.fit import closed_prefix

            title = closed_prefix(title, limit)
        return self.unlinked(title)

    def blocks(self, text: str) -> Markup:
        return Markup(self.md.render(text, self._env()))

    def block(self, block: Block) -> Markup:
        if block.kind in ("reference", "comment", "footnote"):  # a footnote is shown where it is cited
            return Markup("")
        if block.kind == "note":
            return self.blocks(note_text(block))
        if block.kind == "div" and block.info:  # a fenced div's fence, paired (parse.divs): its tag
            return self.div(block)
        if block.kind == "quote" and type(block.value) is Callout:
            return self.callout(block.value, block.text)
        if block.kind == "table" and (cells := table_cells(block.text)) > MAX_PAGE_TABLE_CELLS:
            self.warnings.append(
                f"table of {cells:,} cells (line {block.span.start}) shown as its text: a page lays out at most "
                f"{MAX_PAGE_TABLE_CELLS:,} cells a table"
            )
            return Markup(self._code_html(block.text, ""))
        return self.blocks(block.text)

    def entry(self, entry: Any) -> Markup:
        """A block of a slide (``SlideText``) as HTML: a callout as its box, the rest as written."""
        if entry.kind == "quote" and type(entry.value) is Callout:
            return self.callout(entry.value, entry.text)
        return self.blocks(entry.text)

    def plain(self, text: str, urls: bool = False) -> str:
        """Inline Markdown as plain text (PDF metadata, ``<title>``, PPTX); with ``urls``, link and
        image targets follow their text in angle brackets, as in a plain-text outline."""
        if _MAY_BE_MARKUP.search(text) is None:
            return text
        tokens = self.md.parseInline(text, self._env())
        out: list[str] = []
        targets: list[str] = []
        for token in tokens:
            for child in token.children or []:
                kind = child.type
                if kind in ("text", "code_inline"):
                    out.append(child.content)
                elif kind in ("math_inline", "math_inline_double"):
                    fence = "$" if kind == "math_inline" else "$$"
                    out.append(fence + child.content + fence)  # plain text keeps the TeX as written
                elif kind == "footnote_ref" and self.footnotes:
                    out.append(f"[{self.footnotes.numbers.get(child.meta.get('label'), '?')}]")
                elif kind in ("softbreak", "hardbreak"):
                    out.append(" ")
                elif kind == "image":
                    out.append(child.content)
                    if urls and child.attrGet("src"):
                        out.append(" <" + str(child.attrGet("src")) + ">")
                elif kind == "link_open":
                    targets.append(str(child.attrGet("href") or ""))
                elif kind == "link_close":
                    href = targets.pop() if targets else ""
                    if urls and href and href != "".join(out[-1:]):
                        out.append(" <" + href + ">")
        return "".join(out)

    def styled(self, text: str, tex: bool = False) -> list[tuple[str, frozenset[str], str | None]]:
        """Inline Markdown as runs, for formats that style runs themselves (PPTX, Word): each run's
        text, its styles (``strong``, ``em``, ``code``, ``math``) and the link it belongs to (safe
        links only); a line break the HTML shows (a hard break, the lines of ``Speaker: …`` label
        lines) is a run of ``"\\n"``. The words are ``plain``'s. A formula's run is its Unicode
        line, or with ``tex`` its TeX (for a format that typesets it), styled ``display`` when
        written ``$$…$$``."""
        if _MAY_BE_MARKUP.search(text) is None:
            return [(text, frozenset(), None)]
        runs: list[tuple[str, frozenset[str], str | None]] = []
        styles: list[str] = []
        links: list[str | None] = []
        for token in self.md.parseInline(text, self._env()):
            for child in token.children or []:
                kind = child.type
                href = links[-1] if links else None
                if kind in ("text", "image"):
                    runs.append((child.content, frozenset(styles), href))
                elif kind == "code_inline":
                    runs.append((child.content, frozenset([*styles, "code"]), href))
                elif kind in ("math_inline", "math_inline_double"):
                    runs.append(self._math_run(child.content.strip(), kind == "math_inline_double", styles, href, tex))
                elif kind == "footnote_ref" and self.footnotes:
                    from confnotes.markup.footnotes import call_mark

                    runs.append(
                        (call_mark(self.footnotes.numbers.get(child.meta.get("label"), "?")), frozenset([*styles, "footnote"]), href)
                    )
                elif kind == "softbreak":  # a space, as in the HTML (label lines keep theirs: hardbreaks)
                    runs.append((" ", frozenset(styles), href))
                elif kind == "hardbreak":
                    runs.append(("\n", frozenset(), None))
                elif kind in ("strong_open", "em_open"):
                    styles.append(kind[:-5])
                elif kind in ("strong_close", "em_close") and styles:  # markdown-it nests them: the last opened
                    styles.pop()
                elif kind == "link_open":
                    url = str(child.attrGet("href") or "")
                    links.append(url if url and safe_link(url) else None)
                elif kind == "link_close" and links:
                    links.pop()
        return runs

    @property
    def ink(self) -> str:
        """The colour of what is drawn on the current ground."""
        return self.inks.dark if self.dark else self.inks.light


def table_cells(text: str) -> int:
    """About how many cells a pipe table's source holds: its rows times its header's columns
    (counted without parsing it: a row's ``|`` separate its cells)."""
    header, _, _ = text.partition("\n")
    columns = header.strip().strip("|").count("|") + 1
    return columns * (text.count("\n") + 1)


_STRONG = re.compile(
    r"[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff\u0590-\u05ff\u0600-\u06ff\u0700-\u08ff\u0900-\u0dff\u3040-\u9fff\uac00-\ud7af\ufb1d-\ufdff\ufe70-\ufeff]"
)
_RTL = re.compile(r"[\u0590-\u05ff\u0600-\u06ff\u0700-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")
_DIRECTED = frozenset(("paragraph_open", "heading_open", "list_item_open", "blockquote_open", "th_open", "td_open"))


def direction_of(text: str) -> str:
    """A block's direction from its first strong letter (as ``dir="auto"`` decides it in browsers;
    WeasyPrint needs it spelled out): ``rtl`` or ``auto``."""
    match = _STRONG.search(text)
    return "rtl" if match and _RTL.match(match.group(0)) else "auto"


def _shortcodes(state: Any) -> None:
    """A markdown-it core rule: emoji shortcodes in text (never in code) as their emoji (``confnotes.markup.shortcodes``)."""
    from confnotes.markup.shortcodes import MAY_BE_SHORTCODE, emojized

    for token in state.tokens:
        if token.type != "inline" or MAY_BE_SHORTCODE.search(token.content) is None:
            continue
        for child in token.children or ():
            if child.type == "text":
                child.content = emojized(child.content)


def _set_direction(state: Any) -> None:
    """Every block gets ``dir``: right-to-left paragraphs run right to left in pages and PDFs."""
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type in _DIRECTED:
            inline = next((t for t in tokens[index + 1 : index + 4] if t.type == "inline"), None)
            token.attrSet("dir", direction_of(inline.content if inline is not None else ""))


def _keep_label_lines(state: Any) -> None:
    """A paragraph whose every line is a label line (``Speaker: …`` over ``Room: …``, ``Q:`` over
    ``A:``) keeps its lines: people write these as lines, and joined they read as one sentence."""
    for token in state.tokens:
        if token.type != "inline" or "\n" not in token.content or not token.children:
            continue
        lines = token.content.split("\n")
        if all(split_label(line.strip()) is not None for line in lines):  # the parser's own label test
            for child in token.children:
                if child.type == "softbreak":
                    child.type, child.tag = "hardbreak", "br"
