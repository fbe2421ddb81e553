"""Citations as pandoc and Quarto users write them, with a BibTeX or CSL JSON bibliography: each
output shows them as the style formats them and ends with the References; unknown keys, missing or
broken bibliographies are said once, and the citations then stay as written."""

from __future__ import annotations

import json

import pytest

from confnotes.markup.citations import Cited, groups
from helpers import formats_where

BIB = """@book{kleppmann2017,
  author = {Kleppmann, Martin},
  title = {Designing Data-Intensive Applications},
  publisher = {O'Reilly},
  year = {2017}
}
@article{lamport1978,
  author = {Lamport, Leslie},
  title = {Time, Clocks, and the Ordering of Events in a Distributed System},
  journal = {Communications of the ACM},
  volume = {21}, number = {7}, pages = {558--565}, year = {1978}
}
"""
CSL_JSON = [
    {"id": "fowler2002", "type": "book", "title": "Patterns of Enterprise Application Architecture", "publisher": "Addison-Wesley",
     "author": [{"family": "Fowler", "given": "Martin"}], "issued": {"date-parts": [[2002]]}},
]  # fmt: skip
NOTE = """---
title: Reading group, week 3
bibliography: {bib}
---

## Ordering events

- Logical clocks order events without synchronised time [@lamport1978]
- The book covers it in depth [see @kleppmann2017, p. 289]
- Both at once [@lamport1978; @kleppmann2017, ch. 8]
- In code `[@lamport1978]` stays as typed
"""


def test_citation_groups_as_pandoc_reads_them():
    assert [items for _, items in groups("a [@x] b [see @y, p. 3; -@z] [link](u) [@w](u) `[@c]`")] == [
        [Cited("x")],
        [Cited("y", "see", ("page", "3")), Cited("z", suppress=True)],
    ]
    assert groups("mail me@example.org or [not a cite]") == []


def _note(tmp_path, bib="refs.bib"):
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / "refs.json").write_text(json.dumps(CSL_JSON), encoding="utf-8")
    note = tmp_path / "week3.md"
    note.write_text(NOTE.replace("{bib}", bib), encoding="utf-8")
    return note


@pytest.mark.parametrize("fmt", formats_where(printed=False))
def test_every_output_formats_citations_and_lists_the_references(cli, tmp_path, fmt):
    import html

    from helpers import output_text

    note = _note(tmp_path)
    out = tmp_path / f"week3.{fmt}"
    result = cli("render", str(note), "--to", fmt, "-o", str(out))
    assert result.exit_code == 0 and "warning" not in result.stderr, result.output
    text = " ".join(html.unescape(output_text(out, fmt)).split())
    for shown in (
        "without synchronised time (Lamport, 1978)",
        "in depth (see Kleppmann, 2017, p. 289)",
        "(Lamport, 1978; Kleppmann, 2017, chap. 8)",
        "References",
        "Kleppmann, M. (2017) Designing Data-Intensive Applications. O'Reilly.",
        "Communications of the ACM, 21(7), pp. 558–565.",
        "[@lamport1978]",  # the code span, as typed
    ):
        assert shown in text, (fmt, shown)
    assert text.count("[@") == 1


def test_a_csl_json_bibliography(cli, tmp_path):
    note = _note(tmp_path, "refs.json")
    note.write_text(note.read_text(encoding="utf-8") + "- Patterns [@fowler2002, pp. 12-14]\n", encoding="utf-8")
    cli("render", str(note), "--to", "html", "-o", str(tmp_path / "w.html"))
    page = (tmp_path / "w.html").read_text(encoding="utf-8")
    assert "Patterns (Fowler, 2002, pp. 12–14)" in page and "Fowler, M. (2002) Patterns of Enterprise Application Architecture." in page


@pytest.mark.parametrize(
    ("bib", "make", "message"),
    [
        ("missing.bib", None, "bibliography 'missing.bib' not found"),
        ("broken.bib", "@book{broken, title = {Unclosed\n", "bibliography broken.bib cannot be read"),
        ("../outside.bib", BIB, "outside the note's folder"),
    ],
)
def test_a_bibliography_that_cannot_be_read_is_said_once(cli, tmp_path, bib, make, message):
    folder = tmp_path / "notes"
    folder.mkdir()
    if make is not None:
        (folder / bib).write_text(make, encoding="utf-8")
    note = folder / "week3.md"
    note.write_text(NOTE.replace("{bib}", bib), encoding="utf-8")
    result = cli("render", str(note), "--to", "html", "-o", str(tmp_path / "w.html"))
    assert result.exit_code == 0
    assert [line for line in result.stderr.splitlines() if "warning" in line] == [f"{note}: warning: {message}"] or message in result.stderr
    assert result.stderr.count("warning") == 1
    assert "[@lamport1978]" in (tmp_path / "w.html").read_text(encoding="utf-8")  # shown as written
    lint = json.loads(cli("lint", str(note), "--format", "json").stdout)
    assert [f["message"] for f in lint if f["name"] == "unknown-citation"] and message in lint[0]["message"]


def test_an_unknown_key_is_a_warning_and_a_lint_finding(cli, tmp_path):
    note = _note(tmp_path)
    note.write_text(note.read_text(encoding="utf-8") + "- And [@nobody2020]\n", encoding="utf-8")
    result = cli("render", str(note), "--to", "html", "-o", str(tmp_path / "w.html"))
    assert "citation @nobody2020 is not in the bibliography; shown as written" in result.stderr
    findings = [f for f in json.loads(cli("lint", str(note), "--format", "json").stdout) if f["name"] == "unknown-citation"]
    assert [(f["line"], f["column"]) for f in findings] == [(12, 8)]  # at the @


def test_citations_are_bounded_per_note(cli, tmp_path, monkeypatch):
    from confnotes.markup import citations

    monkeypatch.setattr(citations, "MAX_CITATIONS", 3)
    note = _note(tmp_path)
    note.write_text(note.read_text(encoding="utf-8") + "".join(f"- Point {n} [@lamport1978]\n" for n in range(5)), encoding="utf-8")
    result = cli("render", str(note), "--to", "html", "-o", str(tmp_path / "w.html"))
    assert result.exit_code == 0 and "first 3 citations are formatted" in result.stderr
    page = (tmp_path / "w.html").read_text(encoding="utf-8")
    assert (
        page.count("(Lamport, 1978") == 2 and page.count("[@lamport1978]") == 6
    )  # the three at the top; the five after, and the code span, as written


def test_a_bibliography_outside_the_folder_or_a_device_is_never_read(cli, tmp_path):
    note = tmp_path / "n.md"
    for named in ("/etc/passwd", "/dev/zero", "../../etc/hosts"):
        note.write_text(f"---\nbibliography: {named}\ncsl: /dev/zero\n---\n\n# N\n\n- a [@x]\n", encoding="utf-8")
        result = cli("render", str(note), "--to", "html", "-o", str(tmp_path / "n.html"))
        assert result.exit_code == 0 and "Traceback" not in result.stderr, named
        assert "[@x]" in (tmp_path / "n.html").read_text(encoding="utf-8")
