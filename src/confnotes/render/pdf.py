"""Document (or deck) HTML to PDF through WeasyPrint, fetching nothing outside the note's folder."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from confnotes.errors import render_error


def _fetcher_class() -> Any:
    from weasyprint import URLFetcher

    class FolderFetcher(URLFetcher):
        """Serves ``data:`` URLs and files below one folder; refuses the network and everything else."""

        def __init__(self, root: Path | None, refused: list[str]) -> None:
            super().__init__(allowed_protocols={"data", "file"}, allow_redirects=False, timeout=1)
            self.root = root.resolve() if root is not None else None
            self.refused = refused

        def fetch(self, url: str, headers: Any = None) -> Any:
            if url.startswith("data:"):
                return super().fetch(url, headers)
            if url.startswith("file:") and self.root is not None:
                from urllib.parse import unquote, urlsplit

                target = Path(unquote(urlsplit(url).path)).resolve()
                if target == self.root or self.root in target.parents:
                    return super().fetch(url, headers)
            self.refused.append(url)
            raise ValueError(f"confnotes does not fetch {url[:80]}")

    return FolderFetcher


#: WeasyPrint warnings about the machine, not the note (`confnotes doctor` reports those once).
_MACHINE_WARNINGS = ("Using fontTools instead of HarfBuzz-Subset", "Please install HarfBuzz version")


def is_machine_warning(message: object) -> bool:
    return isinstance(message, str) and message.startswith(_MACHINE_WARNINGS)


def html_to_pdf(html: str, base_dir: Path | None, *, tagged: bool = True) -> tuple[bytes, list[str]]:
    """Render HTML to PDF bytes; returns the PDF and warnings (refused or broken resources).

    The document language comes from the page's ``<html lang>``."""
    import weasyprint

    warnings: list[str] = []
    refused: list[str] = []
    logger = logging.getLogger("weasyprint")

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING and not is_machine_warning(record.msg):
                warnings.append(record.getMessage().splitlines()[0][:200])

    handler = Collect()
    logger.addHandler(handler)
    previous = logger.propagate
    logger.propagate = False
    try:
        fetcher = _fetcher_class()(base_dir, refused)
        base_url = (base_dir.resolve().as_uri() + "/") if base_dir is not None else None
        document = weasyprint.HTML(string=html, base_url=base_url, url_fetcher=fetcher)
        options: dict[str, Any] = {}
        if tagged:
            options["pdf_variant"] = "pdf/ua-1"
        pdf = document.write_pdf(**options)
    except Exception as exc:  # WeasyPrint raises many types; the user gets one line
        raise render_error(f"PDF rendering failed: {type(exc).__name__}: {exc}") from None
    finally:
        logger.removeHandler(handler)
        logger.propagate = previous
    warnings += [f"refused to fetch {url[:80]}" for url in refused]
    return pdf, warnings


def render_pdf(doc: Any, options: Any, base_dir: Path | None) -> tuple[bytes, list[str]]:
    from dataclasses import replace

    from confnotes.render.html import render_html

    html, warnings = render_html(doc, replace(options, mode="pdf"), base_dir)
    pdf, pdf_warnings = html_to_pdf(html, base_dir, tagged=options.tagged)
    return pdf, warnings + pdf_warnings


render = render_pdf
