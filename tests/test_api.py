"""The public API: ``confnotes.__all__`` and docs/api.md, whose examples run here in order."""

from __future__ import annotations

import re
import subprocess
import sys

import confnotes
from conftest import ROOT

API_DOC = ROOT / "docs" / "api.md"


def test_the_examples_in_docs_api_md_run(tmp_path, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", API_DOC.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) >= 6
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    for index, block in enumerate(blocks):
        exec(compile(block, f"docs/api.md block {index + 1}", "exec"), namespace)  # the docs' own examples
    assert (tmp_path / "talk.pptx").stat().st_size > 10_000


def test_every_public_name_resolves_and_is_documented():
    text = API_DOC.read_text(encoding="utf-8")
    for name in confnotes.__all__:
        assert getattr(confnotes, name) is not None
        if name[0].islower() and name != "__version__":
            assert f"`{name}(" in text, f"docs/api.md does not document {name}"


def test_no_public_name_is_also_a_module():
    """``confnotes.lint`` is a package: once imported, the attribute is the module, so a function of
    that name would vanish from under a user's script."""
    modules = {path.stem for path in (ROOT / "src" / "confnotes").iterdir() if path.suffix == ".py" or (path / "__init__.py").exists()}
    assert set(confnotes.__all__) & modules == set()


def test_importing_confnotes_stays_light(processes):
    """``import confnotes`` (what every command does first) loads none of the API's machinery: only
    the one-line module its version lives in."""
    code = "import sys, confnotes; print(sorted(m for m in sys.modules if m.startswith('confnotes')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['confnotes', 'confnotes._version']"
