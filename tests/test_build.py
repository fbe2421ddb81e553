"""``confnotes build``: a site from a folder of notes, incremental, parallel, sharded, failure-isolated."""

from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import NOTES
from helpers import formats_where


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "a":
            self.links += [value for name, value in attrs if name == "href" and value]


def _links(html: str) -> list[str]:
    parser = _Links()
    parser.feed(html)
    return parser.links


def test_build_notes_folder_links_every_note_and_format(cli, tmp_path, processes):
    site = tmp_path / "site"
    result = cli("build", str(NOTES), "-o", str(site))
    assert result.exit_code == 0, result.output
    assert "rendered 2, skipped 0 unchanged, removed 0, failed 0" in result.stdout
    index = (site / "index.html").read_text()
    links = _links(index)
    for stem in ("scale2025", "scaling-reading-list"):
        for suffix in (".html", ".pdf", ".slides.html", ".pptx"):
            assert "./" + stem + suffix in links
    for link in links:
        assert (site / link).is_file(), link
    assert "System &amp; Reliability @scale Conference" in index and "14 entries" in index
    assert "5 sections, 12 points" in index
    outline = json.loads((site / "outline.json").read_text())
    assert [n["meta"]["title"] for n in outline["notes"]] == ["System & Reliability @scale Conference", "Scaling"]
    assert (site / "scale2025.pdf").read_bytes().startswith(b"%PDF")


def _make_corpus(folder: Path, count: int) -> None:
    folder.mkdir()
    for index in range(count):
        sub = folder / f"day{index % 3}"
        sub.mkdir(exist_ok=True)
        (sub / f"talk{index:03d}.md").write_text(
            f"---\ntitle: Talk {index}\nevent: Conf {index % 2}\ntags: [t{index % 5}]\n---\n\n"
            f"## Part one\n\n1. Point {index}\n   - detail a\n   - detail b\n\n## Part two\n\nClosing words {index}.\n"
        )


def _snapshot(site: Path) -> dict[str, tuple[int, bytes]]:
    return {str(p.relative_to(site)): (p.stat().st_mtime_ns, p.read_bytes()) for p in site.rglob("*") if p.is_file()}


def test_incremental_build_of_200_notes(cli, tmp_path, processes):
    notes = tmp_path / "notes"
    _make_corpus(notes, 200)
    site = tmp_path / "site"
    first = cli("build", str(notes), "-o", str(site), "--to", "html,slides", "-j", "2")
    assert first.exit_code == 0, first.output
    assert "rendered 200, skipped 0 unchanged, removed 0, failed 0" in first.stdout
    before = _snapshot(site)
    second = cli("build", str(notes), "-o", str(site), "--to", "html,slides", "-j", "2")
    assert "rendered 0, skipped 200 unchanged, removed 0, failed 0" in second.stdout
    assert _snapshot(site) == before, "a no-op build changed output files"
    touched = notes / "day1" / "talk007.md"
    touched.write_text(touched.read_text().replace("Closing words 7.", "Closing words, revised."))
    third = cli("build", str(notes), "-o", str(site), "--to", "html,slides")
    assert "rendered 1, skipped 199 unchanged, removed 0, failed 0" in third.stdout
    assert "revised" in (site / "day1" / "talk007.html").read_text()
    (notes / "day2" / "talk008.md").unlink()
    fourth = cli("build", str(notes), "-o", str(site), "--to", "html,slides")
    assert "rendered 0, skipped 199 unchanged, removed 1, failed 0" in fourth.stdout
    assert "removed day2/talk008.md" in fourth.stdout
    assert not (site / "day2" / "talk008.html").exists() and not (site / "day2" / "talk008.slides.html").exists()
    assert "talk008" not in (site / "index.html").read_text()
    forced = cli("build", str(notes), "-o", str(site), "--to", "html,slides", "--force")
    assert "rendered 199, skipped 0" in forced.stdout


def test_config_or_template_change_rebuilds(cli, tmp_path, processes):
    notes = tmp_path / "notes"
    _make_corpus(notes, 3)
    site = tmp_path / "site"
    cli("build", str(notes), "-o", str(site), "--to", "html")
    (notes / "confnotes.toml").write_text('theme = "serif"\n')
    again = cli("build", str(notes), "-o", str(site), "--to", "html")
    assert "rendered 3, skipped 0" in again.stdout
    assert "DejaVu Serif" in (site / "day0" / "talk000.html").read_text()


def test_broken_note_is_isolated(cli, tmp_path, processes):
    notes = tmp_path / "notes"
    _make_corpus(notes, 4)
    (notes / "broken.md").write_bytes(b"# Broken\n\xff\xfe\n")
    site = tmp_path / "site"
    result = cli("build", str(notes), "-o", str(site), "--to", "html", "-j", "2")
    assert result.exit_code == 1
    assert "rendered 4, skipped 0 unchanged, removed 0, failed 1" in result.stdout
    assert f"failed: {notes / 'broken.md'}: not valid UTF-8 at line 2, column 1 (byte 0xff)" in result.stderr
    assert len(list(site.rglob("talk*.html"))) == 4
    assert "Broken" not in (site / "index.html").read_text()


def test_shards_merge_into_the_same_site(cli, tmp_path, processes):
    notes = tmp_path / "notes"
    _make_corpus(notes, 7)
    full = tmp_path / "full"
    assert cli("build", str(notes), "-o", str(full), "--to", "html,slides,outline").exit_code == 0
    sharded = tmp_path / "sharded"
    one = cli("build", str(notes), "-o", str(sharded), "--to", "html,slides,outline", "--shard", "1/2")
    two = cli("build", str(notes), "-o", str(sharded), "--to", "html,slides,outline", "--shard", "2/2")
    assert "built 4 note(s)" in one.stdout and "built 3 note(s)" in two.stdout
    assert not (sharded / "index.html").exists()
    merged = cli("build", "-o", str(sharded), "--merge")
    assert merged.exit_code == 0 and "merged 7 note(s)" in merged.stdout

    def site_files(site: Path) -> dict[str, bytes]:
        return {
            str(p.relative_to(site)): p.read_bytes()
            for p in site.rglob("*")
            if p.is_file() and not p.name.startswith(".confnotes-manifest")
        }

    assert site_files(sharded) == site_files(full)
    assert cli("build", str(notes), "-o", str(tmp_path / "x"), "--shard", "3/2").exit_code == 2


def test_index_filters_in_browser(cli, tmp_path, open_page):
    notes = tmp_path / "notes"
    _make_corpus(notes, 6)
    site = tmp_path / "site"
    assert cli("build", str(notes), "-o", str(site), "--to", "html").exit_code == 0
    page, errors, requests = open_page(site / "index.html")
    assert page.locator("tbody tr:visible").count() == 6
    page.select_option("#filter-event", "Conf 1")
    assert page.locator("tbody tr:visible").count() == 3
    page.select_option("#filter-tag", "t1")
    assert page.locator("tbody tr:visible").count() == 1
    assert page.inner_text("#shown") == "1"
    # the site's own search bar, from its folder; nothing else, nothing remote
    assert errors == [] and sorted(requests) == sorted(
        (site / "_site" / name).as_uri() for name in ("nav.js", "site.css", "site.js", "attend.js")
    )


def test_new_scaffolds_and_never_overwrites(cli, tmp_path):
    folder = tmp_path / "notes"
    result = cli("new", "Rust in Production", "--event", "RustConf", "--date", "2026-09-10", "--dir", str(folder))
    assert result.exit_code == 0
    path = folder / "rust-in-production.md"
    assert result.stdout.strip() == str(path)
    text = path.read_text()
    assert text.startswith('---\ntitle: "Rust in Production"\nevent: "RustConf"\ndate: "2026-09-10"\n')
    lint = cli("lint", str(path), "--format", "json")
    assert json.loads(lint.stdout) == [] and lint.exit_code == 0
    again = cli("new", "Rust in Production", "--dir", str(folder))
    assert again.exit_code == 2 and "already exists" in again.stderr
    assert path.read_text() == text
    reading = cli("new", "Papers", "--reading-list", "--dir", str(folder))
    assert reading.exit_code == 0
    data = json.loads(cli("outline", str(folder / "papers.md"), "--format", "json").stdout)
    assert data["meta"]["kind"] == "reading-list"


def test_build_summary_line_without_tty(cli, tmp_path, processes):
    result = cli("build", str(NOTES), "-o", str(tmp_path / "s"), "--to", "html", "-q")
    assert result.stdout == ""
    result = cli("build", str(NOTES), "-o", str(tmp_path / "s"), "--to", "html")
    assert re.fullmatch(r"built 2 note\(s\) into .+: rendered 0, skipped 2 unchanged, removed 0, failed 0 \(\d+\.\d s\)\n", result.stdout)


@pytest.fixture
def fitted(monkeypatch):
    """The notes of every fitted deck built (``build_deck`` counted wherever it is called from)."""
    import confnotes.slides as slides
    import confnotes.slides.build as slides_build

    fitted: list[str] = []
    real = slides.build_deck

    def counting(doc, options=None, base=None):
        if options is None or options.fit:
            fitted.append(doc.path)
        return real(doc, options, base)

    for module in (slides, slides_build):
        monkeypatch.setattr(module, "build_deck", counting)
    return fitted


def test_a_talk_is_built_into_a_deck_once_for_its_lint_run_and_every_deck_format(cli, tmp_path, fitted):
    """The talk rules, slides, marp, outline, PPTX and the index's estimate share one built and fitted deck."""
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("---\nduration: 20min\n---\n# A talk\n\n## Why\n\n- one\n- two\n\n## How\n\n- three\n")
    result = cli("build", str(notes), "-o", str(tmp_path / "site"), "--to", "slides,marp,outline,pptx", "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    assert len(fitted) == 1, fitted
    assert "min" in (tmp_path / "site" / "index.html").read_text()  # the estimate is on the index


def test_a_note_reached_through_a_symlink_shares_its_deck_too(cli, tmp_path, fitted):
    """Lint and the renderers agree on the note's folder (symlinks followed), so they share one deck."""
    real_notes = tmp_path / "real-notes"
    real_notes.mkdir()
    (real_notes / "talk.md").write_text("---\nduration: 20min\n---\n# A talk\n\n## Why\n\n- one\n- two\n")
    linked = tmp_path / "linked"
    linked.symlink_to(real_notes, target_is_directory=True)
    result = cli("build", str(linked), "-o", str(tmp_path / "site"), "--to", "slides", "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    assert len(fitted) == 1, fitted


def test_build_reports_each_notes_render_warnings(cli, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# Talk\n\n## Demo\n\n- the dashboard\n\n![dashboard](shots/missing.png)\n")
    (notes / "clean.md").write_text("# Clean\n\n## Part\n\n- nothing to warn about\n")
    result = cli("build", str(notes), "-o", str(tmp_path / "site"), "--to", "html,slides", "-j", "1")
    assert result.exit_code == 0
    lines = [line for line in result.stderr.splitlines() if "warning" in line]
    assert lines and all(line.startswith("talk.md: warning: ") for line in lines)
    assert any("missing.png" in line for line in lines)
    assert len(lines) == len(set(lines)), "one line per warning, not one per format"
    # an unchanged note is not rendered again, so it does not warn again
    again = cli("build", str(notes), "-o", str(tmp_path / "site"), "--to", "html,slides", "-j", "1")
    assert "warning" not in again.stderr
    # --quiet prints only failures
    quiet = cli("build", str(notes), "-o", str(tmp_path / "site"), "--to", "html,slides", "-j", "1", "--force", "--quiet")
    assert quiet.exit_code == 0 and "warning" not in quiet.stderr


# ------------------------------------------------------------------ outline.json from one file a note


def _manifest(site: Path) -> dict:
    return json.loads((site / ".confnotes-manifest.json").read_text())


def test_outline_json_is_each_notes_outline_with_its_place_in_the_site(cli, tmp_path):
    """Each note's outline is written to its own file as the note is built, and outline.json is
    those files in turn: the same JSON, byte for byte, as one dump of every outline (keys sorted,
    no spaces), each outline the one `outline --format json` prints with the note's place as path."""
    from confnotes.markup.escape import strict_json

    site = tmp_path / "site"
    assert cli("build", str(NOTES), "-o", str(site), "--to", "html", "-j", "1").exit_code == 0
    expected = []
    for rel in ("scale2025.md", "scaling-reading-list.md"):
        printed = cli("outline", str(NOTES / rel), "--format", "json")
        expected.append({**json.loads(printed.stdout), "path": rel})
    whole = {"schema": "confnotes.site/2", "notes": expected}
    assert (site / "outline.json").read_bytes() == (strict_json(whole, sort_keys=True, compact=True) + "\n").encode()


def test_the_manifest_names_each_outline_file_by_size_and_hash_and_holds_no_outline(cli, tmp_path):
    """The manifest held every note's outline (a 20 MB note's came to 170 MB of JSON, read back
    whole on the next build); it now names the note's outline file, its size and its hash."""
    import hashlib

    site = tmp_path / "site"
    assert cli("build", str(NOTES), "-o", str(site), "--to", "html", "-j", "1").exit_code == 0
    manifest = _manifest(site)
    for rel, entry in manifest["notes"].items():
        outline = entry["outline"]
        assert set(outline) == {"file", "bytes", "sha256"}
        assert outline["file"].startswith(f".confnotes-outlines/{rel}.")
        data = (site / outline["file"]).read_bytes()
        assert len(data) == outline["bytes"] and hashlib.sha256(data).hexdigest() == outline["sha256"]
        assert json.loads(data)["path"] == rel
    # the notes' entries are small; the site's own files are each a name, a size and a hash
    notes_part = json.dumps(manifest["notes"]).encode()
    assert len(notes_part) < 4000 and all(set(record) == {"bytes", "sha256"} for record in manifest["site"].values())


def test_an_outline_file_changed_in_the_site_is_built_again_not_published(cli, tmp_path):
    notes = tmp_path / "notes"
    _make_corpus(notes, 2)
    site = tmp_path / "site"
    assert cli("build", str(notes), "-o", str(site), "--to", "html", "-j", "1").exit_code == 0
    before = (site / "outline.json").read_bytes()
    planted = site / _manifest(site)["notes"]["day0/talk000.md"]["outline"]["file"]
    planted.write_text(planted.read_text().replace("Talk 0", "Tampered"))
    again = cli("build", str(notes), "-o", str(site), "--to", "html", "-j", "1")
    assert again.exit_code == 0 and "rendered 1, skipped 1 unchanged" in again.stdout, again.output
    assert (site / "outline.json").read_bytes() == before
    assert "Tampered" not in planted.read_text()


def test_an_unchanged_rebuild_leaves_outline_json_as_it_was(cli, tmp_path, processes):
    site = tmp_path / "site"
    assert cli("build", str(NOTES), "-o", str(site), "--to", "html").exit_code == 0
    stamp = (site / "outline.json").stat().st_mtime_ns
    again = cli("build", str(NOTES), "-o", str(site), "--to", "html")
    assert "rendered 0, skipped 2 unchanged" in again.stdout
    assert (site / "outline.json").stat().st_mtime_ns == stamp, "an unchanged outline.json was written again"


def test_an_unchanged_rebuild_does_not_make_the_index_again(cli, tmp_path, monkeypatch, processes):
    """The manifest records the index files' sizes and hashes: when nothing the index shows has
    changed and both files are as recorded, an unchanged build neither renders the index page nor
    reads every outline again to make outline.json (half of a 1,000-note site's unchanged build)."""
    import confnotes.build.index

    site = tmp_path / "site"
    assert cli("build", str(NOTES), "-o", str(site), "--to", "html").exit_code == 0
    recorded = _manifest(site)["site"]
    assert recorded["index.html"]["bytes"] == len((site / "index.html").read_bytes())
    assert recorded["outline.json"]["bytes"] == len((site / "outline.json").read_bytes())
    made = []
    monkeypatch.setattr(confnotes.build.index, "_site_outline", lambda *args: made.append(args) or iter(()))
    again = cli("build", str(NOTES), "-o", str(site), "--to", "html")
    assert "rendered 0, skipped 2 unchanged" in again.stdout and made == []
    assert _manifest(site)["site"] == recorded


@pytest.mark.parametrize("change", ["edited", "deleted"])
def test_an_index_file_changed_in_the_site_is_made_again(cli, tmp_path, change, processes):
    site = tmp_path / "site"
    assert cli("build", str(NOTES), "-o", str(site), "--to", "html").exit_code == 0
    before = {name: (site / name).read_bytes() for name in ("index.html", "outline.json")}
    for name in before:
        if change == "deleted":
            (site / name).unlink()
        else:
            (site / name).write_bytes(before[name].replace(b"Scale", b"Sc4le"))
    again = cli("build", str(NOTES), "-o", str(site), "--to", "html")
    assert "rendered 0, skipped 2 unchanged" in again.stdout, again.output
    assert {name: (site / name).read_bytes() for name in before} == before


def test_merge_refuses_an_outline_file_its_shard_did_not_write(cli, tmp_path, processes):
    notes = tmp_path / "notes"
    _make_corpus(notes, 3)
    site = tmp_path / "site"
    for shard in ("1/2", "2/2"):
        assert cli("build", str(notes), "-o", str(site), "--to", "html", "--shard", shard).exit_code == 0
    shard_manifest = site / ".confnotes-manifest.shard-2-of-2.json"
    entry = json.loads(shard_manifest.read_text())["notes"]["day1/talk001.md"]
    planted = site / entry["outline"]["file"]
    planted.write_bytes(planted.read_bytes()[:-40])  # cut short, as a failed copy between CI jobs leaves it
    result = cli("build", "-o", str(site), "--merge")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"{planted}: is not the outline of day1/talk001.md that its build wrote (changed since); "
        "build that note's shard again (nothing was merged)"
    )
    assert shard_manifest.exists() and not (site / "index.html").exists() and not (site / "outline.json").exists()


def test_a_failed_rebuild_keeps_the_last_good_outline_and_leaves_none_of_its_own(tmp_path, monkeypatch, weasyprint):
    """The live preview keeps a failing note's last good files (keep_failed): its outline file is
    named by the note's key, so the failed build's outline never overwrites the kept one, and is
    removed."""
    from confnotes.build import OUTLINES, BuildRequest, build_site
    from confnotes.errors import NotesError
    from confnotes.render import pdf

    notes = tmp_path / "notes"
    _make_corpus(notes, 1)
    site = tmp_path / "site"
    request = BuildRequest(str(notes), str(site), formats=("html", "pdf"), jobs=1, keep_failed=True)
    assert not build_site(request).failed
    kept = (site / "outline.json").read_bytes()
    note = notes / "day0" / "talk000.md"
    note.write_text(note.read_text().replace("Closing words 0.", "Closing words, revised."))

    def broken(*args, **kwargs):
        raise NotesError("the layout failed")

    monkeypatch.setattr(pdf, "html_to_pdf", broken)
    report = build_site(request)
    assert [rel for rel, _ in report.failed] == ["day0/talk000.md"]
    assert (site / "outline.json").read_bytes() == kept
    assert len(list((site / OUTLINES).rglob("*.json"))) == 1


def test_a_notes_pdfs_are_laid_out_once_the_note_is_let_go(tmp_path, monkeypatch, weasyprint):
    """build renders a note's other formats and writes its outline, then lets the note go, then lays
    out its PDFs: a 20 MB note's outline (about 600 MB) and a PDF's layout (about 330 MB) never
    stand side by side. No outline of the note is alive when WeasyPrint starts."""
    import gc

    from confnotes.build import BuildRequest, build_site
    from confnotes.model import Document
    from confnotes.render import pdf

    laid_out = []
    real = pdf.html_to_pdf

    def watched(html, base_dir, **kwargs):
        gc.collect()
        laid_out.append(sum(1 for thing in gc.get_objects() if type(thing) is Document))
        return real(html, base_dir, **kwargs)

    monkeypatch.setattr(pdf, "html_to_pdf", watched)
    notes = tmp_path / "notes"
    _make_corpus(notes, 1)
    report = build_site(BuildRequest(str(notes), str(tmp_path / "site"), formats=("html", *formats_where(printed=True)), jobs=1))
    assert not report.failed, report.failed
    assert laid_out == [0] * len(formats_where(printed=True)), "a note's outline was held while its PDF was laid out"


def test_a_worker_renders_a_bounded_number_of_notes_then_a_fresh_one_takes_over(tmp_path, monkeypatch, processes):
    """The caches below WeasyPrint (Pango, HarfBuzz, fontconfig) grow with every PDF a process
    lays out, so a 1,000-note build's workers each grew by 100 MB: workers now come in pools of
    ``NOTES_PER_WORKER`` notes each, and every note is still built once."""
    import os
    from collections import Counter

    import confnotes.build as build
    from confnotes.build import BuildRequest, build_site

    real = build.build_note

    def counted(task):
        outcome = real(task)
        outcome.warnings.append(f"pid {os.getpid()}")
        return outcome

    counted.__module__, counted.__qualname__ = "confnotes.build", "build_note"  # pickled by name to forked workers
    monkeypatch.setattr(build, "build_note", counted)
    monkeypatch.setattr(build, "NOTES_PER_WORKER", 2)
    notes = tmp_path / "notes"
    _make_corpus(notes, 9)
    report = build_site(BuildRequest(str(notes), str(tmp_path / "site"), formats=("outline",), jobs=2))
    assert sorted(report.rendered) == sorted(str(p.relative_to(notes)) for p in notes.rglob("*.md"))
    per_process = Counter(message for _, message in report.warnings if message.startswith("pid "))
    assert sum(per_process.values()) == 9
    # a pool of 2 workers takes 4 notes (either worker may take them all on a busy machine): at most
    # 4 a process, and the 9 notes need 3 pools at least
    assert max(per_process.values()) <= 4 and len(per_process) >= 3, per_process


def test_to_may_be_repeated(cli, tmp_path):
    """Before: ``--to html --to slides`` built the slides alone (the last --to silently won)."""
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text("# A Talk\n\n## Part\n\n- a point\n", encoding="utf-8")
    site = tmp_path / "site"
    result = cli("build", str(notes), "-o", str(site), "--to", "html", "--to", "slides,outline", "--to", "html")
    assert result.exit_code == 0, result.output
    assert (site / "talk.html").is_file() and (site / "talk.slides.html").is_file() and (site / "talk.slides.txt").is_file()
    assert json.loads((site / ".confnotes-manifest.json").read_text())["notes"]["talk.md"]["outputs"] == {
        "html": "talk.html",
        "slides": "talk.slides.html",
        "outline": "talk.slides.txt",
    }


def test_a_changed_picture_renders_its_note_again(cli, tmp_path):
    """Before: the pages embed a note's pictures, but a build only looked at the note, its config
    and templates, so a picture saved again stayed old in the site until the note changed."""
    import base64

    from PIL import Image

    notes = tmp_path / "notes"
    (notes / "day 1").mkdir(parents=True)
    talk = notes / "day 1" / "talk.md"
    talk.write_text("# A Talk\n\n## Architecture\n\n![The system](shots/arch%20v1.png)\n\n- a point\n", encoding="utf-8")
    (notes / "other.md").write_text("# Other\n\n## Part\n\n- no picture\n", encoding="utf-8")
    picture = notes / "day 1" / "shots" / "arch v1.png"
    picture.parent.mkdir()
    Image.new("RGB", (40, 20), "blue").save(picture)
    site = tmp_path / "site"
    build = ("build", str(notes), "-o", str(site), "--to", "html,slides", "-j", "1")
    assert "rendered 2, skipped 0" in cli(*build).stdout
    manifest = json.loads((site / ".confnotes-manifest.json").read_text())["notes"]
    assert list(manifest["day 1/talk.md"]["inputs"]) == ["shots/arch v1.png"] and manifest["other.md"]["inputs"] == {}
    assert "rendered 0, skipped 2" in cli(*build).stdout, "an unchanged picture renders nothing"
    os.utime(picture, ns=(10**18, 10**18))  # a checkout that touched it: its bytes are the same
    assert "rendered 0, skipped 2" in cli(*build).stdout, "a picture only touched renders nothing"
    Image.new("RGB", (40, 20), "red").save(picture)
    again = cli(*build)
    assert "rendered 1, skipped 1" in again.stdout, again.output
    assert base64.b64encode(picture.read_bytes()).decode() in (site / "day 1" / "talk.html").read_text(encoding="utf-8")
    picture.unlink()
    gone = cli(*build)
    assert "rendered 1, skipped 1" in gone.stdout and "not found" in gone.output, gone.output


def test_a_build_looks_up_each_folders_config_once(tmp_path, monkeypatch):
    """Before: every note looked for its config file from its folder up, so a 1,000-note folder
    made thousands of file checks on every build and every save under serve (plan_build of the
    bench's 1,000 notes: 0.35 s, now 0.12 s). The notes of one folder share its config."""
    from confnotes import build, config

    notes = tmp_path / "notes"
    for folder in ("day1", "day2"):
        (notes / folder).mkdir(parents=True)
        for index in range(3):
            (notes / folder / f"talk{index}.md").write_text(f"# Talk {index}\n\n## Part\n\n- a point\n", encoding="utf-8")
    (notes / "day2" / "confnotes.toml").write_text('theme = "dark"\n', encoding="utf-8")
    looked: list[str] = []
    real = config.find_config
    monkeypatch.setattr(config, "find_config", lambda note: looked.append(str(note)) or real(note))
    plan = build.plan_build(build.BuildRequest(str(notes), str(tmp_path / "site"), ("html",), jobs=1))
    assert len(plan.tasks) == 6 and not plan.refused
    assert sorted(Path(note).parent.name for note in looked) == ["day1", "day2"]
    keys = {Path(task.note).parent.name: task.key for task in plan.tasks}
    assert keys["day1"] != keys["day2"], "each folder keyed on its own config"


def test_a_note_the_editor_holds_is_built_from_its_text_and_the_file_is_untouched(tmp_path):
    """The editor's live preview builds unsaved text (``BuildRequest.held``); the file is never
    written, and a build without the held text builds the file again (its manifest key differs)."""
    from confnotes.build import BuildRequest, build_site

    notes = tmp_path / "notes"
    notes.mkdir()
    note = notes / "talk.md"
    saved = "# Error budgets\n\n## Why budgets fail\n\n- nobody stops shipping\n"
    note.write_text(saved, encoding="utf-8")
    site = tmp_path / "site"
    held = saved.replace("## Why", "## Unsaved section\n\n- typed, not saved\n\n## Why")
    report = build_site(BuildRequest(str(notes), str(site), ("html",), jobs=1, held={str(note.resolve()): held}))
    assert report.rendered == ["talk.md"]
    assert "Unsaved section" in (site / "talk.html").read_text(encoding="utf-8")
    assert note.read_text(encoding="utf-8") == saved
    report = build_site(BuildRequest(str(notes), str(site), ("html",), jobs=1))
    assert report.rendered == ["talk.md"] and "Unsaved section" not in (site / "talk.html").read_text(encoding="utf-8")
