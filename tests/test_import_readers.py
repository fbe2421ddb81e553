"""The import readers on the shapes each application writes, one behaviour at a time."""

from __future__ import annotations

import io
import re

import pytest

from confnotes.importers import convert

WORD_HTML = """<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>
p.MsoListParagraphCxSpFirst {mso-style-name:"List Paragraph";}
</style></head><body lang=EN-US style='tab-interval:.5in'><div class=WordSection1>
<p class=MsoTitle>DevOpsDays Amsterdam</p>
<p class=MsoNormal><b>Talk: Incident Reviews<o:p></o:p></b></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-.25in;mso-list:l0 level1 lfo1'><![if !supportLists]><span
style='font-family:Symbol'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span><![endif]>Blameless
by default<o:p></o:p></p>
<p class=MsoListParagraphCxSpMiddle style='margin-left:1.0in;mso-list:l0 level2 lfo1'><![if !supportLists]><span
style='font-family:"Courier New"'>o<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><![endif]>timeline
first<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='mso-list:l1 level1 lfo2'><![if !supportLists]><span>1.<span>&nbsp; </span></span><![endif]>Write
it within a week<o:p></o:p></p>
</div></body></html>"""


def test_word_save_as_web_page_lists_come_from_mso_list_levels():
    markdown = convert(WORD_HTML.encode("windows-1252"), "talk.htm", "talk").markdown
    assert markdown.startswith("# DevOpsDays Amsterdam\n")
    assert "- Blameless by default\n  - timeline first\n" in markdown
    assert "1. Write it within a week" in markdown
    assert "·" not in markdown and "\no " not in markdown


COPIED_FROM_DOCS = (
    '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1234"><p dir="ltr"><span style="font-weight:700">'
    "Q&amp;A</span></p>"
    '<ul style="margin-top:0"><li dir="ltr" aria-level="1"><p dir="ltr" role="presentation"><span>Ask about budgets</span></p></li>'
    '<li dir="ltr" aria-level="2"><p dir="ltr" role="presentation">'
    "<span style=\"font-family:'Roboto Mono'\">slo.yaml</span></p></li></ul></b>"
)


def test_html_copied_from_docs_keeps_levels_and_reads_the_outer_b_as_plain():
    markdown = convert(COPIED_FROM_DOCS.encode(), "<clipboard>", "clip").markdown
    assert markdown == "**Q&A**\n\n- Ask about budgets\n  - `slo.yaml`\n"


def test_google_docs_numbers_go_on_across_a_paragraph_and_restart_on_start():
    page = (
        '<html><body><ol class="c1 lst-kix_a-0 start" start="1"><li>one</li><li>two</li></ol><p>aside</p>'
        '<ol class="c1 lst-kix_a-0"><li>three</li></ol><ol class="lst-kix_b-0 start" start="1"><li>again</li></ol></body></html>'
    )
    markdown = convert(page.encode(), "p.html", "p").markdown
    assert "1. one\n2. two\n\naside\n\n3. three\n" in markdown
    assert "\n1) again" in markdown  # a list of its own: "1." right below "3." would read as 4


def test_docx_comments_are_dropped_and_named():
    import docx

    document = docx.Document()
    document.add_heading("Notes", 0)
    paragraph = document.add_paragraph("Caching is hard")
    document.add_comment(paragraph.runs, text="check the numbers", author="Sam")
    out = io.BytesIO()
    document.save(out)
    result = convert(out.getvalue(), "n.docx", "n")
    assert "check the numbers" not in result.markdown
    assert "1 comment" in result.dropped


def test_opml_of_one_root_outline_titles_the_note():
    opml = b'<opml version="2.0"><head/><body><outline text="Day 2"><outline text="Keynote"><outline text="a"/></outline></outline>'
    opml += b"</body></opml>"
    assert convert(opml, "d.opml", "d").markdown == "# Day 2\n\n- Keynote\n  - a\n"


def test_indented_glyph_paragraphs_are_items_by_their_margin():
    page = (
        "<html><head><style>.c1{margin-left:36pt}.c2{margin-left:72pt}</style></head><body>"
        '<p class="c1">● Roles before tools</p><p class="c2">○ incident commander</p><p class="c1">● Declare early</p>'
        "</body></html>"
    )
    markdown = convert(page.encode(), "p.html", "p").markdown
    assert markdown == "- Roles before tools\n  - incident commander\n- Declare early\n"


def test_an_outliners_single_wrapping_outline_is_the_title_whatever_the_head_says(tmp_path):
    """Workflowy and Logseq put the app's or file's name in <head><title> and the page's own
    title in one outline that holds the rest: that outline is the title, its children the sections."""
    from confnotes.importers.opml import read_opml

    opml = (
        b'<?xml version="1.0"?><opml version="2.0"><head><title>Workflowy export</title></head><body>'
        b'<outline text="SREcon notes"><outline text="Keynote: Incident Command"><outline text="one commander"/></outline>'
        b'<outline text="Talk: Shipping on Fridays"><outline text="small changes"/></outline></outline></body></opml>'
    )
    blocks = read_opml(opml, str(tmp_path / "wf.opml")).blocks
    titles = [block for block in blocks if getattr(block, "style", None) == "title"]
    assert len(titles) == 1 and "".join(run.text for run in titles[0].runs) == "SREcon notes"


def test_an_outliners_q_and_a_after_a_talk_is_that_talks_part():
    """Workflowy, OmniOutliner and Dynalist flatten a talk's bold ``Q&A`` and ``Demo`` into
    top-level outlines beside the talks; after a talk (a ``Talk:`` title, or a speaker line
    first) they are its parts, one level below. After a part that is no talk, they stay sections."""
    opml = (
        b'<opml version="2.0"><head><title>Day 1</title></head><body>'
        b'<outline text="Exactly Once Is a Lie"><outline text="Speaker: Ines Duarte, Confluent"/><outline text="dedupe"/></outline>'
        b'<outline text="Demo"><outline text="SELECT 1"/></outline>'
        b'<outline text="Talk: Error Budgets"><outline text="per journey"/></outline>'
        b'<outline text="Q&amp;A"><outline text="How to start?"/></outline>'
        b'<outline text="Lunch"><outline text="pretzels"/></outline>'
        b'<outline text="Questions"><outline text="who pays?"/></outline></body></opml>'
    )
    headings = [line for line in convert(opml, "d.opml", "d").markdown.splitlines() if line.startswith("#")]
    assert headings == [
        "# Day 1",
        "## Exactly Once Is a Lie",
        "### Demo",
        "## Talk: Error Budgets",
        "### Q&A",
        "## Lunch",
        "## Questions",
    ]


def test_a_bullet_whose_text_opens_with_a_number_or_dash_stays_one_item():
    import docx

    document = docx.Document()
    document.add_heading("Scaling notes", 0)
    for text in ("1. shard by tenant first", "- then by region", "+ 2) cache the hot keys"):
        document.add_paragraph(text, style="List Bullet")
    out = io.BytesIO()
    document.save(out)
    result = convert(out.getvalue(), "n.docx", "n")
    assert result.items == 3
    assert result.warnings == []  # fmt wrote it: the outline read back the same
    assert "- 1\\. shard by tenant first\n- \\- then by region\n- \\+ 2) cache the hot keys\n" in result.markdown


def _with_unread_part(data: bytes, size: int) -> bytes:
    """The document with a part the reader never needs, related from the document as Word relates
    its second copy of the styles (``stylesWithEffects.xml``): ``size`` bytes of style-like XML."""
    import random
    import zipfile

    rng = random.Random(7)
    names = ("Normal", "Heading", "List", "Bullet", "Table", "Grid")
    words = " ".join(rng.choice(names) + str(rng.randrange(999)) for _ in range(size // 10))
    unread = f'<?xml version="1.0"?><w:styles xmlns:w="urn:x"><w:style w:styleId="x">{words}</w:style></w:styles>'.encode()
    rel = (
        '<Relationship Id="rIdUnread" Type="http://schemas.microsoft.com/office/2007/relationships/stylesWithEffects"'
        ' Target="stylesWithEffects.xml"/></Relationships>'
    )
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for member in source.infolist():
            body = source.read(member)
            if member.filename == "word/stylesWithEffects.xml":
                body = unread
            elif member.filename == "word/_rels/document.xml.rels" and b"stylesWithEffects" not in body:
                body = body.replace(b"</Relationships>", rel.encode())
            target.writestr(member, body)
    return out.getvalue()


def test_a_docx_part_the_reader_never_reads_is_never_held_in_memory():
    """A package is read part by part, as the body needs them: a 3 MB part nothing reads costs
    nothing (python-docx read every part of the package into memory at once, and kept this one)."""
    import tracemalloc

    import docx

    from confnotes.importers.docx import read_docx

    document = docx.Document()
    document.add_heading("Notes", 0)
    document.add_paragraph("Caching is hard", style="List Bullet")
    out = io.BytesIO()
    document.save(out)
    data = _with_unread_part(out.getvalue(), 3_000_000)
    read_docx(data, "n.docx")  # modules imported, caches warm: what is measured is the reading
    tracemalloc.start()
    try:
        imported = read_docx(data, "n.docx")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [block.text for block in imported.blocks] == ["Notes", "Caching is hard"]  # type: ignore[union-attr]
    assert peak < 1_000_000, f"reading held {peak / 1e6:.1f} MB"


def test_confnotes_import_of_a_docx_leaves_python_docx_unloaded(tmp_path, processes):
    import subprocess
    import sys

    import docx

    document = docx.Document()
    document.add_heading("Notes", 0)
    document.add_paragraph("Caching is hard", style="List Bullet")
    document.save(tmp_path / "n.docx")
    probe = (
        "import sys; from confnotes.importers import convert; "
        f"convert(open({str(tmp_path / 'n.docx')!r}, 'rb').read(), 'n.docx', 'n'); "
        "print(sorted(name for name in sys.modules if name == 'docx' or name.startswith('docx.')))"
    )
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"


# ---------------------------------------------------------------- OpenDocument (LibreOffice's own format)

_ODT_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink"'
)
#: the named styles LibreOffice writes (styles.xml): display names, outline levels, the code face
_ODT_STYLES = f"""<?xml version="1.0" encoding="UTF-8"?><office:document-styles {_ODT_NS}><office:styles>
<style:style style:name="Standard" style:family="paragraph"/>
<style:style style:name="Title" style:family="paragraph" style:parent-style-name="Standard"/>
<style:style style:name="Heading" style:family="paragraph" style:parent-style-name="Standard"/>
<style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph" style:parent-style-name="Heading"
 style:default-outline-level="2"/>
<style:style style:name="Preformatted_20_Text" style:display-name="Preformatted Text" style:family="paragraph">
 <style:text-properties style:font-name="Liberation Mono"/></style:style>
<style:style style:name="Source_20_Text" style:display-name="Source Text" style:family="text">
 <style:text-properties style:font-name="Liberation Mono"/></style:style>
</office:styles></office:document-styles>"""
_ODT_CONTENT = f"""<?xml version="1.0" encoding="UTF-8"?><office:document-content {_ODT_NS}><office:automatic-styles>
<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Heading_20_2"/>
<style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
<style:style style:name="T2" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>
<text:list-style style:name="L1"><text:list-level-style-number text:level="1" style:num-format="1"/>
 <text:list-level-style-bullet text:level="2" text:bullet-char="•"/></text:list-style>
<text:list-style style:name="L2"><text:list-level-style-bullet text:level="1" text:bullet-char="•"/></text:list-style>
</office:automatic-styles><office:body><office:text><text:sequence-decls/>
<text:p text:style-name="Title">DevOpsDays Oslo</text:p>
<text:h text:style-name="P1" text:outline-level="2">Talk: <text:span text:style-name="T1">Incident</text:span> reviews</text:h>
<text:p>Blameless <text:span text:style-name="T2">by default</text:span><text:note
 text:note-class="footnote"><text:note-citation>1</text:note-citation>
<text:note-body><text:p>a footnote's words</text:p></text:note-body></text:note>, see <text:a xlink:href="https://example.org/pm">the
 template</text:a> and <text:span text:style-name="Source_20_Text">sre.yaml</text:span><office:annotation
><text:p>check this</text:p></office:annotation>.</text:p>
<text:list text:style-name="L1"><text:list-item><text:p>Timeline first</text:p><text:list><text:list-item><text:p>minute by minute</text:p>
</text:list-item></text:list></text:list-item><text:list-item><text:p>Write it within a week</text:p></text:list-item></text:list>
<text:p>aside</text:p>
<text:list text:style-name="L1" text:continue-numbering="true"><text:list-item><text:p>Share it widely</text:p></text:list-item></text:list>
<text:list text:style-name="L1"><text:list-item><text:p>A new list</text:p></text:list-item></text:list>
<text:p text:style-name="Preformatted_20_Text">steps:</text:p>
<text:p text:style-name="Preformatted_20_Text"><text:s text:c="2"/>- run: make test</text:p>
<text:p><draw:frame draw:name="Image1"><draw:image xlink:href="Pictures/chart.png"/><svg:title
>latency chart</svg:title></draw:frame></text:p>
<table:table><table:table-column table:number-columns-repeated="2"/><table:table-row
><table:table-cell><text:p>Phase</text:p></table:table-cell>
<table:table-cell><text:p>Owner</text:p></table:table-cell></table:table-row><table:table-row
><table:table-cell><text:p>Detect</text:p></table:table-cell>
<table:table-cell><text:p>On-call</text:p></table:table-cell></table:table-row></table:table>
</office:text></office:body></office:document-content>"""


def _odt(content: str = _ODT_CONTENT) -> bytes:
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")  # first, stored
        archive.writestr("content.xml", content)
        archive.writestr("styles.xml", _ODT_STYLES)
        archive.writestr("Pictures/chart.png", _png())
    return out.getvalue()


def _png() -> bytes:
    from PIL import Image as Picture

    out = io.BytesIO()
    Picture.new("RGB", (4, 3), "teal").save(out, "PNG")
    return out.getvalue()


def test_an_odt_reads_as_its_writer_shows_it():
    result = convert(_odt(), "oslo.odt", "oslo")
    assert result.format == "odt"
    assert result.markdown == (
        "# DevOpsDays Oslo\n\n"
        "## Talk: Incident reviews\n\n"
        "Blameless *by default*[^1], see [the template](https://example.org/pm) and `sre.yaml`.\n\n"
        "1. Timeline first\n   - minute by minute\n2. Write it within a week\n\n"
        "aside\n\n"
        "3. Share it widely\n"
        "1) A new list\n\n"  # a list of its own: "1." right below "3." would read as 4
        "```\nsteps:\n  - run: make test\n```\n\n"
        "![latency chart](oslo.assets/image1.png)\n\n"
        "| Phase | Owner |\n|---|---|\n| Detect | On-call |\n\n"
        "[^1]: a footnote's words\n"  # a footnote as Markdown's (it was dropped and named)
    )
    assert list(result.assets) == ["image1.png"]
    assert result.dropped == ["1 comment"] and "check this" not in result.markdown


def test_lede_facts_a_writer_joined_into_one_line_are_each_read():
    """pandoc writes a Markdown soft break as a space: ``Speaker: Dana Okafor`` and ``Date: …`` on
    two lines become one Body Text paragraph; the speaker was read as "Dana Okafor Date: 2026-04-14"."""
    import docx

    document = docx.Document()
    document.add_heading("Monitoring at Scale", 1)
    document.add_paragraph("Speaker: Dana Okafor Date: 2026-04-14 · Event: SREcon EMEA", style="Body Text")
    document.add_heading("Talk: Alert fatigue", 2)
    document.add_paragraph("page on symptoms, not causes", style="List Bullet")
    saved = io.BytesIO()
    document.save(saved)
    markdown = convert(saved.getvalue(), "monitoring.docx", "monitoring").markdown
    assert markdown.startswith('---\nspeakers: ["Dana Okafor"]\ndate: "2026-04-14"\nevent: "SREcon EMEA"\n---\n')
    assert "Speaker: Dana Okafor Date: 2026-04-14 · Event: SREcon EMEA" in markdown  # the line stays as written


def _opml(body: str, head: str = "<title>Notes</title>", doctype: str = "") -> bytes:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{doctype}<opml version="2.0"><head>{head}</head><body>{body}</body></opml>'.encode()


def test_an_opml_with_a_plain_document_type_line_is_read():
    """OmniOutliner writes a ``<!DOCTYPE opml PUBLIC …>`` line that declares nothing: it was refused
    whole as if it declared entities."""
    doctype = '<!DOCTYPE opml PUBLIC "-//OmniGroup//DTD OPML 2.0//EN" "http://www.omnigroup.com/namespace/OmniOutliner/opml-2.0.dtd">\n'
    body = '<outline text="Keynote"><outline text="one commander"/></outline><outline text="Talk"><outline text="two"/></outline>'
    result = convert(_opml(body, doctype=doctype), "o.opml", "o")
    assert result.markdown == "# Notes\n\n## Keynote\n\n- one commander\n\n## Talk\n\n- two\n"


def test_outliner_columns_are_kept_under_their_outline_and_named():
    body = (
        '<outline text="Keynote: Types" Time="09:30" Rating="5"><outline text="gradual typing"/></outline>'
        '<outline text="Talk: asyncio" Time="11:00"><outline text="timeouts always" Rating="3"/></outline>'
    )
    result = convert(_opml(body), "o.opml", "o")
    assert "## Keynote: Types\n\nTime: 09:30 · Rating: 5\n\n- gradual typing" in result.markdown
    assert "- timeouts always\n\n  Rating: 3" in result.markdown
    assert result.warnings == ["outline columns kept as 'column: value' lines: Time (2), Rating (2)"]


def test_dynalist_completed_items_are_kept_and_their_marks_named():
    body = '<outline text="Talk"><outline text="done one" complete="true"/><outline text="open" checkbox="true"/></outline>'
    body += '<outline text="Talk 2"><outline text="done two" checkbox="true" complete="true"/></outline>'
    result = convert(_opml(body, "<title>dotJS</title><flavor>dynalist</flavor>"), "d.opml", "d")
    assert "- done one\n- open" in result.markdown and "- done two" in result.markdown
    assert "2 completed marks (the items are kept)" in result.dropped


def test_logseq_properties_links_and_references_read_as_logseq_shows_them():
    """Logseq's page properties (read by the XML as one line) gave a title line of ``tags::`` and
    ``\\[\\[…\\]\\]`` escapes, a block's ``id::`` stayed in its text and ``((uuid))`` stayed raw."""
    uuid = "66f1a2b3-4c5d-4e6f-8a9b-0c1d2e3f4a5b"
    body = (
        '<outline text="title:: Container Days&#10;tags:: [[Konferenz]], [[K8s]]&#10;speaker:: [[Jana Vogel]]"/>'
        f'<outline text="Talk: Platform teams&#10;id:: {uuid}&#10;collapsed:: true">'
        '<outline text="a [[Namespace]] per team, `[[not.a.link]]` in code"/><outline text="Golden paths rating:: 4"/></outline>'
        f'<outline text="Talk: GitOps"><outline text="see (({uuid}))"/>'
        '<outline text="ask ((77aa0000-1111-4222-8333-444455556666))"/></outline>'
    )
    result = convert(_opml(body, "<title>untitled</title>"), "b.opml", "b")
    assert result.markdown.startswith(
        '---\nspeakers: ["Jana Vogel"]\n---\n\n# Container Days\n\nTags: Konferenz, K8s\n\nSpeaker: Jana Vogel\n'
    )
    assert "## Talk: Platform teams\n\n- a Namespace per team, `[[not.a.link]]` in code\n- Golden paths\n\n  rating: 4\n" in result.markdown
    assert "- see Talk: Platform teams\n- ask ((77aa0000-1111-4222-8333-444455556666))" in result.markdown
    assert "id::" not in result.markdown and "collapsed" not in result.markdown
    assert result.warnings == ["1 block reference to another page kept as its id"]


@pytest.mark.parametrize("name", ["pyconde.gdocs.html", "kubecon-clip.gdocs.html"])
def test_docs_code_keeps_its_indentation(name):
    """Docs writes code's indentation as ``&nbsp;`` runs (export) or as spaces in
    ``white-space:pre-wrap`` runs (clipboard); both lost it, and YAML and Python changed meaning."""
    import yaml

    from conftest import FIXTURES

    path = FIXTURES / "import" / name
    markdown = convert(path.read_bytes(), str(path), "n").markdown
    fences = re.findall(r"^```\n(.*?)^```$", markdown, re.S | re.M)
    assert len(fences) == 2
    for code in fences:
        if code.startswith("def "):
            compile(code, name, "exec")  # indented as written, or a SyntaxError
            assert "\n            return call()\n" in code
        else:
            loaded = yaml.safe_load(code)
            assert isinstance(loaded, dict) and all(isinstance(value, (dict, list, str, int)) for value in loaded.values())
    if name.startswith("kubecon"):
        deployment = yaml.safe_load(fences[0])
        assert deployment["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["memory"] == "512Mi"


def test_equations_word_wrote_read_as_tex(tmp_path):
    """Word's own equation XML (Cambria Math runs, control properties, defaults left out: an
    ``m:nary`` without a character is an integral, an ``m:d`` without characters is in
    parentheses) reads as TeX every output typesets, inline and on a line of its own."""
    import docx
    from docx.oxml import parse_xml

    from confnotes.markup.math import linear

    ns = (
        'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math" '
        'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    )
    run = '<m:r><w:rPr><w:rFonts w:ascii="Cambria Math" w:hAnsi="Cambria Math"/></w:rPr><m:t>{}</m:t></m:r>'
    ctrl = '<m:ctrlPr><w:rPr><w:rFonts w:ascii="Cambria Math" w:hAnsi="Cambria Math"/><w:i/></w:rPr></m:ctrlPr>'
    integral = (
        f'<m:nary><m:naryPr><m:limLoc m:val="subSup"/>{ctrl}</m:naryPr><m:sub>{run.format("0")}</m:sub>'
        f"<m:sup>{run.format('∞')}</m:sup><m:e><m:sSup><m:e>{run.format('e')}</m:e><m:sup>{run.format('−x')}</m:sup></m:sSup>"
        f"{run.format('dx')}</m:e></m:nary>"
    )
    odds = f"<m:f><m:fPr>{ctrl}</m:fPr><m:num>{run.format('p')}</m:num><m:den>{run.format('1−p')}</m:den></m:f>"
    fraction = f"<m:d><m:dPr>{ctrl}</m:dPr><m:e>{odds}</m:e></m:d>"
    document = docx.Document()
    document.add_heading("Survival analysis", 1)
    inline = document.add_paragraph("The odds are ")
    inline._p.append(parse_xml(f"<m:oMath {ns}>{fraction}</m:oMath>"))
    inline.add_run(" per patient.")
    display = document.add_paragraph()
    root = f'<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e>{run.format("π")}</m:e></m:rad>'
    display._p.append(parse_xml(f"<m:oMathPara {ns}><m:oMath>{integral}{run.format('=')}{root}</m:oMath></m:oMathPara>"))
    document.save(tmp_path / "survival.docx")
    markdown = convert((tmp_path / "survival.docx").read_bytes(), str(tmp_path / "survival.docx"), "survival").markdown
    assert "The odds are $\\left( \\frac{p}{1-p} \\right)$ per patient." in markdown
    display_tex = next(line for line in markdown.splitlines() if line.startswith("$$"))
    assert display_tex == "$$\\int_{0}^{\\infty} {e}^{-x}dx=\\sqrt{\\pi}$$"
    assert linear(display_tex.strip("$")) == linear("\\int_0^\\infty e^{-x} dx = \\sqrt{\\pi}")


def test_libreoffice_math_formulas_in_an_odt_read_as_tex():
    """A LibreOffice document's formulas are embedded objects holding MathML: they were dropped
    (as files that are no picture); they read as TeX now, in a sentence or on a line of their own,
    each reading as the formula written (the same Unicode line)."""
    from confnotes.markup.math import linear
    from conftest import FIXTURES

    path = FIXTURES / "import" / "calibration.math.odt"
    markdown = convert(path.read_bytes(), str(path), "calibration").markdown
    assert "The expected calibration error is $ECE=" in markdown and "$ over the bins." in markdown
    display = next(line for line in markdown.splitlines() if line.startswith("$$"))
    assert linear(display.strip("$")) == linear(r"\sigma(z) = \frac{1}{1 + e^{-z}}")
    assert "{(1-p)}^{n-k}" in markdown
