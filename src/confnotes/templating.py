"""The Jinja environment: a user's template folders first, the built-ins behind, ``!default/`` to extend."""

from __future__ import annotations

import functools
import os
import stat
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache
import jinja2.exceptions
from jinja2.loaders import split_template_path

from confnotes.errors import NotesError, render_error
from confnotes.markup.escape import strict_json


def builtin_templates() -> Path:
    """Templates inside the installed package, or the checkout's top-level ``templates/``.

    Wheels carry them as ``confnotes/templates`` (hatchling force-include); editable
    installs do not, so a checkout falls back to its own folder.
    """
    packaged = Path(__file__).resolve().parent / "templates"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "templates"
    if checkout.is_dir():
        return checkout
    raise render_error("confnotes' built-in templates are missing from this installation")


def themes() -> list[str]:
    return sorted(path.stem for path in (builtin_templates() / "themes").glob("*.css"))


#: Bump when the environment's settings below change within a release: compiled templates depend on them
#: (and on confnotes' and Jinja's versions, which their file names carry too).
_COMPILED_FORMAT = 2


def template_cache_dir() -> Path | None:
    """Where compiled templates are kept between runs, or None to compile every time.

    ``CONFNOTES_TEMPLATE_CACHE`` names the folder (empty: no cache); otherwise the user's
    cache folder (``$XDG_CACHE_HOME/confnotes/templates``, ``~/.cache/...``).
    """
    chosen = os.environ.get("CONFNOTES_TEMPLATE_CACHE")
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or os.environ.get("LOCALAPPDATA") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "confnotes" / "templates"


class _CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """Jinja's bytecode cache that never fails a render: a folder that can't be written or a
    damaged entry only means the template is compiled again."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # noqa: BLE001 - a damaged entry is a cache miss
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            os.makedirs(self.directory, mode=0o700, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _bytecode_cache(sandboxed: bool) -> jinja2.BytecodeCache | None:
    """Compiled templates, kept apart by sandboxing: code compiled for a trusted run calls
    functions directly and must never be loaded into the sandbox."""
    folder = template_cache_dir()
    if folder is None:
        return None
    from confnotes._version import __version__

    kind = "sandboxed" if sandboxed else "trusted"
    # compiled code depends on the environment's settings (``_COMPILED_FORMAT``), on confnotes and on Jinja
    return _CompiledTemplates(str(folder), f"%s.{kind}.{_COMPILED_FORMAT}-{__version__}-{jinja2.__version__}.jinja")


@lru_cache(maxsize=16)
def environment(user_dirs: tuple[str, ...] = (), trusted: bool = False) -> jinja2.Environment:
    """The environment for ``user_dirs``. Templates are code: a notes folder's own templates (from its
    config, say) run in Jinja's sandbox unless the user trusts them (``--trust-templates``)."""
    for folder in user_dirs:
        if not Path(folder).is_dir():
            raise render_error(f"templates folder not found: {folder}")
    builtin = jinja2.FileSystemLoader(str(builtin_templates()))
    loader = jinja2.ChoiceLoader(
        [
            ConfinedLoader(user_dirs),
            builtin,
            jinja2.PrefixLoader({"!default": builtin}, delimiter="/"),
        ]
    )
    sandboxed = bool(user_dirs) and not trusted
    kind: type[jinja2.Environment] = jinja2.Environment
    if sandboxed:
        from confnotes.edges.sandbox import LimitedSandbox

        kind = LimitedSandbox
    env = kind(
        loader=loader,
        bytecode_cache=_bytecode_cache(sandboxed),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "htm", "xml", "svg"), default=False),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    # a YAML double-quoted scalar (Marp and new notes' front matter): strict_json escapes what YAML
    # may not hold raw (C1 controls, lone surrogates), so the front matter always reads back
    env.filters["quote"] = lambda value: strict_json(str(value))
    return env


def render_template(name: str, user_dirs: tuple[str, ...] = (), trusted: bool = False, **context: Any) -> str:
    """``name`` rendered with ``context``; whatever goes wrong in a template is one line naming it."""
    env = environment(tuple(user_dirs), trusted)
    searched = ", ".join([*user_dirs, "built-in templates"])
    try:
        template = env.get_template(name)
    except jinja2.TemplateNotFound as exc:
        raise render_error(f"template not found: {exc.name} (searched {searched})") from None
    except jinja2.TemplateSyntaxError as exc:
        raise render_error(f"{exc.filename or name}:{exc.lineno}: template syntax error: {exc.message}") from None
    except UnicodeDecodeError as exc:
        raise render_error(f"template {name}: {_not_utf8(exc)}") from None
    try:
        return _rendered(env, template, context)
    except NotesError:
        raise
    except jinja2.TemplateNotFound as exc:
        raise render_error(f"template not found: {exc.name} (used by {name}; searched {searched})") from None
    except jinja2.TemplateSyntaxError as exc:
        raise render_error(f"{exc.filename or exc.name}:{exc.lineno}: template syntax error: {exc.message}") from None
    except jinja2.UndefinedError as exc:
        raise render_error(f"template {name}: {exc.message}") from None
    except jinja2.exceptions.SecurityError as exc:
        raise render_error(
            f"template {name}: refused in the sandbox: {exc} (user templates run sandboxed; pass --trust-templates if you wrote them)"
        ) from None
    except jinja2.TemplateError as exc:
        raise render_error(f"template {name}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise render_error(f"template used by {name}: {_not_utf8(exc)}") from None
    except RecursionError:
        raise render_error(f"template {name}: templates include or extend each other without end") from None
    except Exception as exc:
        where = _user_template_line(exc, user_dirs)
        if where is None:  # raised by confnotes or a built-in template: a bug, reported as one
            raise
        # a user template's own mistake (1/0, a bad call) is one line, not a traceback
        raise render_error(f"{where}: template error: {type(exc).__name__}: {exc}") from None


def _rendered(env: jinja2.Environment, template: jinja2.Template, context: dict[str, Any]) -> str:
    """The template rendered; in the sandbox, within the limits of user templates (``confnotes.edges.sandbox``)."""
    if not getattr(env, "sandboxed", False):
        return template.render(**context)
    from confnotes.edges.sandbox import TemplateLimit, limited

    try:
        with limited():
            return template.render(**context)
    except TemplateLimit as exc:
        name = template.name or "?"
        raise render_error(f"template {name}: stopped: {exc} (a limit for user templates; see docs/security.md)") from None


def _not_utf8(exc: UnicodeDecodeError) -> str:
    return f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})"


def _user_template_line(exc: BaseException, user_dirs: tuple[str, ...]) -> str | None:
    """``file:line`` of the last line of a user template (one in ``user_dirs``) that ``exc`` went
    through (Jinja maps its frames to template lines), or None when it went through none."""
    import traceback

    folders = [os.path.realpath(folder) + os.sep for folder in user_dirs]
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if not frame.filename.endswith(".py") and os.path.realpath(frame.filename).startswith(tuple(folders)):
            return f"{frame.filename}:{frame.lineno}"
    return None


def read_builtin(name: str, user_dirs: tuple[str, ...] = ()) -> str:
    """A static file (CSS, JS) from the user's template folders (``read_confined``) or the built-ins."""
    for folder in user_dirs:
        data = read_confined(folder, name)
        if data is not None:
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise render_error(f"{os.path.join(folder, name)}: {_not_utf8(exc)}") from None
    path = builtin_templates() / name
    if path.is_file():
        return path.read_text(encoding="utf-8")
    raise render_error(f"template file not found: {name}")


#: A template file (template, stylesheet, script) is read up to this size.
MAX_TEMPLATE_BYTES = 4 * 1024 * 1024


def read_confined(folder: str, name: str) -> bytes | None:
    """The bytes of the file ``name`` in a user's templates ``folder``, None when there is none.

    A templates folder comes with the notes, so it may hold links planted to read a secret into a
    page (``note.css`` → ``/proc/self/environ``, an ``{% include %}`` of ``~/.ssh/id_rsa``): the
    file is read only if, links resolved, it is inside the folder, and only if it is a regular file
    (never a FIFO, a device or a socket, which could block or never end). Anything else is one error."""
    try:
        pieces = split_template_path(name)
    except jinja2.TemplateNotFound:
        return None
    path = os.path.join(folder, *pieces)
    if not os.path.lexists(path):
        return None
    root = os.path.realpath(folder)
    real = os.path.realpath(path)
    if real != root and not real.startswith(root.rstrip(os.sep) + os.sep):
        raise render_error(f"{path}: links outside the templates folder ({real}); not read")
    try:
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise render_error(f"{path}: cannot read: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        kind = os.fstat(fd).st_mode
        if stat.S_ISDIR(kind):
            return None
        if not stat.S_ISREG(kind):
            raise render_error(f"{path}: not a regular file (a device, pipe or socket); not read")
        data = handle.read(MAX_TEMPLATE_BYTES + 1)
    if len(data) > MAX_TEMPLATE_BYTES:
        raise render_error(f"{path}: larger than {MAX_TEMPLATE_BYTES >> 20} MB; not read as a template file")
    return data


class ConfinedLoader(jinja2.BaseLoader):
    """Jinja's file system loader for a user's template folders, reading through ``read_confined``:
    an ``{% include %}`` or ``{% extends %}`` never reads a file outside its folder."""

    def __init__(self, folders: tuple[str, ...]) -> None:
        self.folders = folders

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:  # noqa: ARG002
        for folder in self.folders:
            data = read_confined(folder, template)
            if data is not None:  # not UTF-8: render_template names the template
                path = os.path.join(folder, *split_template_path(template))
                return data.decode("utf-8"), path, functools.partial(_unchanged, path, _stamp(path))
        raise jinja2.TemplateNotFound(template)


def _unchanged(path: str, stamp: float | None) -> bool:
    return _stamp(path) == stamp


def _stamp(path: str) -> float | None:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return None
