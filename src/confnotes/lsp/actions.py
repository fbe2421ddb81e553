"""Code actions: a finding's fix, fix-all, and a comment that silences a finding (offered only when
it changes nothing else).
"""

from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types as lsp

from confnotes.errors import NotesError
from confnotes.lsp import features
from confnotes.lsp.analysis import Analysis, fixed_text, formatted_text, silences
from confnotes.lsp.core import NotesServer, guarded, server


@server.feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.SourceFixAll, features.FIX_ALL, features.FORMAT],
        resolve_provider=True,
    ),
)
@guarded("codeAction")
async def code_action(ls: NotesServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    """Each finding's fix, "disable CNxxx on this line", "fix all" and "format note" (the last two resolved on demand)."""
    uri = params.text_document.uri
    analysis = await ls.current(uri)
    wanted = params.context.only
    encoding = ls.encoding

    def allowed(kind: str) -> bool:
        return not wanted or any(kind == only or kind.startswith(f"{only}.") for only in wanted)

    first, last = params.range.start.line + 1, params.range.end.line + 1
    here = [finding for finding in analysis.findings if first <= finding.line <= last and features.shown(finding, ls.options)]
    index_diagnostics = {(d.code, d.range.start.line): d for d in params.context.diagnostics}
    actions: list[lsp.CodeAction] = []
    disables: list[lsp.CodeAction] = []
    fixes = await _fix_mode_findings(ls, analysis) if any(f.fix is not None for f in here) else []
    if allowed(lsp.CodeActionKind.QuickFix):
        for finding in here:
            related = [d for d in (index_diagnostics.get((finding.rule, finding.line - 1)),) if d is not None]
            with_edits = next((f for f in fixes if (f.rule, f.line, f.col) == (finding.rule, finding.line, finding.col)), None)
            if with_edits is not None and with_edits.fix is not None and with_edits.fix.edits:
                actions.append(
                    lsp.CodeAction(
                        title=f"{with_edits.fix.title} ({finding.rule})",
                        kind=lsp.CodeActionKind.QuickFix,
                        diagnostics=related or None,
                        is_preferred=True,
                        edit=lsp.WorkspaceEdit(changes={uri: features.text_edits(analysis, with_edits, encoding)}),
                    )
                )
        for finding in here:
            if features.disable_edit(analysis, finding) is None:
                continue
            related = [d for d in (index_diagnostics.get((finding.rule, finding.line - 1)),) if d is not None]
            action = lsp.CodeAction(
                title=f"Disable {finding.rule} ({finding.name}) on this line",
                kind=lsp.CodeActionKind.QuickFix,
                diagnostics=related or None,
                data={"uri": uri, "action": "disable", "rule": finding.rule, "line": finding.line, "col": finding.col},
            )
            disables.append(action)
    resolve = _resolves_edits(ls)
    for action in disables:  # checked by a re-lint: resolved on demand when the client can
        resolved = action if resolve else await resolve_action(ls, action)
        if resolved.disabled is None:
            actions.append(resolved)
    if any(f.fix is not None for f in analysis.findings) and (allowed(features.FIX_ALL) or allowed(lsp.CodeActionKind.QuickFix)):
        action = lsp.CodeAction(
            title="Fix all confnotes findings in this note", kind=features.FIX_ALL, data={"uri": uri, "action": "fixAll"}
        )
        actions.append(action if resolve else await resolve_action(ls, action))
    if allowed(features.FORMAT) and analysis.context is not None:
        action = lsp.CodeAction(title="Format note (confnotes fmt)", kind=features.FORMAT, data={"uri": uri, "action": "format"})
        actions.append(action if resolve else await resolve_action(ls, action))
    return actions


async def _fix_mode_findings(ls: NotesServer, analysis: Analysis) -> list[Any]:
    """The findings as ``lint --fix`` sees them (a rule may compute its edits only when fixing)."""
    if all(f.fix is None or f.fix.edits for f in analysis.findings):
        return list(analysis.findings)

    def relint() -> list[Any]:
        from confnotes.check import Checker, LintRequest

        if analysis.source is None:
            return []
        checker = Checker(LintRequest(fix=True))
        return checker.check(analysis.source, checker.config_for(analysis.path), fix=True)[1]

    return await asyncio.get_running_loop().run_in_executor(ls.worker, relint)


def _resolves_edits(ls: NotesServer) -> bool:
    document = ls.client_capabilities.text_document
    support = document and document.code_action and document.code_action.resolve_support
    return bool(support and "edit" in support.properties)


@server.feature(lsp.CODE_ACTION_RESOLVE)
@guarded("codeAction/resolve")
async def resolve_action(ls: NotesServer, action: lsp.CodeAction) -> lsp.CodeAction:
    data = action.data if isinstance(action.data, dict) else {}
    uri = str(data.get("uri", ""))
    analysis = await ls.current(uri)
    loop = asyncio.get_running_loop()
    try:
        if data.get("action") == "fixAll":
            new_text = await loop.run_in_executor(ls.worker, fixed_text, analysis)
        elif data.get("action") == "format":
            new_text = await loop.run_in_executor(ls.worker, formatted_text, analysis)
        elif data.get("action") == "disable":
            return await _resolve_disable(ls, action, analysis, data)
        else:
            return action
    except NotesError as exc:
        action.disabled = lsp.CodeActionDisabled(reason=exc.message)
        return action
    action.edit = lsp.WorkspaceEdit(changes={uri: features.whole(analysis, new_text, ls.encoding)})
    return action


async def _resolve_disable(ls: NotesServer, action: lsp.CodeAction, analysis: Analysis, data: dict[str, Any]) -> lsp.CodeAction:
    """The directive's edit, offered only when a re-lint shows it silences that finding and nothing else."""
    where = (data.get("rule"), data.get("line"), data.get("col"))
    finding = next((f for f in analysis.findings if (f.rule, f.line, f.col) == where), None)
    edit = features.disable_edit(analysis, finding) if finding is not None else None
    if finding is None or edit is None:
        action.disabled = lsp.CodeActionDisabled(reason="the finding is gone")
        return action
    text = analysis.normalised
    start = sum(len(line) + 1 for line in text.split("\n")[: finding.line - 1])
    new_text = text[:start] + edit.new_text.replace("\r\n", "\n").replace("\r", "\n") + text[start:]
    if not await asyncio.get_running_loop().run_in_executor(ls.worker, silences, analysis, finding, new_text):
        action.disabled = lsp.CodeActionDisabled(reason="a comment here would change how confnotes reads the note")
        return action
    action.edit = lsp.WorkspaceEdit(changes={str(data.get("uri")): [edit]})
    return action
