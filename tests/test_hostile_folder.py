"""Every command over a folder of hostile notes and into a hostile site folder (issue "Hardening,
round 3", acceptance): no traceback, exit 0, 1 or 2, nothing written outside the output folders,
and no network or name lookup.

Each command runs in a fresh process with a bound on its memory and a generous time-out, and with
a ``sitecustomize`` that records (and refuses) every connection and name lookup. The whole temporary
tree — names, kinds, sizes, modification times and link targets — and a canary folder that planted
links point into are snapshotted before and after.
"""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from confnotes.build import MANIFEST
from helpers import formats_where

pytestmark = pytest.mark.skipif(os.name != "posix" or not hasattr(os, "mkfifo"), reason="needs POSIX links and pipes")

#: every process: killed past this (a read waiting on a pipe fails the test, not the suite)
TIMEOUT = 120
#: and refused memory past this (address space; WeasyPrint maps ~0.5 GB before any note)
MEMORY = 2 * 1024**3
TOKEN = "tok-30-hostile-folder"

#: refuses and records every connection (but to a local socket file) and every name lookup
NETWORK_GUARD = """
import os, socket

def _record(what, *args):
    with open(os.environ["CONFNOTES_NETWORK_LOG"], "a", encoding="utf-8") as log:
        log.write(f"{os.getpid()} {what} {args[:2]!r}\\n")
    raise OSError(f"no network in this test: {what}")

def _lookup(name):
    def refuse(*args, **kwargs):
        return _record(name, *args)
    return refuse

_connect, _connect_ex = socket.socket.connect, socket.socket.connect_ex

def connect(self, address):
    if self.family == getattr(socket, "AF_UNIX", None):
        return _connect(self, address)
    return _record("connect", address)

def connect_ex(self, address):
    if self.family == getattr(socket, "AF_UNIX", None):
        return _connect_ex(self, address)
    return _record("connect_ex", address)

socket.socket.connect, socket.socket.connect_ex = connect, connect_ex
for _name in ("getaddrinfo", "gethostbyname", "gethostbyname_ex", "gethostbyaddr", "create_connection"):
    setattr(socket, _name, _lookup(_name))
"""

TALK = (
    "---\n"
    'title: "Talk \\e]0;pwned\\a \\e[31mred\\e[0m \\u009b2J"\n'
    "event: PyCon\n"
    "---\n\n"
    "## Images\n\n"
    "- a web image ![logo](https://evil.example/logo.png) and ![rel](//evil.example/rel.png)\n"
    "- a share ![share](file://evil.example/share/x.png) and [a script](javascript:alert(1))\n"
    "- emoji 🚀 :rocket:\n\n"
    "## Code\n\n```python\nprint('x')\n```\n"
)
HTML_NOTE = (
    "# Raw HTML\n\n## Loads\n\n"
    '- <img src="file://evil.example/share/x.png"> and <img src="https://evil.example/i.png">\n'
    '- <iframe src="https://evil.example/frame"></iframe> <span style="background:url(//evil.example/s.png)">x</span>\n\n'
    '<link rel="stylesheet" href="//evil.example/sheet.css">\n\n'
    "<style>\nsection { background: url(https://evil.example/bg.png); }\n</style>\n"
)
YAML_NOTES = {
    "nan.md": "---\ntitle: NaN\nscore: .nan\n---\n# NaN\n\n- x\n",
    "date.md": "---\ntitle: Date\ndate: 2024-13-45\n---\n# Date\n\n- x\n",
    "digits.md": "---\ntitle: Digits\nn: " + "5" * 5000 + "\n---\n# Digits\n\n- x\n",
    "time.md": "---\ntitle: Time\nwhen: 2024-01-01T99:99:99\n---\n# Time\n\n- x\n",
}
HTML_IMPORT = (
    "<html><body><h1>Imported \x1b]0;x\x07</h1>"
    '<p><img src="https://evil.example/a.png"> <img src="file://evil.example/b.png"></p>'
    "<ul><li>one</li><li>two</li></ul></body></html>"
)


def _tree(root: Path, canary: Path) -> dict[str, Path]:
    """The hostile folders: notes/, tpl/ (a templates folder), site/ (an existing site) and in/
    (a file to import), with links planted into ``canary``."""
    notes, tpl, site, incoming = root / "notes", root / "tpl", root / "site", root / "in"
    for folder in (notes / "html", notes / "themed", notes / "sub", tpl, site, incoming, root / "out" / "cwd", root / "home"):
        folder.mkdir(parents=True)
    (canary / "dir").mkdir()
    for name in ("secret.md", "secret.css", "index.html", "manifest.json", "dir/x.html"):
        (canary / name).write_text(f"# Secret {TOKEN}\n\n- precious {name}\n")
    os.mkfifo(canary / "pipe")

    (notes / "talk.md").write_text(TALK, encoding="utf-8")
    (notes / "sub" / "x.md").write_text("# Sub\n\n## A\n\n- sub point\n")
    for name, text in YAML_NOTES.items():
        (notes / name).write_text(text)
    (notes / "deep-lists.md").write_text("# Deep\n\n" + "".join("  " * i + "- level\n" for i in range(200)))
    (notes / "deep-quotes.md").write_text("# Quotes\n\n" + ">" * 5000 + " deep\n")
    (notes / "mixed-deep.md").write_text("# Mixed\n\n" + "".join("  " * i + "- > level\n" for i in range(60)))
    os.mkfifo(notes / "fifo.md")
    (notes / os.fsdecode(b"bad-\xff\xfe-name.md")).write_text("# Bytes\n\n## A\n\n- a point\n")
    (notes / "ctrl-\x1b[31m\x07\r\nx.md").write_text("# \x1b]0;title\x07Ctrl \x1b[2J\n\n## A \x9b1m\n\n- a point\n")
    (notes / "link-out.md").symlink_to(canary / "secret.md")
    (notes / "link-dir").symlink_to(canary / "dir", target_is_directory=True)
    (notes / "loop.md").symlink_to(notes / "loop.md")
    (notes / "dangling.md").symlink_to(root / "nowhere.md")
    (notes / "html" / "confnotes.toml").write_text("allow_html = true\n")
    (notes / "html" / "page.md").write_text(HTML_NOTE)
    (notes / "themed" / "confnotes.toml").write_text('templates = "../../tpl"\nreference_pptx = "../../tpl/ref.pptx"\n')
    (notes / "themed" / "t.md").write_text("# Themed\n\n## A\n\n- a point\n")

    (tpl / "note.css").symlink_to(canary / "secret.css")
    (tpl / "deck.css").symlink_to(canary / "pipe")
    if Path("/proc/self/environ").exists():
        (tpl / "deck.js").symlink_to("/proc/self/environ")
    (tpl / "ref.pptx").symlink_to(canary / "pipe")

    (site / "index.html").symlink_to(canary / "index.html")
    (site / MANIFEST).symlink_to(canary / "manifest.json")
    (site / "sub").symlink_to(canary / "dir", target_is_directory=True)
    (incoming / "page.html").write_text(HTML_IMPORT, encoding="utf-8")
    return {"notes": notes, "site": site, "in": incoming, "out": root / "out", "home": root / "home"}


def _snapshot(root: Path) -> dict[str, tuple]:
    """Every name below ``root``, links not followed: its kind, and a file's size and modification
    time, a link's target (a folder's time changes with its entries, which are listed anyway)."""
    seen: dict[str, tuple] = {}
    for top, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(top, name)
            info = os.lstat(path)
            rel = os.path.relpath(path, root)
            if stat.S_ISLNK(info.st_mode):
                seen[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                seen[rel] = ("dir",)
            else:
                seen[rel] = (stat.S_IFMT(info.st_mode), info.st_size, info.st_mtime_ns)
    return seen


def _commands(paths: dict[str, Path]) -> tuple[list[list[str]], list[list[str]]]:
    """(commands that write only into out/ or the hostile site, commands that rewrite notes)."""
    notes, out, site = paths["notes"], paths["out"], paths["site"]
    every_note = sorted(str(notes / name) for name in os.listdir(notes) if name.endswith(".md"))
    every_note += [str(notes / "html" / "page.md"), str(notes / "themed" / "t.md"), str(notes / "sub" / "x.md")]
    shown_notes = [str(notes / "talk.md"), str(notes / "html" / "page.md"), str(notes / "themed" / "t.md")]
    shown_notes.append(next(note for note in every_note if "ctrl-" in note))
    formats = formats_where()
    reading: list[list[str]] = []
    for index, note in enumerate(every_note):
        reading += [["outline", note, "--format", "json"], ["time", note], ["time", note, "--format", "json"], ["lint", note]]
        reading.append(["render", note, "--to", "html", "-o", str(out / f"note-{index}.html")])
    for index, note in enumerate(shown_notes):
        reading += [["outline", note, "--format", fmt] for fmt in ("tree", "markdown", "opml")]
        reading += [["render", note, "--to", to, "-o", str(out / f"shown-{index}-{to}.out")] for to in formats]
        reading.append(["render", note, "--to", "marp", "--allow-remote", "-o", str(out / f"shown-{index}-remote.md")])
    reading += [["lint", str(notes), "--format", fmt] for fmt in ("text", "json", "github", "sarif", "junit")]
    reading += [["lint", str(notes), "-j", "2"], ["fmt", "--check", str(notes)], ["fmt", "--diff", str(notes)]]
    reading += [
        ["build", str(notes), "-o", str(out / "site"), "-j", "1"],
        ["build", str(notes), "-o", str(out / "site-j"), "-j", "2", "--to", "html,marp,outline"],
        ["build", str(notes), "-o", str(site), "-j", "1", "--to", "html,marp"],
        ["import", str(paths["in"] / "page.html"), "-o", str(out / "imported")],
        ["new", "New \x1b]0;x\x07 talk", "--dir", str(out / "new")],
    ]
    shards = str(out / "sharded")
    writing = [
        ["build", str(notes), "-o", shards, "--shard", "1/2", "--to", "html"],
        ["build", str(notes), "-o", shards, "--shard", "2/2", "--to", "html"],
        ["build", "-o", shards, "--merge"],
        ["lint", "--fix", str(notes)],
        ["fmt", str(notes)],
        ["time", str(notes / "talk.md"), "--write-budgets"],
    ]
    return reading, writing


def _run(args: list[str], env: dict[str, str], cwd: Path) -> tuple[list[str], subprocess.CompletedProcess[bytes]]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    command = [sys.executable, "-m", "confnotes", *args]
    try:
        return args, subprocess.run(
            command, capture_output=True, env=env, cwd=cwd, timeout=TIMEOUT, preexec_fn=limit, stdin=subprocess.DEVNULL
        )
    except subprocess.TimeoutExpired:  # a hang is this command's failure, reported with the others
        return args, subprocess.CompletedProcess(command, -1, b"", f"killed after {TIMEOUT} s (a hang)".encode())


def test_every_command_over_a_hostile_folder(tmp_path_factory, processes):
    root, canary, guard = (tmp_path_factory.mktemp(name) for name in ("hostile", "canary", "guard"))
    paths = _tree(root, canary)
    (guard / "sitecustomize.py").write_text(NETWORK_GUARD)
    network_log = guard / "network.log"
    network_log.write_text("")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(guard), os.environ.get("PYTHONPATH")])),
        "PYTHONDONTWRITEBYTECODE": "1",
        "CONFNOTES_NETWORK_LOG": str(network_log),
        "CONFNOTES_TEMPLATE_CACHE": "",
        "CONFNOTES_PLANTED_TOKEN": TOKEN,
        "HOME": str(paths["home"]),
        "XDG_CACHE_HOME": str(paths["out"] / "cache"),
        "NO_COLOR": "1",
    }
    control = subprocess.run(  # the guard is in force: a lookup is recorded (in a log of its own)
        [sys.executable, "-c", "import socket\ntry: socket.getaddrinfo('evil.example', 80)\nexcept OSError: pass"],
        env={**env, "CONFNOTES_NETWORK_LOG": str(guard / "control.log")},
        timeout=TIMEOUT,
    )
    assert control.returncode == 0 and "getaddrinfo" in (guard / "control.log").read_text()
    before, canary_before = _snapshot(root), _snapshot(canary)
    reading, writing = _commands(paths)
    cwd = paths["out"] / "cwd"
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda args: _run(args, env, cwd), reading))
    results += [_run(args, env, cwd) for args in writing]

    problems = []
    for args, result in results:
        stderr = result.stderr.decode("utf-8", "replace")
        shown = " ".join(repr(arg) if not arg.isprintable() else arg for arg in args)
        if result.returncode not in (0, 1, 2) or "Traceback" in stderr:
            problems.append(f"confnotes {shown}: exit {result.returncode}\n{stderr[-1500:]}")
        named_link = any(os.path.islink(arg) for arg in args)  # a link the user names is read, as cat reads it
        if TOKEN.encode() in result.stdout + result.stderr and not named_link:
            problems.append(f"confnotes {shown}: printed the planted secret")
    assert not problems, "\n\n".join(problems)
    assert network_log.read_text() == "", "a command connected or looked a name up"
    assert _snapshot(canary) == canary_before, "a file outside the tree was written through a link"

    after = _snapshot(root)
    allowed = ("out" + os.sep, "site" + os.sep)
    changed = sorted(
        rel
        for rel in set(before) | set(after)
        if before.get(rel) != after.get(rel) and not rel.startswith(allowed) and rel not in ("out", "site")
    )
    # fmt, lint --fix and time --write-budgets rewrite notes in place: regular files stay regular files
    rewritten = [
        rel for rel in changed if rel.startswith("notes") and before.get(rel, ("",))[0] == after.get(rel, ("",))[0] == stat.S_IFREG
    ]
    assert [rel for rel in changed if rel not in rewritten] == [], "written outside the output folders"
    for name in ("index.html", MANIFEST, "sub"):  # the hostile site's links are refused, never replaced
        assert after[os.path.join("site", name)] == before[os.path.join("site", name)]
    # the secrets (a linked note, the environment) reach no output but a render of the link the user named
    named = {args[args.index("-o") + 1] for args, _result in results if "-o" in args and any(os.path.islink(arg) for arg in args)}
    for top, _dirs, files in [*os.walk(paths["out"]), *os.walk(paths["site"])]:
        for name in files:
            if os.path.join(top, name) not in named and not os.path.islink(os.path.join(top, name)):
                assert TOKEN.encode() not in (Path(top) / name).read_bytes(), f"a planted secret is in {os.path.join(top, name)}"
