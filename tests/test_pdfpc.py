"""Speaker notes with the slides PDF (``render --to slides-pdf --notes``), for pdfpc and pympress
users: each page's notes as a PDF text annotation (the PDF still passes the PDF/UA checker), and a
``.pdfpc`` file beside it in pdfpc's documented JSON format 2 — ``pdfpcFormat``, ``disableMarkdown``,
``duration`` in minutes, and ``pages`` of ``idx`` (0-based page), ``label`` (the slide number the
page shows), ``overlay`` (its step), ``forcedOverlay`` and ``note``."""

from __future__ import annotations

import json

import pytest

TALK = """---
title: Error budgets that people use
event: SREcon EMEA 2026
speaker: Nadia Okafor
duration: 25min
---

# Error budgets that people use

## Why budgets fail

- product never agreed to them
- nobody stops shipping at 100%

<!-- notes:
Open with the March outage: checkout down for forty minutes, and the budget said nothing.
Ask the room who has a budget that nobody reads. -->

## A policy is a contract
<!-- slide incremental -->

- what happens at 50% burn
- what happens at 75% burn
- feature freeze at 100%

<!-- notes: Reveal one line at a time; stop on the freeze. -->

## Burn-rate alerts

- two windows: 1 h and 6 h
- they replaced the latency pages

<!-- slide notes: presenter -->
<!-- notes: Only for me: the pager story, if there is time. -->

## Takeaways

- agree on the policy before the first incident
"""


@pytest.fixture
def rendered(cli, tmp_path, weasyprint):
    def render(*extra: str):
        note = tmp_path / "budgets.md"
        note.write_text(TALK, encoding="utf-8")
        pdf = tmp_path / "budgets.slides.pdf"
        result = cli("render", str(note), "--to", "slides-pdf", "-o", str(pdf), *extra)
        assert result.exit_code == 0, result.output
        return pdf, tmp_path / "budgets.slides.pdfpc", result

    return render


def _text_annotations(pdf) -> dict[int, str]:
    from pypdf import PdfReader

    found = {}
    for number, page in enumerate(PdfReader(str(pdf)).pages):
        for annotation in page.get("/Annots") or []:
            annotation = annotation.get_object()
            if annotation.get("/Subtype") == "/Text":
                assert annotation["/F"] & 32  # NoView: the room never sees a note icon on the projected slide
                found[number] = str(annotation["/Contents"])
    return found


def test_notes_travel_with_the_slides_pdf_as_annotations_and_a_pdfpc_file(rendered):
    from pdfua import Severity, validate
    from pypdf import PdfReader

    pdf, pdfpc, result = rendered("--notes")
    assert f"wrote {pdfpc}" in result.stderr
    data = json.loads(pdfpc.read_text(encoding="utf-8"))
    pages = len(PdfReader(str(pdf)).pages)
    assert data["pdfpcFormat"] == 2 and data["disableMarkdown"] is False and data["duration"] == 25
    assert [page["idx"] for page in data["pages"]] == list(range(pages))
    assert all(isinstance(page["label"], str) and page["overlay"] == 0 and page["forcedOverlay"] is False for page in data["pages"])
    notes = {page["idx"]: page["note"] for page in data["pages"] if "note" in page}
    assert [text.split()[0] for text in notes.values()] == ["Open", "Reveal", "Only"]
    assert "checkout down for forty minutes" in next(iter(notes.values()))
    # the PDF carries the same notes on the same pages, but not the presenter's own
    annotations = _text_annotations(pdf)
    presenter = [idx for idx, text in notes.items() if text.startswith("Only for me")]
    assert annotations == {idx: text for idx, text in notes.items() if idx not in presenter}
    errors = [f for f in validate(str(pdf)).findings if f.severity == Severity.ERROR]
    assert errors == [], [(f.rule_id, f.message) for f in errors][:3]


def test_the_steps_of_an_incremental_list_are_overlays_of_one_slide(rendered):
    pdf, pdfpc, _ = rendered("--notes", "--steps")
    data = json.loads(pdfpc.read_text(encoding="utf-8"))
    policy = [page for page in data["pages"] if page.get("note", "").startswith("Reveal")]
    assert [page["overlay"] for page in policy] == [0, 1, 2, 3]  # arriving, then one item a step
    assert len({page["label"] for page in policy}) == 1 and [p["forcedOverlay"] for p in policy] == [False, True, True, True]
    labels = [int(page["label"]) for page in data["pages"]]
    assert labels == sorted(labels) and labels[-1] == len({page["label"] for page in data["pages"]})
    assert set(_text_annotations(pdf)) == {page["idx"] for page in data["pages"] if page.get("note", "")[:4] in ("Open", "Reve")}


def test_without_notes_the_slides_pdf_has_none_and_no_pdfpc_is_written(rendered):
    pdf, pdfpc, _ = rendered()
    assert not pdfpc.exists() and _text_annotations(pdf) == {}
