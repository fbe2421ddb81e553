"""Config files and stylesheets are read as notes are (issue 50): a regular file of bounded size,
values nested to a bounded depth, ``extends`` only inside the project, a real circle told from a
long chain; each refusal one line naming the file, exit 2, never a traceback."""

from __future__ import annotations

import os

import pytest

NOTE = "# Talk\n\n## Points\n\n- one\n"


@pytest.fixture
def project(tmp_path):
    (tmp_path / ".git").mkdir()  # a repository: the project extends may read in
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text(NOTE, encoding="utf-8")
    return tmp_path


def _lint(cli, project, config=None):
    args = ["lint", str(project / "notes" / "talk.md")]
    return cli(*args, *(["--config", str(config)] if config else []))


@pytest.mark.parametrize("shape", ["array", "table", "inline"])
def test_values_nested_5000_deep_are_one_line(cli, project, shape):
    deep = {
        "array": "a = " + "[" * 5000 + "]" * 5000,
        "table": "a = " + "{b = " * 5000 + "1" + "}" * 5000,
        "inline": "[lint]\nx = " + "[" * 40 + "]" * 40,
    }[shape]
    (project / "notes" / "confnotes.toml").write_text(deep + "\n", encoding="utf-8")
    result = _lint(cli, project)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip().endswith("values nested too deeply (at most 16 levels)") and result.stderr.count("\n") == 1


def test_a_config_larger_than_a_megabyte_is_refused_unparsed(cli, project):
    (project / "notes" / "confnotes.toml").write_text("# pad\n" * 200_000, encoding="utf-8")
    result = _lint(cli, project)
    assert result.exit_code == 2 and "more than the 1 MiB (1,048,576-byte) limit" in result.stderr


@pytest.mark.parametrize("target", ["/etc/passwd", "../../outside.toml", "link.toml"])
def test_extends_reads_only_inside_the_project(cli, project, target):
    outside = project.parent / "outside.toml"
    outside.write_text('title = "planted"\n', encoding="utf-8")
    (project / "notes" / "link.toml").symlink_to(outside)  # a link inside that points out
    (project / "notes" / "confnotes.toml").write_text(f'extends = "{target}"\n', encoding="utf-8")
    result = _lint(cli, project)
    assert result.exit_code == 2 and "is outside the project" in result.stderr and "planted" not in result.output


def test_extends_inside_the_repository_still_works(cli, project):
    (project / "shared.toml").write_text('[lint]\nselect = ["CN104"]\n', encoding="utf-8")
    (project / "notes" / "confnotes.toml").write_text('extends = "../shared.toml"\n', encoding="utf-8")
    (project / "notes" / "talk.md").write_text("# T\n\n## Empty\n\n## B\n\n- b\n", encoding="utf-8")
    result = _lint(cli, project)
    assert result.exit_code == 1 and "CN104" in result.stdout


def test_a_long_chain_is_not_a_circle_and_a_circle_is_named(cli, project):
    notes = project / "notes"
    for index in range(1, 3001):
        (notes / f"c{index}.toml").write_text(f'extends = "c{index + 1}.toml"\n', encoding="utf-8")
    (notes / "c3001.toml").write_text("", encoding="utf-8")
    long = _lint(cli, project, notes / "c1.toml")
    assert long.exit_code == 2 and "chains more than 16 files" in long.stderr and "circle" not in long.stderr
    (notes / "a.toml").write_text('extends = "b.toml"\n', encoding="utf-8")
    (notes / "b.toml").write_text('extends = "a.toml"\n', encoding="utf-8")
    circle = _lint(cli, project, notes / "a.toml")
    assert circle.exit_code == 2 and "goes round in a circle through a.toml" in circle.stderr


@pytest.mark.parametrize("kind", ["device", "fifo", "huge", "folder"])
def test_css_is_a_regular_file_of_bounded_size(cli, project, kind):
    path = {"device": "/dev/zero", "fifo": str(project / "style.css"), "huge": str(project / "big.css"), "folder": str(project)}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    if kind == "huge":
        with open(path, "wb") as out:
            out.truncate(3 * 1024 * 1024)
    result = cli("render", str(project / "notes" / "talk.md"), "--to", "html", "--css", path, "-o", str(project / "out.html"))
    said = "is a directory" if kind == "folder" else "cannot read stylesheet"  # (a folder: click's own check)
    assert result.exit_code == 2 and said in result.stderr and "Traceback" not in result.output
    assert not (project / "out.html").exists()


def test_a_fifo_named_as_a_note_or_a_config_never_blocks(cli, project):
    fifo = project / "notes" / "pipe.md"
    os.mkfifo(fifo)
    assert cli("outline", str(fifo)).stderr.strip().endswith("not a regular file")
    config = project / "fifo.toml"
    os.mkfifo(config)
    result = _lint(cli, project, config)
    assert result.exit_code == 2 and "Traceback" not in result.output
