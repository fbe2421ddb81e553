"""Project configuration: ``[tool.confnotes]`` in pyproject.toml or a ``confnotes.toml``, found upward."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from confnotes.config.settings import BuildSettings, FmtSettings, LintConfig, SlideSettings, check_table, did_you_mean, setting
from confnotes.errors import NotesError, config_error

CONFIG_NAMES = ("confnotes.toml", "pyproject.toml")
#: keys naming files or folders: relative to the config file that sets them
PATH_KEYS = ("templates", "reference_pptx", "reference_docx")


@dataclass(frozen=True)
class Config:
    """Settings for one note; ``path`` is the file they came from (``None`` for defaults). Every
    field but ``path`` and ``bases`` is a config key: ``confnotes schema`` is generated from them."""

    path: str | None = field(default=None, metadata={"internal": True})
    bases: tuple[str, ...] = field(default=(), metadata={"internal": True})  # config files ``extends`` read, nearest first
    templates: str | None = setting(None, "A folder of templates that shadow the built-in ones file by file.")
    theme: str = setting("default", "Theme of pages and decks: default, serif, dark, or a theme the templates add.")
    paper: Literal["a4", "letter"] = setting("a4", "Paper size of PDFs.")
    allow_html: bool = setting(False, "Render raw HTML in notes instead of escaping it (trusted notes only).")
    lang: str | None = setting(None, "Language of the notes (BCP 47, e.g. en, de-CH) when front matter does not say.")
    max_heading_length: int = setting(100, "Longest line read as an inferred heading in pasted notes.", 1, 10_000)
    infer_headings: Literal["auto", "always", "never"] = setting("auto", "Headings from bare lines in pasted notes.")
    note_lines: bool = setting(False, "Read 'Note:' lines as speaker notes (reveal.js habit).")
    lint: LintConfig = field(default_factory=LintConfig, metadata={"table": "lint"})
    slides: SlideSettings = field(default_factory=SlideSettings, metadata={"table": "slides"})
    build: BuildSettings = field(default_factory=BuildSettings, metadata={"table": "build"})
    fmt: FmtSettings = field(default_factory=FmtSettings, metadata={"table": "fmt"})
    reference_pptx: str | None = setting(None, "A PowerPoint file whose layouts and theme PPTX output uses.")
    reference_docx: str | None = setting(None, "A Word document whose styles, page setup, headers and footers Word output uses.")
    extends: str | None = setting(None, "Another config file whose settings this one extends, key by key.")

    @property
    def root(self) -> Path | None:
        return None if self.path is None else Path(self.path).parent


#: the keys of the config's top level (scalars; ``lint``, ``slides``, ``build`` and ``fmt`` are tables)
TOP_KEYS = tuple(item.name for item in fields(Config) if not item.metadata.get("internal"))
SCALAR_KEYS = tuple(item.name for item in fields(Config) if not item.metadata.get("internal") and "table" not in item.metadata)
#: ``[slides]`` and front matter ``slides:`` keys (an editor completes them)
SLIDE_KEYS = tuple(item.name for item in fields(SlideSettings))
BUILD_KEYS = tuple(item.name for item in fields(BuildSettings))
FMT_KEYS = tuple(item.name for item in fields(FmtSettings))


#: A config file is a few kilobytes: one larger than this is refused before it is parsed.
MAX_CONFIG_BYTES = 1024 * 1024
#: Tables and arrays nested deeper than this are refused (no setting nests more than three).
MAX_CONFIG_DEPTH = 16
#: How many files one ``extends`` chain may read.
MAX_EXTENDS = 16


def _load_toml(path: Path) -> dict[str, Any]:
    """A config file's TOML, read as every file is (``source.read_bytes``: a regular file, bounded)."""
    import tomllib

    from confnotes.edges.source import read_bytes

    try:
        data = read_bytes(str(path), "config file", MAX_CONFIG_BYTES)
    except NotesError as exc:
        raise config_error(exc.message, str(path)) from None
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        col = getattr(exc, "colno", None)
        message = str(exc).split(" (at line")[0]
        raise config_error(f"invalid TOML: {message}", str(path), line, col) from None
    except UnicodeDecodeError as exc:
        raise config_error(f"not valid UTF-8 (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})", str(path)) from None
    except RecursionError:
        raise config_error(f"values nested too deeply (at most {MAX_CONFIG_DEPTH} levels)", str(path)) from None
    _check_depth(table, str(path))
    return table


def _check_depth(table: dict[str, Any], path: str) -> None:
    """Refuse tables and arrays nested deeper than ``MAX_CONFIG_DEPTH`` (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(table, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_CONFIG_DEPTH:
            raise config_error(f"values nested too deeply (at most {MAX_CONFIG_DEPTH} levels)", path)
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))


def project_root(config_file: Path) -> Path:
    """The project a config file belongs to: the repository it is in (the nearest folder above it
    with ``.git``), else its own folder. ``extends`` reads only inside it."""
    folder = config_file.resolve().parent
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return folder


def _with_base(
    table: dict[str, Any], path: str, seen: tuple[str, ...] = (), root: Path | None = None
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``extends = "path"``: the base config's settings, overridden key by key (tables merged) by this
    one's; returns the merged table and the base files it read. A base is a file inside the project
    of the config that starts the chain (``project_root``: links followed), read once a chain."""
    base_name = table.get("extends")
    if base_name is None:
        return table, ()
    if not isinstance(base_name, str):
        raise config_error("'extends' must be the path of another config file", path)
    root = root or project_root(Path(path))
    base_path = (Path(path).parent / base_name).resolve()
    if str(base_path) in seen or base_path == Path(path).resolve():
        raise config_error(f"'extends' goes round in a circle through {base_name}", path)
    if len(seen) + 1 >= MAX_EXTENDS:
        raise config_error(f"'extends' chains more than {MAX_EXTENDS} files", path)
    if not base_path.is_relative_to(root):
        raise config_error(
            f"'extends': {base_name} is outside the project ({root.name or root}): copy its settings in, or name it with --config", path
        )
    if not base_path.is_file():
        raise config_error(f"'extends': {base_name} not found", path)
    data = _load_toml(base_path)
    base = data.get("tool", {}).get("confnotes", {}) if base_path.name == "pyproject.toml" else data
    if not isinstance(base, dict):
        raise config_error("[tool.confnotes] must be a table", str(base_path))
    base, chain = _with_base(base, str(base_path), (*seen, str(Path(path).resolve())), root)
    for key in PATH_KEYS:  # relative to the file that names them
        if key in base and isinstance(base[key], str):
            base = {**base, key: str((base_path.parent / base[key]).resolve())}
    merged = {key: value for key, value in base.items() if key != "extends"}
    for key, value in table.items():
        if key == "extends":
            continue
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged, (str(base_path), *chain)


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in override.items():
        out[key] = _merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def config_from_table(table: dict[str, Any], path: str) -> Config:
    """A config from its TOML table: every key checked against ``Config``'s fields (types, allowed
    values), tables against their settings classes; paths made absolute from the file's folder."""
    from confnotes.config.settings import from_table

    table, bases = _with_base(table, path)
    known = set(TOP_KEYS)
    for key in table:
        if key not in known:
            raise config_error(f"unknown key '{key}'{did_you_mean(key, known)} (known: {', '.join(sorted(known))})", path)
    scalars = {key: value for key, value in table.items() if key in SCALAR_KEYS and key != "extends"}
    if isinstance(scalars.get("paper"), str):
        scalars["paper"] = scalars["paper"].lower()
    values: dict[str, Any] = check_table(Config, scalars, "", path)
    for key in PATH_KEYS:
        if values.get(key) is not None:
            values[key] = str((Path(path).parent / values[key]).resolve())
    for key in ("lint", "slides", "build", "fmt"):
        if key in table and not isinstance(table[key], dict):
            raise config_error(f"'{key}' must be a table", path)
    return Config(
        path=path,
        bases=bases,
        lint=LintConfig.read(table.get("lint", {}), path),
        slides=SlideSettings().merged(table.get("slides", {}), "slides.", path),
        build=from_table(BuildSettings, table.get("build", {}), "build.", path),
        fmt=from_table(FmtSettings, table.get("fmt", {}), "fmt.", path),
        **values,
    )


def config_bytes(config: Config) -> bytes:
    """The config file and the files it extends, as bytes: what the lint cache and builds key on."""
    from confnotes.edges.source import read_bytes

    try:
        return b"".join(read_bytes(name, "config file", MAX_CONFIG_BYTES) for name in (config.path, *config.bases) if name)
    except NotesError as exc:
        raise config_error(exc.message, exc.path) from None


def read_config_file(path: str | os.PathLike[str]) -> Config:
    """Read an explicit config file (``--config``): a confnotes.toml or a pyproject.toml."""
    file = Path(path)
    if not file.is_file():
        raise config_error("config file not found", str(file))
    data = _load_toml(file)
    table = data.get("tool", {}).get("confnotes", {}) if file.name == "pyproject.toml" else data
    if file.name != "pyproject.toml" and "tool" in table and "confnotes" in table.get("tool", {}):
        table = table["tool"]["confnotes"]
    if not isinstance(table, dict):
        raise config_error("[tool.confnotes] must be a table", str(file))
    return config_from_table(table, str(file))


def _config_file_for_dir(folder: Path) -> Path | None:
    for candidate in (folder, *folder.parents):
        for name in CONFIG_NAMES:
            file = candidate / name
            if not file.is_file():
                continue
            if name == "pyproject.toml":
                from confnotes.edges.source import read_bytes

                try:
                    if b"tool.confnotes" not in read_bytes(str(file), "config file", MAX_CONFIG_BYTES):
                        continue
                except NotesError as exc:
                    raise config_error(exc.message, str(file)) from None
            return file
    return None


@lru_cache(maxsize=256)
def _load_config(path: str, _mtime_ns: int, _size: int) -> Config:
    """Parse one config file; the key includes its mtime and size, so an edited file is re-read."""
    file = Path(path)
    if file.name == "pyproject.toml":
        data = _load_toml(file)
        table = data.get("tool", {}).get("confnotes")
        if table is None:
            return Config()
        if not isinstance(table, dict):
            raise config_error("[tool.confnotes] must be a table", path)
        return config_from_table(table, path)
    return read_config_file(file)


def config_for_folder(folder: str | os.PathLike[str]) -> Config:
    """The config that applies to the notes of a folder (``build``, ``serve``): found from the folder upward."""
    file = _config_file_for_dir(Path(os.path.abspath(os.fspath(folder))))
    if file is None:
        return Config()
    stat = file.stat()
    return _load_config(str(file), stat.st_mtime_ns, stat.st_size)


def config_for_target(target: str, config_file: str | None = None) -> Config:
    """The config for a path named on the command line: ``--config`` if given, else a folder's own
    config (``lint .`` at the project root), else the one found from a file's folder."""
    if config_file:
        return read_config_file(config_file)
    if target != "-" and os.path.isdir(target):
        return config_for_folder(target)
    return find_config(target)


class FolderConfigs:
    """The config of each note of one run: ``--config`` for every note when given, else ``find_config``
    looked up once a folder (a folder's notes share their config). What every command asks of a note."""

    def __init__(self, config_file: str | None = None) -> None:
        self._explicit = read_config_file(config_file) if config_file else None
        self._found: dict[str, Config] = {}
        self._bytes: dict[str | None, bytes] = {}

    def __call__(self, note: str) -> Config:
        if self._explicit is not None:
            return self._explicit
        folder = os.path.dirname(os.path.abspath(note)) if note not in ("-", "<stdin>") else ""
        config = self._found.get(folder)
        if config is None:
            config = self._found[folder] = find_config(note)
        return config

    def bytes_of(self, config: Config) -> bytes:
        """``config_bytes`` of one of these configs, read once a run (what a build keys its notes on)."""
        if config.path not in self._bytes:
            self._bytes[config.path] = config_bytes(config)
        return self._bytes[config.path]


def find_config(note_path: str | os.PathLike[str]) -> Config:
    """The config that applies to a note: the nearest confnotes.toml or pyproject.toml with
    ``[tool.confnotes]`` in the note's folder or above (defaults if none)."""
    name = os.fspath(note_path)
    folder = Path(os.getcwd() if name in ("-", "<stdin>") else os.path.dirname(os.path.abspath(name)))
    file = _config_file_for_dir(folder)
    if file is None:
        return Config()
    stat = file.stat()
    return _load_config(str(file), stat.st_mtime_ns, stat.st_size)
