"""``confnotes serve``: live preview on 127.0.0.1, rebuild on save, reload event, no traversal."""

from __future__ import annotations

import base64
import contextlib
import http.client
import itertools
import json
import shutil
import signal
import socket
import subprocess
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def _serve(notes: Path) -> tuple[subprocess.Popen[str], int]:
    """``confnotes serve`` of ``notes`` on a free port: the process and its port."""
    from helpers import start_serve

    return start_serve(notes)


@pytest.fixture
def server(tmp_path, processes):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Live Talk\n\n## Part\n\n- first version\n")
    (notes / "other.md").write_text("# Other\n\n## Part\n\n- untouched\n")
    proc, port = _serve(notes)
    yield notes, port, proc
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def _get(port: int, path: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("GET", path)  # sent as written: no client-side normalisation of ../
    response = connection.getresponse()
    body = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, body


def test_serve_previews_rebuilds_and_reloads(server):
    notes, port, proc = server
    status, index = _get(port, "/")
    assert status == 200 and "Live Talk" in index and "__confnotes/events?page=" in index
    status, page = _get(port, "/talk.html")
    assert status == 200 and "first version" in page
    assert _get(port, "/talk.slides.html")[0] == 200

    events: list[str] = []
    connected = threading.Event()
    received = threading.Event()

    def listen() -> None:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/__confnotes/events", timeout=120) as stream:
            for raw in stream:
                line = raw.decode().strip()
                if line.startswith(":"):
                    connected.set()
                if line.startswith("event:") or line.startswith("data:"):
                    events.append(line)
                if line == "event: reload":  # the build is done
                    received.set()
                if received.is_set() and line.startswith("data:"):
                    return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert connected.wait(10)
    for _ in range(40):  # save until the watcher, which starts watching just after the first build, sees it
        (notes / "talk.md").write_text("# Live Talk\n\n## Part\n\n- second version\n")
        if received.wait(0.5):
            break
    listener.join(timeout=120)
    # each of the note's files is announced as soon as it is written, then the build's end: its
    # data names the notes rebuilt and the files announced, whose pages have reloaded already
    assert events == [
        "event: written",
        'data: "talk.html"',
        "event: written",
        'data: "talk.slides.html"',
        "event: reload",
        'data: {"notes": ["talk.md"], "written": ["talk.html", "talk.slides.html"], "all": false}',
    ]
    status, page = _get(port, "/talk.html")
    assert status == 200 and "second version" in page


def test_serve_refuses_traversal_and_binds_locally(server):
    _, port, proc = server
    for path in ("/../../../../etc/passwd", "/..%2f..%2f..%2fetc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/nope.html"):
        assert _get(port, path)[0] == 404, path
    with socket.socket() as probe:
        probe.settimeout(120)
        assert probe.connect_ex(("127.0.0.1", port)) == 0


def test_ctrl_c_stops_cleanly(server):
    _, port, proc = server
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=120)
    assert proc.returncode == 0
    assert "Traceback" not in proc.stderr.read()
    assert "stopped" in proc.stdout.read()


def test_serve_answers_403_to_other_hosts(server):
    _, port, _ = server
    for host, status in (("evil.com", 403), (f"evil.com:{port}", 403), (f"127.0.0.1:{port}", 200), (f"localhost:{port}", 200)):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        connection.putrequest("GET", "/", skip_host=True)
        connection.putheader("Host", host)
        connection.endheaders()
        assert connection.getresponse().status == status, host
        connection.close()


def test_serve_survives_a_burst_of_bad_requests_without_tracebacks(server):
    import random

    _, port, proc = server
    rng = random.Random(7)
    raw_requests = [
        b"GET /%00 HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n",
        b"GET /" + b"a" * 8000 + b" HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n",
        b"GET /..%2f..%2fetc/passwd HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n",
        b"GET /%zz%ff HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n",
        b"BREW /pot HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"\x00\x01\x02garbage\r\n\r\n",
        b"GET /talk.html HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n",  # then hang up before reading
        b"GET /__confnotes/events HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n",
    ]
    for _ in range(300):
        request = rng.choice(raw_requests).replace(b"PORT", str(port).encode())
        with socket.create_connection(("127.0.0.1", port), timeout=120) as conn:
            conn.sendall(request)
            if rng.random() < 0.5:
                continue  # disconnect without reading the answer
            with contextlib.suppress(OSError):
                conn.recv(65536)
    assert _get(port, "/talk.html")[0] == 200  # still serving
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=120)
    assert "Traceback" not in proc.stderr.read()


@contextlib.contextmanager
def _in_process(tmp_path: Path, text: str = "# Live Talk\n\n## Part\n\n- first version\n") -> Iterator[tuple[Any, Path]]:
    """A preview server of one note, ``talk.md``, built once, in this process: the server and the note."""
    from confnotes.serve import PreviewServer

    notes = tmp_path / "notes"
    notes.mkdir()
    talk = notes / "talk.md"
    talk.write_text(text, encoding="utf-8")
    server = PreviewServer(str(notes), "127.0.0.1", 0, lambda *_args, **_kw: None)
    try:
        server.rebuild()
        yield server, talk
    finally:
        server.httpd.server_close()
        shutil.rmtree(server.out_dir, ignore_errors=True)


def test_a_page_is_announced_before_the_rest_of_the_build(tmp_path):
    """Before: the open pages heard of a save only when the whole build was done (the note's page,
    then its deck, its outline and the index), so a page waited for its deck, outline and index."""
    with _in_process(tmp_path) as (server, talk):
        site = Path(server.out_dir)
        seen: list[tuple[str, str, bool, bool, bool]] = []

        def send(data: str, event: str = "reload") -> None:
            page = (site / "talk.html").read_text(encoding="utf-8")
            deck = (site / "talk.slides.html").read_text(encoding="utf-8")
            index = (site / "index.html").read_text(encoding="utf-8")
            seen.append((event, data, "Second Talk" in page, "Second Talk" in deck, "Second Talk" in index))

        server.broadcaster.send = send  # type: ignore[method-assign]
        talk.write_text("# Second Talk\n\n## Part\n\n- second version\n", encoding="utf-8")
        changed, written, every = server.rebuild()
    assert changed == ["talk.md"] and written == ["talk.html", "talk.slides.html"] and not every
    assert seen == [
        ("written", '"talk.html"', True, False, False),  # the page is new; its deck and the index are not yet
        ("written", '"talk.slides.html"', True, True, False),
    ]


def test_a_failed_note_reloads_every_page_for_its_banner(tmp_path):
    """A note that fails keeps its last good files and every page shows its error: then no page is
    spared the build's final reload, even one announced before the failure."""
    from confnotes.serve import PreviewServer

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Live Talk\n\n## Part\n\n- first version\n", encoding="utf-8")
    server = PreviewServer(str(notes), "127.0.0.1", 0, lambda *_args, **_kw: None)
    try:
        server.rebuild()
        (notes / "talk.md").write_text("---\ntitle: [unclosed\n---\n# Broken\n", encoding="utf-8")
        failed = server.rebuild()
        (notes / "talk.md").write_text("# Fixed Talk\n\n## Part\n\n- third version\n", encoding="utf-8")
        fixed = server.rebuild()
        settled = server.rebuild()
    finally:
        server.httpd.server_close()
        shutil.rmtree(server.out_dir, ignore_errors=True)
    assert failed.notes == ["talk.md"] and failed.written == [] and failed.every
    assert fixed.notes == ["talk.md"] and fixed.every, "the fixed note's banner goes from every page"
    assert json.loads(fixed.event())["all"] is True
    assert settled.notes == [] and not settled.every


def test_the_format_of_the_open_pages_is_rendered_first(tmp_path):
    """Before: a deck open alone waited for the note's page to be rendered before its own."""
    from confnotes.serve import viewed_formats

    assert viewed_formats(["day1/talk.slides.html"]) == ("slides",)
    assert viewed_formats(["day1/talk.html", "index.html"]) == ("html",)
    assert viewed_formats(["index.html"]) == () and viewed_formats([]) == ()
    with _in_process(tmp_path) as (server, talk):
        deck_page = server.broadcaster.subscribe(page="talk.slides.html")
        assert deck_page is not None
        talk.write_text("# Live Talk\n\n## Part\n\n- second version\n", encoding="utf-8")
        written = server.rebuild().written
        events = [deck_page.get_nowait() for _ in range(deck_page.qsize())]
        manifest = json.loads((Path(server.out_dir) / ".confnotes-manifest.json").read_text(encoding="utf-8"))
        server.broadcaster.unsubscribe(deck_page)
        assert server.broadcaster.pages() == []
    assert written == ["talk.slides.html", "talk.html"]
    assert events == [("written", '"talk.slides.html"'), ("written", '"talk.html"')]
    assert list(manifest["notes"]["talk.md"]["outputs"]) == ["html", "slides"], "the manifest keeps the request's order"


def test_a_file_name_cannot_break_an_event_line(tmp_path):
    """A note named with a newline and ``event:`` would have started an event of its own in the
    stream (the rebuilt notes went out raw); every event's data is one line of JSON."""
    from confnotes.serve import PreviewServer

    notes = tmp_path / "notes"
    notes.mkdir()
    server = PreviewServer(str(notes), "127.0.0.1", 0, lambda *_args, **_kw: None)
    try:
        server.rebuild()
        listener = server.broadcaster.subscribe()
        assert listener is not None
        (notes / "a\nevent: forged\ndata: x.md").write_text("# Odd Name\n\n## Part\n\n- a point\n", encoding="utf-8")
        server.broadcaster.send(server.rebuild().event())
        events = [listener.get_nowait() for _ in range(listener.qsize())]
    finally:
        server.httpd.server_close()
        shutil.rmtree(server.out_dir, ignore_errors=True)
    assert [event for event, _ in events] == ["written", "written", "reload"]
    assert all("\n" not in data and "\r" not in data for _, data in events)
    assert json.loads(events[0][1]) == "a\nevent: forged\ndata: x.html"


def test_a_site_without_an_icon_answers_its_request_with_no_content(server):
    """Before: every page's console showed a 404 for /favicon.ico."""
    _, port, _ = server
    assert _get(port, "/favicon.ico") == (204, "")


def test_a_saved_picture_rebuilds_its_note(tmp_path, processes):
    """Before: the watcher saw notes, configs and templates only, and a build did not look at
    pictures: a screenshot saved again next to the note stayed old in the preview."""
    from PIL import Image

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Live Talk\n\n## Part\n\n![Screenshot](shot.png)\n\n- a point\n", encoding="utf-8")
    Image.new("RGB", (30, 20), "blue").save(notes / "shot.png")
    proc, port = _serve(notes)
    try:
        done: list[str] = []
        connected, received = threading.Event(), threading.Event()

        def listen() -> None:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/__confnotes/events?page=talk.html", timeout=120) as stream:
                for raw in stream:
                    line = raw.decode().strip()
                    connected.set()
                    if line.startswith("data: {"):
                        done.append(line)
                        received.set()
                        return

        threading.Thread(target=listen, daemon=True).start()
        assert connected.wait(10)
        shown = {}
        for colour in ("blue", "red", "green"):
            Image.new("RGB", (30, 20), colour).save(tmp_path / "shot.png")
            shown[colour] = base64.b64encode((tmp_path / "shot.png").read_bytes()).decode()
        for _, colour in zip(range(40), itertools.cycle(("red", "green")), strict=False):  # the watcher starts after the first build
            Image.new("RGB", (30, 20), colour).save(notes / "shot.png")
            if received.wait(0.5):
                break
        assert json.loads(done[0].removeprefix("data: "))["notes"] == ["talk.md"]
        status, page = _get(port, "/talk.html")
        assert status == 200 and shown["blue"] not in page and (shown["red"] in page or shown["green"] in page)
    finally:
        proc.kill()
        proc.wait()


def test_a_save_during_the_first_build_is_built_after_it(tmp_path, monkeypatch):
    """Before: the watcher started after the first build, and the address was printed before it
    watched, so a save landing meanwhile (a person saving as serve starts, on a busy machine) was
    never built: the page kept the old text until the next save."""
    import confnotes.serve as serve

    notes = tmp_path / "notes"
    notes.mkdir()
    talk = notes / "talk.md"
    talk.write_text("# Live Talk\n\n## Part\n\n- first version\n", encoding="utf-8")
    real_build = serve.build_site
    calls: list[int] = []

    def build_then_save(request: Any) -> Any:
        report = real_build(request)
        calls.append(1)
        if len(calls) == 1:  # the note was read: saved again before the first build is done
            talk.write_text("# Live Talk\n\n## Part\n\n- saved while building\n", encoding="utf-8")
        return report

    monkeypatch.setattr(serve, "build_site", build_then_save)
    said: list[tuple[str, bool]] = []
    server = serve.PreviewServer(
        str(notes), "127.0.0.1", 0, lambda message, **_kw: said.append((message, getattr(server, "watching", threading.Event()).is_set()))
    )
    running = threading.Thread(target=server.run)
    running.start()
    page = Path(server.out_dir) / "talk.html"
    try:
        for _ in range(400):  # up to 20 s on a busy machine; the watcher's step is 50 ms
            if page.is_file() and "saved while building" in page.read_text(encoding="utf-8"):
                break
            threading.Event().wait(0.05)
        shown = page.read_text(encoding="utf-8")
    finally:  # (shutdown waits for a serving loop: never for one that did not start)
        threading.Thread(target=server.httpd.shutdown, daemon=True).start()
        running.join(timeout=120)
    assert "saved while building" in shown and "first version" not in shown
    assert len(calls) == 2
    serving = [watching for message, watching in said if message.startswith("Serving")]
    assert serving == [True]  # the address is printed once the watcher sees saves


def test_serve_one_note_previews_its_page_and_deck_alone(tmp_path, processes):
    """``confnotes serve talk.md``: the note beside it is not built, and the addresses of the note's
    page and deck are printed (the index would otherwise be where they are found)."""
    notes = tmp_path / "my notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Live Talk\n\n## Part\n\n- first version\n", encoding="utf-8")
    (notes / "other.md").write_text("# Other\n\n## Part\n\n- untouched\n", encoding="utf-8")
    proc, port = _serve(notes / "talk.md")
    try:
        printed = [proc.stdout.readline() for _ in range(2)] if proc.stdout else []
        assert [line.strip() for line in printed] == [
            f"http://127.0.0.1:{port}/talk.html",
            f"http://127.0.0.1:{port}/talk.slides.html (Ctrl-C stops)",
        ]
        assert _get(port, "/talk.slides.html")[0] == 200 and "first version" in _get(port, "/talk.html")[1]
        assert _get(port, "/other.html")[0] == 404
        assert "other.html" not in _get(port, "/")[1]
    finally:
        proc.kill()
        proc.wait()


def test_serve_refuses_a_file_that_is_not_a_note(tmp_path, cli):
    (tmp_path / "talk.txt").write_text("# Talk\n", encoding="utf-8")
    result = cli("serve", str(tmp_path / "talk.txt"), "--port", "0")
    assert result.exit_code == 2
    assert "talk.txt" in result.output and "not a note" in result.output and "Traceback" not in result.output


def test_the_cursor_is_one_event_naming_the_deck(tmp_path):
    """``PreviewServer.go_to`` (the editor's cursor) is one ``goto`` event naming the deck's page, which
    the page's script follows (in Chromium: tests/test_lsp_preview.py)."""
    with _in_process(tmp_path) as (server, talk):
        page = server.page_of(str(talk), "slides")
        assert page == "talk.slides.html" and server.page_of(str(talk), "html") == "talk.html"
        client = server.broadcaster.subscribe(page=page)
        server.go_to(page, 3)
        assert client.get(timeout=5) == ("goto", '{"page": "talk.slides.html", "slide": 3}')


def test_a_note_rebuilt_after_the_first_build_is_read_again_only_where_it_changed(tmp_path):
    """The preview rebuilds the note being edited at each save: from its second build on, the sections
    a save left alone are taken from the last reading, as the editor's language server takes them
    (``parse.reuse``); the first build, of every note, keeps nothing."""
    from confnotes.parse import incremental

    sections = "".join(f"## Part {k}\n\n- point {k}\n- more {k}\n\n" for k in range(6))
    with _in_process(tmp_path, "# Live Talk\n\n" + sections) as (server, talk):
        note = str(talk)
        try:
            assert not incremental.tracked(note)  # the first build
            talk.write_text("# Live Talk\n\n" + sections.replace("- more 3", "- more on 3"), encoding="utf-8")
            server.rebuild()
            talk.write_text("# Live Talk\n\n" + sections.replace("- more 3", "- even more on 3"), encoding="utf-8")
            server.rebuild()
            assert incremental.last_reading["path"] == note and incremental.last_reading["sections_taken"] == 5
            assert "even more on 3" in (Path(server.out_dir) / "talk.html").read_text(encoding="utf-8")
        finally:
            incremental.forget(note)
