"""Workspace symbols: the sections of every note below the workspace's roots, by name."""

from __future__ import annotations

import asyncio
import os

from lsprotocol import types as lsp
from pygls.uris import to_fs_path

from confnotes.errors import NotesError
from confnotes.lsp import features
from confnotes.lsp.core import NotesServer, guarded, server


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
