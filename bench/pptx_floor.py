"""The floor for a PPTX: a bare python-pptx program that writes the same shapes as confnotes' file.

``bare_program(data)`` reads a PPTX confnotes wrote and returns a function that writes, with
python-pptx alone and no confnotes code, a presentation of the same size with the same slides:
each slide on the layout of the same position, the same placeholders filled with the same runs
(text, size, bold), the same text boxes, tables and pictures at the same places, the same speaker
notes. What it leaves out is what confnotes adds to each shape: fonts and colours, autofit, the
footer's style, the fitted sizes' arithmetic, and reading the note and building its deck.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

Runs = list[list[tuple[str, Any, Any]]]


def _runs(frame: Any) -> Runs:
    return [[(run.text, run.font.size, run.font.bold) for run in paragraph.runs] for paragraph in frame.paragraphs]


def bare_program(source: bytes) -> Callable[[], bytes]:
    from pptx import Presentation

    read = Presentation(io.BytesIO(source))
    layouts = list(read.slide_layouts)
    plan: list[tuple[int, list[tuple[str, Any, Any]], str]] = []
    for slide in read.slides:
        shapes: list[tuple[str, Any, Any]] = []
        for shape in slide.shapes:
            box = (shape.left, shape.top, shape.width, shape.height)
            if shape.is_placeholder and shape.has_text_frame:
                shapes.append(("placeholder", shape.placeholder_format.idx, _runs(shape.text_frame)))
            elif shape.has_text_frame:
                shapes.append(("text", box, _runs(shape.text_frame)))
            elif getattr(shape, "has_table", False):
                shapes.append(("table", box, [[cell.text for cell in row.cells] for row in shape.table.rows]))
            elif shape.shape_type == 13:  # a picture
                shapes.append(("picture", box, shape.image.blob))
        notes = slide.notes_slide.notes_text_frame.text if slide.has_notes_slide else ""
        plan.append((layouts.index(slide.slide_layout), shapes, notes))
    width, height = read.slide_width, read.slide_height

    def fill(frame: Any, paragraphs: Runs) -> None:
        for index, runs in enumerate(paragraphs):
            paragraph = frame.paragraphs[0] if index == 0 else frame.add_paragraph()
            for text, size, bold in runs:
                run = paragraph.add_run()
                run.text = text
                if size:
                    run.font.size = size
                if bold:
                    run.font.bold = True

    def write() -> bytes:
        prs = Presentation()
        prs.slide_width, prs.slide_height = width, height
        for layout, shapes, notes in plan:
            page = prs.slides.add_slide(prs.slide_layouts[min(layout, len(prs.slide_layouts) - 1)])
            placeholders = {shape.placeholder_format.idx: shape for shape in page.placeholders}
            for kind, where, what in shapes:
                if kind == "placeholder" and where in placeholders:
                    fill(placeholders[where].text_frame, what)
                elif kind == "text":
                    fill(page.shapes.add_textbox(*where).text_frame, what)
                elif kind == "table":
                    table = page.shapes.add_table(len(what), max(len(row) for row in what), *where).table
                    for r, row in enumerate(what):
                        for c, text in enumerate(row):
                            table.cell(r, c).text = text
                elif kind == "picture":
                    page.shapes.add_picture(io.BytesIO(what), *where)
            if notes:
                page.notes_slide.notes_text_frame.text = notes
        out = io.BytesIO()
        prs.save(out)
        return out.getvalue()

    return write
