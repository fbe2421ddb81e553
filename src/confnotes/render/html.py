"""Document to one self-contained HTML page (and the HTML that WeasyPrint turns into a PDF)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from confnotes.errors import render_error
from confnotes.model import Document, walk
from confnotes.names import slugify
from confnotes.render.markdown import InlineRenderer, theme_inks
from confnotes.render.options import RenderOptions, user_css


def anchors(doc: Document, plain: Any) -> dict[int, str]:
    """Stable, unique ``id``s for every section, from its plain-text title."""
    ids: dict[int, str] = {}
    used: dict[str, int] = {}
    for node, _ in walk(doc.nodes):
        if not node.is_section:
            continue
        base = slugify(plain(node.title))
        count = used.get(base, 0) + 1
        used[base] = count
        ids[id(node)] = base if count == 1 else f"{base}-{count}"
    return ids


def style_safe(css: str) -> str:
    """CSS to inline in a ``<style>`` element: it must not be able to close the element."""
    return css.replace("</", "<\\/")


def theme_css(options: RenderOptions) -> str:
    from confnotes.templating import read_builtin, themes

    if options.theme not in themes():
        from confnotes.config.settings import did_you_mean

        raise render_error(
            f"unknown theme '{options.theme}'{did_you_mean(options.theme, themes())} (built-in themes: {', '.join(themes())})"
        )
    return read_builtin(f"themes/{options.theme}.css", options.templates)


def stylesheet(options: RenderOptions) -> str:
    from confnotes.templating import read_builtin

    parts = [theme_css(options)]
    parts.append(read_builtin("note.css", options.templates))
    parts.append(read_builtin("print.css" if options.mode == "pdf" else "screen.css", options.templates))
    from confnotes.render.inline.code import code_css

    parts.append(code_css(options.theme, dark=options.theme == "dark" and options.mode != "pdf"))
    parts.append(user_css(options))
    return style_safe("\n".join(parts))


def inline_renderer(doc: Document, options: RenderOptions, base_dir: Path | None) -> tuple[InlineRenderer, Any]:
    """The note's inline renderer, its link references and footnotes loaded, and the footnotes: what
    a page renders with, and what names its sections (``anchors``: the site's search links to them)."""
    printed = options.mode == "pdf"
    inks = theme_inks(theme_css(options))
    md = InlineRenderer(
        base_dir=base_dir,
        allow_html=options.allow_html,
        code_columns=76 if printed else None,
        printed=printed,
        inks=inks,
        dark=inks.dark_screen and not printed,  # a page prints in the theme's light palette
    )
    notes = md.load_note(doc, "page" if printed else "end")
    return md, notes


def page_context(doc: Document, options: RenderOptions, base_dir: Path | None) -> dict[str, Any]:
    """Everything a document template receives: the model, the options and render helpers."""
    # PDF pages cannot scroll: long code lines wrap there, behind a mark
    printed = options.mode == "pdf"
    md, notes = inline_renderer(doc, options, base_dir)
    ids = anchors(doc, md.plain)
    toc = [node for node in doc.nodes if node.is_section]
    return {
        "doc": _printable_path(doc),
        "meta": doc.meta,
        "options": options,
        "md": md,
        "toc": toc,
        "anchor": lambda node: ids.get(id(node), ""),
        "css": stylesheet(options),
        "paper": "letter" if options.paper == "letter" else "A4",
        "plain_title": md.plain(doc.meta.title),
        # the page's list of footnotes: all of them on screen; in a PDF, those nothing cites (the
        # cited ones stand at the foot of the page that cites them)
        "footnotes": [
            (n, label, md.footnote_html(text), label in notes.cited_ids)
            for n, label, text in notes.ordered
            if not printed or label not in notes.cited_ids
        ],
        "subject": " · ".join(part for part in (doc.meta.event, doc.meta.date) if part) or md.plain(doc.meta.title),
    }


def _printable_path(doc: Document) -> Document:
    """The note as a page names it (``Made with confnotes from …``): a file name that is not UTF-8
    shown with U+FFFD, since a UTF-8 page cannot hold its bytes."""
    from dataclasses import replace

    from confnotes.markup.escape import display_text

    shown = display_text(doc.path)
    return doc if shown == doc.path else replace(doc, path=shown)


def render_html(doc: Document, options: RenderOptions, base_dir: Path | None = None) -> tuple[str, list[str]]:
    """The note as one HTML5 page; returns the page and any warnings (e.g. a missing image)."""
    from confnotes.templating import render_template

    context = page_context(doc, options, base_dir)
    html = render_template("note.html", options.templates, options.trust_templates, **context)
    return html, context["md"].warnings


render = render_html
