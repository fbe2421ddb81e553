"""The live preview an editor opens on a note (``confnotes.preview``), following its cursor."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcContentModified

from confnotes.lsp import features
from confnotes.lsp.core import CURSOR, PREVIEW_PATIENCE, NotesServer, guarded, logger, server


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
        document = ls.document(uri)  # the preview shows the note as the editor holds it, unsaved edits included
        held = document.source if document is not None else None
        running = ls.previews[path] = await asyncio.get_running_loop().run_in_executor(None, _start_preview, path, held)
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


def _start_preview(path: str, held: str | None) -> Any:
    """A preview server of the one note (of ``held``, the editor's text, when given), running in a
    thread, once its first build is done."""
    import threading
    import time

    from confnotes.serve import PreviewServer

    def echo(text: str, err: bool = False) -> None:
        (logger.warning if err else logger.info)("preview: %s", text)

    running = PreviewServer(os.path.dirname(path), "127.0.0.1", 0, echo, note=path)
    running.hold(path, held)
    threading.Thread(target=running.run, name="confnotes-preview", daemon=True).start()
    waited = 0.0
    while running.page_of(path, "slides") is None and not running.failures and waited < PREVIEW_PATIENCE:
        time.sleep(0.05)
        waited += 0.05
    return running


def hold_text(ls: NotesServer, uri: str, closed: bool = False) -> None:
    """The editor's text of ``uri`` changed (or it was closed): an open preview of the note shows it."""
    path = ls.path_of(uri)
    running = ls.previews.get(path)
    if running is not None:
        document = None if closed else ls.document(uri)
        running.hold(path, document.source if document is not None else None)


async def follow_cursor(ls: NotesServer, uri: str, line: int) -> None:
    """The editor's cursor is on ``line`` (0-based): an open preview of the note shows the slide there.
    The cursor never waits for a reading: the last one places it at once, and when the text changed
    since, the new reading places it again (the preview is rebuilt from that text, ``hold_text``)."""
    path = ls.path_of(uri)
    if path not in ls.previews:
        return
    ls.cursor_lines[path] = line
    analysis = ls.analyses.get(uri)
    document = ls.document(uri)
    if analysis is not None:
        await _show_slide(ls, path, analysis, line)
    if document is not None and (analysis is None or analysis.version != document.version):
        task = asyncio.get_running_loop().create_task(_follow_when_read(ls, uri, line))
        ls.background.add(task)
        task.add_done_callback(ls.background.discard)


async def _follow_when_read(ls: NotesServer, uri: str, line: int) -> None:
    try:
        analysis = await ls.current(uri)
    except (asyncio.CancelledError, JsonRpcContentModified):
        return  # a newer version: its own cursor event or reading follows
    path = ls.path_of(uri)
    if ls.cursor_lines.get(path) == line:  # the cursor has not moved on since
        await _show_slide(ls, path, analysis, line)


async def _show_slide(ls: NotesServer, path: str, analysis: Any, line: int) -> None:
    running = ls.previews.get(path)
    if running is None:
        return
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
