"""What Marp would obey or fetch in a note's text, written so that it does neither.

Marp (marpit, marp-core, marp-cli) reads every HTML comment whose body parses as YAML ``key: value``
as a *directive* (``<!-- theme: gaia -->``, ``<!-- backgroundImage: url(https://…) -->``), turns
emoji into images from a CDN (twemoji) and shortcodes (``:rocket:``) likewise, and loads web images
and a theme's web fonts when a deck is opened. confnotes writes Marp Markdown that does none of
that unless asked (``--allow-remote``):

- the author's raw HTML is escaped (shown as text) unless the config sets ``allow_html``, and an
  author's HTML comment is escaped always: the only directives in the file are confnotes' own.
  Code spans are kept as written; whether the result still holds anything Marp would read as HTML
  or a comment is checked with markdown-it (what Marp parses with) and Marp's own comment rules,
  and if it does, every ``<`` and backtick is written as a character reference instead;
- speaker notes are HTML comments (Marp's presenter notes) that open with the line ``Notes``: a
  comment whose first line is a plain word with no colon is never YAML ``key: value`` whatever
  follows (marpit's YAML reads it as text or fails), so Marp keeps it as a note;
- emoji in text are written as character references (``&#x1F680;``), which marp-core's emoji
  rule does not see, and shortcodes get a word joiner after their first colon; in code, which
  Marp shows as written, an emoji is followed by U+FE0E (text style), which Marp leaves alone.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache
from typing import Any

#: The first line of every speaker note in a Marp file (see the module's docstring).
NOTE_MARK = "Notes"

_AUTOLINK = re.compile(r"<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*|[^<>\s@]+@[^<>\s]+)>")
_TAG_OPEN = re.compile(r"<(?=[A-Za-z/!?])")  # what could open HTML, a comment or a declaration
_COMMENT_OPEN = re.compile(r"<(?=!)")  # what could open a comment (kept HTML: allow_html)
#: what stops the scan for code spans: a backslash escape (of ASCII punctuation), an autolink, a backtick run
_INLINE_STOPS = re.compile(r"\\[!-/:-@\[-`{-~]|" + _AUTOLINK.pattern + "|`+")

#: Emoji marp-core shows as twemoji images (from cdn.jsdelivr.net) when they stand in text:
#: the BMP ones with emoji presentation (read from marp-core 4.4 by rendering every code point)
#: and every pictograph block above U+1F000. U+FE0F (emoji style) and U+20E3 (keycap) make an
#: emoji of the character before them, so they are quieted as well.
_EMOJI_BMP = (
    "\u231a\u231b\u23e9-\u23ec\u23f0\u23f3\u25fd\u25fe\u2614\u2615\u2648-\u2653\u267f\u2693\u26a1\u26aa\u26ab"
    "\u26bd\u26be\u26c4\u26c5\u26ce\u26d4\u26ea\u26f2\u26f3\u26f5\u26fa\u26fd\u2705\u270a\u270b\u2728\u274c"
    "\u274e\u2753-\u2755\u2757\u2764\u2795-\u2797\u27b0\u27bf\u2b1b\u2b1c\u2b50\u2b55"
)
_EMOJI = re.compile(f"[{_EMOJI_BMP}\U0001f000-\U0001faff\ufe0f\u20e3]")
_CODE_EMOJI = re.compile(f"([{_EMOJI_BMP}\U0001f000-\U0001faff])(?![\ufe0e\ufe0f])|\ufe0f")
#: ``:name:`` as markdown-it-emoji finds a shortcode (a name with a letter in it, or 100, 1234, ±1)
_SHORTCODE = re.compile(r":(?=[\w+-]*[A-Za-z]|100:|1234:|[+-]1:)([\w+-]+):")
#: a link's or image's target (``](…)``), an autolink or a bare web address (Marp links it):
#: addresses, which a word joiner would break
_TARGET = re.compile(r"\]\(\s*(?:<[^>\n]*>|[^)\s]*)|" + _AUTOLINK.pattern + r"|(?:\b[A-Za-z][A-Za-z0-9+.-]*:)?//[^\s<>]*|\bwww\.[^\s<>]*")


def code_pieces(text: str) -> list[tuple[bool, str]]:
    """``text`` cut into code spans and what is between them, as markdown-it finds them: a run of
    backticks opens a span closed by the next run of the same length (inside a span a backslash
    escapes nothing); outside one, a backslash-escaped backtick, or one inside an autolink, opens
    nothing. The closing runs are indexed once, so no text makes this slower than linear."""
    closers: dict[int, list[int]] = {}
    for run in re.finditer("`+", text):
        closers.setdefault(run.end() - run.start(), []).append(run.start())
    pieces: list[tuple[bool, str]] = []
    done = position = 0
    while (stop := _INLINE_STOPS.search(text, position)) is not None:
        position = stop.end()
        if stop.group(0)[0] != "`":  # an escape or an autolink: nothing in it opens a span
            continue
        length = position - stop.start()
        later = closers.get(length, [])
        closing = bisect.bisect_left(later, position)
        if closing == len(later):  # no run of its length follows: the backticks are text
            continue
        if stop.start() > done:
            pieces.append((False, text[done : stop.start()]))
        done = position = later[closing] + length
        pieces.append((True, text[stop.start() : done]))
    if done < len(text):
        pieces.append((False, text[done:]))
    return pieces


def guarded(text: str, allow_html: bool) -> str:
    """Author text as Marp may read it: raw HTML (unless ``allow_html``) and HTML comments (always)
    shown as text, code spans as written, autolinks kept; see the module's docstring."""
    opener = _COMMENT_OPEN if allow_html else _TAG_OPEN
    out = "".join(piece if code else _escaped(piece, opener) for code, piece in code_pieces(text))
    if opener.search(out) and obeyed(out, allow_html):  # a code span Marp would not see as one
        out = opener.sub("&lt;", text.replace("`", "&#96;"))
    return out


def _escaped(text: str, opener: re.Pattern[str]) -> str:
    kept: list[str] = []

    def keep(match: re.Match[str]) -> str:
        kept.append(match.group(0))
        return f"\x00{len(kept) - 1}\x00"

    text = _AUTOLINK.sub(keep, text.replace("\x00", "\ufffd"))  # markdown-it reads NUL as U+FFFD too
    text = opener.sub("&lt;", text)
    return re.sub(r"\x00(\d+)\x00", lambda match: kept[int(match.group(1))], text)


def obeyed(text: str, allow_html: bool) -> bool:
    """Whether Marp would read an HTML comment (a directive) in ``text``, or, unless
    ``allow_html``, any raw HTML: parsed as marp-core parses it, with marpit's comment rules."""
    tokens = _marp_parser().parse(text)
    found = {token.type for token in tokens} | {child.type for token in tokens for child in token.children or []}
    return "marpit_comment" in found or (not allow_html and bool(found & {"html_block", "html_inline"}))


def quiet_emoji(text: str) -> str:
    """Text (not code) with its shortcodes as their emoji (``confnotes.markup.shortcodes``), its emoji as
    character references and the shortcodes no emoji has broken by a word joiner: what the reader
    sees is what every output shows, but marp-core makes no CDN image of them."""
    out: list[str] = []
    for code, piece in code_pieces(text):
        if code:
            out.append(quiet_code_emoji(piece))
            continue
        position = 0
        for target in _TARGET.finditer(piece):  # a link's target is an address, shown nowhere: as written
            out += [_quiet_text(piece[position : target.start()]), target.group(0)]
            position = target.end()
        out.append(_quiet_text(piece[position:]))
    return "".join(out)


def _quiet_text(text: str) -> str:
    from confnotes.markup.shortcodes import emojized

    text = emojized(text)  # a shortcode the table knows is its emoji, as in every output; the rest kept apart
    text = _SHORTCODE.sub(lambda match: f":&#x2060;{match.group(1)}:", text)
    return _EMOJI.sub(lambda match: f"&#x{ord(match.group(0)):X};", text)


def quiet_code_emoji(code: str) -> str:
    """Code (shown as written, so no character references) with each emoji in text style (U+FE0E
    after it, in place of U+FE0F), which marp-core's emoji rule leaves as text."""
    return _CODE_EMOJI.sub(lambda match: match.group(1) + "\ufe0e" if match.group(1) else "\ufe0e", code)


def speaker_note(text: str) -> str:
    """A speaker note as Marp's presenter note: an HTML comment that opens with ``NOTE_MARK`` on a
    line of its own, so Marp never reads it as a directive; ``-->`` in the note cannot close it."""
    return f"<!--\n{NOTE_MARK}\n{text.replace('-->', '-- >')}\n-->"


# ------------------------------------------------------------------ marpit's comment rules


_MARPIT_COMMENT = re.compile(r"<!--+\s*([\s\S]*?)\s*--+>")


def _block_comment(state: Any, start: int, end: int, silent: bool) -> bool:
    """marpit's block comment rule (``lib/markdown/comment.js``): a line that opens with ``<!--``
    runs to the first line holding ``-->``, whatever the lines between hold."""
    begin = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("<!--", begin):
        return False
    if silent:
        return True
    line = start + 1
    if "-->" not in state.src[begin : state.eMarks[start]]:
        while line < end and state.sCount[line] >= state.blkIndent:
            text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
            line += 1
            if "-->" in text:
                break
    state.line = line
    token = state.push("marpit_comment", "", 0)
    token.map = [start, line]
    token.hidden = True
    return True


def _inline_comment(state: Any, silent: bool) -> bool:
    """marpit's inline comment rule: ``<!`` where a whole comment follows (marpit searches the rest
    of the line's text for one, not only at this position)."""
    if state.pos + 2 >= state.posMax or not state.src.startswith("<!", state.pos):
        return False
    match = _MARPIT_COMMENT.search(state.src, state.pos)
    if match is None:
        return False
    if not silent:
        state.push("marpit_comment", "", 0).hidden = True
    state.pos += len(match.group(0))
    return True


@lru_cache(maxsize=1)
def _marp_parser() -> Any:
    """The parser Marp reads a deck with, as far as HTML and comments go: CommonMark with HTML,
    linkify and tables (confnotes' render parser) and marpit's comment rules."""
    from confnotes.parse.markdown import render_parser

    md = render_parser()
    md.block.ruler.before("html_block", "marpit_comment", _block_comment)
    md.inline.ruler.before("html_inline", "marpit_comment", _inline_comment)
    return md


# ------------------------------------------------------------------ raw HTML that would load (allow_html)

#: An address a browser would fetch from elsewhere: ``//host``, ``\\host`` (and their mixtures), or
#: any scheme but ``data:`` (``https:``, and ``file://HOST/``, which Windows opens over the network).
_AFAR = re.compile(r"^(?:[/\\]{2}|(?!data:)[a-z][a-z0-9+.-]*:)", re.IGNORECASE)
#: an HTML open tag as CommonMark (and so Marp) reads one, with its attributes
_ATTRIBUTE = re.compile(r"""\s+([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
_OPEN_TAG = re.compile(r"""<([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*/?>""")
_STYLE_ELEMENT = re.compile(r"(<style\b[^>]*>)(.*?)(</style\s*>|$)", re.IGNORECASE | re.DOTALL)
_CSS_URL = re.compile(r"""url\(\s*("[^"]*"|'[^']*'|[^)]*?)\s*\)""", re.IGNORECASE)
_CSS_STRING = re.compile(r""""[^"\n]*"|'[^'\n]*'""")
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?|\\(.)", re.DOTALL)
#: tags whose purpose is the load: replaced by links to what they would load
_LOADERS = {"img", "image", "input", "embed", "source", "track", "link", "base", "meta"}
#: attributes that only name a page to go to when clicked (or text), never loaded when opened
_NOT_LOADED = {("a", "href"), ("area", "href"), ("*", "alt"), ("*", "title")}
#: a script, which could fetch anything: shown as text (``<script``) or dropped (``onerror=`` and kin)
_SCRIPT = re.compile(r"<(?=script\b)", re.IGNORECASE)


def from_afar(url: str) -> bool:
    """Whether a browser would fetch ``url`` (an attribute's or CSS's decoded value) from elsewhere;
    ASCII whitespace and controls are dropped first, as a browser's URL parser drops them."""
    return bool(_AFAR.match(re.sub(r"[\x00-\x20]", "", url)))


def _attribute_urls(tag: str, name: str, value: str) -> list[str]:
    """The addresses a browser would load from one attribute's (decoded) value."""
    if (tag, name) in _NOT_LOADED or ("*", name) in _NOT_LOADED:
        return []
    if name == "style":
        return _css_urls(value)
    parts = value.split(",") if name in ("srcset", "imagesrcset") else [value]
    if name == "content":  # <meta http-equiv="refresh" content="0; url=…">
        parts = [re.sub(r"^\s*url\s*=\s*", "", part, flags=re.IGNORECASE) for part in value.split(";")]
    return [part.strip().split(" ")[0] for part in parts if from_afar(part.strip())]


def _css_urls(css: str) -> list[str]:
    """The addresses ``css`` would load (``url()``, ``@import``, ``image-set()`` strings), read as a
    browser reads them: comments dropped, escapes (``u\\72l(``, ``\\68ttps``) decoded."""
    plain = _CSS_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)) if m.group(1) and int(m.group(1), 16) < 0x110000 else m.group(2) or "", css)
    plain = re.sub(r"/\*.*?(?:\*/|$)", "", plain, flags=re.DOTALL)
    found = [m.group(1).strip("\"'") for m in _CSS_URL.finditer(plain)] + [m.group(0)[1:-1] for m in _CSS_STRING.finditer(plain)]
    return [url for url in found if from_afar(url)]


def _quiet_css(css: str) -> str:
    """``css`` with each ``url()`` and string that would load from afar made ``none`` / ``""``."""
    css = _CSS_URL.sub(lambda m: "none" if _css_urls(m.group(0)) else m.group(0), css)
    return _CSS_STRING.sub(lambda m: '""' if _css_urls(m.group(0)) else m.group(0), css)


def _link(url: str, label: str) -> str:
    from html import escape

    return f'<a href="{escape(url)}">{escape(label or url)}</a>'


def _quiet_tag(match: re.Match[str]) -> str:
    """One open tag without what it would load from afar: a tag that exists to load (``img``,
    ``link``, ``source``, …) becomes links to it, any other keeps its place, less those attributes
    (its ``style`` made quiet), after links to them."""
    from html import escape, unescape

    tag = match.group(1).lower()
    attributes = [(m.group(1), m.group(2)) for m in _ATTRIBUTE.finditer(match.group(2))]
    values = {name.lower(): unescape((raw or "").strip("\"'")) for name, raw in attributes}
    loads = {name: _attribute_urls(tag, name, value) for name, value in values.items()}
    if not any(loads.values()) and not any(name.startswith("on") for name in values):
        return match.group(0)
    label = values.get("alt") or values.get("title") or ""
    # links to what it would load (a style's backgrounds and fonts are no content: none for them)
    links = "".join(_link(url, label) for name, urls in loads.items() if name != "style" for url in dict.fromkeys(urls))
    if tag in _LOADERS and links:
        return links
    kept = []
    for name, raw in attributes:
        value = values[name.lower()]
        if name.lower() == "style":
            kept.append(f' style="{escape(_quiet_css(value))}"')
        elif not name.lower().startswith("on") and not loads[name.lower()]:
            kept.append(f" {name}" if raw is None else f" {name}={raw}")
    return links + f"<{match.group(1)}{''.join(kept)}{'/' if match.group(0).endswith('/>') else ''}>"


def quiet_html(text: str) -> str:
    """Author text whose raw HTML is kept (``allow_html``), with nothing in it that would load from
    afar when the deck is opened: loading tags become links, loading attributes go (each a link
    before its tag), CSS in ``<style>`` and ``style=`` loads nothing (``url()`` is ``none``), and
    scripts, which could fetch anything, are text (``<script``) or dropped (``onerror=``). Code
    spans are left as written (Marp shows them as text). ``loads_from_afar`` checks the deck."""
    out: list[str] = []
    for code, piece in code_pieces(text):
        if not code:
            piece = _STYLE_ELEMENT.sub(lambda m: m.group(1) + _quiet_css(m.group(2)) + m.group(3), _SCRIPT.sub("&lt;", piece))
            piece = _OPEN_TAG.sub(_quiet_tag, piece)
        out.append(piece)
    return "".join(out)


def loads_from_afar(markdown: str) -> list[str]:
    """What a deck's Markdown (its body, without the front matter) would load from afar when opened,
    read as Marp reads it: rendered with HTML, then every tag's attributes and every style element
    checked. The check behind ``quiet_html``: what it finds, ``quiet_html`` missed."""
    from html.parser import HTMLParser

    found: list[str] = []

    class Loads(HTMLParser):
        style = False

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.extend(url for name, value in attrs for url in _attribute_urls(tag, name, value or ""))
            found.extend(["script"] if tag == "script" else [f"{tag} {name}=" for name, _value in attrs if name.startswith("on")])
            self.style = tag == "style"

        def handle_endtag(self, tag: str) -> None:  # noqa: ARG002
            self.style = False

        def handle_data(self, data: str) -> None:
            if self.style:
                found.extend(_css_urls(data))

    parser = Loads()
    parser.feed(_marp_parser().render(markdown))
    parser.close()
    return found


# ------------------------------------------------------------------ links Marp would keep

#: ``[text](target "title")`` with plain text, as an author writes a link in a note
_INLINE_LINK = re.compile(
    r"""(?<!!)\[((?:[^\[\]\\\n]|\\.)*)\]\(\s*(<[^<>\n]*>|[^()\s]*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"""
)


def unsafe_hrefs(text: str) -> list[str]:
    """The link targets in ``text`` Marp would make clickable whose scheme confnotes does not link
    (``smb:``, ``file:``, ``ftp:``…): what markdown-it, which Marp parses with, finds, linkify too."""
    from confnotes.render.inline.links import safe_link

    found: list[str] = []
    for token in _marp_parser().parse(text):
        for child in token.children or []:
            href = child.attrGet("href") if child.type == "link_open" else None
            if href is not None and not safe_link(str(href)):
                found.append(str(href))
    return found


def safe_links(text: str, warnings: list[str]) -> str:
    """``text`` with each link to an unsafe scheme written as its words, as the page drops it:
    ``[share](smb://host/x)`` becomes ``share``; an autolink or a bare address, its address as text."""
    from confnotes.render.inline.links import safe_link

    unsafe = unsafe_hrefs(text) if ":" in text else []  # a scheme needs its colon
    if not unsafe:
        return text
    warnings.extend(f"dropped unsafe link {href[:40]!r}" for href in dict.fromkeys(unsafe))

    def link(match: re.Match[str]) -> str:
        return match.group(0) if safe_link(match.group(2).strip("<>")) else match.group(1)

    def plain(piece: str) -> str:
        piece = _INLINE_LINK.sub(link, piece)
        piece = _AUTOLINK.sub(lambda m: m.group(0) if safe_link(m.group(0)[1:-1]) else "&lt;" + m.group(0)[1:], piece)
        return piece

    out = "".join(piece if code else plain(piece) for code, piece in code_pieces(text))
    if unsafe_hrefs(out):  # nested brackets, a linkified address: no link survives in this text at all
        out = "".join(
            piece if code else plain(piece).replace("[", "&#91;").replace("<", "&lt;").replace(":", "&#58;")
            for code, piece in code_pieces(text)
        )
    return out
