"""A conference's notes as one book (`render DIR --to book`): the contents' page numbers are the
pages the talks start on (pypdf's page labels), each talk starts on a right-hand page with its title
in the running head, a part a day, bookmarks, a tagged PDF; a book too large or a note that cannot
be read is one line and nothing written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import FIXTURES
from helpers import one_error_line

FRAB = FIXTURES / "schedules" / "pyconf2027.frab.xml"
BODY = """
## What I heard

- Backpressure matters more than raw throughput
- **Bounded queues** everywhere

> [!TIP] Try it
> Measure before tuning.
"""


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    from click.testing import CliRunner

    from confnotes.cli import main

    def cli(*args):
        return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)

    root = tmp_path_factory.mktemp("book")
    assert cli("new", "--schedule", FRAB, "--room", "Saal Ü1", "-o", root / "notes").exit_code == 0
    for path in sorted((root / "notes").glob("*.md"))[::3]:
        path.write_text(path.read_text(encoding="utf-8") + BODY * 4, encoding="utf-8")  # some talks take pages
    result = cli("render", root / "notes", "--to", "book", "-o", root / "proceedings.pdf")
    assert result.exit_code == 0, result.output
    return root


def _pages(path: Path) -> list[str]:
    import subprocess

    from helpers import require_program

    tool = require_program("pdftotext", install="apt-get install poppler-utils")
    text = subprocess.run([tool, "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return text.split("\f")


def test_the_contents_page_numbers_are_where_the_talks_start(book, weasyprint):
    from pypdf import PdfReader

    from confnotes.load import load_note

    reader = PdfReader(str(book / "proceedings.pdf"))
    labels = reader.page_labels
    pages = _pages(book / "proceedings.pdf")
    contents = "\n".join(page for page in pages[:6] if "Contents" in page or re.search(r"\.{5,}\s*\d+", page))
    titles = sorted(load_note(str(p)).doc.meta.title for p in (book / "notes").glob("*.md"))
    assert len(titles) == 24
    for title in titles:
        listed = re.search(re.escape(title[:40]) + r".*?\.{3,}\s*(\d+)", contents.replace("\n", " "))
        assert listed, title
        number = listed.group(1)
        start = labels.index(number)
        assert title[:30] in " ".join(pages[start].split()), (title, number)  # the talk starts on that page
        assert int(number) % 2 == 1  # a right-hand page


def test_running_heads_parts_and_bookmarks(book, weasyprint):
    from pypdf import PdfReader

    reader = PdfReader(str(book / "proceedings.pdf"))
    outline = reader.outline
    parts = [item.title for item in outline if not isinstance(item, list)]
    assert parts[:2] == ["PyConf Europe 2027", "Contents"]
    assert parts[2:] == ["Wednesday, 09 June 2027", "Thursday, 10 June 2027", "Friday, 11 June 2027"]
    talks = [item for item in outline if isinstance(item, list)]
    assert [len([t for t in group if not isinstance(t, list)]) for group in talks] == [8, 8, 8]
    pages = _pages(book / "proceedings.pdf")
    heads = {n + 1: (page.strip().split("\n") or [""])[0].strip() for n, page in enumerate(pages) if page.strip()}
    starts = {n + 1: page for n, page in enumerate(pages) if "What I heard" in page or "session page" in page}
    titled = [n for n in starts if n % 2 == 1]
    assert len(titled) >= 24
    for number in titled:  # a right-hand page of a talk carries the talk's title at its head
        assert heads[number] and heads[number] in " ".join(starts[number].split("\n", 1)[1].split()), (number, heads[number])
    left = [heads[n] for n in starts if n % 2 == 0]  # a left-hand page of a talk: its day
    assert left and set(left) <= {"Wednesday, 09 June 2027", "Thursday, 10 June 2027", "Friday, 11 June 2027"}
    assert "/StructTreeRoot" in reader.trailer["/Root"]  # tagged, as every confnotes PDF


def test_a_book_too_large_or_of_a_broken_note_writes_nothing(cli, tmp_path):
    from confnotes.render.book import MAX_BOOK_NOTES

    notes = tmp_path / "notes"
    notes.mkdir()
    for n in range(MAX_BOOK_NOTES + 1):
        (notes / f"talk-{n:03d}.md").write_text(f"# Talk {n}\n\n- point\n", encoding="utf-8")
    line = one_error_line(cli("render", str(notes), "--to", "book", "-o", str(tmp_path / "book.pdf")))
    assert f"{MAX_BOOK_NOTES + 1} notes: a book holds at most {MAX_BOOK_NOTES}" in line
    assert not (tmp_path / "book.pdf").exists()
    few = tmp_path / "few"
    few.mkdir()
    (few / "good.md").write_text("# Good\n\n- point\n", encoding="utf-8")
    (few / "bad.md").write_bytes(b"# Bad\n\xff\n")
    line = one_error_line(cli("render", str(few), "--to", "book", "-o", str(tmp_path / "book.pdf")))
    assert "bad.md" in line and "not valid UTF-8" in line and not (tmp_path / "book.pdf").exists()
