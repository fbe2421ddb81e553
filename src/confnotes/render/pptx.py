"""PowerPoint through python-pptx: 16:9, title/section/content layouts, notes in the notes pane (``--to pptx``)."""

from __future__ import annotations

from pathlib import Path

from confnotes.escape import xml_safe
from confnotes.model import Document
from confnotes.render.deck import deck_for, slide_lines
from confnotes.render.markdown import InlineRenderer
from confnotes.render.options import RenderOptions


def render(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[bytes, list[str]]:
    """PowerPoint through python-pptx: 16:9, title/section/content layouts, notes in the notes pane."""
    import io

    from pptx import Presentation
    from pptx.util import Emu, Pt

    md = InlineRenderer(base_dir=base_dir, allow_html=options.allow_html)
    deck = deck_for(doc, options)
    prs = Presentation()
    old_width = prs.slide_width
    prs.slide_width, prs.slide_height = Emu(12192000), Emu(6858000)  # 16:9, 13.333 × 7.5 in
    ratio = prs.slide_width / old_width
    layouts = {"title": 0, "content": 1, "section": 2, "title-only": 5}
    core = prs.core_properties
    core.title = xml_safe(md.plain(doc.meta.title))
    core.author = xml_safe(", ".join(doc.meta.speakers))
    core.subject = xml_safe(" · ".join(part for part in (doc.meta.event, doc.meta.date) if part))
    core.keywords = xml_safe(", ".join(doc.meta.tags))
    core.language = xml_safe(doc.meta.lang)

    for slide in deck.slides:
        if slide.kind == "title":
            layout = layouts["title"]
        elif slide.kind == "divider":
            layout = layouts["section"]
        elif slide.content:
            layout = layouts["content"]
        else:
            layout = layouts["title-only"]
        page = prs.slides.add_slide(prs.slide_layouts[layout])
        for shape in page.placeholders:  # the default template is 4:3; stretch it to 16:9
            shape.left, shape.width = Emu(int(shape.left * ratio)), Emu(int(shape.width * ratio))
        page.shapes.title.text = xml_safe(md.plain(slide.display_title))
        body = [ph for ph in page.placeholders if ph.placeholder_format.idx != 0]
        if slide.kind == "title":
            lines = [part for part in (slide.subtitle, *(text for text, _, _ in slide_lines(slide, md.plain))) if part]
            frame = body[0].text_frame
            frame.text = xml_safe("\n".join(lines)) if lines else ""
        elif body and slide.content:
            frame = body[0].text_frame
            frame.word_wrap = True
            first = True
            for text, level, label in slide_lines(slide, md.plain):
                paragraph = frame.paragraphs[0] if first else frame.add_paragraph()
                first = False
                paragraph.level = level
                if label is not None:
                    run = paragraph.add_run()
                    run.text = xml_safe(f"{label}:" + (" " if text else ""))
                    run.font.bold = True
                if text or label is None:
                    paragraph.add_run().text = xml_safe(text)
                if slide.kind in ("entry", "text"):
                    for run in paragraph.runs:
                        run.font.size = Pt(20)
        for ph in list(page.placeholders):
            if ph.placeholder_format.idx != 0 and not ph.text_frame.text.strip():
                ph._element.getparent().remove(ph._element)  # no "Click to add text" boxes
        if slide.notes:
            page.notes_slide.notes_text_frame.text = xml_safe("\n\n".join(slide.notes))
    buffer = io.BytesIO()
    prs.save(buffer)
    return reproducible_zip(buffer.getvalue()), md.warnings


def reproducible_zip(data: bytes) -> bytes:
    """The same package with every entry dated ``SOURCE_DATE_EPOCH`` (default 1980-01-01), so the
    same note gives the same bytes in every build (and a sharded build equals a plain one)."""
    import io
    import os
    import time
    import zipfile

    try:
        epoch = max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)
    except ValueError:
        epoch = 315532800
    stamp = time.gmtime(epoch)[:6]
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            target.writestr(entry, source.read(info.filename))
    return out.getvalue()
