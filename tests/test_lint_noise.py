"""Lint that note-takers keep on: slide advice only for talks, noisy rules opt-in, and few findings
on notes written the way people write them."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from confnotes.lint.rules import CATALOGUE
from conftest import FIXTURES

REAL = sorted((FIXTURES / "real").glob("*.md"))
CROWDED = "# T\n\n## Section\n\n" + "".join(f"- point number {i} with a few words\n" for i in range(9))


def _findings(cli, *args: str) -> list[dict]:
    result = cli("lint", "--format", "json", "--no-cache", *args)
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)


def test_default_lint_is_quiet_on_realistic_notes(cli):
    findings = _findings(cli, *map(str, REAL))
    per_rule = Counter(f["name"] for f in findings)
    assert len(findings) <= 3 * len(REAL), per_rule
    assert all(count <= 0.8 * len(REAL) for count in per_rule.values()), per_rule
    assert not {"bare-url", "lone-subpoint", "dense-slide", "too-many-items", "long-title"} & set(per_rule)


@pytest.mark.parametrize("front_matter", ["kind: talk", "duration: 20min", "slides:\n  max_items: 6"])
def test_slide_advice_is_for_talks(cli, tmp_path, front_matter):
    notes = tmp_path / "notes.md"
    notes.write_text(CROWDED)
    talk = tmp_path / "talk.md"
    talk.write_text(f"---\n{front_matter}\n---\n\n{CROWDED}")
    assert "too-many-items" not in {f["name"] for f in _findings(cli, str(notes))}
    assert "too-many-items" in {f["name"] for f in _findings(cli, str(talk))}
    assert "too-many-items" in {f["name"] for f in _findings(cli, "--profile", "talk", str(notes))}
    assert "too-many-items" not in {f["name"] for f in _findings(cli, "--profile", "notes", str(talk))}


def test_profile_from_the_config(cli, tmp_path):
    (tmp_path / "confnotes.toml").write_text('[lint]\nprofile = "talk"\n')
    note = tmp_path / "n.md"
    note.write_text(CROWDED)
    assert "too-many-items" in {f["name"] for f in _findings(cli, str(note))}
    (tmp_path / "confnotes.toml").write_text('[lint]\nprofile = "slides"\n')
    result = cli("lint", str(note))
    assert result.exit_code == 2 and "'lint.profile' must be one of auto, notes, talk" in result.stderr


def test_opt_in_rules_run_only_when_named(cli, tmp_path):
    note = tmp_path / "n.md"
    note.write_text("# T\n\n## A\n\n- see https://example.org/slides\n- Benefits:\n  - one detail\n")
    assert not {"bare-url", "lone-subpoint"} & {f["name"] for f in _findings(cli, str(note))}
    assert not {"bare-url", "lone-subpoint"} & {f["name"] for f in _findings(cli, "--select", "CN1,CN2", str(note))}
    named = {f["name"] for f in _findings(cli, "--select", "bare-url,CN109", str(note))}
    assert named == {"bare-url", "lone-subpoint"}


def test_rules_list_shows_profile_and_opt_in(cli):
    out = cli("rules").stdout
    assert any(line.startswith("CN302") and " talk " in line for line in out.splitlines())
    assert any(line.startswith("CN204") and " opt-in " in line for line in out.splitlines())
    assert "Opt-in: runs only when selected" in cli("rules", "CN204").stdout


def test_pages_turn_bare_urls_into_links(cli, tmp_path):
    note = tmp_path / "n.md"
    note.write_text("# T\n\nSlides at https://example.org/deck and www.example.com.\n")
    page = cli("render", str(note), "--to", "html", "-o", "-").stdout
    assert '<a href="https://example.org/deck">https://example.org/deck</a>' in page
    assert '<a href="http://www.example.com">www.example.com</a>' in page


@pytest.mark.parametrize("where", ["root", "pyproject", "config-flag"])
def test_exclude_from_the_config_where_the_run_starts(cli, tmp_path, monkeypatch, where):
    """`lint .` at the project root honours the root config's exclude (it used to look one folder up)."""
    (tmp_path / "drafts").mkdir()
    (tmp_path / "talks").mkdir()
    note = "## No title\n\n- a\n\n## B\n\n- b\n"
    (tmp_path / "drafts" / "d.md").write_text(note)
    (tmp_path / "talks" / "t.md").write_text(note)
    table = '[lint]\nexclude = ["drafts/*"]\n'
    if where == "root":
        (tmp_path / "confnotes.toml").write_text(table)
    elif where == "pyproject":
        (tmp_path / "pyproject.toml").write_text('[tool.confnotes.lint]\nexclude = ["drafts/*"]\n')
    else:
        (tmp_path / "elsewhere.toml").write_text(table)
    monkeypatch.chdir(tmp_path)
    extra = ("--config", "elsewhere.toml") if where == "config-flag" else ()
    paths = {f["path"] for f in _findings(cli, *extra, ".")}
    assert paths == {"talks/t.md"}
    formatted = cli("fmt", "--check", ".")
    assert "drafts" not in formatted.output


def test_duplicate_headings_are_the_authors_only(cli, tmp_path):
    pasted = tmp_path / "pasted.md"
    pasted.write_text("Retro\n\nActions\n\n• one\n\nNotes\n\n• two\n\nActions\n\n• three\n")
    assert "duplicate-heading" not in {f["name"] for f in _findings(cli, str(pasted))}
    written = tmp_path / "written.md"
    written.write_text("# T\n\n## Day 1\n\n### Q&A\n\n- a\n\n## Day 2\n\n### Q&A\n\n- b\n")
    assert "duplicate-heading" not in {f["name"] for f in _findings(cli, str(written))}
    (tmp_path / "confnotes.toml").write_text("[lint.rules.duplicate-heading]\nsiblings_only = false\n")
    assert [f["line"] for f in _findings(cli, str(written)) if f["name"] == "duplicate-heading"] == [11]


@pytest.mark.parametrize(("style", "lines"), [("ordered", [4]), ("one", [9]), ("one_or_ordered", [])])
def test_numbering_style_as_markdownlint_md029(cli, tmp_path, style, lines):
    (tmp_path / "confnotes.toml").write_text(f'[lint.rules.numbering]\nstyle = "{style}"\n')
    note = tmp_path / "n.md"
    note.write_text("# T\n\n1. a\n1. b\n\n## B\n\n1. c\n2. d\n")
    found = [f["line"] for f in _findings(cli, "--select", "numbering", str(note))]
    assert found == lines


def test_numbering_fix_after_a_paragraph_line_makes_no_duplicates(cli, tmp_path):
    note = tmp_path / "n.md"
    note.write_text("# T\n\nSteps we took:\n1. Install\n2. Configure\n4. Run\n")
    cli("lint", "--fix", "--no-cache", "--select", "numbering", str(note))
    assert note.read_text().endswith("1. Install\n2. Configure\n3. Run\n")


def test_exit_zero_and_stdin_filename(cli, tmp_path, monkeypatch):
    (tmp_path / "talks").mkdir()
    (tmp_path / "talks" / "confnotes.toml").write_text('[lint]\nselect = ["CN103"]\n')
    monkeypatch.chdir(tmp_path)
    text = "# T\n\n## A\n\n- a\n\n## A\n\n- b\n"
    result = cli("lint", "-", "--stdin-filename", "talks/new.md", "--no-cache", input=text)
    assert result.exit_code == 1 and result.stdout.startswith("talks/new.md:7:1: CN103 duplicate-heading")
    assert "CN101" not in result.stdout  # the config of talks/ applied
    assert cli("lint", "-", "--stdin-filename", "talks/new.md", "--no-cache", "--exit-zero", input=text).exit_code == 0


def test_rules_as_json_and_sarif_without_placeholder_links(cli):
    rules = json.loads(cli("rules", "--format", "json").stdout)
    assert {r["id"] for r in rules} >= {"CN113", "CN207", "CN208"}
    numbering = next(r for r in rules if r["name"] == "numbering")
    assert numbering["options"] == {"style": "one_or_ordered", "start": None} and numbering["default"] is True
    assert json.loads(cli("rules", "bare-url", "--format", "json").stdout)[0]["default"] is False
    sarif = cli("lint", "--format", "sarif", "--no-cache", str(REAL[0])).stdout
    assert "confnotes.invalid" not in sarif
    driver = json.loads(sarif)["runs"][0]["tool"]["driver"]
    assert all(rule["help"]["markdown"].startswith(f"## {rule['id']}") for rule in driver["rules"])


def test_bold_line_headings_are_checked_for_punctuation(cli, tmp_path):
    note = tmp_path / "n.md"
    note.write_text("# QCon\n\n**Session 1: Platform:**\n- a\n- b\n")
    found = _findings(cli, "--select", "heading-punctuation", str(note))
    assert [(f["line"], f["message"]) for f in found] == [(3, "heading ends with ':'")]
    cli("lint", "--fix", "--no-cache", "--select", "heading-punctuation", str(note))
    assert "**Session 1: Platform**\n" in note.read_text()


def test_right_aligned_numbers_are_consistent(cli, tmp_path):
    note = tmp_path / "n.md"
    note.write_text("# Top ten\n\n" + "".join(f"{n:>2}. item {n}\n" for n in range(1, 12)))
    assert "inconsistent-indent" not in {f["name"] for f in _findings(cli, str(note))}
    ragged = tmp_path / "ragged.md"
    ragged.write_text("# T\n\n- a\n - b\n- c\n")
    assert "inconsistent-indent" in {f["name"] for f in _findings(cli, str(ragged))}


def test_config_lang_and_slides_notes_are_used(cli, tmp_path):
    """Every config key does something: lang is the notes' default language, slides.notes drops notes from decks."""
    (tmp_path / "confnotes.toml").write_text('lang = "de"\n\n[slides]\nnotes = false\n')
    note = tmp_path / "n.md"
    note.write_text("# Vortrag\n\n## Teil\n\n- Punkt\n\n<!-- notes: geheim -->\n")
    assert '<html lang="de">' in cli("render", str(note), "--to", "html", "-o", "-").stdout
    deck = cli("render", str(note), "--to", "slides", "-o", "-").stdout
    assert "geheim" not in deck
    (tmp_path / "confnotes.toml").write_text('lang = "de"\n')
    assert "geheim" in cli("render", str(note), "--to", "slides", "-o", "-").stdout


def test_extends_and_per_file_ignores(cli, tmp_path):
    """Configs like ruff's: a project config extends a shared one (in the same repository: extends
    reads nothing outside it), and turns rules off per file."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "shared.toml").write_text('[lint]\nselect = ["CN101", "CN104"]\n\n[slides]\nmax_items = 4\n')
    project = tmp_path / "project"
    (project / "archive").mkdir(parents=True)
    (project / "confnotes.toml").write_text('extends = "../shared.toml"\n\n[lint.per-file-ignores]\n"archive/*" = ["no-title"]\n')
    note = "## Empty\n\n## Full\n\n- a\n"
    (project / "talk.md").write_text(note)
    (project / "archive" / "old.md").write_text(note)
    found = {(Path(f["path"]).name, f["rule"]) for f in _findings(cli, str(project))}
    assert found == {("talk.md", "CN101"), ("talk.md", "CN104"), ("old.md", "CN104")}
    (project / "confnotes.toml").write_text('extends = "missing.toml"\n')
    result = cli("lint", str(project / "talk.md"))
    assert result.exit_code == 2 and "'extends': missing.toml not found" in result.stderr
    (tmp_path / "shared.toml").write_text('extends = "project/confnotes.toml"\n')
    (project / "confnotes.toml").write_text('extends = "../shared.toml"\n')
    result = cli("lint", str(project / "talk.md"))
    assert result.exit_code == 2 and "goes round in a circle" in result.stderr


def test_sarif_validates_against_the_2_1_0_model(cli):
    """Every finding of every rule, as SARIF, read back by a SARIF 2.1.0 model (sarif-pydantic)."""
    from sarif_pydantic import Sarif

    rules = FIXTURES / "rules"
    out = cli("lint", "--format", "sarif", "--no-cache", "--profile", "talk", "--select", "ALL,bare-url,lone-subpoint", str(rules))
    log = Sarif.model_validate(json.loads(out.stdout))
    driver = log.runs[0].tool.driver
    assert len(driver.rules) == len(CATALOGUE) and len(log.runs[0].results) >= len(CATALOGUE)
    assert {result.rule_id for result in log.runs[0].results} >= {"CN204", "CN207", "CN208", "CN301"}


def test_sarif_help_links_to_the_configured_rules_page(cli, tmp_path):
    from sarif_pydantic import Sarif

    (tmp_path / "confnotes.toml").write_text('[lint]\ndocs_url = "https://notes.example.org/confnotes/docs/rules.md"\n')
    note = tmp_path / "n.md"
    note.write_text("# T\n\n- a\n - b\n")
    out = cli("lint", "--format", "sarif", "--no-cache", str(note))
    driver = Sarif.model_validate(json.loads(out.stdout)).runs[0].tool.driver
    help_uri = {rule.id: str(rule.help_uri) for rule in driver.rules}
    assert help_uri["CN107"] == "https://notes.example.org/confnotes/docs/rules.md#cn107-inconsistent-indent"
    # the anchor is a heading docs/rules.md really has
    assert "\n## CN107 inconsistent-indent\n" in (Path(__file__).parents[1] / "docs" / "rules.md").read_text()
    (tmp_path / "confnotes.toml").write_text('[lint]\ndocs_url = "rules.md"\n')
    bad = cli("lint", "--no-cache", str(note))
    assert bad.exit_code == 2 and "docs_url" in bad.stderr


def test_lists_inside_block_quotes_are_checked(cli, tmp_path):
    """A quoted slide, a quoted Slack thread: lists in block quotes follow the same indent rule."""
    note = tmp_path / "n.md"
    note.write_text(
        "# Keynote: Shipping\n\nThe speaker's slide, as I copied it:\n\n"
        "> Three habits\n>\n> - Ship small\n>  - Ship often\n> - Measure\n>\n> 1. one\n> 2. two\n\n"
        "From the Slack thread afterwards:\n\n> > - nested a\n> >   - child\n> > - nested b\n>\n>  9. nine\n> 10. ten\n"
    )
    found = _findings(cli, "--select", "inconsistent-indent", str(note))
    assert [(f["line"], f["column"]) for f in found] == [(8, 4)]
    assert "its siblings use 0" in found[0]["message"]
    good = tmp_path / "good.md"
    good.write_text(note.read_text().replace(">  - Ship often", "> - Ship often"))
    assert _findings(cli, "--select", "inconsistent-indent", str(good)) == []
