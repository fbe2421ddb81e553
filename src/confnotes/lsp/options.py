"""The server's own settings, sent by the editor (``initializationOptions`` or the ``confnotes`` section)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from confnotes.lint.rules import TAGS

#: Diagnostic classes: the catalogue's rule tags, plus ``read`` (a note or config confnotes cannot read).
CLASSES = (*TAGS, "read")
SEVERITY_NAMES = ("error", "warning", "info")


@dataclass(frozen=True)
class ServerOptions:
    """What the editor may switch: each diagnostic class and severity, single rules, the lenses and the timing."""

    diagnostics: bool = True
    #: class (a rule tag, or ``read``) -> shown; a rule is hidden when any of its tags is switched off
    classes: tuple[tuple[str, bool], ...] = ()
    severities: tuple[tuple[str, bool], ...] = ()
    ignore: tuple[str, ...] = ()  # rule ids, names or prefixes, as --ignore takes them
    code_lens: bool = True
    hover: bool = True
    debounce_ms: int = 150
    max_bytes: int = 2_000_000  # larger notes are not checked as you type

    def shows_class(self, name: str) -> bool:
        return dict(self.classes).get(name, True)

    def shows_severity(self, severity: str) -> bool:
        return dict(self.severities).get(severity, True)


def _flag(value: Any, default: bool, name: str, warnings: list[str]) -> bool:
    if isinstance(value, bool):
        return value
    if value is not None:
        warnings.append(f"confnotes.{name} must be true or false, not {value!r}; keeping {str(default).lower()}")
    return default


#: the smallest ``maxBytes``: a limit, never "none" (0) nor below one short note
MIN_MAX_BYTES = 1000


def _number(value: Any, default: int, low: int, high: int, name: str, warnings: list[str], clamp: bool = True) -> int:
    """The setting's number; one outside ``low``–``high`` is brought within (``clamp``), or the
    default is kept (a size limit: a negative one must not become "no limit")."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        warnings.append(f"confnotes.{name} must be a number from {low} to {high}, not {value!r}; keeping {default}")
        return default
    if not low <= value <= high and not clamp:
        warnings.append(f"confnotes.{name} {value!r} is outside {low}–{high}; keeping {default}")
        return default
    if not low <= value <= high:
        warnings.append(f"confnotes.{name} {value!r} is outside {low}–{high}; using {int(min(max(value, low), high))}")
    return int(min(max(value, low), high))


def read_options(raw: Any) -> tuple[ServerOptions, list[str]]:
    """Options from the editor's settings (``{"confnotes": {...}}`` or the section itself) and a warning
    for each value the server cannot use (its default is kept)."""
    warnings: list[str] = []
    if isinstance(raw, dict) and isinstance(raw.get("confnotes"), dict):
        raw = raw["confnotes"]
    if not isinstance(raw, dict):
        return ServerOptions(), warnings
    known = {"diagnostics", "ignore", "codeLens", "hover", "debounceMs", "maxBytes"}
    warnings += [f"unknown setting confnotes.{key}" for key in raw if key not in known]
    defaults = ServerOptions()
    diagnostics: Any = raw.get("diagnostics", {})
    enabled, classes, severities = True, [], []
    if isinstance(diagnostics, bool):
        enabled = diagnostics
    elif isinstance(diagnostics, dict):
        enabled = _flag(diagnostics.get("enable"), True, "diagnostics.enable", warnings)
        for key, value in diagnostics.items():
            if key == "enable":
                continue
            if key in CLASSES and isinstance(value, bool):
                classes.append((key, value))
            elif key in SEVERITY_NAMES and isinstance(value, bool):
                severities.append((key, value))
            else:
                warnings.append(
                    f"confnotes.diagnostics.{key}: expected one of {', '.join((*CLASSES, *SEVERITY_NAMES))} set to true or false"
                )
    else:
        warnings.append("confnotes.diagnostics must be true, false or a table")
    ignore = raw.get("ignore", [])
    if not isinstance(ignore, list) or not all(isinstance(item, str) for item in ignore):
        warnings.append("confnotes.config.ignore must be a list of rule ids or names")
        ignore = []
    else:
        from confnotes.errors import NotesError
        from confnotes.lint.engine import resolve_rule_ids

        try:
            resolve_rule_ids(ignore, "confnotes.config.ignore")
        except NotesError as exc:
            warnings.append(exc.message)
            ignore = []
    return (
        ServerOptions(
            diagnostics=enabled,
            classes=tuple(classes),
            severities=tuple(severities),
            ignore=tuple(ignore),
            code_lens=_flag(raw.get("codeLens"), defaults.code_lens, "codeLens", warnings),
            hover=_flag(raw.get("hover"), defaults.hover, "hover", warnings),
            debounce_ms=_number(raw.get("debounceMs"), defaults.debounce_ms, 0, 5000, "debounceMs", warnings),
            max_bytes=_number(raw.get("maxBytes"), defaults.max_bytes, MIN_MAX_BYTES, 64 * 1024 * 1024, "maxBytes", warnings, clamp=False),
        ),
        warnings,
    )


def option_names() -> list[str]:
    return [item.name for item in fields(ServerOptions)]
