"""The audience following a talk on their phones (``serve --audience``).

The presenter's deck, opened at its unguessable presenter address (``/present/<key>/…``), publishes
each slide it shows (``POST /present/<key>/slide``); phones at the follow address
(``/follow/<token>/``, on the title slide as a QR code) load the deck with every speaker note left
out — rendered with ``notes: false``, so no note reaches them — and follow the published slide
through a server-sent event stream. Followers cannot move the talk: nothing they can send is read.
The server listens beyond this machine only when the speaker asks (``--host``); every request from
elsewhere that carries neither the token nor the key is refused. docs/slides.md, "The audience
follows along".
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
import socket
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

FOLLOW = "/follow/"
PRESENT = "/present/"
#: A presenter's report of its slide is a small JSON object; a larger body is refused unread.
MAX_PUBLISH_BYTES = 1024
#: Phones following at once; the next is answered 503.
MAX_FOLLOWERS = 500
_SCREENS = ("", "black", "white")


@dataclass
class Audience:
    """One preview's audience: the follow token, the presenter's key, the address phones reach the
    server at, and the slide the presenter shows now (JSON, "" before the first)."""

    token: str
    key: str
    address: str  # http://host:port, as a phone reaches it
    shown: str = ""
    #: page -> (the preview's deck file's stamp, the page followers get: its bytes, None when it
    #: could not be made); each made once, under ``lock``, however many phones ask at once
    decks: dict[str, tuple[str, bytes | None]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    #: the presenter page that reported last (``from``, random for each page load) and its count:
    #: two reports in flight at once are applied in the order they were sent
    reported: tuple[str, int] | None = None

    @property
    def follow_url(self) -> str:
        return f"{self.address}{FOLLOW}{self.token}/"

    def presenter_url(self, page: str) -> str:
        from urllib.parse import quote

        return f"{self.address}{PRESENT}{self.key}/{quote(page)}"

    def follows(self, token: str) -> bool:
        return hmac.compare_digest(token.encode(), self.token.encode())

    def presents(self, key: str) -> bool:
        return hmac.compare_digest(key.encode(), self.key.encode())

    def publish(self, body: bytes, pages: dict[str, str]) -> str | None:
        """The slide a presenter reports (JSON ``{page, index, step, screen, from, n}`` of a deck of the
        site), as the event followers get; "" for a report older than the last applied; None when it
        is not one. The caller holds ``lock``, so reports are applied and sent in one order."""
        try:
            data = json.loads(body.decode("utf-8"))
            page, index, step, screen = data["page"], data["index"], data["step"], data.get("screen", "")
            sender, count = str(data.get("from", ""))[:64], data.get("n", 0)
        except (ValueError, KeyError, TypeError, UnicodeDecodeError, AttributeError):
            return None
        if not (isinstance(page, str) and page.endswith(".slides.html") and page in pages and screen in _SCREENS):
            return None
        if not all(type(value) is int and 0 <= value < limit for value, limit in ((index, 100_000), (step, 10_000), (count, 2**53))):
            return None
        if self.reported is not None and sender == self.reported[0] and count <= self.reported[1]:
            return ""  # sent before the one applied last: it arrived late
        self.reported = (sender, count)
        self.shown = json.dumps({"page": page, "index": index, "step": step, "screen": screen})
        return self.shown

    @property
    def page(self) -> str | None:
        """The deck the presenter shows now, or None before the talk starts."""
        return json.loads(self.shown)["page"] if self.shown else None


def new_audience(host: str, port: int) -> Audience:
    """A fresh token and key, and the address phones use: the bound address, or this machine's
    address on its network when the server listens on every interface."""
    name = host
    if host in ("0.0.0.0", "::", ""):
        name = _network_address()
    shown = f"[{name}]" if ":" in name else name
    return Audience(secrets.token_urlsafe(9), secrets.token_urlsafe(24), f"http://{shown}:{port}")


def _network_address() -> str:
    """This machine's address on the network its default route leaves by (nothing is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: a route is chosen, no packet leaves
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def qr_svg(url: str) -> str:
    """``url`` as a QR code, an inline SVG drawn here (segno), dark on white with its quiet zone."""
    import segno

    return str(segno.make(url, error="m").svg_inline(scale=6, border=4, dark="#000", light="#fff", omitsize=True))


_QR_LOOK = 'style="width:200px;height:200px" role="img" aria-label="QR code of the follow address"'
_FIRST_SLIDE = re.compile(rb'<section\b[^>]*\bclass="[^"]*\bslide\b[^"]*"[^>]*>')


def presenter_page(html: bytes, audience: Audience, page: str) -> bytes:
    """The deck as the presenter's address serves it: the follow address and its QR code on the
    title slide (and so in the presenter view's copy of it), and the script that publishes each
    slide shown."""
    from html import escape

    from confnotes.markup.escape import strict_json

    box = (
        '<div class="confnotes-follow" data-confnotes style="position:absolute;right:40px;top:40px;z-index:5;'
        "background:#fff;color:#000;padding:10px;border:1px solid #888;border-radius:8px;text-align:center;"
        'font:14px/1.3 sans-serif;width:220px">'
        + qr_svg(audience.follow_url).replace("<svg ", f"<svg {_QR_LOOK} ", 1)
        + f'<div><strong>Follow along</strong></div><div style="overflow-wrap:anywhere">{escape(audience.follow_url)}</div></div>'
    ).encode()
    match = _FIRST_SLIDE.search(html)
    if match is not None:  # the card beside the slide's own text, never over it
        opening = match.group(0).replace(b'class="', b'class="confnotes-follow-slide ', 1)
        html = html[: match.start()] + opening + box + html[match.end() :]
        room = b"<style data-confnotes>.confnotes-follow-slide > :not(.confnotes-follow, footer) { padding-right: 280px; }</style>"
        html = html.replace(b"</head>", room + b"</head>", 1)
    script = (
        "<script data-confnotes>(function(){var page=" + strict_json(page).replace("<", "\\u003c") + ";"
        # the presenter's address, however deep the deck is in the site: /present/<key>/; each report
        # numbered, so the server applies two in flight at once in the order they were sent
        "var at=location.pathname.match(/^\\/present\\/[^\\/]+\\//),from=String(Math.random()).slice(2),n=0;"
        "function post(d){d.page=page;d.from=from;d.n=++n;if(!at)return;"
        "fetch(at[0]+'slide',{method:'POST',headers:{'Content-Type':'application/json'},"
        "body:JSON.stringify(d),keepalive:true}).catch(function(){});}"
        "window.addEventListener('confnotes:shown',function(e){post({index:e.detail.index,step:e.detail.step,screen:e.detail.screen});});"
        "post({index:Math.max(0,Number(document.body.getAttribute('data-slide')||1)-1),step:0,screen:''});"
        "})();</script>"
    )
    return html.replace(b"</body>", script.encode() + b"</body>", 1)


def follower_page(html: str, page: str) -> bytes:
    """A follower's deck (rendered without notes) with the script that follows the presenter."""
    from confnotes.markup.escape import strict_json

    script = (
        "<script data-confnotes>(function(){var page=" + strict_json(page).replace("<", "\\u003c") + ";"
        "var s=new EventSource('events');"
        "s.addEventListener('slide',function(e){var d=JSON.parse(e.data);"
        "if(d.page!==page){location.reload();return;}"
        "window.dispatchEvent(new CustomEvent('confnotes:follow',{detail:d}));});"
        "s.addEventListener('rebuilt',function(){location.reload();});"
        "})();</script>"
    )
    return html.replace("</body>", script + "</body>", 1).encode("utf-8")


def _page(title: str, text: str, script: str) -> str:
    """A phone's page while there is no deck to follow: ``text``, and the ``script`` that loads it
    again when there is one."""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        f'<title>{title}</title></head><body style="font:20px/1.4 sans-serif;margin:2em"><p>{text}</p>'
        f"<script>{script}</script></body></html>"
    )


#: before the talk starts (no slide published): loaded again on the first slide
WAITING = _page(
    "Waiting for the talk",
    "The talk has not started yet. This page follows it as soon as it does.",
    "new EventSource('events').addEventListener('slide',function(){location.reload();});",
)


def unavailable(page: str) -> bytes:
    """A phone's page while the deck ``page`` cannot be shown (its note fails to build, or is being
    built): loaded again once it builds, or when the presenter moves to another deck; never on a
    slide of this one, which would load it again at once, and again."""
    from confnotes.markup.escape import strict_json

    script = (
        "(function(){var page=" + strict_json(page).replace("<", "\\u003c") + ",s=new EventSource('events');"
        "s.addEventListener('rebuilt',function(){location.reload();});"
        "s.addEventListener('slide',function(e){try{if(JSON.parse(e.data).page!==page)location.reload();}catch(x){}});})();"
    )
    return _page("The talk", "The talk's slides cannot be shown just now. This page follows them as soon as they can.", script).encode()


def follower_deck(note: str, text: str | None, config_file: str | None, trust_templates: bool) -> str:
    """``note``'s HTML deck with every speaker note left out (``notes: false``), from the text an
    editor holds when it holds one, as the preview's own deck is built."""
    from confnotes.check import Checker, LintRequest
    from confnotes.edges.source import note_folder
    from confnotes.load import load_note, read_text
    from confnotes.render.formats import render_note
    from confnotes.render.options import RenderOverrides, resolve_render_options

    config = Checker(LintRequest(config_file=config_file)).config_for(note)
    doc = load_note(note, config).doc if text is None else read_text(text, note, config)
    options = resolve_render_options(config, doc, RenderOverrides(trust_templates=trust_templates))
    options = replace(options, slides=replace(options.slides, notes=False))
    data, _problems = render_note(doc, "slides", options, note_folder(note) or Path.cwd(), None)
    return data if isinstance(data, str) else data.decode("utf-8")
