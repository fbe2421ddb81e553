"""Project configuration: ``[tool.confnotes]`` in pyproject.toml or a ``confnotes.toml``, found upward."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from confnotes.errors import config_error

CONFIG_NAMES = ("confnotes.toml", "pyproject.toml")
_TOP_KEYS: dict[str, type[Any]] = {
    "templates": str,
    "theme": str,
    "paper": str,
    "allow_html": bool,
    "lang": str,
    "max_heading_length": int,
    "infer_headings": str,
    "note_lines": bool,
    "lint": dict,
    "slides": dict,
    "build": dict,
    "extends": str,
    "reference_pptx": str,
}
#: keys naming files or folders: relative to the config file that sets them
PATH_KEYS = ("templates", "reference_pptx")
#: ``[slides]`` (and front matter ``slides:``): the deck's limits, and the talk's pace for ``time``.
SLIDE_KEYS: dict[str, type[Any]] = {
    "max_items": int,
    "max_words": int,
    "agenda": bool,
    "notes": bool,
    "wpm": int,
    "slide_seconds": int,
}
BUILD_KEYS: dict[str, type[Any]] = {"formats": list, "exclude": list}


@dataclass(frozen=True)
class Config:
    """Settings for one note; ``path`` is the file they came from (``None`` for defaults)."""

    path: str | None = None
    bases: tuple[str, ...] = ()  # config files ``extends`` read, nearest first
    templates: str | None = None
    theme: str = "default"
    paper: str = "a4"
    allow_html: bool = False
    lang: str | None = None
    max_heading_length: int = 100
    infer_headings: str = "auto"
    note_lines: bool = False
    lint: dict[str, Any] = field(default_factory=dict)
    slides: dict[str, Any] = field(default_factory=dict)
    build: dict[str, Any] = field(default_factory=dict)
    reference_pptx: str | None = None

    @property
    def root(self) -> Path | None:
        return None if self.path is None else Path(self.path).parent


def _load_toml(path: Path) -> dict[str, Any]:
    import tomllib

    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        col = getattr(exc, "colno", None)
        message = str(exc).split(" (at line")[0]
        raise config_error(f"invalid TOML: {message}", str(path), line, col) from None
    except UnicodeDecodeError as exc:
        raise config_error(f"not valid UTF-8 (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})", str(path)) from None
    except OSError as exc:
        raise config_error(exc.strerror or str(exc), str(path)) from None


def check_types(table: dict[str, Any], schema: dict[str, type[Any]], where: str, path: str) -> None:
    for key, value in table.items():
        if key not in schema:
            known = ", ".join(sorted(schema))
            raise config_error(f"unknown key '{where}{key}' (known: {known})", path)
        expected = schema[key]
        if expected is int and isinstance(value, bool) or not isinstance(value, expected):
            raise config_error(f"'{where}{key}' must be {expected.__name__}, not {type(value).__name__}", path)


def _with_base(table: dict[str, Any], path: str, seen: tuple[str, ...] = ()) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``extends = "path"``: the base config's settings, overridden key by key (tables merged) by this
    one's; returns the merged table and the base files it read."""
    base_name = table.get("extends")
    if base_name is None:
        return table, ()
    if not isinstance(base_name, str):
        raise config_error("'extends' must be the path of another config file", path)
    base_path = (Path(path).parent / base_name).resolve()
    if str(base_path) in seen or len(seen) > 8:
        raise config_error(f"'extends' goes round in a circle through {base_name}", path)
    if not base_path.is_file():
        raise config_error(f"'extends': {base_name} not found", path)
    data = _load_toml(base_path)
    base = data.get("tool", {}).get("confnotes", {}) if base_path.name == "pyproject.toml" else data
    if not isinstance(base, dict):
        raise config_error("[tool.confnotes] must be a table", str(base_path))
    base, chain = _with_base(base, str(base_path), (*seen, str(Path(path).resolve())))
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
    table, bases = _with_base(table, path)
    check_types(table, _TOP_KEYS, "", path)
    check_types(table.get("slides", {}), SLIDE_KEYS, "slides.", path)
    check_types(table.get("build", {}), BUILD_KEYS, "build.", path)
    if table.get("paper", "a4").lower() not in ("a4", "letter"):
        raise config_error('\'paper\' must be "a4" or "letter"', path)
    if table.get("infer_headings", "auto") not in ("auto", "always", "never"):
        raise config_error('\'infer_headings\' must be "auto", "always" or "never"', path)
    values = dict(table)
    for key in PATH_KEYS:
        if values.get(key) is not None:
            values[key] = str((Path(path).parent / values[key]).resolve())
    if "paper" in values:
        values["paper"] = values["paper"].lower()
    return Config(path=path, bases=bases, **values)


def config_bytes(config: Config) -> bytes:
    """The config file and the files it extends, as bytes: what the lint cache and builds key on."""
    return b"".join(Path(name).read_bytes() for name in (config.path, *config.bases) if name)


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
                try:
                    if b"tool.confnotes" not in file.read_bytes():
                        continue
                except OSError as exc:
                    raise config_error(exc.strerror or str(exc), str(file)) from None
            return file
    return None


@lru_cache(maxsize=256)
def _load_config(path: str, mtime_ns: int, size: int) -> Config:
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
