"""Settings and config files: pulled from the editor, and a changed confnotes.toml or pyproject.toml
makes every open note's analysis stale (watched by the editor, or polled when it watches none).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from lsprotocol import types as lsp

from confnotes.lsp.core import CONFIG_GLOBS, CONFIG_POLL_SECONDS, UNSAVED, NotesServer, logger, server
from confnotes.lsp.options import read_options


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
        except Exception:  # noqa: BLE001 - a bug: logged, and the looking goes on
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
