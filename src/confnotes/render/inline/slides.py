"""What the slide templates ask of a slide: its ground, classes, background, table widths, columns."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from confnotes.model.values import Diagram
from confnotes.render.inline.base import InlineBase


class SlideRules(InlineBase):
    def ground(self, slide: Any, deck: bool) -> str:
        """Draw the slide's entries for its ground (called by the slide templates before them): dark
        on a dark slide, and on every slide of a dark theme's deck (``deck``; a handout prints in the
        light palette). Returns nothing to show."""
        self.dark = slide.dark_ground or (deck and self.inks.dark_screen)
        return ""

    def slide_classes(self, slide: Any) -> Markup:
        """The classes a slide's directives add (``<!-- slide class: … -->``), and ``on-dark`` on a dark
        background colour, each after a space; names were checked when read (``parse.directives``)."""
        from confnotes.slides.directives import is_dark

        names = [*slide.classes, *(["on-dark"] if is_dark(slide.background) else []), *([f"layout-{slide.layout}"] if slide.layout else [])]
        return Markup("".join(f" {escape(name)}" for name in names))

    def slide_table(self, entry: Any, scale: float, box_w: float) -> Markup:
        """A slide's table with its columns' widths (``slides.fit.table_widths``), the widths the
        fit engine measured its rows by: a column gets room for its longest word before any shares."""
        from confnotes.slides.fit import table_widths
        from confnotes.slides.geometry import sizes

        widths = table_widths(entry.table, sizes(scale)["table"], box_w)
        cols = "".join(f'<col style="width: {100 * width / sum(widths):.2f}%">' for width in widths)
        html = str(self.blocks(entry.text))
        at = html.find("<table")
        end = html.find(">", at) + 1 if at >= 0 else -1
        return Markup(html[:end] + f"<colgroup>{cols}</colgroup>" + html[end:]) if end > 0 else Markup(html)

    def column_px(self, slide: Any, share: float) -> float:
        """The width in px of a slide's column of ``share`` (``slides.layouts``): what its code wraps at."""
        from confnotes.slides.layouts import column_widths, text_width

        if slide.grid is not None and share < 1.0:
            return column_widths(len(slide.grid.widths), (share,))[0]
        return text_width(slide)

    def slide_style(self, slide: Any) -> Markup:
        """A slide's background (``<!-- slide background: … -->``) as its ``style``: a colour, or an
        image below the note's folder, embedded as the page's images are."""
        if not slide.background:
            return Markup("")
        from confnotes.slides.directives import is_colour

        if is_colour(slide.background):
            return Markup(f' style="background: {escape(slide.background)}"')
        uri = self._embed(slide.background)
        if not uri:
            return Markup("")
        # under a veil of the paper's colour (a theme's --veil: dark under a dark theme's light
        # text): the slide's text stays legible on any picture
        tint = "var(--veil, rgba(255, 255, 255, .78))"
        veil = f"linear-gradient({tint}, {tint})"
        return Markup(f' style="background: {veil}, url(&quot;{escape(uri)}&quot;) center / cover no-repeat"')

    def slide_diagram(self, entry: Any) -> Markup:
        """A diagram block on a slide: drawn, or as code when it cannot be."""
        value = entry.value
        drawn = self.diagram(entry.info, value.source) if type(value) is Diagram else None
        return Markup(drawn) if drawn is not None else self.slide_code(entry)
