"""Regenerate tests/fixtures/import/: the notes of ``import_notes`` written by real writers.

- ``*.pydocx.docx``: python-docx (the styles of its default template, as Word names them)
- ``*.lo.docx``: LibreOffice Writer (``soffice --headless --convert-to docx``) from an authoring page
- ``*.lo.html``: LibreOffice Writer's HTML export of that document
- ``*.lo.odt``: LibreOffice Writer's own format (OpenDocument) of that document
- ``*.paste.docx``: LibreOffice from a plain-text paste (typed bullets and bare-line titles)
- ``*.gdocs.html`` / ``*.gdocs.zip``: the shape of Google Docs' "Download › Web page" (see docs/import.md)
- ``*.workflowy.opml``, ``*.dynalist.opml``, ``*.logseq.opml``, ``*.omnioutliner.opml``: each
  outliner's export shape
- ``*.evernote.enex``, ``*.notion.html``, ``*.obsidian.md``, ``*.logseq.md``, ``*.onenote.html``: the
  note apps' shapes, from their published samples (Evernote's ENEX DTD and ENML, Notion's HTML
  export, an Obsidian vault note, a Logseq page, OneNote's clipboard)

Run from the repository root: ``python tools/make_import_fixtures.py`` (needs soffice on PATH,
python-docx in the environment). Then ``pytest tests/test_import_fixtures.py --update-goldens``
and review the goldens' diff.
"""

from __future__ import annotations

import base64
import html
import shutil
import subprocess
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

sys.path.insert(0, str(Path(__file__).resolve().parent))

from import_notes import NOTES, Note, parts, screenshot_png, sub_list

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "import"


# ---------------------------------------------------------------------- python-docx


def write_pydocx(note: Note, target: Path) -> None:
    import io

    import docx
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import Inches

    document = docx.Document()
    document.core_properties.author = "confnotes fixtures"

    def add_runs(paragraph: Any, inline: Any) -> None:
        for part in parts(inline):
            kind, text = part[0], part[1]
            if kind == "link":
                rel = paragraph.part.relate_to(
                    part[2], "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink", is_external=True
                )
                link = OxmlElement("w:hyperlink")
                link.set(qn("r:id"), rel)
                run = OxmlElement("w:r")
                props = OxmlElement("w:rPr")
                style = OxmlElement("w:rStyle")
                style.set(qn("w:val"), "Hyperlink")
                props.append(style)
                run.append(props)
                t = OxmlElement("w:t")
                t.text = text
                t.set(qn("xml:space"), "preserve")
                run.append(t)
                link.append(run)
                paragraph._p.append(link)
                continue
            run = paragraph.add_run(text)
            run.bold = kind == "b" or None
            run.italic = kind == "i" or None
            if kind == "code":
                run.font.name = "Courier New"

    def add_items(kind: str, items: list[Any], level: int) -> None:
        base = "List Number" if kind == "ol" else "List Bullet"
        for inline, children in items:
            style = base if level == 0 else f"{base} {level + 1}"
            add_runs(document.add_paragraph(style=style), inline)
            sub = sub_list(kind, children)
            if sub:
                add_items(sub[0], sub[1], level + 1)

    for element in note:
        kind = element[0]
        if kind == "title":
            document.add_heading(element[1], 0)
        elif kind == "subtitle":
            document.add_paragraph(element[1], style="Subtitle")
        elif kind == "h":
            document.add_heading(element[2], element[1])
        elif kind == "p":
            add_runs(document.add_paragraph(), element[1])
        elif kind == "bold":
            document.add_paragraph().add_run(element[1]).bold = True
        elif kind in ("ul", "ol"):
            add_items(kind, element[1], 0)
        elif kind == "code":
            for line in element[1].split("\n"):
                document.add_paragraph().add_run(line).font.name = "Courier New"
        elif kind == "table":
            rows = element[1]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
        elif kind == "img":
            document.add_picture(io.BytesIO(screenshot_png(element[1])), width=Inches(4))
            drawing = document.paragraphs[-1]._p.find(".//" + qn("wp:docPr"))
            drawing.set("descr", element[1])
    document.save(str(target))


# ---------------------------------------------------------------------- an authoring page for LibreOffice


def inline_html(inline: Any) -> str:
    out = []
    for part in parts(inline):
        kind, text = part[0], html.escape(part[1])
        out.append(
            {"t": text, "b": f"<b>{text}</b>", "i": f"<i>{text}</i>", "code": f"<code>{text}</code>"}.get(kind)
            or f'<a href="{html.escape(part[2])}">{text}</a>'
        )
    return "".join(out)


def authoring_html(note: Note, title: str) -> str:
    """A page as a person writes one: real nesting, real headings (LibreOffice reads it as a document)."""
    out = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title></head><body>"]

    def items_html(kind: str, items: list[Any]) -> str:
        inner = []
        for inline, children in items:
            sub = sub_list(kind, children)
            inner.append(f"<li>{inline_html(inline)}{items_html(*sub) if sub else ''}</li>")
        return f"<{kind}>{''.join(inner)}</{kind}>"

    for element in note:
        kind = element[0]
        if kind == "title":
            out.append(f"<h1>{html.escape(element[1])}</h1>")
        elif kind == "subtitle":
            out.append(f"<p>{html.escape(element[1])}</p>")
        elif kind == "h":
            out.append(f"<h{element[1] + 1}>{html.escape(element[2])}</h{element[1] + 1}>")
        elif kind == "p":
            out.append(f"<p>{inline_html(element[1])}</p>")
        elif kind == "bold":
            out.append(f"<p><b>{html.escape(element[1])}</b></p>")
        elif kind in ("ul", "ol"):
            out.append(items_html(kind, element[1]))
        elif kind == "code":
            out.append(f"<pre>{html.escape(element[1])}</pre>")
        elif kind == "table":
            rows = "".join("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in element[1])
            out.append(f"<table border='1'>{rows}</table>")
        elif kind == "img":
            data = base64.b64encode(screenshot_png(element[1])).decode()
            out.append(f"<p><img src='data:image/png;base64,{data}' alt='{html.escape(element[1])}' width='320' height='180'></p>")
    out.append("</body></html>")
    return "\n".join(out)


def soffice(source: Path, to: str, outdir: Path) -> Path:
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    if exe is None:
        raise SystemExit("soffice (LibreOffice) is needed to regenerate the LibreOffice fixtures")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [exe, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", to, "--outdir", str(outdir), str(source)],
            check=True,
            capture_output=True,
            timeout=180,
        )
    return outdir / (source.stem + "." + to.split(":")[0])


def paste_text(note: Note) -> str:
    """The note as pasted plain text: bare lines, typed bullets, tab-indented sub-bullets."""
    out: list[str] = []

    def items_text(kind: str, items: list[Any], depth: int) -> None:
        for number, (inline, children) in enumerate(items, 1):
            text = "".join(part[1] for part in parts(inline))
            out.append("\t" * depth + (f"{number}. " if kind == "ol" else ("• ", "◦ ", "▪ ")[min(depth, 2)]) + text)
            sub = sub_list(kind, children)
            if sub:
                items_text(sub[0], sub[1], depth + 1)

    for element in note:
        kind = element[0]
        if kind in ("title", "subtitle", "bold"):
            out.append(element[1])
        elif kind == "h":
            out.append(element[2])
        elif kind == "p":
            out.append("".join(part[1] for part in parts(element[1])))
        elif kind in ("ul", "ol"):
            items_text(kind, element[1], 0)
        elif kind == "code":
            out += element[1].split("\n")
        elif kind == "table":
            out += ["\t".join(row) for row in element[1]]
        out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------------- Google Docs' export shape

GDOCS_CSS = (
    "@import url(https://themes.googleusercontent.com/fonts/css?kit=fixture);"
    "ol.lst-kix_{id}-0.start{{counter-reset:lst-ctn-kix_{id}-0 0}}"
    '.lst-kix_{id}-0>li:before{{content:"\\0025cf   "}}.lst-kix_{id}-1>li:before{{content:"\\0025cb   "}}'
    '.lst-kix_{id}-2>li:before{{content:"\\0025a0   "}}'
    "ul.lst-kix_{id}-0{{list-style-type:none}}ul.lst-kix_{id}-1{{list-style-type:none}}ul.lst-kix_{id}-2{{list-style-type:none}}"
    "ol{{margin:0;padding:0}}table td,table th{{padding:0}}"
    ".c0{{margin-left:36pt;padding-top:0pt;padding-left:0pt;padding-bottom:0pt;line-height:1.15;orphans:2;widows:2;text-align:left}}"
    '.c1{{color:#000000;font-weight:400;text-decoration:none;vertical-align:baseline;font-size:11pt;font-family:"Arial";font-style:normal}}'
    '.c2{{color:#000000;font-weight:700;text-decoration:none;vertical-align:baseline;font-size:11pt;font-family:"Arial";font-style:normal}}'
    ".c3{{padding-top:0pt;padding-bottom:0pt;line-height:1.15;orphans:2;widows:2;text-align:left;height:11pt}}"
    ".c4{{padding-top:0pt;padding-bottom:0pt;line-height:1.15;orphans:2;widows:2;text-align:left}}"
    ".c5{{background-color:#ffffff;max-width:468pt;padding:72pt 72pt 72pt 72pt}}"
    ".c6{{color:#1155cc;text-decoration:underline}}"
    '.c7{{font-size:10pt;font-family:"Roboto Mono";color:#188038;font-weight:400}}'
    ".c8{{font-style:italic}}"
    ".c9{{margin-left:72pt;padding-top:0pt;padding-left:0pt;padding-bottom:0pt;line-height:1.15;orphans:2;widows:2;text-align:left}}"
    ".c10{{margin-left:108pt;padding-top:0pt;padding-left:0pt;padding-bottom:0pt;line-height:1.15;orphans:2;widows:2;text-align:left}}"
    ".c11{{border-right-style:solid;padding:5pt 5pt 5pt 5pt;border-bottom-color:#000000;border-top-width:1pt;vertical-align:top}}"
    ".c12{{border-spacing:0;border-collapse:collapse;margin-right:auto}}"
    '.title{{padding-top:0pt;color:#000000;font-size:26pt;padding-bottom:3pt;font-family:"Arial";line-height:1.15;page-break-after:avoid;orphans:2;widows:2;text-align:left}}'
    '.subtitle{{padding-top:0pt;color:#666666;font-size:15pt;padding-bottom:16pt;font-family:"Arial";line-height:1.15;page-break-after:avoid;orphans:2;widows:2;text-align:left}}'
    'h1{{padding-top:20pt;color:#000000;font-size:20pt;padding-bottom:6pt;font-family:"Arial";line-height:1.15;page-break-after:avoid;orphans:2;widows:2;text-align:left}}'
    'h2{{padding-top:18pt;color:#000000;font-size:16pt;padding-bottom:6pt;font-family:"Arial";line-height:1.15;page-break-after:avoid;orphans:2;widows:2;text-align:left}}'
)


def gdocs_spans(inline: Any) -> str:
    out = []
    for part in parts(inline):
        kind, text = part[0], html.escape(part[1], quote=False)
        if kind == "link":
            target = html.escape("https://www.google.com/url?q=" + part[2] + "&sa=D&source=editors&ust=1767225600000000&usg=AOvVaw0fixture")
            out.append(f'<span class="c6 c1"><a class="c6" href="{target}">{text}</a></span>')
        else:
            out.append(f'<span class="{ {"t": "c1", "b": "c2", "i": "c1 c8", "code": "c7"}[kind] }">{text}</span>')
    return "".join(out)


def gdocs_html(note: Note, title: str, image_src: Any) -> str:
    """Google Docs' export: flat lists whose class names the level, styles in generated classes."""
    doc_id = format(zlib.crc32(title.encode()), "08x")
    body: list[str] = []
    list_count = [0]

    def flatten(kind: str, items: list[Any], level: int, out: list[tuple[str, int, Any]]) -> list[tuple[str, int, Any]]:
        for inline, children in items:
            out.append((kind, level, inline))
            sub = sub_list(kind, children)
            if sub:
                flatten(sub[0], sub[1], level + 1, out)
        return out

    def items_html(kind: str, items: list[Any], list_id: str) -> None:
        """One <ul>/<ol> per run of items at one level, as Docs writes them; ``start`` where a level begins again."""
        flat = flatten(kind, items, 0, [])
        fresh: set[int] = set(range(9))
        index = 0
        while index < len(flat):
            tag, level, _ = flat[index]
            run = [flat[index]]
            while index + len(run) < len(flat) and flat[index + len(run)][:2] == (tag, level):
                run.append(flat[index + len(run)])
            start = " start" if level in fresh else ""
            fresh.discard(level)
            fresh.update(range(level + 1, 9))
            extra = ' start="1"' if tag == "ol" and start else ""
            indent = ("c0", "c9", "c10")[min(level, 2)]
            lis = "".join(f'<li class="{indent} li-bullet-0">{gdocs_spans(inline)}</li>' for _, _, inline in run)
            body.append(f'<{tag} class="c13 lst-kix_{list_id}-{level}{start}"{extra}>{lis}</{tag}>')
            index += len(run)

    for element in note:
        kind = element[0]
        if kind == "title":
            body.append(f'<p class="c4 title" id="h.t{len(body)}"><span class="c1">{html.escape(element[1])}</span></p>')
        elif kind == "subtitle":
            body.append(f'<p class="c4 subtitle" id="h.s{len(body)}"><span class="c1">{html.escape(element[1])}</span></p>')
        elif kind == "h":
            level = element[1]
            body.append(f'<h{level} class="c4" id="h.h{len(body)}"><span class="c1">{html.escape(element[2])}</span></h{level}>')
        elif kind == "p":
            body.append(f'<p class="c4">{gdocs_spans(element[1])}</p>')
        elif kind == "bold":
            body.append(f'<p class="c4"><span class="c2">{html.escape(element[1])}</span></p>')
        elif kind in ("ul", "ol"):
            list_count[0] += 1
            items_html(kind, element[1], f"{doc_id}{list_count[0]}")
        elif kind == "code":
            for line in element[1].split("\n"):
                if line:
                    body.append(f'<p class="c4"><span class="c7">{html.escape(line)}</span></p>')
                else:
                    body.append('<p class="c3"><span class="c7"></span></p>')
        elif kind == "table":
            rows = "".join(
                '<tr class="c14">'
                + "".join(
                    f'<td class="c11" colspan="1" rowspan="1"><p class="c4"><span class="c1">{html.escape(cell)}</span></p></td>'
                    for cell in row
                )
                + "</tr>"
                for row in element[1]
            )
            body.append(f'<a id="t.{len(body)}"></a><a id="t.0"></a><table class="c12"><tbody>{rows}</tbody></table>')
        elif kind == "img":
            src = image_src(element[1])
            turn = "transform: rotate(0.00rad) translateZ(0px); -webkit-transform: rotate(0.00rad) translateZ(0px);"
            box = "width: 624.00px; height: 351.00px;"
            body.append(
                '<p class="c4"><span style="overflow: hidden; display: inline-block; margin: 0.00px 0.00px; '
                f'border: 0.00px solid #000000; {turn} {box}">'
                f'<img alt="{html.escape(element[1])}" src="{src}" style="{box} margin-left: 0.00px; margin-top: 0.00px; {turn}" title="">'
                "</span></p>"
            )
        body.append('<p class="c3"><span class="c1"></span></p>')  # Docs keeps the empty lines people type
    css = GDOCS_CSS.format(id=f"{doc_id}1")
    return (
        f'<html><head><meta content="text/html; charset=UTF-8" http-equiv="content-type"><style type="text/css">{css}</style></head>'
        f'<body class="c5 doc-content">{"".join(body)}</body></html>'
    )


# ---------------------------------------------------------------------- outliners' OPML


def plain(inline: Any) -> str:
    return "".join(part[1] for part in parts(inline))


def markdown_inline(inline: Any) -> str:
    out = []
    for part in parts(inline):
        kind, text = part[0], part[1]
        out.append({"t": text, "b": f"**{text}**", "i": f"__{text}__", "code": f"`{text}`"}.get(kind) or f"[{text}]({part[2]})")
    return "".join(out)


def html_inline(inline: Any) -> str:
    out = []
    for part in parts(inline):
        kind, text = part[0], html.escape(part[1], quote=False)
        out.append(
            {"t": text, "b": f"<b>{text}</b>", "i": f"<i>{text}</i>", "code": f"<code>{text}</code>"}.get(kind)
            or f'<a href="{part[2]}">{text}</a>'
        )
    return "".join(out)


def outline_tree(note: Note, text_of: Any) -> tuple[str, list[tuple[str, str, list[Any]]]]:
    """The note as an outliner holds it: sections of items; paragraphs and code as notes of the item above."""
    title = ""
    sections: list[tuple[str, str, list[Any]]] = []
    current: list[Any] | None = None
    for element in note:
        kind = element[0]
        if kind == "title":
            title = element[1]
        elif kind in ("h", "bold") or (kind == "p" and plain(element[1]).startswith(("Talk:", "Keynote:"))):
            text = element[2] if kind == "h" else (element[1] if kind == "bold" else plain(element[1]))
            current = []
            sections.append((text, "", current))
        elif current is None:
            if not title and kind == "p":
                title = plain(element[1])
            continue
        elif kind in ("ul", "ol"):

            def convert(kind: str, items: list[Any]) -> list[Any]:
                out = []
                for inline, children in items:
                    sub = sub_list(kind, children)
                    out.append((text_of(inline), "", convert(*sub) if sub else []))
                return out

            current += convert(kind, element[1])
        elif kind in ("p", "code"):
            text = text_of(element[1]) if kind == "p" else element[1]
            if kind == "code" and text_of is markdown_inline:
                text = f"```\n{text}\n```"  # Markdown outliners fence code in a note
            if current:
                head, note_text, children = current[-1]
                current[-1] = (head, (note_text + "\n\n" if note_text else "") + text, children)
            else:
                current.append((text, "", []))
    return title, sections


def opml(note: Note, shape: str) -> str:
    text_of = {"workflowy": html_inline, "dynalist": markdown_inline, "logseq": markdown_inline, "omnioutliner": plain}[shape]
    title, sections = outline_tree(note, text_of)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>' if shape != "workflowy" else '<?xml version="1.0"?>',
        '<opml version="2.0">',
        "  <head>",
    ]
    if shape == "workflowy":
        lines.append("    <ownerEmail>sam@example.com</ownerEmail>")
    elif shape == "dynalist":
        lines += [f"    <title>{html.escape(title)}</title>", "    <flavor>dynalist</flavor>"]
    elif shape == "logseq":
        lines.append(f"    <title>{html.escape(title)}</title>")
    else:
        lines += [
            f"    <title>{html.escape(title)}</title>",
            "    <expansionState>0,1,2</expansionState>",
            "    <dateCreated>Mon, 23 Mar 2026 09:00:00 GMT</dateCreated>",
        ]
    lines += ["  </head>", "  <body>"]

    def outline(text: str, note_text: str, children: list[Any], depth: int) -> None:
        attrs = f"text={quoteattr(text)}"
        if note_text:
            attrs += f" _note={quoteattr(note_text)}"
        if shape == "omnioutliner":
            attrs += ' _status="unchecked"'
        if shape == "logseq" and children:
            attrs += ' collapsed="false"'
        pad = "  " * depth
        if not children:
            lines.append(f"{pad}<outline {attrs}/>")
            return
        lines.append(f"{pad}<outline {attrs}>")
        for child in children:
            outline(*child, depth + 1)
        lines.append(f"{pad}</outline>")

    if shape in ("workflowy", "logseq"):
        # both export the page as one outline that holds the rest
        outline(title, "", list(sections), 2)
    else:
        for section in sections:
            outline(*section, 2)
    lines += ["  </body>", "</opml>"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- note apps


def _html_items(kind: str, items: list[Any], nested: Any) -> str:
    out = []
    for inline, children in items:
        sub = sub_list(kind, children)
        out.append(f"<li>{html_inline(inline)}{nested(*sub) if sub else ''}</li>")
    return "".join(out)


def _html_table(rows: list[list[str]], head_class: str = "") -> str:
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in rows[1:])
    return f"<table{head_class}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def enex(note: Note, title: str) -> str:
    """Evernote's export (``.enex``): one note, its ENML in CDATA, its screenshot a base64 resource
    the ``<en-media>`` names by MD5; headings as Evernote 10 writes them (``<h1>``–``<h3>``), lists,
    code as ``<div style="--en-codeblock:true">`` lines, tags and dates beside the content."""
    import hashlib

    body: list[str] = []
    resources: list[str] = []

    def nested(kind: str, items: list[Any]) -> str:
        return f"<{kind}>{_html_items(kind, items, nested)}</{kind}>"

    for element in note:
        kind = element[0]
        if kind == "title":
            continue  # the note's title is its <title>
        if kind == "subtitle":
            body.append(f"<div><i>{html.escape(element[1])}</i></div>")
        elif kind == "h":
            body.append(f"<h{element[1]}>{html.escape(element[2])}</h{element[1]}>")
        elif kind == "p":
            body.append(f"<div>{html_inline(element[1])}</div>")
        elif kind == "bold":
            body.append(f"<div><b>{html.escape(element[1])}</b></div>")
        elif kind in ("ul", "ol"):
            body.append(nested(kind, element[1]))
        elif kind == "code":
            lines = "".join(f"<div>{html.escape(line) or '<br/>'}</div>" for line in element[1].split("\n"))
            body.append(f'<div style="box-sizing: border-box; --en-codeblock:true;">{lines}</div>')
        elif kind == "table":
            body.append(_html_table(element[1]))
        elif kind == "img":
            data = screenshot_png(element[1])
            digest = hashlib.md5(data).hexdigest()
            body.append(f'<div><en-media type="image/png" hash="{digest}" alt={quoteattr(element[1])}/></div>')
            encoded = base64.encodebytes(data).decode("ascii")
            resources.append(
                f'<resource><data encoding="base64">\n{encoded}</data><mime>image/png</mime><width>160</width><height>90</height>'
                f"<resource-attributes><file-name>Screenshot 2026-03-23 at 10.14.png</file-name></resource-attributes></resource>"
            )
    enml = (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd">\n'
        f"<en-note>{''.join(body)}</en-note>"
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE en-export SYSTEM "http://xml.evernote.com/pub/evernote-export4.dtd">\n'
        '<en-export export-date="20260324T081500Z" application="Evernote" version="10.80.3">\n'
        f"<note><title>{html.escape(title)}</title><created>20260323T083000Z</created><updated>20260323T181200Z</updated>"
        f"<tag>conference</tag><note-attributes><author>Sam</author></note-attributes>"
        f"<content><![CDATA[{enml}]]></content>{''.join(resources)}</note>\n</en-export>\n"
    )


def notion_html(note: Note, title: str) -> str:
    """Notion's "Export › HTML" page: a header with the page's title and its properties table, then
    every block as Notion writes it — a ``<ul>`` per bullet, headings one level below the title,
    code in ``<pre class="code">``, the screenshot a figure linking its file."""
    body: list[str] = []

    def nested(kind: str, items: list[Any]) -> str:
        # Notion writes each list item as a list of its own, its children inside it
        style = "disc" if kind == "ul" else "decimal"
        css = "bulleted-list" if kind == "ul" else "numbered-list"
        out = []
        for number, (inline, children) in enumerate(items, 1):
            sub = sub_list(kind, children)
            start = f' start="{number}"' if kind == "ol" else ""
            out.append(
                f'<{kind} class="{css}"{start}><li style="list-style-type:{style}">{html_inline(inline)}{nested(*sub) if sub else ""}</li></{kind}>'
            )
        return "".join(out)

    for element in note:
        kind = element[0]
        if kind == "title":
            continue
        if kind == "subtitle":
            body.append(f'<p class=""><em>{html.escape(element[1])}</em></p>')
        elif kind == "h":
            level = min(element[1] + 1, 3)
            body.append(f'<h{level} class="">{html.escape(element[2])}</h{level}>')
        elif kind == "p":
            body.append(f'<p class="">{html_inline(element[1])}</p>')
        elif kind == "bold":
            body.append(f'<p class=""><strong>{html.escape(element[1])}</strong></p>')
        elif kind in ("ul", "ol"):
            body.append(nested(kind, element[1]))
        elif kind == "code":
            body.append(f'<pre class="code"><code class="language-Shell">{html.escape(element[1])}</code></pre>')
        elif kind == "table":
            body.append(_html_table(element[1], ' class="simple-table"'))
        elif kind == "img":
            src = "Untitled%20" + format(zlib.crc32(element[1].encode()), "08x") + "/Untitled.png"
            body.append(f'<figure class="image"><a href="{src}"><img style="width:1600px" src="{src}"/></a></figure>')
    properties = (
        '<table class="properties"><tbody>'
        '<tr class="property-row property-row-created_time"><th>Created</th><td><time>March 23, 2026 8:30 AM</time></td></tr>'
        '<tr class="property-row property-row-multi_select"><th>Tags</th><td><span class="selected-value select-value-color-blue">'
        'conference</span><span class="selected-value select-value-color-green">notes</span></td></tr>'
        "</tbody></table>"
    )
    return (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"/>'
        f"<title>{html.escape(title)}</title><style>/* notion */</style></head>"
        f'<body><article id="1b2c3d4e" class="page sans"><header><h1 class="page-title">{html.escape(title)}</h1>'
        f'{properties}</header><div class="page-body">{"".join(body)}</div></article></body></html>\n'
    )


def _markdown_items(kind: str, items: list[Any], depth: int, bullet: str = "-") -> list[str]:
    out = []
    for number, (inline, children) in enumerate(items, 1):
        out.append("    " * depth + (f"{number}. " if kind == "ol" else f"{bullet} ") + markdown_inline(inline))
        sub = sub_list(kind, children)
        if sub:
            out += _markdown_items(sub[0], sub[1], depth + 1, bullet)
    return out


def obsidian_md(note: Note, _title: str) -> str:
    """An Obsidian vault note: properties in front matter, the title as the file's name (no heading),
    ``%% comments %%``, the screenshot embedded by name (``![[Pasted image ….png]]``) and a
    wikilink to the day's other note."""
    out = ["---", "tags:", "  - conference", "created: 2026-03-23", "---", "", "%% written during the talks; tidy later %%", ""]
    for element in note:
        kind = element[0]
        if kind == "title":
            out += [f"# {element[1]}", ""]
        elif kind == "subtitle":
            out += [f"*{element[1]}* — see [[Conference index|all notes]]", ""]
        elif kind == "h":
            out += [f"{'#' * (element[1] + 1)} {element[2]}", ""]
        elif kind == "p":
            out += [markdown_inline(element[1]), ""]
        elif kind == "bold":
            out += [f"**{element[1]}**", ""]
        elif kind in ("ul", "ol"):
            out += [*_markdown_items(kind, element[1], 0), ""]
        elif kind == "code":
            out += ["```", *element[1].split("\n"), "```", ""]
        elif kind == "table":
            rows = element[1]
            out += [f"| {' | '.join(rows[0])} |", "|" + " --- |" * len(rows[0]), *(f"| {' | '.join(row)} |" for row in rows[1:]), ""]
        elif kind == "img":
            out += [f"![[Pasted image 20260323{format(zlib.crc32(element[1].encode()), '08x')}.png]]", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def logseq_md(note: Note, title: str) -> str:
    """A Logseq page (``pages/….md``): page properties on its first lines (``title::``), every block
    a ``- `` bullet, headings as ``- ## …`` blocks, children indented by a tab, some blocks with
    ``collapsed::`` and ``id::`` properties."""
    out = [f"title:: {title}", "tags:: conference, notes", ""]
    depth = 0
    for position, element in enumerate(note):
        kind = element[0]
        pad = "\t" * depth
        if kind == "title":
            continue
        if kind == "h":
            out += [f"- {'#' * (element[1] + 1)} {element[2]}", "  collapsed:: false"]
            depth = 1
        elif kind == "bold":
            out.append(f"{pad}- **{element[1]}**")
        elif kind in ("p", "subtitle"):
            text = markdown_inline(element[1]) if kind == "p" else element[1]
            out.append(f"{pad}- {text}")
            if position % 3 == 0:
                out.append(f"{pad}  id:: 6601f0a2-{position:04d}-4c1e-9f00-0000000000{position:02d}")
        elif kind in ("ul", "ol"):
            out += [pad + line.replace("    ", "\t") for line in _markdown_items("ul", element[1], 0)]
        elif kind == "code":
            out += [f"{pad}- ```", *(f"{pad}  {line}" for line in element[1].split("\n")), f"{pad}  ```"]
        elif kind == "table":
            rows = element[1]
            out += [f"{pad}- | {' | '.join(rows[0])} |", f"{pad}  |" + " --- |" * len(rows[0])]
            out += [f"{pad}  | {' | '.join(row)} |" for row in rows[1:]]
        elif kind == "img":
            out.append(f"{pad}- ![{element[1]}](../assets/image_{format(zlib.crc32(element[1].encode()), '08x')}.png)")
    return "\n".join(out) + "\n"


def onenote_html(note: Note, _title: str) -> str:
    """OneNote's clipboard (Windows' CF_HTML body): every line a ``<p>`` in Calibri, headings only
    larger text (Calibri Light 20 pt title, 16 pt Heading 1, 13.5 pt Heading 2), lists as ``<ul>``/
    ``<ol>`` with ``type`` and inline margins."""
    out: list[str] = []

    def para(text: str, size: str, font: str = "Calibri", color: str = "") -> str:
        style = f"margin:0in;font-family:{font};font-size:{size}" + (f";color:{color}" if color else "")
        return f'<p style="{style}">{text}</p>'

    def nested(kind: str, items: list[Any]) -> str:
        kind_attr = ' type="disc"' if kind == "ul" else ' type="1"'
        return (
            f'<{kind}{kind_attr} style="margin-left:.375in;direction:ltr;unicode-bidi:embed;margin-top:0in;margin-bottom:0in">'
            + "".join(
                f'<li style="margin-top:0;margin-bottom:0;vertical-align:middle"><span style="font-family:Calibri;font-size:11.0pt">'
                f"{html_inline(inline)}</span>{nested(*sub) if (sub := sub_list(kind, children)) else ''}</li>"
                for inline, children in items
            )
            + f"</{kind}>"
        )

    for element in note:
        kind = element[0]
        if kind == "title":
            out.append(para(html.escape(element[1]), "20.0pt", "Calibri Light"))
        elif kind == "subtitle":
            out.append(para(html.escape(element[1]), "10.0pt", color="#595959"))
        elif kind == "h":
            size = "16.0pt" if element[1] == 1 else "13.5pt"
            out.append(para(html.escape(element[2]), size, "Calibri Light", "#1E4E79" if element[1] == 1 else "#2E75B5"))
        elif kind == "p":
            out.append(para(html_inline(element[1]), "11.0pt"))
        elif kind == "bold":
            out.append(para(f"<b>{html.escape(element[1])}</b>", "11.0pt"))
        elif kind in ("ul", "ol"):
            out.append(nested(kind, element[1]))
        elif kind == "code":
            out += [para(html.escape(line) or "&nbsp;", "10.0pt", "Consolas") for line in element[1].split("\n")]
        elif kind == "table":
            out.append(_html_table(element[1], ' border="1" cellpadding="0" cellspacing="0"'))
        out.append(para("&nbsp;", "11.0pt"))
    return (
        '<html><head><meta http-equiv=Content-Type content="text/html; charset=utf-8">'
        '<meta name=Generator content="Microsoft OneNote 15"></head><body lang=en-US style="font-family:Calibri;font-size:11.0pt">'
        f"<!--StartFragment-->{''.join(out)}<!--EndFragment--></body></html>\n"
    )


#: The note apps' shapes, each written from these notes (``name.app.suffix``)
APPS = {
    "evernote.enex": (enex, ("kubecon", "pycon")),
    "notion.html": (notion_html, ("platform", "velocity")),
    "obsidian.md": (obsidian_md, ("kubecon", "datacouncil")),
    "logseq.md": (logseq_md, ("pycon", "platform")),
    "onenote.html": (onenote_html, ("srecon", "velocity")),
}


def app_files() -> dict[str, str]:
    """Every note-app fixture's file name and text."""
    return {f"{name}.{shape}": write(NOTES[name], TITLES[name]) for shape, (write, names) in APPS.items() for name in names}


def app_pictures() -> dict[str, bytes]:
    """The screenshots Notion's export and an Obsidian vault keep beside their notes, by path (Evernote's
    travel inside the file; a Logseq page's are in the graph's ``assets`` folder, outside the page's)."""
    out = {}
    for shape, (_write, names) in APPS.items():
        for name in names:
            for element in NOTES[name]:
                if element[0] != "img":
                    continue
                crc = format(zlib.crc32(element[1].encode()), "08x")
                if shape == "notion.html":
                    out[f"Untitled {crc}/Untitled.png"] = screenshot_png(element[1])
                elif shape == "obsidian.md":
                    out[f"Pasted image 20260323{crc}.png"] = screenshot_png(element[1])
    return out


# ---------------------------------------------------------------------- all of them

TITLES = {
    "kubecon": "KubeCon EU 2026 — Day 1",
    "srecon": "SREcon Americas notes",
    "pycon": "PyCon US 2026: Typing Talks",
    "platform": "Platform Engineering Day",
    "velocity": "Velocity Berlin",
    "datacouncil": "Data Council: Streaming Track",
}
OUTLINERS = {
    "workflowy": ("kubecon", "srecon"),
    "dynalist": ("pycon", "datacouncil"),
    "logseq": ("velocity", "platform"),
    "omnioutliner": ("srecon",),
}
PASTES = ("srecon", "velocity")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, note in NOTES.items():
            write_pydocx(note, OUT / f"{name}.pydocx.docx")
            page = work / f"{name}.lo.html"
            page.write_text(authoring_html(note, TITLES[name]), encoding="utf-8")
            docx = soffice(page, "docx:MS Word 2007 XML", work / "docx")
            shutil.copy(docx, OUT / f"{name}.lo.docx")
            shutil.copy(soffice(docx, "odt:writer8", work / "odt"), OUT / f"{name}.lo.odt")
            exported = soffice(docx, "html:HTML (StarWriter)", work / "html")
            shutil.copy(exported, OUT / f"{name}.lo.html")
            for extra in (work / "html").glob(f"{name}.lo_html_*"):
                shutil.copy(extra, OUT / extra.name)
            images: dict[str, bytes] = {}

            def data_uri(alt: str) -> str:
                return "data:image/png;base64," + base64.b64encode(screenshot_png(alt)).decode()

            (OUT / f"{name}.gdocs.html").write_text(gdocs_html(note, TITLES[name], data_uri), encoding="utf-8")
            if any(element[0] == "img" for element in note):

                def file_src(alt: str, images: dict[str, bytes] = images) -> str:
                    images[f"images/image{len(images) + 1}.png"] = screenshot_png(alt)
                    return f"images/image{len(images)}.png"

                page_text = gdocs_html(note, TITLES[name], file_src)
                stem = TITLES[name].replace(" ", "")
                with zipfile.ZipFile(OUT / f"{name}.gdocs.zip", "w", zipfile.ZIP_DEFLATED) as archive:
                    archive.writestr(f"{stem}.html", page_text)
                    for path, data in images.items():
                        archive.writestr(path, data)
        for name in PASTES:
            text = work / f"{name}.paste.txt"
            text.write_text(paste_text(NOTES[name]), encoding="utf-8")
            docx = soffice(text, "docx:MS Word 2007 XML", work / "paste")
            shutil.copy(docx, OUT / f"{name}.paste.docx")
        for shape, names in OUTLINERS.items():
            for name in names:
                (OUT / f"{name}.{shape}.opml").write_text(opml(NOTES[name], shape), encoding="utf-8")
        for file_name, text in app_files().items():
            (OUT / file_name).write_text(text, encoding="utf-8")
        for file_name, data in app_pictures().items():
            (OUT / file_name).parent.mkdir(exist_ok=True)
            (OUT / file_name).write_bytes(data)
    print(f"wrote {len(list(OUT.iterdir()))} files to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
