"""Emoji shortcodes as chat pastes hold them (`:rocket:`, `:+1:`, `:white_check_mark:`): the emoji in
every output, code as typed, a `:word:` that names no emoji as written, colour emoji in the PDF."""

from __future__ import annotations

import pytest

from confnotes.markup.shortcodes import emojized
from helpers import formats_where

SLACK = """---
title: "Release retro :rocket:"
---

Pasted from #releases :tada: at 10:30:00.

## What went well :white_check_mark:

- Deploys are boring now :+1: :sparkles:
- `:rocket:` in a code span stays as typed
- :not_a_code: stays as written

```sh
echo ":rocket: in a code block"
```
"""


def test_the_table_and_what_it_leaves():
    assert emojized("Ship :rocket: :+1: :thumbsup: :white_check_mark:") == "Ship 🚀 👍 👍 ✅"
    assert emojized("10:30:00 and :not_a_code: and a: b:") == "10:30:00 and :not_a_code: and a: b:"


@pytest.mark.parametrize("fmt", formats_where(printed=False))
def test_every_output_shows_the_emoji_and_keeps_code(cli, tmp_path, fmt):
    import html

    note = tmp_path / "retro.md"
    note.write_text(SLACK, encoding="utf-8")
    out = tmp_path / f"retro.{fmt}"
    assert cli("render", str(note), "--to", fmt, "-o", str(out)).exit_code == 0
    if fmt in ("pptx", "docx"):
        from helpers import output_text

        text = output_text(out, fmt)
    else:
        # Marp writes emoji as character references, and breaks a shortcode it would fetch a picture for with a word joiner
        text = html.unescape(out.read_text(encoding="utf-8")).replace("\u2060", "")
    for shown in ("Release retro 🚀", "🎉 at 10:30:00", "What went well ✅", "Deploys are boring now 👍 ✨", ":not_a_code:"):
        assert shown in text, (fmt, shown)
    assert ":rocket:" in text  # the code span (and block) as typed
    assert ":tada:" not in text and ":+1:" not in text


def test_the_pdf_prints_them_in_colour_where_the_machine_has_the_font(cli, tmp_path, weasyprint):
    import subprocess

    from confnotes.edges.fonts import families
    from helpers import pdf_text, require, require_program

    require(next(iter(families("und-zsye")), None), "no colour emoji font (apt-get install fonts-noto-color-emoji)")
    note = tmp_path / "retro.md"
    note.write_text(SLACK, encoding="utf-8")
    result = cli("render", str(note), "--to", "pdf", "-o", str(tmp_path / "retro.pdf"))
    assert result.exit_code == 0 and "no font" not in result.stderr
    text = pdf_text((tmp_path / "retro.pdf").read_bytes())
    assert "Release retro 🚀" in text and "👍" in text
    fonts = subprocess.run(
        [require_program("pdffonts", install="apt-get install poppler-utils"), str(tmp_path / "retro.pdf")], capture_output=True, text=True
    )
    assert "Emoji" in fonts.stdout
