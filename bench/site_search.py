"""The site's search over 10,000 notes: ``make bench-site``. Writes its section of docs/benchmarks.md.

10,000 notes (bench/corpus.py: the words and shapes of real notes, sections of numbered points) are
built into a site (``--to html``); the search index is weighed against the site's HTML, and in
Debian's headless Chromium a note's page is opened from ``file://``, a first query typed (the
index and the files that query needs load: the first load) and then queries typed: single words,
word beginnings, two words. Each query is timed in the page, from the input event to its results
in the document, the index files it needs loaded on the way (the first of each letter).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from corpus import WORDS, markdown_note  # noqa: E402
from sizes import MARKER as SIZES_MARKER  # noqa: E402

BEGIN = "<!-- bench/site_search.py: the part below is written by `make bench-site` -->"
END = "<!-- bench/site_search.py: end -->"
NOTES = 10_000
QUERY_P95_MS_TARGET = 50.0
FIRST_LOAD_S_TARGET = 1.0
INDEX_SHARE_TARGET = 0.10


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


#: distinct words across the notes: a conference's 1,000 notes use tens of thousands
VOCABULARY = 40_000


def _vocabulary(rng: random.Random) -> list[str]:
    syllables = ["ka", "lo", "mi", "ser", "ven", "tra", "dus", "pel", "qui", "zor", "an", "ex", "ob", "ri", "sta", "nu", "fle", "gor"]
    made = dict.fromkeys(WORDS)
    while len(made) < VOCABULARY:
        made["".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))] = None
    return list(made)


def _rich(text: str, rng: random.Random, vocabulary: list[str]) -> str:
    """The corpus note with its words drawn from a large vocabulary, common words often and rare
    ones seldom (log-uniform ranks, close to the Zipf curve of real text); its Markdown as it was."""
    import re

    def word(_match: re.Match[str]) -> str:
        return vocabulary[int(len(vocabulary) ** rng.random()) - 1]

    lines = text.split("\n")
    return "\n".join(
        line if line.startswith(("---", "title:", "event:", "tags:")) else re.sub(r"(?<![#\w])[a-z]{3,}", word, line) for line in lines
    )


def build(folder: Path, count: int) -> tuple[Path, float, list[str]]:
    notes = folder / "notes"
    notes.mkdir(parents=True)
    rng = random.Random(1000)
    vocabulary = _vocabulary(rng)
    for index in range(count):
        text = _rich(markdown_note(rng, index, 6000), rng, vocabulary)
        (notes / f"talk-{index:05d}.md").write_text(text, encoding="utf-8")
    site = folder / "site"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "confnotes", "build", str(notes), "-o", str(site), "--to", "html", "-q"], check=True)
    return site, time.perf_counter() - started, vocabulary


#: types ``text`` into the box (emptied first, and that drawn: no one types two queries within one
#: frame) and waits for its results (or "No note says that"), the index files the query needs
#: loaded on the way
QUERY = """async (text) => {
  const box = document.getElementById('cn-q'), status = document.querySelector('.cn-status');
  box.value = '';
  box.dispatchEvent(new Event('input', {bubbles: true}));
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const started = performance.now();
  box.value = text;
  box.dispatchEvent(new Event('input', {bubbles: true}));
  while (!status.textContent || status.textContent === 'Loading…') { await new Promise(r => setTimeout(r, 0)); }
  return [performance.now() - started, document.querySelectorAll('#cn-results li > a').length];
}"""


def measure(site: Path, vocabulary: list[str]) -> dict[str, object]:
    from playwright.sync_api import sync_playwright

    rng = random.Random(7)
    common = [w for w in vocabulary[:200] if len(w) > 3]
    queries = [rng.choice(vocabulary[:5000]) for _ in range(20)]
    queries += [rng.choice(common)[:2] for _ in range(10)] + [rng.choice(common)[:3] for _ in range(10)]  # a word's beginning, as one types
    queries += [f"{rng.choice(common)} {rng.choice(vocabulary[:2000])}" for _ in range(20)]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        page = browser.new_page()
        # a note's page, where readers search from (the index page of 10,000 notes is a table of
        # 10,000 rows: each redraw of it takes ~45 ms, and a query's results wait behind it)
        page.goto((site / "talk-00042.html").as_uri())
        started = time.perf_counter()
        page.focus("#cn-q")
        page.fill("#cn-q", common[0])  # the first query: the index, its letter's words and the titles of its results
        page.wait_for_function("/section|No note/.test(document.querySelector('.cn-status').textContent)")
        loaded = time.perf_counter() - started
        times, found = [], []
        for query in queries:
            elapsed, shown = page.evaluate(QUERY, query)
            times.append(elapsed)
            found.append(shown)
        warm = [page.evaluate(QUERY, query)[0] for query in queries]  # again: their parts are loaded
        browser.close()
    return {"load": loaded, "times": times, "warm": warm, "found": found, "queries": len(queries)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", default=str(ROOT / "docs" / "benchmarks.md"))
    parser.add_argument("--notes", type=int, default=NOTES, help="how many notes (default: %(default)s)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="confnotes-site-bench-"))
    try:
        site, seconds, vocabulary = build(work, args.notes)
        html = sum(p.stat().st_size for p in site.rglob("*.html"))
        files = list((site / "_site" / "search").iterdir())
        index = sum(p.stat().st_size for p in files)
        largest = max(p.stat().st_size for p in files)
        data = json.loads((site / "_site" / "search" / "index.js").read_text(encoding="utf-8").split("=", 1)[1].rstrip(";\n"))
        figures = measure(site, vocabulary)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    times, warm = figures["times"], figures["warm"]
    share = index / html
    notes = f"{args.notes:,}"
    rows = [
        (f"{notes} notes built into a site (`build --to html`, 2 workers)", f"{seconds:.1f} s"),
        (
            f"search index (`_site/search/`, {len(files)} files)",
            f"{index / 1e6:.2f} MB: {share:.1%} of the site's {html / 1e6:.1f} MB of HTML; the largest file {largest / 1e6:.2f} MB",
        ),
        ("  its sections", f"{data['docs']:,} sections of {data['notes']:,} notes"),
        ("the first query in Chromium (`file://`: the index and the files it needs loaded)", f"{figures['load'] * 1000:.0f} ms"),
        (
            f"a query typed, to its results in the page ({figures['queries']} queries, loading the parts each needs)",
            f"median {statistics.median(times):.1f} ms, p95 {_p95(times):.1f} ms, max {max(times):.1f} ms",
        ),
        (
            "the same queries again (their parts loaded: the search itself)",
            f"median {statistics.median(warm):.1f} ms, p95 {_p95(warm):.1f} ms, max {max(warm):.1f} ms",
        ),
    ]
    targets = [
        (
            f"a query over {notes} notes answers in <= {QUERY_P95_MS_TARGET:.0f} ms (p95)",
            f"{_p95(times):.1f} ms",
            _p95(times) <= QUERY_P95_MS_TARGET,
        ),
        (f"the first query's load is <= {FIRST_LOAD_S_TARGET:.0f} s", f"{figures['load']:.2f} s", figures["load"] <= FIRST_LOAD_S_TARGET),
        (f"the index is <= {INDEX_SHARE_TARGET:.0%} of the site's HTML", f"{share:.1%}", share <= INDEX_SHARE_TARGET),
    ]
    section = "\n".join(
        [
            BEGIN,
            "",
            f"## Search over {notes} notes",
            "",
            f"`make bench-site` (`bench/site_search.py`): {notes} notes of about 6,000 characters, their words drawn from",
            "a vocabulary of 40,000 (common words often, rare ones seldom), built into a site; the index weighed, and",
            "queries typed into the search box of a note's page opened from `file://` in Debian's headless",
            "Chromium (single words, the first two or three letters of a common word, two words), each timed",
            "in the page from the input event to its results, loading the index files it needs on the way.",
            "",
            "| What | Figure |",
            "| --- | --- |",
            *(f"| {what} | {figure} |" for what, figure in rows),
            "",
            "| Target | Measured | Met |",
            "| --- | --- | --- |",
            *(f"| {what} | {figure} | {'yes' if met else '**no**'} |" for what, figure, met in targets),
            "",
            "A query that starts a new word waits for the parts it loads (the part of its words, then the",
            "titles of the sections it shows), each by a `<script>` element; the second query row is the",
            "search itself. A part loads in a few milliseconds, but after the page changes Chromium draws it",
            "before it runs the part: on the index page of 10,000 notes (a table of 10,000 rows) each redraw",
            "takes about 45 ms, so a query typed there waits that much longer than on a note's page.",
            "",
            END,
        ]
    )
    print(section)
    written = Path(args.write)
    text = written.read_text(encoding="utf-8") if written.exists() else ""
    if BEGIN in text:
        before, rest = text.split(BEGIN, 1)
        text = before + section + rest.split(END, 1)[1]
    elif SIZES_MARKER in text:
        before, after = text.split(SIZES_MARKER, 1)
        text = before.rstrip("\n") + "\n\n" + section + "\n\n" + SIZES_MARKER + after
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    written.write_text(text, encoding="utf-8")
    return 0 if all(met for _, _, met in targets) else 1


if __name__ == "__main__":
    sys.exit(main())
