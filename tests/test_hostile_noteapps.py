"""Hostile note-app files (issue 60, item 7): each new reader — Evernote, Notion's zipped export,
Obsidian and Logseq Markdown, Google Docs' ``data:`` pictures — against a path in a resource's
name, a picture that is not base64, nesting thousands deep, paths outside the note's folder, a
picture over the limit and a zip bomb. Each one imports what it can, names what it dropped, and
writes nothing outside its output folder; or it is one line and exit 2."""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from pathlib import Path

from helpers import one_error_line

#: a 1×1 PNG
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


def _enex(title: str, enml: str, resources: str = "") -> str:
    body = f'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<en-note>{enml}</en-note>'
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<en-export application="Evernote" version="10.80.3">'
        f"<note><title>{title}</title>{resources}<content><![CDATA[{body}]]></content></note></en-export>\n"
    )


def _resource(data: str, name: str = "photo.png") -> str:
    return (
        f'<resource><data encoding="base64">{data}</data><mime>image/png</mime>'
        f"<resource-attributes><file-name>{name}</file-name></resource-attributes></resource>"
    )


def _media() -> str:
    return f'<en-media type="image/png" hash="{hashlib.md5(PNG).hexdigest()}"/>'


def _files(folder: Path) -> set[str]:
    return {str(path.relative_to(folder)) for path in folder.rglob("*")}


def test_a_resource_named_with_a_path_lands_in_the_assets_folder_under_its_own_name(cli, tmp_path):
    source = tmp_path / "in" / "trip.enex"
    source.parent.mkdir()
    source.write_text(_enex("Trip", f"<div>the venue</div>{_media()}", _resource(base64.b64encode(PNG).decode(), "../../evil.png")))
    out = tmp_path / "out"
    result = cli("import", str(source), "-o", f"{out}/")
    assert result.exit_code == 0, result.stderr
    assert _files(tmp_path) == {"in", "in/trip.enex", "out", "out/trip.md", "out/trip.assets", "out/trip.assets/image1.png"}
    assert "](trip.assets/image1.png)" in (out / "trip.md").read_text(encoding="utf-8")


def test_a_resource_that_is_not_base64_is_named_as_dropped(cli, tmp_path):
    source = tmp_path / "bad.enex"
    source.write_text(_enex("Bad", f"<div>the venue</div>{_media()}", _resource("!!!not base64@@@")))
    result = cli("import", str(source), "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert "the venue" in result.stdout and "dropped 1 missing image" in result.stderr


def test_a_resource_over_the_limit_is_not_decoded(cli, tmp_path, monkeypatch):
    import confnotes.importers.enex as enex

    monkeypatch.setattr(enex, "MAX_RESOURCE_CHARS", 16)
    source = tmp_path / "big.enex"
    source.write_text(_enex("Big", f"<div>the venue</div>{_media()}", _resource(base64.b64encode(PNG).decode())))
    result = cli("import", str(source), "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert "the venue" in result.stdout and "dropped 1 missing image" in result.stderr


def test_enml_nested_thousands_deep_keeps_its_words(cli, tmp_path):
    source = tmp_path / "deep.enex"
    source.write_text(_enex("Deep", "<div>" * 5000 + "deep text" + "</div>" * 5000))
    result = cli("import", str(source), "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert "deep text" in result.stdout


def test_obsidian_embeds_outside_the_notes_folder_are_never_read(cli, tmp_path):
    vault = tmp_path / "vault"
    vault.mkdir()
    (tmp_path / "secret.png").write_bytes(PNG)
    source = vault / "note.md"
    source.write_text("# Vault note\n\n![[/etc/passwd]]\n\n![[../secret.png]]\n\n![[~/.ssh/id_rsa]]\n", encoding="utf-8")
    out = tmp_path / "out"
    result = cli("import", str(source), "-o", f"{out}/")
    assert result.exit_code == 0, result.stderr
    assert _files(out) == {"note.md"}  # no assets folder: nothing was read
    note = (out / "note.md").read_text(encoding="utf-8")
    assert "passwd" in note and "secret.png" in note and "id_rsa" in note  # named, as links


def test_a_data_picture_over_the_limit_is_dropped_and_named(cli, tmp_path, monkeypatch):
    import confnotes.importers.noteapps as noteapps

    monkeypatch.setattr(noteapps, "MAX_DATA_PICTURE", 8)
    source = tmp_path / "docs.md"
    source.write_text(f"# From Docs\n\n![chart][image1]\n\n[image1]: <data:image/png;base64,{base64.b64encode(PNG).decode()}>\n")
    result = cli("import", str(source), "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert "base64" not in result.stdout and "dropped" in result.stderr


def test_a_zipped_notion_export_holding_a_bomb_is_one_line(cli, tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Page 1234.html", "<html><body><article class='page sans'><h1 class='page-title'>P</h1></article></body></html>")
        archive.writestr("Page/huge.png", b"\0" * (64 * 1024 * 1024))
    source = tmp_path / "notion.zip"
    source.write_bytes(buffer.getvalue())
    assert "refused as a zip bomb" in one_error_line(cli("import", str(source), "-o", f"{tmp_path}/out/"))
    assert not (tmp_path / "out").exists()
