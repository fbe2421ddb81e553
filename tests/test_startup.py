"""lint, outline and fmt start light: they never import WeasyPrint, python-pptx or Jinja."""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest

from conftest import NOTES

HEAVY = ("weasyprint", "pptx", "jinja2")
#: Runs a confnotes command in a fresh interpreter and reports every module it imported.
PROBE = """
import json, sys
from confnotes.cli import main
sys.argv = ["confnotes", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
sys.stderr.write("IMPORTS " + json.dumps(sorted(sys.modules)) + "\\n")
"""


def imported(*args: str) -> list[str]:
    """The modules ``confnotes ARGS…`` imports, in a fresh interpreter."""
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True)
    line = next(line for line in proc.stderr.splitlines() if line.startswith("IMPORTS "))
    return list(json.loads(line.removeprefix("IMPORTS ")))


def heavy(*args: str) -> list[str]:
    return sorted({name.split(".")[0] for name in imported(*args)} & set(HEAVY))


@pytest.mark.parametrize(
    "args",
    [
        ["lint", str(NOTES / "scale2025.md")],
        ["lint", "--fix", "--select", "CN105", str(NOTES / "scaling-reading-list.md")],
        ["outline", str(NOTES / "scale2025.md"), "--format", "json"],
        ["outline", str(NOTES / "scaling-reading-list.md"), "--format", "opml"],
        ["fmt", "--check", str(NOTES / "scale2025.md")],
    ],
)
def test_light_commands_do_not_import_heavy_modules(args, processes):
    assert heavy(*args) == []


def test_render_pdf_does_import_weasyprint(tmp_path, processes):
    """The probe itself works: a PDF render does load WeasyPrint."""
    out = tmp_path / "x.pdf"
    assert "weasyprint" in heavy("render", str(NOTES / "scale2025.md"), "--to", "pdf", "-o", str(out))


#: What `confnotes lint one.md` may import beyond the standard library, and how many of confnotes'
#: own modules; a change that grows either list must grow these on purpose.
LINT_THIRD_PARTY = {"click", "markdown_it", "mdit_py_plugins", "mdurl", "linkify_it", "uc_micro"}
#: (confnotes.parse.incremental: tokens reused for an open note; model.values, parse.values and
#: parse.directives: typed blocks, slide directives read once; _version, and the empty packages
#: markup and edges that group the layers' modules)
LINT_OWN_MODULES = 57


def test_the_import_list_of_lint_does_not_grow(tmp_path, processes):
    note = tmp_path / "one.md"
    note.write_text("# One note\n\n## Part\n\n- a point\n")
    names = imported("lint", "--no-cache", str(note))
    top = {name.split(".")[0] for name in names}
    third_party = {name for name in top if name not in sys.stdlib_module_names and not name.startswith("_") and name != "confnotes"}
    assert third_party <= LINT_THIRD_PARTY, sorted(third_party - LINT_THIRD_PARTY)
    own = [name for name in names if name.startswith("confnotes")]
    assert len(own) <= LINT_OWN_MODULES, f"{len(own)} confnotes modules imported: {own}"
    assert "yaml" not in top, "a note without front matter does not load YAML"
    # rules load from the static catalogue only when they run: no slide advice, so no deck or timing code
    assert not {"confnotes.slides", "confnotes.timing", "confnotes.render"} & set(names)
    assert not [name for name in names if name.startswith("confnotes.lint.rules.cn3")]
    # only the command that runs is loaded, and a run without a cache hashes and writes nothing
    assert [name for name in names if name.startswith("confnotes.commands.")] == ["confnotes.commands.lint"]
    assert not {"hashlib", "tempfile"} & top  # (the probe itself imports json)


def test_a_talk_loads_the_talk_rules(tmp_path, processes):
    note = tmp_path / "talk.md"
    note.write_text("---\nduration: 20min\n---\n# A talk\n\n## Part\n\n- a point\n")
    names = imported("lint", "--no-cache", str(note))
    assert "confnotes.lint.rules.cn304_over_time" in names and "confnotes.slides" in names


def test_every_command_module_is_in_the_group_and_named_after_its_module():
    """The lazy group lists exactly the modules of confnotes.commands, each defining ``command``."""
    from pathlib import Path

    import confnotes.commands
    from confnotes.cli import COMMANDS, main

    # a keyword names its module with a trailing underscore (import -> import_)
    modules = sorted(p.stem.removesuffix("_") for p in Path(confnotes.commands.__file__).parent.glob("*.py") if p.stem != "__init__")
    assert sorted(COMMANDS) == modules
    for name in COMMANDS:
        command = main.get_command(click.Context(main), name)
        assert command is not None and command.name == name


@pytest.mark.parametrize(("typed", "meant"), [("lnt", "lint"), ("rule", "rules"), ("buil", "build"), ("renderr", "render")])
def test_a_mistyped_command_gets_a_suggestion(cli, typed, meant):
    result = cli(typed)
    assert result.exit_code == 2
    assert f"No such command '{typed}'. Did you mean '{meant}'?" in result.output


def test_only_the_command_that_runs_is_imported(processes):
    names = imported("rules", "CN101")
    assert [name for name in names if name.startswith("confnotes.commands.")] == ["confnotes.commands.rules"]


def test_help_command_shows_the_help_of_confnotes_or_of_one_command(cli):
    assert "Commands:" in cli("help").output
    result = cli("help", "lint")
    assert result.exit_code == 0 and "lint [OPTIONS] [PATHS]" in result.output and "--fix" in result.output
    wrong = cli("help", "lnt")
    assert wrong.exit_code == 2 and "Did you mean 'lint'?" in wrong.output
    assert "help" not in cli("--help").output.split("Commands:")[1]  # hidden: --help is the documented way
