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
and a rebuild draws none that did not change; a diagram that ran out of its own time is
remembered there too (by its source's hash), so no rebuild waits for it again.

Time is bounded three ways: ``TIMEOUT`` a diagram, ``NOTE_SECONDS`` for all the diagrams of one
note (in all its formats), ``BUILD_SECONDS`` for a whole build (shared by its worker processes).
A diagram past a note's or a build's budget is shown as code with a warning, and is not
remembered: the next build, with the drawings already made in the cache, draws on.
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
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from confnotes.edges.cachedir import keep, read_cached

#: A fence's language and the tool that draws it.
LANGUAGES = {"mermaid": "mermaid", "mmd": "mermaid", "dot": "dot", "graphviz": "dot", "gv": "dot"}
#: Seconds a tool may take for one diagram (Mermaid starts a browser: about 1.5 s).
TIMEOUT = 60
#: Seconds the drawing of one note's diagrams may take together, in all the formats of a build.
NOTE_SECONDS = 120
#: Seconds the drawing of a build's diagrams may take together, across its worker processes.
BUILD_SECONDS = 900
#: Less time than this left in a budget is not worth starting a tool for.
_LEAST = 0.5
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
    timed_out: bool = False


class _OverBudget(Exception):
    """A diagram not drawn for want of a note's or build's time: never cached, drawn next time."""


_NOTE: ContextVar[list[float] | None] = ContextVar("confnotes_diagram_seconds", default=None)
#: the build's seconds left: a ``multiprocessing.Value`` its workers share, or None outside a build
_BUILD: Any = None


@contextmanager
def note_budget() -> Iterator[None]:
    """Count the seconds one note's diagrams take to draw (entered again inside, it counts on)."""
    if _NOTE.get() is not None:
        yield
        return
    token = _NOTE.set([float(NOTE_SECONDS)])
    try:
        yield
    finally:
        _NOTE.reset(token)


@contextmanager
def build_budget() -> Iterator[Any]:
    """Count the seconds a build's diagrams take to draw; yields what its workers are handed
    (``share_build_budget`` in each)."""
    import multiprocessing

    global _BUILD
    previous, _BUILD = _BUILD, multiprocessing.Value("d", float(BUILD_SECONDS))
    try:
        yield _BUILD
    finally:
        _BUILD = previous


def shared_build_budget() -> Any:
    """What ``build_budget`` hands its workers (None outside a build)."""
    return _BUILD


def share_build_budget(left: Any) -> None:
    """A build worker's start: its diagrams draw on the build's budget."""
    global _BUILD
    _BUILD = left


def _allowance() -> tuple[float, str | None]:
    """How long the next drawing may take, and the budget that bounds it (None: its own ``TIMEOUT``)."""
    limits: list[tuple[float, str | None]] = [(float(TIMEOUT), None)]
    note = _NOTE.get()
    if note is not None:
        limits.append((note[0], f"the note's diagrams took their {NOTE_SECONDS} s"))
    if _BUILD is not None:
        limits.append((_BUILD.value, f"the build's diagrams took their {BUILD_SECONDS} s"))
    return min(limits, key=lambda limit: limit[0])


def _charge(seconds: float) -> None:
    note = _NOTE.get()
    if note is not None:
        note[0] -= seconds
    if _BUILD is not None:
        with _BUILD.get_lock():
            _BUILD.value -= seconds


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


def _key(tool: str, path: str, source: str, ink: str | None) -> str:
    try:
        stamp = f"{path}:{os.stat(path).st_mtime_ns}"  # a new version of the tool draws again
    except OSError:
        stamp = path
    settings = json.dumps(_mermaid_config(ink), sort_keys=True) if tool == "mermaid" else " ".join(_dot_inked(ink))
    own = str(os.stat(__file__).st_mtime_ns)  # this module's way of drawing (its settings, sized())
    return hashlib.sha256("\0".join((tool, stamp, own, settings, source)).encode("utf-8", "surrogatepass")).hexdigest()


def _mermaid_config(ink: str | None) -> dict[str, Any]:
    """Mermaid's settings: its neutral theme on a light ground; on a dark one its dark theme, its
    lines and labels in ``ink``."""
    if ink is None:
        return _MERMAID_CONFIG
    inked = {"primaryTextColor": ink, "secondaryTextColor": ink, "tertiaryTextColor": ink, "textColor": ink, "lineColor": ink}
    return {**_MERMAID_CONFIG, "theme": "dark", "themeVariables": {"darkMode": True, "background": "transparent", **inked}}


def _dot_inked(ink: str | None) -> list[str]:
    """Graphviz's defaults on a dark ground: no white sheet, lines and labels in ``ink`` (what a
    graph sets itself, it keeps)."""
    if ink is None:
        return []
    return ["-Gbgcolor=transparent", *(f"-{part}{name}={ink}" for part in "GNE" for name in ("color", "fontcolor"))]


def shown_as_code(tool: str, source: str, problem: str | None) -> str:
    """The one warning for a diagram shown as its code, in every output: which one (its first
    line) and why."""
    first = " ".join(source.strip().split("\n", 1)[0].split())[:40]
    return f"{tool} diagram ({first}) shown as code: {problem}"


def draw(tool: str, source: str, ink: str | None = None) -> Drawn:
    """``source`` drawn by ``tool`` (``language``'s answer), from the cache when it was drawn before.
    ``ink``: drawn for a dark ground, its lines and labels in that colour and no background of its
    own (a dark theme's deck, a dark slide); None: the tool's light drawing."""
    try:
        return _drawn(tool, source.strip("\n").rstrip(), ink)
    except _OverBudget as exc:
        return Drawn(None, str(exc))


@lru_cache(maxsize=256)
def _drawn(tool: str, source: str, ink: str | None) -> Drawn:
    return _draw(tool, source, ink)


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


def _draw(tool: str, source: str, ink: str | None) -> Drawn:
    path = program(tool)
    if path is None:
        return Drawn(None, _missing(tool))
    if (problem := _too_long(source)) is not None:
        return Drawn(None, problem)
    key = _key(tool, path, source, ink)
    cached = read_cached("diagrams", key, ".svg")
    if cached is not None:
        return Drawn(cached)
    failed = read_cached("diagrams", key, ".timeout")
    if failed is not None:
        return Drawn(None, failed, timed_out=True)
    seconds, budget = _allowance()
    if budget is not None and seconds < _LEAST:
        raise _OverBudget(f"{budget}; the next build draws on")
    started = time.monotonic()
    try:
        drawn = _mermaid(path, source, seconds, ink) if tool == "mermaid" else _dot(path, source, seconds, ink)
    finally:
        _charge(time.monotonic() - started)
    if drawn.timed_out and budget is not None:
        raise _OverBudget(f"{budget}; the next build draws on")
    if drawn.timed_out:  # its own time: remembered, so no rebuild waits for it again until it changes
        keep("diagrams", key, ".timeout", f"{drawn.problem} (when last tried; it is tried again once it changes)")
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


def _run(command: list[str], source: str, folder: str, env: dict[str, str], seconds: float) -> tuple[int, str, str]:
    """Run a tool in ``folder`` for at most ``seconds``; its whole process group is stopped then
    (code -1)."""
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        out, err = process.communicate(source.encode("utf-8", "replace"), timeout=seconds)
    except subprocess.TimeoutExpired:
        import signal

        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return -1, "", f"took longer than {seconds:.0f} s"
    return process.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def _failed(code: int, err: str) -> Drawn:
    return Drawn(None, err, timed_out=True) if code == -1 else Drawn(None, _reason(err))


def _reason(err: str) -> str:
    lines = [line.strip() for line in err.splitlines() if line.strip() and not line.strip().startswith("at ")]
    useful = [line for line in lines if "error" in line.lower()] or lines
    return " ".join(useful[:2])[:160] or "it drew nothing"


def _dot(path: str, source: str, seconds: float, ink: str | None) -> Drawn:
    with tempfile.TemporaryDirectory(prefix="confnotes-dot-") as folder:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "SERVER_NAME": "confnotes", "GV_FILE_PATH": folder + "/", "HOME": folder}
        code, out, err = _run([path, "-Tsvg", *_dot_inked(ink)], source, folder, env, seconds)
    if code != 0 or "<svg" not in out:
        return _failed(code, err)
    return Drawn(out[out.index("<svg") :])


def _mermaid(path: str, source: str, seconds: float, ink: str | None) -> Drawn:
    chromium = _chromium()
    with tempfile.TemporaryDirectory(prefix="confnotes-mermaid-") as folder:
        base = Path(folder)
        # a proxy that goes nowhere: the browser fetches nothing, whatever the diagram names
        puppeteer = {"executablePath": chromium, "args": ["--no-sandbox", "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>"]}
        (base / "puppeteer.json").write_text(json.dumps(puppeteer), encoding="utf-8")
        (base / "mermaid.json").write_text(json.dumps(_mermaid_config(ink)), encoding="utf-8")
        (base / "diagram.mmd").write_text(source, encoding="utf-8")
        env = {key: value for key, value in os.environ.items() if key in ("PATH", "LANG", "LC_ALL", "TMPDIR", "DISPLAY")}
        env.update({"HOME": folder, "PUPPETEER_SKIP_DOWNLOAD": "1"})
        command = [path, "-q", "-p", "puppeteer.json", "-c", "mermaid.json", "-i", "diagram.mmd", "-o", "diagram.svg"]
        command += ["-b", "transparent"] if ink else []
        code, _, err = _run(command, "", folder, env, seconds)
        try:
            svg = (base / "diagram.svg").read_text(encoding="utf-8")
        except OSError:
            svg = ""
    if code != 0 or "<svg" not in svg:
        return _failed(code, err)
    return Drawn(svg[svg.index("<svg") :])
