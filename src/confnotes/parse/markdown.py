"""The one place a MarkdownIt parser is built: CommonMark + tables + front matter + ``::: notes``."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt

#: Lists and quotes nested deeper than this, counted together (a quote in a list in a quote is three
#: levels), are refused with a clear error (``parse.build``) instead of being silently truncated.
MAX_DEPTH = 32
#: Deepest token nesting markdown-it will follow (it drops content beyond it): a list takes two
#: token levels (the list, its item), so room for ``MAX_DEPTH`` lists and what stands in the deepest.
MAX_NESTING = 2 * MAX_DEPTH + 8


@lru_cache(maxsize=1)
def markdown_parser() -> MarkdownIt:
    from mdit_py_plugins.container import container_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable("table")
    md.use(front_matter_plugin)
    md.use(container_plugin, name="notes")
    # The outline keeps inline Markdown verbatim (renderers render it once, later), so the
    # block structure is all the builder needs: skipping inline parsing makes reading
    # notes cheaper than a full markdown-it parse.
    md.disable("inline")
    return md


@lru_cache(maxsize=1)
def inline_parser() -> MarkdownIt:
    """For the few checks that need inline tokens (emphasis, links) of one title or paragraph."""
    return MarkdownIt("commonmark", {"maxNesting": MAX_NESTING})


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
    return md


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
