"""The inline renderer's rules, one module an inline kind (``render.markdown.InlineRenderer`` is
composed of them): pictures, notes, code, formulas, slides and blocks."""
