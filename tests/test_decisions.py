"""One place for each decision: every command loads notes, resolves render options and names outputs
the same way. Each test here failed before that was so (issue: "One place for each decision")."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from helpers import formats_where, one_error_line

SLIDES_NOTE = "---\nslides:\n  max_items: 2\n---\n\n# Deploys\n\n## Steps\n\n- one\n- two\n- three\n- four\n- five\n"


def _tree_bytes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_build_honours_front_matter_slides(cli, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text(SLIDES_NOTE)
    rendered = cli("render", str(notes / "talk.md"), "--to", "outline", "-o", "-").stdout
    assert cli("build", str(notes), "-o", str(tmp_path / "site"), "--to", "outline", "-j", "1").exit_code == 0
    built = (tmp_path / "site" / "talk.slides.txt").read_text()
    assert built == rendered and "(cont.)" in built and "at most 2 items" in built


@pytest.mark.parametrize("to", [fmt for fmt in formats_where() if fmt not in ("pptx", "docx")])  # Office takes no CSS
def test_missing_stylesheet_is_one_error_line_for_every_format(cli, tmp_path, to):
    note = tmp_path / "talk.md"
    note.write_text("# T\n\n## A\n\n- a\n")
    missing = tmp_path / "missing.css"
    line = one_error_line(cli("render", str(note), "--to", to, "--css", str(missing), "-o", "-"))
    assert line == f"{missing}: cannot read stylesheet: no such file or directory"


def test_build_with_only_pdf_links_the_pdf_in_the_index(cli, tmp_path, weasyprint):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Talk\n\n## A\n\n- a\n")
    result = cli("build", str(notes), "-o", str(tmp_path / "site"), "--to", "pdf", "-j", "1")
    assert result.exit_code == 0, result.stderr
    index = (tmp_path / "site" / "index.html").read_text()
    assert '<a class="title" href="./talk.pdf">Talk</a>' in index and "1 section, 1 point" not in index
    assert "1 section, 0 points" in index


def test_infer_headings_never_holds_in_outline_fmt_and_render(cli, tmp_path):
    (tmp_path / "confnotes.toml").write_text('infer_headings = "never"\n')
    note = tmp_path / "pasted.md"
    note.write_text("Retro\n\nWhat went well\n\n• booth duty\n\nWhat to improve\n\n• hotels\n")
    tree = cli("outline", str(note)).stdout
    assert "##" not in tree and "0 sections" in tree
    note.write_text(note.read_text() + "\n\n")
    diff = cli("fmt", "--diff", str(note))
    assert diff.exit_code == 1, diff.stderr  # would tidy the blank lines, not refuse the note
    assert diff.stdout.endswith("\n-\n-\n") and not re.search(r"^\+", diff.stdout.split("@@", 2)[-1], re.M)
    page = cli("render", str(note), "--to", "html", "-o", "-").stdout
    assert "<h2>" not in page


def test_config_applies_to_fmt_round_trip(cli, tmp_path):
    """fmt reads its own output back with the note's config; a note_lines note formats cleanly."""
    (tmp_path / "confnotes.toml").write_text("note_lines = true\n")
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## A\n\nNote: say hello\n\n- a\n")
    result = cli("fmt", "--check", str(note))
    assert result.exit_code == 0, result.stderr


def test_sharded_build_is_byte_identical_to_a_plain_build(cli, tmp_path, weasyprint):
    notes = tmp_path / "notes"
    notes.mkdir()
    for index, name in enumerate(("a", "b", "c")):
        (notes / f"{name}.md").write_text(f"# Talk {name}\n\n## Part\n\n1. point {index}\n   - detail\n")
    formats = "html,slides,pptx,marp,outline,pdf"
    plain, sharded = tmp_path / "plain", tmp_path / "sharded"
    assert cli("build", str(notes), "-o", str(plain), "--to", formats, "-j", "1").exit_code == 0
    for shard in ("1/2", "2/2"):
        assert cli("build", str(notes), "-o", str(sharded), "--to", formats, "-j", "1", "--shard", shard).exit_code == 0
    assert cli("build", "--merge", "-o", str(sharded)).exit_code == 0
    assert _tree_bytes(sharded) == _tree_bytes(plain)


def test_shards_built_on_separate_machines_merge_into_the_one_machine_site(tmp_path, processes):
    """docs/ci.md's workflow, run here: N shard processes each build into their own folder (a CI
    machine each), the folders are copied into one as an artifact download merges them, hidden
    files included, and ``--merge`` makes it byte for byte the site one machine builds."""
    import shutil

    notes = tmp_path / "notes"
    for index in range(7):
        day = notes / f"day{index % 2}"
        day.mkdir(parents=True, exist_ok=True)
        (day / f"talk{index}.md").write_text(
            f"---\ntitle: Talk {index}\nevent: Conf\nduration: 20min\n---\n\n# Talk {index}\n\n## Part\n\n1. point {index}\n   - detail\n"
        )
    formats = "html,slides,pptx,outline"
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600"}

    def confnotes(*args: str) -> None:
        result = subprocess.run([sys.executable, "-m", "confnotes", *args], capture_output=True, text=True, env=env, timeout=300)
        assert result.returncode == 0, result.stderr

    confnotes("build", str(notes), "-o", str(tmp_path / "plain"), "--to", formats)
    shards = 3
    machines = [
        subprocess.Popen(  # the matrix: every shard at once, each in its own folder
            [
                sys.executable,
                "-m",
                "confnotes",
                "build",
                str(notes),
                "-o",
                str(tmp_path / f"shard-{k}"),
                "--to",
                formats,
                "-q",
                "--shard",
                f"{k}/{shards}",
            ],
            env=env,
        )
        for k in range(1, shards + 1)
    ]
    assert [machine.wait(timeout=300) for machine in machines] == [0] * shards
    site = tmp_path / "site"
    for k in range(1, shards + 1):  # download-artifact with merge-multiple: one folder, hidden files too
        shutil.copytree(tmp_path / f"shard-{k}", site, dirs_exist_ok=True)
    confnotes("build", "--merge", "-o", str(site))
    assert _tree_bytes(site) == _tree_bytes(tmp_path / "plain")


def test_build_reports_the_total_before_the_first_note(tmp_path):
    from confnotes.build import BuildRequest, build_site

    notes = tmp_path / "notes"
    notes.mkdir()
    for name in ("a", "b"):
        (notes / f"{name}.md").write_text(f"# {name}\n")
    calls: list[tuple[str, int, int]] = []
    build_site(BuildRequest(str(notes), str(tmp_path / "site"), ("outline",), jobs=1), lambda *args: calls.append(args))
    assert calls[0] == ("", 0, 2) and [done for _, done, _ in calls] == [0, 1, 2]


def test_build_uses_config_formats_and_exclude(cli, tmp_path):
    (tmp_path / "confnotes.toml").write_text('[build]\nformats = ["outline"]\nexclude = ["drafts/*"]\n')
    notes = tmp_path
    (notes / "talk.md").write_text("# Talk\n")
    (notes / "drafts").mkdir()
    (notes / "drafts" / "wip.md").write_text("# WIP\n")
    assert cli("build", str(notes), "-o", str(tmp_path / "site"), "-j", "1").exit_code == 0
    produced = sorted(p.name for p in (tmp_path / "site").iterdir() if not p.name.startswith("."))
    assert produced == ["_site", "feed.xml", "index.html", "outline.json", "talk.slides.txt"]


def test_new_defaults_to_notes_and_checks_its_input(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("new", "Keynote notes", "--date", "2026-05-14")
    assert result.exit_code == 0 and (tmp_path / "notes" / "keynote-notes.md").is_file()
    assert "empty" in one_error_line(cli("new", ""))
    assert "file name" in one_error_line(cli("new", "!!!"))
    assert one_error_line(cli("new", "Talk", "--date", "not-a-date")) == (
        "confnotes: --date must be a date like 2026-05-14, not 'not-a-date'"
    )
    assert not (tmp_path / "notes" / "talk.md").exists() and not list(tmp_path.glob("*.md"))


def test_pdf_ignores_warnings_about_the_machine():
    from confnotes.render.pdf import is_machine_warning

    assert is_machine_warning('Using fontTools instead of HarfBuzz-Subset for font "%s". This will be unsupported')
    assert not is_machine_warning("Failed to load image at 'missing.png'")


def test_doctor_names_what_is_missing_and_how_to_install_it(cli, tmp_path, weasyprint):
    note = tmp_path / "n.md"
    note.write_text("# Доклад\n\n会议\n")
    result = cli("doctor", str(note))
    assert result.exit_code in (0, 1)
    lines = result.stdout.splitlines()
    assert any(line.startswith(("ok", "missing", "MISSING")) and "WeasyPrint" in line for line in lines)
    names = [line for line in lines if "fonts for" in line]
    assert [n.split("fonts for ")[1].split(":")[0] for n in names] == ["Latin", "Cyrillic", "CJK"]
    for index, line in enumerate(lines):
        if line.startswith(("missing", "MISSING")):
            install = lines[index + 1].strip()
            assert install.startswith(("install: apt-get install ", "install: npm install ")), install


def _serve(notes: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], int]:
    from helpers import start_serve

    return start_serve(notes, env)


def _lines_of(stream: Any) -> queue.Queue[str]:
    """The stream's lines, read on a thread, so a test can wait on them with a timeout."""
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        for line in stream:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def saved_until(save: Callable[[], None], lines: queue.Queue[str], needle: str, attempts: int = 240) -> bool:
    """Save, then wait for a line with ``needle``; save again if the watcher was not ready yet."""
    for _ in range(attempts):
        save()
        try:
            while needle not in lines.get(timeout=0.5):
                pass
            return True
        except queue.Empty:
            continue
    return False


def test_serve_keeps_the_last_good_page_shows_the_error_and_cleans_up_on_sigterm(tmp_path, processes):
    import urllib.error
    import urllib.request

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Talk\n\n## Part\n\n- good version\n")
    temp = tmp_path / "tmp"
    temp.mkdir()
    proc, port = _serve(notes, {"TMPDIR": str(temp)})
    try:
        lines = _lines_of(proc.stderr)

        def save() -> None:
            (notes / "talk.md").write_text("---\ntitle: [unclosed\n---\n\n# Talk\n")
            (notes / "new.md").write_text("---\ndate: [\n---\n")

        assert saved_until(save, lines, "new.md"), "the server never reported the failing build"
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/talk.html", timeout=120).read().decode()
        assert "good version" in page and "did not build" in page and "__confnotes/events?page=" in page
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/new.html", timeout=120)
        body = missing.value.read().decode()
        assert missing.value.code == 404 and "__confnotes/events?page=" in body and "new.md" in body
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr.read()
    assert list(temp.iterdir()) == [], "the preview's temporary folder is left behind"


def test_cli_choices_are_the_format_tables():
    """The --format/--to choices click offers are the tables' keys, not lists of their own."""
    import click

    from confnotes.cli import main
    from confnotes.export import OUTLINE_FORMATS
    from confnotes.lint.report import REPORTS
    from confnotes.render.formats import FORMATS, RENDER_TARGETS

    def choices(command: str, option: str) -> list[str]:
        found = main.get_command(click.Context(main), command)
        assert found is not None
        param = next(p for p in found.params if p.name == option)
        assert isinstance(param.type, click.Choice)
        return list(param.type.choices)

    assert choices("outline", "fmt") == list(OUTLINE_FORMATS)
    assert choices("lint", "fmt") == list(REPORTS)
    assert choices("render", "to") == list(RENDER_TARGETS) == [*FORMATS, "png", "book"]


def test_an_output_name_of_another_kind_of_file_is_warned_of(cli, tmp_path, weasyprint):
    """``--to slides -o talk.pdf`` writes an HTML deck into a .pdf: render says so, naming the
    formats that write that kind, from the one table of suffixes; a fitting name is not warned of."""
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## One\n\n- a point\n", encoding="utf-8")
    result = cli("render", str(note), "--to", "slides", "-o", str(tmp_path / "talk.pdf"))
    assert result.exit_code == 0
    told = "'talk.pdf' ends in .pdf, but --to slides writes .html (--to pdf, slides-pdf or handout write .pdf)"
    assert f"{note}: warning: {told}" in result.stderr
    result = cli("render", str(note), "--to", "outline", "-o", str(tmp_path / "plan.md"))
    assert "'plan.md' ends in .md, but --to outline writes .txt (--to marp writes .md)" in result.stderr
    for to, name in (("slides", "deck.HTML"), ("slides-pdf", "deck.pdf"), ("pptx", "deck.pptx"), ("outline", "plan"), ("html", "page.htm")):
        assert "warning" not in cli("render", str(note), "--to", to, "-o", str(tmp_path / name)).stderr, (to, name)
