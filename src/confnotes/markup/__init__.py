"""The model's markup: what a block's text means beyond its kind — callouts, citations, emoji
shortcodes, footnotes, TeX and Office Math, diagrams — and escaping for the formats confnotes writes."""
