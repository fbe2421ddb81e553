"""confnotes import on the command line: where notes go, what it refuses, and that it fetches nothing."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from conftest import FIXTURES

IMPORT = FIXTURES / "import"


def files_in(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def test_writes_the_note_and_its_images_beside_each_other(cli, tmp_path):
    result = cli("import", str(IMPORT / "kubecon.pydocx.docx"), "-o", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert files_in(tmp_path) == ["kubecon.pydocx.assets", "kubecon.pydocx.assets/image1.png", "kubecon.pydocx.md"]
    note = (tmp_path / "kubecon.pydocx.md").read_text(encoding="utf-8")
    assert "](kubecon.pydocx.assets/image1.png)" in note
    (line,) = result.stderr.splitlines()
    assert line.endswith("kubecon.pydocx.md: 4 sections, 15 items, 1 image, 186 words")


def test_refuses_to_overwrite_without_force(cli, tmp_path):
    source = IMPORT / "pycon.gdocs.html"
    (tmp_path / "pycon.gdocs.md").write_text("mine\n", encoding="utf-8")
    result = cli("import", str(source), "-o", str(tmp_path))
    assert result.exit_code == 2
    assert "pycon.gdocs.md: already exists; pass --force to replace it" in result.stderr
    assert (tmp_path / "pycon.gdocs.md").read_text(encoding="utf-8") == "mine\n"
    assert cli("import", str(source), "-o", str(tmp_path), "--force").exit_code == 0
    assert (tmp_path / "pycon.gdocs.md").read_text(encoding="utf-8").startswith("# PyCon US 2026: Typing Talks")


def test_dash_prints_the_note_and_reads_standard_input(cli):
    data = (IMPORT / "srecon.workflowy.opml").read_bytes()
    result = cli("import", "-", "--from", "opml", input=data)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("# SREcon Americas notes\n")
    pasted = cli("import", "-", "-o", "-", input="Notes\n\n• one\n• two\n")
    assert pasted.exit_code == 0 and "- one\n- two" in pasted.stdout


def test_format_is_sniffed_from_the_content_not_the_name(cli, tmp_path):
    odd = tmp_path / "notes.txt"
    odd.write_bytes((IMPORT / "datacouncil.pydocx.docx").read_bytes())
    result = cli("import", str(odd), "-o", "-")
    assert result.exit_code == 0
    assert "(docx)" in result.stderr and result.stdout.startswith("# Data Council: Streaming Track")


def _docx_with(extra_rel: str) -> bytes:
    source = zipfile.ZipFile(IMPORT / "kubecon.pydocx.docx")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "word/_rels/document.xml.rels":
                data = data.replace(b"</Relationships>", extra_rel.encode() + b"</Relationships>")
            target.writestr(item, data)
    return out.getvalue()


def _bomb() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", b"<" + b" " * (64 * 1024 * 1024) + b"/>")
    return out.getvalue()


BAD = {
    "truncated.docx": (lambda: (IMPORT / "kubecon.pydocx.docx").read_bytes()[:5000], "not a readable Word document"),
    "corrupt.docx": (lambda: b"PK\x03\x04" + b"\x00garbage" * 100, "corrupt or truncated archive"),
    "bomb.docx": (_bomb, "refused as a zip bomb"),
    "linked.docx": (
        lambda: _docx_with(
            '<Relationship Id="rId99" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" '
            'Target="http://tracker.example/pixel.png" TargetMode="External"/>'
        ),
        "links a image outside itself (http://tracker.example/pixel.png)",
    ),
    "script.html": (
        lambda: b"<html><body><p>Notes</p><script>fetch('https://x.example')</script></body></html>",
        "1:25: the page holds a <script>",
    ),
    "bomb.opml": (
        lambda: (
            b'<?xml version="1.0"?><!DOCTYPE o [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
            b'<opml version="2.0"><body><outline text="&b;"/></body></opml>'
        ),
        "the OPML declares entities",
    ),
    "broken.opml": (lambda: b'<opml version="2.0"><body><outline text="a"></body></opml>', "not well-formed OPML"),
    # made by msoffcrypto-tool from pycon.lo.docx (Office's Agile encryption, password "secret")
    "encrypted.docx": (lambda: (IMPORT / "bad" / "pycon.encrypted.docx").read_bytes(), "a password-protected Office document"),
    "truncated.odt": (lambda: (IMPORT / "pycon.lo.odt").read_bytes()[:4000], "corrupt or truncated archive"),
    "bomb.odt": (lambda: _odt_with("content.xml", b"<" + b" " * (64 * 1024 * 1024) + b"/>"), "refused as a zip bomb"),
    "entities.odt": (
        lambda: _odt_with(
            "content.xml",
            _odt_member("content.xml").replace(b"?>", b'?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>', 1),
        ),
        "'content.xml' declares a document type or entities",
    ),
    "sheet.ods": (lambda: _odt_with("mimetype", b"application/vnd.oasis.opendocument.spreadsheet"), "an OpenDocument spreadsheet file"),
}


def _odt_member(name: str) -> bytes:
    return zipfile.ZipFile(IMPORT / "pycon.lo.odt").read(name)


def _odt_with(name: str, data: bytes) -> bytes:
    """pycon.lo.odt (LibreOffice's own) with one member replaced."""
    out = io.BytesIO()
    with zipfile.ZipFile(IMPORT / "pycon.lo.odt") as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            target.writestr(item, data if item.filename == name else source.read(item.filename))
    return out.getvalue()


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_is_one_line_exit_2_and_nothing_written(cli, tmp_path, name):
    make, message = BAD[name]
    source = tmp_path / "in" / name
    source.parent.mkdir()
    source.write_bytes(make())
    out = tmp_path / "out"
    out.mkdir()
    result = cli("import", str(source), "-o", str(out))
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith(str(source) + ":") and message in line, line
    assert "Traceback" not in result.stderr
    assert files_in(out) == []


def test_one_bad_file_does_not_stop_the_others(cli, tmp_path):
    bad = tmp_path / "bad.docx"
    bad.write_bytes(b"PK\x03\x04broken")
    result = cli("import", str(bad), str(IMPORT / "velocity.gdocs.html"), "-o", str(tmp_path))
    assert result.exit_code == 2
    assert (tmp_path / "velocity.gdocs.md").exists()
    assert len(result.stderr.splitlines()) == 2


def test_dropped_things_are_named_in_the_summary(cli):
    page = b'<html><body><p onclick="steal()">Talk: Caching</p><p><a href="javascript:alert(1)">click</a></p></body></html>'
    result = cli("import", "-", "--from", "html", input=page)
    assert result.exit_code == 0
    assert "dropped 1 event attribute, 1 script link" in result.stderr
    assert "javascript" not in result.stdout and "steal" not in result.stdout


WELL_FORMED = [
    path
    for path in sorted(IMPORT.iterdir())
    if path.name.split(".")[0] in ("kubecon", "pycon", "platform", "datacouncil") and path.suffix in (".docx", ".html", ".zip")
]


@pytest.mark.parametrize("path", WELL_FORMED, ids=lambda path: path.name)
def test_a_well_formed_document_imports_without_title_or_paste_findings(cli, tmp_path, path):
    assert cli("import", str(path), "-o", str(tmp_path)).exit_code == 0
    result = cli("lint", str(tmp_path / f"{path.stem}.md"), "--format", "json", "--select", "CN101,CN110")
    assert json.loads(result.stdout) == [], result.stdout


def test_lint_does_not_load_the_readers(processes):
    from conftest import NOTES
    from test_startup import imported

    modules = imported("lint", str(NOTES / "scale2025.md"))
    assert not {name for name in modules if name.split(".")[0] in ("docx", "defusedxml", "lxml") or name.startswith("confnotes.importers")}


def test_import_makes_the_output_folder(cli, tmp_path):
    source = IMPORT / "pycon.gdocs.html"
    out = tmp_path / "imported" / "2026"
    result = cli("import", str(source), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert (out / f"{source.stem}.md").exists()
    (tmp_path / "a-file").write_text("x")
    refused = cli("import", str(source), "-o", str(tmp_path / "a-file"))
    assert refused.exit_code == 2 and "is a file; -o needs a folder" in refused.stderr


def test_a_remote_picture_is_kept_as_its_address_and_never_fetched(cli, tmp_path):
    """A third of real notes show a remote picture; the page was refused whole. It is kept as a
    picture reference (which renders show as a link) and the summary says so; nothing is fetched."""
    page = tmp_path / "talk.html"
    page.write_bytes(
        b"<html><body><h1>Edge caching</h1><ul><li>hit ratio went up</li></ul>"
        b'<p><img src="https://cdn.example.org/charts/hit ratio.png" alt="hit ratio chart"></p>'
        b'<p><img src="//cdn.example.org/b.png" alt="second"></p><p>after the charts</p></body></html>'
    )
    result = cli("import", str(page), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    note = (tmp_path / "out" / "talk.md").read_text(encoding="utf-8")
    assert "![hit ratio chart](<https://cdn.example.org/charts/hit%20ratio.png>)" in note
    assert "![second](<https://cdn.example.org/b.png>)" in note and note.index("second") < note.index("after the charts")
    assert "2 remote images kept as their addresses, not fetched" in result.stderr
    assert not (tmp_path / "out" / "talk.assets").exists()


def test_o_naming_a_note_writes_that_note(cli, tmp_path):
    """``-o talk.md`` made a folder named talk.md; like render -o and pandoc -o, it names the file
    (its pictures beside it, in talk.assets/). A path ending in '/' or an existing folder is a folder."""
    source = IMPORT / "kubecon.pydocx.docx"
    result = cli("import", str(source), "-o", str(tmp_path / "notes" / "talk.md"))
    assert result.exit_code == 0, result.stderr
    note = tmp_path / "notes" / "talk.md"
    assert note.is_file() and "talk.assets/" in note.read_text(encoding="utf-8")
    assert sorted(p.name for p in (tmp_path / "notes").iterdir()) == ["talk.assets", "talk.md"]
    assert f"-> {note}" in result.stderr
    folder = cli("import", str(source), "-o", str(tmp_path / "odd.md") + "/")
    assert folder.exit_code == 0 and (tmp_path / "odd.md" / f"{source.stem}.md").is_file()
    two = cli("import", str(source), str(IMPORT / "pycon.gdocs.html"), "-o", str(tmp_path / "both.md"))
    assert two.exit_code == 2 and "names one note, but 2 files are imported" in two.stderr
    assert not (tmp_path / "both.md").exists()


def _counting(monkeypatch, module: object, name: str) -> list[int]:
    """Count the calls of ``module.name`` (a list grows by one a call)."""
    calls: list[int] = []
    real = getattr(module, name)

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_an_import_fmt_would_change_is_kept_as_read_and_made_again(monkeypatch):
    """fmt is handed the import's Markdown and alone holds it while it writes the canonical text and
    reads that back; when the canonical text would change the outline, the import keeps the
    Markdown as read, made again from the document (it is not held meanwhile)."""
    import confnotes.fmt
    import confnotes.importers as importers
    from confnotes.importers import convert

    data = (IMPORT / "kubecon.pydocx.docx").read_bytes()
    as_read = importers._as_markdown(data, "kubecon.pydocx.docx", "kubecon", None)[0]
    render = confnotes.fmt.render_markdown
    monkeypatch.setattr(
        confnotes.fmt, "render_markdown", lambda doc, settings=None, **kw: render(doc, settings, **kw) + "\n## Not in the document\n"
    )
    made = _counting(monkeypatch, importers, "_as_markdown")
    result = convert(data, "kubecon.pydocx.docx", "kubecon")
    assert result.warnings == ["kept as read: the canonical form would change its outline"]
    assert result.markdown == as_read
    assert len(made) == 3  # read; made again for fmt to name the parts that would change; made again to keep


def test_an_import_already_canonical_is_read_once(monkeypatch):
    """When the import's Markdown is already fmt's canonical text, fmt knows that from its digest (the
    text itself is let go) and does not read it back."""
    import confnotes.parse
    from confnotes.fmt import format_text

    canonical = (IMPORT / "kubecon.pydocx.docx.md").read_text(encoding="utf-8")
    parses = _counting(monkeypatch, confnotes.parse, "parse")
    asked: list[int] = []
    assert format_text(lambda: asked.append(1) or canonical, "kubecon.md") == canonical
    assert len(parses) == 1 and len(asked) == 1
    assert format_text(lambda: canonical.replace("\n\n", "\n\n\n", 1), "kubecon.md") == canonical  # fmt's change is read back
    assert len(parses) == 3
