"""The one folder confnotes keeps caches in: ``CONFNOTES_CACHE_DIR``, else ``.confnotes_cache`` in
the current folder (with a ``.gitignore`` of ``*``). Lint keeps its findings there, and the
typesetters their drawings (``diagrams/``, ``math/``), so a rebuild redraws nothing unchanged."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

DEFAULT = ".confnotes_cache"


def cache_root() -> Path:
    return Path(os.environ.get("CONFNOTES_CACHE_DIR", DEFAULT))


def read_cached(kind: str, key: str, suffix: str) -> str | None:
    """A cached text (``<root>/<kind>/<key><suffix>``), or None."""
    try:
        return (cache_root() / kind / f"{key}{suffix}").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def keep(kind: str, key: str, suffix: str, text: str) -> None:
    """Write a cached text atomically; a cache folder that cannot be written is no cache."""
    import tempfile  # (only a run that writes a cache loads it: lint start-up stays light)

    folder = cache_root() / kind
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        ignore = folder.parent / ".gitignore"
        if not ignore.exists():  # never committed
            ignore.write_text("# created by confnotes\n*\n", encoding="utf-8")
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{kind}-", suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, folder / f"{key}{suffix}")
