"""The language server: ``python -m confnotes lsp``. Its parts, one job a module (docs/design.md,
"Incremental analysis"): ``core`` (the latest analysis per open note, debounce and cancellation),
``protocol``, ``lifecycle``, ``watchdog``, ``configs``, ``documents``, ``preview``, ``symbols`` and
``actions``; importing them registers their handlers on ``core.server``.
"""

from __future__ import annotations

import logging

from confnotes.lsp import actions, configs, documents, lifecycle, preview, symbols, watchdog  # noqa: F401 - they register
from confnotes.lsp.core import NotesServer, publish_times, server


def main() -> None:
    """Serve on standard input and output until the client says exit: exit code 0 after a
    ``shutdown`` request, 1 otherwise (the spec's rule; pygls ends every way with 0)."""
    logging.basicConfig(level=logging.WARNING, format="confnotes lsp: %(levelname)s %(message)s")
    server.start_io()
    raise SystemExit(0 if server.shut_down else 1)


__all__ = ["NotesServer", "main", "publish_times", "server"]
