"""XML confnotes did not write, read one way: a Word or OpenDocument part, an OPML outline, a frab
schedule, an SVG picture.

One parser setting for all of them (lxml): entities are never expanded, no DTD is loaded, nothing is
fetched from the network, and no tree grows past libxml2's ordinary limits (``huge_tree`` off: text
nodes of 10 MB, 256 levels). A document that *declares* entities is refused rather than read with
holes where they stood: entities are how a few hundred bytes expand to gigabytes or name a file to
read. A doctype that declares nothing (OmniOutliner's ``<!DOCTYPE opml PUBLIC …>``) is read.

Each reader turns ``XmlError`` into its own one-line message (``not well-formed OPML: …``); the
formats' own rules (a schedule's ``<schedule>`` root, an SVG's ``<use>`` loops) stay with them.
"""

from __future__ import annotations

from typing import IO, Any


class XmlError(ValueError):
    """Why the XML cannot be read: ``reason`` (one phrase), where (``line``/``col``, 1-based, when
    libxml2 says), and whether the refusal is for declared entities (``entities``)."""

    def __init__(self, reason: str, line: int | None = None, col: int | None = None, entities: bool = False) -> None:
        super().__init__(reason)
        self.reason, self.line, self.col, self.entities = reason, line, col, entities


def parse_xml(source: bytes | IO[bytes], keep_blank_text: bool = True) -> Any:
    """The root element of the XML in ``source`` (bytes or a binary file); raises ``XmlError``.
    ``keep_blank_text=False`` drops whitespace-only text between elements, as python-docx reads."""
    from lxml import etree

    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, remove_blank_text=not keep_blank_text
    )
    try:
        tree = etree.fromstring(source, parser).getroottree() if isinstance(source, bytes) else etree.parse(source, parser)
    except etree.XMLSyntaxError as exc:
        line, col = getattr(exc, "position", (None, None))
        raise XmlError(_reason(exc), line or None, col + 1 if line and col is not None else None) from None
    except LookupError as exc:  # <?xml encoding="…"?> names an encoding neither knows
        raise XmlError(f"an unknown encoding ({exc})") from None
    dtd = tree.docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise XmlError("it declares entities", entities=True)
    return tree.getroot()


def _reason(exc: Any) -> str:
    """libxml2's message as one phrase (``Opening and ending tag mismatch: outline line 1 and body``)."""
    text = str(getattr(exc, "msg", "") or exc).strip()
    if "Excessive depth" in text:
        return "it nests deeper than 256 elements"
    return text.split(", line")[0].rstrip(".")
