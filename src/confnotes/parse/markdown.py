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
