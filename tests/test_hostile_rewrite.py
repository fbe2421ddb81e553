"""fmt, lint --fix and time --write-budgets rewrite a note only when it is safe: never over an edit
saved meanwhile, never through a link out of its folder, never a read-only note without --force,
and never breaking a hard link or changing the file's owner (issue: hardening round 3)."""

from __future__ import annotations

import os
import stat

import pytest

PASTED = (
    "Platform day  \n\n\nKubernetes autoscaling\n\n• HPA reacts to CPU\n• KEDA scales on queue length\n\n"
    "Cost dashboards\n\n• showback first\n"
)
EDIT = "# Platform day\n\nMy own edit, saved while fmt ran.\n"


def _note(tmp_path, name="talk.md", text=PASTED):
    note = tmp_path / name
    note.write_text(text, encoding="utf-8")
    return note


def test_an_edit_saved_while_fmt_runs_is_kept(cli, tmp_path, monkeypatch):
    import confnotes.fmt as fmt

    note = _note(tmp_path)
    original = fmt.format_text  # what fmt calls: it reads the note's text itself

    def slow_format(*args, **kwargs):
        note.write_text(EDIT, encoding="utf-8")  # the editor saves while fmt works
        return original(*args, **kwargs)

    monkeypatch.setattr(fmt, "format_text", slow_format)
    result = cli("fmt", str(note))
    assert note.read_text(encoding="utf-8") == EDIT
    assert result.exit_code == 1 and "changed since it was read; left as is" in result.stderr


def test_lint_fix_never_overwrites_an_edit_saved_meanwhile(cli, tmp_path, monkeypatch):
    import confnotes.check as check

    note = _note(tmp_path, text="# Talk\n\n## Steps\n\n1. one\n3. two\n")
    original = check.fix_until_stable

    def racing(*args, **kwargs):
        out = original(*args, **kwargs)
        note.write_text(EDIT, encoding="utf-8")  # fmt (or an editor) wrote first
        return out

    monkeypatch.setattr(check, "fix_until_stable", racing)
    result = cli("lint", "--no-cache", "--fix", str(note))
    assert note.read_text(encoding="utf-8") == EDIT
    assert result.exit_code == 2 and "fixes not written: changed since it was read" in result.stdout + result.stderr


def test_fmt_never_follows_a_link_out_of_its_folder(cli, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = _note(outside, "target.md")
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "link.md").symlink_to(secret)
    inside = _note(notes, "real.md")
    (notes / "alias.md").symlink_to(inside)  # a link inside the folder is followed
    result = cli("fmt", str(notes))
    assert secret.read_text(encoding="utf-8") == PASTED
    assert "link.md: a link to a file outside its folder; left as is" in result.stderr
    assert inside.read_text(encoding="utf-8") != PASTED and (notes / "alias.md").is_symlink()
    assert result.exit_code == 1


def test_fmt_keeps_hard_links_mode_and_owner(cli, tmp_path):
    note = _note(tmp_path)
    other = tmp_path / "same-note.md"
    os.link(note, other)
    os.chmod(note, 0o640)
    can_chown = os.geteuid() == 0
    if can_chown:
        os.chown(note, 12345, 12345)
    before = os.stat(note)
    assert cli("fmt", str(note)).exit_code == 0
    after = os.stat(note)
    assert after.st_ino == before.st_ino and after.st_nlink == 2
    assert other.read_text(encoding="utf-8") == note.read_text(encoding="utf-8") != PASTED
    assert stat.S_IMODE(after.st_mode) == 0o640
    if can_chown:
        assert (after.st_uid, after.st_gid) == (12345, 12345)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_read_only_note_is_left_unless_forced(cli, tmp_path):
    note = _note(tmp_path)
    os.chmod(note, 0o444)
    result = cli("fmt", str(note))
    assert note.read_text(encoding="utf-8") == PASTED
    assert result.exit_code == 1 and "read-only; left as is (--force rewrites it)" in result.stderr
    forced = cli("fmt", "--force", str(note))
    assert forced.exit_code == 0 and note.read_text(encoding="utf-8") != PASTED
    assert stat.S_IMODE(os.stat(note).st_mode) == 0o444


@pytest.mark.parametrize("check", [True, False])
def test_fmt_check_and_a_clean_run_write_nothing_else(cli, tmp_path, check):
    note = _note(tmp_path)
    args = ["fmt", "--check", str(note)] if check else ["fmt", str(note)]
    cli(*args)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["talk.md"]
