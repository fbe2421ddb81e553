"""Open, change, save and close, and the requests answered from a note's latest analysis."""

from __future__ import annotations

import asyncio

from lsprotocol import types as lsp

from confnotes.lsp import features, preview
from confnotes.lsp.analysis import formatted_text
from confnotes.lsp.configs import remember_configs
from confnotes.lsp.core import NotesServer, guarded, server


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: NotesServer, params: lsp.DidOpenTextDocumentParams) -> None:
    if params.text_document.uri.endswith((".toml",)):
        return
    from confnotes.parse import incremental

    incremental.track(ls.path_of(params.text_document.uri))  # each re-reading parses only what an edit changed
    remember_configs(ls, ls.path_of(params.text_document.uri))
    ls.schedule(params.text_document.uri, 0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: NotesServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.changed(params.text_document.uri)
    preview.hold_text(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: NotesServer, params: lsp.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    if uri.endswith(("confnotes.toml", "pyproject.toml")):
        ls.refresh_all()  # a config edited in the editor itself
    elif (document := ls.document(uri)) is not None and ls.published.get(uri) != document.version:
        ls.schedule(uri, 0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: NotesServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    for task in (ls.timers.pop(uri, None), ls.due.pop(uri, None)):
        if task is not None:
            task.cancel()
    ls.stale_since.pop(uri, None)
    ls.took.pop(uri, None)
    ls.last_change.pop(uri, None)
    ls.analyses.pop(uri, None)
    from confnotes.parse import incremental

    incremental.forget(ls.path_of(uri))
    ls.keys.pop(uri, None)
    ls.published.pop(uri, None)
    preview.hold_text(ls, uri, closed=True)  # the preview shows the file on disk again
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(lsp.TEXT_DOCUMENT_DIAGNOSTIC, lsp.DiagnosticOptions(inter_file_dependencies=False, workspace_diagnostics=False))
@guarded("diagnostic")
async def pull_diagnostics(ls: NotesServer, params: lsp.DocumentDiagnosticParams) -> lsp.RelatedFullDocumentDiagnosticReport:
    """The findings of an open note when the editor asks (the pull model), the same as pushed ones."""
    analysis = await ls.current(params.text_document.uri)
    return lsp.RelatedFullDocumentDiagnosticReport(items=features.diagnostics(analysis, ls.options, ls.encoding))


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
@guarded("formatting")
async def formatting(ls: NotesServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    """fmt's text, all or nothing: a refusal is a message and an error answer, never half a format."""
    analysis = await ls.current(params.text_document.uri)
    new_text = await asyncio.get_running_loop().run_in_executor(ls.worker, formatted_text, analysis)
    return features.whole(analysis, new_text, ls.encoding)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guarded("documentSymbol")
async def document_symbol(ls: NotesServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    return features.document_symbols(await ls.current(params.text_document.uri), ls.encoding)


@server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
@guarded("foldingRange")
async def folding_range(ls: NotesServer, params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange]:
    return features.folding_ranges(await ls.current(params.text_document.uri))


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
@guarded("hover")
async def hover(ls: NotesServer, params: lsp.HoverParams) -> lsp.Hover | None:
    if not ls.options.hover:
        return None
    return features.hover(await ls.current(params.text_document.uri), params.position, ls.encoding)


@server.feature(lsp.TEXT_DOCUMENT_CODE_LENS)
@guarded("codeLens")
async def code_lens(ls: NotesServer, params: lsp.CodeLensParams) -> list[lsp.CodeLens]:
    if not ls.options.code_lens:
        return []
    uri = params.text_document.uri
    analysis = await ls.current(uri)
    return await asyncio.get_running_loop().run_in_executor(ls.worker, features.code_lenses, analysis, uri)


@server.command(features.SHOW_TIMING)
@guarded("showTiming")
async def show_timing(ls: NotesServer, uri: str) -> None:
    analysis = await ls.current(uri)
    ls.show(features.timing_table(analysis), lsp.MessageType.Info)


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "-", ":"]))
@guarded("completion")
async def completion(ls: NotesServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    document = ls.open_document(params.text_document.uri)
    items = features.completions(document.source, params.position, ls.encoding)
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_LINK)
@guarded("documentLink")
async def document_link(ls: NotesServer, params: lsp.DocumentLinkParams) -> list[lsp.DocumentLink]:
    return features.document_links(await ls.current(params.text_document.uri), ls.encoding)
