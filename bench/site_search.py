"""The site's search over 1,000 notes: ``make bench-site``. Writes its section of docs/benchmarks.md.

1,000 notes (bench/corpus.py: the words and shapes of real notes, sections of numbered points) are
built into a site (``--to html``); the search index is weighed against the site's HTML, and in
Debian's headless Chromium the index page is opened from ``file://``, the search box focused (the
index loads) and queries typed: single words, word beginnings, two words. Each query is timed in
the page, from the input event to the results in the document.
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
NOTES = 1000
QUERY_MS_TARGET = 100.0
INDEX_SHARE_TARGET = 0.15


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


def build(folder: Path) -> tuple[Path, float, list[str]]:
    notes = folder / "notes"
    notes.mkdir(parents=True)
    rng = random.Random(1000)
    vocabulary = _vocabulary(rng)
    for index in range(NOTES):
        text = _rich(markdown_note(rng, index, 6000), rng, vocabulary)
        (notes / f"talk-{index:04d}.md").write_text(text, encoding="utf-8")
    site = folder / "site"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "confnotes", "build", str(notes), "-o", str(site), "--to", "html", "-q"], check=True)
    return site, time.perf_counter() - started, vocabulary


QUERY = """async (text) => {
  const box = document.getElementById('cn-q');
  const started = performance.now();
  box.value = text;
  box.dispatchEvent(new Event('input', {bubbles: true}));
  const shown = document.querySelectorAll('#cn-results li').length;
  return [performance.now() - started, shown];
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
        page.goto((site / "index.html").as_uri())
        started = time.perf_counter()
        page.focus("#cn-q")
        page.wait_for_function("window.CONFNOTES_SEARCH !== undefined")
        loaded = time.perf_counter() - started
        times, found = [], []
        for query in queries:
            elapsed, shown = page.evaluate(QUERY, query)
            times.append(elapsed)
            found.append(shown)
        browser.close()
    return {"load": loaded, "times": times, "found": found, "queries": len(queries)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", default=str(ROOT / "docs" / "benchmarks.md"))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="confnotes-site-bench-"))
    try:
        site, seconds, vocabulary = build(work)
        html = sum(p.stat().st_size for p in site.rglob("*.html"))
        index = (site / "_site" / "search-index.js").stat().st_size
        data = json.loads((site / "_site" / "search-index.js").read_text(encoding="utf-8").split("=", 1)[1].rstrip(";\n"))
        figures = measure(site, vocabulary)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    times = figures["times"]
    share = index / html
    rows = [
        ("1,000 notes built into a site (`build --to html`, 2 workers)", f"{seconds:.1f} s"),
        ("search index (`_site/search-index.js`)", f"{index / 1e6:.2f} MB: {share:.1%} of the site's {html / 1e6:.1f} MB of HTML"),
        ("  its words and sections", f"{len(data['terms']):,} words, {len(data['docs']):,} sections of {len(data['notes']):,} notes"),
        ("index loaded in Chromium (`file://`, the box focused)", f"{figures['load'] * 1000:.0f} ms"),
        (
            f"a query typed, to its results in the page ({figures['queries']} queries)",
            f"median {statistics.median(times):.1f} ms, p95 {_p95(times):.1f} ms, max {max(times):.1f} ms",
        ),
    ]
    targets = [
        (f"a query over 1,000 notes answers in <= {QUERY_MS_TARGET:.0f} ms (max)", f"{max(times):.1f} ms", max(times) <= QUERY_MS_TARGET),
        (f"the index is <= {INDEX_SHARE_TARGET:.0%} of the site's HTML", f"{share:.1%}", share <= INDEX_SHARE_TARGET),
    ]
    section = "\n".join(
        [
            BEGIN,
            "",
            "## Search over 1,000 notes",
            "",
            "`make bench-site` (`bench/site_search.py`): 1,000 notes of about 6,000 characters, their words drawn from",
            "a vocabulary of 40,000 (common words often, rare ones seldom), built into a site; the index weighed, and",
            "queries typed into the search box of the index page opened from `file://` in Debian's headless",
            "Chromium (single words, the first two or three letters of a common word, two words), each timed",
            "in the page from the input event to its results.",
            "",
            "| What | Figure |",
            "| --- | --- |",
            *(f"| {what} | {figure} |" for what, figure in rows),
            "",
            "| Target | Measured | Met |",
            "| --- | --- | --- |",
            *(f"| {what} | {figure} | {'yes' if met else '**no**'} |" for what, figure, met in targets),
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
