"""``confnotes serve``: live preview on 127.0.0.1, rebuild on save, reload event, no traversal."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.request

import pytest


@pytest.fixture
def server(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Live Talk\n\n## Part\n\n- first version\n")
    (notes / "other.md").write_text("# Other\n\n## Part\n\n- untouched\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "confnotes", "serve", str(notes), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    line = proc.stdout.readline()
    match = re.search(r"at http://127\.0\.0\.1:(\d+)/", line)
    assert match, line + proc.stderr.read() if proc.poll() is not None else line
    yield notes, int(match.group(1)), proc
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def _get(port: int, path: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", path)  # sent as written: no client-side normalisation of ../
    response = connection.getresponse()
    body = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, body


def test_serve_previews_rebuilds_and_reloads(server):
    notes, port, proc = server
    status, index = _get(port, "/")
    assert status == 200 and "Live Talk" in index and "/__confnotes/events" in index
    status, page = _get(port, "/talk.html")
    assert status == 200 and "first version" in page
    assert _get(port, "/talk.slides.html")[0] == 200

    events: list[str] = []
    connected = threading.Event()
    received = threading.Event()

    def listen() -> None:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/__confnotes/events", timeout=20) as stream:
            for raw in stream:
                line = raw.decode().strip()
                if line.startswith(":"):
                    connected.set()
                if line.startswith("event:") or line.startswith("data:"):
                    events.append(line)
                if line.startswith("data:"):
                    received.set()
                    return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert connected.wait(10)
    for _ in range(40):  # save until the watcher, which starts watching just after the first build, sees it
        (notes / "talk.md").write_text("# Live Talk\n\n## Part\n\n- second version\n")
        if received.wait(0.5):
            break
    listener.join(timeout=20)
    assert events[:2] == ["event: reload", "data: talk.md"]
    status, page = _get(port, "/talk.html")
    assert status == 200 and "second version" in page


def test_serve_refuses_traversal_and_binds_locally(server):
    _, port, proc = server
    for path in ("/../../../../etc/passwd", "/..%2f..%2f..%2fetc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/nope.html"):
        assert _get(port, path)[0] == 404, path
    with socket.socket() as probe:
        probe.settimeout(1)
        assert probe.connect_ex(("127.0.0.1", port)) == 0


def test_ctrl_c_stops_cleanly(server):
    _, port, proc = server
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=10)
    assert proc.returncode == 0
    assert "Traceback" not in proc.stderr.read()
    assert "stopped" in proc.stdout.read()
