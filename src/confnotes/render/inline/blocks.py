"""Blocks markdown-it renders with confnotes' rules: raw HTML (escaped unless allowed), callouts as
their boxes, tables in a scrolling box, short blocks kept on a page.
"""

from __future__ import annotations

import re
from html import unescape as html_unescape
from typing import Any

from markupsafe import Markup, escape

from confnotes.model import Block
from confnotes.model.values import Callout
from confnotes.render.inline.base import InlineBase
from confnotes.render.inline.code import KEEP_LINES

_SCRIPT_OR_STYLE = re.compile(r"<(script|style)\b.*?(</\1\s*>|$)", re.IGNORECASE | re.DOTALL)

_COMMENT = re.compile(r"<!--.*?(-->|$)", re.DOTALL)

_TAG = re.compile(r"</?[A-Za-z][^>]*>|<[!?][^>]*>")


class BlockRules(InlineBase):
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
