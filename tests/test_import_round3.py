"""Import, round 3 (issue 60): what the note apps and word processors people write in produce."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("marker", ["* ", "+ ", "- ", "o "])
def test_bullets_typed_in_word_are_bullets_like_typed_dots(cli, tmp_path, marker):
    """``* three`` typed in Word became ``\\* three`` paragraphs (18 of 20 items lost as items in
    one real file) where ``• three`` was recovered as a list under its heading."""
    import docx

    document = docx.Document()
    document.add_paragraph("Team sync", style="Title")
    for heading, items in (("Agenda", ["hiring plan", "roadmap review"]), ("Decisions", ["ship the portal", "retire old CI"])):
        document.add_paragraph(heading)
        for item in items:
            document.add_paragraph(marker + item)
    path = tmp_path / "sync.docx"
    document.save(str(path))
    result = cli("import", str(path), "-o", "-")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        "# Team sync\n\n## Agenda\n\n- hiring plan\n- roadmap review\n\n## Decisions\n\n- ship the portal\n- retire old CI\n"
    )
