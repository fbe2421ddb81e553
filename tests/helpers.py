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


def words(text: str) -> set[str]:
    """Words with at least one letter, as a set (for 'every word survives' checks)."""
    return {word for word in _WORD.findall(text) if any(c.isalpha() for c in word)}


def html_text(html: str) -> str:
    """The visible text of an HTML page (script and style excluded)."""
    from html.parser import HTMLParser

    class Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.parts: list[str] = []
            self.skip = 0

        def handle_starttag(self, tag: str, attrs) -> None:  # noqa: ANN001
            if tag in ("script", "style"):
                self.skip += 1

        def handle_endtag(self, tag: str) -> None:
            if tag in ("script", "style"):
                self.skip -= 1

        def handle_data(self, data: str) -> None:
            if not self.skip:
                self.parts.append(data)

    parser = Text()
    parser.feed(html)
    return " ".join(parser.parts)


def pdf_text(data: bytes) -> str:
    import io

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def tiny_png() -> bytes:
    """A valid 2x2 red PNG, written by hand so tests need no image library."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def assert_not_blank(png_path: Path) -> None:
    """A screenshot shows something: several colours, not one flat fill."""
    from PIL import Image

    with Image.open(png_path) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 8, f"{png_path.name} looks blank"


def one_error_line(result) -> str:  # noqa: ANN001 - click's Result
    """The single stderr line of a failed run (exit 2), with no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def run_confnotes_unprivileged(*args: str):  # noqa: ANN201 - CompletedProcess
    """Run confnotes without the power to bypass file permissions.

    Root may read and write anything, so when the suite runs as root the process keeps
    its user but drops every capability (CAP_DAC_OVERRIDE among them): file modes then
    apply to it, while the checkout (whatever its mode) stays readable.
    """
    import os
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "confnotes", *args]
    if os.geteuid() == 0:
        cmd = ["setpriv", "--bounding-set=-all", "--inh-caps=-all", *cmd]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd="/")
