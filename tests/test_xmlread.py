"""XML confnotes did not write is read one way (``confnotes.edges.xmlread``): entities never expanded,
nothing fetched, a document declaring entities refused, a doctype declaring nothing read. Before,
five readers hardened it themselves with two libraries and three sets of options."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from confnotes.edges.xmlread import XmlError, parse_xml

SRC = Path(__file__).resolve().parent.parent / "src" / "confnotes"


@pytest.mark.parametrize(
    "xml",
    [
        b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><x>&b;</x>',  # laughs
        b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',  # a file named
        b'<!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]><x/>',  # a parameter entity fetched
    ],
    ids=["expansion", "external", "parameter"],
)
def test_a_document_declaring_entities_is_refused(xml):
    with pytest.raises(XmlError) as refused:
        parse_xml(xml)
    assert refused.value.entities or "entit" in refused.value.reason.lower()


def test_a_doctype_that_declares_nothing_is_read_and_nothing_is_fetched():
    root = parse_xml(b'<!DOCTYPE opml PUBLIC "-//OmniGroup//DTD OPML 2.0//EN" "http://127.0.0.1:9/opml.dtd"><opml version="2.0"/>')
    assert root.tag == "opml"


@pytest.mark.parametrize(
    ("xml", "said", "line"),
    [
        (b'<opml>\n<body><outline text="a"></body></opml>', "Opening and ending tag mismatch", 2),
        (b"<a>" * 300 + b"</a>" * 300, "nests deeper than 256 elements", 1),
        (b"", "Document is empty", 1),
    ],
)
def test_a_broken_document_is_one_reason_and_where(xml, said, line):
    with pytest.raises(XmlError) as broken:
        parse_xml(xml)
    assert said in broken.value.reason and broken.value.line == line and "\n" not in broken.value.reason


def test_no_reader_parses_xml_on_its_own():
    """Only ``xmlread`` makes a parser: no module parses with ElementTree, defusedxml, minidom or its own
    lxml parser (``math``/``omml`` read only the MathML confnotes itself wrote, and are named)."""
    trusted = {"confnotes.markup.math", "confnotes.markup.omml"}
    found = []
    for path in SRC.rglob("*.py"):
        module = ".".join(path.relative_to(SRC.parent).with_suffix("").parts)
        if module in trusted or module == "confnotes.edges.xmlread":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = ast.unparse(node) if isinstance(node, (ast.Attribute, ast.Name)) else ""
            imported = node.module or "" if isinstance(node, ast.ImportFrom) else ""
            parsing = imported.startswith(("defusedxml", "xml.dom", "xml.sax.handler", "xml.parsers"))
            if name.endswith(("XMLParser", "fromstring", "etree.parse")) or parsing:
                found.append(f"{module}: {name or imported}")
    assert not found
