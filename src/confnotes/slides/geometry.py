"""The slide's geometry, stated once: a 1280×720 slide, its content box, fonts and paddings.

The fit engine measures with these numbers, PPTX places its shapes with them and Marp output
writes them into its style; ``templates/deck.css`` states the same numbers for browsers and
WeasyPrint, and a test (``tests/test_geometry.py``) holds the stylesheet to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

SLIDE_W, SLIDE_H = 1280, 720
#: the content box's padding on a 1280×720 slide (top, sides, bottom): deck.css's .slide-body, Marp's sections
BOX_PAD = (64, 88, 80)
BOX_W = SLIDE_W - 2 * BOX_PAD[1]
BOX_H = SLIDE_H - BOX_PAD[0] - BOX_PAD[2]
#: the PDF puts a title or divider slide's text 220 px from the top (deck.css, mode-pdf)
TITLE_BOX_H = SLIDE_H - 220 - 80
STEPS = (1.0, 0.95, 0.9, 0.85, 0.8)
FLOOR = STEPS[-1]
SAFETY = 1.04  # text is measured this much wider than the tables say
SLACK = 8  # px kept free at the bottom of the box
MIN_IMAGE = 220  # px: an image is never squeezed below this

TITLE = (46, 1.15, 28)  # font size, line height, margin below
KICKER = (22, 1.2, 8)
ITEM = (30, 1.35, 14)
SUB_ITEM = 26
#: a callout's box (deck.css .callout): padding above and below, beside, its title's gap, its left border
CALLOUT_PAD = (12, 20, 6, 8)
TEXT = (28, 1.45, 18)
CODE = (22, 1.35, 18)
CODE_PAD = (14, 20)  # vertical, horizontal padding of a code block
TABLE = (22, 1.3, 18)
CELL_PAD = (6, 10)
BODY_MIN, CODE_MIN = 24, 16
#: fixed sizes (px) of what is never shrunk or shrinks by its own rule: a divider's title, the
#: title slide's opening text (lede), the footer, a quote's indent
DIVIDER_TITLE = 60
LEDE = 26
FOOTER = 18
#: a slide's footnotes (deck.css .slide-footnotes): size, line height, the rule and gap above them
FOOTNOTE = (18, 1.3, 14)
QUOTE_INDENT = 24
MONO_EM = 0.602  # DejaVu Sans Mono's advance

# ---- layouts (``<!-- slide layout: … -->``; slides.layouts places entries with them)
#: px between columns (deck.css .slide-columns)
COLUMN_GAP = 48
#: image-left / image-right: the picture's share of the slide's width
PICTURE_SHARE = 0.4
#: full-image: the band's room for the title and text
BAND_ROOM = 0.42 * SLIDE_H - 48
#: the quote layout's quote: px, line height, and how far it is set in (deck.css .layout-quote blockquote)
QUOTE = (40, 1.3)
LAID_QUOTE_INDENT = 60
#: big-number: the first line's size, line height (deck.css .text.big)
BIG = (150, 1.05)
#: the title layout's and the section layout's title size, as the title slide and a divider
LAYOUT_TITLE = (64, 60)

# ---- PPTX (the same box, in PowerPoint's shapes)
#: the title's top and the body's bottom margin, px
PPTX_TOP, PPTX_BOTTOM = 40, 56
#: px the content keeps below even a title too long for any slide
MIN_BODY = 60


@lru_cache(maxsize=64)
def sizes(scale: float) -> Mapping[str, float]:
    """Font sizes in px at ``scale`` (the CSS computes the same with ``--fit``); read-only, as it is shared."""
    return MappingProxyType(
        {
            "title": TITLE[0] * scale,
            "item": ITEM[0] * scale,
            "sub": max(BODY_MIN, SUB_ITEM * scale),
            "text": max(BODY_MIN, TEXT[0] * scale),
            "code": max(CODE_MIN, CODE[0] * scale),
            "table": max(CODE_MIN, TABLE[0] * scale),
        }
    )
