"""Initialize, initialized and shutdown: the options the editor gives, the watchdog, config watching."""

from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types as lsp

from confnotes.lsp.configs import _poll_config_files, _watch_config_files, pull_settings
from confnotes.lsp.core import NotesServer, server
from confnotes.lsp.options import read_options
from confnotes.lsp.watchdog import _watch_editor


@server.feature(lsp.INITIALIZE)
def initialize(ls: NotesServer, params: lsp.InitializeParams) -> None:
    options, warnings = read_options(params.initialization_options)
    ls.options = options
    ls.pending_warnings = warnings  # shown once the client is initialized
    if params.process_id:
        asyncio.get_running_loop().create_task(_watch_editor(params.process_id))


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
