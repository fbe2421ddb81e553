"""Writing results: atomically (temp file + rename), never over the note being rendered, and
never through a symbolic link planted in an output folder (``write_in``, ``remove_in``)."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from confnotes.edges.source import os_message
from confnotes.errors import ErrorKind, NotesError


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
    tmp = _temp_copy(target, payload)
    try:
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


def _temp_copy(target: Path, payload: bytes) -> str:
    """``payload`` on disk (flushed and synced) in a temporary file beside ``target``; returns its
    path. One ``NotesError`` line when it cannot be written, and no temporary file left behind."""
    import tempfile  # only when a file is written

    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise NotesError(f"cannot write here: {os_message(exc)}", path=str(target), kind=ErrorKind.RENDER) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise NotesError(f"cannot write: {os_message(exc)}", path=str(target), kind=ErrorKind.RENDER) from None
    return tmp


def rewrite_note(path: str, read: str, payload: bytes, force: bool = False) -> str | None:
    """Replace a note confnotes read and changed (``fmt``, ``lint --fix``, ``time --write-…``) with
    ``payload``, or leave it and say why (the reason is returned; None: written).

    Left as is: a note that no longer holds the text that was read (``read``: an edit saved
    meanwhile is never lost); a symlink whose file lies outside the link's folder; a read-only
    note, unless ``force``. A note with other hard links, or owned by another user, is written
    in place after the new text is safely written beside it, so its links and owner stay."""
    from confnotes.edges.source import decode, read_bytes

    target = Path(path)
    if target.is_symlink():
        real = Path(os.path.realpath(target))
        if not real.is_relative_to(Path(os.path.realpath(target.parent))):
            return "a link to a file outside its folder; left as is"
        target = real
    try:
        info = os.stat(target)
        current = read_bytes(str(target))  # a regular file within the size notes are read at
    except OSError as exc:
        return f"cannot read it again: {os_message(exc)}; left as is"
    except NotesError as exc:
        return f"cannot read it again: {exc.message}; left as is"
    if not info.st_mode & 0o222 and not force:
        return "read-only; left as is (--force rewrites it)"
    try:
        if decode(current, str(target)).text != read:
            return "changed since it was read; left as is (run again)"
    except NotesError:
        return "changed since it was read; left as is (run again)"
    if info.st_nlink > 1 or info.st_uid != os.geteuid():
        _write_in_place(target, payload)
    else:
        write_atomic(target, payload)
    return None


def _write_in_place(target: Path, payload: bytes) -> None:
    """Overwrite ``target``'s own inode (its hard links and owner kept), after a copy of the new
    text is on disk beside it: a full disk fails the copy, not the note."""
    tmp = _temp_copy(target, payload)  # kept if the note cannot be overwritten: the new text is in it
    try:
        mode = os.stat(target).st_mode
        if not mode & 0o200:
            os.chmod(target, mode | 0o200)  # --force on a read-only note: its mode comes back after
        try:
            with open(target, "r+b") as handle:
                handle.write(payload)
                handle.truncate()
                handle.flush()
                os.fsync(handle.fileno())
        finally:
            os.chmod(target, mode & 0o7777)
        os.unlink(tmp)
    except OSError as exc:
        raise NotesError(f"cannot write: {os_message(exc)}", path=str(target), kind=ErrorKind.RENDER) from None


def names_folder(output: str) -> bool:
    """Whether ``-o`` names a folder: a path ending in a separator, or a folder that exists, whatever
    its name (``render`` of several notes or of slide pictures, ``import`` of several files)."""
    return output.endswith(("/", os.sep)) or Path(output).is_dir()


def emit(output: str, data: bytes | str, note: str, named: bool = True) -> str | None:
    """Write to ``output`` (``-`` is standard output); refuse to overwrite the note itself.

    The file is written with ``write_in`` (no link followed); only an output the user ``named``
    (``-o``) may be a link to a device or pipe (``/dev/stdout``), which is written into."""
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
    if named and os.path.islink(output) and _is_stream(output):
        write_atomic(output, data)  # writes into the device or pipe, as it does for /dev/null
        return output
    target = Path(output)
    write_in(target.parent, target.name, data)
    return output


def _is_stream(path: str) -> bool:
    """Whether ``path`` leads to a character device, a pipe or a socket (not a file or folder)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


# ---------------------------------------------------------------- inside an output folder

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_LINKED = "is a symbolic link; confnotes never writes through a link in its output (remove the link)"


def _parts(rel: str) -> list[str] | None:
    """``rel`` (``/``-separated) as its names, or None for a path that is not plainly inside a folder."""
    parts = [part for part in rel.replace(os.sep, "/").split("/") if part not in ("", ".")]
    if not parts or rel.startswith(("/", os.sep)) or ".." in parts or "\x00" in rel:
        return None
    return parts


def _refused(root: Path, parts: list[str], exc: OSError | None = None) -> NotesError:
    where = str(root.joinpath(*parts))
    try:
        mode = os.lstat(where).st_mode
    except OSError:
        mode = 0
    if stat.S_ISLNK(mode):
        return NotesError(_LINKED, path=where, kind=ErrorKind.RENDER)
    if mode and not stat.S_ISDIR(mode):
        return NotesError("is a file where a folder is needed", path=where, kind=ErrorKind.RENDER)
    message = os_message(exc) if exc is not None else "cannot open"
    return NotesError(f"cannot write here: {message}", path=where, kind=ErrorKind.RENDER)


def _open_folder(root: Path, parts: list[str], create: bool) -> int:
    """A descriptor of the folder ``root/parts…``, each name below ``root`` opened without following
    a link (and made when ``create``); ``root`` itself is the folder the user named, link or not."""
    try:
        fd = os.open(root, os.O_RDONLY | _DIRECTORY)
    except OSError as exc:
        raise NotesError(f"cannot write here: {os_message(exc)}", path=str(root), kind=ErrorKind.RENDER) from None
    for index, part in enumerate(parts):
        try:
            try:
                child = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o777, dir_fd=fd)
                child = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=fd)
        except OSError as exc:
            os.close(fd)
            if isinstance(exc, FileNotFoundError) and not create:
                raise
            raise _refused(root, parts[: index + 1], exc) from None
        os.close(fd)
        fd = child
    return fd


#: What ``write_in`` writes: text or bytes, or pieces of them in order (a file too big to hold whole).
Data = bytes | str | Iterable[bytes | str]


def write_in(root: str | os.PathLike[str], rel: str, data: Data, if_changed: bool = False) -> bool:
    """Write ``data`` to ``root/rel`` atomically, making the folders it needs; returns whether it
    wrote (``if_changed``: not when the file already holds ``data``). ``data`` given in pieces is
    written, and compared with the file, piece by piece: it is never held whole.

    ``build``, ``render`` and ``import`` write only through here: no name below ``root`` may be
    a symbolic link (a link planted in a site folder would carry the write outside it), which is
    refused with one error; an existing device or pipe is written into, never replaced."""
    base = Path(root)
    parts = _parts(rel)
    if parts is None:
        raise NotesError("not a path inside the output folder; not written", path=str(base / rel), kind=ErrorKind.RENDER)
    if os.open not in os.supports_dir_fd:  # no descriptors for folders here: check each name, then write
        _check_names(base, parts)
        write_atomic(base.joinpath(*parts), b"".join(_pieces(data)))
        return True
    payload: bytes | Iterator[bytes] = data.encode("utf-8") if isinstance(data, str) else data if isinstance(data, bytes) else _pieces(data)
    folder = _open_folder(base, parts[:-1], create=True)
    try:
        return _write_at(folder, base, parts, payload, if_changed)
    finally:
        os.close(folder)


def _pieces(data: Data) -> Iterator[bytes]:
    if isinstance(data, (str, bytes)):
        data = (data,)
    for piece in data:
        yield piece.encode("utf-8") if isinstance(piece, str) else piece


def _check_names(base: Path, parts: list[str]) -> None:
    for index in range(len(parts)):
        if os.path.islink(base.joinpath(*parts[: index + 1])):
            raise _refused(base, parts[: index + 1])


def _write_at(folder: int, base: Path, parts: list[str], payload: bytes | Iterator[bytes], if_changed: bool) -> bool:
    name, where = parts[-1], str(base.joinpath(*parts))
    try:
        mode: int | None = os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise NotesError(f"cannot write: {os_message(exc)}", path=where, kind=ErrorKind.RENDER) from None
    if mode is not None and stat.S_ISLNK(mode):
        raise NotesError(_LINKED, path=where, kind=ErrorKind.RENDER)
    if mode is not None and stat.S_ISDIR(mode):
        raise NotesError("is a folder; not replaced by a file", path=where, kind=ErrorKind.RENDER)
    try:
        if mode is not None and not stat.S_ISREG(mode):  # a device or a pipe: written into, never replaced
            _write_fd(os.open(name, os.O_WRONLY | _NOFOLLOW, dir_fd=folder), payload)
            return True
        if if_changed and mode is not None and isinstance(payload, bytes) and _read_at(folder, name, len(payload) + 1) == payload:
            return False
        compare = if_changed and not isinstance(payload, bytes)  # bytes were compared just above
        return _replace_at(folder, name, payload, None if mode is None else stat.S_IMODE(mode), where, compare)
    except OSError as exc:
        raise NotesError(f"cannot write: {os_message(exc)}", path=where, kind=ErrorKind.RENDER) from None


def _write_fd(fd: int, payload: bytes | Iterator[bytes]) -> None:
    with os.fdopen(fd, "wb") as handle:
        for piece in (payload,) if isinstance(payload, bytes) else payload:
            handle.write(piece)


def _read_at(folder: int, name: str, limit: int) -> bytes | None:
    with _old_bytes(folder, name, True) as handle:
        return None if handle is None else handle.read(limit)


def _replace_at(folder: int, name: str, payload: bytes | Iterator[bytes], mode: int | None, where: str, if_changed: bool = False) -> bool:
    """A temporary file beside ``name`` (never a link: ``O_EXCL``), filled, then renamed over it;
    a rename replaces whatever ``name`` is by then and never follows it. Pieces are compared with
    the file as they are written when ``if_changed``: a file that already holds them is kept (False)."""
    import secrets

    temp = f".{name[:200]}.{secrets.token_hex(6)}.tmp"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666, dir_fd=folder)
    except OSError as exc:
        raise NotesError(f"cannot write here: {os_message(exc)}", path=where, kind=ErrorKind.RENDER) from None
    try:
        with os.fdopen(fd, "wb") as handle, _old_bytes(folder, name, if_changed and mode is not None) as old:
            same = old is not None
            for piece in (payload,) if isinstance(payload, bytes) else payload:
                handle.write(piece)
                same = same and old.read(len(piece)) == piece
            if same and not old.read(1):
                os.unlink(temp, dir_fd=folder)
                return False
            handle.flush()
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=folder)
        raise
    return True


@contextlib.contextmanager
def _old_bytes(folder: int, name: str, wanted: bool) -> Iterator[Any]:
    """The regular file ``name`` open for reading (no link followed), or None."""
    if not wanted:
        yield None
        return
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0), dir_fd=folder)
    except OSError:
        yield None
        return
    with os.fdopen(fd, "rb") as handle:
        yield handle if stat.S_ISREG(os.fstat(fd).st_mode) else None


def read_in(root: str | os.PathLike[str], rel: str, limit: int) -> bytes | None:
    """At most ``limit`` bytes of the regular file ``root/rel``, no link followed; None when there
    is no such file (or it is a link, a folder or a device)."""
    with open_in(root, rel) as handle:
        return None if handle is None else handle.read(limit)


@contextlib.contextmanager
def open_in(root: str | os.PathLike[str], rel: str) -> Iterator[Any]:
    """The regular file ``root/rel`` open for reading in binary, no link followed on the way; None
    when there is no such file (or it is a link, a folder or a device)."""
    parts = _parts(rel)
    if parts is None:
        yield None
        return
    try:
        folder = _open_folder(Path(root), parts[:-1], create=False)
    except (NotesError, OSError):
        yield None
        return
    try:
        with _old_bytes(folder, parts[-1], True) as handle:
            yield handle
    finally:
        os.close(folder)


def remove_in(root: str | os.PathLike[str], rel: str) -> bool:
    """Remove the file ``root/rel`` (a link there is removed, never followed) and the folders it
    leaves empty, up to ``root``; a path through a link, or outside ``root``, is left alone.
    Returns whether a file was removed."""
    parts = _parts(rel)
    if parts is None:
        return False
    folders: list[int] = []
    try:
        fd = os.open(root, os.O_RDONLY | _DIRECTORY)
        folders.append(fd)
        for part in parts[:-1]:
            folders.append(os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=folders[-1]))
        os.unlink(parts[-1], dir_fd=folders[-1])
    except OSError:
        return False
    finally:
        _close_and_prune(folders, parts)
    return True


def _close_and_prune(folders: list[int], parts: list[str]) -> None:
    """Close the folder descriptors, removing each sub-folder that is now empty (deepest first)."""
    for depth in range(len(folders) - 1, -1, -1):
        os.close(folders[depth])
        if depth:  # the folder at ``depth`` is ``parts[depth - 1]`` in the one above it
            with contextlib.suppress(OSError):  # not empty, or gone: left as it is
                os.rmdir(parts[depth - 1], dir_fd=folders[depth - 1])
