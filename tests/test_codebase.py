"""Habits the code base keeps, checked: short functions, and tests that pass on a busy machine."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

SRC = ROOT / "src" / "confnotes"
TESTS = ROOT / "tests"
MAX_FUNCTION_LINES = 60
#: clocks that tell wall time: a test comparing them passes on a quiet machine and fails on a loaded one
WALL_CLOCKS = {"perf_counter", "perf_counter_ns", "time", "time_ns", "monotonic", "monotonic_ns"}


def long_functions(folder: Path) -> list[str]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_no_function_in_the_package_is_over_60_lines():
    """ruff's C90 (complexity 15, in pyproject.toml) bounds branches; this bounds length."""
    assert long_functions(SRC) == []


#: a class longer than this is several jobs: the 60-line cap on functions once moved a renderer's size
#: into one class of 582 lines (InlineRenderer, now one mixin a kind of inline markup)
MAX_CLASS_LINES = 400


def test_no_class_in_the_package_is_over_400_lines():
    found = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno and node.end_lineno - node.lineno + 1 > MAX_CLASS_LINES:
                found.append(f"{path.name}:{node.name} ({node.end_lineno - node.lineno + 1} lines)")
    assert found == []


def _reads_a_clock(node: ast.AST, timed: set[str]) -> bool:
    for child in ast.walk(node):
        if isinstance(child, ast.Call):
            func = child.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            owner = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else ""
            if name in WALL_CLOCKS and owner in ("time", ""):
                return True
        if isinstance(child, ast.Name) and child.id in timed:
            return True
    return False


def wall_clock_assertions(source: str) -> list[int]:
    """Lines of ``assert``s that compare wall-clock time (directly, or through a name assigned from a clock)."""
    tree = ast.parse(source)
    lines = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        timed: set[str] = set()
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and _reads_a_clock(node.value, timed):
                timed |= {target.id for target in node.targets if isinstance(target, ast.Name)}
        lines += [node.lineno for node in ast.walk(function) if isinstance(node, ast.Assert) and _reads_a_clock(node.test, timed)]
    return sorted(set(lines))


def test_no_test_asserts_wall_clock_time():
    """Speed lives in ``make bench``; a test may record a time (print it) but never assert one."""
    found = [
        f"{path.name}:{line}"
        for path in sorted(TESTS.rglob("test_*.py"))
        for line in wall_clock_assertions(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_scan_finds_what_it_looks_for():
    direct = "import time\ndef test_x():\n    t = time.perf_counter()\n    run()\n    assert time.perf_counter() - t < 2\n"
    through_a_name = "from time import monotonic\ndef test_x():\n    start = monotonic()\n    run()\n"
    through_a_name += "    took = monotonic() - start\n    assert took < 1\n"
    recorded = "import time\ndef test_x():\n    t = time.perf_counter()\n    assert run()\n    print(time.perf_counter() - t)\n"
    assert wall_clock_assertions(direct) == [5]
    assert wall_clock_assertions(through_a_name) == [6]
    assert wall_clock_assertions(recorded) == []
    assert long_functions(TESTS / "fixtures") == []


def test_every_rule_module_is_a_rule():
    """Each rule module satisfies the ``NoteRule`` or ``ProjectRule`` protocol the engine types
    them by: metadata, an options type whose fields have annotations, and the functions it calls."""
    import inspect
    from typing import get_type_hints

    from confnotes.lint.rules import CATALOGUE, load
    from confnotes.lint.types import RuleMeta

    for entry in CATALOGUE:
        rule = load(entry.id)
        assert isinstance(rule.META, RuleMeta) and rule.META.id == entry.id, entry.id
        assert set(get_type_hints(rule.Options)) == set(rule.Options._field_defaults), entry.id
        functions = ("facts", "check_project") if entry.project else ("check",)
        for name in functions:
            assert callable(getattr(rule, name, None)), f"{entry.id} has no {name}"
        if not entry.project:
            assert len(inspect.signature(rule.check).parameters) == 2, entry.id


def test_the_leftovers_stay_gone():
    """Rule helpers that only renamed a context's fields, a ``Fix.safe`` nobody read, ``[lint]`` as an
    untyped dict: each was a second name for one thing."""
    from confnotes.config import Config
    from confnotes.config.settings import LintConfig
    from confnotes.lint.rules import _util
    from confnotes.lint.types import Fix

    assert not {"sections", "items", "sibling_groups"} & set(vars(_util))
    assert "safe" not in Fix._fields
    assert Config().lint == LintConfig()


def test_a_manifest_entry_is_typed_as_its_check_reads_it():
    from typing import get_type_hints

    from confnotes.build.manifest import _ENTRY_FIELDS, ManifestEntry

    assert set(get_type_hints(ManifestEntry)) == set(_ENTRY_FIELDS) | {"search", "schedule", "talk"}
