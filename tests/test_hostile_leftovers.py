"""What still failed after the last round of attacks (issue 50): a FIFO named by raw HTML in a PDF,
Marp keeping links to ``smb:`` and ``file:``, a preview whose terminal closed, a site built into its
own notes folder. Each test fails before its fix."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from test_decisions import _serve

posix = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and SIGHUP are POSIX")


@posix
def test_a_fifo_named_by_raw_html_does_not_hold_the_pdf(tmp_path: Path, weasyprint, processes):
    os.mkfifo(tmp_path / "pipe.png")
    (tmp_path / "confnotes.toml").write_text("allow_html = true\n", encoding="utf-8")
    (tmp_path / "talk.md").write_text('# Talk\n\n## Diagram\n\n- before\n\n<img src="pipe.png" alt="wedge">\n\n- after\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "confnotes", "render", "talk.md", "--to", "pdf", "-o", "talk.pdf"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,  # before: it waited on the FIFO for ever
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "talk.pdf").read_bytes().startswith(b"%PDF")
    warnings = [line for line in done.stderr.splitlines() if "pipe.png" in line]
    assert warnings == ["talk.md: warning: refused to fetch pipe.png (not a regular file)"], done.stderr


LINKS = (
    "# Talk\n\n## Links\n\n"
    "- slides on [the share](smb://fileserver/talks/deck.pptx) and [local copy](file:///etc/passwd)\n"
    "- mirror <smb://fileserver/mirror> and ftp://files.example.org/talk.zip\n"
    "- kept: [the site](https://example.org/talk) and <mailto:speaker@example.org>\n"
    "- code stays: `[x](smb://in/code)`\n"
)


def test_marp_keeps_no_link_to_an_unsafe_scheme(cli, tmp_path: Path):
    from confnotes.render.marp_guard import unsafe_hrefs

    note = tmp_path / "talk.md"
    note.write_text(LINKS, encoding="utf-8")
    result = cli("render", str(note), "--to", "marp", "-o", str(tmp_path / "talk.marp.md"))
    assert result.exit_code == 0, result.output
    deck = (tmp_path / "talk.marp.md").read_text(encoding="utf-8")
    assert unsafe_hrefs(deck) == []  # what markdown-it (Marp's parser) would link
    for words in ("the share", "local copy", "the site", "code stays"):
        assert words in deck
    assert "](https://example.org/talk)" in deck and "<mailto:speaker@example.org>" in deck
    assert "`[x](smb://in/code)`" in deck
    assert "dropped unsafe link 'smb://fileserver/talks/deck.pptx'" in result.stderr


@pytest.mark.parametrize("inside", [".", ".."])
def test_a_site_is_never_built_into_its_own_notes_folder(cli, tmp_path: Path, inside: str):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Talk\n\n## Part\n\n- a point\n", encoding="utf-8")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    result = cli("build", str(notes), "-o", os.path.normpath(notes / inside))
    assert result.exit_code == 2
    assert "is the notes folder or holds it" in result.stderr and result.stderr.count("\n") == 1
    assert sorted(p.name for p in tmp_path.rglob("*")) == before, "nothing written"


@posix
def test_serve_removes_its_folder_when_its_terminal_closes(tmp_path: Path, processes):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Talk\n\n## Part\n\n- a point\n", encoding="utf-8")
    temp = tmp_path / "tmp"
    temp.mkdir()
    proc, _port = _serve(notes, {"TMPDIR": str(temp)})
    assert list(temp.iterdir()), "the preview builds into a temporary folder"
    proc.send_signal(signal.SIGHUP)
    proc.wait(timeout=120)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    assert list(temp.iterdir()) == [], "the preview's temporary folder is left behind"


# ---------------------------------------------------------------- import

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63f8cfc000000301010018dd8db00000000049454e44ae426082"
)


def _page(*sources: str) -> bytes:
    images = "".join(f'<p><img src="{src}" alt="figure {n}"></p>' for n, src in enumerate(sources, 1))
    return f"<html><body><h1>Keynote</h1><ul><li>first point</li></ul>{images}</body></html>".encode()


def test_an_image_is_what_its_bytes_are_not_what_the_page_declares(cli, tmp_path: Path):
    import base64

    html = base64.b64encode(b"<html><script>alert(1)</script></html>").decode()
    png = base64.b64encode(PNG).decode()
    page = tmp_path / "page.html"
    page.write_bytes(_page(f"data:text/html;base64,{html}", f"data:image/png;base64,{html}", f"data:image/jpeg;base64,{png}"))
    result = cli("import", str(page), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assets = tmp_path / "out" / "page.assets"
    assert sorted(p.name for p in assets.iterdir()) == ["image1.png"]  # the real PNG, named by its bytes
    assert (assets / "image1.png").read_bytes() == PNG
    assert "an embedded file that is not a picture ×2" in result.stderr


def test_import_never_replaces_the_file_it_imports(cli, tmp_path: Path):
    note = tmp_path / "talk.md"
    original = "# Keynote\n\n* first point\n+ second point\n"
    note.write_text(original, encoding="utf-8")
    for extra in ([], ["-o", str(tmp_path)]):
        result = cli("import", str(note), "--force", *extra)
        assert result.exit_code == 2
        assert result.stderr.strip().endswith("talk.md: is the file being imported; choose another folder with -o")
        assert note.read_text(encoding="utf-8") == original


@posix
def test_a_refused_import_leaves_no_pictures_behind(cli, tmp_path: Path):
    import base64

    page = tmp_path / "page.html"
    page.write_bytes(_page(f"data:image/png;base64,{base64.b64encode(PNG).decode()}"))
    out = tmp_path / "out"
    out.mkdir()
    (out / "page.md").symlink_to(tmp_path / "elsewhere.md")  # a planted link: never written through
    result = cli("import", str(page), "-o", str(out))
    assert result.exit_code == 2 and "symbolic link" in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["page.md"], "page.assets/ is left behind"
    assert not (tmp_path / "elsewhere.md").exists()


def test_an_embedded_ole_object_is_named(tmp_path: Path):
    import io
    import re
    import zipfile

    import docx

    from confnotes.importers import convert

    (tmp_path / "chart.png").write_bytes(PNG)
    document = docx.Document()
    document.add_heading("Capacity review", 0)
    document.add_paragraph("The numbers from the spreadsheet:")
    document.add_picture(str(tmp_path / "chart.png"))
    document.add_paragraph("Questions afterwards.")
    saved = io.BytesIO()
    document.save(saved)
    out = io.BytesIO()
    with zipfile.ZipFile(saved) as source, zipfile.ZipFile(out, "w") as target:
        for member in source.infolist():
            body = source.read(member)
            if member.filename == "word/document.xml":
                text = body.decode()
                rid = re.search(r'r:embed="(\w+)"', text).group(1)  # type: ignore[union-attr]
                ole = (
                    f'<w:object><v:shape id="s1" style="width:40pt;height:30pt"><v:imagedata r:id="{rid}"/></v:shape>'
                    f'<o:OLEObject Type="Embed" ProgID="Excel.Sheet.12" ShapeID="s1" r:id="{rid}"/></w:object>'
                )
                text = re.sub(r"<w:drawing>.*?</w:drawing>", ole, text, flags=re.S)
                body = text.encode()
            target.writestr(member, body)
    result = convert(out.getvalue(), "review.docx", "review")
    assert "1 embedded Excel object" in result.dropped
    assert list(result.assets) == ["image1.png"]  # its picture is kept
    assert "The numbers from the spreadsheet:" in result.markdown and "Questions afterwards." in result.markdown
