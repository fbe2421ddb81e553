"""Test helpers: the lossless check (docs/design.md, "Lossless") and golden-file comparison."""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path
from typing import Any

from confnotes.model import Document

#: Structural syntax the model may drop: heading marks, setext underlines, list markers and
#: numbers, bullet glyphs, thematic breaks and front-matter fences.
STRUCTURAL = set("#=-*+_.)0123456789•◦▪▫‣⁃●○■□➢➤–—·§\uf0b7\uf0a7\uf0d8\uf076")  # Word's Symbol and Wingdings bullets too
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
    from confnotes.model import Block, Node, walk_content

    texts += [block.text for block in doc.directives]
    for entry in walk_content(doc.content):
        if type(entry) is Block:
            texts.append(entry.text)
        elif type(entry) is Node:
            texts.append(entry.title)
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
    from confnotes.model import Node, walk_content

    # Word's "o" bullets are markers too, though "o" is a letter
    o_bullets = sum(1 for entry in walk_content(doc.content) if type(entry) is Node and entry.marker == "o")
    if o_bullets and missing.get("o", 0) <= o_bullets:
        missing.pop("o")
    lost = {char: count for char, count in missing.items() if char not in STRUCTURAL}
    assert not lost, f"characters lost from the source: {lost}"
    source_words_ = _words(source_text)
    source_words_["o"] -= o_bullets
    assert +source_words_ == _words(model), "words differ between source and model"


# ------------------------------------------------------------------ words in order

_ORDER_WORD = re.compile(r"[^\W_]+")
_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_NOTES_CONTAINER = re.compile(r"^[ \t]*:::[ \t]*notes[ \t]*\n.*?(?:^[ \t]*:::[ \t]*$|\Z)", re.S | re.M)


def syntax_free(text: str, notes: bool = True, numbers: bool = True) -> str:
    """Markdown source without the syntax a reader does not read as words, in the same order.

    Dropped: comments (lint directives, hidden remarks, ``<!-- notes: -->``), fence lines,
    link and image targets (images keep their alt text), link reference definitions, URLs,
    HTML tags, list numbers (unless ``numbers=False``: a title holds none), fenced-div lines,
    footnote labels (printed as numbers) and lone file-name lines; with ``notes=False`` also
    ``::: notes`` blocks (renders print speaker notes apart from the text, or not at all).
    """
    import html as htmlmod

    if not notes:
        text = _NOTES_CONTAINER.sub(" ", text)
    text = re.sub(r"<!--.*?(?:-->|\Z)", " ", text, flags=re.S)
    text = re.sub(r"^[ \t]*:{3,}.*$", " ", text, flags=re.M)  # fenced divs (``:::: columns``): structure
    text = re.sub(r"^([ \t>]*>[ \t]*)\[![\w-]+\][+-]?", r"\1 ", text, flags=re.M)  # a callout's ``[!NOTE]``: its kind
    text = re.sub(r"\[[^\[\]]*?-?@[A-Za-z0-9_][^\[\]]*\](?![(\[:])", " ", text)  # a citation: printed as its style writes it
    if re.search(r":[\w+-]+:", text):  # an emoji shortcode outside code: printed as its emoji
        import emoji

        text = re.sub(r"(`[^`\n]*`)|:[\w+-]+:", lambda m: m.group(1) or emoji.emojize(m.group(0), language="alias"), text)
    text = re.sub(r"\[\^[^\]\s]+\]:?", " ", text)  # a footnote's label: printed as its number
    text = re.sub(r"^[ \t>]*(?:`{3,}|~{3,})[^\n]*$", " ", text, flags=re.M)
    text = re.sub(
        r"^[ \t]*[\w.@()+ -]*\.(?:md|markdown|mdown|txt|text|docx?|odt|rtf|pdf|html?|pages|key|pptx?)[ \t]*$", " ", text, flags=re.M | re.I
    )
    if re.search(r"^[ \t]*[•◦▪▫‣⁃●○■□➢➤–—·§][ \t]", text, re.M):
        text = re.sub(r"^[ \t]*o[ \t]+(?=\S)", " ", text, flags=re.M)  # Word's "o" bullets beside other bullets
    text = re.sub(r"!\[((?:[^\]\\]|\\.)*)\]\((?:[^()]|\([^)]*\))*\)", r" \1 ", text)
    text = re.sub(r"\]\((?:[^()]|\([^)]*\))*\)", "] ", text)
    text = re.sub(r"^[ \t]*\[[^\]]+\]:[ \t]*\S+.*$", " ", text, flags=re.M)
    text = re.sub(r"<[a-zA-Z][a-zA-Z+.-]*:[^>\s]*>|\b[a-zA-Z][a-zA-Z+.-]*://\S+", " ", text)
    text = re.sub(r"</?[a-zA-Z][^>\n]*>", " ", text)
    if numbers:  # list numbers, also where lists nest on one line ("- 1. a", "1. 2. b")
        marker = re.compile(r"^((?:[ \t>]|[-*+](?=[ \t]))*)\d{1,9}[.)](?=\s|$)", re.M)
        while True:
            text, count = marker.subn(r"\1 ", text)
            if not count:
                break
        text = re.sub(r"^([ \t]*(?:\*\*|__))\d{1,9}[.)](?=\s)", r"\1 ", text, flags=re.M)  # "**1. Why Rust?**"
    return htmlmod.unescape(text)


def text_words(text: str) -> list[str]:
    """Words of plain text, in order (case and Unicode forms folded)."""
    import unicodedata

    return [word.casefold() for word in _ORDER_WORD.findall(unicodedata.normalize("NFKC", text))]


def source_words(text: str, notes: bool = True) -> list[str]:
    """The words of a note's Markdown source, in order, without front matter and syntax (a ``---``
    block that is not a YAML mapping is the note's text, as confnotes reads it)."""
    match = _FRONT_MATTER.match(text)
    if match:
        import yaml

        try:
            data = yaml.safe_load(match.group(0).strip().strip("-"))
        except yaml.YAMLError:
            data = None
        if isinstance(data, dict) or data is None and not match.group(0).strip("-\n \t"):
            text = text[match.end() :]
    return text_words(syntax_free(text, notes))


def model_words(doc: Document) -> list[str]:
    """The model read depth-first, in order: the title heading where it stood, then every title and block."""
    from confnotes.model import Block, List, Node

    pieces: list[tuple[str, bool]] = []  # (text, whether it is a block: titles hold no list numbers)
    meta = doc.meta
    title_line = meta.title_span.start if meta.title_origin in ("heading", "inferred") and meta.title_span else None
    stack: list[object] = list(reversed(doc.content))
    while stack:
        entry = stack.pop()
        if title_line is not None and entry.span.start > title_line:  # type: ignore[attr-defined]
            pieces.append((meta.title, False))
            title_line = None
        if type(entry) is Block:
            pieces.append((entry.text, True))
        elif type(entry) is List:
            stack.extend(reversed(entry.items))
        elif type(entry) is Node:
            pieces.append((entry.title, False))
            stack.extend(reversed(entry.content))
    if title_line is not None:
        pieces.append((meta.title, False))
    return [word for piece, block in pieces for word in text_words(syntax_free(piece, numbers=block))]


def page_words(html: str) -> list[str]:
    """The words of an HTML page in reading order: visible text, with images' alt text where they stand."""
    return text_words(html_text(html, alt=True))


def assert_same_words(expected: list[str], actual: list[str], what: str) -> None:
    """Exactly the same words in the same order; the message shows where they part."""
    if expected == actual:
        return
    at = next((i for i, (a, b) in enumerate(zip(expected, actual, strict=False)) if a != b), min(len(expected), len(actual)))
    raise AssertionError(
        f"{what}: words part at word {at}: source …{' '.join(expected[max(0, at - 6) : at + 6])}… "
        f"but {what} …{' '.join(actual[max(0, at - 6) : at + 6])}…"
    )


def assert_words_in_order(expected: list[str], rendered: list[str], what: str) -> None:
    """Every source word appears in ``rendered`` in source order (renders may add words: a title,
    a table of contents, dividers, page numbers); the message names the first word out of place."""
    position = 0
    for index, word in enumerate(expected):
        try:
            position = rendered.index(word, position) + 1
        except ValueError:
            context = " ".join(expected[max(0, index - 6) : index + 6])
            seen = " ".join(rendered[max(0, position - 6) : position + 6])
            raise AssertionError(f"{what}: word {index} {word!r} of …{context}… is missing or out of order (after …{seen}…)") from None


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


def html_text(html: str, alt: bool = False) -> str:
    """The visible text of an HTML page (script and style excluded); with ``alt``, images' alt text too."""
    from html.parser import HTMLParser

    class Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.parts: list[str] = []
            self.skip = 0

        def handle_starttag(self, tag: str, attrs) -> None:
            if tag in ("script", "style"):
                self.skip += 1
            elif tag == "img" and alt:
                self.parts += [value for name, value in attrs if name == "alt" and value]

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
    """The PDF's text (pypdf), in content-stream order."""
    import io

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    text = "\n".join(page.extract_text() or "" for page in reader.pages)
    return re.sub(r"\u2010\n\s*", "", text)  # a word hyphenated at a line end is one word


def pdf_reading_text(path: Path) -> str:
    """The PDF's text in reading order, as poppler (the engine of common PDF viewers) reads it.

    pypdf follows the content stream, where WeasyPrint paints positioned boxes after the
    flow, and it misreads some subset fonts' encodings; poppler's ``pdftotext`` reads the
    page as a viewer shows it. Skips outside CI when poppler-utils is missing.
    """
    import os
    import shutil
    import subprocess

    if shutil.which("pdftotext") is None:
        if os.environ.get("CI") == "true":
            raise AssertionError("pdftotext missing (.ci/run installs poppler-utils)")
        import pytest

        pytest.skip("pdftotext not installed: apt-get install poppler-utils to check PDF text order")
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True).stdout
    # a word hyphenated at a line end (WeasyPrint's hyphenation character, U+2010) is one word
    return re.sub(r"\u2010\n\s*", "", text)


_RTL = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")


def without_rtl(words_: list[str]) -> list[str]:
    """Words of left-to-right scripts only: PDF text extraction gives right-to-left runs in visual order."""
    return [word for word in words_ if not _RTL.search(word)]


def require_font_for(text: str) -> None:
    """Skip (outside CI) when no installed font covers the note's CJK text: the PDF would show boxes."""
    import os
    import shutil
    import subprocess

    if not re.search(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]", text):
        return
    found = shutil.which("fc-list") and subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True).stdout
    if not found:
        if os.environ.get("CI") == "true":
            raise AssertionError("no CJK font installed (.ci/run installs fonts-droid-fallback)")
        import pytest

        pytest.skip("no CJK font installed: apt-get install fonts-droid-fallback to check CJK text in PDFs")


def tiny_png() -> bytes:
    """A valid 2x2 red PNG, written by hand so tests need no image library."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def assert_not_blank(png_path: Path) -> None:
    """A screenshot shows something: several colours, not one flat fill."""
    from PIL import Image

    with Image.open(png_path) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 8, f"{png_path.name} looks blank"


def one_error_line(result) -> str:  # click's Result
    """The single stderr line of a failed run (exit 2), with no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def run_confnotes_unprivileged(*args: str):  # -> CompletedProcess
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


# ------------------------------------------------------------------ the JSON outline (schema 2)


def json_sections(data: dict) -> list[dict]:
    """The sections of a JSON outline (a document or a node), in order."""
    return [entry for entry in data["content"] if entry["kind"] == "section"]


def json_children(data: dict) -> list[dict]:
    """Items of every list, and sub-sections, in order (the model's ``children`` view)."""
    out: list[dict] = []
    for entry in data["content"]:
        if entry["kind"] == "list":
            out += entry["items"]
        elif entry["kind"] == "section":
            out.append(entry)
    return out


def json_blocks(data: dict) -> list[dict]:
    """Printed blocks (the ``body`` view): no lists, sections, speaker notes or comments."""
    return [entry for entry in data["content"] if entry["kind"] not in ("list", "section", "item", "note", "comment")]


def require(found: str | None, missing: str) -> str:
    """``found`` (a program's path), or end the test: skipped with ``missing`` as the reason, or a
    failure under ``CI=true``, where `.ci/run` installs every program the tests use."""
    import os

    import pytest

    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(missing)
        pytest.skip(missing)
    return found


def require_program(*names: str, install: str) -> str:
    """The first of ``names`` on the PATH (``install`` says how to get it)."""
    import shutil

    found = next((path for name in names if (path := shutil.which(name))), None)
    return require(found, f"{names[0]} is not installed ({install})")


def require_marp() -> str:
    """marp-cli: ``CONFNOTES_MARP``, the copy `.ci/run` installs with npm, or one on the PATH."""
    import os
    import shutil

    local = Path(__file__).resolve().parents[1] / ".ci" / "node_modules" / ".bin" / "marp"
    found = os.environ.get("CONFNOTES_MARP") or (str(local) if local.exists() else shutil.which("marp"))
    return require(found, "marp-cli is not installed (npm install --prefix .ci @marp-team/marp-cli)")


def copied_note(note: Path, folder: Path) -> Path:
    """``note`` copied into ``folder`` with the pictures beside it (its ``*.png`` and an ``img/``
    folder, where notes keep screenshots), so a render there finds them; returns the copy."""
    import shutil

    for picture in note.parent.glob("*.png"):
        shutil.copy(picture, folder / picture.name)
    if (note.parent / "img").is_dir():
        shutil.copytree(note.parent / "img", folder / "img", dirs_exist_ok=True)
    copy = folder / note.name
    copy.write_bytes(note.read_bytes())
    return copy


def rendered_deck(note: Path):  # -> a Deck
    """The deck as ``render`` builds it: images looked up beside the note."""
    from confnotes.load import load_note
    from confnotes.slides import DeckOptions, build_deck

    return build_deck(load_note(str(note)).doc, DeckOptions(image_root=str(note.parent)))


def rendered(cli, note: Path, to: str, out: Path, *extra: str):  # -> click's Result
    """``confnotes render NOTE --to TO -o OUT``, which must succeed; its result (for the warnings)."""
    result = cli("render", str(note), "--to", to, "-o", str(out), *extra)
    assert result.exit_code == 0, result.stderr
    return result


# ------------------------------------------------------------------ a deck's slides, as each output shows them
# (title, whether the slide carries speaker notes) per slide, read back from each deck output's file


def html_deck(data: bytes) -> list[tuple[str, bool]]:
    import html as html_module

    page = data.decode()
    slides = re.split(r'<section class="slide ', page)[1:]
    out = []
    for part in slides:
        title = re.search(r'class="slide-title"[^>]*>(.*?)</h[12]>', part, re.S)
        text = re.sub(r"<[^>]+>", "", title.group(1)) if title else ""
        out.append((html_module.unescape(" ".join(text.split())), 'class="notes"' in part))
    return out


def pptx_deck(data: bytes) -> list[tuple[str, bool]]:
    import io

    from pptx import Presentation

    prs = Presentation(io.BytesIO(data))
    return [
        (
            slide.shapes.title.text if slide.shapes.title is not None else "",
            slide.has_notes_slide and bool(slide.notes_slide.notes_text_frame.text.strip()),
        )
        for slide in prs.slides
        if not re.search(r" \(step \d+\)$", slide.name)  # a code walk-through's later step: the same slide
    ]


def marp_deck(data: bytes) -> list[tuple[str, bool]]:
    text = data.decode()
    body = text.split("\n---\n", 1)[1]  # after the front matter
    sections = re.split(r"\n\n---\n", body)
    out = []
    for section in sections:
        if "<!-- _paginate: hold -->" in section:  # a code walk-through's later step: the same slide
            continue
        title = re.search(r"^#{1,2} (.+)$", section, re.M)
        out.append((html.unescape(title.group(1).strip()) if title else "", bool(re.search(r"<!--\n", section))))  # as Marp shows it
    return out


def outline_deck(data: bytes) -> list[tuple[str, bool]]:
    text = data.decode()
    parts = re.split(r"(?m)^\s*\d+\. \[\d+:\d\d\] \[\w+\] ", text)[1:]
    return [(re.sub(r"\s+\(\d+ words\).*", "", part.split("\n", 1)[0]).strip(), "notes:" in part) for part in parts]


def output_text(path: Path, fmt: str) -> str:
    """What an output file shows as text: PPTX's shapes, Word's paragraphs, tables and comments,
    a text file's text (PDFs: ``pdf_text``)."""
    if fmt == "pptx":
        from pptx import Presentation

        return "\n".join(
            shape.text_frame.text for slide in Presentation(str(path)).slides for shape in slide.shapes if shape.has_text_frame
        )
    if fmt == "docx":
        import docx

        word = docx.Document(str(path))
        cells = [c.text for table in word.tables for row in table.rows for c in row.cells]
        return "\n".join([p.text for p in word.paragraphs] + cells)
    return path.read_text(encoding="utf-8")


def _ctrl_c_as_in_a_terminal() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_serve(notes: Path, env: dict[str, str] | None = None, *args: str) -> tuple[Any, int]:
    """``confnotes serve`` of ``notes`` on a free port: the process and its port (the one start of
    the preview server the tests share; the caller stops it)."""
    import os
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "confnotes", "serve", str(notes), "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        # a suite started in the background (`make test &`, nohup) has SIGINT ignored, and a child
        # that inherits that never sees Ctrl-C: the server gets the terminal's default back
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )
    line = proc.stdout.readline() if proc.stdout else ""
    match = re.search(r"at http://[^/]+:(\d+)/", line)
    assert match, line + (proc.stderr.read() if proc.poll() is not None and proc.stderr else "")
    return proc, int(match.group(1))


def slide_text(text: str, kind: str = "paragraph", info: str = ""):  # -> SlideText
    """A slide's block as the deck builder makes it from a parsed block: its text and the typed value
    ``parse`` reads from it (the fit engine measures values, never text)."""
    from confnotes.parse.values import value_of
    from confnotes.slides import SlideText

    return SlideText(text, kind, info, value=value_of(kind, text, info))


def note_digests(folder: Path) -> dict[str, str]:
    """Each note's name in ``folder`` and a hash of its bytes: what ``--update`` must leave as it was."""
    import hashlib

    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in sorted(folder.glob("*.md"))}


def frab_schedule(events: str, room: str = "Hall", date: str = "2027-12-27", zone: str = "Europe/Berlin", title: str = "Prop") -> str:
    """A frab XML schedule of one day and one room holding ``events`` (``<event>`` elements)."""
    return (
        f"<schedule><conference><title>{title}</title><time_zone_name>{zone}</time_zone_name></conference>"
        f"<day index='1' date='{date}'><room name='{room}'>{events}</room></day></schedule>"
    )


def formats_where(**wanted: bool) -> tuple[str, ...]:
    """The output formats of ``render.formats.FORMATS``, in its order, whose properties are as given
    (``formats_where(deck=True)``: the deck outputs). Every test takes its formats from that one
    table, so a new format reaches every test that covers "every format" (test_formats_lists.py)."""
    from confnotes.render.formats import FORMATS

    return tuple(name for name, fmt in FORMATS.items() if all(getattr(fmt, key) == value for key, value in wanted.items()))


def search_index(site: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """A built site's search index as its files hold it (``build.search.site_index``): ``index.js``'s
    record, and each part (``t-a``, ``d-0``, …) by name."""
    import json

    folder = site / "_site" / "search"
    meta = json.loads((folder / "index.js").read_text(encoding="utf-8").split("=", 1)[1].rstrip(";\n"))
    parts = {}
    for path in folder.glob("*-*.js"):
        text = path.read_text(encoding="utf-8").removeprefix("window.CONFNOTES_SEARCH_PART(").removesuffix(");\n")
        name, data = text.split(",", 1)
        parts[json.loads(name)] = json.loads(data)
    return meta, parts


def make_video(path: Path, seconds: float = 2.0, size: tuple[int, int] = (160, 90)) -> Path:
    """A real H.264 MP4 (PyAV, the ``video`` extra): black for its first half second, then red with
    a yellow square, so a poster taken a second in is red and the first frame is black."""
    import av
    from PIL import Image, ImageDraw

    rate = 10
    with av.open(str(path), "w", format=path.suffix.lstrip(".") if path.suffix != ".mov" else "mov") as out:
        stream = out.add_stream("libvpx-vp9" if path.suffix == ".webm" else "libx264", rate=rate)
        stream.width, stream.height, stream.pix_fmt = size[0], size[1], "yuv420p"
        for index in range(int(seconds * rate)):
            image = Image.new("RGB", size, (0, 0, 0) if index < rate // 2 else (200, 30, 30))
            if index >= rate // 2:
                ImageDraw.Draw(image).rectangle((10, 10, 40, 40), fill=(250, 220, 0))
            for packet in stream.encode(av.VideoFrame.from_image(image)):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
    return path
