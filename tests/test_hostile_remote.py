"""Hostile notes and pages against what confnotes fetches and what its preview server holds:
Marp output that would obey an author's directives or load remote things when opened, a PDF
that would look a host up, and a preview server a page elsewhere could read from or exhaust."""

from __future__ import annotations

import re
import socket
import struct
import subprocess
import threading
import time
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from helpers import require_marp

# ------------------------------------------------------------------ helpers


def png(width: int, height: int) -> bytes:
    """A black-and-white PNG of any declared size: 30,000 x 30,000 pixels is about 110 KB."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    row = b"\x00" * (1 + (width + 7) // 8)
    packer = zlib.compressobj(9)
    data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def eventually(condition, seconds: float = 120.0) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass (generous: a loaded machine is slow)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


class RemoteLoads(HTMLParser):
    """Every address a browser would load by itself when it opens a page: src, srcset, poster and
    data attributes, stylesheet links, and url()/@import in style elements and attributes."""

    REMOTE = re.compile(r"^\s*(?:https?:)?//", re.IGNORECASE)
    CSS = re.compile(r"""url\(\s*['"]?((?:https?:)?//[^'")\s]+)|@import\s+(?:url\(\s*)?['"]?((?:https?:)?//[^'")\s;]+)""", re.I)

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("src", "poster", "data", "background"):
            if self.REMOTE.match(values.get(name) or ""):
                self.found.append(f"{tag} {name}={values[name]}")
        for part in (values.get("srcset") or "").split(","):
            if self.REMOTE.match(part):
                self.found.append(f"{tag} srcset={part.strip()}")
        if tag == "link" and self.REMOTE.match(values.get("href") or ""):
            self.found.append(f"link href={values['href']}")
        self.found += [next(filter(None, match)) for match in self.CSS.findall(values.get("style") or "")]
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.found += [next(filter(None, match)) for match in self.CSS.findall(data)]


def remote_loads(html: str) -> list[str]:
    parser = RemoteLoads()
    parser.feed(html)
    return parser.found


HOSTILE = """\
---
event: "Berlin <!-- backgroundImage: url(https://evil.example/event.png) -->"
---

# Talk 🚀 :rocket:

## Directives

- an escaped backtick \\`<!-- theme: gaia -->`
- an unmatched run ``<!-- _backgroundColor: red -->`
- inline <!-- _color: red --> comment
- code `🚀 ❤️` and text ❤️ 1️⃣ 👩‍💻 :tada:
- web ![logo](https://evil.example/logo.png) and ![rel](//evil.example/rel.png)

```
print("🚀")
```

::: notes
theme: gaia
backgroundImage: url(https://evil.example/note.png)
class: invert
:::

## Second

- point

<!-- notes: _backgroundImage: url(https://evil.example/second.png) -->
"""


def _marp(cli, tmp_path: Path, text: str, *args: str) -> tuple[str, str]:
    note = tmp_path / "talk.md"
    note.write_text(text, encoding="utf-8")
    result = cli("render", str(note), "--to", "marp", "-o", str(tmp_path / "talk.marp.md"), *args)
    assert result.exit_code == 0, result.stderr
    return (tmp_path / "talk.marp.md").read_text(encoding="utf-8"), result.stderr


#: the comments confnotes writes itself: its directives for title and divider slides
OWN_DIRECTIVES = {"_class: lead", "_paginate: false"}


def _comments(marp: str) -> list[str]:
    """The HTML comments of a Marp file's slides (its front matter is YAML, where ``<!--`` is text)."""
    body = marp.split("\n---\n", 1)[1]
    return [comment.strip() for comment in re.findall(r"<!--(.*?)-->", body, re.S)]


# ------------------------------------------------------------------ Marp: directives


def test_marp_speaker_notes_never_parse_as_directives(cli, tmp_path):
    """Marp reads a comment whose body is YAML ``key: value`` as a directive: every speaker note is
    a comment whose body YAML reads as text (or cannot read), never as keys."""
    marp, _ = _marp(cli, tmp_path, HOSTILE)
    notes = [body for body in _comments(marp) if body not in OWN_DIRECTIVES]
    assert len(notes) == 2 and all(body.startswith("Notes\n") for body in notes)
    assert "backgroundImage: url(https://evil.example/note.png)" in notes[0]  # the note is all there
    for body in notes:
        try:
            parsed = yaml.load(body, Loader=yaml.BaseLoader)  # strings only, as marpit's FAILSAFE schema
        except yaml.YAMLError:
            continue
        assert not isinstance(parsed, dict), body


@pytest.mark.parametrize("allow_html", [False, True])
def test_no_author_comment_reaches_marp(cli, tmp_path, allow_html):
    """An author's HTML comment is text in the Marp file, whatever hides it from a simple scan (an
    escaped backtick, a backtick run never closed), and with ``allow_html`` too."""
    if allow_html:
        (tmp_path / "confnotes.toml").write_text("allow_html = true\n")
    marp, _ = _marp(cli, tmp_path, HOSTILE)
    own = [body for body in _comments(marp) if body in OWN_DIRECTIVES or body.startswith("Notes\n")]
    assert _comments(marp) == own
    assert "&lt;!-- theme: gaia -->" in marp and "&lt;!-- _color: red -->" in marp


def test_marp_guard_checks_what_marp_parses():
    """The escape keeps code spans as written; where markdown-it sees no code span (a backtick
    inside an autolink or a link target), the comment is escaped all the same."""
    from confnotes.render.marp_guard import guarded, obeyed

    assert guarded("`<!-- a: b -->` <b>x</b>", False) == "`<!-- a: b -->` &lt;b>x&lt;/b>"
    for text in ("<http://x`> <!-- theme: gaia --> `", "[a](u`) <!-- theme: gaia --> `", "``<!-- theme: gaia -->`"):
        for allow_html in (False, True):
            assert not obeyed(guarded(text, allow_html), allow_html), text
            assert obeyed(text, allow_html)


def test_code_spans_are_found_as_markdown_it_finds_them():
    """The escape keeps code spans as written, so it must find the ones markdown-it (what Marp
    parses with) finds: escaped backticks, autolinks, runs of other lengths, backslashes inside."""
    import random

    from markdown_it import MarkdownIt

    from confnotes.render.marp_guard import code_pieces

    parser = MarkdownIt("commonmark", {"html": False})  # as Marp reads it once raw HTML is escaped
    bits = ["`", "``", "\\", "\\`", "a", " ", "<", ">", "<http://a`b>", "<!--"]
    generator = random.Random(30)
    for _ in range(3000):
        text = "x" + "".join(generator.choice(bits) for _ in range(generator.randint(1, 12))) + "x"
        spans = [token.content for token in parser.parseInline(text)[0].children or [] if token.type == "code_inline"]
        ours = [piece for code, piece in code_pieces(text) if code]
        assert len(ours) == len(spans), text


# ------------------------------------------------------------------ Marp: remote things


def test_marp_web_images_are_links_unless_allow_remote(cli, tmp_path):
    marp, _ = _marp(cli, tmp_path, HOSTILE)
    assert "[logo](https://evil.example/logo.png)" in marp and "[rel](//evil.example/rel.png)" in marp
    assert "](https://evil.example" not in marp.replace("[logo](https://evil.example", "")
    assert not re.search(r"!\[[^\]]*\]\((?:https?:)?//", marp)
    allowed, _ = _marp(cli, tmp_path, HOSTILE, "--allow-remote")
    assert "![logo](https://evil.example/logo.png)" in allowed and "![rel](//evil.example/rel.png)" in allowed


def test_build_allow_remote_rebuilds_the_marp_decks_with_web_images(cli, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Talk\n\n## A\n\n- x\n\n![logo](https://example.org/logo.png)\n")
    site = tmp_path / "site"
    assert cli("build", str(notes), "-o", str(site), "--to", "marp", "-j", "1", "-q").exit_code == 0
    assert "[logo](https://example.org/logo.png)" in (site / "talk.marp.md").read_text()
    assert cli("build", str(notes), "-o", str(site), "--to", "marp", "-j", "1", "-q", "--allow-remote").exit_code == 0
    assert "![logo](https://example.org/logo.png)" in (site / "talk.marp.md").read_text()


def test_marp_emoji_are_written_so_marp_fetches_no_emoji_image(cli, tmp_path):
    """marp-core draws emoji and shortcodes as twemoji images from a CDN: in text they are written
    as character references (a shortcode broken by a word joiner), in code followed by U+FE0E."""
    marp, _ = _marp(cli, tmp_path, HOSTILE)
    assert "# Talk &#x1F680; &#x1F680;" in marp  # a shortcode is its emoji, as in every output
    assert "`🚀\ufe0e ❤\ufe0e`" in marp and "&#x2764;&#xFE0F; 1&#xFE0F;&#x20E3; &#x1F469;\u200d&#x1F4BB; &#x1F389;" in marp
    assert 'print("🚀\ufe0e")' in marp
    allowed, _ = _marp(cli, tmp_path, HOSTILE, "--allow-remote")
    assert "# Talk 🚀 :rocket:" in allowed and 'print("🚀")' in allowed


def test_a_decompression_bomb_png_is_a_warning_never_a_traceback(cli, tmp_path):
    """A 110 KB PNG that declares 30,000 x 30,000 pixels: Marp links it, PPTX shows its frame,
    each with a warning."""
    (tmp_path / "bomb.png").write_bytes(png(30_000, 30_000))
    marp, stderr = _marp(cli, tmp_path, "# T\n\n## A\n\n- x\n\n![bomb](bomb.png)\n")
    assert "[bomb](bomb.png)" in marp and "![bomb]" not in marp
    assert "image 'bomb.png' has more than 89,478,485 pixels; linked, not shown" in stderr
    result = cli("render", str(tmp_path / "talk.md"), "--to", "pptx", "-o", str(tmp_path / "talk.pptx"))
    assert result.exit_code == 0 and "bomb.png" in result.stderr and "Traceback" not in result.stderr


def test_image_size_refuses_images_past_the_pixel_limit(tmp_path):
    """The one function that reads an image's size (every deck output calls it): past Pillow's
    limit an image has no size and a reason, whether Pillow warns (up to twice the limit) or raises."""
    from confnotes.render.deck import MAX_IMAGE_PIXELS, image_size, measure_image

    for width, height in ((10_000, 9_000), (30_000, 30_000)):
        (tmp_path / "big.png").write_bytes(png(width, height))
        size, reason = measure_image(tmp_path / "big.png")
        assert size is None and reason and f"{MAX_IMAGE_PIXELS:,}" in reason
        assert image_size(tmp_path / "big.png") is None
    (tmp_path / "small.png").write_bytes(png(300, 200))
    assert measure_image(tmp_path / "small.png") == ((300, 200), None)
    (tmp_path / "text.png").write_text("not an image")
    assert measure_image(tmp_path / "text.png") == (None, None)


def test_marp_cli_deck_obeys_no_author_directive_and_loads_nothing_remote(cli, tmp_path, processes):
    """marp-cli's own HTML of the hostile note: the theme is confnotes' (no web fonts, as
    ``theme: gaia`` would import), no background from a note, no web image, no emoji image, and
    both speaker notes are the slides' presenter notes."""
    marp_cli = require_marp()
    marp, _ = _marp(cli, tmp_path, HOSTILE)
    deck = tmp_path / "deck.md"
    deck.write_text(marp, encoding="utf-8")
    proc = subprocess.run([marp_cli, str(deck), "-o", str(tmp_path / "deck.html")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "deck.html").read_text(encoding="utf-8")
    assert remote_loads(html) == []
    assert set(re.findall(r'data-theme="([^"]*)"', html)) == {"default"}
    assert "data-background-image" not in html and 'data-class="invert"' not in html and "fonts.bunny.net" not in html
    notes = re.findall(r'<div class="bespoke-marp-note"[^>]*><p>(.*?)</p>', html, re.S)
    assert len(notes) == 2 and "theme: gaia" in notes[0] and "_backgroundImage" in notes[1]
    # the control: with --allow-remote the web image and the emoji images load, and are seen to
    marp, _ = _marp(cli, tmp_path, HOSTILE, "--allow-remote")
    deck.write_text(marp, encoding="utf-8")
    subprocess.run([marp_cli, str(deck), "-o", str(tmp_path / "deck.html")], capture_output=True, text=True, timeout=300, check=True)
    loads = remote_loads((tmp_path / "deck.html").read_text(encoding="utf-8"))
    assert any("evil.example/logo.png" in load for load in loads) and any("twemoji" in load for load in loads)


#: raw HTML a note may hold with ``allow_html``: each line loads something from elsewhere when opened
HTML_LOADS = """\
# Talk

## HTML

- an <img src="https://evil.example/img.png" alt="logo"> image, and <img src="local.png"> stays
- a share <img src="file://evil.example/share/x.png"> and <img src="\\\\evil.example\\y.png">
- encoded <img src="&#104;ttps://evil.example/ent.png"> and <img src=" https://evil.example/sp.png">
- set <img srcset="local.png 1x, https://evil.example/2x.png 2x">
- a frame <iframe src="https://evil.example/frame"></iframe> and <video poster="//evil.example/p.png"></video>
- styled <span style="background:url('https://evil.example/span.png')">text</span>
- a handler <img src="local.png" onerror="fetch('//evil.example/js')">
- code `<img src="https://evil.example/code.png">` is shown, never loaded

<link rel="stylesheet" href="//evil.example/sheet.css">

<style>
section { background: url(https://evil.example/bg.png) no-repeat; }
@import "https://evil.example/import.css";
</style>

<script>fetch("https://evil.example/script")</script>
"""


def _marp_html(cli, tmp_path: Path, text: str, *args: str) -> tuple[str, str]:
    (tmp_path / "confnotes.toml").write_text("allow_html = true\n")
    (tmp_path / "local.png").write_bytes(png(20, 20))
    return _marp(cli, tmp_path, text, *args)


def test_marp_raw_html_loads_nothing_remote_unless_allow_remote(cli, tmp_path):
    """With ``allow_html`` the author's HTML is kept, but what it would load from elsewhere is a link
    (``<img>``, ``<link>``), an attribute gone (``<iframe src>``, ``onerror``), or ``none`` in CSS."""
    from confnotes.render.marp_guard import loads_from_afar

    marp, stderr = _marp_html(cli, tmp_path, HTML_LOADS)
    body = marp.split("\n---\n", 1)[1]
    assert loads_from_afar(body) == [] and "warning" not in stderr
    assert '<a href="https://evil.example/img.png">logo</a> image, and <img src="local.png"> stays' in marp
    assert '<a href="https://evil.example/frame">https://evil.example/frame</a><iframe></iframe>' in marp
    assert '<span style="background:none">text</span>' in marp and '<img src="local.png">' in marp
    assert '`<img src="https://evil.example/code.png">`' in marp and "&lt;script>" in marp
    assert "background: none no-repeat;" in marp and '@import "";' in marp
    allowed, _ = _marp_html(cli, tmp_path, HTML_LOADS, "--allow-remote")
    assert '<img src="https://evil.example/img.png" alt="logo">' in allowed and "url(https://evil.example/bg.png)" in allowed
    assert len(loads_from_afar(allowed.split("\n---\n", 1)[1])) >= 10


def test_marp_raw_html_that_cannot_be_made_quiet_is_shown_as_text(cli, tmp_path):
    """CSS escapes (``u\\72l(``) hide a load from a plain search: the deck is checked as Marp reads
    it, and if anything would still load, the note's raw HTML is shown as text, with a warning."""
    note = "# Talk\n\n## A\n\n- x\n\n<style>\nh1 { background: u\\72l(https://evil.example/esc.png); }\n</style>\n"
    marp, stderr = _marp_html(cli, tmp_path, note)
    assert "&lt;style>" in marp
    assert "raw HTML in the note would load from elsewhere when the deck is opened; shown as text" in stderr


def test_marp_cli_deck_of_raw_html_loads_nothing_remote(cli, tmp_path, processes):
    """marp-cli's own HTML, with ``--html`` (every tag the note holds is HTML), checked by a parser
    of its own: nothing loads from elsewhere; with ``--allow-remote`` the same note's deck does."""
    marp_cli = require_marp()
    for args, remote in (((), False), (("--allow-remote",), True)):
        marp, _ = _marp_html(cli, tmp_path, HTML_LOADS, *args)
        (tmp_path / "deck.md").write_text(marp, encoding="utf-8")
        command = [marp_cli, "--html", str(tmp_path / "deck.md"), "-o", str(tmp_path / "deck.html")]
        subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
        loads = remote_loads((tmp_path / "deck.html").read_text(encoding="utf-8"))
        assert bool(loads) == remote, loads
        if remote:
            assert any("evil.example/img.png" in load for load in loads) and any("bg.png" in load for load in loads)


# ------------------------------------------------------------------ PDF: no host looked up


def test_pdf_with_html_never_looks_up_a_file_url_host(cli, tmp_path, monkeypatch, weasyprint):
    """``file://HOST/…`` (or ``//HOST/…`` against the note's file: base) names a host that urllib
    would resolve: the fetcher refuses it before anything looks a name up."""
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "confnotes.toml").write_text("allow_html = true\n")
    (notes / "img.png").write_bytes(png(20, 20))
    folder = notes.resolve().as_posix()
    (notes / "talk.md").write_text(
        "# Talk\n\n## Images\n\n"
        f'<img src="file://evil.example{folder}/img.png"> <img src="file://localhost{folder}/img.png">\n'
        '<img src="//evil.example/x.png"> <img src="img.png">\n'
    )
    looked_up: list[str] = []

    def refuse(name, *args, **kwargs):
        looked_up.append(str(name))
        raise OSError("no name lookups in this test")

    for function in ("getaddrinfo", "gethostbyname", "gethostbyname_ex", "gethostbyaddr"):
        monkeypatch.setattr(socket, function, refuse)
    result = cli("render", str(notes / "talk.md"), "--to", "pdf", "-o", str(tmp_path / "talk.pdf"))
    assert result.exit_code == 0, result.stderr
    assert looked_up == []
    assert result.stderr.count("refused to fetch") == 3 and "img.png" in result.stderr


# ------------------------------------------------------------------ serve


@pytest.fixture
def serve(tmp_path):
    """A preview server in this process on an ephemeral port, with the limits a test passes."""
    from confnotes.serve import PreviewServer, ServeLimits

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Talk\n\n## Part\n\n- point\n")
    servers = []

    def start(**limits: float) -> PreviewServer:
        server = PreviewServer(str(notes), "127.0.0.1", 0, lambda *args, **kwargs: None, limits=ServeLimits(**limits))
        server.rebuild()
        threading.Thread(target=server.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stopping.set()
        server.httpd.shutdown()
        server.httpd.server_close()


def _port(server) -> int:
    return server.httpd.server_address[1]


def _raw(server, request: str, read: bool = True) -> socket.socket | bytes:
    """Send ``request`` as written; return all the server answered (or the open socket)."""
    connection = socket.create_connection(("127.0.0.1", _port(server)), timeout=120)
    connection.sendall(request.encode())
    if not read:
        return connection
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    connection.close()
    return b"".join(chunks)


class Stream:
    """An open reload stream, as a page's EventSource holds one: its socket and its answer's head."""

    def __init__(self, server, headers: str = "") -> None:
        request = f"GET /__confnotes/events HTTP/1.1\r\nHost: 127.0.0.1:{_port(server)}\r\n{headers}\r\n"
        self.connection = socket.create_connection(("127.0.0.1", _port(server)), timeout=120)
        self.connection.sendall(request.encode())
        self.head = b""
        while b"\r\n\r\n" not in self.head and (chunk := self.connection.recv(1024)):
            self.head += chunk

    def close(self) -> None:
        self.connection.close()


def test_a_page_elsewhere_cannot_open_the_reload_stream(serve):
    server = serve()
    port = _port(server)
    refused = Stream(server, "Origin: http://evil.example\r\n")
    assert refused.head.startswith(b"HTTP/1.0 403")
    refused.close()
    for origin in ("", f"Origin: http://127.0.0.1:{port}\r\n", f"Origin: http://localhost:{port}\r\n"):
        stream = Stream(server, origin)
        assert stream.head.startswith(b"HTTP/1.0 200"), origin
        stream.close()
    assert eventually(lambda: server.broadcaster.clients == 0)


def test_a_foreign_host_gets_a_bare_403(serve):
    """DNS rebinding: a page on another name gets 403 and nothing of the build's errors."""
    server = serve()
    server.failures["talk.md"] = "/home/someone/secret/talk.md:3: front matter is not valid YAML"
    answer = _raw(server, "GET /talk.html HTTP/1.0\r\nHost: evil.example:80\r\n\r\n")
    assert isinstance(answer, bytes) and answer.startswith(b"HTTP/1.0 403")
    assert b"secret" not in answer and b"confnotes-build-error" not in answer and b"EventSource" not in answer
    own = _raw(server, f"GET /missing.html HTTP/1.0\r\nHost: 127.0.0.1:{_port(server)}\r\n\r\n")
    assert isinstance(own, bytes) and own.startswith(b"HTTP/1.0 404") and b"secret" in own  # the preview's own page shows it


@pytest.mark.parametrize("path", ["/talk.html", "/", "/missing.html", "/__confnotes/events", "/index.css"])
def test_head_answers_headers_and_no_body(serve, path):
    server = serve()
    (Path(server.out_dir) / "index.css").write_text("body { color: black }\n")
    answer = _raw(server, f"HEAD {path} HTTP/1.0\r\nHost: 127.0.0.1:{_port(server)}\r\n\r\n")
    assert isinstance(answer, bytes)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.0 ") and body == b"", (path, answer[:200])


def test_closed_reload_streams_are_let_go_without_a_rebuild(serve):
    """Pages that open and close the reload stream (reloads, closed tabs) leave no thread and no
    client behind, with no rebuild to write to them."""
    server = serve(keepalive_seconds=0.2)
    threads = threading.active_count()
    for _ in range(3):
        streams = [Stream(server) for _ in range(20)]
        assert all(stream.head.startswith(b"HTTP/1.0 200") for stream in streams)
        assert eventually(lambda: server.broadcaster.clients == 20)
        for stream in streams:
            stream.close()
        assert eventually(lambda: server.broadcaster.clients == 0 and server.httpd.open_connections == 0)
    assert eventually(lambda: threading.active_count() <= threads)


def test_reload_streams_are_capped(serve):
    server = serve(event_clients=3)
    streams = [Stream(server) for _ in range(3)]
    assert all(stream.head.startswith(b"HTTP/1.0 200") for stream in streams)
    over = Stream(server)
    assert over.head.startswith(b"HTTP/1.0 503")
    over.close()
    streams.pop().close()
    assert eventually(lambda: server.broadcaster.clients == 2)
    again = Stream(server)
    assert again.head.startswith(b"HTTP/1.0 200")
    for stream in [*streams, again]:
        stream.close()


def test_slow_headers_are_cut_off(serve):
    """Slowloris: a request line and headers sent a byte at a time never end; the server closes
    the connection once its header time is up, as it does an idle one."""
    server = serve(header_seconds=0.5)
    idle = socket.create_connection(("127.0.0.1", _port(server)), timeout=120)
    trickle = socket.create_connection(("127.0.0.1", _port(server)), timeout=120)
    closed = threading.Event()

    def send_slowly() -> None:
        request = b"GET / HTTP/1.0\r\nX-Slow: " + b"a" * 10_000
        for byte in request:
            try:
                trickle.sendall(bytes([byte]))
            except OSError:
                closed.set()
                return
            time.sleep(0.05)

    sender = threading.Thread(target=send_slowly, daemon=True)
    sender.start()
    assert idle.recv(1024) == b""  # closed, with nothing sent (the socket's own 10 s timeout is the bound)
    assert eventually(lambda: closed.is_set() or server.httpd.open_connections == 0)
    assert eventually(lambda: server.httpd.open_connections == 0)
    idle.close()
    trickle.close()


def test_connections_are_capped(serve):
    server = serve(connections=4, header_seconds=60)
    held = [socket.create_connection(("127.0.0.1", _port(server)), timeout=120) for _ in range(4)]
    assert eventually(lambda: server.httpd.open_connections == 4)
    answer = _raw(server, f"GET / HTTP/1.0\r\nHost: 127.0.0.1:{_port(server)}\r\n\r\n")
    assert isinstance(answer, bytes) and answer.startswith(b"HTTP/1.0 503")
    for connection in held:
        connection.close()
    assert eventually(lambda: server.httpd.open_connections == 0)
    answer = _raw(server, f"GET / HTTP/1.0\r\nHost: 127.0.0.1:{_port(server)}\r\n\r\n")
    assert isinstance(answer, bytes) and answer.startswith(b"HTTP/1.0 200")
