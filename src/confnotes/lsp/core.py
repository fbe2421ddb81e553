"""The server: the latest analysis per open note, debounce and stale-work cancellation.

Every answer comes from ``lsp.analysis`` (the CLI's own functions) through ``lsp.features``; this
module only decides *when* to run them: findings are shown once typing pauses for ``debounceMs``
(or every half second of steady typing), the analysis of an edit made after a pause starting as
long before that as the last ones took; one analysis runs at a time in a worker thread, a queued
analysis of an outdated version is dropped, and a finished one whose version is no longer current
is never published (but for a due one during steady typing).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import traceback
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcContentModified, JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from confnotes._version import __version__
from confnotes.errors import ErrorKind, NotesError
from confnotes.lsp import features
from confnotes.lsp.analysis import Analysis, analyse
from confnotes.lsp.options import ServerOptions
from confnotes.lsp.positions import UTF16
from confnotes.lsp.protocol import NotesProtocol, RequestFailed

logger = logging.getLogger(__name__)


T = TypeVar("T")


CONFIG_GLOBS = ("**/confnotes.toml", "**/pyproject.toml")


#: the notification an editor may send as its cursor moves (the live preview follows it)
CURSOR = "confnotes/cursor"


#: how often the server looks at config files when the editor watches none for it
CONFIG_POLL_SECONDS = 1.0


#: the longest the first build of a preview is waited for (a guard, not a target)
PREVIEW_PATIENCE = 120.0


#: a path for a buffer that is not a file (``untitled:``): read as ``lint -`` reads standard input
UNSAVED = "<stdin>"


@dataclass
class Run:
    """One analysis of one version, queued or running in the worker thread."""

    key: tuple[int | None, int]  # (document version, settings generation)
    future: asyncio.Future[Analysis]
    kept: bool = False  # a due publication waits on it: a newer version does not drop it


#: While typing goes on, findings are shown at least this often (seconds).
MAX_STALE = 0.5


#: How many of a note's last analysis times say how early the next one starts: it starts a quarter
#: longer before the findings are due than the longest of them took (an edit that adds lines reads
#: more of the note again than one that adds a word).
TOOK_KEPT = 8


def publish_times(now: float, stale_since: float, debounce: float, took: float) -> tuple[float, float]:
    """When to start analysing a note that changed at ``now`` and when to show the findings: the
    findings once typing has paused for ``debounce`` seconds, or ``MAX_STALE`` after the shown ones
    went stale (``stale_since``), whichever is first; the analysis as long before that as the last
    one took (``took``, at most the wait), and never before the change."""
    show = min(now + debounce, max(now, stale_since + MAX_STALE))
    return max(now, show - min(took, debounce)), show


def expected(took: tuple[float, ...]) -> float:
    """How long the next analysis of a note is expected to take: a quarter more than the longest of
    its last ones (``TOOK_KEPT``); 0 before the first."""
    return 1.25 * max(took) if took else 0.0


def steady_due(now: float, stale_since: float, took: tuple[float, ...]) -> bool:
    """Whether a change at ``now`` in steady typing starts the analysis whose findings end
    ``MAX_STALE`` of stale findings: it starts as long before that as the last analyses took (a
    quarter more than the longest, at most half of ``MAX_STALE``), so they show when it is up, not
    an analysis later."""
    lead = min(expected(took), MAX_STALE / 2)
    return now >= stale_since + MAX_STALE - lead


class NotesServer(LanguageServer):
    """A pygls server that keeps, per open note, its latest analysis and at most one run in flight."""

    def __init__(self) -> None:
        super().__init__("confnotes", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental, protocol_cls=NotesProtocol)
        self.options = ServerOptions()
        self.shut_down = False  # a shutdown request came: exit says 0
        self.generation = 0  # bumped when settings or a config file change: every analysis is stale
        self.analyses: dict[str, Analysis] = {}
        self.keys: dict[str, tuple[int | None, int]] = {}
        self.runs: dict[str, Run] = {}
        self.timers: dict[str, asyncio.Task[None]] = {}
        #: per open note: when its shown findings went stale (the first change since they were
        #: published), and how long its last analysis took (``changed``)
        self.stale_since: dict[str, float] = {}
        self.took: dict[str, tuple[float, ...]] = {}
        self.last_change: dict[str, float] = {}
        self.due: dict[str, asyncio.Task[None]] = {}  # a publication steady typing made due (``changed``)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="confnotes-analysis")
        #: live previews the editor opened (``confnotes.preview``), by note path, and the slide each shows
        self.previews: dict[str, Any] = {}
        self.config_poll: asyncio.Task[None] | None = None  # looking at config files (``_poll_config_files``)
        self.config_seen: dict[str, tuple[tuple[str, int, int], ...]] = {}
        self.shown_slides: dict[str, int] = {}
        self.cursor_lines: dict[str, int] = {}  # the line of the cursor in each previewed note (0-based)
        self.background: set[asyncio.Task[None]] = set()  # tasks nobody awaits, kept until they end
        self.workspace_notes: dict[str, tuple[int, int, list[tuple[str, int, str]]]] = {}
        self.published: dict[str, int | None] = {}
        self.shown: set[str] = set()  # messages shown once (a broken config concerns every note)
        self.pending_warnings: list[str] = []

    # ------------------------------------------------------------ documents

    @property
    def wire(self) -> NotesProtocol:
        """The protocol, as the class this server made it with (``protocol_cls``)."""
        assert isinstance(self.protocol, NotesProtocol)
        return self.protocol

    @property
    def encoding(self) -> str:
        encoding = self.server_capabilities.position_encoding if self.protocol.server_capabilities else None
        return str(encoding) if encoding else UTF16

    def document(self, uri: str) -> TextDocument | None:
        """The open document ``uri`` names, however the editor encoded it: pygls files documents under
        the decoded URI, so ``file:///my%20notes/talk.md`` (as VS Code and Neovim send it) and
        ``file:///my notes/talk.md`` are one note. The one lookup of an open note in the server."""
        found: TextDocument | None = self.workspace.text_documents.get(unquote(uri))
        return found

    def open_document(self, uri: str) -> TextDocument:
        """The open note ``uri`` names, or an error answer: the server reads only what the editor opened
        and sent it (pygls would otherwise read any URI from disk — ``file:///dev/zero``, a FIFO)."""
        document = self.document(uri)
        if document is None:
            raise JsonRpcInvalidParams(message=f"confnotes: {uri} is not open in the editor; open the note first")
        return document

    def open_uris(self) -> list[str]:
        """Every open note's URI as its editor sent it: what its diagnostics are published under."""
        return [document.uri for document in self.workspace.text_documents.values()]

    def path_of(self, uri: str) -> str:
        path = to_fs_path(uri) if uri.startswith("file:") else None
        return path or UNSAVED

    def workspace_root(self, path: str) -> str | None:
        roots = [to_fs_path(folder.uri) for folder in self.workspace.folders.values()] or [self.workspace.root_path]
        found = [root for root in roots if root and (path == root or path.startswith(root.rstrip(os.sep) + os.sep))]
        return max(found, key=len) if found else None

    async def current(self, uri: str, keep: bool = False) -> Analysis:
        """The analysis of the document's current version under the current settings (run if needed);
        with ``keep``, one a newer version does not drop (``_publish_due``)."""
        document = self.open_document(uri)
        key = (document.version, self.generation)
        cached = self.analyses.get(uri)
        if cached is not None and self.keys.get(uri) == key:
            return cached
        run = self.runs.get(uri)
        if run is None or run.key != key:
            if run is not None and not run.future.done() and not run.kept:
                run.future.cancel()  # queued behind the worker: never starts; running: its result is dropped
            path = self.path_of(uri)
            loop = asyncio.get_running_loop()
            args = (path, document.source, document.version, self.workspace_root(path), self.options.max_bytes)
            future = loop.run_in_executor(self.worker, self._timed, uri, args, self.options, self.encoding)
            run = self.runs[uri] = Run(key, future, keep)
        elif keep:
            run.kept = True
        try:
            analysis = await asyncio.shield(run.future)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if run.future.cancelled() and task is not None and not task.cancelling():
                # a newer version replaced this run: LSP's answer for "ask again"
                raise JsonRpcContentModified(message="the note changed while confnotes read it") from None
            raise
        if self.runs.get(uri) is run:
            del self.runs[uri]
        latest = self.document(uri)
        if latest is None or (latest.version, self.generation) == key:
            self.analyses[uri], self.keys[uri] = analysis, key
        return analysis

    def _timed(self, uri: str, args: tuple[Any, ...], options: ServerOptions, encoding: str) -> Analysis:
        """``analyse`` in the worker, recording how long the reading itself took (not its wait in the
        queue); the findings' notification is serialised here too, so the event loop, when they are
        due, only writes it (``publish``)."""
        started = time.perf_counter()
        try:
            analysis = analyse(*args)
            if not self.pulls:
                analysis.message = (options, encoding, self.wire.serialised(self._notification(uri, analysis, options, encoding)))
            return analysis
        finally:
            self.took[uri] = (*self.took.get(uri, ())[-(TOOK_KEPT - 1) :], time.perf_counter() - started)

    @staticmethod
    def _notification(uri: str, analysis: Analysis, options: ServerOptions, encoding: str) -> lsp.PublishDiagnosticsNotification:
        diagnostics = features.diagnostics(analysis, options, encoding)
        return lsp.PublishDiagnosticsNotification(lsp.PublishDiagnosticsParams(uri=uri, version=analysis.version, diagnostics=diagnostics))

    def schedule(self, uri: str, delay: float) -> None:
        """Analyse and publish after ``delay`` seconds unless another change comes first."""
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        loop = asyncio.get_running_loop()
        self.timers[uri] = loop.create_task(self._publish_after(uri, delay, loop.time() + delay))

    def changed(self, uri: str) -> None:
        """A change while the editor types: findings are shown once typing pauses for ``debounceMs``,
        or when they have been stale for ``MAX_STALE`` seconds of steady typing. The analysis of an
        edit made after a pause starts as long before that as the last ones took (``publish_times``,
        ``TOOK_KEPT``), so it is ready then."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        arrived = self.wire.arrived
        if arrived is not None and arrived <= now:
            now = arrived  # the pause is counted from the change's arrival, not from when it was applied
        due = self.due.get(uri)
        on_its_way = due is not None and not due.done()  # the next publication after it waits for a pause
        since = now if on_its_way else self.stale_since.setdefault(uri, now)
        took = self.took.get(uri, ())
        debounce = self.options.debounce_ms / 1000
        # an edit after a pause (a line deleted, a word pasted) starts its analysis early; one in a
        # run of keys does not, or every key would start an analysis the next one throws away
        quiet = now - self.last_change.get(uri, float("-inf")) >= debounce
        self.last_change[uri] = now
        ahead = expected(took) if quiet else 0.0
        start, show = publish_times(now, since, debounce, ahead)
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        if steady_due(now, since, took) and not on_its_way and not self.pulls:  # (an editor that pulls asks when it wants them)
            # stale for half a second of steady typing, less an analysis: this version's findings are shown when ready,
            # whatever comes after it; the pause's own publication still follows
            self.due[uri] = loop.create_task(self._publish_due(uri))
            start, show = publish_times(now, now, debounce, ahead)
        self.timers[uri] = loop.create_task(self._publish_after(uri, start - now, show))

    async def _publish_due(self, uri: str) -> None:
        """Publish the findings of the version current now, even once typing has gone past it (better
        than none while it goes on), unless newer ones were published first."""
        generation = self.generation
        try:
            analysis = await self.current(uri, keep=True)
        except (asyncio.CancelledError, JsonRpcContentModified):
            return
        except Exception as exc:  # noqa: BLE001 - a bug: say so, keep serving
            self.internal_error("diagnostics", exc)
            return
        document = self.document(uri)
        shown = self.published.get(uri)
        if (
            document is None
            or generation != self.generation
            or (shown is not None and analysis.version is not None and shown >= analysis.version)
        ):
            return  # closed, read under settings since changed, or newer findings shown first
        self.publish(uri, analysis)
        if document.version != analysis.version:
            self.stale_since[uri] = asyncio.get_running_loop().time()  # typing went on: stale from now

    async def _publish_after(self, uri: str, delay: float, show: float) -> None:
        loop = asyncio.get_running_loop()
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            analysis = await self.current(uri)
            if show > loop.time():
                await asyncio.sleep(show - loop.time())  # never before the pause the editor asked for
        except (asyncio.CancelledError, JsonRpcContentModified):
            return  # a newer change has its own timer
        except Exception as exc:  # noqa: BLE001 - a bug: say so, keep serving
            self.internal_error("diagnostics", exc)
            return
        document = self.document(uri)
        if document is None or document.version != analysis.version:
            return  # a newer version is on its way
        self.publish(uri, analysis)

    @property
    def pulls(self) -> bool:
        """Whether the editor asks for findings (``textDocument/diagnostic``, LSP 3.17): then the
        server answers those and pushes none, so no finding shows twice."""
        text_document = self.client_capabilities.text_document if self.client_capabilities else None
        return bool(text_document and text_document.diagnostic)

    def publish(self, uri: str, analysis: Analysis) -> None:
        if analysis.error is not None and analysis.error.kind == ErrorKind.CONFIG:
            self.show(f"confnotes: {analysis.error}", lsp.MessageType.Error, once=True)  # every note is affected
        if self.pulls:
            self.published[uri] = analysis.version
            self.stale_since.pop(uri, None)
            return
        ready = analysis.message
        if ready is not None and ready[0] is self.options and ready[1] == self.encoding:
            self.wire.send_serialised(ready[2])
        else:  # settings changed since it was read (their own analysis follows)
            self.protocol.notify(
                lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, self._notification(uri, analysis, self.options, self.encoding).params
            )
        self.published[uri] = analysis.version
        self.stale_since.pop(uri, None)

    def refresh_all(self) -> None:
        """Settings or a config file changed: re-analyse and republish every open note (an editor
        that pulls findings is asked to pull again)."""
        self.generation += 1
        self.shown.clear()
        workspace = self.client_capabilities.workspace if self.client_capabilities else None
        if self.pulls and workspace and workspace.diagnostics and workspace.diagnostics.refresh_support:
            self.workspace_diagnostic_refresh(None)
        for uri in self.open_uris():
            self.schedule(uri, 0)
        self.workspace_notes.clear()

    # ------------------------------------------------------------ messages

    def show(self, message: str, kind: lsp.MessageType = lsp.MessageType.Warning, once: bool = False) -> None:
        if once:
            if message in self.shown:
                return
            self.shown.add(message)
        self.window_show_message(lsp.ShowMessageParams(type=kind, message=message))

    def internal_error(self, where: str, exc: BaseException) -> None:
        detail = "".join(traceback.format_exception(exc))
        logger.error("confnotes lsp: %s failed\n%s", where, detail)
        self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error, message=f"confnotes: {where} failed\n{detail}"))
        self.show(f"confnotes: internal error in {where}: {exc!r} (a bug; the log has the traceback)", lsp.MessageType.Error)


server = NotesServer()


Handler = Callable[[NotesServer, Any], Awaitable[T]]


def guarded(method: str) -> Callable[[Handler[T]], Handler[T]]:
    """A request that raises answers with an error, shows a message and leaves the server serving.
    A note confnotes cannot read (``NotesError``) is the user's problem, worded as the CLI words it."""

    def decorate(handler: Handler[T]) -> Handler[T]:
        @wraps(handler)
        async def run(ls: NotesServer, params: Any) -> T:
            try:
                return await handler(ls, params)
            except NotesError as exc:
                ls.show(f"confnotes: {exc}")
                raise RequestFailed(message=str(exc)) from None
            except (JsonRpcException, asyncio.CancelledError):
                raise
            except Exception as exc:  # noqa: BLE001 - a bug: an error answer and a message, and serve on
                ls.internal_error(method, exc)
                raise JsonRpcInternalError(message=f"confnotes: {method} failed: {exc!r}") from None

        return run

    return decorate
