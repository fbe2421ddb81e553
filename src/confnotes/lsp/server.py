"""The language server: pygls wiring, the latest analysis per open document, debounce and stale-work cancellation.

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
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import TextDocument

from confnotes._version import __version__
from confnotes.errors import ErrorKind, NotesError
from confnotes.lsp import features
from confnotes.lsp.analysis import Analysis, analyse, fixed_text, formatted_text, silences
from confnotes.lsp.options import ServerOptions, read_options
from confnotes.lsp.positions import UTF16

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


class RequestFailed(JsonRpcException):
    """LSP's ``RequestFailed``: the request was valid, the note is not (the CLI would exit 2)."""

    CODE = -32803
    MESSAGE = "RequestFailed"


class NotesProtocol(LanguageServerProtocol):
    """pygls' protocol, but a request whose parameters cannot be read still gets an answer (an error);
    pygls only logs it, and a client waiting for that answer waits for ever. And a handler's future
    is let go once it is done: pygls (2.1) files the future of each handler it runs as a coroutine,
    a thread or a generator under the message's id — a made-up one for a notification (``didChange``)
    and for each step of its built-in generator handlers — and only a request's answer removes its
    own, so a server kept every keystroke's futures (about 1 KB each)."""

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any, args: Any = None, kwargs: Any = None) -> None:
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        futures = getattr(self, "_request_futures", None)
        if not isinstance(futures, dict) or (future := futures.get(msg_id)) is None:
            return
        filed: dict[Any, Any] = futures  # a request's answer removes its own first; a cancelled one, pygls
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return

        def remove(done: Any) -> None:
            if filed.get(msg_id) is done:
                del filed[msg_id]

        # removed on the loop's thread, later: a thread's future runs its callbacks in the worker, or at
        # once when cancelled, and pygls' shutdown cancels them while it walks this very dict
        def let_go(done: Any) -> None:
            if not loop.is_closed():
                loop.call_soon_threadsafe(remove, done)

        future.add_done_callback(let_go)

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "id" in data and "method" in data:
                self._send_response(data["id"], error=exc.to_response_error())
            raise


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
        self.workspace_notes: dict[str, tuple[int, int, list[tuple[str, int, str]]]] = {}
        self.published: dict[str, int | None] = {}
        self.shown: set[str] = set()  # messages shown once (a broken config concerns every note)
        self.pending_warnings: list[str] = []

    # ------------------------------------------------------------ documents

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
            future = loop.run_in_executor(
                self.worker, self._timed, uri, path, document.source, document.version, self.workspace_root(path), self.options.max_bytes
            )
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

    def _timed(self, uri: str, *args: Any) -> Analysis:
        """``analyse`` in the worker, recording how long the reading itself took (not its wait in the queue)."""
        started = time.perf_counter()
        try:
            return analyse(*args)
        finally:
            self.took[uri] = (*self.took.get(uri, ())[-(TOOK_KEPT - 1) :], time.perf_counter() - started)

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
        due = self.due.get(uri)
        on_its_way = due is not None and not due.done()  # the next publication after it waits for a pause
        since = now if on_its_way else self.stale_since.setdefault(uri, now)
        took = self.took.get(uri, ())
        debounce = self.options.debounce_ms / 1000
        # an edit after a pause (a line deleted, a word pasted) starts its analysis early; one in a
        # run of keys does not, or every key would start an analysis the next one throws away
        quiet = now - self.last_change.get(uri, float("-inf")) >= debounce
        self.last_change[uri] = now
        ahead = 1.25 * max(took) if took and quiet else 0.0
        start, show = publish_times(now, since, debounce, ahead)
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        if now >= since + MAX_STALE and not on_its_way and not self.pulls:  # (an editor that pulls asks when it wants them)
            # stale for half a second of steady typing: this version's findings are shown when ready,
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
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(
                uri=uri, version=analysis.version, diagnostics=features.diagnostics(analysis, self.options, self.encoding)
            )
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


# ---------------------------------------------------------------- lifecycle and settings


@server.feature(lsp.INITIALIZE)
def initialize(ls: NotesServer, params: lsp.InitializeParams) -> None:
    options, warnings = read_options(params.initialization_options)
    ls.options = options
    ls.pending_warnings = warnings  # shown once the client is initialized
    if params.process_id:
        asyncio.get_running_loop().create_task(_watch_editor(params.process_id))


#: How often the server looks whether the editor that started it still runs.
WATCHDOG_SECONDS = 3.0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process (it runs), or a platform that cannot tell
    return True


async def _watch_editor(pid: int) -> None:
    """The spec's ``processId``: when the editor that started the server is gone (killed, crashed,
    never said exit), the server exits too, instead of running on as an orphan."""
    while _alive(pid):
        await asyncio.sleep(WATCHDOG_SECONDS)
    logger.warning("the editor (process %d) is gone; exiting", pid)
    os._exit(1)  # the event loop may be blocked on a pipe nobody writes to


@server.feature(lsp.SHUTDOWN)
def shutdown(ls: NotesServer, _params: Any) -> None:
    ls.shut_down = True
    for preview in ls.previews.values():
        preview.stop()  # its temporary site is removed
    ls.previews.clear()


@server.feature(lsp.INITIALIZED)
async def initialized(ls: NotesServer, _params: lsp.InitializedParams) -> None:
    for warning in ls.pending_warnings:
        ls.show(f"confnotes: {warning}", once=True)
    capabilities = ls.client_capabilities
    watched = capabilities.workspace and capabilities.workspace.did_change_watched_files
    if not (watched and watched.dynamic_registration and await _watch_config_files(ls)):
        # the editor watches no files for servers (Neovim before 0.9, Helix): the server looks itself
        ls.config_poll = asyncio.get_running_loop().create_task(_poll_config_files(ls))
    await pull_settings(ls)


async def _watch_config_files(ls: NotesServer) -> bool:
    """Ask the client to say when a confnotes.toml or pyproject.toml changes on disk; whether it agreed."""
    watchers = [lsp.FileSystemWatcher(glob_pattern=glob) for glob in CONFIG_GLOBS]
    registration = lsp.Registration(
        id="confnotes-config-files",
        method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=lsp.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
    )
    try:
        await ls.client_register_capability_async(lsp.RegistrationParams(registrations=[registration]))
    except Exception as exc:  # noqa: BLE001 - a client that advertises the capability but refuses it
        logger.warning("the editor cannot watch config files (%s); the server looks at them itself", exc)
        return False
    return True


def _config_files(folders: list[tuple[str, str | None]]) -> dict[str, tuple[tuple[str, int, int], ...]]:
    """For each folder from an open note's up to its workspace root (or the file system's), the
    configs confnotes would find there, with their modification times and sizes."""
    found: dict[str, tuple[tuple[str, int, int], ...]] = {}
    for start, stop in folders:
        folder = start
        while folder not in found:
            present = []
            for name in ("confnotes.toml", "pyproject.toml"):
                candidate = os.path.join(folder, name)
                try:
                    stat = os.stat(candidate)
                except OSError:
                    continue
                present.append((candidate, stat.st_mtime_ns, stat.st_size))
            found[folder] = tuple(present)
            parent = os.path.dirname(folder)
            if folder == stop or parent == folder:
                break
            folder = parent
    return found


def _config_folders(ls: NotesServer, paths: list[str]) -> list[tuple[str, str | None]]:
    return [(os.path.dirname(os.path.abspath(path)), ls.workspace_root(path)) for path in paths if path != UNSAVED]


def remember_configs(ls: NotesServer, path: str) -> None:
    """The configs above a note just opened, as its first reading finds them: what the server's own
    looking compares with (a config written a moment after the note opened is a change)."""
    if ls.config_poll is not None:
        for folder, configs in _config_files(_config_folders(ls, [path])).items():
            ls.config_seen.setdefault(folder, configs)


async def _poll_config_files(ls: NotesServer) -> None:
    """Re-check every open note when a config in one of their folders is created, changed or removed."""
    loop = asyncio.get_running_loop()
    while not ls.shut_down:
        try:
            folders = _config_folders(ls, [ls.path_of(uri) for uri in ls.open_uris()])
            current = await loop.run_in_executor(None, _config_files, folders)  # file system calls, off the loop
            seen = ls.config_seen
            if any(folder in seen and seen[folder] != configs for folder, configs in current.items()):
                logger.info("a config file changed; checking the open notes again")
                ls.refresh_all()
            seen.update(current)
        except Exception:  # a bug: logged, and the looking goes on
            logger.exception("looking at config files failed")
        await asyncio.sleep(CONFIG_POLL_SECONDS)


async def pull_settings(ls: NotesServer) -> None:
    """Ask the client for the ``confnotes`` section (editors that push nothing answer this)."""
    workspace = ls.client_capabilities.workspace
    if not (workspace and workspace.configuration):
        return
    try:
        answer = await ls.workspace_configuration_async(lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section="confnotes")]))
    except Exception as exc:  # noqa: BLE001 - a client that advertises configuration but cannot answer
        logger.warning("workspace/configuration failed: %s", exc)
        return
    if answer and isinstance(answer[0], dict) and answer[0]:
        apply_settings(ls, answer[0])


def apply_settings(ls: NotesServer, raw: Any) -> None:
    options, warnings = read_options(raw)
    for warning in warnings:
        ls.show(f"confnotes: {warning}", once=True)
    if options != ls.options:
        ls.options = options
        ls.refresh_all()


@server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: NotesServer, params: lsp.DidChangeConfigurationParams) -> None:
    if isinstance(params.settings, dict) and params.settings:
        apply_settings(ls, params.settings)
    else:  # the pull model: the notification only says "ask again"
        await pull_settings(ls)


@server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: NotesServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    if any(change.uri.endswith(("confnotes.toml", "pyproject.toml")) for change in params.changes):
        ls.refresh_all()


# ---------------------------------------------------------------- document sync


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: NotesServer, params: lsp.DidOpenTextDocumentParams) -> None:
    if params.text_document.uri.endswith((".toml",)):
        return
    from confnotes.parse import incremental

    incremental.track(ls.path_of(params.text_document.uri))  # each re-reading parses only what an edit changed
    remember_configs(ls, ls.path_of(params.text_document.uri))
    ls.schedule(params.text_document.uri, 0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: NotesServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.changed(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: NotesServer, params: lsp.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    if uri.endswith(("confnotes.toml", "pyproject.toml")):
        ls.refresh_all()  # a config edited in the editor itself
    elif (document := ls.document(uri)) is not None and ls.published.get(uri) != document.version:
        ls.schedule(uri, 0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: NotesServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    for task in (ls.timers.pop(uri, None), ls.due.pop(uri, None)):
        if task is not None:
            task.cancel()
    ls.stale_since.pop(uri, None)
    ls.took.pop(uri, None)
    ls.last_change.pop(uri, None)
    ls.analyses.pop(uri, None)
    from confnotes.parse import incremental

    incremental.forget(ls.path_of(uri))
    ls.keys.pop(uri, None)
    ls.published.pop(uri, None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


# ---------------------------------------------------------------- requests


@server.feature(lsp.TEXT_DOCUMENT_DIAGNOSTIC, lsp.DiagnosticOptions(inter_file_dependencies=False, workspace_diagnostics=False))
@guarded("diagnostic")
async def pull_diagnostics(ls: NotesServer, params: lsp.DocumentDiagnosticParams) -> lsp.RelatedFullDocumentDiagnosticReport:
    """The findings of an open note when the editor asks (the pull model), the same as pushed ones."""
    analysis = await ls.current(params.text_document.uri)
    return lsp.RelatedFullDocumentDiagnosticReport(items=features.diagnostics(analysis, ls.options, ls.encoding))


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
@guarded("formatting")
async def formatting(ls: NotesServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    """fmt's text, all or nothing: a refusal is a message and an error answer, never half a format."""
    analysis = await ls.current(params.text_document.uri)
    new_text = await asyncio.get_running_loop().run_in_executor(ls.worker, formatted_text, analysis)
    return features.whole(analysis, new_text, ls.encoding)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guarded("documentSymbol")
async def document_symbol(ls: NotesServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    return features.document_symbols(await ls.current(params.text_document.uri), ls.encoding)


@server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
@guarded("foldingRange")
async def folding_range(ls: NotesServer, params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange]:
    return features.folding_ranges(await ls.current(params.text_document.uri))


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
@guarded("hover")
async def hover(ls: NotesServer, params: lsp.HoverParams) -> lsp.Hover | None:
    if not ls.options.hover:
        return None
    return features.hover(await ls.current(params.text_document.uri), params.position, ls.encoding)


@server.feature(lsp.TEXT_DOCUMENT_CODE_LENS)
@guarded("codeLens")
async def code_lens(ls: NotesServer, params: lsp.CodeLensParams) -> list[lsp.CodeLens]:
    if not ls.options.code_lens:
        return []
    uri = params.text_document.uri
    analysis = await ls.current(uri)
    return await asyncio.get_running_loop().run_in_executor(ls.worker, features.code_lenses, analysis, uri)


@server.command(features.SHOW_TIMING)
@guarded("showTiming")
async def show_timing(ls: NotesServer, uri: str) -> None:
    analysis = await ls.current(uri)
    ls.show(features.timing_table(analysis), lsp.MessageType.Info)


@server.command(features.PREVIEW)
@guarded("preview")
async def preview(ls: NotesServer, uri: str) -> None:
    """Opens the note's deck, live (``confnotes serve NOTE`` on a free loopback port, in this process)
    in the browser; from then on the deck shows the slide under the editor's cursor."""
    path = ls.path_of(uri)
    if not os.path.isfile(path):
        ls.show("confnotes: save the note first; the preview is built from the file", lsp.MessageType.Info)
        return
    running = ls.previews.get(path)
    if running is None:
        running = ls.previews[path] = await asyncio.get_running_loop().run_in_executor(None, _start_preview, path)
    page = running.page_of(path, "slides")
    if page is None:
        ls.show(f"confnotes: the preview could not build the note; {running.failures.get('*') or 'see the log'}", lsp.MessageType.Error)
        return
    from urllib.parse import quote

    address = running.url + quote(page)
    window = ls.client_capabilities.window if ls.client_capabilities else None
    if window is not None and window.show_document is not None and window.show_document.support:
        await ls.window_show_document_async(lsp.ShowDocumentParams(uri=address, external=True))
    else:
        ls.show(f"confnotes: the deck is at {address}", lsp.MessageType.Info)


def _start_preview(path: str) -> Any:
    """A preview server of the one note, running in a thread, once its first build is done."""
    import threading
    import time

    from confnotes.serve import PreviewServer

    def echo(text: str, err: bool = False) -> None:
        (logger.warning if err else logger.info)("preview: %s", text)

    running = PreviewServer(os.path.dirname(path), "127.0.0.1", 0, echo, note=path)
    threading.Thread(target=running.run, name="confnotes-preview", daemon=True).start()
    waited = 0.0
    while running.page_of(path, "slides") is None and not running.failures and waited < PREVIEW_PATIENCE:
        time.sleep(0.05)
        waited += 0.05
    return running


async def follow_cursor(ls: NotesServer, uri: str, line: int) -> None:
    """The editor's cursor is on ``line`` (0-based): an open preview of the note shows the slide there."""
    path = ls.path_of(uri)
    running = ls.previews.get(path)
    if running is None:
        return
    analysis = ls.analyses.get(uri) or await ls.current(uri)  # the last reading: a cursor never waits for one
    slide = await asyncio.get_running_loop().run_in_executor(ls.worker, features.slide_at, analysis, line + 1)
    page = running.page_of(path, "slides")
    if page is not None and ls.shown_slides.get(path) != slide:
        ls.shown_slides[path] = slide
        running.go_to(page, slide)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
@guarded("documentHighlight")
async def document_highlight(ls: NotesServer, params: lsp.DocumentHighlightParams) -> list[lsp.DocumentHighlight] | None:
    """Editors ask this as the cursor moves (VS Code at once; Neovim on ``CursorHold`` with
    ``vim.lsp.buf.document_highlight()``): the live preview follows. Nothing is highlighted."""
    await follow_cursor(ls, params.text_document.uri, params.position.line)
    return None


@server.feature(CURSOR)
@guarded("cursor")
async def cursor(ls: NotesServer, params: Any) -> None:
    """``confnotes/cursor`` ``{textDocument: {uri}, position: {line, character}}``: the same, for an
    editor set up to send it (docs/editors.md)."""
    await follow_cursor(ls, params.textDocument.uri, int(params.position.line))


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "-", ":"]))
@guarded("completion")
async def completion(ls: NotesServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    document = ls.open_document(params.text_document.uri)
    items = features.completions(document.source, params.position, ls.encoding)
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_LINK)
@guarded("documentLink")
async def document_link(ls: NotesServer, params: lsp.DocumentLinkParams) -> list[lsp.DocumentLink]:
    return features.document_links(await ls.current(params.text_document.uri), ls.encoding)


@server.feature(lsp.WORKSPACE_SYMBOL)
@guarded("workspaceSymbol")
async def workspace_symbol(ls: NotesServer, params: lsp.WorkspaceSymbolParams) -> list[lsp.WorkspaceSymbol]:
    roots = [to_fs_path(folder.uri) for folder in ls.workspace.folders.values()] or [ls.workspace.root_path]
    return await asyncio.get_running_loop().run_in_executor(
        ls.worker, _workspace_symbols, ls, [root for root in roots if root], params.query
    )


#: At most this many symbols answer one query (a folder of conference notes holds thousands of sections).
MAX_WORKSPACE_SYMBOLS = 1000


def _workspace_symbols(ls: NotesServer, roots: list[str], query: str) -> list[lsp.WorkspaceSymbol]:
    """Sections of every note below the workspace folders (as ``lint`` walks them): open notes from the
    editor's latest analysis, the others read once per file version (only their sections are kept)."""
    from confnotes.config import config_for_folder
    from confnotes.edges.source import discover
    from confnotes.lint.engine import build_settings
    from confnotes.load import load_note

    out: list[lsp.WorkspaceSymbol] = []
    open_docs = {ls.path_of(uri): uri for uri in ls.open_uris()}
    for root in roots:
        inside = os.path.realpath(root) + os.sep
        try:
            config = config_for_folder(root)
            notes = discover([root], tuple(build_settings(config.lint, config.path).exclude))
        except NotesError:
            continue
        for note in notes:
            path = os.path.abspath(note)
            if not os.path.realpath(path).startswith(inside):
                continue  # a link out of the workspace: the editor's workspace is what the user opened
            analysis = ls.analyses.get(open_docs.get(path, ""))
            if analysis is not None:
                if analysis.context is not None:
                    out += features.workspace_symbols(path, features.section_index(analysis.context.doc), query)
                continue
            try:
                stat = os.stat(path)
            except OSError:
                continue
            cached = ls.workspace_notes.get(path)
            if cached is None or cached[:2] != (stat.st_mtime_ns, stat.st_size):
                try:
                    sections = features.section_index(load_note(path).doc)
                except NotesError:
                    sections = []
                cached = ls.workspace_notes[path] = (stat.st_mtime_ns, stat.st_size, sections)
            out += features.workspace_symbols(path, cached[2], query)
            if len(out) >= MAX_WORKSPACE_SYMBOLS:
                return out[:MAX_WORKSPACE_SYMBOLS]
    return out[:MAX_WORKSPACE_SYMBOLS]


@server.feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.SourceFixAll, features.FIX_ALL, features.FORMAT],
        resolve_provider=True,
    ),
)
@guarded("codeAction")
async def code_action(ls: NotesServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    """Each finding's fix, "disable CNxxx on this line", "fix all" and "format note" (the last two resolved on demand)."""
    uri = params.text_document.uri
    analysis = await ls.current(uri)
    wanted = params.context.only
    encoding = ls.encoding

    def allowed(kind: str) -> bool:
        return not wanted or any(kind == only or kind.startswith(f"{only}.") for only in wanted)

    first, last = params.range.start.line + 1, params.range.end.line + 1
    here = [finding for finding in analysis.findings if first <= finding.line <= last and features.shown(finding, ls.options)]
    index_diagnostics = {(d.code, d.range.start.line): d for d in params.context.diagnostics}
    actions: list[lsp.CodeAction] = []
    disables: list[lsp.CodeAction] = []
    fixes = await _fix_mode_findings(ls, analysis) if any(f.fix is not None for f in here) else []
    if allowed(lsp.CodeActionKind.QuickFix):
        for finding in here:
            related = [d for d in (index_diagnostics.get((finding.rule, finding.line - 1)),) if d is not None]
            with_edits = next((f for f in fixes if (f.rule, f.line, f.col) == (finding.rule, finding.line, finding.col)), None)
            if with_edits is not None and with_edits.fix is not None and with_edits.fix.edits:
                actions.append(
                    lsp.CodeAction(
                        title=f"{with_edits.fix.title} ({finding.rule})",
                        kind=lsp.CodeActionKind.QuickFix,
                        diagnostics=related or None,
                        is_preferred=True,
                        edit=lsp.WorkspaceEdit(changes={uri: features.text_edits(analysis, with_edits, encoding)}),
                    )
                )
        for finding in here:
            if features.disable_edit(analysis, finding) is None:
                continue
            related = [d for d in (index_diagnostics.get((finding.rule, finding.line - 1)),) if d is not None]
            action = lsp.CodeAction(
                title=f"Disable {finding.rule} ({finding.name}) on this line",
                kind=lsp.CodeActionKind.QuickFix,
                diagnostics=related or None,
                data={"uri": uri, "action": "disable", "rule": finding.rule, "line": finding.line, "col": finding.col},
            )
            disables.append(action)
    resolve = _resolves_edits(ls)
    for action in disables:  # checked by a re-lint: resolved on demand when the client can
        resolved = action if resolve else await resolve_action(ls, action)
        if resolved.disabled is None:
            actions.append(resolved)
    if any(f.fix is not None for f in analysis.findings) and (allowed(features.FIX_ALL) or allowed(lsp.CodeActionKind.QuickFix)):
        action = lsp.CodeAction(
            title="Fix all confnotes findings in this note", kind=features.FIX_ALL, data={"uri": uri, "action": "fixAll"}
        )
        actions.append(action if resolve else await resolve_action(ls, action))
    if allowed(features.FORMAT) and analysis.context is not None:
        action = lsp.CodeAction(title="Format note (confnotes fmt)", kind=features.FORMAT, data={"uri": uri, "action": "format"})
        actions.append(action if resolve else await resolve_action(ls, action))
    return actions


async def _fix_mode_findings(ls: NotesServer, analysis: Analysis) -> list[Any]:
    """The findings as ``lint --fix`` sees them (a rule may compute its edits only when fixing)."""
    if all(f.fix is None or f.fix.edits for f in analysis.findings):
        return list(analysis.findings)

    def relint() -> list[Any]:
        from confnotes.check import Checker, LintRequest

        if analysis.source is None:
            return []
        checker = Checker(LintRequest(fix=True))
        return checker.check(analysis.source, checker.config_for(analysis.path), fix=True)[1]

    return await asyncio.get_running_loop().run_in_executor(ls.worker, relint)


def _resolves_edits(ls: NotesServer) -> bool:
    document = ls.client_capabilities.text_document
    support = document and document.code_action and document.code_action.resolve_support
    return bool(support and "edit" in support.properties)


@server.feature(lsp.CODE_ACTION_RESOLVE)
@guarded("codeAction/resolve")
async def resolve_action(ls: NotesServer, action: lsp.CodeAction) -> lsp.CodeAction:
    data = action.data if isinstance(action.data, dict) else {}
    uri = str(data.get("uri", ""))
    analysis = await ls.current(uri)
    loop = asyncio.get_running_loop()
    try:
        if data.get("action") == "fixAll":
            new_text = await loop.run_in_executor(ls.worker, fixed_text, analysis)
        elif data.get("action") == "format":
            new_text = await loop.run_in_executor(ls.worker, formatted_text, analysis)
        elif data.get("action") == "disable":
            return await _resolve_disable(ls, action, analysis, data)
        else:
            return action
    except NotesError as exc:
        action.disabled = lsp.CodeActionDisabled(reason=exc.message)
        return action
    action.edit = lsp.WorkspaceEdit(changes={uri: features.whole(analysis, new_text, ls.encoding)})
    return action


async def _resolve_disable(ls: NotesServer, action: lsp.CodeAction, analysis: Analysis, data: dict[str, Any]) -> lsp.CodeAction:
    """The directive's edit, offered only when a re-lint shows it silences that finding and nothing else."""
    where = (data.get("rule"), data.get("line"), data.get("col"))
    finding = next((f for f in analysis.findings if (f.rule, f.line, f.col) == where), None)
    edit = features.disable_edit(analysis, finding) if finding is not None else None
    if finding is None or edit is None:
        action.disabled = lsp.CodeActionDisabled(reason="the finding is gone")
        return action
    text = analysis.normalised
    start = sum(len(line) + 1 for line in text.split("\n")[: finding.line - 1])
    new_text = text[:start] + edit.new_text.replace("\r\n", "\n").replace("\r", "\n") + text[start:]
    if not await asyncio.get_running_loop().run_in_executor(ls.worker, silences, analysis, finding, new_text):
        action.disabled = lsp.CodeActionDisabled(reason="a comment here would change how confnotes reads the note")
        return action
    action.edit = lsp.WorkspaceEdit(changes={str(data.get("uri")): [edit]})
    return action


def main() -> None:
    """Serve on standard input and output until the client says exit: exit code 0 after a
    ``shutdown`` request, 1 otherwise (the spec's rule; pygls ends every way with 0)."""
    logging.basicConfig(level=logging.WARNING, format="confnotes lsp: %(levelname)s %(message)s")
    server.start_io()
    raise SystemExit(0 if server.shut_down else 1)


__all__ = ["NotesServer", "from_fs_path", "main", "server"]
