"""What the editor shows, made from an ``Analysis``: diagnostics, symbols, folds, lenses, hovers,
completions, links and code actions, as lsprotocol values. Pure: no I/O, no server state."""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from confnotes.errors import ErrorKind, NotesError
from confnotes.lsp.positions import UTF16, LineIndex, Pos, char_index

if TYPE_CHECKING:
    from confnotes.lint.types import Finding
    from confnotes.lsp.analysis import Analysis
    from confnotes.lsp.options import ServerOptions

SOURCE = "confnotes"
FIX_ALL = f"{lsp.CodeActionKind.SourceFixAll.value}.confnotes"
FORMAT = f"{lsp.CodeActionKind.Source.value}.format.confnotes"
SHOW_TIMING = "confnotes.showTiming"
#: opens the note's live deck in the browser; the deck then follows the cursor (``confnotes serve NOTE``)
PREVIEW = "confnotes.preview"
_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning, "info": lsp.DiagnosticSeverity.Information}
_DIRECTIVE_OPEN = re.compile(r"<!--\s*confnotes-(?:disable-next-line|disable|enable)\b[^>]*$")
_DIRECTIVE_START = re.compile(r"<!--\s*confnotes-[\w-]*$")
#: inside ``<!-- slide … -->`` (parse.directives): the part being typed, after ``slide`` or a ``;``
_SLIDE_OPEN = re.compile(r"<!--\s*slide\b(?:[^>;]*;)*\s*([\w-]*)(?:\s*:\s*([\w-]*))?$", re.IGNORECASE)
_ITEM = re.compile(r"^(\s*)(?:[-*+•◦▪‣⁃●○■□➢➤–—]|\d{1,9}[.)])\s+")


def _range(start: Pos, end: Pos) -> lsp.Range:
    return lsp.Range(lsp.Position(start.line, start.character), lsp.Position(end.line, end.character))


def _index(analysis: Analysis, encoding: str) -> LineIndex:
    return LineIndex(analysis.normalised, encoding)


# ---------------------------------------------------------------- diagnostics


def rule_tags(rule_id: str) -> tuple[str, ...]:
    """The rule's classes, from the catalogue (no rule module loads)."""
    from confnotes.lint.rules import BY_ID

    return BY_ID[rule_id].tags


def rule_link(rule_id: str, docs_url: str | None) -> str:
    """The rule's section of docs/rules.md: the project's published copy (``[lint] docs_url``), else the
    catalogue written once into the user's cache folder, which every editor can open."""
    from confnotes.lint.report import rule_anchor

    base = docs_url.split("#")[0] if docs_url else catalogue_file().as_uri()
    return f"{base}#{rule_anchor(rule_id)}"


@cache
def catalogue_file() -> Path:
    """docs/rules.md of this confnotes version (``confnotes rules`` as Markdown), written once."""
    import os
    import tempfile

    from confnotes._version import __version__
    from confnotes.lint.report import catalogue_markdown

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    for folder in (Path(base) / "confnotes", Path(tempfile.gettempdir()) / "confnotes"):
        path = folder / f"rules-{__version__}.md"
        try:
            if not path.is_file():
                folder.mkdir(parents=True, exist_ok=True)
                from confnotes.edges.output import write_atomic

                write_atomic(path, catalogue_markdown())
            return path
        except (OSError, NotesError):
            continue
    return Path(tempfile.gettempdir()) / "confnotes-rules.md"


def shown(finding: Finding, options: ServerOptions) -> bool:
    """Whether the editor's settings show this finding (its class, severity and rule)."""
    if not options.shows_severity(finding.severity):
        return False
    if options.ignore and finding.rule in _ignored(options.ignore):
        return False
    return all(options.shows_class(tag) for tag in rule_tags(finding.rule))


@cache
def _ignored(keys: tuple[str, ...]) -> frozenset[str]:
    from confnotes.lint.engine import resolve_rule_ids

    return frozenset(resolve_rule_ids(keys, "confnotes.config.ignore"))


def finding_range(index: LineIndex, finding: Finding) -> lsp.Range:
    """From the finding's column to the end of its line's text (at least one character)."""
    line = max(1, min(finding.line, len(index.lines)))
    text = index.lines[line - 1]
    start = index.at(line, finding.col)
    end_col = len(text.rstrip()) + 1
    if end_col <= finding.col:
        end_col = min(finding.col + 1, len(text) + 1)
    return _range(start, index.at(line, end_col))


def diagnostic(index: LineIndex, finding: Finding, docs_url: str | None) -> lsp.Diagnostic:
    return lsp.Diagnostic(
        range=finding_range(index, finding),
        message=f"{finding.message} ({finding.name})",
        severity=_SEVERITY[finding.severity],
        code=finding.rule,
        code_description=lsp.CodeDescription(href=rule_link(finding.rule, docs_url)),
        source=SOURCE,
        data={"rule": finding.rule, "name": finding.name, "fixable": finding.fix is not None},
    )


def error_diagnostic(index: LineIndex, analysis: Analysis, error: NotesError) -> lsp.Diagnostic:
    """A note or config confnotes cannot read, where it says: on the note's line, or the note's first
    line for a config file's problem (the message names the file and its line)."""
    same = error.path in (None, analysis.path)
    line = error.line if same and error.line else 1
    col = error.col if same and error.col else 1
    message = error.message if same else str(error)
    if error.kind == ErrorKind.CONFIG:
        message = f"config: {message}"
    start = index.at(line, col)
    return lsp.Diagnostic(
        range=_range(start, index.line_end(line) if index.line_end(line) > start else start),
        message=message,
        severity=lsp.DiagnosticSeverity.Error,
        code=str(error.kind),
        source=SOURCE,
    )


def diagnostics(analysis: Analysis, options: ServerOptions, encoding: str = UTF16) -> list[lsp.Diagnostic]:
    if not options.diagnostics:
        return []
    index = _index(analysis, encoding)
    out: list[lsp.Diagnostic] = []
    if analysis.too_large and options.shows_class("read"):
        megabytes = analysis.too_large / 1e6
        out.append(
            lsp.Diagnostic(
                range=_range(Pos(0, 0), Pos(0, 0)),
                message=f"the note is {megabytes:.1f} MB, over the {options.max_bytes / 1e6:g} MB confnotes checks as you type "
                "(setting confnotes.maxBytes); run 'confnotes lint' on it",
                severity=lsp.DiagnosticSeverity.Information,
                code="size",
                source=SOURCE,
            )
        )
    if analysis.error is not None and options.shows_class("read"):
        out.append(error_diagnostic(index, analysis, analysis.error))
    docs_url = analysis.settings.docs_url if analysis.settings is not None else None
    out += [diagnostic(index, finding, docs_url) for finding in analysis.findings if shown(finding, options)]
    return out


# ---------------------------------------------------------------- outline


def _one_line(text: str) -> str:
    return " ".join(text.split()) or "(untitled)"


def _symbol(index: LineIndex, node: dict[str, Any]) -> lsp.DocumentSymbol:
    start, end = node["span"]
    head = index.at(start, node.get("col") or 1)
    if node["kind"] == "section":
        kind, detail = lsp.SymbolKind.Namespace, "#" * int(node.get("level") or 1)
    elif node.get("number") is not None:
        kind, detail = lsp.SymbolKind.EnumMember, f"{node['number']}{node.get('delimiter') or '.'}"
    else:
        kind, detail = (lsp.SymbolKind.Key if node.get("label") else lsp.SymbolKind.Field), node.get("marker") or "-"
    children = [_symbol(index, child) for child in _nodes(node["content"])]
    return lsp.DocumentSymbol(
        name=_one_line(node["title"]),
        detail=detail,
        kind=kind,
        range=_range(head, index.line_end(end)),
        selection_range=_range(head, index.line_end(start)),
        children=children or None,
    )


def _nodes(content: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sections and items of ``content`` (a list's items in its place), in source order."""
    out: list[dict[str, Any]] = []
    for entry in content:
        if entry["kind"] == "list":
            out += entry["items"]
        elif entry["kind"] in ("section", "item"):
            out.append(entry)
    return out


def outline_json(analysis: Analysis) -> dict[str, Any] | None:
    """``outline --format json`` of the note (the model's public serialisation)."""
    from confnotes.export import to_dict

    return None if analysis.context is None else to_dict(analysis.context.doc)


def document_symbols(analysis: Analysis, encoding: str = UTF16) -> list[lsp.DocumentSymbol]:
    data = outline_json(analysis)
    if data is None:
        return []
    index = _index(analysis, encoding)
    return [_symbol(index, node) for node in _nodes(data["content"])]


def folding_ranges(analysis: Analysis) -> list[lsp.FoldingRange]:
    """Sections and lists (and the front matter) that span more than one line."""
    data = outline_json(analysis)
    if data is None:
        return []
    out: list[lsp.FoldingRange] = []
    front = analysis.context.doc.meta.front_matter_span if analysis.context is not None else None
    if front is not None and front.end > front.start:
        out.append(lsp.FoldingRange(start_line=front.start - 1, end_line=front.end - 1, kind=lsp.FoldingRangeKind.Imports))
    stack = list(data["content"])
    while stack:
        entry = stack.pop()
        if entry["kind"] not in ("section", "item", "list"):
            continue
        start, end = entry["span"]
        if entry["kind"] != "item" and end > start:
            out.append(lsp.FoldingRange(start_line=start - 1, end_line=end - 1, kind=lsp.FoldingRangeKind.Region))
        stack += entry.get("content", []) + entry.get("items", [])
    out.sort(key=lambda fold: (fold.start_line, -fold.end_line))
    return out


def section_index(doc: Any) -> list[tuple[str, int, str]]:
    """``(title, 0-based line, note title)`` of every section of a note, from its outline JSON: what
    workspace symbols search, small enough to keep for every note of a folder."""
    from confnotes.export import to_dict

    data = to_dict(doc)
    container = _one_line(data["meta"]["title"])
    out: list[tuple[str, int, str]] = []
    stack = list(reversed(data["content"]))
    while stack:
        entry = stack.pop()
        if entry["kind"] != "section":
            continue
        out.append((_one_line(entry["title"]), entry["span"][0] - 1, container))
        stack += reversed([child for child in entry["content"] if child["kind"] == "section"])
    return out


def workspace_symbols(path: str, sections: list[tuple[str, int, str]], query: str) -> list[lsp.WorkspaceSymbol]:
    """The sections whose title holds the query's characters in order (case-insensitive)."""
    uri = Path(path).as_uri()
    wanted = query.lower()
    return [
        lsp.WorkspaceSymbol(
            name=title,
            kind=lsp.SymbolKind.Namespace,
            location=lsp.Location(uri=uri, range=lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0))),
            container_name=container,
        )
        for title, line, container in sections
        if _matches(title, wanted)
    ]


def _matches(title: str, query: str) -> bool:
    """Every character of the query in the title, in order (as editors' symbol pickers match)."""
    if not query:
        return True
    lowered = title.lower()
    position = 0
    for char in query:
        position = lowered.find(char, position)
        if position < 0:
            return False
        position += 1
    return True


# ---------------------------------------------------------------- the talk clock


def code_lenses(analysis: Analysis, uri: str) -> list[lsp.CodeLens]:
    """``Preview deck`` over the title of a saved note; in talk notes also ``≈ 3:20 of 4:00`` over each
    part, and ``18:40 of a 20:00 slot`` at the top."""
    from confnotes.timing import Timing, format_minutes

    def lens(line: int, title: str, command: str = SHOW_TIMING) -> lsp.CodeLens:
        return lsp.CodeLens(
            range=lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0)),
            command=lsp.Command(title=title, command=command, arguments=[uri]),
        )

    previews = []
    if analysis.context is not None and os.path.isfile(analysis.path):
        span = analysis.context.doc.meta.title_span
        previews.append(lens(span.start - 1 if span is not None else 0, "Preview deck", PREVIEW))
    plan = analysis.timing()
    if not isinstance(plan, Timing):
        return previews

    total = plan.total_minutes
    slides = len(plan.slides)
    top = (
        f"{format_minutes(total)} of a {format_minutes(plan.slot_minutes)} slot" if plan.slot_minutes else f"≈ {format_minutes(total)} talk"
    )
    out = [lens(0, f"{top} · {slides} slide{'s' if slides != 1 else ''} at {plan.wpm} wpm")]
    if analysis.context is not None and analysis.context.doc.parts:
        for section in plan.sections:
            budget = f" of {format_minutes(section.budget_minutes)}" if section.budget_minutes is not None else ""
            over = " (over)" if section.status == "over" else ""
            out.append(lens(section.line - 1, f"≈ {format_minutes(section.minutes)}{budget}{over}"))
    return previews + out


def slide_at(analysis: Analysis, line: int) -> int:
    """The deck's slide (1 is the first) that shows what is written on ``line`` (1-based): within the
    innermost section holding the line, the last slide made from a line at or above it (the first
    part of one split over several), the section's first slide on its heading; the title slide above
    the first section."""
    from confnotes.model import SECTION, Node, walk_content

    if analysis.context is None:
        return 1
    slides = list(enumerate(analysis.context.fitted_deck.slides, 1))
    holding = [
        entry.span
        for entry in walk_content(analysis.context.doc.content)
        if type(entry) is Node and entry.kind == SECTION and entry.span.start <= line <= entry.span.end
    ]
    if holding:
        span = holding[-1]
        inside = [(number, slide.line) for number, slide in slides if span.start <= slide.line <= span.end]
        if inside:
            above = [pair for pair in inside if pair[1] <= line]
            return max(above, key=lambda pair: (pair[1], -pair[0]))[0] if above else inside[0][0]
    found, found_line = 1, 0
    for number, slide in slides:
        if found_line < slide.line <= line:
            found, found_line = number, slide.line
    return found


def timing_table(analysis: Analysis) -> str:
    """``confnotes time``'s table for the note, or why there is none."""
    from confnotes.timing import Timing, table

    plan = analysis.timing()
    if isinstance(plan, Timing):
        return table(plan)
    if isinstance(plan, NotesError):
        return str(plan)
    return "not a talk: add 'duration:', 'slides:' or 'kind: talk' to the front matter"


# ---------------------------------------------------------------- hover


def hover(analysis: Analysis, pos: lsp.Position, encoding: str = UTF16) -> lsp.Hover | None:
    """The rule's documentation on a finding; the spoken minutes, slides and budget on a part's heading."""
    from confnotes.lint.report import rule_doc

    index = _index(analysis, encoding)
    line = pos.line + 1
    docs_url = analysis.settings.docs_url if analysis.settings is not None else None
    on_line = [finding for finding in analysis.findings if finding.line == line]
    hit = [f for f in on_line if _covers(index, f, pos)] or on_line
    parts: list[str] = []
    for rule in dict.fromkeys(f.rule for f in hit):
        parts.append(rule_doc(rule) + f"\n[{rule} in the rule catalogue]({rule_link(rule, docs_url)})\n")
    timing = _section_hover(analysis, line)
    if timing:
        parts.insert(0, timing)
    if not parts:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value="\n---\n".join(parts)))


def _covers(index: LineIndex, finding: Finding, pos: lsp.Position) -> bool:
    found = finding_range(index, finding)
    return found.start.character <= pos.character <= found.end.character


def _section_hover(analysis: Analysis, line: int) -> str | None:
    from confnotes.timing import Timing, format_minutes

    plan = analysis.timing()
    if not isinstance(plan, Timing) or analysis.context is None or not analysis.context.doc.parts:
        return None
    for section in plan.sections:
        if section.line != line:
            continue
        spoken = section.words / plan.wpm
        text = (
            f"**{section.title}** — ≈ {format_minutes(section.minutes)} "
            f"({format_minutes(spoken)} spoken, {section.words} words at {plan.wpm} wpm; "
            f"{section.slides} slide{'s' if section.slides != 1 else ''} at {plan.slide_seconds:g} s each)"
        )
        if section.budget_minutes is not None:
            text += f"\n\nBudget {format_minutes(section.budget_minutes)}: " + (
                "over by more than 25%" if section.status == "over" else "on time"
            )
        return text
    return None


# ---------------------------------------------------------------- completion


def _front_matter_end(lines: list[str]) -> int | None:
    """The 0-based line of the closing fence, -1 while the front matter is still open, None without one."""
    if not lines or lines[0].strip() != "---":
        return None
    for number, text in enumerate(lines[1:], start=1):
        if text.strip() in ("---", "..."):
            return number
    return -1


def _front_matter_keys() -> list[tuple[str, str]]:
    from confnotes.parse.meta import KNOWN_META

    docs = {
        "title": "The note's title (else its # heading, …, its file name)",
        "kind": "notes, talk or reading-list; talk gets slide advice and the talk clock",
        "duration": "The talk's slot: 20min, 45m, 1h, 1h30m or 20:00",
        "budgets": "Minutes per section: a mapping of section titles to durations",
        "slides": "This note's slide settings (over [slides] in the config)",
        "lang": "The note's language (hyphenation, quotes)",
    }
    keys = sorted({*KNOWN_META, "duration", "budgets", "slides"})
    return [(key, docs.get(key, "front matter")) for key in keys]


_VALUES = {
    "kind": ["notes", "talk", "reading-list"],
    "duration": ["5min", "10min", "20min", "25min", "30min", "45min", "1h"],
    "agenda": ["true", "false"],
    "notes": ["true", "false"],
    "lang": ["en", "de", "fr", "es", "it", "nl", "pt", "ja", "zh"],
}


def completions(text: str, pos: lsp.Position, encoding: str = UTF16) -> list[lsp.CompletionItem]:
    """Front-matter keys and values, ``slides.*`` settings, rule ids in ``confnotes-disable``
    comments, and the keys and values of ``<!-- slide … -->`` directives."""
    from dataclasses import fields

    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if pos.line >= len(lines):
        return []
    current = lines[pos.line]
    prefix = current[: char_index(current, pos.character, encoding)]
    if _DIRECTIVE_OPEN.search(prefix):
        return _rule_items()
    if _DIRECTIVE_START.search(prefix):
        return [
            lsp.CompletionItem(label=f"confnotes-{action}", kind=lsp.CompletionItemKind.Keyword, insert_text=f"confnotes-{action} ")
            for action in ("disable", "enable", "disable-next-line")
        ]
    if (slide := _SLIDE_OPEN.search(prefix)) is not None:
        return _slide_items(slide.group(1).lower(), slide.group(2) is not None)
    end = _front_matter_end(lines)
    if end is None or pos.line == 0 or (end >= 0 and pos.line >= end):
        return []
    value = re.match(r"^(\s*)([A-Za-z_][\w-]*)\s*:\s*(\S*)$", prefix)
    if value is not None:
        return [lsp.CompletionItem(label=item, kind=lsp.CompletionItemKind.Value) for item in _VALUES.get(value.group(2), [])]
    key = re.match(r"^(\s*)([A-Za-z_][\w-]*)?$", prefix)
    if key is None:
        return []
    if key.group(1):  # indented: a key of the table above (slides:)
        parent = next((lines[n] for n in range(pos.line - 1, 0, -1) if lines[n].strip() and not lines[n][:1].isspace()), "")
        if not parent.startswith("slides:"):
            return []
        from confnotes.config.settings import SlideSettings

        return [
            lsp.CompletionItem(
                label=item.name,
                kind=lsp.CompletionItemKind.Property,
                detail=f"slides.{item.name} (default {item.default})",
                documentation=str(item.metadata.get("doc", "")),
                insert_text=f"{item.name}: ",
            )
            for item in fields(SlideSettings)
        ]
    return [
        lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Property, documentation=doc, insert_text=f"{name}: ")
        for name, doc in _front_matter_keys()
    ]


def _slide_items(key: str, after_colon: bool) -> list[lsp.CompletionItem]:
    """In a ``<!-- slide … -->`` comment: its keys and flags, or the values a key allows (the same
    lists lint rule CN114 checks against)."""
    from confnotes.parse.directives import FLAGS, KEYS, LAYOUTS, NOTES

    if after_colon:
        values = {"layout": LAYOUTS, "notes": NOTES, "class": ("invert", "lead")}.get(key, ())
        return [lsp.CompletionItem(label=value, kind=lsp.CompletionItemKind.EnumMember, detail=f"slide {key}") for value in values]
    out = [
        lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Property, detail="slide directive", insert_text=f"{name}: ")
        for name in KEYS
    ]
    return out + [lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Keyword, detail="slide directive") for name in FLAGS]


@cache
def _rule_items() -> list[lsp.CompletionItem]:
    from confnotes.lint.rules import CATALOGUE

    out = []
    for entry in CATALOGUE:
        out.append(lsp.CompletionItem(label=entry.id, kind=lsp.CompletionItemKind.EnumMember, detail=entry.name, sort_text=entry.id))
        out.append(lsp.CompletionItem(label=entry.name, kind=lsp.CompletionItemKind.EnumMember, detail=entry.id, sort_text=f"~{entry.id}"))
    return out


# ---------------------------------------------------------------- links


def document_links(analysis: Analysis, encoding: str = UTF16) -> list[lsp.DocumentLink]:
    """Relative links and images that name a file beside the note (as broken-link resolves them)."""
    from confnotes.edges.source import note_folder

    ctx = analysis.context
    folder = note_folder(analysis.path)
    if ctx is None or folder is None:
        return []
    index = _index(analysis, encoding)
    out: list[lsp.DocumentLink] = []
    for link in ctx.local_links:
        at_line, target = link.line, link.target
        file = folder / link.path
        if not file.exists() or at_line > len(index.lines):
            continue
        start = index.lines[at_line - 1].find(target)
        if start < 0:
            continue
        out.append(
            lsp.DocumentLink(
                range=_range(index.at(at_line, start + 1), index.at(at_line, start + 1 + len(target))),
                target=file.resolve().as_uri(),
                tooltip=link.path,
            )
        )
    return out


# ---------------------------------------------------------------- code actions


def text_edits(analysis: Analysis, finding: Finding, encoding: str = UTF16) -> list[lsp.TextEdit]:
    """A finding's fix as the client's edits (offsets into the normalised text; the note's line ends)."""
    if finding.fix is None:
        return []
    index = _index(analysis, encoding)
    newline = analysis.source.newline if analysis.source is not None else "\n"
    return [
        lsp.TextEdit(range=_range(index.position(edit.start), index.position(edit.end)), new_text=edit.replacement.replace("\n", newline))
        for edit in finding.fix.edits
    ]


def whole(analysis: Analysis, new_text: str, encoding: str = UTF16) -> list[lsp.TextEdit]:
    """Replace the document (as the client holds it) with ``new_text``; nothing when they are equal."""
    if new_text == analysis.text:
        return []
    end = LineIndex(analysis.text.replace("\r\n", "\n").replace("\r", "\n"), encoding).end()
    return [lsp.TextEdit(range=_range(Pos(0, 0), end), new_text=new_text)]


def disable_edit(analysis: Analysis, finding: Finding) -> lsp.TextEdit | None:
    """Insert ``<!-- confnotes-disable-next-line CNxxx -->`` above the finding's line, indented so that it
    stays inside the list item before it (a comment at the margin would split the list in two)."""
    ctx = analysis.context
    if ctx is None:
        return None
    front = ctx.doc.meta.front_matter_span
    if front is not None and finding.line <= front.end:
        return None  # nothing can stand above a line of the front matter
    lines = analysis.normalised.split("\n")
    above = next((lines[n] for n in range(finding.line - 2, -1, -1) if lines[n].strip()), "")
    target = lines[finding.line - 1] if finding.line <= len(lines) else ""
    item = _ITEM.match(above)
    if not _ITEM.match(target) and not target[:1].isspace():
        indent = ""  # a heading or paragraph at the margin: the comment stands on its own
    elif item is not None:
        indent = " " * len(item.group(0))  # inside the item above: its content column
    elif above[:1].isspace():
        indent = above[: len(above) - len(above.lstrip())]
    else:
        indent = target[: len(target) - len(target.lstrip())]
    newline = analysis.source.newline if analysis.source is not None else "\n"
    position = lsp.Position(finding.line - 1, 0)
    return lsp.TextEdit(
        range=lsp.Range(position, position), new_text=f"{indent}<!-- confnotes-disable-next-line {finding.rule} -->{newline}"
    )
