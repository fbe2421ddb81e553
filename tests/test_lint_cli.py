"""``confnotes lint``, ``fmt`` and ``rules`` on the command line: outputs, config, exit codes."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from confnotes.edges.source import read_source
from confnotes.fmt import format_markdown, outline_signature
from confnotes.lint.rules import CATALOGUE
from confnotes.parse import parse_source
from conftest import FIXTURES, NOTES, ROOT
from helpers import one_error_line

ALL_NOTES = sorted((FIXTURES / "notes").glob("*.md")) + sorted(NOTES.glob("*.md"))


def test_reading_list_missing_annotation(cli):
    result = cli("lint", str(NOTES / "scaling-reading-list.md"))
    assert result.exit_code == 1
    expected = (
        f"{NOTES / 'scaling-reading-list.md'}:15:1: CN104 empty-section "
        "entry 'Wide Attention Is The Way Forward for Transformers' has no annotation"
    )
    assert expected in result.stdout.splitlines()


def test_scale2025_reports_pasted_structure_and_stray_filename(cli):
    result = cli("lint", str(NOTES / "scale2025.md"), "--format", "json")
    findings = json.loads(result.stdout)
    names = {f["name"] for f in findings}
    assert {"pasted-structure", "stray-filename"} <= names
    assert not [f for f in findings if f["severity"] == "error"]
    stray = next(f for f in findings if f["name"] == "stray-filename")
    assert (stray["line"], stray["column"], stray["fixable"]) == (3, 1, True)


@pytest.mark.parametrize("path", ALL_NOTES, ids=lambda p: p.stem)
def test_fmt_preserves_outline_and_is_idempotent(path):
    source = read_source(path)
    doc = parse_source(source)
    once = format_markdown(doc, source=source.text)
    again_doc = parse_source(type(source)(path=str(path), text=once))
    assert outline_signature(again_doc) == outline_signature(doc)
    assert format_markdown(again_doc, source=once) == once


@pytest.mark.parametrize("path", ALL_NOTES, ids=lambda p: p.stem)
def test_fix_twice_changes_nothing_the_second_time(cli, tmp_path, path):
    note = tmp_path / path.name
    note.write_bytes(path.read_bytes())
    cli("lint", "--fix", str(note))
    after_first = note.read_bytes()
    cli("lint", "--fix", str(note))
    assert note.read_bytes() == after_first


def test_fix_keeps_crlf_and_bom(cli, tmp_path):
    note = tmp_path / "x.md"
    note.write_bytes(b"\xef\xbb\xbf# T\r\n\r\n## S\r\n\r\n1. a\r\n3. b\r\n")
    cli("lint", "--fix", "--select", "numbering", str(note))
    assert note.read_bytes() == b"\xef\xbb\xbf# T\r\n\r\n## S\r\n\r\n1. a\r\n2. b\r\n"


def _all_findings(cli, fmt: str):
    return cli("lint", str(FIXTURES / "notes"), str(NOTES), "--format", fmt)


def test_json_and_sarif_carry_every_finding(cli):
    findings = json.loads(_all_findings(cli, "json").stdout)
    assert len(findings) > 10
    assert set(findings[0]) == {"path", "line", "column", "rule", "name", "severity", "message", "fixable", "fix"}
    sarif = json.loads(_all_findings(cli, "sarif").stdout)
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert len(rules) == len(CATALOGUE) and all({"id", "name", "shortDescription", "fullDescription", "help"} <= set(r) for r in rules)
    results = run["results"]
    assert len(results) == len(findings)
    for result, finding in zip(results, findings, strict=True):
        assert result["ruleId"] == finding["rule"]
        assert rules[result["ruleIndex"]]["id"] == finding["rule"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert (region["startLine"], region["startColumn"]) == (finding["line"], finding["column"])
        assert result["level"] == {"error": "error", "warning": "warning", "info": "note"}[finding["severity"]]


def test_github_workflow_commands(cli):
    lines = _all_findings(cli, "github").stdout.splitlines()
    findings = json.loads(_all_findings(cli, "json").stdout)
    assert len(lines) == len(findings)
    pattern = re.compile(r"^::(error|warning|notice) file=[^,]+,line=\d+,col=\d+,title=CN\d{3} [a-z-]+::[^\n]+$")
    for line in lines:
        assert pattern.match(line), line


def test_junit_xml(cli):
    """One test case a note; a note with a warning or error is one failure listing its findings."""
    root = ET.fromstring(_all_findings(cli, "junit").stdout)
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    failures = root.findall(".//failure")
    findings = json.loads(_all_findings(cli, "json").stdout)
    failing = {f["path"] for f in findings if f["severity"] != "info"}
    assert int(suite.get("tests")) == len(cases) == len({f["path"] for f in findings} | {c.get("name") for c in cases})
    assert int(suite.get("failures")) == len(failures) == len(failing)
    assert int(root.get("failures")) == len(failing) and int(root.get("tests")) == len(cases)
    for case in cases:
        failure = case.find("failure")
        assert (failure is not None) == (case.get("name") in failing)
        if failure is not None:
            mine = [f for f in findings if f["path"] == case.get("name")]
            assert all(f"{f['rule']} {f['name']}" in failure.text for f in mine)


def test_text_format_and_statistics(cli):
    result = cli("lint", str(FIXTURES / "rules" / "CN105-numbering" / "bad.md"), "--statistics")
    assert "\x1b[" not in result.stdout  # no colour when not on a terminal
    assert re.search(r"bad\.md:7:1: CN105 numbering points jump from 2 to 4 \[\*\]", result.stdout)
    assert re.search(r"^\s+2  CN105 numbering \(warning\)$", result.stdout, re.MULTILINE)


def test_select_ignore_and_fail_on(cli):
    note = str(NOTES / "scaling-reading-list.md")
    assert cli("lint", note, "--select", "CN109").exit_code == 0
    assert cli("lint", note, "--ignore", "empty-section,long-title,CN110").exit_code == 0
    assert cli("lint", note, "--fail-on", "error").exit_code == 0
    assert cli("lint", note, "--fail-on", "info").exit_code == 1
    assert cli("lint", note, "--select", "CN1").exit_code == 1


def test_config_errors_exit_2(cli, tmp_path):
    note = tmp_path / "n.md"
    note.write_text("# T\n\n## A\n\n- a\n")
    (tmp_path / "confnotes.toml").write_text("[lint]\nselekt = ['CN101']\n")
    line = one_error_line(cli("lint", str(note)))
    assert line.startswith(f"{tmp_path / 'confnotes.toml'}: unknown key 'lint.selekt'")
    (tmp_path / "confnotes.toml").write_text("[lint.rules.CN999]\nseverity = 'info'\n")
    assert "unknown rule 'CN999'" in one_error_line(cli("lint", str(note)))
    (tmp_path / "confnotes.toml").write_text("[lint.rules.long-item]\nmax_wordz = 3\n")
    assert "unknown option 'max_wordz' for rule CN201 long-item" in one_error_line(cli("lint", str(note)))
    (tmp_path / "confnotes.toml").write_text("theme = \n")
    assert "invalid TOML" in one_error_line(cli("lint", str(note)))
    (tmp_path / "confnotes.toml").write_text("colour = 'red'\n")
    assert "unknown key 'colour'" in one_error_line(cli("lint", str(note)))


def test_unknown_rule_on_command_line(cli):
    line = one_error_line(cli("lint", str(NOTES / "scale2025.md"), "--select", "CN999"))
    assert line == "confnotes: unknown rule 'CN999' (command line); 'confnotes rules' lists them"


def test_unreadable_note_in_lint(cli, tmp_path):
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"# T\n\xff\n")
    line = one_error_line(cli("lint", str(bad)))
    assert line == f"{bad}: not valid UTF-8 at line 2, column 1 (byte 0xff)"


def test_config_from_pyproject_sets_severity_and_options(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        "[tool.confnotes.lint]\nignore = ['CN109']\nprofile = 'talk'\n"  # long-item is slide advice
        "[tool.confnotes.lint.rules.long-item]\nmax_words = 3\nseverity = 'error'\n"
    )
    sub = tmp_path / "talks"
    sub.mkdir()
    note = sub / "n.md"
    note.write_text("# T\n\n## A\n\n- one two three four\n  - lone\n")
    result = cli("lint", str(note), "--format", "json")
    findings = json.loads(result.stdout)
    assert [(f["rule"], f["severity"]) for f in findings] == [("CN201", "error")]
    assert findings[0]["message"] == "item has 4 words (limit 3)"


def test_inline_disables(cli, tmp_path):
    note = tmp_path / "n.md"
    note.write_text(
        "# T\n\n## A\n\n<!-- confnotes-disable-next-line CN201 -->\n"
        "- one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
        "eighteen nineteen twenty twentyone twentytwo twentythree twentyfour twentyfive twentysix twentyseven "
        "twentyeight twentynine thirty thirtyone\n\n"
        "<!-- confnotes-disable empty-section -->\n\n## Empty\n\n<!-- confnotes-enable empty-section -->\n\n"
        "## Also empty\n\n## Last\n\n- x\n"
    )
    findings = json.loads(cli("lint", str(note), "--format", "json", "--profile", "talk").stdout)  # long-item is slide advice
    assert [(f["rule"], f["line"]) for f in findings] == [("CN104", 14)]


def test_walks_folders_and_honours_gitignore_and_exclude(cli, tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("drafts/\n")
    for folder in ("talks", "drafts", "archive"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "n.md").write_text("## No title\n\n- a\n\n## Second\n\n- b\n")
    result = cli("lint", str(tmp_path), "--exclude", "archive", "--format", "json")
    paths = {Path(f["path"]).parent.name for f in json.loads(result.stdout)}
    assert paths == {"talks"}


def test_fmt_check_diff_and_write(cli, tmp_path):
    note = tmp_path / "n.md"
    shutil.copy(FIXTURES / "fmt" / "tidied" / "mostly-dash-one-star.md", note)
    before = note.read_bytes()
    check = cli("fmt", "--check", str(note))
    assert check.exit_code == 1 and check.stdout.strip() == f"would reformat {note}"
    assert note.read_bytes() == before
    diff = cli("fmt", "--diff", str(note))
    assert diff.exit_code == 1 and "+- Write the timeline before the analysis" in diff.stdout
    assert note.read_bytes() == before
    assert cli("fmt", str(note)).exit_code == 0
    formatted = note.read_bytes()
    assert formatted != before and b"\n* " not in formatted
    mtime = note.stat().st_mtime_ns
    assert cli("fmt", str(note)).exit_code == 0
    assert note.stat().st_mtime_ns == mtime, "fmt rewrote an unchanged file"
    assert cli("fmt", "--check", str(note)).exit_code == 0


def test_fmt_stdin(cli):
    result = cli("fmt", "-", input="Title  \n\n\nPart\n\n• a\n\n")
    assert result.stdout == "Title\n\nPart\n\n• a\n"  # tidied; a paste's structure is lint --fix's to write


def test_rules_command_and_docs_are_current(cli):
    listing = cli("rules").stdout
    assert "CN104  empty-section" in listing and listing.count("\nCN") == len(CATALOGUE) - 1
    one = cli("rules", "empty-section").stdout
    for part in ("**What it does.**", "**Why it matters.**", "**Example**", "**Use instead**", "**Fix.**", "**Options**"):
        assert part in one
    assert cli("rules", "CN999").exit_code == 2
    from confnotes.lint.report import catalogue_markdown

    assert (ROOT / "docs" / "rules.md").read_text() == catalogue_markdown(), (
        "docs/rules.md is stale: python -m confnotes.lint.docs > docs/rules.md"
    )


def test_pre_commit_hooks_run_as_pre_commit_runs_them(tmp_path, processes):
    """Each hook's entry, given file names as pre-commit passes them: lint fails on findings, fmt rewrites."""
    import shlex
    import subprocess
    import sys

    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"confnotes-lint", "confnotes-fmt"}
    bad = tmp_path / "bad.md"
    bad.write_text("# T\n\n## Empty\n\n## Full\n\n- a\n")
    pasted = tmp_path / "pasted.md"
    pasted.write_text("Retro  \n\nWent well\n\n\n• booth duty\n")

    def run(hook: str, *files: Path) -> subprocess.CompletedProcess[str]:
        command = shlex.split(hooks[hook]["entry"])
        assert command[0] == "confnotes" and hooks[hook]["types"] == ["markdown"]
        return subprocess.run(
            [sys.executable, "-m", "confnotes", *command[1:], "--no-cache", *map(str, files)]
            if hook == "confnotes-lint"
            else [sys.executable, "-m", "confnotes", *command[1:], *map(str, files)],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )

    import re

    for hook in hooks.values():  # pre-commit passes only files the hook's exclude lets through
        assert re.search(hook["exclude"], "README.md") and re.search(hook["exclude"], "docs/CHANGELOG.md")
        assert not re.search(hook["exclude"], "notes/readme-of-the-keynote.md")
    lint = run("confnotes-lint", bad)
    assert lint.returncode == 1 and "CN104" in lint.stdout
    assert run("confnotes-fmt", pasted).returncode == 0
    assert pasted.read_text() == "Retro\n\nWent well\n\n• booth duty\n"


def test_fmt_needs_paths(cli):
    result = cli("fmt")
    assert result.exit_code == 2 and "Missing argument 'PATHS...'" in result.stderr


def test_links_inside_code_are_not_checked(cli, tmp_path):
    note = tmp_path / "n.md"
    note.write_text("```md\n![x](missing-in-lede.png)\n```\n\n# T\n\n## A\n\n```md\n[y](missing-in-body.md)\n```\n\n- a\n- b\n")
    findings = json.loads(cli("lint", str(note), "--format", "json", "--select", "CN205", "--no-cache").stdout)
    assert findings == []
