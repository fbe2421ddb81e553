"""Writing results: atomically (temp file + rename), never over the note being rendered."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from pathlib import Path

from confnotes.errors import ErrorKind, NotesError
from confnotes.source import os_message


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def write_atomic(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write ``data`` to ``path`` through a temp file in the same folder, then rename.

    If anything fails (disk full, permissions), the old file is left untouched.
    """
    target = Path(path)
    if target.is_symlink():
        target = Path(os.path.realpath(target))  # write through a symlinked note to the file it names
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        mode = os.stat(target).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        # a device or a pipe (/dev/null, /dev/stdout, a FIFO): write into it, never replace it
        try:
            with open(target, "wb") as handle:
                handle.write(payload)
        except OSError as exc:
            raise NotesError(f"cannot write: {os_message(exc)}", path=str(target), kind=ErrorKind.RENDER) from None
        return
    folder = target.parent if str(target.parent) else Path(".")
    try:
        import tempfile  # only when a file is written

        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise NotesError(f"cannot write here: {os_message(exc)}", path=str(target), kind=ErrorKind.RENDER) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise NotesError(f"cannot write: {os_message(exc)}", path=str(target), kind=ErrorKind.RENDER) from None


def emit(output: str, data: bytes | str, note: str) -> str | None:
    """Write to ``output`` (``-`` is standard output); refuse to overwrite the note itself."""
    if output == "-":
        if isinstance(data, str):
            sys.stdout.write(data)
            sys.stdout.flush()
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        return None
    if note not in ("-", "<stdin>") and same_file(output, note):
        raise NotesError("output would overwrite the note itself; choose another -o", path=output, kind=ErrorKind.USAGE)
    write_atomic(output, data)
    return output
