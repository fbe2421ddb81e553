"""confnotes benchmarks: ``make bench``. Prints a Markdown table and writes docs/benchmarks.md.

Everything is measured in one run on one machine, side by side: the bare markdown-it-py
parse that confnotes builds on, confnotes itself in-process and as the CLI, and peers when
they are installed (markdownlint-cli2 and marp-cli from npm, pandoc from the
pypandoc-binary wheel). Times are medians of several runs (wall clock).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import WORDS, hundred_page_docx, write_corpus  # noqa: E402
from site_search import BEGIN as SITE_BEGIN  # noqa: E402
from site_search import END as SITE_END  # noqa: E402
from sizes import MARKER as SIZES_MARKER  # noqa: E402

PY = sys.executable
CLI = [PY, "-m", "confnotes"]
#: why a target is missed, by the start of its name: measured facts, filled in as the run goes
WHY: dict[str, str] = {}


def median_time(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def interleaved(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Median time of each function, running them in turn so machine drift hits all alike."""
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in samples.items()}


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


def timed_cmd(cmd: list[str], repeat: int, env: dict | None = None) -> float:
    return median_time(lambda: run(cmd, env=env), repeat)


def package_profile(fn: Callable[[], object]) -> dict[str, float]:
    """Where ``fn``'s time goes, in seconds of own time under cProfile, by package: confnotes by
    sub-package (``confnotes.slides``), other libraries by name, C methods of lxml as ``lxml``.
    cProfile's own cost weighs on Python calls, so the shares, not the sums, are what to read."""
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    fn()
    profiler.disable()
    shares: dict[str, float] = {}
    for (file, _line, name), row in pstats.Stats(profiler).stats.items():  # type: ignore[attr-defined]
        package = _package_of(file, name)
        shares[package] = shares.get(package, 0.0) + row[2]
    return shares


def _package_of(file: str, name: str) -> str:
    parts = Path(file).parts
    if "confnotes" in parts and "site-packages" not in parts:
        rest = parts[parts.index("confnotes") + 1 :]
        return "confnotes." + (rest[0].removesuffix(".py") if rest else "")
    if "site-packages" in parts:
        rest = parts[parts.index("site-packages") + 1 :]
        if rest[0] == "pptx" and len(rest) > 2:  # python-pptx by part: text, shapes, oxml (XML), opc (the package)
            return "pptx." + rest[1]
        return rest[0].removesuffix(".py")
    if file == "~":
        return "lxml" if "lxml" in name else "built-ins"
    return "standard library"


def shares_text(shares: dict[str, float], top: int = 6) -> str:
    """``confnotes.slides 31%, markdown_it 28%, …``: the costliest packages, as shares of the whole."""
    total = sum(shares.values()) or 1.0
    ranked = sorted(shares.items(), key=lambda kv: -kv[1])[:top]
    return ", ".join(f"{name} {100 * value / total:.0f}%" for name, value in ranked)


def import_profile(cmd: list[str], repeat: int) -> tuple[dict[str, float], dict[str, float]]:
    """What ``cmd`` (a Python program) imports, by self time in ms: medians over ``repeat`` runs of
    ``python -X importtime``, grouped by top-level package, and by module."""
    runs: list[dict[str, float]] = []
    for _ in range(repeat):
        err = run([*cmd], env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}).stderr
        found: dict[str, float] = {}
        for line in err.splitlines():
            match = re.match(r"import time:\s+(\d+) \|\s+\d+ \|(\s*)(\S+)", line)
            if match:
                found[match.group(3)] = found.get(match.group(3), 0.0) + int(match.group(1)) / 1000
        runs.append(found)
    modules = {name: statistics.median(found.get(name, 0.0) for found in runs) for name in runs[0]}
    groups: dict[str, float] = {}
    for name, ms in modules.items():
        top = name.split(".")[0].lstrip("_")
        key = top if top in {"confnotes", "markdown_it", "mdit_py_plugins", "click", "yaml", "json"} else "other modules"
        groups[key] = groups.get(key, 0.0) + ms
    return groups, modules


def peak_rss_mb(cmd: list[str]) -> float:
    """Peak resident memory of a command (its process tree), from GNU time."""
    gnu_time = shutil.which("time") or "/usr/bin/time"
    if not Path(gnu_time).exists():
        return float("nan")
    proc = run([gnu_time, "-f", "%M", *cmd])
    return int(proc.stderr.strip().splitlines()[-1]) / 1024


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str]] = []

    def add(self, what: str, value: str, baseline: str = "", ratio: str = "") -> None:
        self.rows.append((what, value, baseline, ratio))
        print(f"  {what}: {value}  {baseline}  {ratio}", flush=True)

    def markdown(self) -> str:
        out = ["| measurement | confnotes | baseline | ratio |", "|---|---:|---:|---:|"]
        out += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in self.rows]
        return "\n".join(out)


def secs(value: float) -> str:
    return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repeats (for a smoke run)")
    parser.add_argument("--write", default=str(ROOT / "docs" / "benchmarks.md"), help="where to write the report")
    args = parser.parse_args()
    repeat = 1 if args.quick else 3

    # measure confnotes as installed: with bytecode, as pip leaves it
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "src")], capture_output=True)
    from markdown_it import MarkdownIt

    from confnotes.check import Checker, LintRequest
    from confnotes.fmt import format_markdown
    from confnotes.parse import parse

    work = Path(tempfile.mkdtemp(prefix="confnotes-bench-"))
    corpora = {}
    for style in ("markdown", "pasted"):
        corpora[(style, 1000)] = write_corpus(work / f"{style}-1000", 1000, style)
        for size in (1, 100):
            folder = work / f"{style}-{size}"
            folder.mkdir()
            for path in corpora[(style, 1000)][:size]:
                shutil.copy(path, folder / path.name)
            corpora[(style, size)] = sorted(folder.glob("*.md"))
    mixed = work / "mixed-1000"
    mixed.mkdir()
    for index, path in enumerate(corpora[("markdown", 1000)][:500] + corpora[("pasted", 1000)][500:]):
        shutil.copy(path, mixed / f"m{index:04d}.md")
    mixed_paths = sorted(mixed.glob("*.md"))
    size_kb = sum(p.stat().st_size for p in mixed_paths) / len(mixed_paths) / 1024
    print(f"corpus: {work} ({size_kb:.1f} KB a note)", flush=True)

    table = Table()
    targets: list[tuple[str, str, bool]] = []
    bare_md = MarkdownIt("commonmark").enable("table")

    # 1. bare parse vs outline / lint / fmt, in-process
    print("in-process, over 1, 100 and 1,000 notes:", flush=True)
    bare_1000 = None
    for style in ("markdown", "pasted"):
        for size in (1, 100, 1000):
            paths = [str(p) for p in corpora[(style, size)]]
            reps = repeat if size >= 100 else 20
            checker = Checker(LintRequest(jobs=1))

            def fmt_check(paths: list[str] = paths) -> None:
                for p in paths:
                    text = Path(p).read_text(encoding="utf-8")
                    format_markdown(parse(text, p)) == text  # noqa: B015 - what fmt --check computes

            times = interleaved(
                {
                    "bare": lambda paths=paths: [bare_md.parse(Path(p).read_text(encoding="utf-8")) for p in paths],
                    "outline": lambda paths=paths: [parse(Path(p).read_text(encoding="utf-8"), p) for p in paths],
                    "lint": lambda paths=paths, checker=checker: [checker.lint_note(p) for p in paths],
                    "fmt": fmt_check,
                },
                reps,
            )
            bare, outline, lint, fmt = times["bare"], times["outline"], times["lint"], times["fmt"]
            label = f"{style}, {size} note{'s' if size > 1 else ''}"
            table.add(f"outline, {label}", secs(outline), f"bare parse {secs(bare)}", f"{outline / bare:.2f}x")
            table.add(f"lint, {label}", secs(lint), f"bare parse {secs(bare)}", f"{lint / bare:.2f}x")
            table.add(f"fmt --check, {label}", secs(fmt), f"bare parse {secs(bare)}", f"{fmt / bare:.2f}x")

    # the 1,000-note mixed corpus: the headline numbers
    print("1,000 mixed notes:", flush=True)
    paths = [str(p) for p in mixed_paths]
    checker = Checker(LintRequest(jobs=1))
    times = interleaved(
        {
            "bare": lambda: [bare_md.parse(Path(p).read_text(encoding="utf-8")) for p in paths],
            "lint": lambda: [checker.lint_note(p) for p in paths],
        },
        max(repeat, 5),
    )
    bare_1000, lint_inproc = times["bare"], times["lint"]
    table.add("lint 1,000 notes, in-process", secs(lint_inproc), f"bare parse {secs(bare_1000)}", f"{lint_inproc / bare_1000:.2f}x")
    targets.append(
        ("lint of 1,000 notes <= 1.3x the bare parse (one process)", f"{lint_inproc / bare_1000:.2f}x", lint_inproc / bare_1000 <= 1.3)
    )
    cache = work / "cache"
    env = {**os.environ, "CONFNOTES_CACHE_DIR": str(cache)}
    cli_j1 = timed_cmd([*CLI, "lint", str(mixed), "--no-cache", "-j", "1"], repeat, env)
    table.add("`confnotes lint` 1,000 notes, -j 1", secs(cli_j1), f"bare parse {secs(bare_1000)}", f"{cli_j1 / bare_1000:.2f}x")
    cli_jn = timed_cmd([*CLI, "lint", str(mixed), "--no-cache"], repeat, env)
    cores = os.cpu_count() or 1
    table.add(
        f"`confnotes lint` 1,000 notes, -j {cores} (default)", secs(cli_jn), f"bare parse {secs(bare_1000)}", f"{cli_jn / bare_1000:.2f}x"
    )
    targets.append(("lint with -j (all cores) < the bare single-process parse", f"{cli_jn / bare_1000:.2f}x", cli_jn < bare_1000))
    shutil.rmtree(cache, ignore_errors=True)
    run([*CLI, "lint", str(mixed)], env=env)  # fill the cache
    cached = timed_cmd([*CLI, "lint", str(mixed)], repeat, env)
    table.add("`confnotes lint` 1,000 unchanged notes, cached", secs(cached), f"bare parse {secs(bare_1000)}", f"{cached / bare_1000:.2f}x")
    targets.append(("cached lint of an unchanged folder <= 0.2x the bare parse", f"{cached / bare_1000:.2f}x", cached / bare_1000 <= 0.2))
    fmt_cli = timed_cmd([*CLI, "fmt", "--check", str(mixed)], repeat)
    table.add(
        "`confnotes fmt --check` 1,000 unformatted notes (every one would change)",
        secs(fmt_cli),
        f"bare parse {secs(bare_1000)}",
        f"{fmt_cli / bare_1000:.2f}x",
    )
    formatted = work / "formatted-1000"
    shutil.copytree(mixed, formatted)
    run([*CLI, "fmt", str(formatted)])  # as a project that runs fmt keeps its notes
    fmt_done = timed_cmd([*CLI, "fmt", "--check", str(formatted)], repeat)
    table.add(
        "`confnotes fmt --check` 1,000 formatted notes (CI)",
        secs(fmt_done),
        f"bare parse {secs(bare_1000)}",
        f"{fmt_done / bare_1000:.2f}x",
    )
    targets.append(
        ("`fmt --check` of 1,000 formatted notes <= 1.5x the bare parse", f"{fmt_done / bare_1000:.2f}x", fmt_done / bare_1000 <= 1.5)
    )
    WHY["`fmt --check` of 1,000"] = (
        f"Unformatted notes cost {fmt_cli / bare_1000:.2f}x: a note whose text would change is parsed a second time "
        "from the text fmt would write, to prove its ordered outline unchanged (fmt's safety promise); "
        "a formatted note is parsed once."
    )
    talk = Checker(LintRequest(jobs=1, profile="talk"))
    talk_times = interleaved(
        {
            "bare": lambda: [bare_md.parse(Path(p).read_text(encoding="utf-8")) for p in paths],
            "talk": lambda: [talk.lint_note(p) for p in paths],
        },
        repeat,
    )
    talk_ratio = talk_times["talk"] / talk_times["bare"]
    table.add(
        "lint 1,000 notes with the talk profile (decks built and fitted), in-process",
        secs(talk_times["talk"]),
        f"bare parse {secs(talk_times['bare'])}",
        f"{talk_ratio:.2f}x",
    )
    targets.append(("lint with the talk profile, 1,000 notes <= 1.3x the bare parse", f"{talk_ratio:.2f}x", talk_ratio <= 1.3))
    talk_profile = package_profile(lambda: [Checker(LintRequest(jobs=1, profile="talk")).lint_note(p) for p in paths[:300]])
    WHY["lint with the talk profile"] = (
        f"The notes profile costs {lint_inproc / bare_1000:.2f}x; the talk profile adds each note's deck: its slides "
        "built once, then split by the limits and fitted (slide-overflow reads the fitted deck), every line of every "
        "slide measured by the fit engine, and the timing plan (over-time reads it). Own time by package under "
        f"cProfile, 300 of the notes with the talk profile: {shares_text(talk_profile, 8)} (confnotes.slides is "
        "the decks, confnotes.timing the plan, markdown_it and confnotes.parse the outline both profiles read)."
    )
    for count in (200, 500):
        some = work / f"mixed-{count}"
        some.mkdir()
        for path in mixed_paths[:count]:
            shutil.copy(path, some / path.name)
        some_paths = sorted(str(p) for p in some.glob("*.md"))
        bare_some = median_time(
            lambda some_paths=some_paths: [bare_md.parse(Path(p).read_text(encoding="utf-8")) for p in some_paths], repeat
        )
        runs = interleaved(
            {
                "j1": lambda some=some: run([*CLI, "lint", str(some), "--no-cache", "-j", "1"]),
                "default": lambda some=some: run([*CLI, "lint", str(some), "--no-cache"]),
            },
            max(repeat, 5),
        )
        table.add(
            f"`confnotes lint` {count} notes, -j 1", secs(runs["j1"]), f"bare parse {secs(bare_some)}", f"{runs['j1'] / bare_some:.2f}x"
        )
        table.add(
            f"`confnotes lint` {count} notes, default -j",
            secs(runs["default"]),
            f"bare parse {secs(bare_some)}",
            f"{runs['default'] / bare_some:.2f}x",
        )
        targets.append(
            (
                f"lint of {count} notes: the default -j is not slower than -j 1 (within 5%)",
                f"{runs['default'] / runs['j1']:.2f}x of -j 1",
                runs["default"] <= runs["j1"] * 1.05,
            )
        )
        if count >= 500:
            targets.append(
                (
                    f"lint of {count} notes, default -j < 1.0x the bare parse",
                    f"{runs['default'] / bare_some:.2f}x",
                    runs["default"] < bare_some,
                )
            )
        if count == 200:
            with busy_core():  # a machine that is not idle: another program keeps one core busy
                busy = interleaved(
                    {
                        "j1": lambda some=some: run([*CLI, "lint", str(some), "--no-cache", "-j", "1"]),
                        "default": lambda some=some: run([*CLI, "lint", str(some), "--no-cache"]),
                    },
                    max(repeat, 5),
                )
            table.add(
                "`confnotes lint` 200 notes, -j 1, one core kept busy by another program",
                secs(busy["j1"]),
                f"bare parse {secs(bare_some)}",
                f"{busy['j1'] / bare_some:.2f}x",
            )
            table.add(
                "`confnotes lint` 200 notes, default -j, one core kept busy by another program",
                secs(busy["default"]),
                f"bare parse {secs(bare_some)}",
                f"{busy['default'] / bare_some:.2f}x",
            )
            targets.append(
                (
                    "lint of 200 notes with one core busy: the default -j is not slower than -j 1 (within 5%)",
                    f"{busy['default'] / busy['j1']:.2f}x of -j 1",
                    busy["default"] <= busy["j1"] * 1.05,
                )
            )
            some_cache = work / "cache-200"
            some_env = {**os.environ, "CONFNOTES_CACHE_DIR": str(some_cache)}
            run([*CLI, "lint", str(some)], env=some_env)
            cached_some = timed_cmd([*CLI, "lint", str(some)], max(repeat, 5), some_env)
            table.add(
                "`confnotes lint` 200 unchanged notes, cached",
                secs(cached_some),
                f"bare parse {secs(bare_some)}",
                f"{cached_some / bare_some:.2f}x",
            )
            targets.append(
                (
                    "cached lint of 200 unchanged notes <= 0.2x the bare parse",
                    f"{cached_some / bare_some:.2f}x",
                    cached_some / bare_some <= 0.2,
                )
            )
            start = timed_cmd([PY, "-c", "import click"], max(repeat, 5))
            WHY["cached lint of 200"] = (
                f"A run served from the cache reads and parses no note: it is start-up (Python and click alone take "
                f"{secs(start)}, {start / bare_some:.2f}x of this floor), one stat a note and the cache file."
            )
    rss = peak_rss_mb([*CLI, "lint", str(mixed), "--no-cache", "-j", "1"])
    table.add("peak RSS, `confnotes lint` 1,000 notes", f"{rss:.0f} MB", "target 120 MB", "")
    targets.append(("peak RSS of lint over 1,000 notes <= 120 MB", f"{rss:.0f} MB", rss <= 120))

    # instruction counts: repeatable where wall clock on a shared machine is not
    if shutil.which("valgrind"):
        counts = {}
        for job in ("bare", "outline", "lint"):
            small, large = (_instructions(job, mixed, n) for n in (20, 60))
            counts[job] = large - small  # the cost of 40 notes, start-up cancelled out
        for job in ("outline", "lint"):
            table.add(
                f"{job}, 40 notes, instructions (callgrind)",
                f"{counts[job] / 1e6:.0f} M",
                f"bare parse {counts['bare'] / 1e6:.0f} M",
                f"{counts[job] / counts['bare']:.2f}x",
            )
        targets.append(
            (
                "lint <= 1.3x the bare parse, by instruction count (callgrind)",
                f"{counts['lint'] / counts['bare']:.2f}x",
                counts["lint"] / counts["bare"] <= 1.3,
            )
        )
        lint_profile = package_profile(lambda: [Checker(LintRequest(jobs=1)).lint_note(str(p)) for p in mixed_paths[:300]])
        WHY["lint <= 1.3x the bare parse, by instruction count"] = (
            f"Own time by package under cProfile, 300 of the notes: {shares_text(lint_profile, 8)}. "
            f"The outline alone costs {counts['outline'] / counts['bare']:.2f}x the bare parse's instructions: "
            "its markdown-it block parse skips inline parsing, but the outline builder, the paste-recovery "
            "rules and the model's objects cost more than that saves; the lint rules on that outline add "
            f"{(counts['lint'] - counts['outline']) / counts['bare']:.2f}x, spread over the rules that read every "
            "line (markers, indentation, emphasis, headings) and the per-note set-up (config, suppressions)."
        )
    else:
        print("  valgrind not found: apt-get install valgrind for instruction counts", flush=True)

    # 2. cold start
    print("cold start:", flush=True)
    one = corpora[("markdown", 1)][0]
    script = shutil.which("confnotes", path=str(Path(PY).parent)) or "confnotes"
    cold_times = interleaved(
        {
            "cold": lambda: run([script, "lint", str(one), "--no-cache"]),
            "floor": lambda: run([PY, "-c", "import markdown_it, click"]),
        },
        15,
    )
    cold, floor = cold_times["cold"], cold_times["floor"]
    table.add(
        "`confnotes lint one.md` cold start (with front matter)",
        secs(cold),
        f"`import markdown_it, click` {secs(floor)}",
        f"{cold / floor:.2f}x",
    )
    targets.append(("`confnotes lint one.md` cold start <= 1.3x `import markdown_it, click`", f"{cold / floor:.2f}x", cold / floor <= 1.3))
    plain = work / "plain.md"
    plain.write_text(one.read_text(encoding="utf-8").split("---\n", 2)[-1], encoding="utf-8")
    parts = interleaved(
        {
            "plain": lambda: run([script, "lint", str(plain), "--no-cache"]),
            "yaml": lambda: run([PY, "-c", "import markdown_it, click, yaml"]),
            "floor": lambda: run([PY, "-c", "import markdown_it, click"]),
            "python": lambda: run([PY, "-c", "pass"]),
        },
        15,
    )
    table.add(
        "`confnotes lint one.md` cold start (no front matter)",
        secs(parts["plain"]),
        f"`import markdown_it, click` {secs(parts['floor'])}",
        f"{parts['plain'] / parts['floor']:.2f}x",
    )
    groups, modules = import_profile([script, "lint", str(one), "--no-cache"], 5)
    own = sorted(((ms, name) for name, ms in modules.items() if name.startswith("confnotes")), reverse=True)[:6]
    WHY["`confnotes lint one.md` cold start"] = (
        f"Python itself starts in {secs(parts['python'])} and the floor's two imports take {secs(parts['floor'] - parts['python'])}; "
        f"importing PyYAML for the note's front matter adds {secs(parts['yaml'] - parts['floor'])} "
        f"(without front matter the ratio is {parts['plain'] / parts['floor']:.2f}x). "
        "What the command imports, by self time (`python -X importtime`, median of 5; the tracing adds its own cost): "
        + ", ".join(f"{name} {ms:.1f} ms" for name, ms in sorted(groups.items(), key=lambda kv: -kv[1]))
        + "; confnotes' costliest modules: "
        + ", ".join(f"{name} {ms:.1f} ms" for ms, name in own)
        + ". confnotes' share is its outline model's and settings' frozen dataclasses (each class's methods are "
        "generated and compiled at import, about 0.8 ms a class) and the paste-recovery rules' regular "
        "expressions compiled at import; the rest of the gap is the first parse's one-time costs."
    )

    # 3. HTML build of 100 notes vs bare markdown-it render + Jinja
    print("HTML of 100 notes:", flush=True)
    hundred = work / "mixed-100"
    hundred.mkdir()
    for path in mixed_paths[:100]:
        shutil.copy(path, hundred / path.name)
    site = work / "site"
    build = median_time(
        lambda: (shutil.rmtree(site, ignore_errors=True), run([*CLI, "build", str(hundred), "-o", str(site), "--to", "html", "-q"])), repeat
    )
    build_j1 = median_time(
        lambda: (
            shutil.rmtree(site, ignore_errors=True),
            run([*CLI, "build", str(hundred), "-o", str(site), "--to", "html", "-q", "-j", "1"]),
        ),
        repeat,
    )
    import jinja2

    template = jinja2.Environment(autoescape=True).from_string(
        "<!DOCTYPE html><html><head><title>{{ title }}</title></head><body>{{ body | safe }}</body></html>"
    )
    render_md = MarkdownIt("commonmark").enable("table")
    out_bare = work / "bare-html"
    out_bare.mkdir()

    def bare_html() -> None:
        for path in hundred.glob("*.md"):
            html = template.render(title=path.stem, body=render_md.render(path.read_text(encoding="utf-8")))
            (out_bare / (path.stem + ".html")).write_text(html, encoding="utf-8")

    bare_build = median_time(bare_html, repeat)
    table.add(
        "`confnotes build --to html` 100 notes (all cores)",
        secs(build),
        f"markdown-it + Jinja {secs(bare_build)}",
        f"{build / bare_build:.2f}x",
    )
    table.add(
        "`confnotes build --to html` 100 notes, -j 1",
        secs(build_j1),
        f"markdown-it + Jinja {secs(bare_build)}",
        f"{build_j1 / bare_build:.2f}x",
    )
    pandoc = _pandoc()
    if pandoc:

        def pandoc_all() -> None:
            for path in hundred.glob("*.md"):
                run([pandoc, str(path), "-s", "-o", str(out_bare / (path.stem + ".pandoc.html")), "--metadata", f"title={path.stem}"])

        pandoc_time = median_time(pandoc_all, repeat)
        table.add("pandoc, 100 notes to HTML (one process each)", secs(pandoc_time), "", "")
        targets.append(("HTML build of 100 notes <= pandoc's time for the same notes", f"{build / pandoc_time:.2f}x", build <= pandoc_time))
        notes_100 = sorted(str(path) for path in hundred.glob("*.md"))
        pandoc_one = median_time(
            lambda: run([pandoc, *notes_100, "-s", "-o", str(out_bare / "all.pandoc.html"), "--metadata", "title=all"]), repeat
        )
        table.add(
            "`confnotes build --to html` 100 notes, -j 1 (one process)",
            secs(build_j1),
            f"pandoc, the 100 notes in one process {secs(pandoc_one)}",
            f"{build_j1 / pandoc_one:.2f}x",
        )
        targets.append(
            (
                "HTML build of 100 notes in one process <= 0.8x pandoc in one process",
                f"{build_j1 / pandoc_one:.2f}x",
                build_j1 / pandoc_one <= 0.8,
            )
        )
        WHY["HTML build of 100 notes in one process"] = (
            "pandoc writes one page of all the notes; confnotes writes a page per note (theme CSS, contents, "
            "highlighted code, direction and language per block), lints each note for the index, and writes the "
            "index, outline.json and the manifest."
        )
    else:
        print("  pandoc not found: pip install pypandoc-binary", flush=True)

    # a build of 200 notes, format by format (the default formats)
    print("build of 200 notes, per format:", flush=True)
    two_hundred = work / "mixed-200"
    from confnotes.build import DEFAULT_FORMATS

    for name in DEFAULT_FORMATS:
        out = work / f"site-{name}"
        t = median_time(
            lambda out=out, name=name: run([*CLI, "build", str(two_hundred), "-o", str(out), "--to", name, "-q", "--force"]),
            1 if name.endswith("pdf") else repeat,
        )
        table.add(f"`confnotes build --to {name}` 200 notes (all cores)", secs(t), f"{t / 200 * 1000:.1f} ms a note", "")
    out = work / "site-all"
    t = median_time(lambda: run([*CLI, "build", str(two_hundred), "-o", str(out), "-q", "--force"]), 1)
    table.add(
        f"`confnotes build` 200 notes, every default format ({', '.join(DEFAULT_FORMATS)})", secs(t), f"{t / 200 * 1000:.1f} ms a note", ""
    )
    t = median_time(lambda: run([*CLI, "build", str(two_hundred), "-o", str(out), "-q"]), repeat)
    table.add("`confnotes build` 200 unchanged notes (incremental: nothing to do)", secs(t), "", "")
    targets += _previous_release(table, two_hundred, work)

    print("a 1,000-note conference:", flush=True)
    targets += _conference(table, mixed, work)

    # 4. PDF of one note: confnotes' share vs WeasyPrint's write_pdf
    print("PDF of one note:", flush=True)
    targets += _pdf(table, repeat)
    print("handout against slides PDF:", flush=True)
    targets += _handout(table, work, repeat)
    print("PPTX against a bare python-pptx program:", flush=True)
    targets += _pptx(table, repeat)

    # 5. linear time
    print("growth with input size:", flush=True)
    targets += _linearity(table, work)

    # 6. confnotes import of a 100-page Word document
    print("import of a 100-page .docx:", flush=True)
    targets += _import_docx(table, work, repeat)

    # 6. a deck with formulas and diagrams (issue 27): cached, no dearer than twice the same deck without
    print("a deck with 20 formulas and 5 diagrams:", flush=True)
    targets += _directed_deck(table, work, repeat)

    # 6. peers
    print("peers:", flush=True)
    _peers(table, mixed, work, repeat, targets)
    _fit(table, targets, repeat)

    # 7. the language server, driven as an editor drives it (bench/lsp_server.py)
    print("language server:", flush=True)
    import lsp_server

    lsp_server.report(table, targets, WHY)

    # 8. serve: from a save to Chromium showing it (bench/serve_latency.py)
    print("live preview:", flush=True)
    import serve_latency

    serve_latency.report(table, targets, WHY)

    report = _report(table, targets, size_kb)
    print()
    print(report)
    written = Path(args.write)
    old = written.read_text(encoding="utf-8") if written.exists() else ""
    if SITE_BEGIN in old:  # the search over 1,000 notes: measured by `make bench-site`, kept as it is
        report = report.rstrip("\n") + "\n\n" + SITE_BEGIN + old.split(SITE_BEGIN, 1)[1].split(SITE_END, 1)[0] + SITE_END + "\n"
    kept = old.partition(SIZES_MARKER)
    if kept[1]:  # the 20 MB shapes: measured by `make bench-sizes`, kept as they are
        report = report.rstrip("\n") + "\n\n" + kept[1] + kept[2]
    written.write_text(report, encoding="utf-8")
    print(f"\nwrote {args.write}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


def _instructions(job: str, folder: Path, count: int) -> int:
    out = Path(tempfile.mkdtemp(prefix="confnotes-cg-")) / "callgrind.out"
    proc = run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            PY,
            str(Path(__file__).parent / "instr.py"),
            job,
            str(folder),
            str(count),
        ]
    )
    for line in proc.stderr.splitlines():
        if "Collected" in line:
            return int(line.split()[-1])
    raise RuntimeError(proc.stderr[-500:])


def _pdf(table: Table, repeat: int) -> list[tuple[str, str, bool]]:
    from dataclasses import replace

    import weasyprint

    from confnotes.parse import parse
    from confnotes.render.html import render_html
    from confnotes.render.options import RenderOptions
    from confnotes.render.pdf import html_to_pdf

    note = ROOT / "notes" / "scale2025.md"
    text = note.read_text(encoding="utf-8")
    options = replace(RenderOptions(), mode="pdf")
    ours = median_time(lambda: render_html(parse(text, str(note)), options, note.parent), 10)
    html, _ = render_html(parse(text, str(note)), options, note.parent)
    pair = interleaved(  # taken in turns: a PDF takes a third of a second, and the machine's noise is a tenth of that
        {
            "bare": lambda: weasyprint.HTML(string=html, base_url=str(note.parent)).write_pdf(pdf_variant="pdf/ua-1"),
            "full": lambda: html_to_pdf(html, note.parent),
        },
        max(repeat, 9),
    )
    bare, full = pair["bare"], pair["full"]
    cli = timed_cmd([*CLI, "render", str(note), "--to", "pdf", "-o", os.devnull], repeat)
    table.add(
        "PDF of scale2025.md: confnotes' share (parse + template)", secs(ours), f"WeasyPrint write_pdf {secs(bare)}", f"{ours / bare:.1%}"
    )
    table.add("PDF of scale2025.md through confnotes' fetcher", secs(full), f"WeasyPrint write_pdf {secs(bare)}", f"{full / bare:.2f}x")
    table.add("`confnotes render --to pdf` (CLI, with start-up)", secs(cli), "", "")
    whole = (ours + full) / bare
    table.add(
        "PDF of scale2025.md: confnotes' whole cost in one process (parse, template, fetcher, layout)",
        secs(ours + full),
        f"WeasyPrint write_pdf {secs(bare)}",
        f"{whole:.2f}x",
    )
    return [
        ("PDF: confnotes' own share <= 10% of WeasyPrint's write_pdf", f"{ours / bare:.1%}", ours / bare <= 0.10),
        ("PDF: confnotes' whole cost per note <= 1.15x WeasyPrint's write_pdf of the same HTML", f"{whole:.2f}x", whole <= 1.15),
    ]


def _pptx(table: Table, repeat: int) -> list[tuple[str, str, bool]]:
    """confnotes' PPTX of a note (read, deck built and fitted, written) against a bare python-pptx
    program that writes the same shapes (bench/pptx_floor.py), in one process, taken in turns."""
    from pptx_floor import bare_program

    from confnotes.load import load_note
    from confnotes.render.formats import render_note
    from confnotes.render.options import RenderOptions

    targets = []
    for note in (ROOT / "notes" / "scale2025.md", ROOT / "tests" / "fixtures" / "slides" / "stress.md"):

        def ours(note: Path = note) -> bytes:
            return bytes(render_note(load_note(str(note)).doc, "pptx", RenderOptions(), note.parent)[0])

        bare = bare_program(ours())
        bare()
        pair = interleaved({"ours": ours, "bare": bare}, max(repeat, 7))
        ratio = pair["ours"] / pair["bare"]
        table.add(
            f"PPTX of {note.name}, in one process",
            secs(pair["ours"]),
            f"bare python-pptx, same shapes {secs(pair['bare'])}",
            f"{ratio:.2f}x",
        )
        targets.append((f"PPTX of {note.name}: <= 1.5x a bare python-pptx program writing the same shapes", f"{ratio:.2f}x", ratio <= 1.5))
    for note in (ROOT / "notes" / "scale2025.md", ROOT / "tests" / "fixtures" / "slides" / "stress.md"):
        if next(met for name, _, met in targets if name.startswith(f"PPTX of {note.name}")):
            continue

        def write(note: Path = note) -> tuple:
            return render_note(load_note(str(note)).doc, "pptx", RenderOptions(), note.parent)

        ours_profile = package_profile(write)
        bare_profile = package_profile(bare_program(bytes(write()[0])))
        WHY[f"PPTX of {note.name}"] = (
            f"Own time by package under cProfile, {note.name}: confnotes' PPTX {shares_text(ours_profile)}; the "
            f"bare program {shares_text(bare_profile)} (seconds: {sum(ours_profile.values()):.3f} against "
            f"{sum(bare_profile.values()):.3f}). "
            "Reading the note and building and fitting its deck cost 2-5 ms of it; the rest is python-pptx calls "
            "the bare program does not make: each text gets its face, colour and autofit and each slide a styled "
            "footer of two boxes (together about half of the writer's time), and the default template's "
            "placeholders are set to their 16:9 boxes (about 15%; working those boxes out, 40% of a PPTX before, "
            "is now done once a process). The rest is the same calls as the floor's: adding slides from layouts "
            "(placeholders cloned) and saving the package."
        )
    return targets


def _handout(table: Table, work: Path, repeat: int) -> list[tuple[str, str, bool]]:
    """The handout of a long note against its slides PDF: both print the same fitted deck, the
    handout each slide beside its notes (it took 3x, 11x on one long real note, while its rows were
    flex boxes that WeasyPrint measured at every width)."""
    stress = (ROOT / "tests" / "fixtures" / "slides" / "stress.md").read_text(encoding="utf-8")
    note = work / "long-talk.md"
    note.write_text("".join(stress.replace("\n# ", f"\n# Part {n} ", 1) for n in range(6)), encoding="utf-8")
    times = interleaved(
        {
            to: lambda to=to: run([*CLI, "render", str(note), "--to", to, "-o", str(work / f"long.{to}.pdf")])
            for to in ("slides-pdf", "handout")
        },
        repeat,
    )
    ratio = times["handout"] / times["slides-pdf"]
    kb = note.stat().st_size // 1024
    table.add(f"`render --to slides-pdf` of a long talk ({kb} KB)", secs(times["slides-pdf"]), "", "")
    table.add("`render --to handout` of that talk", secs(times["handout"]), f"slides PDF {secs(times['slides-pdf'])}", f"{ratio:.2f}x")
    return [("handout <= 1.3x the slides PDF of the same deck", f"{ratio:.2f}x", ratio <= 1.3)]


@contextlib.contextmanager
def busy_core() -> Iterator[None]:
    """Another program spinning on one core (the last), for as long as the block runs."""
    spinner = subprocess.Popen([PY, "-c", "while True: pass"])
    try:
        if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
            os.sched_setaffinity(spinner.pid, {(os.cpu_count() or 1) - 1})
        time.sleep(0.2)
        yield
    finally:
        spinner.kill()
        spinner.wait()


def tree_peak_mb(cmd: list[str]) -> tuple[float, float]:
    """Wall time of a command and the peak of its whole process tree's memory added up (the
    command and its worker processes at one moment), sampled every 50 ms from /proc: each
    process's proportional set size, so pages a forked worker shares with its parent count once."""
    import threading

    def tree_rss(root: int) -> int:
        total, todo = 0, [root]
        while todo:
            pid = todo.pop()
            try:
                with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
                    total += next((int(line.split()[1]) for line in rollup if line.startswith("Pss:")), 0)
                with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as children:
                    todo += [int(child) for child in children.read().split()]
            except (OSError, ValueError):
                continue
        return total * 1024

    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.wait(0.05):
            peak = max(peak, tree_rss(proc.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    proc.wait()
    done.set()
    sampler.join()
    return time.perf_counter() - start, peak / 1e6


PREVIOUS_RELEASE = "9d83c32"  # the last commit of the release before this one (2026-11-30)


def _previous_release(table: Table, notes: Path, work: Path) -> list[tuple[str, str, bool]]:
    """The same 200 notes built in every default format by the previous release and by this one, in
    turn, with the same libraries: what confnotes' own changes cost since then."""
    print("the previous release, same notes:", flush=True)
    previous = work / "previous-release"
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", PREVIOUS_RELEASE], capture_output=True)
    if archive.returncode != 0:
        print(f"  previous release {PREVIOUS_RELEASE} not in this clone (shallow?): git fetch --unshallow to compare", flush=True)
        return []
    previous.mkdir()
    subprocess.run(["tar", "-x", "-C", str(previous)], input=archive.stdout, check=True)
    subprocess.run([PY, "-m", "compileall", "-q", str(previous / "src")], capture_output=True)
    old_cli = [PY, "-c", f"import sys; sys.path.insert(0, {str(previous / 'src')!r}); from confnotes.cli import main; main()"]
    times = interleaved(
        {
            "previous": lambda: run([*old_cli, "build", str(notes), "-o", str(work / "site-previous"), "-q", "--force"]),
            "now": lambda: run([*CLI, "build", str(notes), "-o", str(work / "site-now"), "-q", "--force"]),
        },
        1,
    )
    ratio = times["now"] / times["previous"]
    table.add(
        "`confnotes build` 200 notes, every default format, this release against the previous one",
        secs(times["now"]),
        f"previous release ({PREVIOUS_RELEASE}) {secs(times['previous'])}",
        f"{ratio:.2f}x",
    )
    return [("a build of 200 notes in every default format: no slower than the previous release", f"{ratio:.2f}x", ratio <= 1.05)]


def _conference(table: Table, notes: Path, work: Path) -> list[tuple[str, str, bool]]:
    """A whole conference: the bench corpus's 1,000 notes in every default format, default -j, as a
    team publishing its notes builds them; each format alone for its cost per note; an unchanged
    rebuild."""
    from confnotes.build import DEFAULT_FORMATS

    count = len(list(notes.glob("*.md")))
    site = work / "conference-site"
    wall, peak = tree_peak_mb([*CLI, "build", str(notes), "-o", str(site), "-q"])
    table.add(
        f"`confnotes build` of a {count}-note conference, every default format, default -j",
        secs(wall),
        f"{wall / count * 1000:.0f} ms a note",
        f"peak {peak:.0f} MB (all processes)",
    )
    for name in DEFAULT_FORMATS:
        alone, _ = tree_peak_mb([*CLI, "build", str(notes), "-o", str(work / f"conference-{name}"), "--to", name, "-q"])
        table.add(f"  that conference, `--to {name}` alone", secs(alone), f"{alone / count * 1000:.1f} ms a note", "")
    again = median_time(lambda: run([*CLI, "build", str(notes), "-o", str(site), "-q"]), 3)
    table.add("`confnotes build` of that conference unchanged (nothing to do)", secs(again), "", "")
    if again > 1.0:
        from confnotes.build import BuildRequest, build_site

        started = median_time(lambda: run([PY, "-c", "import confnotes.cli, confnotes.build"]), 3)
        shares = package_profile(lambda: build_site(BuildRequest(str(notes), str(site))))
        WHY["an unchanged rebuild"] = (
            f"Starting Python and importing the command takes {secs(started)} of it. The rest reads each "
            "note and hashes it with its config, checks that its files are there and reads its outline file "
            "through to check its hash (about 22 KB a note), then compares the manifest; the index is not "
            "made again when nothing changed. Own time by package under cProfile, in one process: "
            f"{shares_text(shares)}."
        )
    return [
        (f"a {count}-note conference in every default format: peak memory <= 400 MB", f"{peak:.0f} MB", peak <= 400),
        (f"an unchanged rebuild of a {count}-note conference <= 1 s", secs(again), again <= 1.0),
    ]


def _linearity(table: Table, work: Path) -> list[tuple[str, str, bool]]:
    import random

    from corpus import markdown_note, pasted_note

    from confnotes.parse import parse

    rng = random.Random(7)
    base = markdown_note(rng, 1, 200_000) + pasted_note(rng, 2, 200_000)  # ~0.4 MB
    results = []
    texts = {factor: base * factor for factor in (1, 10)}
    timings = interleaved({factor: (lambda text=text: parse(text, "big.md")) for factor, text in texts.items()}, 5)
    for factor, text in texts.items():
        table.add(
            f"outline of one note of {len(text) / 1e6:.2f} MB",
            secs(timings[factor]),
            "",
            "" if factor == 1 else f"{timings[factor] / timings[1]:.1f}x for {factor}x input",
        )
    ratio = timings[10] / timings[1]
    results.append(("10x larger note takes <= 12x longer", f"{ratio:.1f}x", ratio <= 12))
    huge = base * (20_000_000 // len(base) + 1)
    huge_path = work / "huge.md"
    huge_path.write_text(huge[:20_000_000], encoding="utf-8")
    huge_time = median_time(lambda: run([*CLI, "lint", str(huge_path), "--no-cache"]), 1)
    table.add("`confnotes lint` of a 20 MB note", secs(huge_time), "", "")

    def item_list(count: int) -> str:
        return "# Long list\n\n## Items\n\n" + "".join(f"- item {i} {WORDS[i % len(WORDS)]}\n" for i in range(count))

    lists = {count: item_list(count) for count in (1_000, 10_000)}
    list_times = interleaved({count: (lambda text=text: parse(text, "list.md")) for count, text in lists.items()}, 7)
    ten_k, thousand = list_times[10_000], list_times[1_000]
    table.add("outline of a 10,000-item list", secs(ten_k), f"1,000 items {secs(thousand)}", f"{ten_k / thousand:.1f}x for 10x")
    results.append(("10,000-item list vs 1,000 items <= 12x", f"{ten_k / thousand:.1f}x", ten_k / thousand <= 12))
    return results


def _pandoc() -> str | None:
    try:
        import pypandoc

        return pypandoc.get_pandoc_path()
    except Exception:  # an optional peer
        return shutil.which("pandoc")


def _npm_tool(name: str) -> str | None:
    for folder in (ROOT / ".ci" / "node_modules" / ".bin", ROOT / "build" / "peers" / "node_modules" / ".bin"):
        if (folder / name).exists():
            return str(folder / name)
    return shutil.which(name)


def _peers(table: Table, mixed: Path, work: Path, repeat: int, targets: list[tuple[str, str, bool]]) -> None:
    mdl = _npm_tool("markdownlint-cli2")
    if mdl:
        t = timed_cmd([mdl, str(mixed / "*.md")], repeat)
        table.add("markdownlint-cli2, 1,000 notes", secs(t), "", "")
    else:
        print("  markdownlint-cli2 not found: npm install --prefix build/peers markdownlint-cli2", flush=True)
    marp = _npm_tool("marp")
    if marp:
        note = ROOT / "notes" / "scale2025.md"
        md = work / "deck.marp.md"
        run([*CLI, "render", str(note), "--to", "marp", "-o", str(md)])
        # taken in turns, so a busy moment of the machine weighs on both
        deck = interleaved(
            {
                "marp": lambda: run([marp, str(md), "-o", str(work / "deck.html")]),
                "ours": lambda: run([*CLI, "render", str(note), "--to", "slides", "-o", str(work / "ours.html")]),
            },
            repeat,
        )
        t, ours = deck["marp"], deck["ours"]
        table.add("HTML deck of scale2025.md", secs(ours), f"marp-cli {secs(t)}", f"{ours / t:.2f}x")
        uncached = timed_cmd(
            [*CLI, "render", str(note), "--to", "slides", "-o", str(work / "ours.html")],
            repeat,
            env={**os.environ, "CONFNOTES_TEMPLATE_CACHE": ""},
        )
        table.add("HTML deck, templates compiled in the run (no bytecode cache)", secs(uncached), "", f"{uncached / t:.2f}x")
        first_link = "import linkify_it; linkify_it.LinkifyIt().test('@scale scale2025.md')"
        imports = interleaved(
            {
                "python": lambda: run([PY, "-c", "pass"]),
                "deck": lambda: run([PY, "-c", "import click, markdown_it, jinja2, linkify_it"]),
                "linkify": lambda: run([PY, "-c", "import linkify_it"]),
                "first link": lambda: run([PY, "-c", first_link]),
                "weasyprint": lambda: run([PY, "-c", "import weasyprint"]),
                "loader": lambda: run([PY, "-c", "from confnotes.render.pdf import load_weasyprint; load_weasyprint()"]),
            },
            7,
        )
        compile_links = max(imports["first link"] - imports["linkify"], 0.0)
        table.add("start Python and import click, markdown-it-py, linkify-it-py and Jinja", secs(imports["deck"]), "", "")
        table.add("linkify-it-py compiling its patterns for the first possible link", secs(compile_links), "", "")
        table.add("start Python and import WeasyPrint", secs(imports["weasyprint"]), "", "")
        table.add(
            "start Python and import WeasyPrint as confnotes does (no ldconfig, gcc, ld lookups)",
            secs(imports["loader"]),
            f"plain import {secs(imports['weasyprint'])}",
            f"{imports['loader'] / imports['weasyprint']:.2f}x",
        )
        WHY["HTML deck of scale2025.md vs marp-cli"] = (
            f"The 0.2x budget is {secs(t * 0.2)}. Starting Python and importing the libraries the deck is made with "
            f"(click, markdown-it-py with linkify-it-py, Jinja) takes {secs(imports['deck'])} of it before confnotes does any "
            f"work (Python alone: {secs(imports['python'])}), and linkify-it-py compiles its patterns the first time text "
            f"may hold a link (this note's opening line, with `**` and `@scale`): {secs(compile_links)}. "
            + (
                f"That leaves {secs(left)} for reading, parsing, fitting and rendering the deck"
                if (left := t * 0.2 - imports["deck"] - compile_links) > 0
                else f"Those two alone are {secs(-left)} over the budget, before the deck is read"
            )
            + f"; confnotes' share is {secs(max(ours - imports['deck'] - compile_links, 0.0))} (its modules' import, "
            "the parse, the fitted deck and the template, compiled templates coming from Jinja's bytecode cache)."
        )
        WHY["slides PDF of scale2025.md vs marp --pdf"] = (
            f"Starting Python and importing WeasyPrint takes {secs(imports['loader'])} (cffi reads Pango's and "
            "HarfBuzz's declarations), and WeasyPrint lays out and writes the pages; confnotes' own share (parse, deck, "
            "template) is the HTML deck's time above."
        )
        targets.append(("HTML deck of scale2025.md vs marp-cli (<= 0.2x)", f"{ours / t:.2f}x ({secs(ours)} vs {secs(t)})", ours / t <= 0.2))
        ours_pdf_cmd = [*CLI, "render", str(note), "--to", "slides-pdf", "-o", str(work / "ours.pdf")]
        chrome = shutil.which("chromium") or shutil.which("chromium-browser")
        if not chrome:
            ours_pdf = timed_cmd(ours_pdf_cmd, repeat)
        if chrome:
            env = {**os.environ, "CHROME_PATH": chrome}
            pdfs = interleaved(
                {
                    "marp": lambda: run([marp, str(md), "--pdf", "--allow-local-files", "-o", str(work / "deck.pdf")], env=env),
                    "ours": lambda: run(ours_pdf_cmd),
                },
                repeat,
            )
            t_pdf, ours_pdf = pdfs["marp"], pdfs["ours"]
            table.add("slides PDF of scale2025.md", secs(ours_pdf), f"marp --pdf {secs(t_pdf)}", f"{ours_pdf / t_pdf:.2f}x")
            targets.append(
                (
                    "slides PDF of scale2025.md vs marp --pdf (<= 0.5x)",
                    f"{ours_pdf / t_pdf:.2f}x ({secs(ours_pdf)} vs {secs(t_pdf)})",
                    ours_pdf / t_pdf <= 0.5,
                )
            )
        else:
            table.add("slides PDF of scale2025.md", secs(ours_pdf), "", "")
    else:
        print("  marp-cli not found: npm install --prefix build/peers @marp-team/marp-cli", flush=True)


def _fit(table: Table, targets: list[tuple[str, str, bool]], repeat: int) -> None:
    """The fit engine on a 100-slide deck (bullets, code and tables to measure), in-process."""
    from confnotes.parse import parse
    from confnotes.slides import build_deck

    parts = ["# A long talk\n"]
    for n in range(34):
        parts.append(f"\n## Part {n}\n\n1. A point with bullets\n")
        parts += [f"   - bullet {k} of part {n}, long enough to wrap across the slide once or twice at thirty pixels\n" for k in range(5)]
        parts.append(
            "\n```python\n" + "\n".join(f"print('line {k} of a code sample that runs long enough to wrap')" for k in range(12)) + "\n```\n"
        )
        parts.append("\n| a | b | c |\n|---|---|---|\n" + "".join(f"| {k} | value {k} | more text {k} |\n" for k in range(6)))
    doc = parse("".join(parts), "talk.md")
    from confnotes.slides import fit, widths

    def build() -> object:
        for cached in (widths.text_em, widths.wrap_count, fit.plain, fit.entry_height):
            cached.cache_clear()  # cold: no measurement cached from the run before
        return build_deck(doc)

    slides = len(build_deck(doc).slides)  # type: ignore[attr-defined]
    t = median_time(build, max(repeat, 5))
    table.add(f"build and fit a {slides}-slide deck", secs(t), "", "")
    targets.append((f"fitting a {slides}-slide deck (<= 1 s)", secs(t), t <= 1.0))


def _import_docx(table: Table, work: Path, repeat: int) -> list[tuple[str, str, bool]]:
    """``confnotes import`` of a 100-page .docx: the command's wall time (start-up included), and the
    import's peak Python memory (tracemalloc, in-process) against the file's size."""
    import tracemalloc

    from confnotes.importers import convert

    data = hundred_page_docx()
    source = work / "hundred-pages.docx"
    source.write_bytes(data)
    out = work / "imported"
    out.mkdir(exist_ok=True)
    t = median_time(lambda: run([*CLI, "import", str(source), "-o", str(out), "--force"]), max(repeat, 3))
    table.add("`confnotes import` of a 100-page .docx", secs(t), f"{len(data) // 1024} KB file", "")
    convert(data, source.name, "hundred-pages")  # imports warmed: measure the import, not Python's modules
    tracemalloc.start()
    result = convert(data, source.name, "hundred-pages")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    ratio = peak / len(data)
    from confnotes.parse import parse

    tracemalloc.start()
    outline = parse(result.markdown, "hundred-pages.md")
    held, parsed = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del outline
    WHY["import memory < 20x"] = (
        f"Of the {peak / 1e6:.1f} MB peak, reading the {len(result.markdown) // 1024} KB of Markdown the import writes "
        f"(it reads its own output back, to prove that fmt keeps its outline) takes {parsed / 1e6:.1f} MB by itself, "
        f"and the finished outline alone is {held / 1e6:.2f} MB, {held / len(data):.0f}x the file: its text in one "
        "string for each block and item, with a node and a source span each; the rest is the Markdown text fmt "
        "holds while it reads it back."
    )
    table.add(
        "peak memory of that import (Python heap)",
        f"{peak / 1e6:.1f} MB",
        f"{len(result.markdown) // 1024} KB of Markdown",
        f"{ratio:.0f}x the file",
    )
    return [
        ("a 100-page .docx imports in <= 2 s (command, start-up included)", secs(t), t <= 2.0),
        ("import memory < 20x the .docx file's size", f"{ratio:.0f}x", ratio < 20),
        ("the import is written canonically (fmt kept its outline)", "; ".join(result.warnings) or "yes", not result.warnings),
    ]


def _directed_deck(table: Table, work: Path, repeat: int) -> list[tuple[str, str, bool]]:
    """A 10-section talk with 20 formulas (inline and display) and 5 diagrams (three Mermaid, two
    Graphviz), as an HTML deck and a slides PDF, against the same talk with each formula and diagram
    replaced by a line of text; the diagrams cached from a first run, as a rebuild finds them. Also
    the first, uncached run, and what a rebuild costs with nothing changed."""
    from confnotes.markup.diagrams import program

    local = ROOT / ".ci" / "node_modules" / ".bin" / "mmdc"  # mermaid-cli as .ci/run installs it
    if "CONFNOTES_MMDC" not in os.environ and local.exists():
        os.environ["CONFNOTES_MMDC"] = str(local)
    formulas = [rf"\frac{{\partial L}}{{\partial w_{{{n}}}}}" for n in range(10)] + [rf"\sum_{{i=1}}^{{N}} x_i^{{{n}}}" for n in range(10)]
    mermaid = "```mermaid\nflowchart LR\n  A[Client %d] --> B{Gateway}\n  B --> C[Service]\n  C --> D[(Store)]\n```"
    dot = "```dot\ndigraph G%d { rankdir=LR; build -> test -> deploy; test -> rollback; }\n```"
    diagrams = [mermaid % 1, dot % 2, mermaid % 3, dot % 4, mermaid % 5]
    sections, plain_sections = [], []
    for n in range(10):
        inline, display = formulas[2 * n], formulas[2 * n + 1]
        body = f"- The gradient ${inline}$ drives step {n}\n- A second point about section {n}\n\n$$\n{display}\n$$\n"
        plain = f"- The gradient drives step {n}\n- A second point about section {n}\n\nA line of text where the formula was.\n"
        if n % 2 == 0:
            body += "\n" + diagrams[n // 2] + "\n"
            plain += "\nA line of text where the diagram was.\n"
        sections.append(f"## Section {n}\n\n{body}")
        plain_sections.append(f"## Section {n}\n\n{plain}")
    folder = work / "directed"
    folder.mkdir(exist_ok=True)
    rich, bare = folder / "rich.md", folder / "bare.md"
    rich.write_text("# A directed talk\n\n" + "\n".join(sections), encoding="utf-8")
    bare.write_text("# A directed talk\n\n" + "\n".join(plain_sections), encoding="utf-8")
    cache = work / "directed-cache"
    env = {**os.environ, "CONFNOTES_CACHE_DIR": str(cache)}
    drawn = program("mermaid") is not None and program("dot") is not None
    targets = []
    for to, suffix in (("slides", ".slides.html"), ("slides-pdf", ".slides.pdf")):

        def render(note: Path, to: str = to, suffix: str = suffix) -> None:
            done = run([*CLI, "render", str(note), "--to", to, "-o", str(note.with_suffix(suffix))], env=env)
            assert done.returncode == 0, done.stderr

        shutil.rmtree(cache, ignore_errors=True)
        start = time.perf_counter()
        render(rich)
        first = time.perf_counter() - start
        cached = median_time(lambda: render(rich), max(repeat, 3))
        plain_t = median_time(lambda: render(bare), max(repeat, 3))
        ratio = cached / plain_t
        table.add(f"{to}: 20 formulas, 5 diagrams, diagrams cached", secs(cached), f"without them {secs(plain_t)}", f"{ratio:.2f}x")
        table.add(f"{to}: the same, first run (diagrams drawn)", secs(first), "", "" if drawn else "tools missing: drawn as code")
        targets.append((f"{to} with 20 formulas and 5 cached diagrams <= 2x without them", f"{ratio:.2f}x", ratio <= 2.0 and drawn))
    return targets


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    from importlib.metadata import version

    packages = ", ".join(f"{name} {version(name)}" for name in ("markdown-it-py", "jinja2", "weasyprint", "click"))
    return (
        f"- CPU: {cpu}, {os.cpu_count()} cores; Python {platform.python_version()} on {platform.system()} "
        f"{platform.release()}\n- {packages}\n- run on {time.strftime('%Y-%m-%d')}"
    )


def _report(table: Table, targets: list[tuple[str, str, bool]], size_kb: float) -> str:
    lines = [
        "# Benchmarks",
        "",
        "Produced by `make bench` (`bench/run.py`); times are medians of several wall-clock runs on the",
        f"machine below, over a generated corpus of conference notes ({size_kb:.1f} KB a note on average,",
        "half Markdown, half pasted style). The bare markdown-it-py parse is confnotes' floor.",
        "",
        _machine(),
        "",
        "## Targets",
        "",
        "| target | measured | met |",
        "|---|---:|:---:|",
        *[f"| {name} | {value} | {'yes' if ok else 'no'} |" for name, value, ok in targets],
        "",
    ]
    missed = [(name, value) for name, value, ok in targets if not ok]
    if missed:
        lines += ["## Missed targets, by how much and why", ""]
        for name, value in missed:
            why = next((text for start, text in WHY.items() if name.startswith(start)), "no explanation recorded")
            lines += [f"- **{name}**: measured {value}. {why}", ""]
    lines += [
        "## Measurements",
        "",
        table.markdown(),
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
