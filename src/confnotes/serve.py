"""Live preview: build HTML and slides into a temporary folder, serve it, rebuild on save, reload pages."""

from __future__ import annotations

import contextlib
import html
import queue
import shutil
import signal
import tempfile
import threading
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from confnotes.build import BuildRequest, build_site

EVENTS_PATH = "/__confnotes/events"
RELOAD_SCRIPT = (
    "<script>(function(){var s=new EventSource('" + EVENTS_PATH + "');"
    "s.addEventListener('reload',function(e){"
    # a page may hold the reload (a presenter that is recording): it cancels this event
    "if(window.dispatchEvent(new CustomEvent('confnotes:reload',{cancelable:true,detail:e.data})))location.reload();"
    "});})();</script>"
)
SERVE_FORMATS = ("html", "slides")


class Broadcaster:
    """Hands 'reload' events to every connected page (server-sent events)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clients: list[queue.Queue[str]] = []

    def subscribe(self) -> queue.Queue[str]:
        client: queue.Queue[str] = queue.Queue()
        with self._lock:
            self._clients.append(client)
        return client

    def unsubscribe(self, client: queue.Queue[str]) -> None:
        with self._lock, contextlib.suppress(ValueError):
            self._clients.remove(client)

    def send(self, data: str) -> None:
        with self._lock:
            for client in self._clients:
                client.put(data)


def error_banner(failures: dict[str, str]) -> str:
    """What a page shows while notes fail to build: each error, above the last good version."""
    if not failures:
        return ""
    items = "".join(f"<li>{html.escape(reason)}</li>" for reason in failures.values())
    return (
        '<div class="confnotes-build-error" role="alert" style="position:fixed;top:0;left:0;right:0;z-index:99999;'
        'background:#8b0000;color:#fff;font:14px/1.4 sans-serif;padding:8px 16px">'
        f"<strong>confnotes: the last save did not build; showing the last good version.</strong><ul>{items}</ul></div>"
    )


class PreviewHandler(SimpleHTTPRequestHandler):
    """Serves only the output folder (``..`` never leaves it) and injects the reload script into HTML."""

    broadcaster: Broadcaster
    stopping: threading.Event
    failures: dict[str, str]

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:  # noqa: ARG002 - http.server's signature
        """Error pages keep the reload hook, so a page that appears once a note builds again reloads."""
        body = (
            f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{code}</title></head><body>'
            f"{error_banner(dict(self.failures))}<p>{code} {html.escape(message or HTTPStatus(code).phrase)}</p>"
            f"{RELOAD_SCRIPT}</body></html>"
        ).encode()
        self.send_response(code, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # the stdlib signature
        pass

    allowed_hosts: frozenset[str]

    def handle(self) -> None:
        """A client that goes away mid-answer is no error of ours: no traceback."""
        with contextlib.suppress(BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError):
            super().handle()

    def do_GET(self) -> None:  # the stdlib name
        try:
            self._answer()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            pass
        except (OSError, ValueError, UnicodeError):  # a path the file system cannot hold (NUL, too long, …)
            self.send_error(HTTPStatus.NOT_FOUND)

    def do_HEAD(self) -> None:  # the stdlib name
        self.do_GET()

    def _answer(self) -> None:
        host = (self.headers.get("Host") or "").strip().lower()
        if host not in self.allowed_hosts:
            # DNS rebinding: a page on another site whose name resolves to 127.0.0.1 must not read the notes
            self.send_error(HTTPStatus.FORBIDDEN, "Host not allowed")
            return
        if len(self.path) > 2048 or "\x00" in self.path or "%00" in self.path:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        if self.path.split("?")[0] == EVENTS_PATH:
            self._events()
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
            inject = error_banner(dict(self.failures)) + RELOAD_SCRIPT
            body = resolved.read_bytes().replace(b"</body>", inject.encode() + b"</body>", 1)
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        client = self.broadcaster.subscribe()
        try:
            self.wfile.write(b": connected\n\n")
            self.wfile.flush()
            while not self.stopping.is_set():
                try:
                    data = client.get(timeout=0.5)
                except queue.Empty:
                    continue
                self.wfile.write(f"event: reload\ndata: {data}\n\n".encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            self.broadcaster.unsubscribe(client)


class PreviewServer:
    def __init__(self, source_dir: str, host: str, port: int, echo: Any, trust_templates: bool = False) -> None:
        self.source_dir = source_dir
        self.trust_templates = trust_templates
        self.out_dir = tempfile.mkdtemp(prefix="confnotes-serve-")
        self.echo = echo
        self.broadcaster = Broadcaster()
        self.stopping = threading.Event()
        self.failures: dict[str, str] = {}
        handler: type[PreviewHandler] = type(
            "Handler",
            (PreviewHandler,),
            {
                "broadcaster": self.broadcaster,
                "stopping": self.stopping,
                "failures": self.failures,
                "allowed_hosts": frozenset(),
            },
        )
        try:
            self.httpd = ThreadingHTTPServer((host, port), partial(handler, directory=self.out_dir))
        except OSError:
            shutil.rmtree(self.out_dir, ignore_errors=True)  # a port in use leaves nothing behind
            raise
        self.httpd.daemon_threads = True
        bound = self.httpd.server_address[1]
        names = (host.lower(), "127.0.0.1", "localhost", "[::1]")
        handler.allowed_hosts = frozenset(f"{name}:{bound}" for name in names) | (frozenset(names) if bound == 80 else frozenset())

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        host = host.decode() if isinstance(host, bytes) else host
        return f"http://{host}:{port}/"

    def rebuild(self) -> list[str]:
        """Build what changed; a note that fails keeps its last good files and its error is shown on every page.
        An error that stops the whole build (a broken config) is shown the same way, and the watcher goes on."""
        from confnotes.config import config_for_folder
        from confnotes.errors import NotesError
        from confnotes.ignore import config_excludes

        try:
            config = config_for_folder(self.source_dir)  # its [build] exclude, as `confnotes build` skips them
            excluded = config_excludes(config.build.exclude, config.path)
            report = build_site(
                BuildRequest(
                    self.source_dir,
                    self.out_dir,
                    SERVE_FORMATS,
                    jobs=1,
                    exclude=excluded,
                    keep_failed=True,
                    trust_templates=self.trust_templates,
                )
            )
        except NotesError as exc:
            self.failures.clear()
            self.failures["*"] = str(exc)
            self.echo(f"failed: {exc}", err=True)
            return ["*"]
        fixed = [rel for rel in self.failures if rel not in dict(report.failed)]
        self.failures.clear()
        self.failures.update(report.failed)
        for _rel, reason in report.failed:
            self.echo(f"failed: {reason}", err=True)
        return report.rendered + report.removed + [rel for rel, _ in report.failed] + fixed

    def watch(self) -> None:
        from watchfiles import watch

        for changes in watch(
            self.source_dir,
            stop_event=self.stopping,
            debounce=150,
            step=50,
            watch_filter=lambda _change, path: path.endswith((".md", ".markdown", ".toml", ".css", ".html")),
        ):
            if self.stopping.is_set():
                break
            try:
                changed = self.rebuild()
            except Exception as exc:  # noqa: BLE001 - the watcher must outlive any one bad save
                self.failures.clear()
                self.failures["*"] = f"{type(exc).__name__}: {exc}"
                self.echo(f"failed: {type(exc).__name__}: {exc}", err=True)
                changed = ["*"]
            if changed:
                self.echo(f"rebuilt {', '.join(changed)}")
                self.broadcaster.send(",".join(changed))
            elif changes:
                self.broadcaster.send("")

    def run(self) -> None:
        watcher = threading.Thread(target=self.watch, daemon=True)

        def terminate(_signum: int, _frame: Any) -> None:
            raise KeyboardInterrupt  # SIGTERM stops like Ctrl-C: the temporary folder is removed

        previous = signal.signal(signal.SIGTERM, terminate) if threading.current_thread() is threading.main_thread() else None
        try:  # Ctrl-C at any moment, even during the first build, stops cleanly
            self.rebuild()
            watcher.start()
            self.echo(f"Serving {self.source_dir} at {self.url} (Ctrl-C stops)")
            self.httpd.serve_forever(poll_interval=0.2)
        except KeyboardInterrupt:
            pass
        finally:
            self.stopping.set()
            self.httpd.server_close()
            if watcher.is_alive():
                watcher.join(timeout=2)
            shutil.rmtree(self.out_dir, ignore_errors=True)
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
            self.echo("stopped")
