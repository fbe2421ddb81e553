"""Code: highlighted by Pygments once per block, wrapped where the fit engine wraps it, cut to a
PDF's budget; every renderer of code (pages, PDFs, decks, PPTX) draws ``wrapped_highlighted``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from confnotes.render.inline.base import InlineBase

#: Blocks up to this many lines are kept on one page in PDFs; longer ones may break across pages.
KEEP_LINES = 12

#: A code block printed in a PDF: its first lines, up to this many lines and characters (WeasyPrint
#: took 164 s and 1.9 GB to print 20,000 lines); the rest is named on a last line and in a warning.
MAX_PRINTED_CODE_LINES = 500

MAX_PRINTED_CODE_CHARS = 40_000


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


def _lines_label(lines: frozenset[int] | None) -> str:
    """A step's lines as the presenter names the next step: ``lines 4–5``, ``line 2, 7``, ``all lines``."""
    if lines is None:
        return "all lines"
    runs: list[list[int]] = []
    for number in sorted(lines):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    text = ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}\u2013{run[-1]}" for run in runs)
    return ("line " if len(lines) == 1 else "lines ") + text


class CodeRules(InlineBase):
    def slide_code(self, entry: Any) -> Markup:
        """A code block on a slide (a ``SlideText``): highlighted (Pygments), at the fit engine's
        size; a long line wraps by CSS alone (``white-space: pre-wrap``, the fit engine measures it
        wrapped), so a copied command stays one line."""
        from confnotes.slides.fit import code_lines

        info = entry.info
        label = f' data-lang="{escape(info.split()[0])}"' if info.strip() else ""  # the language, not the steps after it
        lines = code_lines(entry)
        html = _code_lines_html(lines, info, None, entry.whole, entry.first)
        steps = entry.steps
        if steps:
            return Markup(self._stepped_code(html, steps, entry.first, label, entry.shown_step))
        return Markup(f'<pre class="code highlight"{label}><code>' + html + "</code></pre>")

    def _stepped_code(self, html: str, steps: tuple[frozenset[int] | None, ...], first: int, label: str, step: int | None = None) -> str:
        """A code walk-through on a slide: each line a span with its number; the deck's script
        highlights the first step's lines as the slide arrives and each next step's on the next key
        (a fragment a step after the first); printed whole (a PDF), the last step shows, and on a
        page a step (``step``, ``SlideText.shown_step``) that step (none before the first)."""
        import json

        self.code_blocks += 1
        groups = [sorted(step) if step is not None else None for step in steps]
        shown: frozenset[int] | None = None  # on screen, the deck's script marks the step reached
        if self.printed:
            shown = steps[-1] if step is None else steps[min(step, len(steps)) - 1] if step > 0 else frozenset()
        out = []
        for number, line in enumerate(html.split("\n"), first + 1):
            # printed, the step's lines are marked and none dimmed: a PDF draws opacity as a group
            # outside the tagged content (PDF/UA)
            state = " hl" if shown is not None and number in shown else ""
            out.append(f'<span class="line{state}" data-line="{number}">{line}</span>')
        # a fragment a step, the first too: the deck shows the first on arriving when nothing on the
        # slide comes before it (deck.js), else in its turn, after a list or another block
        markers = "".join(
            f'<span class="fragment code-step" data-step="{1000 * self.code_blocks + index}" data-code-step="{index}"'
            f' data-label="{_lines_label(steps[index])}"></span>'
            for index in range(len(steps) if not self.printed else 0)
        )
        data = escape(json.dumps(groups, separators=(",", ":")))
        opening = f'<pre class="code highlight code-steps"{label} data-code-steps="{data}"><code>'
        return opening + "\n".join(out) + "</code>" + markers + "</pre>"

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
