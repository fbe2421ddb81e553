"""Text without markup is escaped directly instead of parsed: the HTML must be markdown-it's, byte for byte."""

from __future__ import annotations

import glob

from hypothesis import example, given, settings
from hypothesis import strategies as st

from confnotes.model import Block, Node, walk_content
from confnotes.parse import parse
from confnotes.render.markdown import _MAY_BE_MARKUP, InlineRenderer
from conftest import FIXTURES, NOTES
from strategies import examples

RENDERER = InlineRenderer()


def _parsed(text: str) -> tuple[str, str]:
    """What markdown-it makes of ``text``: its inline HTML and its plain words."""
    html = RENDERER.md.renderInline(text, RENDERER._env())
    tokens = RENDERER.md.parseInline(text, RENDERER._env())
    words = "".join(child.content for token in tokens for child in token.children or [] if child.type in ("text", "code_inline"))
    return html, words


def _texts() -> list[str]:
    texts: list[str] = []
    for name in sorted(glob.glob(str(FIXTURES / "**" / "*.md"), recursive=True)) + sorted(glob.glob(str(NOTES / "*.md"))):
        try:
            doc = parse(open(name, encoding="utf-8").read(), name)  # noqa: SIM115
        except Exception:  # hostile fixtures that are meant to be refused
            continue
        for entry in walk_content(doc.content):
            if type(entry) is Node:
                texts.append(entry.title)
            elif type(entry) is Block:
                texts += entry.text.split("\n")
    return texts


def test_titles_items_and_lines_of_every_fixture_render_as_markdown_it_renders_them():
    texts = _texts()
    fast = [text for text in texts if _MAY_BE_MARKUP.search(text) is None]
    assert len(texts) > 1000 and len(fast) > len(texts) // 2  # the fast path is the common case
    for text in fast:
        assert (str(RENDERER.inline(text)), RENDERER.plain(text)) == _parsed(text), repr(text)


def test_text_that_may_be_a_link_or_markup_is_parsed():
    may_be = (
        "see example.com",
        "x@example.org",
        "http://a.b",
        "//cdn",
        "*a*",
        "a &amp; b",
        "&#169;",
        "<b>",
        "line\nbreak",
        " lead",
        "end ",
        "$x$",  # TeX math (dollarmath): a dollar before anything but a space
        "costs $5",
        "a call[^1]",  # a footnote's reference opens with [, as a link does
        "ship it :rocket:",  # an emoji shortcode
        "thumbs :+1:",
    )
    for text in may_be:
        assert _MAY_BE_MARKUP.search(text) is not None, text


def test_the_fast_path_was_written_for_this_parser():
    """The fast path's pattern lists what this parser can make of text; a plugin or option that makes
    more of it (typographer: (c), ..., --, quotes) must come with a new look at ``_MAY_BE_MARKUP``."""
    md = RENDERER.md
    assert md.options["typographer"] is False
    assert md.get_active_rules() == {
        "core": ["normalize", "block", "inline", "linkify", "text_join", "shortcodes", "callouts", "direction", "label_lines"],
        "block": [
            "table",
            "code",
            "math_block",
            "fence",
            "blockquote",
            "hr",
            "list",
            "reference",
            "html_block",
            "heading",
            "lheading",
            "paragraph",
        ],
        "inline": [
            "text",
            "linkify",
            "newline",
            "math_inline",
            "escape",
            "backticks",
            "emphasis",
            "link",
            "image",
            "footnote_ref",
            "autolink",
            "html_inline",
            "entity",
        ],
        "inline2": ["balance_pairs", "emphasis", "fragments_join"],
    }


@settings(max_examples=examples(1500), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("abcZé1.:;,-+=#%$()'\"|?{}^/@&é漢\u200bx\t\u00a0\u3000\x0b\x0c\u2028")), max_size=40))
@example("$\u2028$\u20281")  # a formula between line separators: not whitespace to the math plugin
def test_any_text_the_fast_path_takes_matches_markdown_it(text):
    if _MAY_BE_MARKUP.search(text) is None:
        assert (str(RENDERER.inline(text)), RENDERER.plain(text)) == _parsed(text)
