"""A lighter install: ``pip install confnotes`` gives lint, fmt, outline, time, new, import, HTML, PDF
and the decks; the rest comes with an extra (``edges.extras``), and a command that needs a missing
one says which to install, in one line, exit 2.

Without a network the install itself is not run here: the base install's closure is counted from the
installed distributions' own metadata, and the commands run in a Python where the extras' modules
cannot be imported (as after ``pip install confnotes``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from confnotes.edges.extras import EXTRAS
from conftest import NOTES, ROOT
from helpers import formats_where

#: what the issue allows ``pip install confnotes`` (confnotes included; it was 40)
MOST_DISTRIBUTIONS = 30
BLOCKED = [module for extra in EXTRAS for module in extra.modules]


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;(]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def closure(requirements: list[str]) -> set[str]:
    """The distributions a list of requirements installs, with the extras each asks of another
    (WeasyPrint's ``fonttools[woff]``), markers read for this Python."""
    from packaging.requirements import Requirement

    seen: set[tuple[str, str]] = set()
    todo = [(Requirement(text), "") for text in requirements]
    while todo:
        requirement, extra = todo.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": extra}):
            continue
        name = _name(requirement.name)
        for wanted in ("", *requirement.extras):
            if (name, wanted) not in seen:
                seen.add((name, wanted))
                todo += [(Requirement(text), wanted) for text in metadata.requires(requirement.name) or []]
    return {name for name, _ in seen}


def test_the_base_install_is_at_most_thirty_distributions():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    base = closure(project["dependencies"])
    assert len(base) + 1 <= MOST_DISTRIBUTIONS, sorted(base)
    assert not base & {"python-pptx", "python-docx", "icalendar", "citeproc-py", "pypdfium2", "watchfiles", "pygls"}
    extras = project["optional-dependencies"]
    assert {extra.name for extra in EXTRAS} | {"all", "dev"} == set(extras)
    for extra in EXTRAS:  # the one list in the code and the packaging say the same
        assert sorted(_name(text) for text in extras[extra.name]) == sorted(extra.distributions)


@pytest.fixture(scope="module")
def without_extras(tmp_path_factory) -> dict[str, str]:
    """An environment in which no extra's module can be imported, as after ``pip install confnotes``."""
    folder = tmp_path_factory.mktemp("base-install")
    (folder / "sitecustomize.py").write_text(f"import sys\nfor name in {BLOCKED!r}:\n    sys.modules[name] = None\n")
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")])), "NO_COLOR": "1"}


def confnotes(env: dict[str, str], *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "confnotes", *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


def test_the_everyday_commands_work_without_any_extra(without_extras, tmp_path, weasyprint, processes):
    note = str(NOTES / "scale2025.md")
    assert confnotes(without_extras, "lint", "--no-cache", note).returncode in (0, 1)
    assert confnotes(without_extras, "fmt", "--check", note).returncode in (0, 1)
    for to in formats_where(needs=None):  # every format but the office ones
        done = confnotes(without_extras, "render", note, "--to", to, "-o", str(tmp_path / f"talk.{to}"))
        assert done.returncode == 0 and (tmp_path / f"talk.{to}").stat().st_size > 0, (to, done.stderr)


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (("render", "{note}", "--to", "pptx", "-o", "{tmp}/t.pptx"), "office"),
        (("render", "{note}", "--to", "docx", "-o", "{tmp}/t.docx"), "office"),
        (("render", "{note}", "--to", "png", "-o", "{tmp}/pics"), "pictures"),
        (("build", "{notes}", "--to", "html,pptx", "-o", "{tmp}/site"), "office"),
        (("serve", "{notes}"), "serve"),
        (("lsp",), "lsp"),
    ],
    ids=["pptx", "docx", "png", "build-pptx", "serve", "lsp"],
)
def test_a_command_needing_a_missing_extra_names_it_in_one_line(without_extras, tmp_path, args, extra, processes):
    given = [arg.format(note=NOTES / "scale2025.md", notes=NOTES, tmp=tmp_path) for arg in args]
    done = confnotes(without_extras, *given)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and f"pip install 'confnotes[{extra}]'" in done.stderr, done.stderr


def test_a_build_by_default_leaves_out_what_it_cannot_make_and_says_so(without_extras, tmp_path, weasyprint, processes):
    done = confnotes(without_extras, "build", str(NOTES), "-o", str(tmp_path / "site"), "-q")
    assert done.returncode == 0, done.stderr
    assert "render --to pptx needs the 'office' extra" in done.stderr and "left out of the default formats" in done.stderr
    assert (tmp_path / "site" / "scale2025.slides.html").exists() and not list((tmp_path / "site").glob("*.pptx"))


def test_a_note_citing_without_the_cite_extra_keeps_its_citations_and_warns(without_extras, tmp_path, processes):
    (tmp_path / "refs.bib").write_text("@book{key, title = {A Book}, author = {A. Author}, year = 2020}\n", encoding="utf-8")
    note = tmp_path / "talk.md"
    note.write_text("---\ntitle: T\nbibliography: refs.bib\n---\n\n## A\n\nAs shown [@key].\n", encoding="utf-8")
    done = confnotes(without_extras, "render", str(note), "--to", "html", "-o", str(tmp_path / "talk.html"))
    assert done.returncode == 0 and "pip install 'confnotes[cite]'" in done.stderr, done.stderr
    assert "[@key]" in (tmp_path / "talk.html").read_text(encoding="utf-8")


def test_a_calendar_schedule_without_the_schedule_extra_is_one_line(without_extras, tmp_path, processes):
    from bombs import calendar

    (tmp_path / "s.ics").write_text(calendar("", ":20270609T100000Z"), encoding="utf-8")
    done = confnotes(without_extras, "new", "--schedule", str(tmp_path / "s.ics"), "--all", "-o", str(tmp_path / "notes"))
    assert done.returncode == 2 and "pip install 'confnotes[schedule]'" in done.stderr, done.stderr
    assert not (tmp_path / "notes").exists() or not list((tmp_path / "notes").iterdir())


def test_doctor_lists_each_extra(without_extras, processes):
    done = confnotes(without_extras, "doctor")
    for extra in EXTRAS:
        assert f"confnotes[{extra.name}]: not installed" in done.stdout and f"pip install 'confnotes[{extra.name}]'" in done.stdout


def test_missing_and_require_name_the_extra_in_process(monkeypatch):
    """The one list of extras answers in process too: a module set to None is missing, its line
    names the distribution and the extra, and ``require`` refuses it as a usage error (exit 2)."""
    from confnotes.edges.extras import available, missing, require
    from confnotes.errors import ErrorKind, NotesError

    monkeypatch.setitem(sys.modules, "pypdfium2", None)
    assert not available("pypdfium2")
    assert missing("pypdfium2", "render --to png") == (
        "render --to png needs the 'pictures' extra (pypdfium2 is not installed): pip install 'confnotes[pictures]'"
    )
    with pytest.raises(NotesError) as refused:
        require("pypdfium2", "render --to png")
    assert refused.value.kind == ErrorKind.USAGE
    assert missing("pptx", "render --to pptx") is None  # installed (make test installs every extra): no line
    assert require("pptx", "render --to pptx").__name__ == "pptx"


def test_a_site_with_a_timetable_without_the_schedule_extra_has_no_session_calendars_and_says_so(without_extras, tmp_path, processes):
    """The sessions' own .ics files need icalendar; the site is built without them, its pages link
    none, and the build says once which extra writes them (My schedule's .ics, made in the page, works)."""
    schedule = Path(__file__).parent / "fixtures" / "schedules" / "pyconf2027.frab.xml"
    made = confnotes(without_extras, "new", "--schedule", str(schedule), "--day", "1", "-o", str(tmp_path / "notes"))
    assert made.returncode == 0, made.stderr
    done = confnotes(
        without_extras, "build", str(tmp_path / "notes"), "--to", "html", "--schedule", str(schedule), "-o", str(tmp_path / "site")
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("each session's calendar file (.ics) in the site needs the 'schedule' extra") == 1, done.stderr
    site = tmp_path / "site"
    assert not (site / "sessions").exists() and (site / "mine.html").exists()
    assert (
        ".ics" not in (site / "timetable.html").read_text(encoding="utf-8") and '"ics"' not in (site / "_site" / "sessions.js").read_text()
    )
