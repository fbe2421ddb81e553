"""Import, round 3 (issue 60): what the note apps and word processors people write in produce."""

from __future__ import annotations

import pytest

from confnotes.parse import parse


@pytest.mark.parametrize("marker", ["* ", "+ ", "- ", "o "])
def test_bullets_typed_in_word_are_bullets_like_typed_dots(cli, tmp_path, marker):
    """``* three`` typed in Word became ``\\* three`` paragraphs (18 of 20 items lost as items in
    one real file) where ``• three`` was recovered as a list under its heading."""
    import docx

    document = docx.Document()
    document.add_paragraph("Team sync", style="Title")
    for heading, items in (("Agenda", ["hiring plan", "roadmap review"]), ("Decisions", ["ship the portal", "retire old CI"])):
        document.add_paragraph(heading)
        for item in items:
            document.add_paragraph(marker + item)
    path = tmp_path / "sync.docx"
    document.save(str(path))
    result = cli("import", str(path), "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        "# Team sync\n\n## Agenda\n\n- hiring plan\n- roadmap review\n\n## Decisions\n\n- ship the portal\n- retire old CI\n"
    )


def _enex(*notes: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE en-export SYSTEM "http://xml.evernote.com/pub/evernote-export4.dtd">\n'
        '<en-export export-date="20260320T101500Z" application="Evernote" version="10.80.3">\n' + "".join(notes) + "</en-export>\n"
    )


def _note(title: str, enml: str, extra: str = "") -> str:
    body = (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        '<!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd">\n'
        f"<en-note>{enml}</en-note>"
    )
    return f"<note><title>{title}</title><created>20260319T083000Z</created>{extra}<content><![CDATA[{body}]]></content></note>\n"


def test_an_evernote_export_is_a_note_with_its_tasks_pictures_and_front_matter(cli, tmp_path):
    """An ``.enex`` was imported as raw XML with exit 0: the ENML and a base64 picture as text."""
    import base64
    import hashlib

    from helpers import tiny_png

    png = tiny_png()
    digest = hashlib.md5(png, usedforsecurity=False).hexdigest()
    enml = (
        "<div>Notes from the keynote and two talks.</div><h2>Keynote</h2><ul><li><div>AI everywhere, again</div></li></ul>"
        '<h2>Gateway API is GA</h2><div><en-todo checked="true"/>watch the recording</div><div><en-todo checked="false"/>'
        f'try the migration tool</div><div><en-media hash="{digest}" type="image/png"/></div>'
    )
    resource = f'<resource><data encoding="base64">{base64.b64encode(png).decode()}</data><mime>image/png</mime></resource>'
    extra = (
        "<tag>kubecon</tag><tag>conference</tag><note-attributes><source-url>https://events.example.org/k</source-url></note-attributes>"
    )
    path = tmp_path / "day1.enex"
    path.write_text(_enex(_note("KubeCon EU, day 1", enml, extra + resource)), encoding="utf-8")
    result = cli("import", str(path), "-o", str(tmp_path / "out") + "/")
    assert result.exit_code == 0, result.stderr
    note = (tmp_path / "out" / "day1.md").read_text(encoding="utf-8")
    assert note.startswith('---\ntitle: "KubeCon EU, day 1"\ndate: "2026-03-19"\ntags: "kubecon, conference"\n')
    assert "- [x] watch the recording\n- [ ] try the migration tool\n" in note and "## Gateway API is GA" in note
    assert "![](day1.assets/image1.png)" in note and (tmp_path / "out" / "day1.assets" / "image1.png").read_bytes() == png
    assert "<en-note>" not in note and "base64" not in note


def test_an_export_of_several_notes_gives_a_section_each(cli, tmp_path):
    path = tmp_path / "week.enex"
    path.write_text(_enex(_note("Monday", "<div>standup moved to ten</div>"), _note("Tuesday", "<div>retro on the outage</div>")))
    result = cli("import", str(path), "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert "## Monday\n\nstandup moved to ten\n\n## Tuesday\n\nretro on the outage\n" in result.stdout


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>Blog</title></channel></rss>\n',
            "an XML file of a kind confnotes does not import (<rss>)",
        ),
        (_enex(""), "an Evernote export with no notes"),
        (
            '<?xml version="1.0"?>\n<!DOCTYPE en-export [<!ENTITY x "xxxxxxxx">]>\n'
            "<en-export><note><title>&x;</title></note></en-export>\n",
            "not a readable Evernote export: it declares entities",
        ),
    ],
    ids=["rss", "empty", "entities"],
)
def test_a_file_import_cannot_read_is_one_line(cli, tmp_path, text, said):
    from helpers import one_error_line

    path = tmp_path / "feed.xml"
    path.write_text(text, encoding="utf-8")
    assert said in one_error_line(cli("import", str(path), "-o", "-"))


def test_an_export_of_too_many_notes_is_refused_before_it_is_read(cli, tmp_path, monkeypatch):
    import confnotes.importers.enex as enex
    from helpers import one_error_line

    monkeypatch.setattr(enex, "MAX_NOTES", 3)
    path = tmp_path / "all.enex"
    path.write_text(_enex(*(_note(f"Note {n}", "<div>text</div>") for n in range(4))), encoding="utf-8")
    assert "an Evernote export of 4 notes, more than the 3 one import reads" in one_error_line(cli("import", str(path), "-o", "-"))


def test_an_outliners_code_note_is_fenced_code_with_its_indentation(cli, tmp_path):
    """A Workflowy export whose notes hold C++ came out with 999 items for 505 outlines: comment
    lines `` * …`` became bullets and indentation was lost. A prose note stays a paragraph."""
    code = (
        "/**&#10; * Moves the buffer.&#10; */&#10;Buffer(Buffer&amp;&amp; other) noexcept&#10;"
        "    : data_(other.data_) {&#10;    other.data_ = nullptr;&#10;}"
    )
    prose = "Copying a big buffer costs a lot. Moving it costs a pointer swap, which is why containers move."
    path = tmp_path / "cpp.opml"
    path.write_text(
        f'<?xml version="1.0"?>\n<opml version="2.0"><head><title>C++ notes</title></head><body>'
        f'<outline text="Move semantics" _note="{code}"/><outline text="Why it matters" _note="{prose}"/></body></opml>\n',
        encoding="utf-8",
    )
    result = cli("import", str(path), "-o", str(tmp_path / "cpp.md"))
    assert result.exit_code == 0, result.stderr
    note = (tmp_path / "cpp.md").read_text(encoding="utf-8")
    assert "  ```\n  /**\n   * Moves the buffer.\n   */\n  Buffer(Buffer&& other) noexcept\n      : data_(other.data_) {\n" in note
    assert "\n  Copying a big buffer costs a lot." in note and note.count("\n- ") == 2
    assert "1 outline note read as code" in result.stderr


OBSIDIAN = """# Platform day

%% draft: ask Ana about the numbers %%

Notes from [[Platform Engineering Day|the summit]] and [[Backstage]].

![[diagram.png|400]]

![[../outside.png]]

## Golden paths

- cover day one end to end %% check the panel recording %%
- anything beyond is optional
"""


def test_obsidian_markdown_is_read_comments_wikilinks_and_embeds(cli, tmp_path):
    """Obsidian's ``%% comments %%`` were printed in every output and ``[[links]]`` and
    ``![[embeds]]`` stayed raw. A picture outside the note's folder is never read."""
    from helpers import tiny_png

    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "diagram.png").write_bytes(tiny_png())
    (tmp_path / "outside.png").write_bytes(tiny_png())
    (vault / "day.md").write_text(OBSIDIAN, encoding="utf-8")
    result = cli("import", str(vault / "day.md"), "-o", str(tmp_path / "out") + "/")
    assert result.exit_code == 0, result.stderr
    note = (tmp_path / "out" / "day.md").read_text(encoding="utf-8")
    assert "%%" not in note and "ask Ana" not in note and "Obsidian comment ×2" in result.stderr
    assert "[the summit](<Platform Engineering Day.md>)" in note and "[Backstage](<Backstage.md>)" in note
    assert "![diagram](day.assets/image1.png)" in note and list((tmp_path / "out" / "day.assets").iterdir()) == [
        tmp_path / "out" / "day.assets" / "image1.png"
    ]
    assert "![outside](<../outside.png>)" in note  # named, not read: outside the note's folder


def test_a_logseq_page_gives_front_matter_and_resolves_its_block_references(cli, tmp_path):
    page = tmp_path / "platform.md"
    page.write_text(
        "title:: Platform day\ntags:: platform, conference\n\n- Golden paths cover day one end to end\n"
        "  id:: 6561c9e2-1a2b-4c3d-8e9f-0a1b2c3d4e5f\n  collapsed:: true\n"
        "- As the panel said: ((6561c9e2-1a2b-4c3d-8e9f-0a1b2c3d4e5f))\n- See also ((11111111-2222-3333-4444-555555555555))\n",
        encoding="utf-8",
    )
    result = cli("import", str(page), "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith('---\ntitle: "Platform day"\ntags: "platform, conference"\n---\n')
    assert "- As the panel said: Golden paths cover day one end to end\n" in result.stdout
    assert "id::" not in result.stdout and "collapsed::" not in result.stdout
    assert "1 block reference to another page kept as its id" in result.stderr


@pytest.mark.parametrize(
    ("page", "title"),
    [
        (
            '<html><body><div class="note"><div class="title">Conference prep</div><ul class="list">'
            '<li class="listitem checked"><span class="bullet">&#9745;</span><span class="text">book the hotel</span></li>'
            '<li class="listitem"><span class="bullet">&#9744;</span><span class="text">print badges</span></li></ul></div></body></html>',
            "# Conference prep",
        ),
        (
            '<html><body><article><header><h1 class="page-title">Conference prep</h1></header><div class="page-body">'
            '<ul class="to-do-list"><li><div class="checkbox checkbox-on"></div> <span class="to-do-children-checked">book the hotel'
            '</span></li></ul><ul class="to-do-list"><li><div class="checkbox checkbox-off"></div> '
            '<span class="to-do-children-unchecked">print badges</span></li></ul></div></article></body></html>',
            "# Conference prep",
        ),
    ],
    ids=["keep", "notion"],
)
def test_checklists_from_keep_and_notion_keep_their_state(cli, tmp_path, page, title):
    """A checked to-do lost its state (Notion), and Keep's checklist became paragraphs of ☑ and ☐."""
    path = tmp_path / "prep.html"
    path.write_text(page, encoding="utf-8")
    result = cli("import", str(path), "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{title}\n\n- [x] book the hotel\n- [ ] print badges\n"


ONENOTE = """<html><body>
<p style='margin:0in;font-family:"Calibri Light";font-size:20.0pt'>SREcon EMEA, day 2</p>
<p style='margin:0in;font-family:Calibri;font-size:11.0pt'>Notes from the main room, typed live.</p>
<p style='margin:0in;font-family:"Calibri Light";font-size:16.0pt'>Keynote</p>
<p style='margin:0in;font-family:Calibri;font-size:11.0pt'>Error budgets work when product owns them too.</p>
<p style='margin:0in;font-family:"Calibri Light";font-size:13.5pt'>Questions</p>
<p style='margin:0in;font-family:Calibri;font-size:11.0pt'>How to start without buy-in: start with one service.</p>
<p style='margin:0in;font-family:"Calibri Light";font-size:16.0pt'>Observability is a data problem</p>
<p style='margin:0in;font-family:Calibri;font-size:11.0pt'>Sample at the edge, and budget cardinality like money.</p>
</body></html>
"""


def test_a_clipboard_whose_headings_are_only_larger_text_keeps_them(cli, tmp_path):
    """OneNote's clipboard writes Heading 1 and 2 as paragraphs in Calibri Light 16 and 13.5 pt:
    only lines starting ``Keynote:``/``Talk:`` became sections, the rest joined the talk before."""
    path = tmp_path / "onenote.html"
    path.write_text(ONENOTE, encoding="utf-8")
    result = cli("import", str(path), "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("# SREcon EMEA, day 2\n\nNotes from the main room, typed live.\n\n## Keynote\n")
    assert "\n### Questions\n" in result.stdout and "\n## Observability is a data problem\n" in result.stdout


def test_google_docs_markdown_keeps_its_data_pictures_in_the_assets_folder(cli, tmp_path):
    """Docs' "Download as Markdown" writes each picture as a ``data:`` URL in a reference definition:
    the note carried megabytes of base64. The picture goes to the assets folder, the link to it."""
    import base64

    from helpers import tiny_png

    payload = base64.b64encode(tiny_png()).decode()
    path = tmp_path / "offsite.md"
    path.write_text(
        f"# Offsite notes\n\nThe plan on one slide:\n\n![][image1]\n\n- hire two SREs\n\n[image1]: <data:image/png;base64,{payload}>\n",
        encoding="utf-8",
    )
    result = cli("import", str(path), "-o", str(tmp_path / "out") + "/")
    assert result.exit_code == 0, result.stderr
    note = (tmp_path / "out" / "offsite.md").read_text(encoding="utf-8")
    assert "[image1]: offsite.assets/image1.png" in note and "base64" not in note
    assert (tmp_path / "out" / "offsite.assets" / "image1.png").read_bytes() == tiny_png()


NOTION = (
    '<html><head><meta charset="utf-8"/><title>KubeCon notes</title></head><body><article class="page sans"><header>'
    '<h1 class="page-title">KubeCon notes</h1><table class="properties"><tbody>'
    '<tr class="property-row property-row-multi_select"><th>Tags</th><td><span class="selected-value select-value-color-blue">'
    'kubecon</span><span class="selected-value select-value-color-green">conference</span></td></tr>'
    '<tr class="property-row property-row-date"><th>Date</th><td><time>@March 19, 2026</time></td></tr>'
    '<tr class="property-row"><th>Room</th><td>Hall B</td></tr></tbody></table></header><div class="page-body"><h2>Keynote</h2>'
    '<ul><li>AI everywhere</li></ul><figure class="block-color-gray_background callout" style="white-space:pre-wrap;display:flex">'
    '<div style="font-size:1.5em"><span class="icon">💡</span></div><div style="width:100%">Remember to rate the talks</div>'
    "</figure></div></article></body></html>"
)


def test_a_notion_page_gives_its_properties_as_front_matter_and_its_callouts_as_callouts(cli, tmp_path):
    """Notion's page-properties header became a table with its chips glued into one word
    (``kubeconconference``), and the callout's icon a paragraph of its own."""
    path = tmp_path / "kubecon.html"
    path.write_text(NOTION, encoding="utf-8")
    result = cli("import", str(path), "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith('---\ntags: "kubecon, conference"\ndate: "2026-03-19"\nroom: "Hall B"\n---\n\n# KubeCon notes\n')
    assert "> [!TIP] Remember to rate the talks\n" in result.stdout and "kubeconconference" not in result.stdout


def test_google_keeps_labels_are_the_notes_tags(cli, tmp_path):
    path = tmp_path / "prep.html"
    path.write_text(
        '<html><body><div class="note"><div class="title">Conference prep</div><ul class="list"><li class="listitem checked">'
        '<span class="bullet">&#9745;</span><span class="text">book the hotel</span></li></ul><div class="chips">'
        '<span class="chip label"><span class="label-name">travel</span></span><span class="chip label">'
        '<span class="label-name">kubecon</span></span></div></div></body></html>',
        encoding="utf-8",
    )
    result = cli("import", str(path), "-o", "-")
    assert result.stdout == '---\ntags: "travel, kubecon"\n---\n\n# Conference prep\n\n- [x] book the hotel\n', result.stderr


def _opml(title: str, body: str) -> str:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n  <head>{title}</head>\n  <body>\n{body}  </body>\n</opml>\n'


_TWO_TALKS = (
    '    <outline text="Keynote: the state of platforms">\n      <outline text="adoption is counted per team"/>\n    </outline>\n'
    '    <outline text="Cost as an SLO">\n      <outline text="cost per request beside latency"/>\n    </outline>\n'
)


@pytest.mark.parametrize("title", ["<title></title>", "<title/>", "<title>   </title>", ""])
def test_an_opml_file_without_a_title_loses_no_section(cli, tmp_path, title):
    """An empty ``<title>`` (Workflowy, Dynalist and OmniOutliner write one) took the first outline as
    the note's title, so its section was lost: the note is titled by its file name instead."""
    source = tmp_path / "monday.opml"
    source.write_text(_opml(title, _TWO_TALKS), encoding="utf-8")
    out = tmp_path / "monday.md"
    assert cli("import", str(source), "-o", str(out)).exit_code == 0
    doc = parse(out.read_text(encoding="utf-8"), str(out))
    assert doc.meta.title == "monday"
    assert [section.title for section in doc.sections] == ["Keynote: the state of platforms", "Cost as an SLO"]


def test_an_untitled_opml_whose_one_outline_holds_the_rest_is_titled_by_it(cli, tmp_path):
    body = '    <outline text="Conference notes">\n' + _TWO_TALKS.replace("    <", "      <") + "    </outline>\n"
    source = tmp_path / "notes.opml"
    source.write_text(_opml("<title/>", body), encoding="utf-8")
    out = tmp_path / "notes.md"
    assert cli("import", str(source), "-o", str(out)).exit_code == 0
    doc = parse(out.read_text(encoding="utf-8"), str(out))
    assert doc.meta.title == "Conference notes"
    assert [section.title for section in doc.sections] == ["Keynote: the state of platforms", "Cost as an SLO"]


def test_wikilinks_comments_and_properties_inside_code_stay_code(cli, tmp_path):
    """``[[tool.mypy.overrides]]`` is TOML: in a fence or a code span it became a link to
    ``tool.mypy.overrides.md`` (found by the generated Logseq page)."""
    source = tmp_path / "typing.md"
    source.write_text(
        "# Typing\n\nSee [[Mypy]] and use `[[tool.mypy.overrides]]` %% todo %%\n\n"
        '```toml\n[[tool.mypy.overrides]]\nmodule = "legacy.*"\nkey:: value %% kept %%\n```\n',
        encoding="utf-8",
    )
    result = cli("import", str(source), "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert "See [Mypy](<Mypy.md>) and use `[[tool.mypy.overrides]]`" in result.stdout
    assert '```toml\n[[tool.mypy.overrides]]\nmodule = "legacy.*"\nkey:: value %% kept %%\n```' in result.stdout
    assert "todo" not in result.stdout


def test_a_logseq_pages_heading_blocks_are_its_sections(cli, tmp_path):
    """Every line of a Logseq page is a bullet: ``- ## Talk`` with its blocks under it was one long
    list; now the heading is a section, its blocks its list, a ``Speaker:`` block and a closing
    sentence its paragraphs, and a code block code."""
    source = tmp_path / "day.md"
    source.write_text(
        "title:: Day one\n\n- ## Cost as an SLO\n  collapsed:: true\n\t- Speaker: Tom de Vries\n\t- A budget per team\n"
        "\t\t- alerts on burn rate\n\t- ```\n\t  budget: 5%\n\t  ```\n\t- We stopped arguing about the bill once it was an SLO.\n"
        "- ## Next talk\n\t- first point\n",
        encoding="utf-8",
    )
    result = cli("import", str(source), "-o", "-")
    assert result.exit_code == 0, result.stderr
    doc = parse(result.stdout, "day.md")
    assert doc.meta.title == "Day one"
    assert [section.title for section in doc.sections] == ["Cost as an SLO", "Next talk"]
    first = doc.sections[0]
    assert [block.kind for block in first.body] == ["paragraph", "code", "paragraph"]
    assert [item.title for item in first.items] == ["A budget per team"]


def test_a_stray_backtick_keeps_no_later_paragraph_from_being_read(cli, tmp_path):
    """A code span ends within its paragraph: a lone backtick paired with one paragraphs later, so the
    wikilinks and comments between were kept raw."""
    source = tmp_path / "stray.md"
    source.write_text("# Notes\n\nThe ` key is odd.\n\nSee [[Mypy]] %% todo %%\n\nUse `x` here.\n", encoding="utf-8")
    result = cli("import", str(source), "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert "See [Mypy](<Mypy.md>)" in result.stdout and "todo" not in result.stdout


@pytest.mark.parametrize(
    ("fixture", "named"),
    [
        ("datacouncil.obsidian.md", "(text, Obsidian)"),
        ("platform.logseq.md", "(text, Logseq)"),
        ("platform.notion.html", "(html, Notion)"),
        ("srecon.onenote.html", "(html, OneNote)"),
        ("kubecon.gdocs.html", "(html, Google Docs)"),
        ("kubecon.lo.html", "(html, LibreOffice)"),
        ("kubecon.evernote.enex", "(enex, Evernote)"),
    ],
)
def test_the_summary_names_the_writer_whose_marks_it_read(cli, tmp_path, fixture, named):
    from conftest import FIXTURES

    result = cli("import", str(FIXTURES / "import" / fixture), "-o", str(tmp_path / "note.md"))
    assert result.exit_code == 0 and f"{fixture} {named} -> " in result.stderr, result.stderr


def test_an_ambiguous_markdown_file_is_read_as_written_with_from_markdown(cli, tmp_path):
    """A plain note whose text looks like a note app's marks (a TOML table in double brackets, a
    doubled percent sign): the summary says it was read as Obsidian's and how to keep it as written."""
    note = tmp_path / "config-talk.md"
    note.write_text("# Packaging talk\n\n- the linter reads [[tool.mypy.overrides]] tables\n- 100%% of builds\n", encoding="utf-8")
    read = cli("import", str(note), "-o", str(tmp_path / "read.md"))
    assert "(text, Obsidian)" in read.stderr and "--from markdown keeps the text as written" in read.stderr
    assert "[[tool.mypy.overrides]]" not in (tmp_path / "read.md").read_text(encoding="utf-8")
    kept = cli("import", str(note), "--from", "markdown", "-o", str(tmp_path / "kept.md"))
    assert kept.exit_code == 0 and "(markdown) -> " in kept.stderr and "Obsidian" not in kept.stderr
    assert "[[tool.mypy.overrides]] tables" in (tmp_path / "kept.md").read_text(encoding="utf-8")


def test_an_obsidian_link_to_a_heading_keeps_the_heading(cli, tmp_path):
    """``[[Tracing#Sampling rates]]`` lost its heading: it now links the heading's anchor and shows
    both names, as Obsidian does."""
    note = tmp_path / "day.md"
    note.write_text("# Day two\n\n- see [[Tracing#Sampling rates]] and [[SLOs|service level objectives]]\n", encoding="utf-8")
    result = cli("import", str(note), "-o", str(tmp_path / "out.md"))
    text = (tmp_path / "out.md").read_text(encoding="utf-8")
    assert result.exit_code == 0 and "[Tracing › Sampling rates](<Tracing.md#sampling-rates>)" in text
    assert "[service level objectives](<SLOs.md>)" in text
