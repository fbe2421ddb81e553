"""The slide's geometry is stated once (``confnotes.slides.geometry``): the fit engine measures with
it, PPTX places shapes with it, Marp writes it, and the HTML deck's stylesheet must say the same."""

from __future__ import annotations

import re

from confnotes.slides import geometry as g
from conftest import ROOT

CSS = (ROOT / "templates" / "deck.css").read_text(encoding="utf-8")


def top_level_rules(css: str) -> dict[str, str]:
    """``selector → declarations`` of the stylesheet's top-level rules (``@media`` and ``@page``
    blocks skipped; a selector met twice keeps its first rule, the one every mode starts from)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules: dict[str, str] = {}
    depth, start, selector = 0, 0, ""
    for index, char in enumerate(css):
        if char == "{":
            if depth == 0:
                selector = " ".join(css[start:index].split())
                body_start = index + 1
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                if not selector.startswith("@"):
                    rules.setdefault(selector, " ".join(css[body_start:index].split()))
                start = index + 1
    return rules


RULES = top_level_rules(CSS)


def declaration(selector: str, prop: str) -> str:
    match = re.search(rf"(?:^|;)\s*{re.escape(prop)}\s*:\s*([^;]+)", RULES[selector])
    assert match, f"{selector} has no {prop}"
    return match.group(1).strip()


def px(value: float) -> str:
    return f"{value:g}px"


def test_slide_and_content_box():
    assert declaration(".slide", "width") == px(g.SLIDE_W) and declaration(".slide", "height") == px(g.SLIDE_H)
    top, side, bottom = g.BOX_PAD
    assert declaration(".slide-body", "padding") == f"{px(top)} {px(side)} {px(bottom)}"
    assert declaration(".slide-footer", "left") == px(side) and declaration(".slide-footer", "font-size") == px(g.FOOTER)


def test_text_sizes_shrink_as_the_fit_engine_measures():
    size, height, after = g.TITLE
    assert declaration(".slide-title", "font-size") == f"calc({px(size)} * var(--fit))"
    assert declaration(".slide-title", "line-height") == f"{height:g}"
    assert declaration(".slide-title", "margin") == f"0 0 calc({px(after)} * var(--fit))"
    size, height, after = g.ITEM
    assert declaration(".items", "font-size") == f"calc({px(size)} * var(--fit))" and declaration(".items", "line-height") == f"{height:g}"
    assert declaration(".items li", "margin") == f"0 0 calc({px(after)} * var(--fit))"
    assert declaration(".items li.level-1", "font-size") == f"max({px(g.BODY_MIN)}, calc({px(g.SUB_ITEM)} * var(--fit)))"
    size, height, after = g.TEXT
    assert declaration(".text", "font-size") == f"max({px(g.BODY_MIN)}, calc({px(size)} * var(--fit)))"
    assert declaration(".text", "line-height") == f"{height:g}"
    assert declaration(".text p", "margin") == f"0 0 calc({px(after)} * var(--fit))"


def test_code_and_tables():
    size, height, after = g.CODE
    assert declaration(".text-code .code", "font-size") == f"max({px(g.CODE_MIN)}, calc({px(size)} * var(--fit)))"
    assert declaration(".text-code .code", "line-height") == f"{height:g}"
    assert declaration(".text-code .code", "padding") == f"{px(g.CODE_PAD[0])} {px(g.CODE_PAD[1])}"
    size, height, after = g.TABLE
    assert declaration(".text-table table", "font-size") == f"max({px(g.CODE_MIN)}, calc({px(size)} * var(--fit)))"
    assert declaration(".text-table table", "line-height") == f"{height:g}"
    assert declaration(".text-table th, .text-table td", "padding") == f"{px(g.CELL_PAD[0])} {px(g.CELL_PAD[1])}"


def test_kicker_divider_and_quote():
    size, height, after = g.KICKER
    assert declaration(".kicker", "font-size") == px(size) and declaration(".kicker", "line-height") == f"{height:g}"
    assert declaration(".kicker", "margin") == f"0 0 {px(after)}"
    assert declaration(".kind-divider .slide-title", "font-size") == px(g.DIVIDER_TITLE)
    assert declaration(".text blockquote", "padding-left") == px(g.QUOTE_INDENT)


def test_the_layouts_read_their_sizes_from_the_geometry_the_stylesheet_states():
    """The layouts' sizes were constants of ``slides.layouts`` and PPTX's shapes; they are
    ``slides.geometry``'s now, and the stylesheet says the same."""
    assert declaration(".slide-columns", "gap") == px(g.COLUMN_GAP)
    size, height = g.QUOTE
    quote = ".layout-quote .text-quote blockquote"
    assert declaration(quote, "font-size") == f"calc({px(size)} * var(--fit))" and declaration(quote, "line-height") == f"{height:g}"
    assert declaration(quote, "padding") == f"0 {px(g.LAID_QUOTE_INDENT)}"
    size, height = g.BIG
    assert declaration(".text.big, .items li.big", "font-size") == f"calc({px(size)} * var(--fit))"
    assert declaration(".text.big, .items li.big", "line-height") == f"{height:g}"


def test_no_module_but_geometry_states_a_layout_size():
    import confnotes.render.pptx.shapes as shapes
    import confnotes.slides.layouts as layouts

    for name in ("COLUMN_GAP", "PICTURE_SHARE", "BAND_ROOM", "QUOTE", "BIG", "LAYOUT_TITLE"):
        assert getattr(layouts, name) is getattr(g, name)  # imported, not restated
    assert (shapes.TOP, shapes.BOTTOM) == (g.PPTX_TOP, g.PPTX_BOTTOM) and getattr(shapes, "MIN_BODY", g.MIN_BODY) is g.MIN_BODY
