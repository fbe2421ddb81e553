"""``confnotes schema``: generated from the typed settings, shipped in the package, and in step
with what the code reads (every key the code reads is in the schema, and the reverse)."""

from __future__ import annotations

import json
import tomllib
from dataclasses import MISSING, fields
from importlib.resources import files

import pytest

from confnotes.config import BUILD_KEYS, SLIDE_KEYS, TOP_KEYS, config_from_table
from confnotes.config.schema import config_schema, schema_json
from confnotes.config.settings import LintConfig, LintTable
from confnotes.errors import NotesError
from confnotes.lint.engine import TABLE_KEYS, build_settings
from confnotes.lint.rules import CATALOGUE

jsonschema = pytest.importorskip("jsonschema")

REALISTIC = """
theme = "dark"
paper = "letter"
lang = "en-GB"
infer_headings = "never"
templates = "templates"

[lint]
select = ["ALL"]
ignore = ["long-item"]
fail_on = "error"
exclude = ["drafts/*"]
profile = "talk"

[lint.per-file-ignores]
"archive/*" = ["CN104"]

[lint.rules.numbering]
style = "one"
severity = "error"

[lint.rules.CN301]
max_items = 7

[slides]
max_items = 5
slide_seconds = 2.5
wpm = 140
notes = false

[build]
formats = ["html", "pdf", "slides"]
"""


def test_the_shipped_schema_is_the_generated_one(cli):
    shipped = files("confnotes").joinpath("data/confnotes.schema.json").read_text(encoding="utf-8")
    assert shipped == schema_json(), "regenerate: confnotes schema > src/confnotes/data/confnotes.schema.json"
    result = cli("schema")
    assert result.exit_code == 0 and result.stdout == shipped
    pyproject = json.loads(cli("schema", "--pyproject").stdout)
    assert set(pyproject["properties"]["tool"]["properties"]["confnotes"]["properties"]) == set(json.loads(shipped)["properties"])


def test_the_schema_is_valid_and_accepts_a_realistic_config():
    schema = config_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    table = tomllib.loads(REALISTIC)
    jsonschema.validate(table, schema)
    config = config_from_table(table, "confnotes.toml")  # and confnotes reads it
    build_settings(config.lint, "confnotes.toml")


@pytest.mark.parametrize(
    "bad",
    [
        'colour = "red"',
        'paper = "a5"',
        "[slides]\nmax_items = 0",
        "[slides]\nwpm = 900",
        '[lint.rules.numbering]\nstyle = "roman"',
        "[build]\nformatz = []",
    ],
)
def test_what_confnotes_refuses_the_schema_refuses(bad):
    table = tomllib.loads(bad)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(table, config_schema())
    with pytest.raises(NotesError):
        config = config_from_table(table, "confnotes.toml")
        build_settings(config.lint, "confnotes.toml")


def test_every_key_the_code_reads_is_in_the_schema_and_the_reverse():
    schema = config_schema()
    defs = schema["$defs"]
    assert set(schema["properties"]) == set(TOP_KEYS)
    assert set(defs["slides"]["properties"]) == set(SLIDE_KEYS)
    assert set(defs["build"]["properties"]) == set(BUILD_KEYS)
    assert set(defs["lint"]["properties"]) == {item.name for item in fields(LintTable)} | set(TABLE_KEYS)
    rules = defs["lint"]["properties"]["rules"]["properties"]
    assert set(rules) == {entry.name for entry in CATALOGUE} | {entry.id for entry in CATALOGUE}
    # the reverse: every key of the schema, set to its default, is read without complaint
    for table, names in (("slides", SLIDE_KEYS), ("build", BUILD_KEYS)):
        for name in names:
            spec = defs[table]["properties"][name]
            if "default" in spec:
                config_from_table({table: {name: spec["default"]}}, "confnotes.toml")
    for name, spec in schema["properties"].items():
        if "default" in spec:
            config_from_table({name: spec["default"]}, "confnotes.toml")
    for item in fields(LintTable):
        if item.default not in (MISSING, None):
            value = list(item.default) if isinstance(item.default, tuple) else item.default
            build_settings(LintConfig.read({item.name: value}, "confnotes.toml"), "confnotes.toml")


def test_the_lint_table_is_read_typed_with_the_config():
    """``Config.lint`` was the raw ``[lint]`` dict, checked only when lint ran; it is read and
    checked with the rest of the config, its scalar keys as ``LintTable``."""
    config = config_from_table({"lint": {"fail_on": "info", "per-file-ignores": {"drafts/*": ["CN104"]}}}, "confnotes.toml")
    assert isinstance(config.lint, LintConfig) and config.lint.table.fail_on == "info"
    assert dict(config.lint.per_file_ignores) == {"drafts/*": ["CN104"]}
    for bad in ({"fail_on": "never"}, {"per-file-ignores": {"x": "CN104"}}, {"rules": ["CN104"]}):
        with pytest.raises(NotesError, match="lint"):
            config_from_table({"lint": bad}, "confnotes.toml")
