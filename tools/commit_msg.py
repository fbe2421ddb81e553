#!/usr/bin/env python3
"""Check a commit message as git and the kernel write them: a subject of at most 72 characters,
a blank line, then a body that says why. Used as a ``commit-msg`` hook:

    ln -s ../../tools/commit_msg.py .git/hooks/commit-msg      # or: pre-commit install -t commit-msg

``python tools/commit_msg.py --range A..B`` checks the commits of a range instead (reviews), and
``--pushed`` the commits CI is given: ``$CI_COMMIT_RANGE`` when the CI service names the pushed range,
else every commit since the rule was enforced (``ENFORCED_SINCE``; older ones are history).
Exit 1 with one line per problem; merge, fixup and revert commits git writes itself are let through.
"""

from __future__ import annotations

import subprocess
import sys

MAX_SUBJECT = 72
#: the last commit before every commit kept the rule (the 19 earlier problems stay in the history)
ENFORCED_SINCE = "c0c223599fdf78bce23f0d75b0152cf6d9762530"
GENERATED = ("Merge ", 'Revert "', "fixup! ", "squash! ", "amend! ")


def problems(message: str) -> list[str]:
    """What is wrong with ``message`` (comment lines, as git strips them, ignored)."""
    lines = [line for line in message.splitlines() if not line.startswith("#")]
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines or not lines[0].strip():
        return ["the message is empty"]
    subject = lines[0]
    if subject.startswith(GENERATED):
        return []
    found = []
    if len(subject) > MAX_SUBJECT:
        found.append(f"the subject is {len(subject)} characters; keep it to {MAX_SUBJECT} (say the rest in the body)")
    if subject.rstrip().endswith("."):
        found.append("the subject ends with a full stop")
    if len(lines) < 3 or lines[1].strip():
        found.append("no body: leave a blank line after the subject, then say why the change was made")
    return found


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[1] == "--pushed":
        import os

        known = subprocess.run(["git", "cat-file", "-e", f"{ENFORCED_SINCE}^{{commit}}"], capture_output=True).returncode == 0
        argv = [argv[0], "--range", os.environ.get("CI_COMMIT_RANGE") or (f"{ENFORCED_SINCE}..HEAD" if known else "-1 HEAD")]
    if len(argv) == 3 and argv[1] == "--range":
        listed = subprocess.run(["git", "rev-list", "--no-merges", *argv[2].split()], capture_output=True, text=True, check=True)
        shas = listed.stdout.split()
        messages = {
            sha: subprocess.run(["git", "log", "-1", "--format=%B", sha], capture_output=True, text=True, check=True).stdout for sha in shas
        }
    elif len(argv) == 2:
        with open(argv[1], encoding="utf-8") as handle:
            messages = {argv[1]: handle.read()}
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = 0
    for where, message in messages.items():
        for problem in problems(message):
            print(f"{where[:12]}: {problem}", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
