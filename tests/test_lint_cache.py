"""The lint cache and parallel lint: same findings, fewer parses."""

from __future__ import annotations

import json

from confnotes.check import Checker


def _corpus(folder, count=40):
    folder.mkdir()
    for index in range(count):
        (folder / f"n{index:02d}.md").write_text(f"# Talk {index}\n\n## Part\n\n1. Point\n3. Jump\n\n![pic](missing{index % 2}.png)\n")
    return folder


def test_second_run_comes_from_the_cache(cli, tmp_path, monkeypatch):
    notes = _corpus(tmp_path / "notes")
    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(tmp_path / "cache"))
    first = cli("lint", str(notes), "--format", "json")
    assert (tmp_path / "cache" / ".gitignore").read_text().endswith("*\n")
    assert (tmp_path / "cache" / "lint-v1.json").is_file()

    def boom(self, note, digest=""):
        raise AssertionError(f"{note} was linted again")

    monkeypatch.setattr(Checker, "lint_note", boom)
    second = cli("lint", str(notes), "--format", "json")
    assert second.exit_code == first.exit_code == 1
    assert json.loads(second.stdout) == json.loads(first.stdout)
    text = cli("lint", str(notes), "--format", "text").stdout
    assert text.count("[*]\n") == 41 and "40 fixable with --fix" in text  # fixable marks survive the cache


def test_cache_misses_on_changed_note_link_target_and_options(cli, tmp_path, monkeypatch):
    notes = _corpus(tmp_path / "notes", 4)
    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(tmp_path / "cache"))
    cli("lint", str(notes))
    seen: list[str] = []
    original = Checker.lint_note

    def spy(self, note, digest=""):
        seen.append(note.rsplit("/", 1)[-1])
        return original(self, note, digest)

    monkeypatch.setattr(Checker, "lint_note", spy)
    (notes / "n00.md").write_text("# Talk 0\n\n## Part\n\n1. Point\n2. Fixed\n")
    (notes / "missing1.png").write_bytes(b"")  # n01 and n03 link to it
    findings = json.loads(cli("lint", str(notes), "--format", "json").stdout)
    assert sorted(seen) == ["n00.md", "n01.md", "n03.md"]
    assert not [f for f in findings if f["path"].endswith("n00.md")]
    assert not [f for f in findings if f["rule"] == "CN205" and f["path"].endswith(("n01.md", "n03.md"))]
    seen.clear()
    cli("lint", str(notes), "--select", "CN105")
    assert len(seen) == 4, "different options must not reuse cached findings"
    seen.clear()
    cli("lint", str(notes), "--no-cache")
    assert len(seen) == 4


def test_parallel_lint_gives_the_same_findings(cli, tmp_path, processes):
    notes = _corpus(tmp_path / "notes", 40)
    one = cli("lint", str(notes), "--format", "json", "-j", "1", "--no-cache")
    two = cli("lint", str(notes), "--format", "json", "-j", "2", "--no-cache")
    assert json.loads(one.stdout) == json.loads(two.stdout)
    assert len(json.loads(one.stdout)) == 80


def test_duplicate_entries_found_from_cached_facts(cli, tmp_path, monkeypatch):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.md").write_text("# Same Talk\n\n## A\n\n- a\n- b\n")
    (folder / "b.md").write_text("# Same Talk\n\n## B\n\n- a\n- b\n")
    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(tmp_path / "cache"))
    first = json.loads(cli("lint", str(folder), "--format", "json").stdout)
    second = json.loads(cli("lint", str(folder), "--format", "json").stdout)
    assert [f["rule"] for f in first] == [f["rule"] for f in second] == ["CN401"]


def test_a_rule_added_to_the_catalogue_is_not_hidden_by_cached_results(cli, tmp_path, monkeypatch):
    """Within one version (a checkout of confnotes that gains a rule, or turns one on), the cache
    must miss: its key holds the catalogue."""
    import confnotes.lint.rules as rules
    from confnotes.check import LintCache

    notes = _corpus(tmp_path / "notes", 2)
    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(tmp_path / "cache"))
    cli("lint", str(notes))
    checker = Checker.__new__(Checker)
    checker.request = type("Request", (), {"config_file": None, "select": None, "ignore": None, "fail_on": "warning", "profile": None})()
    before = LintCache(str(tmp_path / "cache"), checker).salt
    more = (*rules.CATALOGUE, rules.Entry("CN299", "new-rule", "warning"))
    monkeypatch.setattr(rules, "CATALOGUE", more)
    assert LintCache(str(tmp_path / "cache"), checker).salt != before
