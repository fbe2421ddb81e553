"""When the language server starts an analysis and shows its findings (``publish_times``)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("now", "stale_since", "took", "start", "show"),
    [
        (10.0, 10.0, 0.06, 10.09, 10.15),  # a pause: shown after the debounce, started as long before as the last one took
        (10.0, 10.0, 0.0, 10.15, 10.15),  # nothing measured yet: started after the debounce
        (10.0, 10.0, 0.4, 10.0, 10.15),  # an analysis longer than the debounce: started at once
        (10.0, 9.6, 0.06, 10.04, 10.1),  # steady typing: shown half a second after they went stale
        (10.0, 9.0, 0.06, 10.0, 10.0),  # stale for longer: started and shown at once
    ],
)
def test_when_an_analysis_starts_and_its_findings_are_shown(now, stale_since, took, start, show):
    from confnotes.lsp.server import publish_times

    assert publish_times(now, stale_since, 0.15, took) == pytest.approx((start, show))


@pytest.mark.parametrize(
    ("now", "took", "due"),
    [
        (10.5, (), True),  # nothing measured yet: half a second after they went stale
        (10.49, (), False),
        (10.32, (0.1, 0.15), True),  # analyses take 0.15 s: started 0.19 s early, shown at 10.5, not 10.65
        (10.30, (0.1, 0.15), False),
        (10.25, (2.0,), True),  # a slow machine: at most a quarter of a second early
        (10.24, (2.0,), False),
    ],
)
def test_steady_typing_starts_the_due_analysis_as_early_as_it_takes(now, took, due):
    """Typing on without a pause: findings stale since 10.0 are due at 10.5. The analysis that shows
    them started at 10.5, so they came an analysis late (0.6-0.7 s on a 5,000-line talk)."""
    from confnotes.lsp.core import steady_due

    assert steady_due(now, 10.0, took) is due


@pytest.mark.asyncio(loop_scope="function")
async def test_a_due_analysis_of_a_closed_note_never_reaches_it_reopened(monkeypatch, tmp_path):
    """Typing steadily, then closing the note while its due analysis runs, then opening it again:
    the closed text's findings (its version 3 or so) were shown on the reopened note, whose
    versions start again at 1."""
    import asyncio
    import json
    import threading

    from lsprotocol import types as lsp
    from pygls.workspace import Workspace

    import confnotes.lsp.core as server
    from confnotes.lsp import documents
    from confnotes.lsp.analysis import Analysis

    gate, started = threading.Event(), threading.Event()

    def analyse(path, source, version, root, max_bytes):
        if version > 1 and not gate.is_set():  # the due run: held until the note is closed and reopened
            started.set()
            gate.wait(5)
        return Analysis(path, version, source)

    monkeypatch.setattr(server, "analyse", analyse)
    monkeypatch.setattr(server.features, "diagnostics", lambda *_: [])

    class Server(server.NotesServer):
        encoding = "utf-16"
        pulls = False

    ls = Server()
    ls.protocol._workspace = Workspace(None)
    sent: list[int | None] = []
    ls.text_document_publish_diagnostics = lambda params: sent.append(params.version)  # the close's empty findings
    ls.protocol.send_serialised = lambda body: sent.append(json.loads(body)["params"].get("version"))  # findings, made in the worker
    uri = (tmp_path / "n.md").as_uri()

    def opened(version: int, text: str) -> None:
        ls.workspace.put_text_document(lsp.TextDocumentItem(uri=uri, language_id="markdown", version=version, text=text))

    opened(1, "# old\n")
    documents.did_open(ls, lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri=uri, language_id="markdown", version=1, text="# old\n")))
    await asyncio.sleep(0.05)
    version = 1
    while uri not in ls.due:  # a change every 30 ms until a publication falls due
        version += 1
        opened(version, f"# old {version}\n")
        ls.changed(uri)
        await asyncio.sleep(0.03)
    await asyncio.to_thread(started.wait, 5)
    ls.workspace.remove_text_document(uri)
    documents.did_close(ls, lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri=uri)))
    opened(1, "# reopened\n")
    documents.did_open(
        ls, lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri=uri, language_id="markdown", version=1, text="# reopened\n"))
    )
    gate.set()

    # wait for the reopened note's publication however busy the machine (a fixed 0.3 s wait failed
    # under load), then for every analysis queued before it, so a late wrong one would show
    async def reopened_published() -> None:
        while None not in sent or not sent[sent.index(None) + 1 :]:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(reopened_published(), 30)  # a guard against a hang, not a bound on speed
    await asyncio.wrap_future(ls.worker.submit(lambda: None))  # one worker: what was queued has run
    for task in [*ls.timers.values(), *ls.due.values()]:
        if not task.done():
            await asyncio.wait([task], timeout=30)
    await asyncio.sleep(0)
    assert sent[sent.index(None) + 1 :] == [1], sent  # after the close's empty publication: the reopened note's alone


def _server():
    from pygls.workspace import Workspace

    import confnotes.lsp.core as core

    class Server(core.NotesServer):
        encoding = "utf-16"
        pulls = False

    ls = Server()
    ls.protocol._workspace = Workspace(None)
    return ls


def test_findings_are_serialised_in_the_worker_and_only_written_when_due(tmp_path):
    """The worker that reads the note also makes the findings' notification (diagnostics and JSON):
    publishing them cost the event loop 2.4-6.6 ms a key on a 2,000-line talk. What is written is what
    pygls would have written, and a notification made under settings since changed is made again."""
    import dataclasses
    import json

    from lsprotocol import types as lsp

    from confnotes.lsp import features

    ls = _server()
    note = tmp_path / "talk.md"
    text = "# Talk\n\n## Empty\n\n## Points\n\n1. one\n1. two\n"
    uri = note.as_uri()
    analysis = ls._timed(uri, (str(note), text, 4, str(tmp_path), 0), ls.options, ls.encoding)
    assert analysis.findings and analysis.message is not None
    written: list[str] = []
    notified: list[lsp.PublishDiagnosticsParams] = []
    ls.protocol.send_serialised = written.append
    ls.protocol.notify = lambda _method, params: notified.append(params)
    ls.publish(uri, analysis)
    expected = lsp.PublishDiagnosticsNotification(lsp.PublishDiagnosticsParams(uri, features.diagnostics(analysis, ls.options), 4))
    assert [json.loads(body) for body in written] == [json.loads(json.dumps(ls.protocol._converter.unstructure(expected)))]
    assert not notified and ls.published[uri] == 4

    ls.options = dataclasses.replace(ls.options, diagnostics=False)  # switched off after the reading
    ls.publish(uri, analysis)
    assert len(written) == 1 and [params.diagnostics for params in notified] == [[]]


@pytest.mark.asyncio(loop_scope="function")
async def test_the_pause_is_counted_from_the_change_s_arrival():
    """pygls structures a change and applies it to the document before the server hears of it; the
    debounce counted from then, not from when the key came in."""
    import asyncio

    ls = _server()
    loop = asyncio.get_running_loop()
    ls.options = ls.options.__class__(debounce_ms=150)
    uri = "file:///talk.md"
    ls.protocol.arrived = arrived = loop.time() - 0.02  # the change came in 20 ms ago
    shows: list[float] = []

    async def after(uri: str, delay: float, show: float) -> None:
        shows.append(show)

    ls._publish_after = after
    ls.changed(uri)
    await asyncio.sleep(0)
    assert shows == [pytest.approx(arrived + 0.15)]

    message = ls.protocol.structure_message({"jsonrpc": "2.0", "method": "$/confnotesUnknown", "params": {}})
    assert ls.protocol.arrived == pytest.approx(loop.time(), abs=1.0)  # taken as the message is read
    ls.protocol.handle_message(message)  # handled (an unknown notification is let go): its time with it
    assert ls.protocol.arrived is None
