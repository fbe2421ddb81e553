"""The editor's live preview: ``confnotes.preview`` (a command and a code lens on the title) opens the
note's deck from ``confnotes serve NOTE`` in the browser, and the deck follows the cursor — through
``textDocument/documentHighlight`` (what VS Code asks as the cursor moves) and ``confnotes/cursor``.
Driven as an editor would: a language client and headless Chromium, on loopback only."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from lsp_helpers import PATIENCE, open_note, server, start

pytestmark = pytest.mark.asyncio(loop_scope="function")

TALK = """---
title: Error budgets that people use
duration: 20min
---

# Error budgets that people use

Speaker : Nadia Okafor

## Why budgets fail

- product never agreed to them
- nobody stops shipping at 100%

## A policy is a contract

1. what happens at 50% burn
2. what happens at 75% burn
   - feature freeze, reliability work first

```yaml
policy:
  freeze_at: 100
```

## Burn-rate alerts

- two windows: 1 h and 6 h
- they replaced the latency pages

## Takeaways

- agree on the policy before the first incident
"""


@pytest_lsp.fixture(config=server())
async def client(lsp_client: LanguageClient, tmp_path: Path):
    # pytest-lsp's client answers window/showDocument and keeps each in shown_documents
    await start(lsp_client, root=tmp_path)
    yield
    await lsp_client.shutdown_session()


def _line_of(text: str, heading: str) -> int:
    return text.split("\n").index(heading)


async def test_the_preview_opens_the_deck_and_follows_the_cursor(client: LanguageClient, tmp_path: Path, chromium: str):
    from playwright.async_api import async_playwright

    note = tmp_path / "error budgets.md"  # a space in the path: the address is percent-encoded
    note.write_text(TALK, encoding="utf-8")
    uri = open_note(client, note)
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(lsp.TextDocumentIdentifier(uri)))
    (lens,) = [lens for lens in lenses or [] if lens.command and lens.command.command == "confnotes.preview"]
    assert lens.range.start.line == _line_of(TALK, "# Error budgets that people use")  # over the title
    assert lens.command is not None
    await asyncio.wait_for(
        client.workspace_execute_command_async(lsp.ExecuteCommandParams(command=lens.command.command, arguments=lens.command.arguments)),
        PATIENCE,
    )
    (shown,) = client.shown_documents  # type: ignore[attr-defined]
    assert shown.external and re.fullmatch(r"http://127\.0\.0\.1:\d+/error%20budgets\.slides\.html", shown.uri)

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"])
        page = await browser.new_page(viewport={"width": 1280, "height": 720})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(shown.uri)
        await page.locator(".slide.active, .slide[aria-current], #slide-1").first.wait_for(state="visible", timeout=PATIENCE * 1000)

        async def cursor_to(line: int, how: str) -> str:
            document = lsp.TextDocumentIdentifier(uri)
            if how == "highlight":
                await client.text_document_document_highlight_async(lsp.DocumentHighlightParams(document, lsp.Position(line, 2)))
            else:
                client.protocol.notify("confnotes/cursor", {"textDocument": {"uri": uri}, "position": {"line": line, "character": 0}})
            return line

        # the cursor in a list under "Burn-rate alerts": the deck shows that section's slide
        await cursor_to(_line_of(TALK, "- they replaced the latency pages"), "highlight")
        burn = page.locator("section.slide:not(.kind-agenda)", has=page.get_by_role("heading", name="Burn-rate alerts")).first
        await burn.wait_for(state="visible", timeout=PATIENCE * 1000)
        number = await burn.get_attribute("data-index")
        await page.wait_for_function(f"location.hash === '#{number}'", timeout=PATIENCE * 1000)
        # up to the first point of "A policy is a contract", told by the editor's own notification
        await cursor_to(_line_of(TALK, "1. what happens at 50% burn"), "notify")
        policy = page.locator("section.slide:not(.kind-agenda)", has=page.get_by_role("heading", name="A policy is a contract")).first
        await policy.wait_for(state="visible", timeout=PATIENCE * 1000)
        assert not await burn.is_visible()
        # above the first section: the title slide
        await cursor_to(_line_of(TALK, "Speaker : Nadia Okafor"), "highlight")
        await page.wait_for_function("location.hash === '#1'", timeout=PATIENCE * 1000)
        assert await page.locator("#slide-1").is_visible()
        assert errors == []
        await browser.close()


async def test_a_note_not_saved_gets_a_message_not_a_preview(client: LanguageClient, tmp_path: Path):
    uri = (tmp_path / "never saved.md").as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "markdown", 1, TALK)))
    await client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="confnotes.preview", arguments=[uri]))
    assert client.shown_documents == []  # type: ignore[attr-defined]
    assert any("save the note first" in message.message for message in client.messages)


async def test_the_preview_shows_unsaved_edits_and_the_cursor_lands_on_its_slide(client: LanguageClient, tmp_path: Path, chromium: str):
    """The deck is built from the text the editor holds: a section added above the cursor and not
    saved is in the deck, and the cursor below it lands on its own slide, not the one before."""
    from playwright.async_api import async_playwright

    note = tmp_path / "budgets.md"
    note.write_text(TALK, encoding="utf-8")
    uri = open_note(client, note)
    opening = client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="confnotes.preview", arguments=[uri]))
    await asyncio.wait_for(opening, PATIENCE)
    (shown,) = client.shown_documents  # type: ignore[attr-defined]
    edited = TALK.replace("## Why budgets fail", "## Who owns the budget\n\n- the product team, with SRE\n\n## Why budgets fail")

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"])
        page = await browser.new_page(viewport={"width": 1280, "height": 720})
        await page.goto(shown.uri)
        await page.locator("#slide-1").wait_for(state="visible", timeout=PATIENCE * 1000)
        owner = page.locator("section.slide h2", has_text="Who owns the budget")  # hidden until shown: not by role
        assert await owner.count() == 0
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=2), [lsp.TextDocumentContentChangeWholeDocument(text=edited)]
            )
        )
        # at once, before the edit is read or built: the cursor in the list under "Burn-rate alerts"
        line = _line_of(edited, "- they replaced the latency pages")
        client.protocol.notify("confnotes/cursor", {"textDocument": {"uri": uri}, "position": {"line": line, "character": 0}})
        await owner.first.wait_for(state="attached", timeout=PATIENCE * 1000)  # the unsaved section is in the deck
        burn = page.locator("section.slide:not(.kind-agenda)", has=page.get_by_role("heading", name="Burn-rate alerts")).first
        await burn.wait_for(state="visible", timeout=PATIENCE * 1000)
        number = await burn.get_attribute("data-index")
        await page.wait_for_function(f"location.hash === '#{number}'", timeout=PATIENCE * 1000)
        await browser.close()
    assert note.read_text(encoding="utf-8") == TALK  # the preview never saves the note
