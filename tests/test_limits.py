"""The limits table in docs/security.md is written from one registry (``confnotes.limits``) whose
values are the code's constants; every ``MAX_``/``MIN_`` constant is in it or named where it is
documented instead. The table was written by hand from 55 constants in 27 modules."""

from __future__ import annotations

import ast
from pathlib import Path

from confnotes.limits import ELSEWHERE, LIMITS, constant, with_table

ROOT = Path(__file__).resolve().parent.parent
SECURITY = ROOT / "docs" / "security.md"


def bounds_in_the_code() -> set[str]:
    """``module.NAME`` for every module-level ``MAX_``/``MIN_`` name the package assigns."""
    found = set()
    for path in (ROOT / "src" / "confnotes").rglob("*.py"):
        parts = list(path.relative_to(ROOT / "src").with_suffix("").parts)
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
            names = [elt for target in targets for elt in (target.elts if isinstance(target, ast.Tuple) else [target])]
            found |= {f"{module}.{name.id}" for name in names if isinstance(name, ast.Name) and name.id.startswith(("MAX_", "MIN_"))}
    return found


def test_the_docs_table_is_written_from_the_registry():
    text = SECURITY.read_text(encoding="utf-8")
    assert with_table(text) == text, "run `make docs`: docs/security.md's limits table differs from confnotes.limits"


def test_every_bound_is_registered_or_said_to_be_documented_elsewhere():
    registered = {path for limit in LIMITS for path in limit.values.values()}
    assert bounds_in_the_code() - registered - set(ELSEWHERE) == set()
    for path in [*registered, *ELSEWHERE]:
        constant(path)  # each names a constant that exists


def test_a_changed_constant_changes_the_table(monkeypatch):
    import confnotes.slides.limits

    monkeypatch.setattr(confnotes.slides.limits, "MAX_ENTRIES", 7_777)
    assert "| Entries on one slide before it is split | 7,777 |" in with_table(SECURITY.read_text(encoding="utf-8"))
