"""Linting and formatting many notes: read, parse, lint or format, and write back safely.

Like ``build.py``, this is an edge of the program: it reads and writes files. The rules,
the engine and the formatter it calls are pure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from confnotes.config import Config, find_config, read_config_file
from confnotes.errors import NotesError
from confnotes.lint.engine import LintSettings, build_settings, fix_until_stable, lint_context, lint_project
from confnotes.lint.types import Finding, LintContext
from confnotes.source import Source, read_source


@dataclass
class LintRun:
    findings: list[Finding] = field(default_factory=list)
    errors: list[NotesError] = field(default_factory=list)
    fixed_files: list[str] = field(default_factory=list)
    fixes_applied: int = 0
    files: int = 0


@dataclass(frozen=True)
class LintRequest:
    config_file: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    fail_on: str | None = None
    fix: bool = False


def encode_like(source: Source, text: str) -> bytes:
    """Text back to bytes with the note's own newline style and BOM."""
    if source.newline != "\n":
        text = text.replace("\n", source.newline)
    data = text.encode("utf-8")
    return b"\xef\xbb\xbf" + data if source.had_bom else data


class Checker:
    """Caches configs and settings per folder so a run over many notes parses each config once."""

    def __init__(self, request: LintRequest) -> None:
        self.request = request
        self._explicit = read_config_file(request.config_file) if request.config_file else None
        self._settings: dict[str | None, LintSettings] = {}

    def config_for(self, note: str) -> Config:
        return self._explicit or find_config(note)

    def settings_for(self, config: Config) -> LintSettings:
        if config.path not in self._settings:
            request = self.request
            self._settings[config.path] = build_settings(
                config.lint, config.slides, config.path, select=request.select, ignore=request.ignore,
                fail_on=request.fail_on,
            )
        return self._settings[config.path]

    def context(self, source: Source, config: Config) -> LintContext:
        from confnotes.parse import parse_source

        doc = parse_source(source, config.parse_options())
        folder = Path(source.path).resolve().parent if source.path != "<stdin>" else Path.cwd()
        settings = self.settings_for(config)
        return LintContext(doc, source.text, exists=lambda rel: (folder / rel).exists(),
                           settings={"slides": settings.slides, "fix": self.request.fix})

    def lint_paths(self, notes: list[str]) -> LintRun:
        from confnotes.output import write_atomic
        from confnotes.parse import parse

        run = LintRun()
        contexts: list[tuple[LintContext, LintSettings]] = []
        for note in notes:
            try:
                source = read_source(note)
                config = self.config_for(note)
                settings = self.settings_for(config)
                ctx = self.context(source, config)
            except NotesError as exc:
                run.errors.append(exc)
                continue
            run.files += 1
            findings = lint_context(ctx, settings)
            if self.request.fix and any(f.fix for f in findings):
                def relint(text: str, ctx: LintContext = ctx, config: Config = config,
                           settings: LintSettings = settings) -> list[Finding]:
                    doc = parse(text, ctx.doc.path, config.parse_options())
                    again = LintContext(doc, text, exists=ctx.exists, settings={"slides": settings.slides, "fix": True})
                    return lint_context(again, settings)

                try:
                    new_text, findings, applied = fix_until_stable(source.text, relint)
                except NotesError as exc:
                    run.errors.append(exc)
                    continue
                if new_text != source.text:
                    write_atomic(note, encode_like(source, new_text))
                    run.fixed_files.append(note)
                    run.fixes_applied += applied
                    ctx = LintContext(parse(new_text, note, config.parse_options()), new_text, exists=ctx.exists,
                                      settings={"slides": settings.slides})
            run.findings += findings
            contexts.append((ctx, settings))
        run.findings += lint_project(contexts)
        run.findings.sort(key=Finding.sort_key)
        return run
