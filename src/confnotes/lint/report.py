"""Lint output formats: text, json, github (workflow commands), sarif (2.1.0), junit."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from confnotes._version import __version__
from confnotes.errors import NotesError
from confnotes.lint.rules import BY_ID, load, modules
from confnotes.lint.types import Finding, Rule, option_defaults
from confnotes.markup.escape import strict_json, terminal_safe, xml_attr, xml_text

_COLOURS = {"error": "red", "warning": "yellow", "info": "cyan"}
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def text(findings: list[Finding], colour: bool = False) -> str:
    import click

    lines = []
    for f in findings:
        where = f"{terminal_safe(f.path, one_line=True)}:{f.line}:{f.col}:"
        code = f"{f.rule} {f.name}"
        if colour:
            where = click.style(where, bold=True)
            code = click.style(code, fg=_COLOURS[f.severity], bold=True)
        fixable = " [*]" if f.fix else ""
        lines.append(f"{where} {code} {terminal_safe(f.message, one_line=True)}{fixable}")
    return "\n".join(lines) + ("\n" if lines else "")


def summary(findings: list[Finding], files: int, fixed: int = 0) -> str:
    counts = Counter(f.severity for f in findings)
    parts = [f"{counts[s]} {s}{'s' if counts[s] != 1 and s != 'info' else ''}" for s in ("error", "warning", "info") if counts[s]]
    fixable = sum(1 for f in findings if f.fix)
    line = f"{len(findings)} finding{'s' if len(findings) != 1 else ''} in {files} note{'s' if files != 1 else ''}"
    if parts:
        line += " (" + ", ".join(parts) + ")"
    if fixed:
        line += f"; fixed {fixed}"
    if fixable:
        line += f"; {fixable} fixable with --fix [*]"
    return line


def statistics(findings: list[Finding]) -> str:
    counts = Counter((f.rule, f.name, f.severity) for f in findings)
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][0]))
    return "".join(f"{count:5d}  {rule} {name} ({severity})\n" for (rule, name, severity), count in rows)


def as_json(findings: list[Finding]) -> str:
    return (
        strict_json(
            [
                {
                    "path": f.path,
                    "line": f.line,
                    "column": f.col,
                    "rule": f.rule,
                    "name": f.name,
                    "severity": f.severity,
                    "message": f.message,
                    "fixable": f.fix is not None,
                    "fix": None if f.fix is None else f.fix.title,
                }
                for f in findings
            ],
            indent=2,
        )
        + "\n"
    )


def _github_escape(value: str, prop: bool = False) -> str:
    """A workflow command's value: control characters shown (``terminal_safe``: a raw ESC or BEL, or a
    CR in a file name, reaches the CI log), then GitHub's own escapes, so no value can end the line."""
    value = terminal_safe(value).replace("%", "%25").replace("\n", "%0A")
    if prop:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def github(findings: list[Finding]) -> str:
    out = []
    for f in findings:
        props = f"file={_github_escape(f.path, True)},line={f.line},col={f.col},title={_github_escape(f'{f.rule} {f.name}', True)}"
        out.append(f"::{_GITHUB_LEVEL[f.severity]} {props}::{_github_escape(f.message)}")
    return "\n".join(out) + ("\n" if out else "")


def rule_anchor(rule_id: str) -> str:
    """The rule's section in docs/rules.md, as GitHub and GitLab name heading anchors."""
    entry = BY_ID[rule_id]
    return f"{entry.id.lower()}-{entry.name}"


def sarif(findings: list[Finding], docs_url: str | None = None) -> str:
    """SARIF 2.1.0; with ``[lint] docs_url`` set, each rule's ``helpUri`` is its section there."""
    rules = [
        {
            "id": rule.META.id,
            "name": rule.META.name,
            "shortDescription": {"text": rule.META.summary},
            "fullDescription": {"text": rule.META.rationale},
            # the rule's documentation itself (as `confnotes rules ID` prints it), not a link to a site that does not exist
            "help": {
                "text": f"{rule.META.rationale}\n\nAvoid:\n{rule.META.bad}\nPrefer:\n{rule.META.good}",
                "markdown": rule_doc(rule.META.id),
            },
            "defaultConfiguration": {"level": _SARIF_LEVEL[rule.META.severity]},
            "properties": {"tags": list(rule.META.tags), "fixable": rule.META.fixable},
        }
        | ({"helpUri": f"{docs_url.split('#')[0]}#{rule_anchor(rule.META.id)}"} if docs_url else {})
        for rule in modules()
    ]
    index = {rule.META.id: position for position, rule in enumerate(modules())}
    results = [
        {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": _SARIF_LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": f.path.replace("\\", "/")},
                        "region": {"startLine": f.line, "startColumn": f.col},
                    }
                }
            ],
        }
        for f in findings
    ]
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "confnotes", "version": __version__, "rules": rules}},
                "results": results,
            }
        ],
    }
    return strict_json(document, indent=2) + "\n"


def junit(findings: list[Finding], paths: list[str], errors: Sequence[NotesError] = ()) -> str:
    """JUnit XML: one test case a note, failed when it has a warning or error (one ``<failure>``
    listing them all), an error when the note could not be read or linted (``<error>``, with the
    one line lint printed), so ``tests``, ``failures``, ``errors`` and the test cases agree."""
    by_path: dict[str, list[Finding]] = {path: [] for path in paths}
    for f in findings:
        by_path.setdefault(f.path, []).append(f)
    broken: dict[str, list[str]] = {}
    for error in errors:
        broken.setdefault(error.path or "-", []).append(str(error))
        by_path.setdefault(error.path or "-", [])
    failing = {path for path, items in by_path.items() if path not in broken and any(f.severity != "info" for f in items)}
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<testsuites name="confnotes lint" tests="{len(by_path)}" failures="{len(failing)}" errors="{len(broken)}">',
        f'  <testsuite name="confnotes" tests="{len(by_path)}" failures="{len(failing)}" errors="{len(broken)}" skipped="0">',
    ]
    for path, items in by_path.items():
        out.append(f'    <testcase classname="confnotes.lint" name={xml_attr(path)}>')
        lines = [f"{f.path}:{f.line}:{f.col}: {f.rule} {f.name} ({f.severity}) {f.message}" for f in items]
        if path in broken:
            said = broken[path]
            message = said[0] if len(said) == 1 else f"{len(said)} errors: {said[0]}"
            out.append(f'      <error type="read" message={xml_attr(message)}>{xml_text(chr(10).join([*said, *lines]))}</error>')
        elif path in failing:
            bad = [f for f in items if f.severity != "info"]
            message = f"{len(bad)} finding{'s' if len(bad) != 1 else ''}: " + ", ".join(dict.fromkeys(f.rule for f in bad))
            out.append(f'      <failure type="lint" message={xml_attr(message)}>{xml_text(chr(10).join(lines))}</failure>')
        elif lines:
            out.append(f"      <system-out>{xml_text(chr(10).join(lines))}</system-out>")
        out.append("    </testcase>")
    out += ["  </testsuite>", "</testsuites>"]
    return "\n".join(out) + "\n"


def rule_doc(rule_id: str) -> str:
    """One rule's documentation in six parts, as `confnotes rules ID` prints it."""
    rule = load(rule_id)
    meta = rule.META
    option_lines = [f"- `{name}` (default `{_show(default)}`)" for name, default in option_defaults(rule.Options).items()] or ["None."]
    return "\n".join(
        [
            f"## {meta.id} {meta.name}",
            "",
            f"Severity: {meta.severity}. Tags: {', '.join(meta.tags)}. Fixable: {'yes' if meta.fixable else 'no'}. "
            + ("Profile: talk (runs for notes meant as a talk). " if meta.profile == "talk" else "Profile: every note. ")
            + ("On by default." if meta.default else "Opt-in: runs only when selected by id or name."),
            "",
            "**What it does.** " + meta.summary + ".",
            "",
            "**Why it matters.** " + meta.rationale,
            "",
            "**Example**",
            "",
            "```markdown",
            meta.bad.rstrip("\n"),
            "```",
            "",
            "**Use instead**",
            "",
            "```markdown",
            meta.good.rstrip("\n"),
            "```",
            "",
            "**Fix.** " + meta.fix_note,
            "",
            "**Options** (`[tool.confnotes.lint.rules." + meta.name + "]`, plus `severity`)",
            "",
            *option_lines,
            "",
        ]
    )


def _show(value: object) -> str:
    import json

    if value is None:
        return "slides setting"
    if isinstance(value, tuple):
        return "[" + ", ".join(json.dumps(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, str) else str(value)


def catalogue_markdown() -> str:
    """docs/rules.md, generated from the catalogue (a test fails when the file is stale)."""
    head = [
        "# Lint rules",
        "",
        "Generated by `python -m confnotes.lint.docs` from the rule catalogue; do not edit by hand.",
        "",
        "| id | name | severity | fix | runs | summary |",
        "|---|---|---|---|---|---|",
    ]
    for rule in modules():
        meta = rule.META
        runs = ("talks" if meta.profile == "talk" else "every note") + ("" if meta.default else ", opt-in")
        head.append(
            f"| [{meta.id}](#{rule_anchor(meta.id)}) | {meta.name} | {meta.severity} | "
            f"{'yes' if meta.fixable else ''} | {runs} | {meta.summary} |"
        )
    head += ["", *_MARKDOWNLINT, ""]
    return "\n".join(head) + "\n" + "\n".join(rule_doc(rule.META.id) for rule in modules())


#: How confnotes' rules line up with markdownlint's, and the differences that remain (and why).
_MARKDOWNLINT = [
    "## Against markdownlint",
    "",
    "Where a rule has a markdownlint twin, it behaves like it on the cases markdownlint documents "
    "(tests in `tests/test_lint_noise.py` mirror them). What still differs, on purpose:",
    "",
    "| confnotes | markdownlint | what differs, and why |",
    "|---|---|---|",
    "| heading-skip (CN102) | MD001 | Same: each heading against the one before it, the first at any level, "
    "a skip reported once. Headings confnotes inferred from pasted text are never reported (the author did not "
    "write a level). |",
    "| duplicate-heading (CN103) | MD024 | `siblings_only` is on by default (MD024's default is off): "
    '"Q&A" under Day 1 and under Day 2 is how conference notes are written. Inferred headings are ignored. |',
    "| numbering (CN105) | MD029 | Same styles (`one_or_ordered` default, `ordered`, `one`) and zero padding; "
    "a list may start at any number (MD029 wants 0 or 1): a list that continues after a paragraph starts at 2. "
    "Each list as written is checked on its own. |",
    "| mixed-markers (CN106) | MD004 | Compares bullets under one parent, not the whole note. |",
    "| inconsistent-indent (CN107) | MD005 | Right-aligned numbers (` 9.` over `10.`) are consistent, as in MD005; "
    "lists inside block quotes are checked too. |",
    "| heading-punctuation (CN202) | MD026 | Also checks a bold line that heads a list (`**Session 2:**`). |",
    "| bare-url (CN204) | MD034 | Opt-in: confnotes' pages and decks link bare URLs, as Markdown viewers do. |",
    "| empty-link (CN207) | MD042 | Same. |",
    "| missing-alt-text (CN208) | MD045 | An error, not a warning: tagged PDFs need alt text. |",
]


#: ``lint --format``: each report's writer, given the findings, the notes linted, whether the output
#: is a terminal, the rules' documentation URL (``[lint] docs_url``) and the notes that could not be linted.
REPORTS: dict[str, Callable[[list[Finding], list[str], bool, str | None, Sequence[NotesError]], str]] = {
    "text": lambda findings, _notes, terminal, _docs, _errors: text(findings, colour=terminal),
    "json": lambda findings, _notes, _terminal, _docs, _errors: as_json(findings),
    "github": lambda findings, _notes, _terminal, _docs, _errors: github(findings),
    "sarif": lambda findings, _notes, _terminal, docs, _errors: sarif(findings, docs),
    "junit": lambda findings, notes, _terminal, _docs, errors: junit(findings, notes, errors),
}


def rules_json(modules: list[Rule]) -> str:
    """The catalogue as data (``confnotes rules --format json``), for editors and CI dashboards."""
    out = []
    for rule in modules:
        meta = rule.META
        out.append(
            {
                "id": meta.id,
                "name": meta.name,
                "severity": meta.severity,
                "tags": list(meta.tags),
                "fixable": meta.fixable,
                "profile": meta.profile,
                "default": meta.default,
                "summary": meta.summary,
                "rationale": meta.rationale,
                "bad": meta.bad,
                "good": meta.good,
                "fix": meta.fix_note,
                "options": option_defaults(rule.Options),
            }
        )
    return strict_json(out, indent=2)
