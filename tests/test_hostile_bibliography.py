"""A hostile bibliography: a ``.bib`` whose ``@string`` macros name each other over and over (a macro
bomb) is refused before it is parsed, with one warning, through render and lint alike."""

from __future__ import annotations

import json

from bombs import bib_bomb, citing_note
from confnotes.markup.citations import MAX_EXPANDED_CHARS, expanded_size


def test_the_expanded_size_is_counted_without_expanding():
    assert expanded_size(bib_bomb()) > 4**28
    assert expanded_size(bib_bomb(3)) < 1000  # a file that names its macros a few times is read
    plain = '@string{acm = "Communications of the ACM"}\n@article{l, journal = acm, title = {Time}, year = 1978}\n'
    assert expanded_size(plain) < 2 * len(plain)


def _note(tmp_path, bib: str):
    (tmp_path / "refs.bib").write_text(bib, encoding="utf-8")
    note = tmp_path / "talk.md"
    note.write_text(citing_note(), encoding="utf-8")
    return note


def test_render_refuses_a_macro_bomb_with_one_warning(cli, tmp_path):
    note = _note(tmp_path, bib_bomb())
    result = cli("render", str(note), "--to", "html", "-o", str(tmp_path / "talk.html"))
    assert result.exit_code == 0
    assert "macros expand to" in result.output and f"more than {MAX_EXPANDED_CHARS:,}" in result.output
    assert "[@key]" in (tmp_path / "talk.html").read_text(encoding="utf-8")  # the citation stays as written


def test_lint_reads_a_note_naming_a_macro_bomb(cli, tmp_path):
    note = _note(tmp_path, bib_bomb())
    result = cli("lint", "--format", "json", str(note))
    assert result.exit_code in (0, 1)
    assert isinstance(json.loads(result.stdout), (list, dict))


def test_a_small_bibliography_with_macros_still_formats(cli, tmp_path):
    note = _note(tmp_path, bib_bomb(3))
    result = cli("render", str(note), "--to", "html", "-o", str(tmp_path / "talk.html"))
    assert result.exit_code == 0 and "macros expand" not in result.output
    assert "[@key]" not in (tmp_path / "talk.html").read_text(encoding="utf-8")


def test_the_editor_and_build_read_a_macro_bomb_through_the_same_bounded_path(cli, tmp_path):
    """The language server lints as you type and ``build`` renders every note: both reach the
    bibliography through ``citations.bibliography``, so both refuse the bomb the same way."""
    from confnotes.lsp.analysis import analyse

    note = _note(tmp_path, bib_bomb())
    analysis = analyse(str(note), note.read_text(encoding="utf-8"))
    assert analysis.error is None and analysis.context is not None
    site = tmp_path / "site"
    (tmp_path / "notes").mkdir()
    note.rename(tmp_path / "notes" / "talk.md")
    (tmp_path / "refs.bib").rename(tmp_path / "notes" / "refs.bib")
    result = cli("build", str(tmp_path / "notes"), "-o", str(site), "--to", "html", "-j", "1")
    assert result.exit_code == 0 and "macros expand to" in result.stderr
    assert "[@key]" in (site / "talk.html").read_text(encoding="utf-8")


def test_a_csl_json_nested_a_hundred_thousand_deep_is_one_warning(cli, tmp_path):
    (tmp_path / "refs.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    note = tmp_path / "talk.md"
    note.write_text("---\ntitle: T\nbibliography: refs.json\n---\n\n## A\n\nAs shown [@key].\n", encoding="utf-8")
    result = cli("render", str(note), "--to", "html", "-o", str(tmp_path / "talk.html"))
    assert result.exit_code == 0 and "Traceback" not in result.stderr
    assert "bibliography refs.json cannot be read: it nests deeper than a bibliography does" in result.stderr
