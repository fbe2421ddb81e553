"""Document to one self-contained HTML page (and the HTML that WeasyPrint turns into a PDF)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from confnotes.errors import render_error
from confnotes.model import Document, walk, walk_content
from confnotes.render.markdown import InlineRenderer


@dataclass(frozen=True)
class RenderOptions:
    """What the user asked for; built from config, front matter and the command line."""

    theme: str = "default"
    css: tuple[str, ...] = ()
    templates: tuple[str, ...] = ()
    notes: bool = False
    paper: str = "a4"
    allow_html: bool = False
    mode: str = "html"
    tagged: bool = True
    slides: dict[str, Any] = field(default_factory=dict)
    agenda: bool | None = None


def slugify(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"[^\w\s-]", "", text, flags=re.UNICODE)
    return re.sub(r"[\s_-]+", "-", text).strip("-") or "section"


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
        raise render_error(f"unknown theme '{options.theme}' (built-in themes: {', '.join(themes())})")
    return read_builtin(f"themes/{options.theme}.css", options.templates)


def stylesheet(options: RenderOptions) -> str:
    from confnotes.templating import read_builtin

    parts = [theme_css(options)]
    parts.append(read_builtin("note.css", options.templates))
    parts.append(read_builtin("print.css" if options.mode == "pdf" else "screen.css", options.templates))
    for extra in options.css:
        try:
            parts.append(Path(extra).read_text(encoding="utf-8"))
        except OSError as exc:
            raise render_error(f"cannot read stylesheet: {exc.strerror}", extra) from None
    return style_safe("\n".join(parts))


def page_context(doc: Document, options: RenderOptions, base_dir: Path | None) -> dict[str, Any]:
    """Everything a document template receives: the model, the options and render helpers."""
    md = InlineRenderer(base_dir=base_dir, allow_html=options.allow_html)
    md.load_references([entry for entry in walk_content(doc.content) if entry.kind == "reference"])
    ids = anchors(doc, md.plain)
    toc = [node for node in doc.nodes if node.is_section]
    return {
        "doc": doc,
        "meta": doc.meta,
        "options": options,
        "md": md,
        "toc": toc,
        "anchor": lambda node: ids.get(id(node), ""),
        "css": stylesheet(options),
        "paper": "letter" if options.paper == "letter" else "A4",
        "plain_title": md.plain(doc.meta.title),
        "subject": " · ".join(part for part in (doc.meta.event, doc.meta.date) if part) or md.plain(doc.meta.title),
    }


def render_html(doc: Document, options: RenderOptions, base_dir: Path | None = None) -> tuple[str, list[str]]:
    """The note as one HTML5 page; returns the page and any warnings (e.g. a missing image)."""
    from confnotes.templating import render_template

    context = page_context(doc, options, base_dir)
    html = render_template("note.html", options.templates, **context)
    return html, context["md"].warnings
