"""The one folder confnotes keeps caches in: ``CONFNOTES_CACHE_DIR``, else ``.confnotes_cache`` in
the current folder (with a ``.gitignore`` of ``*``). Lint keeps its findings there, and the
typesetters their drawings (``diagrams/``, ``math/``), so a rebuild redraws nothing unchanged.

A cache in a notes repository can be committed by anyone, so an entry is trusted only when this
machine wrote it: each is sealed with a keyed BLAKE2b (``seal``) under a key kept outside every
repository (``key_path``: the user's cache folder, made once, readable by the user only). An
entry with no seal, another machine's or a wrong one is a miss: it can neither hide a finding nor
add one, nor put markup a typesetter never wrote into a page."""

from __future__ import annotations

import contextlib
import os
from functools import lru_cache
from pathlib import Path

DEFAULT = ".confnotes_cache"
_KEY_BYTES = 32


def key_path() -> Path:
    """Where this machine's cache key lives: ``$XDG_CACHE_HOME/confnotes/cache.key`` (else
    ``~/.cache/confnotes/cache.key``), outside any notes repository."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "confnotes" / "cache.key"


@lru_cache(maxsize=1)
def _key() -> bytes:
    """This machine's cache key, made on first use (32 random bytes, mode 0600) and read as every
    file is (``source.read_bytes``); where it cannot be read or made, or is not 32 bytes, a key for
    this run only (every cached entry from another run is then a miss; a file not ours is kept)."""
    import secrets

    from confnotes.edges.source import read_bytes
    from confnotes.errors import NotesError

    path = key_path()
    with contextlib.suppress(OSError):  # made once, by whichever run comes first (O_EXCL)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as out:
            out.write(secrets.token_bytes(_KEY_BYTES))
    try:
        data = read_bytes(str(path), "cache key", _KEY_BYTES)
    except NotesError:
        data = b""
    return data if len(data) == _KEY_BYTES else secrets.token_bytes(_KEY_BYTES)


def seal(text: str) -> str:
    """The keyed hash (hex) that marks ``text`` as written by this machine."""
    try:
        from _blake2 import blake2b
    except ImportError:  # a Python built without its own hash modules
        from hashlib import blake2b
    return blake2b(text.encode("utf-8", "surrogatepass"), key=_key(), digest_size=32).hexdigest()


def sealed(mark: str, text: str) -> bool:
    """Whether ``mark`` is this machine's seal of ``text`` (compared in constant time)."""
    import hmac

    return hmac.compare_digest(mark, seal(text))


def cache_root() -> Path:
    return Path(os.environ.get("CONFNOTES_CACHE_DIR", DEFAULT))


def read_cached(kind: str, key: str, suffix: str) -> str | None:
    """A cached text (``<root>/<kind>/<key><suffix>``) this machine wrote, or None."""
    try:
        mark, _, text = (cache_root() / kind / f"{key}{suffix}").read_text(encoding="utf-8").partition("\n")
    except (OSError, UnicodeDecodeError):
        return None
    return text if sealed(mark, text) else None


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
            out.write(seal(text) + "\n" + text)
        os.replace(temporary, folder / f"{key}{suffix}")
