"""The output formats: one table of names, file suffixes, labels and renderer modules (docs/design.md, "Outputs").

``render``, ``build`` and ``serve`` dispatch through ``render_note``; each renderer lives in
its own module (``confnotes.render.<module>``) with one entry point, ``render(doc,
options, base_dir) -> (data, warnings)``, imported only when asked for, so reading notes
never loads WeasyPrint, python-pptx or Jinja.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

from confnotes.errors import ErrorKind, NotesError, closest
from confnotes.model import Document
from confnotes.render.options import RenderOptions


@dataclass(frozen=True)
class OutputFormat:
    name: str
    suffix: str  # appended to the note's stem: talk.slides.html
    label: str  # for the site index
    module: str  # confnotes.render.<module>
    binary: bool
    summary: str
    deck: bool = False  # made from the fitted deck (its slides that do not fit are warned of)
    printed: bool = False  # laid out by WeasyPrint: its module's ``prepare`` makes the HTML, a ``PrintJob``
    needs: str | None = None  # the module of an extra it needs (``edges.extras``): python-pptx, python-docx

    def missing(self) -> str | None:
        """One line naming the extra to install when this format's is not installed; None when it is."""
        from confnotes.edges.extras import missing

        return missing(self.needs, f"render --to {self.name}") if self.needs else None


FORMATS: dict[str, OutputFormat] = {
    fmt.name: fmt
    for fmt in (
        OutputFormat("html", ".html", "Page", "html", False, "one self-contained page"),
        OutputFormat("pdf", ".pdf", "PDF", "pdf", True, "a printable PDF (WeasyPrint)", printed=True),
        OutputFormat("slides", ".slides.html", "Slides", "deck_html", False, "an HTML deck with speaker notes", deck=True),
        OutputFormat("slides-pdf", ".slides.pdf", "Slides PDF", "slides_pdf", True, "the deck as a 16:9 PDF", deck=True, printed=True),
        OutputFormat("handout", ".handout.pdf", "Handout", "handout", True, "slides beside their notes, on paper", deck=True, printed=True),
        OutputFormat("marp", ".marp.md", "Marp", "marp", False, "Marp Markdown", deck=True),
        OutputFormat("pptx", ".pptx", "PowerPoint", "pptx", True, "PowerPoint, editable (python-pptx)", deck=True, needs="pptx"),
        OutputFormat("outline", ".slides.txt", "Slide outline", "slide_outline", False, "a plain-text plan of the deck", deck=True),
        OutputFormat("docx", ".docx", "Word", "docx", True, "a Word document in Word's own styles (python-docx)", needs="docx"),
    )
}


#: ``render --to png``: the slides as pictures (``render.pictures``), a file a slide, so no row of ``FORMATS``
#: (a build or the preview writes one file a format)
PICTURES = "png"
#: ``render DIR --to book``: the notes as one book (``render.book``), many notes in one file
BOOK = "book"
#: what ``render --to`` offers: the formats, then the pictures and the book
RENDER_TARGETS = (*FORMATS, PICTURES, BOOK)


#: what people call a format that is named otherwise here: ``--to word`` suggests ``docx``
ALIASES = {
    "word": "docx",
    "doc": "docx",
    "powerpoint": "pptx",
    "ppt": "pptx",
    "keynote": "pptx",
    "deck": "slides",
    "reveal": "slides",
    "presentation": "slides",
    "pictures": "png",
    "images": "png",
    "markdown": "marp",
    "text": "outline",
    "txt": "outline",
    "ebook": "book",
}


def suggested(name: str, names: Iterable[str] = RENDER_TARGETS) -> str | None:
    """The format a mistyped or everyday name means (``slide`` → ``slides``, ``word`` → ``docx``)."""
    names = list(names)
    alias = ALIASES.get(name.strip().casefold())
    return alias if alias in names else closest(name, names)


def output_format(name: str) -> OutputFormat:
    try:
        return FORMATS[name]
    except KeyError:
        near = suggested(name, FORMATS)
        hint = f"; did you mean '{near}'?" if near else ""
        raise NotesError(f"unknown format '{name}'{hint} (choose from {', '.join(FORMATS)})", kind=ErrorKind.USAGE) from None


def suffix_warning(output: str, name: str) -> str | None:
    """A warning when ``-o`` names a file whose extension another kind of output has (``--to slides
    -o talk.pdf`` writes an HTML deck): which format writes that kind, else None."""
    wanted = Path(output).suffix.lower()
    own = "." + output_format(name).suffix.rsplit(".", 1)[1]  # ``.slides.html`` → ``.html``
    if output == "-" or not wanted or wanted == own:
        return None
    others = [fmt.name for fmt in FORMATS.values() if fmt.suffix.endswith(wanted)]
    if not others:
        return None
    which = " or ".join(", ".join(others).rsplit(", ", 1))
    verb = "writes" if len(others) == 1 else "write"
    return f"'{Path(output).name}' ends in {wanted}, but --to {name} writes {own} (--to {which} {verb} {wanted})"


def output_path(note: str, name: str) -> str:
    """Where ``render`` writes by default: beside the note, ``talk.md`` → ``talk.slides.html``."""
    return str(Path(note).with_suffix("")) + output_format(name).suffix


def prepared(doc: Document, base_dir: Path | None) -> tuple[Document, list[str]]:
    """The note as every output shows it — a page, a deck, Word, the book, the site —, settled once:
    citations formatted, with a References section (``confnotes.markup.citations``). Returns the note and
    the warnings of its preparation."""
    if "bibliography" not in doc.meta.extra:
        return doc, []
    from confnotes.markup.citations import cited

    return cited(doc, base_dir)


def render_note(
    doc: Document, to: str, options: RenderOptions, base_dir: Path | None, output: str | Path | None = None
) -> tuple[str | bytes, list[str]]:
    """Render ``doc`` as format ``to``; returns the data (text or bytes) and warnings. ``output`` is
    where it will be written (formats that link files, Marp, make their links relative to it)."""
    return prepare_note(doc, to, options, base_dir, output)()


def prepare_note(
    doc: Document, to: str, options: RenderOptions, base_dir: Path | None, output: str | Path | None = None
) -> Callable[[], tuple[str | bytes, list[str]]]:
    """``render_note`` in two steps: what needs the note is done now, and the call returned
    finishes the output without it. For a PDF (page, slides, handout) that call is WeasyPrint's
    layout of HTML already made (``pdf.PrintJob``), so a caller that lets the note go first never
    holds both; any other format is finished here and the call only hands it over."""
    if output is not None and str(output) != "-":
        from dataclasses import replace

        options = replace(options, output_dir=str(Path(output).resolve().parent))
    fmt = output_format(to)
    if (line := fmt.missing()) is not None:
        raise NotesError(line, kind=ErrorKind.USAGE)
    doc, cite_warnings = prepared(doc, base_dir)
    if fmt.deck and (options.decks is None or options.decks.doc is not doc):
        from dataclasses import replace

        from confnotes.slides import Decks

        options = replace(options, decks=Decks(doc))  # the deck is built once: for the output and its warnings
    module = import_module(f"confnotes.render.{fmt.module}")
    from confnotes.markup.diagrams import note_budget as diagram_budget
    from confnotes.markup.math import note_budget

    with note_budget(), diagram_budget():  # what the note's formulas and diagrams may cost to draw, together
        if fmt.printed:
            job = module.prepare(doc, options, base_dir)
        else:
            done = module.render(doc, options, base_dir)
            job = lambda: done  # noqa: E731 - finished already
        extra: list[str] = []
        if fmt.deck:
            from confnotes.render.deck import cropped_pictures, deck_for
            from confnotes.slides.fit import overflow_message, overflowing

            deck = deck_for(doc, options, base_dir)
            extra = [*deck.cut, *(overflow_message(slide) for slide in overflowing(deck.slides)), *cropped_pictures(deck, base_dir)]
        extra = [*cite_warnings, *extra]

    def finish() -> tuple[str | bytes, list[str]]:
        data, warnings = job()
        return data, [*warnings, *extra]

    return finish
