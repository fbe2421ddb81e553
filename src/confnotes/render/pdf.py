"""Document (or deck) HTML to PDF through WeasyPrint, fetching nothing outside the note's folder."""

from __future__ import annotations

import functools
import gc
import logging
import re
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from confnotes.errors import NotesError, render_error


def load_weasyprint() -> Any:
    """WeasyPrint, imported the one way every confnotes command imports it.

    WeasyPrint finds Pango and HarfBuzz by trying each library's Windows and macOS names before the
    Linux one, and cffi asks ``ctypes.util.find_library`` about every name it can't open; on Linux
    each such question runs ldconfig, gcc and ld (Kozea/WeasyPrint#1125), about 150 ms of every PDF
    render's start. During the import those questions get no answer, so WeasyPrint goes straight on
    to the names the system loader opens itself (``libpango-1.0.so.0``). Should that fail, on a
    system whose libraries only those tools can find, the import is repeated the usual way. What
    WeasyPrint prints when it fails never reaches stdout (a PDF may be going there): the failure is
    one error naming the library.
    """
    with _IMPORTING:  # one import at a time: it patches ctypes and stdout for the whole process
        return _load_weasyprint()


def _load_weasyprint() -> Any:
    if "weasyprint" in sys.modules:
        return sys.modules["weasyprint"]
    if sys.platform.startswith("linux"):
        import ctypes.util

        find_library = ctypes.util.find_library
        ctypes.util.find_library = _no_answer
        try:
            return _import_weasyprint()
        except OSError:
            for name in [name for name in sys.modules if name == "weasyprint" or name.startswith("weasyprint.")]:
                del sys.modules[name]
        finally:
            ctypes.util.find_library = find_library
    try:
        return _import_weasyprint()
    except OSError as exc:
        raise render_error(
            f"PDF output needs Pango and HarfBuzz, which WeasyPrint cannot load: {exc} ('confnotes doctor' says what to install)"
        ) from exc


def _import_weasyprint() -> Any:
    import io
    from contextlib import redirect_stdout

    with redirect_stdout(io.StringIO()):  # WeasyPrint prints its install advice before it raises
        import weasyprint

    return weasyprint


_IMPORTING = threading.Lock()


def _no_answer(name: str) -> None:  # noqa: ARG001 - the signature of ctypes.util.find_library
    return None


class Refused(ValueError):
    """A resource confnotes would not fetch: named once in its own warning, not again in WeasyPrint's."""


def _bounded_resource(target: Path) -> tuple[bytes, str]:
    """A picture or stylesheet below the note's folder through the one bounded read, and its type:
    a FIFO or a device named by a raw ``<img>`` would otherwise hold the render for ever (urllib
    opens and reads whatever is there)."""
    import mimetypes

    from confnotes.edges.source import read_bytes
    from confnotes.render.inline.pictures import MAX_PAGE_IMAGE_BYTES

    data = read_bytes(str(target), "picture or stylesheet", MAX_PAGE_IMAGE_BYTES)
    return data, mimetypes.guess_type(target.name)[0] or "application/octet-stream"


def _fetcher_class() -> Any:
    load_weasyprint()
    from weasyprint import URLFetcher
    from weasyprint.urls import URLFetcherResponse

    class FolderFetcher(URLFetcher):
        """Serves ``data:`` URLs and files below one folder; refuses the network and everything else."""

        def __init__(self, root: Path | None, refused: list[str]) -> None:
            super().__init__(allowed_protocols={"data", "file"}, allow_redirects=False, timeout=1)
            self.root = root.resolve() if root is not None else None
            self.refused = refused

        def fetch(self, url: str, headers: Any = None) -> Any:
            if url.startswith("data:"):
                return super().fetch(url, headers)
            target = self.local_file(url)
            if target is not None:
                return self.read_local(target)
            self.refused.append(url)
            raise Refused(f"confnotes does not fetch {url[:80]}")

        def read_local(self, target: Path) -> Any:
            try:
                data, kind = _bounded_resource(target)
            except NotesError as exc:
                self.refused.append(f"{target.name} ({exc.message})")
                raise Refused(exc.message) from None
            return URLFetcherResponse(target.as_uri(), data, {"Content-Type": kind})

        def local_file(self, url: str) -> Path | None:
            """The file below the note's folder a ``file:`` URL names, or None. A URL with a host
            (``file://HOST/…``, which urllib would look up in the DNS, or a share on Windows) or a
            path that is not absolute names no file here."""
            from urllib.parse import unquote, urlsplit

            try:
                parts = urlsplit(url)
            except ValueError:
                return None
            if self.root is None or parts.scheme.lower() != "file" or parts.netloc:
                return None
            path = unquote(parts.path)
            if not path.startswith("/") or path.startswith("//") or "\x00" in path:
                return None
            try:
                target = Path(path).resolve()
            except (OSError, RuntimeError):  # a link loop
                return None
            return target if target == self.root or self.root in target.parents else None

    return FolderFetcher


#: WeasyPrint warnings about the machine, not the note (`confnotes doctor` reports those once).
#: HTML longer than this (characters) is a PDF whose layout, a web of boxes that refer to each
#: other, is collected as soon as it is written, so a build renders the note's next format in the
#: room: a 2 MB note's PDF (410,000 characters of HTML) left 310 MB for the collector, and a 20 MB
#: note's build peaked at 1.6 GB. Collecting costs about 0.5 s there against a minute of layout;
#: after a usual note's PDF (20,000 characters) it would cost 47 ms against 150 ms, so not then.
COLLECT_AFTER = 200_000
_MACHINE_WARNINGS = ("Using fontTools instead of HarfBuzz-Subset", "Please install HarfBuzz version")


_NO_GLYPH = re.compile(r'unsupported by fonts: "(.*?)"')


def is_machine_warning(message: object) -> bool:
    return isinstance(message, str) and message.startswith(_MACHINE_WARNINGS)


def html_to_pdf(
    html: str, base_dir: Path | None, *, tagged: bool = True, notes: tuple[str, ...] = (), links_from: Path | None = None
) -> tuple[bytes, list[str]]:
    """Render HTML to PDF bytes; returns the PDF and warnings (refused or broken resources).
    ``notes``: a text a page, put on the page as a PDF text annotation ("" for none: the slides
    PDF's speaker notes, ``--notes``).

    ``links_from``: the folder the PDF goes to (links to files are written relative to it; the
    note's folder when None). The document language comes from the page's ``<html lang>``."""
    weasyprint = load_weasyprint()
    warnings: list[str] = []
    refused: list[str] = []
    no_glyph: list[str] = []
    logger = logging.getLogger("weasyprint")

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno < logging.WARNING or is_machine_warning(record.msg):
                return
            message = record.getMessage()
            if f"{Refused.__name__}: " in message:  # WeasyPrint's words for what the fetcher refused
                return
            if message.startswith(".notdef glyph rendered"):  # one summary line, not one a character
                match = _NO_GLYPH.search(message)
                if match and match.group(1) not in no_glyph:
                    no_glyph.append(match.group(1))
                return
            warnings.append(message.splitlines()[0][:200])

    handler = Collect()
    logger.addHandler(handler)
    previous = logger.propagate
    logger.propagate = False
    try:
        fetcher = _fetcher_class()(base_dir, refused)
        base_url = (base_dir.resolve().as_uri() + "/") if base_dir is not None else None
        document = weasyprint.HTML(string=html, base_url=base_url, url_fetcher=fetcher)
        pdf = document.write_pdf(**_write_options(html, tagged, notes, links_from or base_dir))
    except Exception as exc:  # noqa: BLE001 - WeasyPrint raises many types; the user gets one line
        raise render_error(f"PDF rendering failed: {type(exc).__name__}: {exc}") from None
    finally:
        logger.removeHandler(handler)
        logger.propagate = previous
    del document
    if len(html) > COLLECT_AFTER:
        gc.collect()  # its boxes refer to each other: freed now, not when the collector next looks
    warnings += [f"refused to fetch {url[:80]}" for url in refused]
    if no_glyph:
        from confnotes.edges.fonts import missing_glyph_warnings

        warnings += missing_glyph_warnings(no_glyph)
    return pdf, warnings


@functools.lru_cache(maxsize=1)
def _font_config() -> Any:
    """One font configuration a process: fonts are found and loaded once, not for every PDF a
    build writes (confnotes' stylesheets declare no @font-face, so nothing leaks between notes)."""
    load_weasyprint()
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


_LINK = re.compile(r'<a\b[^>]*?\bhref="([^"]*)"[^>]*>(.*?)</a>', re.DOTALL)


def _link_texts(html: str) -> dict[str, str]:
    """Each link target of the page and the words it is linked from (for the PDF's link descriptions)."""
    from html import unescape

    texts: dict[str, str] = {}
    for href, inner in _LINK.findall(html):
        text = " ".join(unescape(re.sub(r"<[^>]+>", " ", inner)).split())
        target = unescape(href)
        if text and target not in texts:
            texts[target] = text
            if target.startswith("#"):
                texts.setdefault(target[1:], text)
    return texts


def _tag_finisher(link_texts: dict[str, str]) -> Any:
    """Finish WeasyPrint's tagged PDF: table header cells get ``/Scope /Column`` and links a
    description from their text (WeasyPrint writes the target, a slug for links inside the page)."""
    import pydyf  # type: ignore[import-untyped]

    def finish(_document: Any, pdf: Any) -> None:
        for obj in pdf.objects:
            if not isinstance(obj, pydyf.Dictionary):
                continue
            if obj.get("S") == "/TH":
                attributes = obj.get("A")
                if isinstance(attributes, pydyf.Dictionary):
                    attributes["Scope"] = "/Column"
            elif obj.get("Subtype") == "/Link" and isinstance(obj.get("Contents"), pydyf.String):
                target = obj["Contents"].string
                text = link_texts.get(target)
                if text:
                    obj["Contents"] = pydyf.String(text if text == target else f"{text} ({target})" if "://" in target else text)

    return finish


#: PDF annotation flag NoView (bit 6): not displayed on screen, not printed; readers list it still
_NO_VIEW = 32


def _write_options(html: str, tagged: bool, notes: tuple[str, ...], links_from: Path | None) -> dict[str, Any]:
    """WeasyPrint's options for one PDF: its fonts, PDF/UA when tagged, and the finishers (tags and
    link descriptions, links to files relative to ``links_from``, the notes as annotations)."""
    options: dict[str, Any] = {"font_config": _font_config()}
    if tagged:
        options["pdf_variant"] = "pdf/ua-1"
    finishers = [_tag_finisher(_link_texts(html))] if tagged else []
    if links_from is not None:  # links to files, from where the PDF goes
        finishers.append(_relative_links(links_from.resolve()))
    if any(notes):
        finishers.append(_note_annotations(notes, tagged))
    if finishers:
        options["finisher"] = lambda document, pdf: [finish(document, pdf) for finish in finishers]
    return options


def _relative_links(base: Path) -> Any:
    """A finisher keeping links to files relative to the note's folder (``demo.mp4``, ``../talk.md``):
    WeasyPrint resolves them to ``file:///…`` URLs, which print the author's folders into a PDF
    that is shared, and break once the PDF and its files move together."""
    import os
    from urllib.parse import quote, unquote, urlsplit

    import pydyf

    def relative(uri: str) -> str:
        if not uri.startswith("file://"):
            return uri
        parts = urlsplit(uri)
        path = quote(Path(os.path.relpath(unquote(parts.path), base)).as_posix(), safe="/")
        return path + (f"#{parts.fragment}" if parts.fragment else "")

    def finish(_document: Any, pdf: Any) -> None:
        for obj in pdf.objects:
            if not isinstance(obj, pydyf.Dictionary) or obj.get("Subtype") != "/Link":
                continue
            action = obj.get("A")
            if isinstance(action, pydyf.Dictionary) and isinstance(action.get("URI"), pydyf.String):
                action["URI"] = pydyf.String(relative(action["URI"].string))
            contents = obj.get("Contents")
            if isinstance(contents, pydyf.String) and "file://" in contents.string:
                obj["Contents"] = pydyf.String(re.sub(r"file://[^\s)]+", lambda match: relative(match.group(0)), contents.string))

    return finish


def _note_annotations(notes: tuple[str, ...], tagged: bool) -> Any:
    """A finisher putting ``notes`` on their pages as text annotations (at the top right corner,
    never drawn: their text is what the note panes of pympress and PDF readers list); in a tagged
    PDF each is an ``/Annot`` element of the structure, after the page's content (PDF/UA)."""
    import pydyf

    def finish(_document: Any, pdf: Any) -> None:
        def resolved(reference: bytes) -> Any:
            return pdf.objects[int(reference.split()[0])]

        root = resolved(pdf.catalog["StructTreeRoot"]) if tagged else None
        tree = resolved(root["ParentTree"]) if root is not None else None
        parent = root["K"][0] if root is not None else None
        key = max(tree["Nums"][0::2], default=-1) + 1 if tree is not None else 0
        for number, text in zip(pdf.pages["Kids"][0::3], notes, strict=False):
            if not text:
                continue
            page = pdf.objects[number]
            width, height = float(page["MediaBox"][2]), float(page["MediaBox"][3])
            annotation = pydyf.Dictionary(
                {
                    "Type": "/Annot",
                    "Subtype": "/Text",
                    "Rect": pydyf.Array([width - 30, height - 30, width - 10, height - 10]),
                    "Contents": pydyf.String(text),
                    "T": pydyf.String("Speaker notes"),
                    "Name": "/Comment",
                    "Open": "false",
                    # NoView: never drawn on the slide (a console projects the page with poppler,
                    # which would draw the icon for the room to see); its text is read all the same
                    "F": _NO_VIEW,
                }
            )
            pdf.add_object(annotation)
            page.setdefault("Annots", pydyf.Array()).append(annotation.reference)
            if tree is not None and parent is not None:
                element = pydyf.Dictionary(
                    {
                        "Type": "/StructElem",
                        "S": "/Annot",
                        "P": parent,
                        "K": pydyf.Dictionary({"Type": "/OBJR", "Obj": annotation.reference, "Pg": page.reference}),
                        "Alt": pydyf.String("Speaker notes: " + text[:200]),
                    }
                )
                pdf.add_object(element)
                resolved(parent)["K"].append(element.reference)
                annotation["StructParent"] = key
                tree["Nums"].extend([key, element.reference])
                key += 1
                page["Tabs"] = "/S"
        if root is not None:
            root["ParentTreeNextKey"] = key

    return finish


@dataclass(frozen=True)
class PrintJob:
    """HTML waiting for WeasyPrint's layout, with the warnings made with it: all a PDF needs once
    its note is let go. ``build`` renders a note's other formats, then lets the note go, then lays
    out its PDFs: a 20 MB note's outline (about 600 MB) and its PDF's layout (about 330 MB) never
    stand side by side."""

    html: str
    base_dir: Path | None
    tagged: bool
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # a text a page, as annotations (``html_to_pdf``)
    links_from: Path | None = None  # the folder the PDF goes to (``RenderOptions.output_dir``)

    def __call__(self) -> tuple[bytes, list[str]]:
        pdf, more = html_to_pdf(self.html, self.base_dir, tagged=self.tagged, notes=self.notes, links_from=self.links_from)
        return pdf, [*self.warnings, *more]


def prepare(doc: Any, options: Any, base_dir: Path | None) -> PrintJob:
    """The note's printable page, its layout still to come."""
    from dataclasses import replace

    from confnotes.render.html import render_html
    from confnotes.render.printed import printed_part

    doc, cut = printed_part(doc)
    html, warnings = render_html(doc, replace(options, mode="pdf"), base_dir)
    links_from = Path(options.output_dir) if options.output_dir else None
    return PrintJob(html, base_dir, options.tagged, tuple(([cut] if cut else []) + warnings), links_from=links_from)


def render(doc: Any, options: Any, base_dir: Path | None) -> tuple[bytes, list[str]]:
    return prepare(doc, options, base_dir)()
