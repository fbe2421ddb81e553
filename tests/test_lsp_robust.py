"""confnotes lsp under stress: bad input, a failing request, 1,000 edits, settings and config changes."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from collections.abc import Callable
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

pytestmark = pytest.mark.asyncio(loop_scope="function")
SEED = ROOT / "notes" / "scale2025.md"


@pytest_lsp.fixture(config=server())
async def client(lsp_client: LanguageClient, tmp_path: Path):
    await start(lsp_client, root=tmp_path)
    yield
    await lsp_client.shutdown_session()


def doc(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)


async def still_serving(client: LanguageClient, tmp_path: Path) -> None:
    """After whatever came before, a fresh note gets its diagnostics and requests get answers."""
    note = tmp_path / "after.md"
    note.write_text("# After\n\n## Empty\n\n## Full\n\n- a point\n", encoding="utf-8")
    uri = open_note(client, note)
    found = await diagnostics(client, uri, 1)
    assert any(d.code == "CN104" for d in found)
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(doc(uri)))
    assert symbols


async def format_fails(client: LanguageClient, uri: str) -> None:
    with pytest.raises(JsonRpcException):
        await client.text_document_formatting_async(lsp.DocumentFormattingParams(doc(uri), lsp.FormattingOptions(2, True)))
    assert client.messages, "a refusal is also shown as a message"


# ---------------------------------------------------------------- bad input


async def test_invalid_utf8_is_a_diagnostic(client: LanguageClient, tmp_path: Path):
    """A lone surrogate (what an editor holds for a byte that is not UTF-8) is read as the CLI reads bad bytes."""
    note = tmp_path / "bad.md"
    note.write_text("x", encoding="utf-8")
    uri = open_note(client, note, "# Title\n\nsome text \udcff here\n")
    found = await diagnostics(client, uri, 1)
    assert [d.code for d in found] == ["input"]
    assert "not valid UTF-8 at line 3, column 11" in found[0].message
    await format_fails(client, uri)
    assert await client.text_document_hover_async(lsp.HoverParams(doc(uri), lsp.Position(0, 0))) is None
    await still_serving(client, tmp_path)


async def test_invalid_utf8_on_the_wire_leaves_the_server_up(client: LanguageClient, tmp_path: Path):
    """Bytes that are not UTF-8 inside a JSON-RPC message: the message is dropped, the server keeps serving."""
    body = b'{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///x.md",'
    body += b'"languageId":"markdown","version":1,"text":"\xff\xfe bad"}}}'
    assert client._server is not None and client._server.stdin is not None
    client._server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    await client._server.stdin.drain()
    await still_serving(client, tmp_path)


async def test_a_10_mb_note_is_not_checked_as_you_type(client: LanguageClient, tmp_path: Path):
    note = tmp_path / "huge.md"
    line = "- a point about scaling systems that goes on for a while, like notes do\n"
    text = "# Huge\n\n## Part\n\n" + line * (10_000_000 // len(line))
    note.write_text(text, encoding="utf-8")
    uri = open_note(client, note, text)
    found = await diagnostics(client, uri, 1)
    assert [d.code for d in found] == ["size"] and "MB" in found[0].message
    await format_fails(client, uri)
    assert await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(doc(uri))) == []
    await still_serving(client, tmp_path)


ALIAS_BOMB = """---
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
---

# Billion laughs
"""


async def test_a_yaml_alias_bomb_is_a_diagnostic(client: LanguageClient, tmp_path: Path):
    note = tmp_path / "bomb.md"
    note.write_text(ALIAS_BOMB, encoding="utf-8")
    uri = open_note(client, note)
    found = await diagnostics(client, uri, 1)
    assert [(d.code, d.range.start.line) for d in found] == [("input", 2)]
    assert "alias" in found[0].message
    await format_fails(client, uri)
    await still_serving(client, tmp_path)


async def test_a_config_that_does_not_parse_then_is_fixed(client: LanguageClient, tmp_path: Path):
    """A broken confnotes.toml is a diagnostic and a message; once fixed, it is read without a restart."""
    config = tmp_path / "confnotes.toml"
    config.write_text("[lint\nignore = [", encoding="utf-8")
    note = tmp_path / "n.md"
    note.write_bytes(SEED.read_bytes())
    uri = open_note(client, note)
    found = await diagnostics(client, uri, 1)
    assert [d.code for d in found] == ["config"] and "invalid TOML" in found[0].message
    assert any("confnotes.toml" in m.message and m.type == lsp.MessageType.Error for m in client.messages)
    await format_fails(client, uri)
    before = client.counts[uri]  # type: ignore[attr-defined]
    config.write_text('[lint]\nignore = ["stray-filename"]\n', encoding="utf-8")
    client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams([lsp.FileEvent(uri=config.as_uri(), type=lsp.FileChangeType.Changed)])
    )
    found = await diagnostics(client, uri, 1, after=before)
    assert {d.code for d in found} == {"CN110"}  # CN111 ignored by the new config, no config error
    assert any(r.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in client.registrations)  # type: ignore[attr-defined]


# ---------------------------------------------------------------- a request that raises

FAULTY = (
    "import confnotes.export as export\n"
    "def boom(doc):\n"
    "    raise RuntimeError('boom from a library function')\n"
    "export.to_dict = boom\n"
    "from confnotes.lsp.server import main\n"
    "main()\n"
)


@pytest_lsp.fixture(config=server(sys.executable, "-c", FAULTY))
async def faulty(lsp_client: LanguageClient, tmp_path: Path):
    await start(lsp_client, root=tmp_path)
    yield
    await lsp_client.shutdown_session()


async def test_a_request_that_raises_answers_an_error_and_the_server_stays(faulty: LanguageClient, tmp_path: Path):
    note = tmp_path / "n.md"
    note.write_bytes(SEED.read_bytes())
    uri = open_note(faulty, note)
    await diagnostics(faulty, uri, 1)
    with pytest.raises(JsonRpcException, match="boom"):
        await faulty.text_document_document_symbol_async(lsp.DocumentSymbolParams(doc(uri)))
    assert any("internal error in documentSymbol" in m.message for m in faulty.messages)
    hover = await faulty.text_document_hover_async(lsp.HoverParams(doc(uri), lsp.Position(2, 0)))
    assert hover is not None
    other = tmp_path / "other.md"
    other.write_text("# T\n\n## Empty\n", encoding="utf-8")
    found = await diagnostics(faulty, open_note(faulty, other), 1)
    assert [d.code for d in found] == ["CN104"]


# ---------------------------------------------------------------- 1,000 edits

PIECES = ["- ", "1. ", "## ", "\n", "\n\n", "word ", "é", "😀", "**", "[x](y.md)", "<!-- confnotes-disable CN201 -->", "\t", "---\n", "•"]


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def random_edit(rng: random.Random, text: str) -> tuple[lsp.Range, str, str]:
    """A random edit of ``text`` as an editor sends it (UTF-16 positions) and the text after it."""
    lines = text.split("\n")
    line = rng.randrange(len(lines))
    char = rng.randint(0, len(lines[line]))
    start = sum(len(part) + 1 for part in lines[:line]) + char
    end = min(len(text), start + rng.choice([0, 0, 1, 2, 5, 20]))
    new = rng.choice(PIECES) if rng.random() < 0.7 else ""
    end_line = text.count("\n", 0, end)
    end_char = end - (text.rfind("\n", 0, end) + 1)
    end_text = text.split("\n")[end_line]
    position_range = lsp.Range(lsp.Position(line, _utf16(lines[line][:char])), lsp.Position(end_line, _utf16(end_text[:end_char])))
    return position_range, new, text[:start] + new + text[end:]


async def test_1000_incremental_edits_end_with_a_fresh_lint(client: LanguageClient, cli, tmp_path: Path):
    note = tmp_path / "edited.md"
    text = read_client_text(SEED)
    note.write_text(text, encoding="utf-8")
    uri = open_note(client, note, text)
    await diagnostics(client, uri, 1)
    rng = random.Random(25)
    version = 1
    for _ in range(1000):
        edit_range, new, after = random_edit(rng, text)
        version += 1
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [lsp.TextDocumentContentChangePartial(range=edit_range, text=new)],
            )
        )
        assert apply_edits(text, [lsp.TextEdit(edit_range, new)]) == after
        text = after
        if rng.random() < 0.01:
            await asyncio.sleep(0.2)  # a pause in typing: diagnostics of an intermediate version
    found = await diagnostics(client, uri, version)
    note.write_text(text, encoding="utf-8")
    assert as_findings(text, found) == expected(lint_json(cli, note))
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(doc(uri)))
    assert isinstance(symbols, list)


# ---------------------------------------------------------------- settings


async def test_every_diagnostic_class_can_be_switched_off(client: LanguageClient, tmp_path: Path):
    note = tmp_path / "s.md"
    note.write_bytes(SEED.read_bytes())
    uri = open_note(client, note)
    found = await diagnostics(client, uri, 1)
    assert {d.code for d in found} == {"CN110", "CN111"}

    async def with_settings(settings: object) -> set[str]:
        before = client.counts[uri]  # type: ignore[attr-defined]
        client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings={"confnotes": settings}))
        return {str(d.code) for d in await diagnostics(client, uri, 1, after=before)}

    assert await with_settings({"diagnostics": {"info": False}}) == {"CN111"}
    assert await with_settings({"ignore": ["stray-filename"]}) == {"CN110"}
    assert await with_settings({"diagnostics": {"pasted": False}}) == set()
    assert await with_settings({"diagnostics": {"structure": False}}) == set()
    assert await with_settings({"diagnostics": False}) == set()
    assert await with_settings({}) == {"CN110", "CN111"}
    # the pull model (VS Code): the notification says "ask again", the answer has the settings
    client.set_configuration({"diagnostics": {"warning": False}}, section="confnotes")
    before = client.counts[uri]  # type: ignore[attr-defined]
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    assert {str(d.code) for d in await diagnostics(client, uri, 1, after=before)} == {"CN110"}


@pytest_lsp.fixture(config=server())
async def quiet(lsp_client: LanguageClient, tmp_path: Path):
    await start(lsp_client, options={"confnotes": {"diagnostics": {"read": False, "structure": False}}}, root=tmp_path)
    yield
    await lsp_client.shutdown_session()


async def test_settings_from_initialization_options(quiet: LanguageClient, tmp_path: Path):
    note = tmp_path / "q.md"
    note.write_text("# T\n\nsome text \udcff\n\n## Empty\n\n- [link](https://example.org)\n", encoding="utf-8", errors="surrogatepass")
    uri = open_note(quiet, note, "# T\n\n## Empty\n\nbad \udcff\n")
    assert await diagnostics(quiet, uri, 1) == []


async def test_a_request_with_unreadable_parameters_gets_an_error_answer(client: LanguageClient, tmp_path: Path):
    """pygls only logs parameters it cannot read; the server answers them, so the client does not wait for ever."""
    note = tmp_path / "p.md"
    note.write_text("# T\n", encoding="utf-8")
    uri = open_note(client, note)
    answer: asyncio.Future[object] = asyncio.get_running_loop().create_future()
    client.protocol._request_futures["unreadable-1"] = answer  # the answer to a request sent by hand
    body = json.dumps({"jsonrpc": "2.0", "id": "unreadable-1", "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}}})
    assert client._server is not None and client._server.stdin is not None
    client._server.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body.encode()))
    with pytest.raises(JsonRpcException, match="Invalid Params"):  # a hover needs a position
        await asyncio.wait_for(answer, 60)
    await still_serving(client, tmp_path)


async def test_excluded_notes_get_no_findings_but_still_format(client: LanguageClient, tmp_path: Path):
    """What `confnotes lint` skips when it walks the project, the editor does not check either."""
    (tmp_path / "confnotes.toml").write_text('[lint]\nexclude = ["drafts"]\n', encoding="utf-8")
    (tmp_path / "drafts").mkdir()
    draft = tmp_path / "drafts" / "draft.md"
    draft.write_text("# T  \n\n\n## Empty\n\n• a\n", encoding="utf-8")  # a paste: fmt tidies its lines
    uri = open_note(client, draft)
    assert await diagnostics(client, uri, 1) == []
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(doc(uri), lsp.FormattingOptions(2, True)))
    assert apply_edits(draft.read_text(encoding="utf-8"), list(edits or [])) == "# T\n\n## Empty\n\n• a\n"
    await still_serving(client, tmp_path)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
async def test_columns_in_the_position_encoding_the_client_chose(encoding: str, tmp_path: Path, processes):
    """pygls takes the client's preferred position encoding; columns after an emoji count in it."""
    from lsp_helpers import make_client

    client = make_client()
    await client.start_io(sys.executable, "-m", "confnotes", "lsp")
    try:
        params = lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(general=lsp.GeneralClientCapabilities(position_encodings=[encoding]))
        )
        result = await client.initialize_session(params)
        assert result.capabilities.position_encoding == encoding
        note = tmp_path / "enc.md"
        text = "# T\n\n## S\n\n- 😀 é **open bold\n- [](x.md) 😀 [x]()\n"
        note.write_text(text, encoding="utf-8")
        uri = open_note(client, note)
        found = {str(d.code): d.range.start.character for d in await diagnostics(client, uri, 1)}

        def units(prefix: str) -> int:
            return {"utf-8": len(prefix.encode()), "utf-16": len(prefix.encode("utf-16-le")) // 2, "utf-32": len(prefix)}[encoding]

        width = units("- [](x.md) 😀 ")
        assert found == {"CN206": units("- 😀 é "), "CN205": units("- "), "CN207": width}  # each at its characters
        # an edit after the emoji, in the same units, lands where it should
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
                [lsp.TextDocumentContentChangePartial(range=lsp.Range(lsp.Position(5, width), lsp.Position(5, width + 7)), text="")],
            )
        )
        assert {str(d.code) for d in await diagnostics(client, uri, 2)} == {"CN206", "CN205"}
        await client.shutdown_session()
    finally:
        server = getattr(client, "_server", None)
        if server is not None and server.returncode is None:
            server.kill()  # a failed check left the session open: stop() would wait for an exit that never comes
        await asyncio.wait_for(client.stop(), 120)


# ---------------------------------------------------------------- what a long session keeps


async def test_a_long_session_keeps_nothing_of_each_keystroke(tmp_path: Path):
    """pygls (2.1) files each notification's future under a made-up id that nothing removes; the
    server lets each go once it is handled, so a session of many edits and requests keeps none."""
    from confnotes.lsp.server import server as notes_server

    sent: list[bytes] = []

    class Writer:
        def write(self, data: bytes) -> None:
            sent.append(data)

        def close(self) -> None:
            pass

    protocol = notes_server.protocol
    protocol.set_writer(Writer(), include_headers=False)

    def send(method: str, params: dict, msg_id: int | None = None) -> None:
        message = {"jsonrpc": "2.0", "method": method, "params": params, **({"id": msg_id} if msg_id is not None else {})}
        protocol.handle_message(protocol.structure_message(message))

    send("initialize", {"capabilities": {}, "rootUri": tmp_path.as_uri()}, 1)
    send("initialized", {})
    uri = (tmp_path / "talk.md").as_uri()
    send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": "# Talk\n\n- a\n"}})
    for version in range(2, 202):
        change = {"range": {"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 2}}, "text": "x"}
        send("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        await asyncio.sleep(0)
        if version % 50 == 0:  # requests too: each answered, nothing of them kept
            send("textDocument/documentSymbol", {"textDocument": {"uri": uri}}, version)
    deadline = asyncio.get_running_loop().time() + 30  # the handlers' tasks run to their end, however busy the machine
    while protocol._request_futures and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
    assert notes_server.workspace.get_text_document(uri).source == "# Talk\n\n- " + "x" * 200 + "a\n"
    assert len(protocol._request_futures) == 0, f"{len(protocol._request_futures)} handlers' futures kept"
    answers = [json.loads(data) for data in sent]
    assert sorted(answer["id"] for answer in answers if "id" in answer) == [1, 50, 100, 150, 200]  # a result, or "content modified"
    for task in list(notes_server.timers.values()):
        task.cancel()


async def test_an_analysis_leaves_nothing_for_the_cycle_collector(tmp_path: Path):
    """Each analysis is freed as soon as the next replaces it: nothing of it is held in a reference
    cycle (a cycle held each note's outline, decks and timing until Python's cycle collector ran,
    and a server grew from 70 MB to 85 MB over 1,000 edits; now 55 MB to 57 MB)."""
    import gc

    from confnotes.lsp.analysis import analyse

    notes = [path for path in REALISTIC if path.stat().st_size < 200_000]
    for path in notes:  # modules, parsers and caches loaded first
        analyse(str(path), read_client_text(path))
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for path in notes:
            analyse(str(path), read_client_text(path) + "\n- one more point\n")
            # with the collector off, the analysis's objects are all young: collecting the young
            # generations finds every cycle among them without walking the whole (large) heap
            found = gc.collect(1)
            kinds = sorted({type(thing).__qualname__ for thing in gc.garbage})
            gc.garbage.clear()
            assert found == 0, f"{path.name}: {found} objects in cycles ({', '.join(kinds[:12])})"
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


async def test_a_note_whose_path_the_editor_percent_encodes_gets_its_diagnostics(client: LanguageClient, tmp_path: Path):
    """VS Code and Neovim send ``file:///…/my%20notes/…``: the server looked the note up under that
    form while pygls files it decoded, and such a note (one in five real ones) never got a finding."""
    folder = tmp_path / "my notes" / "SREcon – café"
    folder.mkdir(parents=True)
    note = folder / "O'Brien's talk.md"
    note.write_text("## Opening\n\n## Opening\n\n- the same heading twice\n", encoding="utf-8")
    uri = open_note(client, note)
    assert "%20" in uri and "%27" in uri and "%C3%A9" in uri  # as editors encode it
    first = await diagnostics(client, uri, 1)
    assert "CN103" in [d.code for d in first]
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [lsp.TextDocumentContentChangeWholeDocument(text="# O'Brien's talk\n\n## Opening\n\n- one heading now\n")],
        )
    )
    assert "CN103" not in [d.code for d in await diagnostics(client, uri, 2)]
    assert [published for published in client.diagnostics if "my notes" in published] == []  # only under the editor's URI


# ---------------------------------------------------------------- an editor that watches no files


@pytest_lsp.fixture(config=server())
async def neovim07(lsp_client: LanguageClient, tmp_path: Path):
    await start(lsp_client, "neovim@v0.7.0", root=tmp_path)
    yield
    await lsp_client.shutdown_session()


async def test_a_config_created_beside_the_note_is_read_without_an_edit(neovim07: LanguageClient, tmp_path: Path):
    """Neovim 0.7 registers no file watchers for servers: the server looks at the configs of the open
    notes' folders itself, so a confnotes.toml written (or changed) on disk re-checks the note at once."""
    client = neovim07
    assert not client.registrations  # type: ignore[attr-defined]
    notes = tmp_path / "day 1"
    notes.mkdir()
    note = notes / "n.md"
    note.write_bytes(SEED.read_bytes())
    uri = open_note(client, note)
    assert {d.code for d in await diagnostics(client, uri, 1)} == {"CN110", "CN111"}
    before = client.counts[uri]  # type: ignore[attr-defined]
    (tmp_path / "confnotes.toml").write_text('[lint]\nignore = ["stray-filename"]\n', encoding="utf-8")
    assert {d.code for d in await diagnostics(client, uri, 1, after=before)} == {"CN110"}
    before = client.counts[uri]  # type: ignore[attr-defined]
    (tmp_path / "confnotes.toml").write_text('[lint]\nignore = ["stray-filename", "pasted-structure"]\n', encoding="utf-8")
    assert await diagnostics(client, uri, 1, after=before) == []


# ---------------------------------------------------------------- when findings are shown


async def _type(client: LanguageClient, uri: str, keys: int, where: Callable[[int], lsp.Position], pause: float) -> tuple[int, int]:
    """Type one letter ``keys`` times, ``pause`` seconds apart, at ``where(letters typed so far)``:
    how many publications came while typing, and the last version sent."""
    before = client.counts[uri]  # type: ignore[attr-defined]
    version = 1
    for typed in range(keys):
        version += 1
        at = where(typed)
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [lsp.TextDocumentContentChangePartial(range=lsp.Range(at, at), text="e")],
            )
        )
        await asyncio.sleep(pause)
    return client.counts[uri] - before, version  # type: ignore[attr-defined]


async def test_typing_steadily_still_shows_findings_every_half_second(client: LanguageClient, tmp_path: Path):
    """A change every 100 ms for four seconds never leaves a pause of ``debounceMs`` (150 ms): the
    findings were not shown until typing stopped; they are now shown as typing goes on."""
    note = tmp_path / "typed.md"
    text = "# Typed\n\n## Points\n\n1. one\n3. three\n"
    uri = open_note(client, note, text)
    await diagnostics(client, uri, 1)
    end = lsp.Position(line=5, character=len(text.split("\n")[5]))
    during, version = await _type(client, uri, 40, lambda typed: lsp.Position(end.line, end.character + typed), 0.1)
    found = await diagnostics(client, uri, version)
    assert during >= 2, f"{during} publications in four seconds of typing"
    assert [d.code for d in found] == ["CN105"]


async def test_typing_faster_than_an_analysis_still_shows_findings(client: LanguageClient, tmp_path: Path):
    """A change every 30 ms on a 2,000-line talk, whose analysis takes longer than that: each change
    dropped the analysis of the one before, so nothing was shown until typing stopped. Findings of a
    version typing has gone past are shown now, at most half a second after the last ones went stale."""
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    from lsp_server import talk_note

    note = tmp_path / "long.md"
    text = talk_note(2000)
    uri = open_note(client, note, text)
    await diagnostics(client, uri, 1)
    during, version = await _type(client, uri, 100, lambda _typed: lsp.Position(10, 0), 0.03)
    await diagnostics(client, uri, version)
    assert during >= 2, f"{during} publications in three seconds of typing"


@pytest.mark.parametrize("folder", ["my notes", "O'Brien's talks", "SREcon – café", "東京 ノート", "🚀 launch week", "100% done #1"])
async def test_notes_under_any_folder_name_get_the_findings_lint_gives(client: LanguageClient, cli, tmp_path: Path, folder: str):
    """Spaces, apostrophes, accents, CJK, emoji, ``%`` and ``#`` in the path, as editors percent-encode
    them: the note gets exactly the findings ``confnotes lint`` gives it."""
    place = tmp_path / folder / "day 1"
    place.mkdir(parents=True)
    note = place / f"{folder.split()[0]} notes.md"
    text = read_client_text(SEED)
    note.write_text(text, encoding="utf-8")
    uri = open_note(client, note, text)
    assert " " not in uri and all(ord(char) < 128 for char in uri)  # percent-encoded, as VS Code and Neovim send it
    found = await diagnostics(client, uri, 1)
    assert as_findings(text, found) == expected(lint_json(cli, note)) and found
