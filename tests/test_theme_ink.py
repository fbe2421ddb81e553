"""The theme's ink reaches every drawing: formulas, mermaid and dot diagrams on a dark ground (the
dark theme's deck, a dark slide of a light one) are drawn light, checked on the rendered pages'
pixels; a page printed from the dark theme keeps its light palette's dark ink."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import rendered
from test_diagrams import _tools, cache  # noqa: F401 - the fixture, shared

TALK = """---
title: Ink on a dark ground
---

# Ink on a dark ground

## A formula

$$
E = mc^2 + \\frac{a}{b} + \\sum_{i=1}^{n} x_i
$$

## A flow

```mermaid
graph LR
  A[Write] -->|ships| B[Release]
```

## A graph

```dot
digraph { rankdir=LR; notes -> slides [label="fit"] }
```
"""

LIGHT_TALK = """---
title: One dark slide
---

# One dark slide

## Formula on a dark slide
<!-- slide background: #102040 -->

$$
\\int_0^1 f(x)\\,dx = F(1) - F(0)
$$
"""


def _luminance(pixel: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        value_1 = value / 255
        return value_1 / 12.92 if value_1 <= 0.03928 else ((value_1 + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(value) for value in pixel)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _contrast(first: float, second: float) -> float:
    light, dark = max(first, second), min(first, second)
    return (light + 0.05) / (dark + 0.05)


def _rgb(image) -> list[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return list(zip(data[0::3], data[1::3], data[2::3], strict=True))


def _ink_on(page) -> dict[str, float]:
    """What is drawn between a slide's title and its footer, against the slide's ground: the share
    of marks darker than the ground, the best contrast of a mark, and how much of the drawing's box
    is still the ground (a sheet of its own covers it)."""
    width, height = page.size
    area = page.convert("RGB").crop((0, int(height * 0.17), width, int(height * 0.88)))
    pixels = _rgb(area)
    ground = Counter(pixels).most_common(1)[0][0]
    level = _luminance(ground)

    def apart(pixel: tuple[int, int, int]) -> bool:
        return sum(abs(a - b) for a, b in zip(pixel, ground, strict=True)) > 60

    marks = [(index, pixel) for index, pixel in enumerate(pixels) if apart(pixel)]
    assert len(marks) > 200, "nothing drawn on the slide"
    darker = sum(1 for _, pixel in marks if _luminance(pixel) < level)
    columns = [index % area.width for index, _ in marks]
    rows = [index // area.width for index, _ in marks]
    box = area.crop((min(columns), min(rows), max(columns) + 1, max(rows) + 1))
    boxed = _rgb(box)
    return {
        "darker": darker / len(marks),
        "contrast": max(_contrast(_luminance(pixel), level) for _, pixel in marks),
        "ground": sum(1 for pixel in boxed if not apart(pixel)) / len(boxed),
        "level": level,
    }


def _pages(path, first: int = 0):
    import pypdfium2

    pdf = pypdfium2.PdfDocument(str(path))
    try:
        return [pdf[index].render(scale=1.2).to_pil() for index in range(first, len(pdf))]
    finally:
        pdf.close()


def test_dark_slides_pdf_draws_formulas_and_diagrams_in_the_themes_light_ink(cli, tmp_path, cache, processes):  # noqa: F811
    _tools()
    note = tmp_path / "talk.md"
    note.write_text(TALK, encoding="utf-8")
    out = tmp_path / "talk.slides.pdf"
    rendered(cli, note, "slides-pdf", out, "--theme", "dark")
    pages = _pages(out)
    drawn = [_ink_on(page) for page in pages[-3:]]  # the formula, the flow, the graph
    for name, seen in zip(("formula", "mermaid", "dot"), drawn, strict=True):
        assert seen["level"] < 0.05, f"{name}: the slide is not dark"
        assert seen["darker"] < 0.02, f"{name}: drawn in dark ink on the dark slide ({seen['darker']:.0%} of its marks)"
        assert seen["contrast"] >= 7, f"{name}: its ink is faint ({seen['contrast']:.1f}:1)"
        assert seen["ground"] > 0.5, f"{name}: drawn on a sheet of its own ({1 - seen['ground']:.0%} of its box)"


def test_a_dark_slide_of_a_light_theme_draws_its_formula_light(cli, tmp_path, weasyprint):
    note = tmp_path / "talk.md"
    note.write_text(LIGHT_TALK, encoding="utf-8")
    out = tmp_path / "talk.slides.pdf"
    rendered(cli, note, "slides-pdf", out)
    seen = _ink_on(_pages(out)[-1])
    assert seen["level"] < 0.05 and seen["darker"] < 0.02 and seen["contrast"] >= 7


def test_the_dark_themes_printed_page_keeps_dark_ink_on_paper(cli, tmp_path, weasyprint):
    note = tmp_path / "talk.md"
    note.write_text(LIGHT_TALK.replace("<!-- slide background: #102040 -->\n", ""), encoding="utf-8")
    out = tmp_path / "talk.pdf"
    rendered(cli, note, "pdf", out, "--theme", "dark")
    page = _pages(out)[0]
    pixels = _rgb(page)
    ground = Counter(pixels).most_common(1)[0][0]
    assert _luminance(ground) > 0.9  # paper
    assert min(_luminance(pixel) for pixel in pixels) < 0.05  # the formula and the text in dark ink


@pytest.mark.parametrize(
    ("css", "light", "dark", "dark_screen"),
    [
        (":root { --ink: #2a2622; }", "#2a2622", "#eef0f6", False),
        (":root { --ink: #e6e9ef; } @media print { body { --ink: #1d2430; } }", "#1d2430", "#e6e9ef", True),
        ("body { color: red; }", "#1d2430", "#eef0f6", False),
        (":root { --ink: var(--x); }", "#1d2430", "#eef0f6", False),  # only a colour is an ink (it reaches a tool's argv)
    ],
)
def test_a_themes_inks_are_read_from_its_ink_colours(css, light, dark, dark_screen):
    from confnotes.render.markdown import theme_inks

    inks = theme_inks(css)
    assert (inks.light, inks.dark, inks.dark_screen) == (light, dark, dark_screen)


def test_a_dark_ground_draws_each_tool_in_the_ink_and_caches_it_apart(tmp_path, cache, processes):  # noqa: F811
    _tools()
    from confnotes.markup.diagrams import draw

    light, dark = draw("dot", "digraph { a -> b }"), draw("dot", "digraph { a -> b }", "#e6e9ef")
    assert light.svg and dark.svg and light.svg != dark.svg
    assert 'fill="white"' in light.svg and 'fill="white"' not in dark.svg  # no sheet of its own on a dark slide
    assert 'stroke="#e6e9ef"' in dark.svg and 'fill="#e6e9ef"' in dark.svg  # lines, arrow heads and labels
    assert len(list(cache.glob("*.svg"))) == 2
