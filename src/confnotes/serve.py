"""Live preview: build HTML and slides into a temporary folder, serve it, rebuild on save, reload pages."""

from __future__ import annotations

import contextlib
import html
import io
import json
import queue
import select
import shutil
import signal
import socket
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import parse_qs, quote, urlsplit

from confnotes.audience import (
    FOLLOW,
    MAX_FOLLOWERS,
    MAX_PUBLISH_BYTES,
    PRESENT,
    WAITING,
    Audience,
    new_audience,
    presenter_page,
    unavailable,
)
from confnotes.build import BuildRequest, build_site, site_pages
from confnotes.edges.images import IMAGE_SUFFIXES
from confnotes.edges.source import NOTE_SUFFIXES
from confnotes.edges.video import VIDEO_SUFFIXES

EVENTS_PATH = "/__confnotes/events"
RELOAD_SCRIPT = (
    # this page's file in the site, as the build names what it writes ("day1/talk.html"); the server
    # is told it, and renders the format of the pages that are open first. ``note`` (filled in as the
    # page is served) is the note it was made from, or null (the index)
    # (a deck at the presenter's address of ``serve --audience``, /present/<key>/…: the site's path after it)
    "<script data-confnotes>(function(){var note=__NOTE__,base=(location.pathname.match(/^\\/present\\/[^\\/]+\\//)||['/'])[0],"
    "here=decodeURIComponent(location.pathname.slice(base.length)).replace(/^\\/+/,'')||'index.html',"
    "s=new EventSource(base+'" + EVENTS_PATH.lstrip("/") + "?page='+encodeURIComponent(here));"
    "function data(e){try{return JSON.parse(e.data);}catch(x){return null;}}"
    "function mine(n){return n.nodeType===1&&n.hasAttribute('data-confnotes');}"
    # a page without scripts of its own (a note's page) takes in the new version where it differs:
    # no reload, so Chromium lays out only what changed, and the reader keeps their place (and the
    # focus, outside what changed); what is the same before and after a change is kept as it is
    "function patch(a,b,depth){"
    "var x=[].filter.call(a.childNodes,function(n){return !mine(n);}),y=[].slice.call(b.childNodes),i=0,j=0,k;"
    "while(i<x.length&&i<y.length&&x[i].isEqualNode(y[i]))i++;"
    "while(j<x.length-i&&j<y.length-i&&x[x.length-1-j].isEqualNode(y[y.length-1-j]))j++;"
    "var xs=x.slice(i,x.length-j),ys=y.slice(i,y.length-j);"
    "if(xs.length===ys.length&&depth<8){for(k=0;k<ys.length;k++){"
    "if(xs[k].nodeType===1&&xs[k].cloneNode(false).isEqualNode(ys[k].cloneNode(false)))patch(xs[k],ys[k],depth+1);"
    "else xs[k].replaceWith(document.importNode(ys[k],true));}return;}"
    "var at=x[x.length-j]||[].filter.call(a.childNodes,mine)[0]||null;xs.forEach(function(n){n.remove();});"
    "ys.forEach(function(n){a.insertBefore(document.importNode(n,true),at);});}"
    "function banner(d){var old=document.querySelector('.confnotes-build-error'),neu=d.querySelector('.confnotes-build-error');"
    "if(old&&neu&&old.isEqualNode(neu))return;if(old)old.remove();"
    "if(neu)document.body.insertBefore(document.importNode(neu,true),document.querySelector('body>script[data-confnotes]'));}"
    "function fresh(){if(document.querySelector('script:not([data-confnotes])'))return location.reload();"
    "fetch(location.href,{cache:'no-store'}).then(function(r){if(!r.ok)throw r;return r.text();}).then(function(t){"
    "var d=new DOMParser().parseFromString(t,'text/html');"
    "if(d.querySelector('script:not([data-confnotes])')||d.head.innerHTML!==document.head.innerHTML"
    "||!d.body.cloneNode(false).isEqualNode(document.body.cloneNode(false)))return location.reload();"
    "banner(d);[].forEach.call(d.querySelectorAll('[data-confnotes]'),function(n){n.remove();});"
    "patch(document.body,d.body,0);window.dispatchEvent(new CustomEvent('confnotes:updated'));"
    "}).catch(function(){location.reload();});}"
    # a page may hold the reload (a presenter that is recording): it cancels this event
    "function go(e){if(window.dispatchEvent(new CustomEvent('confnotes:reload',{cancelable:true,detail:e.data})))fresh();}"
    # a page reloads as soon as its own file is written, and not again when the build is done; a
    # page of a note the build left alone stays as it is, unless every page must change (the banner)
    "s.addEventListener('written',function(e){if(data(e)===here)go(e);});"
    # the editor's cursor moved to another slide of this deck (``PreviewServer.go_to``): the deck's own
    # hash navigation shows it, in the presenter view too
    "s.addEventListener('goto',function(e){var d=data(e);if(!d||d.page!==here||!(d.slide>0))return;"
    "var h=/^#presenter/.test(location.hash)?'#presenter:'+d.slide:'#'+d.slide;if(location.hash!==h)location.hash=h;});"
    "s.addEventListener('reload',function(e){var d=data(e)||{all:true};"
    "if(d.all||note===null||((d.notes||[]).indexOf(note)>=0&&(d.written||[]).indexOf(here)<0))go(e);});"
    "})();</script>"
)
SERVE_FORMATS = ("html", "slides")
#: what a save of sets off a rebuild: notes, configs, templates and the pictures notes show
HELD_DEBOUNCE = 0.1  # seconds after an editor's change before the preview builds it (``PreviewServer.hold``)
WATCHED = (*NOTE_SUFFIXES, ".toml", ".css", ".html", *IMAGE_SUFFIXES, *VIDEO_SUFFIXES)


def reload_script(note: str | None) -> str:
    """The reload script of a page made from ``note`` (None: the index, an error page)."""
    from confnotes.markup.escape import strict_json

    return RELOAD_SCRIPT.replace("__NOTE__", strict_json(note).replace("<", "\\u003c"), 1)


def viewed_formats(pages: list[str]) -> tuple[str, ...]:
    """Of the preview's formats, those the open pages show (``talk.slides.html``: the deck), so the
    preview renders them first; a page of another kind (the index) names none."""
    from confnotes.render.formats import output_format

    suffixes = sorted(((output_format(name).suffix, name) for name in SERVE_FORMATS), key=lambda pair: -len(pair[0]))
    viewed = {next((name for suffix, name in suffixes if page.endswith(suffix)), None) for page in pages if page != "index.html"}
    return tuple(name for name in SERVE_FORMATS if name in viewed)


@dataclass(frozen=True)
class ServeLimits:
    """How much of the machine one preview server lets its clients hold (the tests pass small ones).

    Every connection must send its request line and headers within ``header_seconds`` (a client
    that trickles them a byte at a time is cut off), and then waits at most that long for any one
    read or write. At most ``connections`` are open at once (the next is answered 503 and closed),
    of which at most ``event_clients`` are pages waiting for reload events; each of those gets a
    comment every ``keepalive_seconds``, and is let go as soon as its page closes it."""

    header_seconds: float = 10.0
    connections: int = 128
    event_clients: int = 64
    keepalive_seconds: float = 15.0


class Broadcaster:
    """Hands 'reload' events to every connected page (server-sent events)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clients: list[queue.Queue[tuple[str, str]]] = []
        self._pages: dict[int, str] = {}  # each client's page, as it names it

    def subscribe(self, limit: int | None = None, page: str = "") -> queue.Queue[tuple[str, str]] | None:
        """A new client's queue of (event, data); None when ``limit`` clients are already connected."""
        client: queue.Queue[tuple[str, str]] = queue.Queue()
        with self._lock:
            if limit is not None and len(self._clients) >= limit:
                return None
            self._clients.append(client)
            self._pages[id(client)] = page
        return client

    def unsubscribe(self, client: queue.Queue[tuple[str, str]]) -> None:
        with self._lock, contextlib.suppress(ValueError):
            self._clients.remove(client)
            self._pages.pop(id(client), None)

    def pages(self) -> list[str]:
        """The pages open now (each as its client named it: ``day1/talk.slides.html``)."""
        with self._lock:
            return list(self._pages.values())

    @property
    def clients(self) -> int:
        with self._lock:
            return len(self._clients)

    def send(self, data: str, event: str = "reload") -> None:
        """``event`` to every page: ``written`` (data: a file of the site, just written) or ``reload``
        (the build is done; data: JSON of the notes rebuilt and the files already announced)."""
        with self._lock:
            for client in self._clients:
                client.put((event, data))


class _HeaderDeadline(io.RawIOBase):
    """A connection's reads, each allowed only the time left before ``deadline`` (None once the
    headers are in: then the socket's own timeout): slowloris cannot hold a connection."""

    def __init__(self, connection: socket.socket, deadline: float | None) -> None:
        super().__init__()
        self.connection = connection
        self.deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the request line and headers took too long")
            self.connection.settimeout(left)
        return self.connection.recv_into(buffer)


class PreviewHTTPServer(ThreadingHTTPServer):
    """A thread a connection, as many as ``limit`` at once; the next is answered 503 and closed
    without a thread of its own."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: Any, limit: int) -> None:
        self.limit = limit
        self._open = 0
        self._open_lock = threading.Lock()
        super().__init__(address, handler)

    @property
    def open_connections(self) -> int:
        with self._open_lock:
            return self._open

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._open_lock:
            full = self._open >= self.limit
            self._open += 0 if full else 1
        if full:
            with contextlib.suppress(OSError):
                request.setblocking(False)
                request.send(b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread to give it back: give it back here
            self._closed()
            self.shutdown_request(request)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._closed()

    def _closed(self) -> None:
        with self._open_lock:
            self._open -= 1


def error_banner(failures: dict[str, str]) -> str:
    """What a page shows while notes fail to build: each error, above the last good version."""
    if not failures:
        return ""
    items = "".join(f"<li>{html.escape(reason)}</li>" for reason in failures.values())
    return (
        '<div class="confnotes-build-error" data-confnotes role="alert" style="position:fixed;top:0;left:0;right:0;z-index:99999;'
        'background:#8b0000;color:#fff;font:14px/1.4 sans-serif;padding:8px 16px">'
        f"<strong>confnotes: the last save did not build; showing the last good version.</strong><ul>{items}</ul></div>"
    )


class PreviewHandler(SimpleHTTPRequestHandler):
    """Serves only the output folder (``..`` never leaves it) and injects the reload script into HTML."""

    broadcaster: Broadcaster
    stopping: threading.Event
    failures: dict[str, str]
    pages: dict[str, str]  # each note's output in the site, and the note
    allowed_hosts: frozenset[str]
    limits: ServeLimits
    audience: Audience | None = None  # ``serve --audience``: the follow token, the presenter's key
    followers: Broadcaster | None = None  # the phones following the talk
    follower_html: Callable[[str], bytes | None] | None = None  # a deck's page as followers get it
    presenting = False  # this request came by the presenter's address
    #: whether this request named the server's own address (Host): only such a request is shown
    #: the build errors and the reload script; any other error page is bare
    trusted = False

    def setup(self) -> None:
        super().setup()  # the socket's timeout (``timeout``, the class's: limits.header_seconds) for every read and write
        self.rfile.close()  # read through the deadline instead (an open file would keep the socket open)
        self._reads = _HeaderDeadline(self.connection, time.monotonic() + self.limits.header_seconds)
        self.rfile = io.BufferedReader(self._reads)

    def parse_request(self) -> bool:
        parsed = super().parse_request()
        self._reads.deadline = None  # the request line and headers are in
        self.connection.settimeout(self.limits.header_seconds)
        return parsed

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:  # noqa: ARG002 - http.server's signature
        """Error pages keep the reload hook, so a page that appears once a note builds again reloads."""
        shown = f"<p>{code} {html.escape(message or HTTPStatus(code).phrase)}</p>"
        if self.trusted:
            shown = error_banner(dict(self.failures)) + shown + reload_script(None)
        body = f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{code}</title></head><body>{shown}</body></html>'.encode()
        self._send_html(body, code, message)

    def _send_html(self, body: bytes, code: int = HTTPStatus.OK, message: str | None = None) -> None:
        """An HTML answer, never cached (a preview changes under it); no body for ``HEAD``."""
        self.send_response(code, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # the stdlib signature
        pass

    def handle(self) -> None:
        """A client that goes away mid-answer, or is too slow, is no error of ours: no traceback."""
        with contextlib.suppress(BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError):
            super().handle()

    def do_GET(self) -> None:  # the stdlib name
        try:
            self._answer()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError):
            pass
        except (OSError, ValueError, UnicodeError):  # a path the file system cannot hold (NUL, too long, …)
            self.send_error(HTTPStatus.NOT_FOUND)

    def do_HEAD(self) -> None:  # the stdlib name: the headers a GET would send, and no body
        self.do_GET()

    def _answer(self) -> None:
        host = (self.headers.get("Host") or "").strip().lower()
        self.trusted = host in self.allowed_hosts
        if not self.trusted:
            # DNS rebinding: a page on another site whose name resolves to 127.0.0.1 must not read the notes
            self.send_error(HTTPStatus.FORBIDDEN, "Host not allowed")
            return
        if len(self.path) > 2048 or "\x00" in self.path or "%00" in self.path:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        if self.audience is not None and not self._audience_route():
            return
        if self.path.split("?")[0] == EVENTS_PATH:
            self._events()
            return
        if self.path.split("?")[0] == "/favicon.ico" and not (Path(self.directory) / "favicon.ico").is_file():
            self.send_response(HTTPStatus.NO_CONTENT)  # the site has no icon: not an error in every page's console
            self.end_headers()
            return
        if ".." in self.path.split("?")[0].replace("%2e", ".").replace("%2E", ".").split("/"):
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        path = Path(self.translate_path(self.path))
        root = Path(self.directory).resolve()
        try:
            resolved = path.resolve()
        except OSError:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        if resolved != root and root not in resolved.parents:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        if resolved.is_dir():
            resolved = resolved / "index.html"
        if resolved.suffix == ".html" and resolved.is_file():
            self._page(resolved, self.pages.get(resolved.relative_to(root).as_posix()))
        elif self.command == "HEAD":
            super().do_HEAD()
        else:
            super().do_GET()

    def _audience_route(self) -> bool:
        """With an audience: the follow address's pages and events for anyone with its token; the
        site itself and the presenter's address (its decks with the follow address on the title
        slide) to this machine only, so no phone reads a speaker note, even with the key read off the
        projected address bar. True when the request goes on as the site's."""
        assert self.audience is not None
        path = self.path.split("?")[0]
        if path.startswith(FOLLOW):
            self.trusted = False  # a phone: bare error pages, no build errors, no reload script
            self._follow(path[len(FOLLOW) :])
            return False
        if not self._from_this_machine():
            self.trusted = False
            self.send_error(HTTPStatus.NOT_FOUND)
            return False
        if path.startswith(PRESENT):
            key = path[len(PRESENT) :].partition("/")[0]
            if not self.audience.presents(key):
                self.send_error(HTTPStatus.NOT_FOUND)
                return False
            self.presenting = True
            self.path = "/" + self.path[len(PRESENT) + len(key) + 1 :]
        return True

    def _from_this_machine(self) -> bool:
        """Whether the request comes from this machine: a loopback address, or the address the
        server is reached at (the laptop opening its own network address)."""
        import ipaddress

        assert self.audience is not None
        client = self.client_address[0].removeprefix("::ffff:")
        try:
            if ipaddress.ip_address(client).is_loopback:
                return True
        except ValueError:
            return False
        own = urlsplit(self.audience.address).hostname
        return client in {own, self.connection.getsockname()[0].removeprefix("::ffff:")}

    def _follow(self, rest: str) -> None:
        """A phone's request under ``/follow/``: its token, then the deck or its event stream."""
        assert self.audience is not None
        token, slash, rest = rest.partition("/")
        if not self.audience.follows(token):
            self.send_error(HTTPStatus.NOT_FOUND)
        elif not slash:  # typed from the slide without its last "/": the page's own addresses need it
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", f"{FOLLOW}{token}/")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif rest == "events":
            self._events(self.followers, self.audience.shown)
        elif rest == "":
            self._follower_page()
        else:
            self.send_error(HTTPStatus.NOT_FOUND)

    def _follower_page(self) -> None:
        assert self.audience is not None and self.follower_html is not None
        page = self.audience.page
        # before the talk: wait for it; a deck that cannot be made now: wait for it to build
        body = WAITING.encode("utf-8") if page is None else self.follower_html(page) or unavailable(page)
        self._send_html(body)

    def do_POST(self) -> None:  # the stdlib name: only the presenter's report of its slide
        with contextlib.suppress(BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError):
            self._report()

    def _report(self) -> None:
        """The presenter's report of its slide (``POST /present/<key>/slide``, from this machine):
        applied and sent to the phones in the order the presenter sent them; anything else 404/400."""
        host = (self.headers.get("Host") or "").strip().lower()
        path = self.path.split("?")[0]
        audience, followers = self.audience, self.followers
        key = path[len(PRESENT) :].partition("/")[0] if path.startswith(PRESENT) else ""
        self.trusted = False  # an error here is a bare page
        if host not in self.allowed_hosts or audience is None or followers is None or not self._from_this_machine():
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        if not audience.presents(key) or path != f"{PRESENT}{key}/slide":
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        given = (self.headers.get("Content-Length") or "").strip()
        length = int(given) if given.isascii() and given.isdecimal() else -1
        if not 0 < length <= MAX_PUBLISH_BYTES:  # refused unread
            self.send_error(HTTPStatus.BAD_REQUEST)
            return
        body = self.rfile.read(length)
        with audience.lock:
            shown = audience.publish(body, self.pages)  # (swapped whole by a rebuild, never changed in place)
            if shown:
                followers.send(shown, "slide")
        if shown is None:
            self.send_error(HTTPStatus.BAD_REQUEST)
            return
        self.send_response(HTTPStatus.NO_CONTENT)
        self.end_headers()

    def _page(self, path: Path, note: str | None) -> None:
        """An HTML page with the build errors and the reload script in it (``note``: the one it was made from)."""
        inject = error_banner(dict(self.failures)) + reload_script(note)
        body = path.read_bytes()
        if self.presenting and self.audience is not None and path.name.endswith(".slides.html"):
            body = presenter_page(body, self.audience, path.relative_to(Path(self.directory).resolve()).as_posix())
        body = body.replace(b"</body>", inject.encode() + b"</body>", 1)
        self._send_html(body)

    def _events(self, broadcaster: Broadcaster | None = None, first: str = "") -> None:
        """The reload stream of one page: only for the server's own pages (a page elsewhere that
        opens one gets 403), at most ``limits.event_clients`` at once (503), let go when it closes.
        With ``broadcaster``: a follower's stream of slides, ``first`` the one shown now."""
        origin = self.headers.get("Origin")
        if origin is not None and origin.strip().lower() not in {f"http://{host}" for host in self.allowed_hosts}:
            self.trusted = False
            self.send_error(HTTPStatus.FORBIDDEN, "Origin not allowed")
            return
        page = "".join(parse_qs(urlsplit(self.path).query).get("page", [""])[:1])[:1024]
        source, limit = (self.broadcaster, self.limits.event_clients) if broadcaster is None else (broadcaster, MAX_FOLLOWERS)
        client = source.subscribe(limit, page) if self.command != "HEAD" else None
        if client is None and self.command != "HEAD":
            self.send_error(HTTPStatus.SERVICE_UNAVAILABLE, "Too many pages are open")
            return
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if client is None:
            return
        if first:
            client.put(("slide", first))
        try:
            self._stream(client)
        except OSError:  # the page went away (a broken pipe, a reset, a write that timed out)
            pass
        finally:
            source.unsubscribe(client)

    def _stream(self, client: queue.Queue[tuple[str, str]]) -> None:
        keepalive = self.limits.keepalive_seconds
        self.wfile.write(b": connected\n\n")
        self.wfile.flush()
        quiet_since = time.monotonic()
        while not self.stopping.is_set():
            try:
                message: tuple[str, str] | None = client.get(timeout=min(0.5, keepalive))
            except queue.Empty:
                message = None
            if message is not None:
                self.wfile.write(f"event: {message[0]}\ndata: {message[1]}\n\n".encode())
            elif self._client_gone():
                return
            elif time.monotonic() - quiet_since >= keepalive:  # a write finds a page that vanished silently
                self.wfile.write(b": keep-alive\n\n")
            else:
                continue
            self.wfile.flush()
            quiet_since = time.monotonic()

    def _client_gone(self) -> bool:
        """Whether the page closed its end: an event stream's client sends nothing after its
        request, so a readable connection is one that has ended."""
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            return bool(readable) and not self.connection.recv(1, socket.MSG_PEEK)
        except (OSError, ValueError):
            return True


class Rebuilt(NamedTuple):
    """What one rebuild changed: the notes rebuilt, the files of theirs already announced (their
    pages have taken them in), and whether every page must change (the error banner did)."""

    notes: list[str]
    written: list[str]
    every: bool = False

    def event(self) -> str:
        """The build's final event: the index and error pages reload, and so does a page of a note
        rebuilt whose file was not announced; every page does when ``every``. JSON: a note's name
        cannot break the event's line."""
        return json.dumps({"notes": self.notes, "written": self.written, "all": self.every})


class _Stop:
    """The watcher's stop event, which also tells when the watcher is live: watchfiles asks it
    ``is_set()`` first from inside its wait for changes, once its file-system watch is in place."""

    def __init__(self, stopping: threading.Event, watching: threading.Event) -> None:
        self.stopping, self.watching = stopping, watching

    def is_set(self) -> bool:
        self.watching.set()
        return self.stopping.is_set()


class PreviewServer:
    def __init__(
        self,
        source_dir: str,
        host: str,
        port: int,
        echo: Any,
        trust_templates: bool = False,
        limits: ServeLimits | None = None,
        config_file: str | None = None,
        note: str | None = None,
        audience: bool = False,
    ) -> None:
        self.source_dir = source_dir
        self.note = note  # previewing one note of ``source_dir`` (``serve talk.md``, the editor's preview)
        self.trust_templates = trust_templates
        self.config_file = config_file
        self.out_dir = tempfile.mkdtemp(prefix="confnotes-serve-")
        self.echo = echo
        self.broadcaster = Broadcaster()
        self.stopping = threading.Event()
        self.watching = threading.Event()  # set once the watcher sees saves (see ``_Stop``)
        self.building = threading.Lock()  # one build at a time: the first one and the watcher's
        self.built = False  # the first build is done: the notes built after it keep their readings
        self.failures: dict[str, str] = {}
        self.pages: dict[str, str] = {}
        self.held: dict[str, str] = {}  # notes as an editor holds them, by resolved path (``hold``)
        self.held_changed = threading.Event()
        handler: type[PreviewHandler] = type(
            "Handler",
            (PreviewHandler,),
            {
                "broadcaster": self.broadcaster,
                "stopping": self.stopping,
                "failures": self.failures,
                "pages": self.pages,
                "allowed_hosts": frozenset(),
                "limits": limits or ServeLimits(),
                "timeout": (limits or ServeLimits()).header_seconds,
            },
        )
        connections = (limits or ServeLimits()).connections + (MAX_FOLLOWERS if audience else 0)
        try:
            self.httpd = PreviewHTTPServer((host, port), partial(handler, directory=self.out_dir), connections)
        except OSError:
            shutil.rmtree(self.out_dir, ignore_errors=True)  # a port in use leaves nothing behind
            raise
        bound = self.httpd.server_address[1]
        names: tuple[str, ...] = (host.lower(), "127.0.0.1", "localhost", "[::1]")
        self.audience = new_audience(host, bound) if audience else None
        if self.audience is not None:
            names += (urlsplit(self.audience.address).netloc.rsplit(":", 1)[0],)  # "[fe80::1]" as a Host header has it
            handler.audience, handler.followers, handler.follower_html = self.audience, Broadcaster(), self.follower_html
        handler.allowed_hosts = frozenset(f"{name}:{bound}" for name in names) | (frozenset(names) if bound == 80 else frozenset())
        self.handler = handler

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        host = host.decode() if isinstance(host, bytes) else host
        return f"http://{host}:{port}/"

    def page_of(self, note: str, kind: str = "slides") -> str | None:
        """The page the site shows ``note`` (a path) as, in format ``kind`` (``talk.slides.html``); None
        before it is built."""
        from confnotes.render.formats import output_format

        suffix = output_format(kind).suffix
        root = Path(self.source_dir).resolve()
        try:
            rel = Path(note).resolve().relative_to(root).as_posix()
        except ValueError:
            return None
        page = rel.rsplit(".", 1)[0] + suffix
        return page if self.pages.get(page) == rel else None

    def follower_html(self, page: str) -> bytes | None:
        """The deck ``page`` as followers get it: rendered without speaker notes from the text the
        preview shows, once each time the preview's own deck changes however many phones ask at
        once (a failure is remembered as well); None when it cannot be."""
        from confnotes.audience import follower_deck, follower_page
        from confnotes.errors import NotesError

        audience, note = self.audience, self.pages.get(page)
        deck = Path(self.out_dir) / page
        if audience is None or note is None:
            return None
        try:
            found = deck.stat()
        except OSError:
            return None
        stamp = f"{found.st_mtime_ns}:{found.st_size}"
        with audience.lock:
            cached = audience.decks.get(page)
            if cached is None or cached[0] != stamp:
                path = str(Path(self.source_dir) / note)
                try:
                    html = follower_deck(path, self.held.get(str(Path(path).resolve())), self.config_file, self.trust_templates)
                    cached = (stamp, follower_page(html, page))
                except NotesError:
                    cached = (stamp, None)
                audience.decks[page] = cached
            return cached[1]

    def stop(self) -> None:
        """Stops a preview running in another thread (``run``): it removes its temporary folder as it ends."""
        self.stopping.set()
        threading.Thread(target=self.httpd.shutdown, daemon=True).start()  # it waits for serve_forever to end

    def _pages_line(self) -> str:
        """For one note: the addresses of its page and deck, which the index would otherwise list."""
        if not self.note:
            return ""
        pages = [page for page in (self.page_of(self.note, "html"), self.page_of(self.note, "slides")) if page]
        return "".join(f"\n  {self.url}{quote(page)}" for page in pages)

    def _audience_lines(self) -> str:
        """Where the audience follows, and where the presenter presents each deck from."""
        assert self.audience is not None
        decks = [page for page in self.pages if page.endswith(".slides.html")]
        present = "".join(f"\n  {self.audience.presenter_url(page)}" for page in sorted(decks))
        alone = urlsplit(self.audience.address).hostname in ("127.0.0.1", "localhost", "::1")
        reach = (
            " (this machine only: --host 0.0.0.0 lets phones on the network reach it)" if alone else " (its QR code is on the title slide)"
        )
        return f"Audience: {self.audience.follow_url}{reach}\nPresent from:{present}"

    def go_to(self, page: str, slide: int) -> None:
        """Shows slide ``slide`` (1 is the first) on the open copies of ``page``: the editor's cursor moved."""
        self.broadcaster.send(json.dumps({"page": page, "slide": slide}), "goto")

    def hold(self, note: str, text: str | None) -> None:
        """The editor holds ``note`` as ``text``, unsaved edits included: the preview shows that text
        from now on, rebuilt a moment after the last change (None: the editor let go of it; the file
        on disk again)."""
        key = str(Path(note).resolve())
        if self.held.get(key) == text:
            return
        if text is None:
            self.held.pop(key, None)
        else:
            self.held[key] = text
        self.held_changed.set()

    def follow_held(self) -> None:
        """Rebuilds what the editor holds as it changes (``hold``): the editor's own debounce, then
        this one's, so a run of keys gives one build."""
        while not self.stopping.is_set():
            if not self.held_changed.wait(timeout=0.2):
                continue
            time.sleep(HELD_DEBOUNCE)
            self.held_changed.clear()
            if not self.stopping.is_set():
                self._rebuild_and_tell(changed=True)

    def rebuild(self) -> Rebuilt:
        """Build what changed; a note that fails keeps its last good files and its error is shown on every page.
        An error that stops the whole build (a broken config) is shown the same way, and the watcher goes on.

        Each page or deck is announced to the open pages as soon as it is written (its page reloads
        then, not after the note's other formats, its outline and the index)."""
        written: list[str] = []

        def announce(name: str) -> None:
            written.append(name)
            self.broadcaster.send(json.dumps(name), "written")

        with self.building:
            return self._rebuild(announce, written)

    def _rebuild(self, announce: Callable[[str], None], written: list[str]) -> Rebuilt:
        from confnotes.config import config_for_target
        from confnotes.config.ignore import config_excludes
        from confnotes.errors import NotesError

        try:
            config = config_for_target(self.source_dir, self.config_file)  # its [build] exclude, as `confnotes build` skips them
            excluded = config_excludes(config.build.exclude, config.path)
            from confnotes.build.site import site_inputs_for

            report = build_site(
                BuildRequest(
                    self.source_dir,
                    self.out_dir,
                    SERVE_FORMATS,
                    jobs=1,
                    exclude=excluded,
                    keep_failed=True,
                    trust_templates=self.trust_templates,
                    config_file=self.config_file,
                    on_written=announce,
                    first=viewed_formats(self.broadcaster.pages()),
                    only=(self.note,) if self.note else (),
                    site=site_inputs_for(config),
                    held=dict(self.held),
                    reuse=self.built,  # after the first build, only the notes being edited are built
                )
            )
            self.built = True
        except NotesError as exc:
            self.failures.clear()
            self.failures["*"] = str(exc)
            self.echo(f"failed: {exc}", err=True)
            return Rebuilt(["*"], [], every=True)
        fixed = [rel for rel in self.failures if rel not in dict(report.failed)]
        self.failures.clear()
        self.failures.update(report.failed)
        for _rel, reason in report.failed:
            self.echo(f"failed: {reason}", err=True)
        self.pages = self.handler.pages = site_pages(self.out_dir)  # swapped whole: a request never sees it half filled
        changed = [*report.rendered, *report.removed, *(rel for rel, _ in report.failed), *fixed]
        # a fixed note was also rendered: named once; a note that fails or is fixed changes the banner of every page
        return Rebuilt(list(dict.fromkeys(changed)), written, every=bool(report.failed or fixed))

    def watch(self) -> None:
        from watchfiles import watch

        try:
            for changes in watch(
                self.source_dir,
                stop_event=_Stop(self.stopping, self.watching),
                debounce=150,
                step=50,
                watch_filter=lambda _change, path: path.lower().endswith(WATCHED),
            ):
                if self.stopping.is_set():
                    break
                self._rebuild_and_tell(changed=bool(changes))
        finally:
            self.watching.set()  # a watcher that could not start does not keep the first build waiting

    def _rebuild_and_tell(self, changed: bool) -> None:
        """Rebuild, then tell the open pages what to reload; nothing one build raises stops the preview."""
        try:
            rebuilt = self.rebuild()
        except Exception as exc:  # noqa: BLE001 - the preview must outlive any one bad save
            self.failures.clear()
            self.failures["*"] = f"{type(exc).__name__}: {exc}"
            self.echo(f"failed: {type(exc).__name__}: {exc}", err=True)
            rebuilt = Rebuilt(["*"], [], every=True)
        if rebuilt.notes:
            self.echo(f"rebuilt {', '.join(rebuilt.notes)}")
        if rebuilt.notes or changed:
            self.broadcaster.send(rebuilt.event())
            self._tell_followers(rebuilt)

    def _tell_followers(self, rebuilt: Rebuilt) -> None:
        """The deck the audience follows was rebuilt: their phones load it again."""
        page = self.audience.page if self.audience is not None else None
        if page in self.pages and self.handler.followers is not None and (self.pages[page] in rebuilt.notes or rebuilt.every):
            self.handler.followers.send("{}", "rebuilt")

    def run(self) -> None:
        watcher = threading.Thread(target=self.watch, daemon=True)
        threading.Thread(target=self.follow_held, name="confnotes-held", daemon=True).start()

        def terminate(_signum: int, _frame: Any) -> None:
            raise KeyboardInterrupt  # SIGTERM and SIGHUP stop like Ctrl-C: the temporary folder is removed

        # SIGHUP: the terminal that ran the preview was closed (or an ssh session dropped)
        stops = [signal.SIGTERM, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])]
        previous = {stop: signal.signal(stop, terminate) for stop in stops} if threading.current_thread() is threading.main_thread() else {}
        try:  # Ctrl-C at any moment, even during the first build, stops cleanly
            # the watcher first: a save made during the first build is built after it, and the
            # address is printed only once every save from then on will be seen
            watcher.start()
            self.watching.wait(timeout=10)
            self.held_changed.clear()  # the first build is of what the editor holds now
            self.rebuild()
            self.echo(f"Serving {self.note or self.source_dir} at {self.url}{self._pages_line()} (Ctrl-C stops)")
            if self.audience is not None:
                self.echo(self._audience_lines())
            if not self.stopping.is_set():
                self.httpd.serve_forever(poll_interval=0.2)
        except KeyboardInterrupt:
            pass
        finally:
            self.stopping.set()
            self.httpd.server_close()
            if watcher.is_alive():
                watcher.join(timeout=2)
            shutil.rmtree(self.out_dir, ignore_errors=True)
            for stop, handler in previous.items():
                signal.signal(stop, handler)
            self.echo("stopped")
