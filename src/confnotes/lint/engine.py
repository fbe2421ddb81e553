"""The lint engine: selects rules, applies config and inline disables, sorts findings, applies fixes."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, get_args, get_type_hints

from confnotes.config.settings import LintConfig, LintTable, check_value, wanted
from confnotes.errors import config_error
from confnotes.lint.rules import BY_ID, CATALOGUE, load, load_note_rule, load_project_rule, lookup
from confnotes.lint.types import DIRECTIVE, RANK, SEVERITIES, Edit, Finding, LintContext, Report, Rule

if TYPE_CHECKING:
    from confnotes.config.ignore import Exclude
    from confnotes.model import Document

#: ``[lint]`` keys that hold tables (the scalar keys are ``LintTable``'s fields)
TABLE_KEYS = ("rules", "per-file-ignores")
PROFILES: tuple[str, ...] = get_args(get_type_hints(LintTable)["profile"])
MAX_FIX_PASSES = 10


@dataclass(frozen=True)
class LintSettings:
    """Which rules run, at which severity, with which options."""

    enabled: tuple[str, ...] = tuple(entry.id for entry in CATALOGUE if entry.default)
    severities: dict[str, str] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    fail_on: str = "warning"
    #: the config's ``exclude`` globs, each relative to the config file's folder
    exclude: tuple[str | Exclude, ...] = ()
    profile: str = "auto"  # auto (talk notes get the talk rules), notes, talk
    #: (glob relative to the config's folder, rule ids it turns off), as ruff's per-file-ignores
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = ()
    root: str = ""
    #: where the team's copy of docs/rules.md is published; SARIF links each rule's section there
    docs_url: str | None = None

    def ignored_for(self, note: str) -> frozenset[str]:
        if not self.per_file_ignores or note in ("<stdin>", "<string>"):
            return frozenset()
        import fnmatch
        import os

        rel = os.path.relpath(os.path.abspath(note), self.root or os.getcwd()).replace(os.sep, "/")
        found: set[str] = set()
        for glob, ids in self.per_file_ignores:
            if fnmatch.fnmatch(rel, glob) or fnmatch.fnmatch(os.path.basename(rel), glob):
                found |= ids
        return frozenset(found)

    def severity(self, rule_id: str) -> str:
        return str(self.severities.get(rule_id, BY_ID[rule_id].severity))

    def options_for(self, rule: Rule) -> Any:
        options = self.options.get(rule.META.id)
        if options is None:  # defaults, made once per run rather than once per note
            options = self.options[rule.META.id] = rule.Options()
        return options


def resolve_rule_ids(keys: Iterable[str], where: str) -> set[str]:
    """Rule ids for ``CN104``, ``empty-section`` or a prefix such as ``CN1``; unknown keys are an error."""
    ids: set[str] = set()
    for raw in keys:
        key = raw.strip()
        if not key:
            continue
        if key.upper() == "ALL":
            ids.update(BY_ID)
            continue
        entry = lookup(key)
        if entry is not None:
            ids.add(entry.id)
            continue
        matches = [rule_id for rule_id in BY_ID if rule_id.startswith(key.upper())] if key.upper().startswith("CN") else []
        if not matches:
            raise config_error(f"unknown rule '{key}' ({where}); 'confnotes rules' lists them")
        ids.update(matches)
    return ids


def _coerce_options(rule: Rule, table: dict[str, Any], path: str) -> Any:
    """A rule's options from its config table, each checked against the type its ``Options``
    declares (numbers count something, so they are whole numbers of at least 1; ``Literal``
    options name their values)."""
    from typing import get_type_hints

    hints = get_type_hints(rule.Options)
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key == "severity":
            continue
        if key not in hints:
            known = ", ".join(["severity", *hints]) or "severity"
            raise config_error(f"unknown option '{key}' for rule {rule.META.id} {rule.META.name} (known: {known})", path)
        fits, checked = check_value(hints[key], value, OPTION_RANGE)
        if not fits:
            raise config_error(f"option '{key}' of {rule.META.name} must be {wanted(hints[key], OPTION_RANGE)}, not {value!r}", path)
        values[key] = checked
    return rule.Options(**values)


#: every numeric rule option counts something: a limit, a percentage, a first number
OPTION_RANGE = {"minimum": 1, "maximum": None}


def build_settings(
    lint: LintConfig,
    path: str | None = None,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    extend_ignore: Iterable[str] = (),
    fail_on: str | None = None,
    profile_override: str | None = None,
) -> LintSettings:
    """Settings from a config's ``[tool.confnotes.lint]`` table plus command-line overrides: the
    scalar keys checked against ``LintTable``, ``rules`` and ``per-file-ignores`` against the catalogue."""
    where = path or "command line"
    table = lint.table
    chosen = select if select is not None else table.select
    if chosen is None:
        enabled = {entry.id for entry in CATALOGUE if entry.default}
    else:  # opt-in rules run only when named: a prefix or ALL selects the rules that are on by default
        enabled = {rule_id for rule_id in resolve_rule_ids(chosen, where) if BY_ID[rule_id].default}
        enabled |= {entry.id for key in chosen if (entry := lookup(key.strip())) is not None}
    dropped = resolve_rule_ids(ignore if ignore is not None else table.ignore, where)
    dropped |= resolve_rule_ids(extend_ignore, where)
    severities, options = _rule_tables(lint.rules, path, where)
    level = fail_on or table.fail_on  # the command line's is a click.Choice of the same values
    profile = profile_override or table.profile
    per_file_ignores = tuple((str(glob), frozenset(resolve_rule_ids(ids, where))) for glob, ids in lint.per_file_ignores.items())
    if table.docs_url is not None and not table.docs_url.startswith(("https://", "http://")):
        raise config_error("'lint.docs_url' must be an http(s) URL of docs/rules.md", path)
    ordered = tuple(entry.id for entry in CATALOGUE if entry.id in enabled and entry.id not in dropped)
    root = os.path.dirname(os.path.abspath(path)) if path else ""
    excludes: tuple[str | Exclude, ...] = ()
    if table.exclude:
        from confnotes.config.ignore import config_excludes  # a note's lint without excludes does not load it

        excludes = config_excludes(table.exclude, path)
    return LintSettings(ordered, severities, options, level, excludes, profile, per_file_ignores, root, table.docs_url)


def _rule_tables(rules: Any, path: str | None, where: str) -> tuple[dict[str, str], dict[str, Any]]:
    """``[lint.rules.NAME]``: each rule's severity and options, checked."""
    severities: dict[str, str] = {}
    options: dict[str, Any] = {}
    if not isinstance(rules, dict):
        raise config_error("'lint.rules' must be a table of rule settings", path)
    for key, table in rules.items():
        entry = lookup(key)
        if entry is None:
            raise config_error(f"unknown rule '{key}' in lint.rules; 'confnotes rules' lists them", path)
        rule = load(entry.id)
        if not isinstance(table, dict):
            raise config_error(f"lint.rules.{key} must be a table", path)
        if "severity" in table:
            if table["severity"] not in SEVERITIES:
                raise config_error(f"severity of {key} must be one of {', '.join(SEVERITIES)}", path)
            severities[rule.META.id] = table["severity"]
        options[rule.META.id] = _coerce_options(rule, table, where)
    return severities, options


# ---------------------------------------------------------------- inline directives


def _directives(doc: Document) -> list[tuple[int, int, str, set[str] | None]]:
    """(first line, last line, action, rule ids or None for all) for each directive comment."""
    found = []
    for block in doc.directives:
        for match in DIRECTIVE.finditer(block.text):
            action = match.group(1)
            names = [part for part in re.split(r"[\s,]+", match.group(2)) if part]
            ids: set[str] | None = None
            if names:
                ids = set()
                for name in names:
                    entry = lookup(name)
                    if entry is not None:
                        ids.add(entry.id)
            found.append((block.span.start, block.span.end, action, ids))
    return found


def _suppressed(
    finding_line: int, rule_id: str, directives: list[tuple[int, int, str, set[str] | None]], next_lines: dict[int, int]
) -> bool:
    disabled_all = False
    disabled: set[str] = set()
    enabled_after_all: set[str] = set()
    for start, end, action, ids in directives:
        if start > finding_line:
            break
        if action == "disable-next-line":
            if next_lines.get(end) == finding_line and (ids is None or rule_id in ids):
                return True
            continue
        if end >= finding_line:
            continue
        if action == "disable":
            if ids is None:
                disabled_all, enabled_after_all = True, set()
            else:
                disabled |= ids
        else:  # enable
            if ids is None:
                disabled_all, disabled, enabled_after_all = False, set(), set()
            else:
                disabled -= ids
                enabled_after_all |= ids
    return (disabled_all and rule_id not in enabled_after_all) or rule_id in disabled


def _next_content_lines(text: str, directive_ends: Iterable[int]) -> dict[int, int]:
    lines = text.split("\n")
    result = {}
    for end in directive_ends:
        index = end  # 0-based index of the line after ``end``
        while index < len(lines) and not lines[index].strip():
            index += 1
        result[end] = index + 1
    return result


# ---------------------------------------------------------------- running rules


def one_line(message: str) -> str:
    """A finding's message on one line: the titles and texts rules quote keep their words, but a
    multi-line setext title or a pasted paragraph must not break ``path:line:col: message`` apart."""
    return " ".join(message.split())


def _finding(ctx: LintContext, rule: Rule, settings: LintSettings, report: Report) -> Finding:
    meta = rule.META
    severity = settings.severity(meta.id)
    return Finding(ctx.doc.path, report.line, report.col, meta.id, meta.name, severity, one_line(report.message), report.fix)


def filter_suppressed(ctx: LintContext, findings: list[Finding]) -> list[Finding]:
    directives = _directives(ctx.doc)
    if not directives:
        return findings
    next_lines = _next_content_lines(ctx.text, (end for _, end, _, _ in directives))
    return [f for f in findings if not _suppressed(f.line, f.rule, directives, next_lines)]


def lint_context(ctx: LintContext, settings: LintSettings) -> list[Finding]:
    """Findings of every enabled per-note rule for one note, inline disables applied, sorted.
    Talk rules (slide advice) run only for talks: by profile, or, with ``auto``, by the note."""
    findings: list[Finding] = []
    talk = settings.profile == "talk" or (settings.profile == "auto" and ctx.doc.is_talk)
    skipped = settings.ignored_for(ctx.doc.path)
    for rule_id in settings.enabled:
        entry = BY_ID[rule_id]
        if entry.project or (entry.profile == "talk" and not talk) or rule_id in skipped or not entry.may_report(ctx.text):
            continue  # a rule that does not run here is not even imported
        rule = load_note_rule(rule_id)
        for report in rule.check(ctx, settings.options_for(rule)):
            findings.append(_finding(ctx, rule, settings, report))
    findings = filter_suppressed(ctx, findings)
    findings.sort(key=Finding.sort_key)
    return findings


def project_facts(ctx: LintContext, settings: LintSettings) -> dict[str, list[Any]]:
    """Per project rule, what this note contributes (facts on suppressed lines are dropped)."""
    out: dict[str, list[Any]] = {}
    for entry in CATALOGUE:
        if not entry.project or entry.id not in settings.enabled:
            continue
        rule = load_project_rule(entry.id)
        kept = []
        for fact in rule.facts(ctx):
            probe = Finding(ctx.doc.path, fact[2], fact[3], rule.META.id, rule.META.name, "info", "")
            if filter_suppressed(ctx, [probe]):
                kept.append(fact)
        out[rule.META.id] = kept
    return out


def lint_project(notes: list[tuple[str, dict[str, list[Any]], LintSettings]]) -> list[Finding]:
    """Findings of project-level rules over every note of one run, from each note's facts."""
    findings: list[Finding] = []
    for entry in CATALOGUE:
        if not entry.project:
            continue
        rule = load_project_rule(entry.id)
        members = [(path, facts[rule.META.id]) for path, facts, _ in notes if rule.META.id in facts]
        settings_of = {path: settings for path, _, settings in notes}
        if len(members) < 2:
            continue
        for path, report in rule.check_project(members, rule.Options()):
            meta = rule.META
            severity = settings_of[path].severity(meta.id)
            findings.append(Finding(path, report.line, report.col, meta.id, meta.name, severity, one_line(report.message), report.fix))
    return findings


# ---------------------------------------------------------------- fixes


def apply_edits(text: str, findings: Iterable[Finding]) -> tuple[str, int]:
    """Apply the fixes of ``findings`` that do not overlap; returns the new text and how many applied."""
    chosen: list[Edit] = []
    taken: list[tuple[int, int]] = []
    applied = 0
    fixes = sorted((f.fix for f in findings if f.fix is not None and f.fix.edits), key=lambda fix: min(e.start for e in fix.edits))
    for fix in fixes:
        spans = [(edit.start, edit.end) for edit in fix.edits]
        if any(s < te and ts < e or (s == e == ts) for s, e in spans for ts, te in taken):
            continue
        taken += spans
        chosen += fix.edits
        applied += 1
    for edit in sorted(chosen, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: edit.start] + edit.replacement + text[edit.end :]
    return text, applied


def fix_until_stable(text: str, relint: Callable[[str], list[Finding]]) -> tuple[str, list[Finding], int]:
    """Apply fixes and re-lint until nothing changes (at most ``MAX_FIX_PASSES`` passes)."""
    total = 0
    findings = relint(text)
    for _ in range(MAX_FIX_PASSES):
        if not any(f.fix and f.fix.edits for f in findings):
            break
        new_text, applied = apply_edits(text, findings)
        if applied == 0 or new_text == text:
            break
        total += applied
        text = new_text
        findings = relint(text)
    return text, findings, total


def failing(findings: Iterable[Finding], fail_on: str) -> bool:
    threshold = RANK[fail_on]
    return any(RANK[f.severity] >= threshold for f in findings)
