"""Inline Markdown of titles and bodies to safe HTML, rendered once by markdown-it-py.

Raw HTML is escaped unless the config allows it; ``javascript:``, ``vbscript:``,
``file:`` and non-image ``data:`` links lose their link and keep their text; images
next to the note are embedded as data URIs, so the page is self-contained; remote
images become links, so opening the page makes no request.
"""

from __future__ import annotations

import base64
import mimetypes
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from html import unescape as html_unescape
from pathlib import Path
from typing import Any

from markdown_it.common.utils import escapeHtml
from markupsafe import Markup, escape

from confnotes.edges.images import image_warning, locate, shown_source
from confnotes.model import Block, note_text
from confnotes.model.values import Callout, Diagram
from confnotes.parse.recover import split_label

_SAFE_SCHEMES = {"http", "https", "mailto", "tel", ""}
_DATA_IMAGE = re.compile(r"^data:image/(png|jpe?g|gif|webp|svg\+xml);", re.IGNORECASE)
#: Images embedded in one page or deck, in all (each embedding counts).
MAX_PAGE_IMAGE_BYTES = 24 * 1024 * 1024
MAX_IMAGE_BYTES = 8 * 1024 * 1024
_SCRIPT_OR_STYLE = re.compile(r"<(script|style)\b.*?(</\1\s*>|$)", re.IGNORECASE | re.DOTALL)
_COMMENT = re.compile(r"<!--.*?(-->|$)", re.DOTALL)
_TAG = re.compile(r"</?[A-Za-z][^>]*>|<[!?][^>]*>")
#: What markdown-it (or linkify) could turn into more than text: markup and escapes, entities (``&`` before
#: ``#`` or a letter; a lone ``&`` is escaped alike), HTML, line breaks, and anything that may start a link
#: (``x.tld``, ``://``, ``//``, ``x@`` of an address; ``@scale`` alone is no address), and emoji
#: shortcodes (``:rocket:``). Most titles and items have none, and are escaped directly instead of
#: parsed (the same HTML, byte for byte).
_MAY_BE_MARKUP = re.compile(r"[\\`*_\[\]!<>~\n\r\x00]|&[#\w]|\S@|\.\w|:/|//|^\s|\s$|\$[^ \t]|:[\w+-]+:")
#: Blocks up to this many lines are kept on one page in PDFs; longer ones may break across pages.
KEEP_LINES = 12
#: A code block printed in a PDF: its first lines, up to this many lines and characters (WeasyPrint
#: took 164 s and 1.9 GB to print 20,000 lines); the rest is named on a last line and in a warning.
MAX_PRINTED_CODE_LINES = 500
MAX_PRINTED_CODE_CHARS = 40_000
#: Cells of one table a page or PDF lays out; a bigger table is shown as its text (markdown-it
#: made 678 MB of tokens for a 300 × 2,000 table, and no reader reads one as a table).
MAX_PAGE_TABLE_CELLS = 20_000
#: SVG elements a PDF draws, in all of a page's SVG images (each embedding counts): WeasyPrint took
#: 63 s and 824 MB for one 200,000-element SVG. An SVG past the budget is shown as its alt text.
MAX_PRINTED_SVG_ELEMENTS = 20_000
_PARAGRAPH_BREAK = re.compile(r"</p>\s*<p\b[^>]*>")
_PARAGRAPH_EDGE = re.compile(r"\A<p\b[^>]*>|</p>\Z")
#: The size (px) formulas are drawn at for print; the page scales them to the text's size (em).
MATH_PX = 20


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


def _scheme(url: str) -> str:
    cleaned = re.sub(r"[\x00-\x20]", "", url).lower()
    match = re.match(r"^([a-z][a-z0-9+.-]*):", cleaned)
    return match.group(1) if match else ""


def safe_link(url: str) -> bool:
    return _scheme(url) in _SAFE_SCHEMES


@dataclass
class InlineRenderer:
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

    def _image(self, renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        src = token.attrGet("src") or ""
        alt = renderer.renderInlineAsText(token.children or [], options, env)
        title = token.attrGet("title")
        title_attr = f' title="{escape(title)}"' if title else ""
        if _DATA_IMAGE.match(src):
            if self.printed and src[:19].lower() == "data:image/svg+xml;" and not self._svg_fits(src, _data_bytes(src)):
                return f'<span class="missing-image">{escape(alt)}</span>'
            return f'<img src="{escape(src)}" alt="{escape(alt)}"{title_attr}>'
        scheme = _scheme(src)
        if scheme in ("http", "https"):  # nothing is fetched: a placeholder that links to the image
            return f'<a class="remote-image" href="{escape(src)}" title="Image (not embedded): {escape(src)}">{escape(alt or src)}</a>'
        if scheme:
            self.warnings.append(image_warning(src, self.base_dir) or f"image {shown_source(src)} not embedded")
            return f'<span class="missing-image">{escape(alt)}</span>'
        data_uri = self._embed(src)
        if data_uri == "":  # over the page's budget: linked beside the page instead
            return f'<img src="{escape(src)}" alt="{escape(alt)}"{title_attr}>'
        if data_uri is None:
            return f'<span class="missing-image" title="{escape(src)}">{escape(alt or src)}</span>'
        return f'<img src="{data_uri}" alt="{escape(alt)}"{title_attr}>'

    def _embed(self, src: str) -> str | None:
        target, problem = locate(src, self.base_dir if self.embed_images else None)
        if target is None:
            self.warnings.append(problem or f"image {src!r} not embedded")
            return None
        if target.stat().st_size > MAX_IMAGE_BYTES:
            self.warnings.append(f"image {src!r} is larger than 8 MB; not embedded")
            return None
        mime = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if not mime.startswith("image/"):
            self.warnings.append(f"{src!r} is not an image")
            return None
        size = target.stat().st_size
        if self._embedded_bytes + size > MAX_PAGE_IMAGE_BYTES:
            # every embedding counts, so a note that shows one big image many times cannot blow up the page
            self.warnings.append(f"image {src!r} linked, not embedded: the page's images passed {MAX_PAGE_IMAGE_BYTES >> 20} MB")
            return ""
        if self.printed and mime == "image/svg+xml" and not self._svg_fits(src, target.read_bytes()):
            return None
        self._embedded_bytes += size
        if target not in self._embedded:
            self._embedded[target] = f"data:{mime};base64,{base64.b64encode(target.read_bytes()).decode('ascii')}"
        return self._embedded[target]

    def _svg_fits(self, src: str, data: bytes) -> bool:
        """Whether the SVG ``data`` fits what is left of the page's budget of drawn SVG elements
        (``render.svg``); a warning when it does not."""
        from confnotes.render.svg import drawn_elements

        left = MAX_PRINTED_SVG_ELEMENTS - self._svg_elements
        count = drawn_elements(data, left)
        if count > left:
            self.warnings.append(
                f"image {shown_source(src)} not drawn in the PDF: its SVG would draw more than {left:,} elements "
                f"(a PDF draws at most {MAX_PRINTED_SVG_ELEMENTS:,}, all its SVGs together); its alt text is shown"
            )
            return False
        self._svg_elements += count
        return True

    # public API ----------------------------------------------------------------
    def load_references(self, blocks: list[Block]) -> None:
        """Link reference definitions apply to the whole note, so collect them once."""
        env: dict[str, Any] = {}
        for block in blocks:
            self.md.parse(block.text, env)
        self.references = env.get("references", {})

    def load_footnotes(self, footnotes: Any, where: str) -> None:
        """The note's footnotes (``confnotes.markup.footnotes.footnotes_of``), shown ``where`` (see the field)."""
        self.footnotes = footnotes
        self.footnotes_at = where

    def _env(self) -> dict[str, Any]:
        if self.footnotes:
            refs = {":" + label: -1 for label in self.footnotes.numbers}
            return {"references": dict(self.references), "footnotes": {"refs": refs, "list": {}}}
        return {"references": dict(self.references)}

    def footnote_html(self, text: str, inline: bool = False) -> Markup:
        """A footnote's text as HTML; a lone paragraph without its ``<p>`` (it stands in small print).
        ``inline``: paragraphs as lines of one inline box (a page-bottom footnote is a ``<span>``)."""
        html = str(self.blocks(text)).strip()
        if inline or html.count("<p") == 1:
            html = _PARAGRAPH_BREAK.sub("<br>", html)
            html = _PARAGRAPH_EDGE.sub("", html)
        return Markup(html)

    def _footnote_ref(self, _renderer: Any, tokens: list[Any], idx: int, _options: Any, _env: Any) -> str:
        label = str(tokens[idx].meta.get("label", ""))
        number = self.footnotes.numbers.get(label) if self.footnotes else None
        if number is None:
            return str(escape(f"[^{label}]"))
        if self.footnotes_at == "page" and number in self._called:  # cited again: its number, one note
            return f'<sup class="footnote-ref">{number}</sup>'
        if self.footnotes_at == "page":
            # WeasyPrint floats the text to the foot of the page and numbers the call and the note;
            # a footnote citing another shows that one's number (a footnote in a footnote cannot float)
            self._called.add(number)
            self.footnotes_at = "slide"
            try:
                text = self.footnote_html(self.footnotes.texts[label], inline=True)
            finally:
                self.footnotes_at = "page"
            return f'<span class="footnote">{text}</span>'
        if self.footnotes_at == "slide":
            return f'<sup class="footnote-ref">{number}</sup>'
        anchor = "" if number in self._called else f' id="fnref-{number}"'  # the first call is where its note links back to
        self._called.add(number)
        return f'<sup class="footnote-ref"><a href="#fn-{number}"{anchor} role="doc-noteref">{number}</a></sup>'

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

    def callout(self, found: Callout, text: str) -> Markup:
        """A callout quote (its source ``text``) as a box in its kind's colour under its title; a
        foldable one (``-``, ``+``) a ``<details>`` on screen (a printed page and a slide show it open)."""
        return Markup(self.md.render(text, {**self._env(), "callout": found}))

    def div(self, block: Block) -> Markup:
        """A fenced div's fence as the page's tag: ``columns`` a responsive grid of its columns (a
        column's ``width="40%"`` its share), ``incremental`` a plain group (the page shows it all)."""
        if block.info == "end":
            return Markup("</div>")
        if block.info == "column":
            from confnotes.parse.divs import width

            share = width(block.text)
            return Markup(f'<div class="column" style="flex: {share * 100:.0f} 1 0">' if share else '<div class="column">')
        found = block.value
        if type(found) is Callout:  # Quarto's ::: {.callout-note title="…"}
            title = f'<p class="callout-title">{self.inline(found.title)}</p>'
            return Markup(f'<div class="callout callout-{found.kind}" role="note">{title}')
        return Markup(f'<div class="{escape(block.info)}">')

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

    def _math_run(
        self, tex: str, display: bool, styles: list[str], href: str | None, source: bool = False
    ) -> tuple[str, frozenset[str], str | None]:
        """A formula in a run of text: as Unicode text (PPTX), or its TeX with ``source`` (Word);
        TeX a typesetter cannot read as code, with the warning every output gives."""
        from confnotes.markup.math import MathError, linear, mathml

        try:
            mathml(tex, display)
        except MathError as exc:
            fence = "$$" if display else "$"
            self.warnings.append(f"math not typeset ({exc}); shown as TeX: {fence}{tex[:60]}{fence}")
            return (fence + tex + fence, frozenset([*styles, "code"]), href)
        if source:
            return (tex, frozenset([*styles, "math", *(["display"] if display else [])]), href)
        return (linear(tex), frozenset([*styles, "math"]), href)

    def slide_code(self, entry: Any) -> Markup:
        """A code block on a slide (a ``SlideText``): highlighted (Pygments), at the fit engine's
        size; a long line wraps by CSS alone (``white-space: pre-wrap``, the fit engine measures it
        wrapped), so a copied command stays one line."""
        from confnotes.slides.fit import code_lines

        info = entry.info
        label = f' data-lang="{escape(info)}"' if info else ""
        html = _code_lines_html(code_lines(entry), info, None, entry.whole, entry.first)
        return Markup(f'<pre class="code highlight"{label}><code>' + html + "</code></pre>")

    def _fence(self, _renderer: Any, tokens: list[Any], idx: int, _options: Any, _env: Any) -> str:
        """Code blocks: highlighted (Pygments); the language shows as a caption, so the fence's info is
        not lost. A diagram's fence (mermaid, dot) is drawn where its tool is installed."""
        info = tokens[idx].info.strip().split(" ", 1)[0] if tokens[idx].info else ""
        if info:
            from confnotes.markup.diagrams import language

            if language(info) is not None and (drawn := self.diagram(info, tokens[idx].content, warn=True)) is not None:
                return drawn
        html = self._code_html(tokens[idx].content, info)
        if not info:
            return html
        return '<div class="code-block"><span class="code-lang">' + str(escape(info)) + "</span>" + html + "</div>"

    def _math(self, _renderer: Any, tokens: list[Any], idx: int, _options: Any, _env: Any) -> str:
        token = tokens[idx]
        display = token.type != "math_inline"
        html = self.math(token.content.strip(), display)
        return f'<div class="math-display">{html}</div>\n' if token.type == "math_block" else html

    def math(self, tex: str, display: bool) -> str:
        """A formula as HTML: MathML for a browser, SVG for print (``render.math``); TeX a
        typesetter cannot read is shown as code, with a warning."""
        from confnotes.markup.math import MathError, mathml, svg

        try:
            if not self.printed:
                return mathml(tex, display)
            drawn = svg(tex, display, MATH_PX)
        except MathError as exc:
            fence = "$$" if display else "$"
            self.warnings.append(f"math not typeset ({exc}); shown as TeX: {fence}{tex[:60]}{fence}")
            return f'<code class="math-error" title="{escape(str(exc))}">{escape(fence + tex + fence)}</code>'
        em = 1 / MATH_PX
        body = drawn.svg.replace('"currentColor"', f'"{self.ink}"')
        size = f"width:{drawn.width * em:.3f}em;height:{drawn.height * em:.3f}em;vertical-align:{-drawn.depth * em:.3f}em"
        body = re.sub(r'^<svg ([^>]*?)width="[^"]*" height="[^"]*"', rf'<svg \1style="{size}"', body, count=1)
        body = body.replace("<svg ", f'<svg role="img" aria-label="{escape(tex)}" ', 1)
        return f'<span class="math">{body}</span>'

    def diagram(self, info: str, source: str, warn: bool = True) -> str | None:
        """A diagram's drawing as an image (``confnotes.markup.diagrams``: SVG, cached), or None when it is
        not drawn here, with one warning a diagram saying why (the code is shown instead)."""
        from confnotes.markup.diagrams import diagram_name, draw, language, shown_as_code

        tool = language(info)
        if tool is None:
            return None
        drawn = draw(tool, source, self.ink if self.dark else None)
        if drawn.svg is None:
            if warn:
                self.warnings.append(shown_as_code(tool, source, drawn.problem))
            return None
        data = drawn.svg.encode("utf-8")
        if self.printed and not self._svg_fits(f"{tool} diagram", data):
            return None
        alt = diagram_name(tool)
        uri = "data:image/svg+xml;base64," + base64.b64encode(data).decode("ascii")
        return f'<figure class="diagram diagram-{tool}"><img src="{uri}" alt="{alt}"></figure>\n'

    @property
    def ink(self) -> str:
        """The colour of what is drawn on the current ground."""
        return self.inks.dark if self.dark else self.inks.light

    def ground(self, slide: Any, deck: bool) -> str:
        """Draw the slide's entries for its ground (called by the slide templates before them): dark
        on a dark slide, and on every slide of a dark theme's deck (``deck``; a handout prints in the
        light palette). Returns nothing to show."""
        self.dark = slide.dark_ground or (deck and self.inks.dark_screen)
        return ""

    def slide_classes(self, slide: Any) -> Markup:
        """The classes a slide's directives add (``<!-- slide class: … -->``), and ``on-dark`` on a dark
        background colour, each after a space; names were checked when read (``parse.directives``)."""
        from confnotes.slides.directives import is_dark

        names = [*slide.classes, *(["on-dark"] if is_dark(slide.background) else []), *([f"layout-{slide.layout}"] if slide.layout else [])]
        return Markup("".join(f" {escape(name)}" for name in names))

    def slide_table(self, entry: Any, scale: float, box_w: float) -> Markup:
        """A slide's table with its columns' widths (``slides.fit.table_widths``), the widths the
        fit engine measured its rows by: a column gets room for its longest word before any shares."""
        from confnotes.slides.fit import table_widths
        from confnotes.slides.geometry import sizes

        widths = table_widths(entry.table, sizes(scale)["table"], box_w)
        cols = "".join(f'<col style="width: {100 * width / sum(widths):.2f}%">' for width in widths)
        html = str(self.blocks(entry.text))
        at = html.find("<table")
        end = html.find(">", at) + 1 if at >= 0 else -1
        return Markup(html[:end] + f"<colgroup>{cols}</colgroup>" + html[end:]) if end > 0 else Markup(html)

    def column_px(self, slide: Any, share: float) -> float:
        """The width in px of a slide's column of ``share`` (``slides.layouts``): what its code wraps at."""
        from confnotes.slides.layouts import column_widths, text_width

        if slide.grid is not None and share < 1.0:
            return column_widths(len(slide.grid.widths), (share,))[0]
        return text_width(slide)

    def slide_style(self, slide: Any) -> Markup:
        """A slide's background (``<!-- slide background: … -->``) as its ``style``: a colour, or an
        image below the note's folder, embedded as the page's images are."""
        if not slide.background:
            return Markup("")
        from confnotes.slides.directives import is_colour

        if is_colour(slide.background):
            return Markup(f' style="background: {escape(slide.background)}"')
        uri = self._embed(slide.background)
        if not uri:
            return Markup("")
        # under a veil of the paper's colour (a theme's --veil: dark under a dark theme's light
        # text): the slide's text stays legible on any picture
        tint = "var(--veil, rgba(255, 255, 255, .78))"
        veil = f"linear-gradient({tint}, {tint})"
        return Markup(f' style="background: {veil}, url(&quot;{escape(uri)}&quot;) center / cover no-repeat"')

    def slide_diagram(self, entry: Any) -> Markup:
        """A diagram block on a slide: drawn, or as code when it cannot be."""
        value = entry.value
        drawn = self.diagram(entry.info, value.source) if type(value) is Diagram else None
        return Markup(drawn) if drawn is not None else self.slide_code(entry)

    def _html(self, _renderer: Any, tokens: list[Any], idx: int, _options: Any, _env: Any) -> str:
        """Raw HTML as written if the config allows it; otherwise its text without its tags (a
        ``<span style=…>?</span>`` prints ``?``), and nothing of comments, scripts and styles."""
        content = tokens[idx].content
        if self.allow_html:
            return str(content)
        text = _SCRIPT_OR_STYLE.sub("", content)
        text = _COMMENT.sub("", text)
        text = _TAG.sub("", text)
        return str(escape(html_unescape(text)))

    def _callouts(self, state: Any) -> None:
        """A markdown-it core rule: the quote of a block ``parse`` read as a callout (``callout`` in
        the render's env) becomes its box, its first line's rest (or its type) the title; a foldable
        one (``-``, ``+``) a ``<details>`` on screen (a printed page shows it open)."""
        found_callout = state.env.get("callout")
        if found_callout is None:
            return
        tokens, opened = state.tokens, list[str | None]()
        index = 0
        while index < len(tokens):
            token = tokens[index]
            if token.type == "blockquote_close":
                tag = opened.pop() if opened else None
                token.tag = tag or token.tag
            elif token.type == "blockquote_open":
                found = None
                first = index + 2 < len(tokens) and tokens[index + 1].type == "paragraph_open" and tokens[index + 2].type == "inline"
                if not opened and first:
                    found, found_callout = found_callout, None  # the block's own quote, not one inside it
                if found is None:
                    opened.append(None)
                else:
                    opened.append(self._open_callout(state, index, found))
            index += 1

    def _open_callout(self, state: Any, index: int, found: Any) -> str:
        """Turns the quote at ``index`` into ``found``'s box: its tag, its title, its body's first
        paragraph without the marker line; returns the tag (the quote's close takes it too)."""
        from markdown_it.token import Token

        tokens = state.tokens
        fold = bool(found.fold) and self.foldable and not self.printed
        tag = "details" if fold else "div"
        opener = tokens[index]
        opener.tag = tag
        opener.attrs = {"class": f"callout callout-{found.kind}"}
        if fold and found.fold == "+":
            opener.attrs["open"] = ""
        if not fold:
            opener.attrs["role"] = "note"
        inline = tokens[index + 2]
        children = list(inline.children or [])
        cut = next((n for n, child in enumerate(children) if child.type in ("softbreak", "hardbreak")), len(children))
        title = Token("inline", "", 0, content=found.title, children=self.md.parseInline(found.title, self._env())[0].children)
        heading = [
            Token("callout_title_open", "summary" if fold else "p", 1, attrs={"class": "callout-title"}),
            title,
            Token("callout_title_close", "summary" if fold else "p", -1),
        ]
        rest = children[cut + 1 :]
        if rest:
            inline.children = rest
            inline.content = inline.content.split("\n", 1)[1] if "\n" in inline.content else ""
            tokens[index + 1 : index + 1] = heading
        else:  # the marker line was all of the first paragraph
            tokens[index + 1 : index + 4] = heading
        return tag

    def _small_block(self, renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        """A short table or quote is kept on one page; a long one may break (print.css ``.keep``)."""
        token = tokens[idx]
        if token.map and token.map[1] - token.map[0] <= KEEP_LINES:
            token.attrJoin("class", "keep")
        return str(renderer.renderToken(tokens, idx, options, env))

    def _table_open(self, renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        """A table in a box of its own, which scrolls sideways on a narrow screen instead of the page
        (note.css ``.table-scroll``; a keyboard can scroll it too)."""
        return '<div class="table-scroll" tabindex="0">' + self._small_block(renderer, tokens, idx, options, env)

    def _table_close(self, renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        return str(renderer.renderToken(tokens, idx, options, env)) + "</div>\n"

    def _code_block(self, _renderer: Any, tokens: list[Any], idx: int, _options: Any, _env: Any) -> str:
        return self._code_html(tokens[idx].content, "")

    def _code_html(self, code: str, language: str) -> str:
        """``<pre class="highlight">`` of ``code``; with ``code_columns``, long lines wrap at a space
        behind a continuation mark (``↪``, drawn by CSS so copied code stays code)."""
        lines = [line.expandtabs(4) for line in code.removesuffix("\n").split("\n")]
        if self.printed:
            lines = self._printed_lines(lines)
        label = f' class="language-{escape(language)}"' if language else ""
        keep = " keep" if len(lines) <= KEEP_LINES else ""
        return (
            f'<pre class="highlight{keep}"><code' + label + ">" + _code_lines_html(lines, language, self.code_columns) + "</code></pre>\n"
        )

    def _printed_lines(self, lines: list[str]) -> list[str]:
        """A code block's first lines, within ``MAX_PRINTED_CODE_LINES`` and ``MAX_PRINTED_CODE_CHARS``,
        and a last line (and a warning) saying how many more there are."""
        kept = 0
        size = 0
        for line in lines[:MAX_PRINTED_CODE_LINES]:
            size += len(line) + 1
            if size > MAX_PRINTED_CODE_CHARS:
                break
            kept += 1
        if kept == len(lines):
            return lines
        shown = lines[:kept] or [lines[0][:MAX_PRINTED_CODE_CHARS] + " ⋯"]  # one line longer than the whole budget
        left = len(lines) - len(shown)
        self.warnings.append(
            f"code block cut to its first {len(shown):,} lines in the PDF ({left:,} more; the limit is "
            f"{MAX_PRINTED_CODE_LINES:,} lines or {MAX_PRINTED_CODE_CHARS:,} characters a printed block)"
        )
        return [*shown, f"⋯ {left:,} more lines not printed"]


def table_cells(text: str) -> int:
    """About how many cells a pipe table's source holds: its rows times its header's columns
    (counted without parsing it: a row's ``|`` separate its cells)."""
    header, _, _ = text.partition("\n")
    columns = header.strip().strip("|").count("|") + 1
    return columns * (text.count("\n") + 1)


def _data_bytes(src: str) -> bytes:
    """The bytes a ``data:`` URL holds (base64 or percent-encoded); empty when they cannot be read."""
    import binascii
    from urllib.parse import unquote_to_bytes

    head, _, payload = src.partition(",")
    try:
        return base64.b64decode(payload) if head.lower().endswith(";base64") else unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return b""


def highlighted_lines(lines: list[str], language: str, whole: str = "", first: int = 0) -> list[list[tuple[str, str]]]:
    """``lines`` of code as ``(css class, text)`` spans per line (Pygments; plain text if the
    language is unknown). A part of a split block (``whole``, from its line ``first``) is cut from
    the whole block's highlighting, so it is coloured as the whole is, not as code of its own."""
    spans = _highlighted(whole, language)[first : first + len(lines)] if whole else _highlighted("\n".join(lines), language)
    return spans + [[] for _ in range(len(lines) - len(spans))]


@lru_cache(maxsize=32)  # the parts of one split block share their whole block's highlighting
def _highlighted(code: str, language: str) -> list[list[tuple[str, str]]]:
    from pygments.lexers import TextLexer, get_lexer_by_name
    from pygments.token import STANDARD_TYPES
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(language, stripnl=False, ensurenl=False) if language else TextLexer()
    except ClassNotFound:
        lexer = TextLexer()
    out: list[list[tuple[str, str]]] = [[]]
    for kind, value in lexer.get_tokens(code):
        css = ""
        while kind is not None and not (css := STANDARD_TYPES.get(kind, "")):
            kind = kind.parent
        css = "" if css == "err" else css  # what a lexer cannot read is shown plain, not boxed in red
        for index, part in enumerate(value.split("\n")):
            if index:
                out.append([])
            if not part:
                continue
            if out[-1] and out[-1][-1][0] == css:  # one span for a run of one kind
                out[-1][-1] = (css, out[-1][-1][1] + part)
            else:
                out[-1].append((css, part))
    count = code.count("\n") + 1
    return out[:count] + [[] for _ in range(count - len(out))]


def wrapped_highlighted(
    lines: list[str], info: str, columns: int | None, whole: str = "", first: int = 0
) -> Iterator[tuple[bool, list[tuple[str, str]]]]:
    """Code as it is shown: ``(continued, spans)`` per shown line — highlighted (``highlighted_lines``),
    lines longer than ``columns`` wrapped where the fit engine wraps them (``fit.wrapped_code``);
    ``columns`` None: never wrapped. Every renderer of code (pages, PDFs, decks, PPTX) draws these."""
    from confnotes.slides.fit import wrapped_code

    for spans in highlighted_lines(lines, info.split(" ", 1)[0] if info else "", whole, first):
        text = "".join(piece for _, piece in spans)
        if columns is None:
            yield False, spans
            continue
        position = 0
        for piece, continued in wrapped_code([text], columns):
            yield continued, _slice(spans, position, position + len(piece))
            position += len(piece)


def _slice(spans: list[tuple[str, str]], start: int, stop: int) -> list[tuple[str, str]]:
    """The spans covering characters ``[start, stop)`` of a highlighted line."""
    out: list[tuple[str, str]] = []
    position = 0
    for css, text in spans:
        end = position + len(text)
        lo, hi = max(start, position), min(stop, end)
        if lo < hi:
            out.append((css, text[lo - position : hi - position]))
        position = end
    return out


def _code_lines_html(lines: list[str], info: str, columns: int | None, whole: str = "", first: int = 0) -> str:
    """The shown lines of a code block as HTML; a continuation starts with a mark CSS draws."""
    out = []
    for continued, spans in wrapped_highlighted(lines, info, columns, whole, first):
        html = "".join(f'<span class="{css}">{escape(text)}</span>' if css else str(escape(text)) for css, text in spans)
        out.append(('<span class="wrap" aria-hidden="true"></span>' if continued else "") + html)
    return "\n".join(out)


def code_css(theme: str, dark: bool | None = None) -> str:
    """Pygments colours for code, matched to the theme: a dark palette for dark themes (``dark``
    overrides: documents print the dark theme in its light palette)."""
    from pygments.formatters import HtmlFormatter

    dark = theme == "dark" if dark is None else dark
    style = "monokai" if dark else "default"
    background = "#272822" if dark else "#f4f4f6"
    rules = str(HtmlFormatter(style=style).get_style_defs(".highlight"))  # type: ignore[no-untyped-call]
    return rules + f"\n.text-code .highlight {{ background: {background}; }}"


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
