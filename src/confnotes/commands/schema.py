"""confnotes schema: the JSON Schema of the configuration, for editors that check TOML."""

from __future__ import annotations

import click


@click.command("schema")
@click.option("--pyproject", is_flag=True, help="The schema of pyproject.toml's [tool.confnotes] instead of confnotes.toml's.")
def command(pyproject: bool) -> None:
    """Print the JSON Schema of confnotes.toml: every key, its type, default and allowed values.

    Generated from the settings confnotes reads. Point taplo or Even Better TOML at it (see
    docs/editors.md) to complete and check the config as you type; the same file ships in the
    package as confnotes/data/confnotes.schema.json.
    """
    from confnotes.config.schema import schema_json

    click.echo(schema_json(pyproject), nl=False)
