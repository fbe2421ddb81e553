"""Bad input reaches the user as one ``path:line:col: message`` line and exit 2, never a traceback."""

from __future__ import annotations

import json
import re

import pytest

from helpers import one_error_line, run_confnotes_unprivileged


def test_invalid_utf8(cli, tmp_path):
    note = tmp_path / "x.md"
    note.write_bytes(b"# Title\n\nok line\nbad \xff here\n")
    line = one_error_line(cli("outline", str(note)))
    assert line == f"{note}: not valid UTF-8 at line 4, column 5 (byte 0xff)"


def test_invalid_utf8_column_counts_characters(cli, tmp_path):
    note = tmp_path / "x.md"
    note.write_bytes("ab\nπι \xff".encode("utf-8", "surrogateescape").replace(b"\xc3\xbf", b"\xff"))
    assert one_error_line(cli("outline", str(note))).endswith("not valid UTF-8 at line 2, column 4 (byte 0xff)")


def test_nul_byte_is_binary(cli, tmp_path):
    note = tmp_path / "x.md"
    note.write_bytes(b"# Title\x00\x01\x02")
    assert one_error_line(cli("outline", str(note))) == f"{note}: binary file, not notes"


def test_missing_path(cli, tmp_path):
    missing = tmp_path / "nope.md"
    assert one_error_line(cli("outline", str(missing))) == f"{missing}: no such file or directory"


def test_directory_without_notes(tmp_path):
    from confnotes.edges.source import discover
    from confnotes.errors import NotesError

    (tmp_path / "readme.txt").write_text("not a note")
    with pytest.raises(NotesError, match="no notes"):
        discover([str(tmp_path)])


def test_unreadable_file(tmp_path, processes):
    """Runs without root's power to ignore file modes, so the permission check is real."""
    note = tmp_path / "x.md"
    note.write_text("# t\n")
    note.chmod(0)
    try:
        proc = run_confnotes_unprivileged("outline", str(note))
    finally:
        note.chmod(0o600)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == f"{note}: permission denied"


def test_utf16_is_refused(cli, tmp_path):
    note = tmp_path / "x.md"
    note.write_bytes("# Title\n".encode("utf-16"))
    assert "UTF-16 text is not supported" in one_error_line(cli("outline", str(note)))


def test_deep_nesting_is_a_clear_error(cli, tmp_path):
    note = tmp_path / "deep.md"
    note.write_text("- " * 10000 + "x\n")
    assert one_error_line(cli("outline", str(note))).startswith(f"{note}:1:1: nesting deeper than")


def test_bad_front_matter(cli, tmp_path):
    note = tmp_path / "fm.md"
    note.write_text("---\ntitle: [unclosed\n---\n\n# T\n")
    line = one_error_line(cli("outline", str(note)))
    assert re.match(re.escape(str(note)) + r":[23]:\d+: front matter: (did not find )?expected ',' or '\]'", line), line


def test_front_matter_that_is_not_a_mapping_is_text(cli, tmp_path):
    """A `---` block that is not YAML keys is the note's text, with a lint finding, not an error."""
    note = tmp_path / "fm.md"
    note.write_text("---\n- a\n- b\n---\n\n# T\n")
    result = cli("outline", str(note), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [item["title"] for item in data["content"][0]["items"]] == ["a", "b"]
    assert "front-matter-text" in data["recovered"]
    lint = cli("lint", str(note), "--format", "json")
    assert any(finding["rule"] == "CN110" and "not YAML" in finding["message"] for finding in json.loads(lint.output))


def test_directory_given_to_outline(cli, tmp_path):
    assert "Traceback" not in cli("outline", str(tmp_path)).output
    assert cli("outline", str(tmp_path)).exit_code == 2


@pytest.mark.parametrize(
    ("slides", "message"),
    [("slides: []", "front matter 'slides' must be a mapping"), ("slides: {max_items: lots}", "'slides.max_items' must be a whole number")],
)
@pytest.mark.parametrize("command", [("lint", "--no-cache"), ("render", "--to", "slides", "-o", "-"), ("time",)])
def test_bad_slide_settings_in_front_matter_are_said_at_their_line(cli, tmp_path, slides, message, command):
    """Found by the front matter fuzzer: the line of ``slides:`` was missing from the message."""
    note = tmp_path / "talk.md"
    note.write_text(f"---\ntitle: Talk\nduration: 20min\n{slides}\n---\n\n# Talk\n\n## Part\n\n- point\n", encoding="utf-8")
    line = one_error_line(cli(command[0], str(note), *command[1:]))
    assert line.startswith(f"{note}:4:1: {message}"), line
