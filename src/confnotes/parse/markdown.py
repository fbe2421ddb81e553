"""The one place a MarkdownIt parser is built: CommonMark + tables + front matter + ``::: notes``."""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt

#: Deepest token nesting markdown-it will follow; deeper notes are refused with a clear error
#: instead of being silently truncated (markdown-it drops content beyond its limit).
MAX_NESTING = 64


@lru_cache(maxsize=1)
def markdown_parser() -> MarkdownIt:
    from mdit_py_plugins.container import container_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable("table")
    md.use(front_matter_plugin)
    md.use(container_plugin, name="notes")
    return md


def render_parser(allow_html: bool = False) -> MarkdownIt:
    """A parser for rendering inline Markdown to HTML (raw HTML escaped unless allowed).

    Links are validated by the renderer (``render.markdown``), which keeps the text of a
    dropped link, so markdown-it's own validation is relaxed here.
    """
    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING, "html": allow_html}).enable("table")
    md.validateLink = lambda url: True  # noqa: ARG005 - checked at render time
    return md
