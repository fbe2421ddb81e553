"""A config's ``exclude`` globs are relative to the config file's folder, as documented, whichever folder a
command walks and wherever it runs from; ``--exclude`` globs stay relative to the folder walked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from confnotes.config.ignore import Exclude, config_excludes
from confnotes.edges.source import discover

#: a pasted draft: lint finds an empty section, fmt would rewrite its bullets
DRAFT = "# Keynote draft\n\n## Opening story\n\n## Numbers to check\n\n• p99 latency before and after\n• cost per request\n"
TALK = "# Day one\n\n## Keynote\n\n- Ship small changes\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "confnotes.toml").write_text(
        '[lint]\nexclude = ["notes/drafts/*"]\n\n[build]\nformats = ["outline"]\nexclude = ["notes/drafts/*"]\n', encoding="utf-8"
    )
    (tmp_path / "notes" / "drafts").mkdir(parents=True)
    (tmp_path / "notes" / "drafts" / "d.md").write_text(DRAFT, encoding="utf-8")
    (tmp_path / "notes" / "day1.md").write_text(TALK, encoding="utf-8")
    return tmp_path


def _linted(cli, *args: str) -> set[str]:
    result = cli("lint", "--no-cache", "--format", "json", "--fail-on", "info", *args)
    assert result.exit_code in (0, 1), result.output
    return {Path(finding["path"]).name for finding in json.loads(result.stdout)}


@pytest.mark.parametrize(("cwd", "target"), [(".", "notes"), (".", "."), ("notes", "."), ("notes", "drafts/..")])
def test_lint_skips_what_the_root_config_excludes_from_any_folder(cli, project, monkeypatch, cwd, target):
    monkeypatch.chdir(project / cwd)
    assert _linted(cli, target) == set()
    assert _linted(cli, "--select", "ALL", str(project / "notes" / "drafts" / "d.md")) == {"d.md"}  # a file named is linted


def test_fmt_skips_what_the_root_config_excludes(cli, project, monkeypatch):
    monkeypatch.chdir(project)
    result = cli("fmt", "--check", "notes")
    assert result.exit_code == 0, result.output
    assert (project / "notes" / "drafts" / "d.md").read_text(encoding="utf-8") == DRAFT


def test_build_skips_what_the_root_config_excludes(cli, project, monkeypatch):
    monkeypatch.chdir(project)
    result = cli("build", "notes", "-o", "site", "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    built = sorted(path.relative_to(project / "site").as_posix() for path in (project / "site").rglob("*.slides.txt"))
    assert built == ["day1.slides.txt"]


def test_a_command_line_exclude_is_relative_to_the_folder_walked(cli, project, monkeypatch):
    (project / "confnotes.toml").write_text("[lint]\n", encoding="utf-8")
    monkeypatch.chdir(project)
    assert _linted(cli, "notes") == {"d.md"}
    assert _linted(cli, "notes", "--exclude", "drafts/*") == set()


def test_a_config_glob_carries_its_folder():
    globs = config_excludes(("notes/drafts/*", "*.tmp.md"), "/srv/team/confnotes.toml")
    assert globs == (Exclude("notes/drafts/*", "/srv/team"), Exclude("*.tmp.md", "/srv/team"))
    assert config_excludes(("drafts/*",), None) == ("drafts/*",)


def test_discover_matches_a_config_glob_from_its_folder_and_a_bare_name_at_any_depth(project):
    (project / "notes" / "day1.tmp.md").write_text(TALK, encoding="utf-8")
    excludes = config_excludes(("notes/drafts/*", "*.tmp.md"), str(project / "confnotes.toml"))
    found = [Path(path).relative_to(project).as_posix() for path in discover([str(project / "notes")], excludes)]
    assert found == ["notes/day1.md"]
