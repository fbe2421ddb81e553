"""Each rule: a failing fixture with its expected findings, a passing one, and its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

import confnotes.lint.rules as rules_package
from confnotes.lint.rules import BY_ID, CATALOGUE, load, modules
from conftest import FIXTURES
from helpers import check_golden

RULE_DIRS = sorted((FIXTURES / "rules").iterdir())


def _rule_id(folder: Path) -> str:
    return folder.name.split("-", 1)[0]


def test_every_rule_has_fixtures():
    assert {_rule_id(d) for d in RULE_DIRS} == {entry.id for entry in CATALOGUE}
    for folder in RULE_DIRS:
        entry = BY_ID[_rule_id(folder)]
        assert folder.name == f"{entry.id}-{entry.name}"


def test_the_catalogue_names_every_rule_module_once():
    """The static catalogue (what lint selects from without importing rules) and the rule modules agree."""
    files = sorted(p.stem for p in Path(rules_package.__file__).parent.glob("cn*.py"))
    assert sorted(entry.module for entry in CATALOGUE) == files
    for entry, module in zip(CATALOGUE, modules(), strict=True):
        assert module.__name__.endswith("." + entry.module)
        assert (module.META.id, module.META.name, module.META.severity) == (entry.id, entry.name, entry.severity)
        assert entry.module.startswith(entry.id.lower() + "_")


def _lint(cli, target: Path, rule_id: str, *extra: str):
    """Lint with one rule; talk rules (slide advice) run with the talk profile, as for a talk's notes."""
    profile = ("--profile", "talk") if BY_ID[rule_id].profile == "talk" else ()
    return cli("lint", "--select", rule_id, "--fail-on", "info", *profile, *extra, str(target))


def _relative(out: str, folder: Path) -> str:
    return out.replace(str(folder) + "/", "")


@pytest.mark.parametrize("folder", RULE_DIRS, ids=lambda p: p.name)
def test_bad_fixture_reports_expected_findings(cli, folder, update_goldens):
    rule_id = _rule_id(folder)
    target = folder / "bad" if (folder / "bad").is_dir() else folder / "bad.md"
    result = _lint(cli, target, rule_id)
    assert result.exit_code == 1, result.output
    lines = [line for line in result.stdout.splitlines() if f" {rule_id} " in line]
    assert lines, "the bad fixture must produce findings"
    check_golden(folder / "expected.txt", _relative("\n".join(lines) + "\n", folder), update_goldens)


@pytest.mark.parametrize("folder", RULE_DIRS, ids=lambda p: p.name)
def test_good_fixture_is_clean(cli, folder):
    rule_id = _rule_id(folder)
    target = folder / "good" if (folder / "good").is_dir() else folder / "good.md"
    result = _lint(cli, target, rule_id)
    assert result.exit_code == 0, result.stdout


FIXABLE = [d for d in RULE_DIRS if load(_rule_id(d)).META.fixable]


@pytest.mark.parametrize("folder", FIXABLE, ids=lambda p: p.name)
def test_fix_gives_expected_text_and_clears_the_finding(cli, folder, tmp_path, update_goldens):
    rule_id = _rule_id(folder)
    note = tmp_path / "bad.md"
    note.write_bytes((folder / "bad.md").read_bytes())
    first = _lint(cli, note, rule_id, "--fix")
    assert first.exit_code in (0, 1)
    fixed = note.read_text(encoding="utf-8")
    check_golden(folder / "bad.fixed.md", fixed, update_goldens)
    again = _lint(cli, note, rule_id)
    remaining = [line for line in again.stdout.splitlines() if f" {rule_id} " in line and line.endswith("[*]")]
    assert remaining == []
    _lint(cli, note, rule_id, "--fix")
    assert note.read_text(encoding="utf-8") == fixed, "a second --fix must change nothing"


def test_a_rule_that_needs_text_the_note_lacks_is_not_imported(tmp_path, processes):
    """Most notes hold no formula, footnote, link or image: those rules' modules never load for them."""
    import subprocess
    import sys

    note = tmp_path / "plain.md"
    note.write_text("# Talk\n\n## Part\n\n- a point\n", encoding="utf-8")
    with_all = tmp_path / "all.md"
    with_all.write_text("# Talk\n\n## Part\n\n- $x$ and a call[^a], [a link](x.md) ![pic](p.png)\n\n[^a]: A note.\n", encoding="utf-8")
    probe = (
        "import sys; from confnotes.cli import main\n"
        "try: main(['lint', '--no-cache', sys.argv[1]])\n"
        "except SystemExit: pass\n"
        "print(sorted(name.rsplit('.', 1)[-1] for name in sys.modules if name.startswith('confnotes.lint.rules.cn2')))"
    )
    names = {}
    for path in (note, with_all):
        out = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, check=True).stdout
        names[path.name] = out.strip().splitlines()[-1]
    for module in ("cn207_empty_link", "cn208_missing_alt_text", "cn209_bad_math", "cn210_dangling_footnote"):
        assert module not in names["plain.md"] and module in names["all.md"], module


def test_findings_inside_titles_point_at_their_characters(tmp_path):
    """A finding in a list item or a heading has the column of its characters in the line, not of the
    item's marker (issue 48: the editor showed a broken link two characters early)."""
    from confnotes.api import lint_note

    note = tmp_path / "talk.md"
    lines = [
        "# Talk",
        "",
        "## See [the demo](demo/missing.md)",
        "",
        "- Slides at https://example.org/deck",
        "  1. Loss: $\\frac{1}{N$ and more",
        "     - [gone](gone.md) and **unclosed",
    ]
    note.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = {(finding.rule, finding.line): finding.col for finding in lint_note(note, select=["CN204", "CN205", "CN206", "CN209"])}
    assert found == {
        ("CN205", 3): lines[2].index("[the demo]") + 1,
        ("CN204", 5): lines[4].index("https://") + 1,
        ("CN209", 6): lines[5].index("$") + 1,
        ("CN205", 7): lines[6].index("[gone]") + 1,
        ("CN206", 7): lines[6].index("**") + 1,
    }


def test_a_link_on_an_items_wrapped_line_or_in_its_block_is_found_where_it_stands(tmp_path):
    """An item's second line and the paragraph or quote under it are held without the item's
    indentation: their broken-link columns came out that many characters early."""
    from confnotes.api import lint_note

    note = tmp_path / "links.md"
    lines = [
        "# Talk",
        "",
        "- first line",
        "  second [y](y.md)",
        "- item",
        "",
        "  block [z](z.md)",
        "",
        "  > quoted [q](q.md)",
    ]
    note.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = {finding.line: finding.col for finding in lint_note(note, select=["CN205"])}
    assert found == {4: lines[3].index("[y]") + 1, 7: lines[6].index("[z]") + 1, 9: lines[8].index("[q]") + 1}
