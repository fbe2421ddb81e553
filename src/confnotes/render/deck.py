"""Deck renderers: an HTML deck, a 16:9 PDF, a handout PDF, Marp Markdown, PPTX and a plain outline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from confnotes.model import Document
from confnotes.render.html import RenderOptions, style_safe, theme_css
from confnotes.render.markdown import InlineRenderer
from confnotes.slides import Deck, DeckOptions, Slide, SlideItem, build_deck, slide_words


def slide_lines(slide: Slide, plain: Any) -> list[tuple[str, int, str | None]]:
    """What a slide shows, as plain text in its order: ``(text, level, label)`` per item or block."""
    lines: list[tuple[str, int, str | None]] = []
    for entry in slide.content:
        if type(entry) is SlideItem:
            lines.append((plain(entry.text), entry.level, None if entry.label is None else plain(entry.label)))
        else:
            lines.append((" ".join(plain(entry.text).split()), 0, None))
    return lines


def _deck(doc: Document, options: RenderOptions) -> Deck:
    return build_deck(doc, DeckOptions.from_mapping(options.slides))


def _context(doc: Document, options: RenderOptions, base_dir: Path | None) -> dict[str, Any]:
    from confnotes.templating import read_builtin

    md = InlineRenderer(base_dir=base_dir, allow_html=options.allow_html)
    extra = "\n".join(Path(css).read_text(encoding="utf-8") for css in options.css)

    def static(name: str) -> str:
        return style_safe(read_builtin(name, options.templates))

    return {
        "doc": doc, "meta": doc.meta, "deck": _deck(doc, options), "options": options, "md": md,
        "words": slide_words,
        "theme_css": style_safe(theme_css(options) + "\n" + extra),
        "deck_css": static("deck.css"),
        "deck_js": static("deck.js"),
        "handout_css": static("handout.css"),
    }


def render_deck(doc: Document, to: str, options: RenderOptions, base_dir: Path | None) -> tuple[Any, list[str]]:
    """Render ``doc`` as a deck in format ``to``; returns (str or bytes, warnings)."""
    from confnotes.templating import render_template

    if to == "pptx":
        return render_pptx(doc, options, base_dir)
    context = _context(doc, options, base_dir)
    md: InlineRenderer = context["md"]
    if to == "slides":
        html = render_template("deck.html", options.templates, mode="html", **context)
        return html, md.warnings
    if to == "marp":
        return render_template("marp.md", options.templates, **context), md.warnings
    if to == "outline":
        def plain_with_urls(text: str) -> str:
            return md.plain(text, urls=True)

        return render_template("slides.txt", options.templates, plain=plain_with_urls, lines=slide_lines,
                               **context), md.warnings
    from confnotes.render.pdf import html_to_pdf

    if to == "slides-pdf":
        html = render_template("deck.html", options.templates, mode="pdf", **context)
    elif to == "handout":
        html = render_template("handout.html", options.templates, **context)
    else:  # pragma: no cover - the CLI's choices guard this
        raise ValueError(to)
    pdf, warnings = html_to_pdf(html, base_dir, tagged=options.tagged)
    return pdf, md.warnings + warnings


def render_pptx(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[bytes, list[str]]:
    """PowerPoint through python-pptx: 16:9, title/section/content layouts, notes in the notes pane."""
    import io

    from pptx import Presentation
    from pptx.util import Emu, Pt

    md = InlineRenderer(base_dir=base_dir, allow_html=options.allow_html)
    deck = _deck(doc, options)
    prs = Presentation()
    old_width = prs.slide_width
    prs.slide_width, prs.slide_height = Emu(12192000), Emu(6858000)  # 16:9, 13.333 × 7.5 in
    ratio = prs.slide_width / old_width
    layouts = {"title": 0, "content": 1, "section": 2, "title-only": 5}
    core = prs.core_properties
    core.title = md.plain(doc.meta.title)
    core.author = ", ".join(doc.meta.speakers)
    core.subject = " · ".join(part for part in (doc.meta.event, doc.meta.date) if part)
    core.keywords = ", ".join(doc.meta.tags)
    core.language = doc.meta.lang

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
        page.shapes.title.text = md.plain(slide.display_title)
        body = [ph for ph in page.placeholders if ph.placeholder_format.idx != 0]
        if slide.kind == "title":
            lines = [part for part in (slide.subtitle, *(text for text, _, _ in slide_lines(slide, md.plain))) if part]
            frame = body[0].text_frame
            frame.text = "\n".join(lines) if lines else ""
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
                    run.text = f"{label}:" + (" " if text else "")
                    run.font.bold = True
                if text or label is None:
                    paragraph.add_run().text = text
                if slide.kind in ("entry", "text"):
                    for run in paragraph.runs:
                        run.font.size = Pt(20)
        for ph in list(page.placeholders):
            if ph.placeholder_format.idx != 0 and not ph.text_frame.text.strip():
                ph._element.getparent().remove(ph._element)  # no "Click to add text" boxes
        if slide.notes:
            page.notes_slide.notes_text_frame.text = "\n\n".join(slide.notes)
    buffer = io.BytesIO()
    prs.save(buffer)
    return buffer.getvalue(), md.warnings
