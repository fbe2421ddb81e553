"""Typed settings: one frozen dataclass per settings table, checked and merged in one place.

Each table's keys, types, ranges and defaults are stated once, as the fields of a dataclass;
the checker (``check_table``), the merge (``SlideSettings.merged``) and the JSON Schema of the
configuration (``confnotes schema``) all read them from there, so a key cannot be an int in
the config, a float on the command line and either in the code that uses it.

Precedence, everywhere: defaults < config file < the note's front matter < command line.
"""

from __future__ import annotations

import types
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, Field, dataclass, field, fields, replace
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from confnotes.errors import config_error

T = TypeVar("T")


def setting(default: Any, doc: str, minimum: float | None = None, maximum: float | None = None) -> Any:
    """A settings field: its default, one line of documentation and, for numbers, its range."""
    return field(default=default, metadata={"doc": doc, "minimum": minimum, "maximum": maximum})


@dataclass(frozen=True, slots=True)
class SlideSettings:
    """``[slides]`` in the config and ``slides:`` in a note's front matter: the deck's limits and the
    talk's pace. One object per note, merged once (``slide_settings``) and read by every deck
    output, ``time``, lint's slide and timing rules and ``build``."""

    max_items: int = setting(6, "Items a slide holds before it is split into '(cont.)' slides.", 1, 1000)
    max_words: int = setting(60, "Words a slide holds before it is split.", 1, 100_000)
    agenda: bool | None = setting(None, "An agenda slide of the sections (default: for talk notes, not reading lists).")
    notes: bool = setting(True, "Speaker notes in decks; false leaves every note out, e.g. to publish the deck.")
    steps: bool = setting(
        False, "Slides PDF: a page for each step of an incremental list (a slide revealed item by item), not one a slide."
    )
    wpm: int = setting(130, "Speaking rate in words a minute, for timing a talk.", 50, 400)
    slide_seconds: float = setting(2.0, "Seconds allowed per slide on top of its words (looking, clicking).", 0, 60)
    max_slides: int = setting(
        1000, "Slides one deck holds; past them, a last slide says which part of the note is not on slides.", 10, 5000
    )
    max_code_lines: int = setting(
        2000, "Lines of one code block on slides, split over as many slides as they need; past them the rest is left out.", 50, 100_000
    )

    def merged(self, table: Mapping[str, Any], prefix: str = "slides.", path: str | None = None) -> SlideSettings:
        """These settings with ``table``'s values (a config table, front matter), each checked."""
        return replace(self, **check_table(SlideSettings, table, prefix, path)) if table else self

    def overridden(self, **given: Any) -> SlideSettings:
        """These settings with the command line's values; ``None`` means "not given"."""
        return self.merged({key: value for key, value in given.items() if value is not None}, "--", "command line")


@dataclass(frozen=True, slots=True)
class BuildSettings:
    """``[build]``: what ``confnotes build`` makes by default."""

    formats: tuple[str, ...] = setting((), "Formats every note is built in (default: html, pdf, slides, pptx).")
    exclude: tuple[str, ...] = setting((), "Globs of notes the build skips, relative to the config file's folder.")
    schedule: str | None = setting(
        None, "The conference's schedule (frab XML, pretalx/frab JSON, Sessionize JSON or .ics), relative to the config file: a timetable."
    )
    timezone: str | None = setting(
        None, "The conference's time zone (e.g. Europe/Berlin) when its schedule names none (Sessionize, a calendar in UTC)."
    )
    day_change: int | None = setting(
        None, "The hour a schedule's day begins (sessions before it are the evening before's; default: frab's days, else read).", 0, 23
    )
    break_types: tuple[str, ...] | None = setting(
        None, "The session types that are breaks, not talks (default: break, lunch, coffee, … and speakerless sessions so titled)."
    )
    track_field: str | None = setting(
        None, "Sessionize: the category that holds the tracks (default: one titled Track, or asking for one)."
    )
    base_url: str | None = setting(None, "The address the site is published at (https://…): absolute links in the feed, and sitemap.xml.")


@dataclass(frozen=True, slots=True)
class FmtSettings:
    """``[fmt]``: the Markdown styles ``fmt`` (and ``lint --fix``, the editor) writes. ``consistent``
    keeps the style a note already uses throughout and, where the note mixes styles, takes the one
    most of it uses, so a note written in one style is left as it is."""

    bullet: Literal["consistent", "-", "*", "+"] = setting(
        "consistent", "Bullet marker: -, *, + or the note's own at each list level (consistent; its majority if it mixes)."
    )
    heading: Literal["consistent", "atx", "setext"] = setting(
        "consistent", "Headings: atx (##), setext (underlined; levels 1-2 only) or the note's own (consistent; its majority if it mixes)."
    )
    setext_underline: Literal["consistent", "title"] = setting(
        "consistent", "Setext underlines: as long as the title (title) or as the note writes them all (consistent)."
    )
    emphasis: Literal["consistent", "*", "_"] = setting(
        "consistent", "Emphasis marker: *, _ or the note's own (consistent; its majority if it mixes)."
    )
    strong: Literal["consistent", "*", "_"] = setting(
        "consistent", "Strong emphasis marker: * (**), _ (__) or the note's own (consistent; its majority if it mixes)."
    )
    ordered: Literal["consistent", "ordered", "one"] = setting(
        "consistent", "Numbered lists: ordered (1. 2. 3.), one (1. 1. 1.) or the note's own (consistent; its majority if it mixes)."
    )


@dataclass(frozen=True, slots=True)
class LintTable:
    """``[lint]``: the scalar settings of lint (``rules`` and ``per-file-ignores`` are tables, checked
    against the rule catalogue by the lint engine)."""

    select: tuple[str, ...] | None = setting(None, "Rules to run (ids, names, prefixes such as CN3, or ALL).")
    ignore: tuple[str, ...] = setting((), "Rules never to run.")
    fail_on: Literal["info", "warning", "error"] = setting("warning", "Lowest severity that fails a run.")
    exclude: tuple[str, ...] = setting((), "Globs of notes lint and fmt skip, relative to the config file's folder.")
    profile: Literal["auto", "notes", "talk"] = setting("auto", "Whether slide advice applies: auto (talk notes), notes or talk.")
    docs_url: str | None = setting(None, "Where the team publishes docs/rules.md; SARIF links each rule there.")


@dataclass(frozen=True, slots=True)
class LintConfig:
    """``[lint]`` as read from a config: its scalar keys checked (``LintTable``); ``rules`` and
    ``per-file-ignores``, whose keys name rules, checked against the catalogue by the lint engine
    (``lint.engine.build_settings``), which alone knows the rules."""

    table: LintTable = field(default_factory=LintTable)
    rules: Mapping[str, Any] = field(default_factory=dict)
    per_file_ignores: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def read(cls, raw: Mapping[str, Any], path: str | None = None) -> LintConfig:
        """The ``[lint]`` table ``raw`` (a config error names the key that is wrong)."""
        scalars = {key: value for key, value in raw.items() if key not in ("rules", "per-file-ignores")}
        rules = raw.get("rules", {})
        if not isinstance(rules, Mapping):
            raise config_error("'lint.rules' must be a table of rule settings", path)
        per_file = raw.get("per-file-ignores", {})
        if not isinstance(per_file, Mapping) or not all(isinstance(ids, list) for ids in per_file.values()):
            raise config_error("'lint.per-file-ignores' must map globs to lists of rules", path)
        return cls(from_table(LintTable, scalars, "lint.", path), dict(rules), dict(per_file))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def _kinds(annotation: Any) -> tuple[Any, ...]:
    """The alternatives of ``X | None`` (or just ``X``)."""
    if get_origin(annotation) in (Union, types.UnionType):
        return get_args(annotation)
    return (annotation,)


def describe(annotation: Any) -> str:
    """How a type reads in a message: ``a whole number``, ``true or false``, ``one of "a", "b"``."""
    words = []
    for kind in _kinds(annotation):
        if kind is type(None):
            continue
        if get_origin(kind) is Literal:
            words.append("one of " + ", ".join(str(value) for value in get_args(kind)))
        elif get_origin(kind) is tuple:
            words.append("a list of strings")
        else:
            words.append({bool: "true or false", int: "a whole number", float: "a number", str: "a string"}[kind])
    return " or ".join(words)


def check_value(annotation: Any, value: Any, meta: Mapping[str, Any]) -> tuple[bool, Any]:
    """``(True, value as the setting holds it)`` when ``value`` fits the field, else ``(False, None)``.
    A whole number is a fine ``float``; a TOML or YAML list is a ``tuple``; booleans are never numbers."""
    for kind in _kinds(annotation):
        if kind is type(None):
            if value is None:
                return True, None
            continue
        if get_origin(kind) is Literal:
            if isinstance(value, str) and value in get_args(kind):
                return True, value
            continue
        if get_origin(kind) is tuple:
            if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
                return True, tuple(value)
            continue
        if isinstance(value, bool) != (kind is bool):
            continue
        if kind is float and isinstance(value, int | float) or isinstance(value, kind):
            number = float(value) if kind is float else value
            if kind in (int, float) and not _in_range(number, meta):
                continue
            return True, number
    return False, None


def _in_range(number: float, meta: Mapping[str, Any]) -> bool:
    low, high = meta.get("minimum"), meta.get("maximum")
    return number == number and (low is None or number >= low) and (high is None or number <= high)  # NaN is no number


def wanted(annotation: Any, meta: Mapping[str, Any]) -> str:
    """What a setting must be, in words: its type and, for a number, its range."""
    numeric = any(kind in (int, float) for kind in _kinds(annotation))
    return describe(annotation) + (_range_words(meta) if numeric else "")


def _range_words(meta: Mapping[str, Any]) -> str:
    low, high = meta.get("minimum"), meta.get("maximum")
    if low is None and high is None:
        return ""
    return f" from {_num(low)} to {_num(high)}" if high is not None else f" of at least {_num(low)}"


def _num(value: Any) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def did_you_mean(key: str, known: Iterable[str]) -> str:
    """``; did you mean 'ignore'?`` for a mistyped key (``ignor``), else nothing."""
    from confnotes.errors import closest

    near = closest(key, known)
    return f"; did you mean '{near}'?" if near else ""


def check_table(cls: type, table: Mapping[str, Any], prefix: str, path: str | None) -> dict[str, Any]:
    """``table``'s values checked against the fields of ``cls``: an unknown key or a value of the
    wrong type or out of range is one config error naming ``prefix + key``."""
    hints = _hints(cls)
    by_name = {item.name: item for item in fields(cls)}
    out: dict[str, Any] = {}
    for key, value in table.items():
        item = by_name.get(str(key))
        if item is None:
            known = ", ".join(sorted(by_name))
            raise config_error(f"unknown key '{prefix}{key}'{did_you_mean(str(key), by_name)} (known: {known})", path)
        fits, checked = check_value(hints[item.name], value, item.metadata)
        if not fits:
            raise config_error(f"'{prefix}{key}' must be {wanted(hints[item.name], item.metadata)}, not {value!r}", path)
        out[item.name] = checked
    return out


def setting_range(cls: type, name: str) -> tuple[Any, Any]:
    """The range a numeric setting allows (the checker's, the schema's and the CLI's)."""
    meta = next(item.metadata for item in fields(cls) if item.name == name)
    return meta["minimum"], meta["maximum"]


def choices(cls: type, name: str) -> list[str]:
    """The values a ``Literal`` setting allows (for a ``click.Choice`` of the same values)."""
    return [str(value) for kind in _kinds(_hints(cls)[name]) if get_origin(kind) is Literal for value in get_args(kind)]


def from_table(cls: type[T], table: Mapping[str, Any], prefix: str, path: str | None) -> T:
    """An instance of the settings class ``cls`` from a config table (defaults for keys not given)."""
    return cls(**check_table(cls, table, prefix, path))


# ---------------------------------------------------------------- the schema


def field_schema(annotation: Any, item: Field[Any]) -> dict[str, Any]:
    """A JSON Schema for one settings field: its type, allowed values, range, default and doc. TOML
    has no null: an optional setting is one left out, so ``None`` is neither a type nor a default."""
    options: list[dict[str, Any]] = []
    for kind in _kinds(annotation):
        if kind is type(None):
            continue
        if get_origin(kind) is Literal:
            options.append({"type": "string", "enum": list(get_args(kind))})
        elif get_origin(kind) is tuple:
            options.append({"type": "array", "items": {"type": "string"}})
        else:
            entry: dict[str, Any] = {"type": {bool: "boolean", int: "integer", float: "number", str: "string"}[kind]}
            if kind in (int, float):
                if item.metadata.get("minimum") is not None:
                    entry["minimum"] = item.metadata["minimum"]
                if item.metadata.get("maximum") is not None:
                    entry["maximum"] = item.metadata["maximum"]
            options.append(entry)
    schema: dict[str, Any] = options[0] if len(options) == 1 else {"anyOf": options}
    if item.metadata.get("doc"):
        schema["description"] = item.metadata["doc"]
    if item.default is not MISSING and item.default is not None:
        default = item.default
        schema["default"] = list(default) if isinstance(default, tuple) else default
    return schema


def table_schema(cls: type, description: str = "") -> dict[str, Any]:
    """A JSON Schema object for a settings class: every field, no other key."""
    hints = _hints(cls)
    properties = {item.name: field_schema(hints[item.name], item) for item in fields(cls)}
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if description:
        schema["description"] = description
    return schema
