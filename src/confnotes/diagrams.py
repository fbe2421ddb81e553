"""Diagrams: a ```` ```mermaid ```` or ```` ```dot ```` fence drawn as SVG by the tool its language
names, once per source (cached by content hash), with no network and in bounded time.

- **Mermaid** through mermaid-cli (``mmdc``), which drives a headless Chromium: Debian's
  ``chromium`` (or ``CONFNOTES_CHROMIUM``), with a proxy that goes nowhere, so a diagram can
  fetch nothing. Labels are SVG text (``htmlLabels: false``): WeasyPrint and resvg draw no
  HTML inside an SVG. ``securityLevel: strict``: no click handlers, no HTML in labels.
- **Graphviz** through ``dot -Tsvg``, in an empty folder with ``SERVER_NAME`` set, the
  variable under which Graphviz reads no file the graph names (``image=``, ``shapefile=``)
  outside ``GV_FILE_PATH`` (the empty folder).

Without the tool, or when it fails or runs out of time, the fence is shown as code and one
warning says why (and the install line). The drawn SVG is cached in the cache folder
(``CONFNOTES_CACHE_DIR``, default ``.confnotes_cache``), so a build draws each diagram once,
and a rebuild draws none that did not change.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from confnotes.cachedir import keep, read_cached

#: A fence's language and the tool that draws it.
LANGUAGES = {"mermaid": "mermaid", "mmd": "mermaid", "dot": "dot", "graphviz": "dot", "gv": "dot"}
#: Seconds a tool may take for one diagram (Mermaid starts a browser: about 1.5 s).
TIMEOUT = 60
#: A diagram's source longer than this (characters) is shown as code: no slide holds its drawing.
MAX_SOURCE = 50_000
INSTALL = {
    "mermaid": "npm install -g @mermaid-js/mermaid-cli (it drives Debian's chromium: apt-get install chromium)",
    "dot": "apt-get install graphviz",
}
_MERMAID_CONFIG = {"htmlLabels": False, "flowchart": {"htmlLabels": False}, "securityLevel": "strict", "theme": "neutral"}


@dataclass(frozen=True, slots=True)
class Drawn:
    """A diagram drawn, or why not: ``svg`` is None and ``problem`` says what went wrong."""

    svg: str | None
    problem: str = ""


def diagram_name(tool: str) -> str:
    """What a drawing is called where it is named (alt text): "Mermaid diagram", "Graphviz diagram"."""
    return "Mermaid diagram" if tool == "mermaid" else "Graphviz diagram"


def language(info: str) -> str | None:
    """The tool a fence's info string names (``mermaid``, ``dot``), else None."""
    return LANGUAGES.get(info.strip().split(" ", 1)[0].lower()) if info else None


def _chromium() -> str | None:
    return (
        os.environ.get("CONFNOTES_CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
        or shutil.which("google-chrome")
    )


def program(tool: str) -> str | None:
    """The program that draws ``tool``'s diagrams on this machine, else None (``CONFNOTES_MMDC``
    and ``CONFNOTES_DOT`` name one off the PATH)."""
    if tool == "mermaid":
        found = os.environ.get("CONFNOTES_MMDC") or shutil.which("mmdc")
        return found if found and _chromium() else None
    if tool == "dot":
        return os.environ.get("CONFNOTES_DOT") or shutil.which("dot")
    return None


def shown_as_drawing(info: str) -> bool:
    """Whether a fence with this info string is drawn here (decks measure it as a picture then)."""
    tool = language(info)
    return tool is not None and program(tool) is not None


def _key(tool: str, path: str, source: str) -> str:
    try:
        stamp = f"{path}:{os.stat(path).st_mtime_ns}"  # a new version of the tool draws again
    except OSError:
        stamp = path
    settings = json.dumps(_MERMAID_CONFIG, sort_keys=True) if tool == "mermaid" else ""
    own = str(os.stat(__file__).st_mtime_ns)  # this module's way of drawing (its settings, sized())
    return hashlib.sha256("\0".join((tool, stamp, own, settings, source)).encode("utf-8", "surrogatepass")).hexdigest()


def shown_as_code(tool: str, source: str, problem: str | None) -> str:
    """The one warning for a diagram shown as its code, in every output: which one (its first
    line) and why."""
    first = " ".join(source.strip().split("\n", 1)[0].split())[:40]
    return f"{tool} diagram ({first}) shown as code: {problem}"


@lru_cache(maxsize=256)
def draw(tool: str, source: str) -> Drawn:
    """``source`` drawn by ``tool`` (``language``'s answer), from the cache when it was drawn before."""
    return _draw(tool, source.strip("\n").rstrip())


def not_drawn(tool: str, source: str) -> str | None:
    """Why ``source`` is not drawn here before any drawing is tried (its tool not installed, its
    source too long), else None."""
    return _missing(tool) if program(tool) is None else _too_long(source)


def _missing(tool: str) -> str:
    return f"{tool} is not installed ({INSTALL[tool]})"


def _too_long(source: str) -> str | None:
    if len(source) > MAX_SOURCE:
        return f"its source is {len(source):,} characters, more than a slide holds ({MAX_SOURCE:,})"
    return None


def _draw(tool: str, source: str) -> Drawn:
    path = program(tool)
    if path is None:
        return Drawn(None, _missing(tool))
    if (problem := _too_long(source)) is not None:
        return Drawn(None, problem)
    key = _key(tool, path, source)
    cached = read_cached("diagrams", key, ".svg")
    if cached is not None:
        return Drawn(cached)
    drawn = _mermaid(path, source) if tool == "mermaid" else _dot(path, source)
    if drawn.svg is None:
        return drawn
    svg = sized(drawn.svg)
    keep("diagrams", key, ".svg", svg)
    return Drawn(svg)


_ROOT = re.compile(r"<svg\b[^>]*>", re.S)
_VIEWBOX = re.compile(r'\bviewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"')


def drawn_size(svg: str) -> tuple[float, float] | None:
    """A drawing's width and height, from its root's view box (None without one)."""
    root = _ROOT.search(svg)
    box = _VIEWBOX.search(root.group(0)) if root else None
    return None if box is None else (float(box.group(1)), float(box.group(2)))


def sized(svg: str) -> str:
    """The drawing with its size in px on its root (Mermaid writes ``width="100%"``, which an
    image has no size for), from its view box; its id-scoped styles kept."""
    root = _ROOT.search(svg)
    box = _VIEWBOX.search(root.group(0)) if root else None
    if root is None or box is None:
        return svg
    width, height = (float(value) for value in box.groups())
    tag = re.sub(r'\s(?:width|height)="[^"]*"', "", root.group(0))
    tag = re.sub(r"max-width:\s*[\d.]+px;?\s*", "", tag)
    tag = tag.replace("<svg", f'<svg width="{width:.0f}" height="{height:.0f}"', 1)
    return svg[: root.start()] + tag + svg[root.end() :]


@lru_cache(maxsize=64)
def png(svg: str, width: int) -> bytes:
    """A drawing as a PNG ``width`` px wide (PPTX and Marp pictures), its labels in the system's fonts."""
    import resvg_py

    return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width))


def _run(command: list[str], source: str, folder: str, env: dict[str, str]) -> tuple[int, str, str]:
    """Run a tool in ``folder`` with a time bound; its whole process group is stopped at the bound."""
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        out, err = process.communicate(source.encode("utf-8", "replace"), timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        import signal

        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return -1, "", f"took longer than {TIMEOUT} s"
    return process.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def _reason(err: str) -> str:
    lines = [line.strip() for line in err.splitlines() if line.strip() and not line.strip().startswith("at ")]
    useful = [line for line in lines if "error" in line.lower()] or lines
    return " ".join(useful[:2])[:160] or "it drew nothing"


def _dot(path: str, source: str) -> Drawn:
    with tempfile.TemporaryDirectory(prefix="confnotes-dot-") as folder:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "SERVER_NAME": "confnotes", "GV_FILE_PATH": folder + "/", "HOME": folder}
        code, out, err = _run([path, "-Tsvg"], source, folder, env)
    if code != 0 or "<svg" not in out:
        return Drawn(None, _reason(err) if code != -1 else err)
    return Drawn(out[out.index("<svg") :])


def _mermaid(path: str, source: str) -> Drawn:
    chromium = _chromium()
    with tempfile.TemporaryDirectory(prefix="confnotes-mermaid-") as folder:
        base = Path(folder)
        # a proxy that goes nowhere: the browser fetches nothing, whatever the diagram names
        puppeteer = {"executablePath": chromium, "args": ["--no-sandbox", "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>"]}
        (base / "puppeteer.json").write_text(json.dumps(puppeteer), encoding="utf-8")
        (base / "mermaid.json").write_text(json.dumps(_MERMAID_CONFIG), encoding="utf-8")
        (base / "diagram.mmd").write_text(source, encoding="utf-8")
        env = {key: value for key, value in os.environ.items() if key in ("PATH", "LANG", "LC_ALL", "TMPDIR", "DISPLAY")}
        env.update({"HOME": folder, "PUPPETEER_SKIP_DOWNLOAD": "1"})
        command = [path, "-q", "-p", "puppeteer.json", "-c", "mermaid.json", "-i", "diagram.mmd", "-o", "diagram.svg"]
        code, _, err = _run(command, "", folder, env)
        try:
            svg = (base / "diagram.svg").read_text(encoding="utf-8")
        except OSError:
            svg = ""
    if code != 0 or "<svg" not in svg:
        return Drawn(None, _reason(err) if code != -1 else err)
    return Drawn(svg[svg.index("<svg") :])
