"""Real notes, round 4 (issue 59): talks found however their titles end and wrap, with the shapes
people write them in (tests/fixtures/real4/)."""

from __future__ import annotations

from confnotes.model import walk
from confnotes.parse import parse
from conftest import FIXTURES
from helpers import assert_same_words, source_words, text_words

REAL4 = FIXTURES / "real4"


def test_talks_are_found_whatever_ends_their_titles_and_however_they_wrap():
    """16 of 26 talks were found in three real conference notes: a bold title ending in ``!`` or
    ``?``, wrapped over two lines, or in italics over its speaker line was missed, its notes landed
    under the talk before, and each ``---`` between talks was a break inside a section."""
    doc = parse((REAL4 / "devopsdays-talks.md").read_text(encoding="utf-8"), "devopsdays-talks.md")
    assert [section.title for section in doc.sections] == [
        "Why we left Kafka!",
        "Is observability a data problem?",
        "Cells at scale: what a hundred regions taught us about\nblast radius and the cost of isolation",
        "Platform teams are product teams.",
    ]
    for section in doc.sections:
        first = section.content[0]
        assert getattr(first, "info", None) == "speakers", section.title
        assert not any(getattr(entry, "kind", None) == "break" for entry in section.content), section.title


def test_a_talk_title_keeps_its_punctuation_without_a_finding_and_fmt_keeps_the_talks(cli, tmp_path):
    note = tmp_path / "talks.md"
    text = (REAL4 / "devopsdays-talks.md").read_text(encoding="utf-8")
    note.write_text(text, encoding="utf-8")
    lint = cli("lint", "--no-cache", "--format", "json", str(note))
    assert "heading-punctuation" not in lint.stdout and "misplaced" not in lint.stdout, lint.stdout
    assert cli("fmt", str(note)).exit_code == 0
    assert note.read_text(encoding="utf-8") == text  # the titles, their wrapping, italics and speakers as written
    assert_same_words(source_words(text), text_words(note.read_text(encoding="utf-8")), "fmt")


def test_lint_finds_an_unclosed_fence_and_imgs_as_markdownlint_reads_them(cli, tmp_path):
    """An unclosed fence that swallowed the rest of a note got no finding; ``<IMG`` in upper case and
    an ``<img`` split over lines were missed (markdownlint finds both)."""
    note = tmp_path / "rollout.md"
    note.write_text(
        '# Rollout\n\n## Diagram\n\n<IMG src="flow.png">\n\n<img\n  src="arch.png"\n  width="600">\n\n'
        "## Setup\n\n```bash\nkubectl apply -f deploy.yaml\n``\n\n## Results\n\n- p99 fell\n",
        encoding="utf-8",
    )
    out = cli("lint", "--no-cache", str(note)).stdout
    assert f"{note}:5:1: CN208" in out and f"{note}:7:1: CN208" in out
    assert f"{note}:13:1: CN115 unclosed-fence code fence ``` never closes" in out


def test_a_misspelt_key_a_format_and_a_theme_are_named_with_what_was_meant(cli, tmp_path):
    import json

    import jsonschema

    from confnotes.config.schema import config_schema

    config = tmp_path / "confnotes.toml"
    config.write_text('[lint]\nignor = ["CN101"]\n', encoding="utf-8")
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## A\n\n- a\n", encoding="utf-8")
    assert "unknown key 'lint.ignor'; did you mean 'ignore'?" in cli("lint", str(note)).stderr
    assert "Did you mean 'docx'?" in cli("render", str(note), "--to", "word").stderr
    config.write_text('theme = "drak"\n', encoding="utf-8")
    assert "unknown theme 'drak'; did you mean 'dark'?" in cli("render", str(note), "-o", str(tmp_path / "t.html")).stderr
    schema = json.loads(json.dumps(config_schema()))
    try:
        jsonschema.validate({"theme": "drak"}, schema)
        refused = False
    except jsonschema.ValidationError:
        refused = True
    assert refused  # the schema lists the themes
    jsonschema.validate({"theme": "drak", "templates": "my-templates"}, schema)  # templates may add one


def test_a_talk_with_a_few_links_is_notes_and_a_list_annotated_in_bullets_is_a_reading_list(cli):
    """Four real notes (three of them talks with a few links) were classed as reading lists, and one
    entry annotated with sub-bullets kept a real reading list from being one, its bare entry then
    "empty section" instead of "entry has no annotation"."""
    talk = parse((REAL4 / "talk-with-links.md").read_text(encoding="utf-8"), "talk-with-links.md")
    assert talk.meta.kind == "notes"
    papers = REAL4 / "reading-list-bullets.md"
    assert parse(papers.read_text(encoding="utf-8"), papers.name).meta.kind == "reading-list"
    out = cli("lint", "--no-cache", str(papers)).stdout
    assert "entry 'Wide Attention Is The Way Forward for Transformers' has no annotation" in out, out
    assert "is empty" not in out


def test_the_title_after_a_banner_or_badges_and_a_bold_title_is_its_words(cli, tmp_path):
    """``# Title`` under a banner picture or a row of badges was no longer the title (lint then asked
    for one), and ``# **Title**`` from Word or a paste kept its ``**`` in ``meta.title``."""
    banner = "![Platform day banner](banner.png)\n\n# Platform Engineering Day\n\n## Opening\n\n- welcome\n\n## Talks\n\n- many\n"
    badges = "[![build](https://ci.example.org/b.svg)](https://ci.example.org) [![docs](d.svg)](https://docs.example.org)\n\n" + banner[36:]
    for text in (banner, badges):
        meta = parse(text, "day.md").meta
        assert (meta.title, meta.title_origin) == ("Platform Engineering Day", "heading")
    bold = "# **Platform Engineering Day**\n\n## Opening\n\n- welcome\n"
    assert parse(bold, "day.md").meta.title == "Platform Engineering Day"
    note = tmp_path / "day.md"
    note.write_text(bold, encoding="utf-8")
    assert cli("fmt", "--check", str(note)).exit_code == 0  # fmt keeps the author's bold
    pasted = tmp_path / "pasted.md"
    pasted.write_text(
        "**Platform Engineering Day**\n\n• welcome from the hosts\n• three tracks\n\nKeynote\n• platforms as products\n", encoding="utf-8"
    )
    cli("lint", "--fix", "--no-cache", str(pasted))
    assert pasted.read_text(encoding="utf-8").startswith("## Platform Engineering Day\n")  # written as Markdown, without the **


def test_a_note_with_headings_of_its_own_under_a_front_matter_title_gets_none_guessed():
    """A note titled in its front matter, with a ``# Morning sessions`` heading of its own, had
    its short topic lines guessed as sections (``## Opening keynote``): the ``#`` heading was
    taken for a title over the note, which alone allows guessing. The docs say a note with its
    own headings gets none."""
    text = (REAL4 / "day-notes-own-headings.md").read_text(encoding="utf-8")
    doc = parse(text, "day-notes-own-headings.md")
    assert doc.meta.title == "PlatformCon 2025 — day 1"
    assert [section.title for section in doc.sections] == ["Morning sessions"]
    assert not [node for node, _ in walk(doc.nodes) if node.origin == "inferred"]
    assert "Opening keynote" in [block.text for block in doc.sections[0].body]
    # a "# Title" repeating the front matter's title still opens a note whose bare lines may be guessed
    pasted = "---\ntitle: Notes\n---\n\n# Notes\n\nKeynote\n\n• adoption is counted\n• by teams\n"
    assert [section.title for section in parse(pasted, "p.md").sections] == ["Keynote"]


def test_a_bold_first_line_taken_as_the_title_is_its_words_and_fmt_keeps_the_bold(cli, tmp_path):
    """A paste's bold first line (Word, LibreOffice, a chat) became the title with its ``**``: the
    page's heading, the site's index and outline JSON said ``**KubeCon EU 2025 notes**``."""
    text = (
        "**KubeCon EU 2025 notes**\n\nWe met at the usual place and talked about golden paths for an hour,"
        " then split into groups.\n\n- templates in one repo\n- owners in CODEOWNERS\n"
    )
    doc = parse(text, "kubecon.md")
    assert (doc.meta.title, doc.meta.title_origin, doc.meta.title_marker) == ("KubeCon EU 2025 notes", "inferred", "**")
    note = tmp_path / "kubecon.md"
    note.write_text(text, encoding="utf-8")
    assert cli("fmt", str(note)).exit_code == 0
    assert note.read_text(encoding="utf-8") == text  # tidied, not rewritten: the bold line stays
