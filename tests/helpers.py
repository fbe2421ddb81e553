"""Test helpers: the lossless check of DESIGN.md and golden-file comparison."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from confnotes.model import Document, walk

#: Structural syntax the model may drop: heading marks, setext underlines, list markers and
#: numbers, bullet glyphs, thematic breaks and front-matter fences.
STRUCTURAL = set("#=-*+_.)0123456789•◦▪▫‣⁃●○■□➢➤–—")
_WORD = re.compile(r"\w+")


def model_texts(doc: Document) -> list[str]:
    """Every piece of source text the outline holds (labels are derived, so not counted)."""
    meta = doc.meta
    texts: list[str] = []
    if meta.front_matter:
        texts.append(meta.front_matter)
    if meta.title_origin in ("heading", "inferred"):
        texts.append(meta.title)
    if meta.source_name_span is not None and meta.source_name:
        texts.append(meta.source_name)
    texts += [block.text for block in (*doc.lede, *doc.notes, *doc.directives)]
    for node, _ in walk(doc.nodes):
        texts.append(node.title)
        texts += [block.text for block in (*node.body, *node.notes)]
    return texts


def _chars(text: str) -> Counter[str]:
    return Counter(char for char in text if not char.isspace())


def _words(text: str) -> Counter[str]:
    return Counter(word for word in _WORD.findall(text) if any(c.isalpha() for c in word))


def assert_lossless(source_text: str, doc: Document) -> None:
    """Every non-blank character lands in the model once; only structural syntax is dropped."""
    model = "\n".join(model_texts(doc))
    source_chars, model_chars = _chars(source_text), _chars(model)
    extra = model_chars - source_chars
    assert not extra, f"model holds characters the source does not: {dict(extra)}"
    missing = source_chars - model_chars
    lost = {char: count for char, count in missing.items() if char not in STRUCTURAL}
    assert not lost, f"characters lost from the source: {lost}"
    assert _words(source_text) == _words(model), "words differ between source and model"


def check_golden(path: Path, actual: str, update: bool) -> None:
    if update or not path.exists():
        if not update:
            raise AssertionError(f"golden file {path.name} is missing; run pytest --update-goldens and review it")
        path.write_text(actual, encoding="utf-8")
        return
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, f"{path.name} differs from the golden file (pytest --update-goldens rewrites it)"
