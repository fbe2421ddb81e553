"""confnotes lsp end to end over stdio (pytest-lsp): what the editor shows is what the CLI says."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from lsp_helpers import (
    REALISTIC,
    ROOT,
    apply_edits,
    as_findings,
    diagnostics,
    expected,
    lint_json,
    open_note,
    read_client_text,
    server,
    start,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(config=server(), scope="module")
async def client(lsp_client: LanguageClient):
    await start(lsp_client, root=ROOT)
    yield
    await lsp_client.shutdown_session()


def doc(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)


def name_of(path: Path) -> str:
    return str(path.relative_to(ROOT))


async def test_initialize_announces_the_features(client: LanguageClient):
    result: lsp.InitializeResult = client.initialize_result  # type: ignore[attr-defined]
    caps = result.capabilities
    assert result.server_info is not None and result.server_info.name == "confnotes"
    assert caps.text_document_sync is not None
    assert caps.document_formatting_provider and caps.document_symbol_provider and caps.folding_range_provider
    assert caps.workspace_symbol_provider and caps.hover_provider and caps.document_link_provider
    assert caps.code_lens_provider is not None and caps.completion_provider is not None
    assert caps.code_action_provider is not None
    kinds = caps.code_action_provider.code_action_kinds  # type: ignore[union-attr]
    assert "quickfix" in kinds and "source.fixAll.confnotes" in kinds
    assert caps.execute_command_provider is not None and "confnotes.showTiming" in caps.execute_command_provider.commands


@pytest.mark.parametrize("path", REALISTIC, ids=name_of)
async def test_diagnostics_are_lint_json(client: LanguageClient, cli, path: Path):
    uri = open_note(client, path)
    found = await diagnostics(client, uri, 1)
    assert as_findings(read_client_text(path), found) == expected(lint_json(cli, path))
    for diagnostic in found:
        assert diagnostic.source == "confnotes"
        assert diagnostic.code_description is not None and diagnostic.code_description.href.endswith(
            f"#{str(diagnostic.code).lower()}-{diagnostic.data['name']}"
        )
        assert f"({diagnostic.data['name']})" in diagnostic.message


async def _resolved(client: LanguageClient, action: lsp.CodeAction) -> lsp.CodeAction:
    return action if action.edit is not None else await client.code_action_resolve_async(action)


FIXABLE = [path for path in REALISTIC if path.name != "empty.md"]


@pytest.mark.parametrize("path", FIXABLE, ids=name_of)
async def test_fix_all_is_lint_fix(client: LanguageClient, cli, path: Path, tmp_path: Path):
    uri = open_note(client, path)
    text = read_client_text(path)
    await diagnostics(client, uri, 1)
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            doc(uri), lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), lsp.CodeActionContext([], only=["source.fixAll.confnotes"])
        )
    )
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    cli("lint", "--fix", "--no-cache", "--exit-zero", str(copy))
    want = read_client_text(copy)
    if not actions:
        assert want == text
        return
    (action,) = actions
    action = await _resolved(client, action)
    assert action.edit is not None and action.edit.changes is not None
    assert apply_edits(text, list(action.edit.changes[uri])) == want


@pytest.mark.parametrize("path", FIXABLE, ids=name_of)
async def test_each_quick_fix_is_the_findings_fix(client: LanguageClient, path: Path):
    """A finding's own fix removes that finding and applies only its edits (the engine's edits)."""
    uri = open_note(client, path)
    text = read_client_text(path)
    found = await diagnostics(client, uri, 1)
    fixable = [d for d in found if d.data and d.data.get("fixable")]
    for diagnostic in fixable[:3]:
        actions = await client.text_document_code_action_async(
            lsp.CodeActionParams(doc(uri), diagnostic.range, lsp.CodeActionContext([diagnostic], only=["quickfix"]))
        )
        fixes = [a for a in actions if a.is_preferred and a.title.endswith(f"({diagnostic.code})")]
        if not fixes:  # a fix computed only when fixing that finds nothing to do (fmt refuses, or agrees)
            assert diagnostic.code == "CN110"
            continue
        assert fixes[0].edit is not None and fixes[0].edit.changes is not None
        assert apply_edits(text, list(fixes[0].edit.changes[uri])) != text


@pytest.mark.parametrize("path", REALISTIC, ids=name_of)
async def test_formatting_is_fmt(client: LanguageClient, cli, path: Path, tmp_path: Path):
    uri = open_note(client, path)
    text = read_client_text(path)
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    result = cli("fmt", str(copy))
    params = lsp.DocumentFormattingParams(doc(uri), lsp.FormattingOptions(tab_size=2, insert_spaces=True))
    if result.exit_code != 0:  # fmt refuses: an error answer and a message, never a half-formatted buffer
        with pytest.raises(JsonRpcException):
            await client.text_document_formatting_async(params)
        assert client.messages and path.name in client.messages[-1].message
        return
    edits = await client.text_document_formatting_async(params)
    assert apply_edits(text, list(edits or [])) == read_client_text(copy)


def _outline_nodes(content: list[dict], depth: int = 0, kinds: bool = False) -> list[tuple]:
    out: list[tuple] = []
    for entry in content:
        if entry["kind"] == "list":
            out += _outline_nodes(entry["items"], depth, kinds)
        elif entry["kind"] in ("section", "item"):
            title = " ".join(entry["title"].split()) or "(untitled)"
            out.append((depth, title, entry["span"][0], entry["span"][1], *((entry["kind"],) if kinds else ())))
            out += _outline_nodes(entry["content"], depth + 1, kinds)
    return out


def _symbol_nodes(symbols: list[lsp.DocumentSymbol], depth: int = 0) -> list[tuple[int, str, int, int]]:
    out = []
    for symbol in symbols:
        out.append((depth, symbol.name, symbol.range.start.line + 1, symbol.range.end.line + 1))
        out += _symbol_nodes(list(symbol.children or []), depth + 1)
    return out


@pytest.mark.parametrize("path", REALISTIC, ids=name_of)
async def test_document_symbols_are_the_outline(client: LanguageClient, cli, path: Path):
    uri = open_note(client, path)
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(doc(uri)))
    outline = json.loads(cli("outline", "--format", "json", str(path)).stdout)
    assert _symbol_nodes(list(symbols or [])) == _outline_nodes(outline["content"])  # type: ignore[arg-type]
    folds = await client.text_document_folding_range_async(lsp.FoldingRangeParams(doc(uri)))
    sections = {
        (start, end) for _, _, start, end, kind in _outline_nodes(outline["content"], kinds=True) if kind == "section" and end > start
    }
    assert {(fold.start_line + 1, fold.end_line + 1) for fold in folds or []} >= sections


TALK = """---
title: Postgres at 100k QPS
duration: 20min
---

## Connection pooling

<!-- time: 4min -->

- PgBouncer in transaction mode in front of every database
- Prepared statements finally work with it since 1.21

## Replication

- Logical replication for zero-downtime major upgrades
- Watch replication slot lag, it fills disks silently
"""


async def test_code_lens_and_hover_show_the_talk_clock(client: LanguageClient, cli, tmp_path: Path):
    note = tmp_path / "talk.md"
    note.write_text(TALK, encoding="utf-8")
    uri = open_note(client, note)
    await diagnostics(client, uri, 1)
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(doc(uri)))
    titles = {lens.range.start.line: lens.command.title for lens in lenses or [] if lens.command}
    table = cli("time", str(note)).stdout
    total = re.search(r"About (\d+:\d\d) of a 20:00 slot", table).group(1)  # type: ignore[union-attr]
    assert titles[0].startswith(f"{total} of a 20:00 slot")
    row = next(line for line in table.splitlines() if line.startswith("Connection pooling"))
    assert titles[5].startswith("≈ ") and titles[5].endswith(" of 4:00") and titles[5].split()[1] in row
    assert titles[12].startswith("≈ ")
    hover = await client.text_document_hover_async(lsp.HoverParams(doc(uri), lsp.Position(5, 4)))
    assert hover is not None and "Connection pooling" in hover.contents.value and "slide" in hover.contents.value  # type: ignore[union-attr]
    assert "Budget 4:00" in hover.contents.value  # type: ignore[union-attr]


async def test_hover_on_a_finding_is_the_rules_documentation(client: LanguageClient):
    path = ROOT / "notes" / "scale2025.md"
    uri = open_note(client, path)
    found = await diagnostics(client, uri, 1)
    first = found[0]
    hover = await client.text_document_hover_async(lsp.HoverParams(doc(uri), first.range.start))
    assert hover is not None
    assert f"## {first.code} {first.data['name']}" in hover.contents.value  # type: ignore[union-attr]


async def test_completion_of_front_matter_and_directives(client: LanguageClient, tmp_path: Path):
    note = tmp_path / "c.md"
    text = "---\ntitle: x\nki\nkind: \nslides:\n  w\n---\n\n# T\n\n<!-- confnotes-disable \n"
    text += "\n<!-- slide class: invert; lay\n<!-- slide layout: \n"
    note.write_text(text, encoding="utf-8")
    uri = open_note(client, note, text)

    async def labels(line: int, character: int) -> set[str]:
        answer = await client.text_document_completion_async(lsp.CompletionParams(doc(uri), lsp.Position(line, character)))
        items = answer.items if isinstance(answer, lsp.CompletionList) else answer or []
        return {item.label for item in items}

    assert {"kind", "duration", "speakers", "slides"} <= await labels(2, 2)
    assert {"notes", "talk", "reading-list"} <= await labels(3, 6)
    assert {"wpm", "max_items", "slide_seconds"} <= await labels(5, 3)
    assert {"CN104", "empty-section"} <= await labels(10, 23)
    assert {"layout", "background", "notes", "hide", "incremental"} <= await labels(12, 30)  # after a ';': the next key
    assert {"two-column", "image-left", "full-image", "big-number"} <= await labels(13, 19)
    assert "steps" in await labels(5, 3)  # slides.steps, for the slides PDF
    assert await labels(8, 3) == set()


async def test_document_links_for_relative_links_and_images(client: LanguageClient, tmp_path: Path):
    (tmp_path / "arch.png").write_bytes(b"png")
    (tmp_path / "other.md").write_text("# Other\n", encoding="utf-8")
    text = "# T\n\n![arch](arch.png) and [other](other.md) and [gone](gone.md) and [web](https://example.org)\n"
    note = tmp_path / "links.md"
    note.write_text(text, encoding="utf-8")
    uri = open_note(client, note, text)
    links = await client.text_document_document_link_async(lsp.DocumentLinkParams(doc(uri)))
    targets = {link.target: (link.range.start.character, link.range.end.character) for link in links or []}
    assert targets == {(tmp_path / "arch.png").resolve().as_uri(): (8, 16), (tmp_path / "other.md").resolve().as_uri(): (30, 38)}


async def test_workspace_symbols_across_the_notes_folder(client: LanguageClient):
    found = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="Core Principles"))
    names = {(symbol.name, Path(symbol.location.uri).name) for symbol in found or []}  # type: ignore[union-attr]
    assert ("Core Principles for Scaling Systems", "scale2025.md") in names


async def test_show_timing_command_answers(client: LanguageClient, tmp_path: Path):
    note = tmp_path / "talk2.md"
    note.write_text(TALK, encoding="utf-8")
    uri = open_note(client, note)
    await client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="confnotes.showTiming", arguments=[uri]))
    assert any("Connection pooling" in message.message for message in client.messages)


async def test_disable_on_this_line_inserts_the_directive(client: LanguageClient, tmp_path: Path):
    note = tmp_path / "d.md"
    text = "# T\n\n## Empty\n\n## Full\n\n- a point\n"
    note.write_text(text, encoding="utf-8")
    uri = open_note(client, note)
    (finding,) = await diagnostics(client, uri, 1)
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(doc(uri), finding.range, lsp.CodeActionContext([finding], only=["quickfix"]))
    )
    (disable,) = [a for a in actions or [] if a.title.startswith("Disable CN104")]  # type: ignore[union-attr]
    disable = await _resolved(client, disable)
    assert disable.edit is not None and disable.edit.changes is not None
    new_text = apply_edits(text, list(disable.edit.changes[uri]))
    assert new_text == "# T\n\n<!-- confnotes-disable-next-line CN104 -->\n## Empty\n\n## Full\n\n- a point\n"
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=2), [lsp.TextDocumentContentChangeWholeDocument(text=new_text)]
        )
    )
    assert await diagnostics(client, uri, 2) == []


@pytest_lsp.fixture(config=server(), scope="module")
async def pulling(lsp_client: LanguageClient):
    """An editor that asks for findings (LSP 3.17 pull; Neovim 0.10 advertises it)."""
    await start(lsp_client, spec="neovim", root=ROOT)
    yield
    await lsp_client.shutdown_session()


PULLED = REALISTIC[:4]


@pytest.mark.parametrize("path", PULLED, ids=name_of)
async def test_pulled_diagnostics_are_lint_json_and_none_are_pushed(pulling: LanguageClient, cli, path: Path):
    """The server offered only pushed findings; an editor that pulls them asked and got nothing.
    Pulled findings equal lint's, and an editor that pulls gets none pushed beside (no finding twice)."""
    assert pulling.initialize_result.capabilities.diagnostic_provider is not None  # type: ignore[attr-defined]
    uri = open_note(pulling, path)
    report = await pulling.text_document_diagnostic_async(lsp.DocumentDiagnosticParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    assert isinstance(report, lsp.RelatedFullDocumentDiagnosticReport)
    assert as_findings(read_client_text(path), report.items) == expected(lint_json(cli, path))
    await pulling.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri=uri), lsp.Position(0, 0)))  # a round trip
    assert uri not in pulling.diagnostics
