"""One open note as ``confnotes lint`` sees it: read, config, outline and findings, from the CLI's own functions
(docs/design.md, "Incremental analysis").

Nothing here decides anything the command line does not: the text is decoded by ``source.decode``,
the config found and the rules chosen by ``check.Checker`` (config discovery, profiles,
per-file ignores), the outline and findings made by ``Checker.context`` and
``Checker.lint``, fixes applied by ``Checker.fixed`` and formatting done by
``fmt.format_markdown``, exactly as ``lint``, ``lint --fix`` and ``fmt`` call them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from confnotes.errors import NotesError

if TYPE_CHECKING:
    from confnotes.config import Config
    from confnotes.edges.source import Source
    from confnotes.lint.engine import LintSettings
    from confnotes.lint.types import Finding, LintContext
    from confnotes.timing import Timing


@dataclass
class Analysis:
    """The latest reading of one document version; ``error`` says why there is no outline."""

    path: str
    version: int | None
    text: str  # as the client holds it (line endings included)
    source: Source | None = None
    config: Config | None = None
    settings: LintSettings | None = None
    context: LintContext | None = None
    findings: list[Finding] = field(default_factory=list)
    error: NotesError | None = None
    excluded: bool = False
    too_large: int = 0  # the text's size in bytes when it is over the live limit
    _timing: Timing | NotesError | None = None
    #: the findings' notification, serialised in the analysis worker for these options and position
    #: encoding (``lsp.core``): publishing them then costs the event loop only a write
    message: tuple[object, str, str] | None = None

    @property
    def normalised(self) -> str:
        """The note's text with ``\\n`` line ends: what offsets and lines in findings refer to."""
        return self.source.text if self.source is not None else self.text.replace("\r\n", "\n").replace("\r", "\n")

    def timing(self) -> Timing | NotesError | None:
        """The talk's plan as ``confnotes time`` computes it (a NotesError for a value it cannot read);
        None when the note is not a talk or has no outline. Computed once per version."""
        if self.context is None or not self.context.doc.is_talk:
            return None
        if self._timing is None:
            try:
                self._timing = self.context.timing
            except NotesError as exc:
                self._timing = exc
        return self._timing


def _excluded(path: str, settings: LintSettings, workspace: str | None) -> bool:
    """Whether ``confnotes lint`` walking the project would skip this note: a ``[lint] exclude`` glob or a
    ``.gitignore`` pattern on the note or one of its folders below the project's root."""
    from confnotes.config.ignore import IgnoreRules

    root = Path(settings.root or workspace or os.path.dirname(path))
    note = Path(path)
    try:
        parts = note.relative_to(root).parts
    except ValueError:
        return False
    rules = IgnoreRules.for_root(root, settings.exclude)
    folder = root
    for part in parts[:-1]:
        folder = folder / part
        if part.startswith(".") or rules.ignored(folder, True):
            return True
    return note.name.startswith(".") or rules.ignored(note, False)


def analyse(path: str, text: str, version: int | None = None, workspace: str | None = None, max_bytes: int = 0) -> Analysis:
    """Read ``text`` as the note at ``path`` and lint it as ``confnotes lint PATH`` would; errors are kept,
    never raised (a note or config confnotes cannot read is the diagnostic). The cyclic GC pauses
    meanwhile, as in ``Checker.lint_note`` (outlines and findings hold no cycles)."""
    import gc

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _analyse(path, text, version, workspace, max_bytes)
    finally:
        if was_enabled:
            gc.enable()


def _analyse(path: str, text: str, version: int | None, workspace: str | None, max_bytes: int) -> Analysis:
    from confnotes.check import Checker, LintRequest
    from confnotes.edges.source import decode

    result = Analysis(path, version, text)
    data = text.encode("utf-8", "surrogatepass")  # a lone surrogate is bytes that are not UTF-8: decode says where
    if max_bytes and len(data) > max_bytes:
        result.too_large = len(data)
        return result
    try:
        result.source = source = decode(data, path)
        checker = Checker(LintRequest())
        result.config = config = checker.config_for(path)
        result.settings = settings = checker.settings_for(config)
        result.context = ctx = checker.context(source, config)
        result.excluded = _excluded(path, settings, workspace)
        if not result.excluded:  # fmt, the outline and the clock still work; lint skips the note
            result.findings = checker.lint(ctx, config)
    except NotesError as exc:
        result.error = exc
    return result


def fixed_text(analysis: Analysis) -> str:
    """The note as ``confnotes lint --fix`` writes it (line endings and BOM as the note had them)."""
    from confnotes.check import Checker, LintRequest, encode_like

    source = _readable(analysis)
    checker = Checker(LintRequest(fix=True))
    new_text, _, _ = checker.fixed(source, checker.config_for(analysis.path))
    if new_text == source.text:
        return analysis.text
    return encode_like(source, new_text).decode("utf-8", "surrogatepass")


def formatted_text(analysis: Analysis) -> str:
    """The note as ``confnotes fmt`` writes it; raises ``NotesError`` when fmt refuses (nothing half done)."""
    from confnotes.check import encode_like
    from confnotes.fmt import format_markdown
    from confnotes.load import parse_options

    source = _readable(analysis)
    assert analysis.context is not None and analysis.config is not None
    formatted = format_markdown(analysis.context.doc, parse_options(analysis.config), source.text)
    if formatted == source.text:
        return analysis.text
    return encode_like(source, formatted).decode("utf-8", "surrogatepass")


def _readable(analysis: Analysis) -> Source:
    if analysis.too_large:
        raise NotesError(f"the note is {analysis.too_large / 1e6:.1f} MB; run confnotes on it from the command line", path=analysis.path)
    if analysis.error is not None:
        raise analysis.error
    assert analysis.source is not None
    return analysis.source


def silences(analysis: Analysis, finding: Finding, new_text: str) -> bool:
    """Whether ``new_text`` (the note with a disable comment above the finding's line) lints as the note
    did, less that finding: a comment that changed how confnotes reads the note is not offered."""
    after = analyse(analysis.path, new_text)
    if after.error is not None:
        return False
    want = sorted((f.rule, f.line + (1 if f.line >= finding.line else 0), f.col) for f in analysis.findings if f != finding)
    return sorted((f.rule, f.line, f.col) for f in after.findings) == want
