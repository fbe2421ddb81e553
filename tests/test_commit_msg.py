"""tools/commit_msg.py: the commit-msg check CONTRIBUTING.md asks for."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

from conftest import ROOT

TOOL = ROOT / "tools" / "commit_msg.py"
spec = importlib.util.spec_from_file_location("commit_msg", TOOL)
assert spec and spec.loader
commit_msg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(commit_msg)

GOOD = (
    "Keep --- breaks in fmt\n\n"
    "fmt deleted the author's separators between sections (307 lines in\n"
    "126 of 970 notes); they are now breaks in the model and written back.\n"
)


def test_a_good_message_passes():
    assert commit_msg.problems(GOOD) == []
    assert commit_msg.problems(GOOD + "# Please enter the commit message\n# Lines starting with '#' are ignored.\n") == []


def test_a_paragraph_in_the_subject_or_no_body_fails():
    long = "Simpler: PPTX reads a picture into one stream whether it is a file or a data: image; the two messages share wording"
    assert any("characters" in problem for problem in commit_msg.problems(long + "\n\nWhy.\n"))
    assert any("no body" in problem for problem in commit_msg.problems("Fix the build\n"))
    assert any("no body" in problem for problem in commit_msg.problems("Fix the build\nstraight on\n"))
    assert any("full stop" in problem for problem in commit_msg.problems("Fix the build.\n\nBecause.\n"))
    assert commit_msg.problems("\n\n") == ["the message is empty"]
    assert commit_msg.problems("Merge branch 'x'\n") == []


def test_as_a_hook(tmp_path, processes):
    message = tmp_path / "COMMIT_EDITMSG"
    message.write_text("Fix the build\n")
    run = subprocess.run([sys.executable, str(TOOL), str(message)], capture_output=True, text=True)
    assert run.returncode == 1 and "no body" in run.stderr
    message.write_text(GOOD)
    assert subprocess.run([sys.executable, str(TOOL), str(message)]).returncode == 0


def test_ci_checks_the_pushed_commits(tmp_path, processes):
    """The rule was written but not enforced (19 problems in 127 commits): CI runs ``--pushed``, which
    checks every commit since the rule held, or the range the CI service names."""
    assert "tools/commit_msg.py --pushed" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    here = subprocess.run([sys.executable, str(TOOL), "--pushed"], cwd=ROOT, capture_output=True, text=True)
    assert here.returncode == 0, here.stderr
    repo = tmp_path / "repo"
    git = ["git", "-C", str(repo), "-c", "user.name=T", "-c", "user.email=t@example.org"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "Start\n\nA first commit."], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "wip"], check=True)
    pushed = subprocess.run([sys.executable, str(TOOL), "--pushed"], cwd=repo, capture_output=True, text=True)
    assert pushed.returncode == 1 and "no body" in pushed.stderr  # a clone without the marker: its last commit
    ranged = subprocess.run(
        [sys.executable, str(TOOL), "--pushed"],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, "CI_COMMIT_RANGE": "HEAD~1..HEAD"},
    )
    assert ranged.returncode == 1 and ranged.stderr.count("\n") == 1


def test_nothing_the_package_needs_is_hidden_by_gitignore(processes):
    """A ``.gitignore`` line once hid a whole package for 24 commits: the checkout had it, a fresh clone
    did not. Every file below ``src/``, ``templates/`` and ``notes/`` (caches aside) is tracked."""
    hidden = subprocess.run(
        ["git", "ls-files", "--others", "--ignored", "--exclude-standard", "--", "src", "templates", "notes"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert [path for path in hidden if "__pycache__" not in path and not path.endswith(".egg-info") and ".egg-info/" not in path] == []
