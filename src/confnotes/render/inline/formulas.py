"""Formulas and diagrams: MathML on screen, SVG in print, each drawn in the ink of its ground."""

from __future__ import annotations

import base64
import re
from typing import Any

from markupsafe import escape

from confnotes.render.inline.base import InlineBase

#: The size (px) formulas are drawn at for print; the page scales them to the text's size (em).
MATH_PX = 20


class FormulaRules(InlineBase):
    def _math(self, _renderer: Any, tokens: list[Any], idx: int, _options: Any, _env: Any) -> str:
        token = tokens[idx]
        display = token.type != "math_inline"
        html = self.math(token.content.strip(), display)
        return f'<div class="math-display">{html}</div>\n' if token.type == "math_block" else html

    def math(self, tex: str, display: bool) -> str:
        """A formula as HTML: MathML for a browser, SVG for print (``render.math``); TeX a
        typesetter cannot read is shown as code, with a warning."""
        from confnotes.markup.math import MathError, mathml, svg

        try:
            if not self.printed:
                return mathml(tex, display)
            drawn = svg(tex, display, MATH_PX)
        except MathError as exc:
            fence = "$$" if display else "$"
            self.warnings.append(f"math not typeset ({exc}); shown as TeX: {fence}{tex[:60]}{fence}")
            return f'<code class="math-error" title="{escape(str(exc))}">{escape(fence + tex + fence)}</code>'
        em = 1 / MATH_PX
        body = drawn.svg.replace('"currentColor"', f'"{self.ink}"')
        size = f"width:{drawn.width * em:.3f}em;height:{drawn.height * em:.3f}em;vertical-align:{-drawn.depth * em:.3f}em"
        body = re.sub(r'^<svg ([^>]*?)width="[^"]*" height="[^"]*"', rf'<svg \1style="{size}"', body, count=1)
        body = body.replace("<svg ", f'<svg role="img" aria-label="{escape(tex)}" ', 1)
        return f'<span class="math">{body}</span>'

    def _math_run(
        self, tex: str, display: bool, styles: list[str], href: str | None, source: bool = False
    ) -> tuple[str, frozenset[str], str | None]:
        """A formula in a run of text: as Unicode text (PPTX), or its TeX with ``source`` (Word);
        TeX a typesetter cannot read as code, with the warning every output gives."""
        from confnotes.markup.math import MathError, linear, mathml

        try:
            mathml(tex, display)
        except MathError as exc:
            fence = "$$" if display else "$"
            self.warnings.append(f"math not typeset ({exc}); shown as TeX: {fence}{tex[:60]}{fence}")
            return (fence + tex + fence, frozenset([*styles, "code"]), href)
        if source:
            return (tex, frozenset([*styles, "math", *(["display"] if display else [])]), href)
        return (linear(tex), frozenset([*styles, "math"]), href)

    def diagram(self, info: str, source: str, warn: bool = True) -> str | None:
        """A diagram's drawing as an image (``confnotes.markup.diagrams``: SVG, cached), or None when it is
        not drawn here, with one warning a diagram saying why (the code is shown instead)."""
        from confnotes.markup.diagrams import diagram_name, draw, language, shown_as_code

        tool = language(info)
        if tool is None:
            return None
        drawn = draw(tool, source, self.ink if self.dark else None)
        if drawn.svg is None:
            if warn:
                self.warnings.append(shown_as_code(tool, source, drawn.problem))
            return None
        data = drawn.svg.encode("utf-8")
        if self.printed and not self._svg_fits(f"{tool} diagram", data):
            return None
        alt = diagram_name(tool)
        uri = "data:image/svg+xml;base64," + base64.b64encode(data).decode("ascii")
        return f'<figure class="diagram diagram-{tool}"><img src="{uri}" alt="{alt}"></figure>\n'
