"""The JSON Schema of confnotes' configuration, generated from the typed settings the code reads.

``confnotes schema`` prints it and the package ships it (``confnotes/data/confnotes.schema.json``)
so TOML editors (taplo, Even Better TOML) complete and check ``confnotes.toml`` and
``[tool.confnotes]``; a test keeps the shipped file equal to what this module generates.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any, get_type_hints

from confnotes.config import Config
from confnotes.config.settings import BuildSettings, FmtSettings, LintTable, SlideSettings, field_schema, table_schema

SEVERITY = {"type": "string", "enum": ["info", "warning", "error"]}
RULE_IDS = {"type": "array", "items": {"type": "string"}}


def _rule_schema(rule: Any) -> dict[str, Any]:
    """``[lint.rules.NAME]``: a severity and the rule's options, typed by its ``Options`` annotations."""
    hints = get_type_hints(rule.Options)
    defaults = rule.Options._field_defaults
    properties: dict[str, Any] = {"severity": {**SEVERITY, "description": f"Severity of {rule.META.name} (default {rule.META.severity})."}}
    for name, annotation in hints.items():
        stub = _Field(defaults[name], {"minimum": 1})
        properties[name] = field_schema(annotation, stub)  # type: ignore[arg-type]
    return {
        "type": "object",
        "description": f"{rule.META.id} {rule.META.name}: {rule.META.summary}",
        "properties": properties,
        "additionalProperties": False,
    }


class _Field:
    """The two attributes ``field_schema`` reads, for an option of a rule's ``Options`` tuple."""

    def __init__(self, default: Any, metadata: dict[str, Any]) -> None:
        self.default = default
        self.metadata = metadata


def lint_schema() -> dict[str, Any]:
    from confnotes.lint.rules import CATALOGUE, load

    schema = table_schema(LintTable, "Which lint rules run and how (confnotes lint, the editor).")
    rules: dict[str, Any] = {}
    for entry in CATALOGUE:
        rule_schema = _rule_schema(load(entry.id))
        rules[entry.name] = rule_schema
        rules[entry.id] = {"$ref": f"#/$defs/lint/properties/rules/properties/{entry.name}"}
    schema["properties"]["rules"] = {
        "type": "object",
        "description": "Per rule (by name or id): its severity and options.",
        "properties": rules,
        "additionalProperties": False,
    }
    schema["properties"]["per-file-ignores"] = {
        "type": "object",
        "description": "Globs (relative to the config file) mapped to the rules they turn off.",
        "additionalProperties": RULE_IDS,
    }
    return schema


def config_schema() -> dict[str, Any]:
    """The whole configuration: ``confnotes.toml``'s top level (also ``[tool.confnotes]``)."""
    hints = get_type_hints(Config)
    properties: dict[str, Any] = {}
    for item in fields(Config):
        if item.metadata.get("internal") or "table" in item.metadata:
            continue
        properties[item.name] = field_schema(hints[item.name], item)
    defs = {
        "lint": lint_schema(),
        "slides": table_schema(SlideSettings, "The deck's limits and the talk's pace (front matter slides: overrides them per note)."),
        "build": table_schema(BuildSettings, "What confnotes build makes by default."),
        "fmt": table_schema(FmtSettings, "The Markdown styles confnotes fmt and lint --fix write (default: each note's own)."),
    }
    for name in defs:
        properties[name] = {"$ref": f"#/$defs/{name}"}
    from confnotes.templating import themes

    properties["theme"]["examples"] = themes()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "confnotes configuration",
        "description": "confnotes.toml, or [tool.confnotes] in pyproject.toml.",
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        # without templates of its own, a config can name only a built-in theme (``theme = "drak"`` is refused)
        "if": {"not": {"required": ["templates"]}},
        "then": {"properties": {"theme": {"enum": themes()}}},
        "$defs": defs,
    }


def pyproject_schema() -> dict[str, Any]:
    """A schema for pyproject.toml's ``[tool.confnotes]`` table (the same keys, one level down)."""
    inner = config_schema()
    defs = inner.pop("$defs")
    return {
        "$schema": inner.pop("$schema"),
        "title": "confnotes in pyproject.toml",
        "type": "object",
        "properties": {"tool": {"type": "object", "properties": {"confnotes": inner}}},
        "$defs": defs,
    }


def schema_json(pyproject: bool = False) -> str:
    return json.dumps(pyproject_schema() if pyproject else config_schema(), indent=2, ensure_ascii=False) + "\n"
