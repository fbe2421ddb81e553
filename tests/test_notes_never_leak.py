"""``slides.notes: false`` removes every speaker note from every output: a speaker who turns notes
off to publish a deck expects none to leak, wherever the note was written."""

from __future__ import annotations

import io
import re
import zipfile

import pytest

from helpers import formats_where

SECRETS = ("zebraquartz", "yodelfjord", "xylemgrotto", "wombatcipher", "vortexmango", "umberkestrel")

TALK = f"""---
title: Shipping on Fridays
kind: talk
slides:
  notes: false
---
Welcome, everyone.

::: notes
{SECRETS[0]} in the lede
:::

## Why we stopped

1. Deploys broke weekends
   - pager load doubled

   ::: notes
   {SECRETS[1]} inside an item
   :::

2. Nobody owned rollbacks

::: notes
{SECRETS[2]} after a numbered list
:::

## What we kept

- Small changes
- Feature flags

<!-- notes: {SECRETS[3]} after a bullet list -->

## Questions

Thank you for listening.

::: notes
{SECRETS[4]} in a section without a list
:::

## Appendix

```python
deploy(friday=False)
```

::: notes
{SECRETS[5]} after code
:::
"""

FORMATS = formats_where()  # Word too: it once had no test that notes off stay off


def visible_text(data: bytes, fmt: str) -> str:
    if fmt in ("pdf", "slides-pdf", "handout"):
        from pypdf import PdfReader

        reader = PdfReader(io.BytesIO(data))
        return "\n".join(page.extract_text() or "" for page in reader.pages) + data.decode("latin-1")
    if fmt in ("pptx", "docx"):  # every part of the package, comments and notes pages included
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            return "\n".join(package.read(name).decode("utf-8", "replace") for name in package.namelist())
    return data.decode("utf-8")


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_note_word_in_any_output_when_notes_are_off(cli, tmp_path, fmt, weasyprint):
    note = tmp_path / "talk.md"
    note.write_text(TALK, encoding="utf-8")
    out = tmp_path / f"talk.{fmt}"
    result = cli("render", str(note), "--to", fmt, "-o", str(out))
    assert result.exit_code == 0, result.stderr
    text = visible_text(out.read_bytes(), fmt)
    assert "Shipping on Fridays" in text or fmt in ("slides-pdf", "handout", "pdf") or "Shipping" in text
    leaked = [secret for secret in SECRETS if secret in text]
    assert leaked == [], f"{fmt} publishes notes: {leaked}"


@pytest.mark.parametrize("fmt", formats_where(deck=True, printed=False))
def test_with_notes_on_every_note_reaches_the_deck(cli, tmp_path, fmt):
    """The control: the same talk with notes on carries every one of them."""
    note = tmp_path / "talk.md"
    note.write_text(TALK.replace("  notes: false\n", "  notes: true\n"), encoding="utf-8")
    out = tmp_path / f"talk.{fmt}"
    assert cli("render", str(note), "--to", fmt, "-o", str(out)).exit_code == 0
    text = visible_text(out.read_bytes(), fmt)
    if fmt == "outline":  # the plain outline lists slides, and marks which have notes
        assert re.search(r"notes", text)
        return
    assert [secret for secret in SECRETS if secret not in text] == []
