"""The spec's ``processId``: the server exits when the editor that started it is gone."""

from __future__ import annotations

import asyncio
import os

from confnotes.lsp.core import logger

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
