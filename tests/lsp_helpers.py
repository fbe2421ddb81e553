"""Helpers for the language server's end-to-end tests: a pytest-lsp client, waiting, applying edits."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = Path(__file__).resolve().parent.parent


def server(*command: str) -> ClientServerConfig:
    return ClientServerConfig(server_command=list(command) or [sys.executable, "-m", "confnotes", "lsp"], client_factory=make_client)


#: realistic notes in the test suite: the seeds, pasted and written notes, and the parser fixtures
REALISTIC = sorted(
    [
        *(ROOT / "notes").glob("*.md"),
        *(ROOT / "tests" / "fixtures" / "real").glob("*.md"),
        *(ROOT / "tests" / "fixtures" / "notes").glob("*.md"),
    ]
)
#: a guard against a hung test, not a speed assertion
PATIENCE = 120.0


async def start(
    client: LanguageClient, spec: str = "visual-studio-code", options: Any = None, root: Path | None = None
) -> lsp.InitializeResult:
    params = lsp.InitializeParams(capabilities=client_capabilities(spec), initialization_options=options)
    if root is not None:
        params.root_uri = root.as_uri()
        params.workspace_folders = [lsp.WorkspaceFolder(uri=root.as_uri(), name=root.name)]
    result = await client.initialize_session(params)
    client.initialize_result = result  # type: ignore[attr-defined]
    return result


def read_client_text(path: Path) -> str:
    """The note as an editor holds it: decoded UTF-8, BOM dropped (editors show it as an encoding)."""
    return path.read_bytes().decode("utf-8").removeprefix("\ufeff")


def open_note(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    uri = path.resolve().as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="markdown", version=version, text=read_client_text(path) if text is None else text)
        )
    )
    return uri


async def diagnostics(client: LanguageClient, uri: str, version: int | None = None, after: int = 0) -> list[lsp.Diagnostic]:
    """The diagnostics published for ``uri`` (for ``version`` when given), once they arrive."""
    deadline = asyncio.get_running_loop().time() + PATIENCE
    while asyncio.get_running_loop().time() < deadline:
        published = client.diagnostics.get(uri)
        versions = getattr(client, "versions", {})
        if (
            published is not None
            and (version is None or versions.get(uri) == version)
            and getattr(client, "counts", {}).get(uri, 0) > after
        ):
            return list(published)
        await asyncio.sleep(0.01)
    raise AssertionError(f"no diagnostics for {uri} (version {version})")


def track_versions(client: LanguageClient) -> None:
    """Record the version and count of each publication (pytest-lsp keeps only the diagnostics)."""
    client.versions = {}  # type: ignore[attr-defined]
    client.counts = {}  # type: ignore[attr-defined]

    def publish(params: lsp.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        client.versions[params.uri] = params.version  # type: ignore[attr-defined]
        client.counts[params.uri] = client.counts.get(params.uri, 0) + 1  # type: ignore[attr-defined]

    client.protocol.fm._features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish


def make_client() -> LanguageClient:
    """pytest-lsp's client, also recording which version each publication is for."""
    from pytest_lsp import make_test_lsp_client

    client = make_test_lsp_client()
    track_versions(client)
    client.registrations = []  # type: ignore[attr-defined]

    @client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def register(ls: LanguageClient, params: lsp.RegistrationParams) -> None:
        ls.registrations += params.registrations  # type: ignore[attr-defined]

    return client


def utf16_to_index(line: str, character: int) -> int:
    count = 0
    for index, char in enumerate(line):
        if count >= character:
            return index
        count += 2 if ord(char) > 0xFFFF else 1
    return len(line)


def split_lines(text: str) -> list[str]:
    """Lines as LSP counts them, each with its own ending."""
    import re

    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text) or [""]


def offset_of(text: str, position: lsp.Position) -> int:
    lines = split_lines(text)
    if position.line >= len(lines):
        return len(text)
    start = sum(len(line) for line in lines[: position.line])
    line = lines[position.line].rstrip("\r\n")
    return start + utf16_to_index(line, position.character)


def apply_edits(text: str, edits: list[lsp.TextEdit]) -> str:
    resolved = sorted(((offset_of(text, e.range.start), offset_of(text, e.range.end), e.new_text) for e in edits), reverse=True)
    for start, end, new in resolved:
        text = text[:start] + new + text[end:]
    return text


def lint_json(cli: Any, path: Path, *extra: str) -> list[dict[str, Any]]:
    result = cli("lint", "--format", "json", "--no-cache", "--exit-zero", *extra, str(path))
    return list(json.loads(result.stdout))


def as_findings(text: str, found: list[lsp.Diagnostic]) -> list[tuple[str, int, int, str]]:
    """(rule, line, column, message) of lint diagnostics, columns in characters as lint counts them."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out = []
    for diagnostic in found:
        if not str(diagnostic.code).startswith("CN"):
            continue
        line = diagnostic.range.start.line
        column = utf16_to_index(lines[line], diagnostic.range.start.character) + 1
        name = (diagnostic.data or {}).get("name", "")
        message = diagnostic.message.removesuffix(f" ({name})")
        out.append((str(diagnostic.code), line + 1, column, message))
    return sorted(out)


def expected(findings: list[dict[str, Any]]) -> list[tuple[str, int, int, str]]:
    return sorted((f["rule"], f["line"], f["column"], f["message"]) for f in findings)
