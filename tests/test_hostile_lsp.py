"""A hostile workspace in an editor: the language server reads only the notes the editor opened, and
only notes inside the workspace — never a device, a FIFO, or a file a link in the workspace points
out to. Each test fails before its fix (a request that read ``file:///dev/zero`` grew without bound;
one on a FIFO wedged the server; ``workspace/symbol`` followed links out)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from lsp_helpers import PATIENCE, diagnostics, open_note, server, start

pytestmark = [
    pytest.mark.asyncio(loop_scope="function"),
    pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/zero are POSIX"),
]


@pytest_lsp.fixture(config=server())
async def client(lsp_client: LanguageClient, tmp_path: Path):
    await start(lsp_client, root=tmp_path)
    yield
    await lsp_client.shutdown_session()


async def still_serving(client: LanguageClient, tmp_path: Path) -> None:
    note = tmp_path / "after.md"
    note.write_text("# After\n\n## Empty\n\n## Full\n\n- a point\n", encoding="utf-8")
    uri = open_note(client, note)
    assert any(d.code == "CN104" for d in await diagnostics(client, uri, 1))


async def refused(request: asyncio.Future) -> str:
    """The request gets an error answer — promptly: it never reads what it names."""
    with pytest.raises(JsonRpcException) as raised:
        await asyncio.wait_for(request, PATIENCE)
    return str(raised.value)


async def test_a_command_on_dev_zero_is_refused_without_reading_it(client: LanguageClient, tmp_path: Path):
    message = await refused(
        client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="confnotes.showTiming", arguments=["file:///dev/zero"]))
    )
    assert "not open in the editor" in message
    await still_serving(client, tmp_path)


@pytest.mark.parametrize("method", ["hover", "symbols", "completion", "formatting"])
async def test_requests_on_a_fifo_that_was_never_opened_are_refused(client: LanguageClient, tmp_path: Path, method: str):
    fifo = tmp_path / "wedge.md"
    os.mkfifo(fifo)
    ident = lsp.TextDocumentIdentifier(uri=fifo.as_uri())
    position = lsp.Position(0, 0)
    request = {
        "hover": lambda: client.text_document_hover_async(lsp.HoverParams(ident, position)),
        "symbols": lambda: client.text_document_document_symbol_async(lsp.DocumentSymbolParams(ident)),
        "completion": lambda: client.text_document_completion_async(lsp.CompletionParams(ident, position)),
        "formatting": lambda: client.text_document_formatting_async(lsp.DocumentFormattingParams(ident, lsp.FormattingOptions(2, True))),
    }[method]()
    assert "not open in the editor" in await refused(request)
    await still_serving(client, tmp_path)


async def test_workspace_symbols_do_not_follow_links_out_of_the_workspace(client: LanguageClient, tmp_path: Path):
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n\n## Private Keys Here\n\n- a point\n", encoding="utf-8")
    (tmp_path / "inside.md").write_text("# Inside\n\n## Public Keys Talk\n\n- a point\n", encoding="utf-8")
    (tmp_path / "linked.md").symlink_to(outside / "secret.md")
    (tmp_path / "fifo.md").unlink(missing_ok=True)
    os.mkfifo(tmp_path / "fifo.md")  # a FIFO in the workspace is skipped, not waited on
    found = await asyncio.wait_for(client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="Keys")), PATIENCE)
    names = {symbol.name for symbol in found or []}
    assert "Public Keys Talk" in names
    assert "Private Keys Here" not in names
