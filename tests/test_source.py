"""Reading bytes: BOM, CRLF and CR line endings, tabs."""

from __future__ import annotations

from confnotes.edges.source import decode


def test_bom_is_dropped():
    source = decode(b"\xef\xbb\xbf# T\n", "x.md")
    assert source.text == "# T\n" and source.had_bom


def test_crlf_and_cr_are_normalised():
    assert decode(b"a\r\nb\r\n", "x.md").text == "a\nb\n"
    assert decode(b"a\rb\r", "x.md").text == "a\nb\n"
    assert decode(b"a\r\nb", "x.md").newline == "\r\n"


def test_tabs_are_kept():
    assert decode(b"-\tx\n\t- y\n", "x.md").text == "-\tx\n\t- y\n"
