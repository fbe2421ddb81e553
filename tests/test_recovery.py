"""Recovering structure as a person reads it (docs/design.md, "Recovering pasted notes"), rule by rule,
on notes written the way people write them (tests/fixtures/real)."""

from __future__ import annotations

import json

import pytest

from confnotes.edges.source import read_source
from confnotes.fmt import format_markdown
from confnotes.model import Block, List, Node
from confnotes.parse import ParseOptions, parse, parse_source
from conftest import FIXTURES, ROOT

REAL = FIXTURES / "real"
CHECKED = sorted(REAL.glob("*.md")) + sorted((FIXTURES / "notes").glob("*.md")) + sorted((ROOT / "notes").glob("*.md"))


def _doc(name: str):
    return parse_source(read_source(REAL / name))


def _inferred(doc) -> set[str]:
    from confnotes.model import walk

    found = {node.title for node, _ in walk(doc.nodes) if node.origin == "inferred"}
    if doc.meta.title_origin == "inferred":
        found.add(doc.meta.title)
    return found


def test_inferred_headings_precision_and_recall():
    """Against headings a reader marked by hand: never a heading the reader does not see, and
    at least 95% of those the reader does see."""
    truth = json.loads((FIXTURES / "headings.json").read_text(encoding="utf-8"))
    true_positive = inferred_total = truth_total = 0
    wrong: list[str] = []
    for path in CHECKED:
        expected = set(truth.get(path.relative_to(ROOT).as_posix(), []))
        got = _inferred(parse_source(read_source(path)))
        wrong += [f"{path.name}: {title!r}" for title in sorted(got - expected)]
        true_positive += len(got & expected)
        inferred_total += len(got)
        truth_total += len(expected)
    assert not wrong, f"headings a reader does not see: {wrong}"
    assert truth_total >= 50 and inferred_total >= 45
    assert true_positive / truth_total >= 0.95, f"recall {true_positive}/{truth_total}"


def test_blog_post_of_one_line_paragraphs_gets_no_sections():
    doc = _doc("blog-one-liners.md")
    assert doc.sections == () and "inferred-headings" not in doc.recovered
    assert format_markdown(doc).count("\n#") == 0


def test_label_lines_are_not_sections():
    doc = _doc("talk-page-speaker-lines.md")
    assert doc.meta.title == "Observability at Scale with OpenTelemetry"
    assert [s.title for s in doc.sections] == ["Sampling", "Cardinality", "Takeaways"]
    assert doc.lede[0].text.startswith("Speaker : Priya Raman, CNCF")
    minimal = parse("Notes\n\nSpeaker: Priya Raman, CNCF\n\nSampling\n\n• head sampling\n\nTail\n\n• tail sampling\n")
    assert [s.title for s in minimal.sections] == ["Sampling", "Tail"]


@pytest.mark.parametrize(
    ("name", "title", "levels"),
    [
        ("opens-with-h2.md", "GopherCon — Generics two years in", [3, 3, 3]),
        ("opens-with-h3.md", "Notes: Postgres performance clinic", [4, 4]),
    ],
)
def test_opening_heading_alone_at_its_level_is_the_title(name, title, levels):
    doc = _doc(name)
    assert (doc.meta.title, doc.meta.title_origin) == (title, "heading")
    assert [s.level for s in doc.sections] == levels and all(s.content for s in doc.sections)
    again = parse(format_markdown(doc))
    assert again.meta.title == title and [s.level for s in again.sections] == levels


def test_pasted_note_opens_with_its_title():
    for name, title in [
        ("gdocs-paste.md", "SREcon Americas — team notes"),
        ("retro-notes.md", "Conference retro – platform team"),
        ("pasted-1paren.md", "Strange Loop hallway track, written up on the train"),
    ]:
        assert _doc(name).meta.title == title
    # but a first bare line heading a list, as the sections after it do, is a section
    doc = parse("Error budgets\n\n• spend them\n\nChaos days\n\n• on staging\n", "team.md")
    assert doc.meta.title == "team" and [s.title for s in doc.sections] == ["Error budgets", "Chaos days"]


@pytest.mark.parametrize(
    ("title", "label", "text"),
    [
        ("Speaker   : Priya Raman", "Speaker", "Priya Raman"),
        ("**Blog:** https://example.org/post", "Blog", "https://example.org/post"),
        ("*Slides:* https://example.org/deck", "Slides", "https://example.org/deck"),
        ("**Video**: recording next week", "Video", "recording next week"),
        ("Checkpointing limits: Frequent saves", "Checkpointing limits", "Frequent saves"),
    ],
)
def test_labels_never_keep_the_colon(title, label, text):
    item = parse(f"# T\n\n- {title}\n").nodes[0]
    assert (item.label, item.text) == (label, text)


def test_bold_lines_under_a_title_heading_are_its_sections():
    doc = _doc("bold-subheadings.md")
    assert [(s.title, s.level, s.origin) for s in doc.sections] == [
        ("Session 1: Platform engineering", 2, "bold"),
        ("Session 2: Caching", 2, "bold"),
        ("Session 3: Cost", 2, "bold"),
    ]
    assert [len(s.items) for s in doc.sections] == [3, 3, 2]
    assert format_markdown(doc).count("**Session") == 3


def test_bold_line_heads_the_list_below_it_in_a_note_without_headings():
    doc = _doc("paste-meetup-bold-talks.md")
    kinds = [(type(entry).__name__, getattr(entry, "info", None)) for entry in doc.content]
    assert kinds == [("Block", ""), ("Block", "group"), ("List", None), ("Block", "group"), ("List", None), ("Block", "")]
    assert doc.sections == ()


def test_pasted_numbering_with_bullets_right_below():
    doc = _doc("pasted-1paren.md")
    (points,) = [entry for entry in doc.content if type(entry) is List]
    assert [(p.number, p.delimiter, p.title) for p in points.items] == [
        ("1", ")", "Local-first software"),
        ("2", ")", "Build systems"),
        ("3", ")", "Careers"),
    ]
    assert [len(p.children) for p in points.items] == [2, 2, 1]
    assert all(c.origin == "glyph" for p in points.items for c in p.children)


def test_chat_assistant_bold_numbers_are_points():
    doc = _doc("chatgpt-answer.md")
    (points,) = [entry for entry in doc.content if type(entry) is List and entry.ordered]
    assert [(p.number, p.title) for p in points.items] == [("1", "Why Rust?"), ("2", "What it costs"), ("3", "Where it fits")]
    assert [[c.title for c in p.children][:1] for p in points.items][0] == ["Memory safety without a garbage collector"]
    # the closing paragraph stays after the points
    assert type(doc.content[-1]) is Block and doc.content[-1].text.startswith("Overall")


def test_word_and_docs_bullets_nest_by_their_glyph():
    word = _doc("word-paste.md")
    first = word.sections[0].items[0]
    assert first.marker == "·" and [c.marker for c in first.children] == ["o", "o"]
    assert first.children[1].children[0].marker == "§"
    docs = _doc("gdocs-paste.md")
    assert [c.title for c in docs.sections[0].items[1].children] == ["a monthly view hides the bad week"]
    # a lone "o" in a note without other pasted bullets is a word
    assert parse("# T\n\no dear, the demo failed\n").content[0].kind == "paragraph"


def test_speaker_notes_only_where_marked():
    doc = _doc("note-paragraphs.md")
    assert [b.text for b in doc.body][0].startswith("Note: the meetup moved")
    notes = [b for s in doc.sections for b in s.notes]
    assert [b.info for b in notes] == ["comment", "container"]
    opted = parse_source(read_source(REAL / "note-paragraphs.md"), ParseOptions(note_lines=True))
    assert [b.info for b in opted.notes] == ["paragraph"]


def test_front_matter_empty_entries_add_nothing():
    meta = _doc("front-matter-talk.md").meta
    assert meta.speakers == ("Lena Fischer", "Marco Bianchi") and meta.tags == ("postgres", "performance")


def test_lazy_numbering_is_a_valid_list(cli):
    result = cli("lint", str(REAL / "lazy-numbering.md"), "--select", "CN105", "--format", "json", "--no-cache")
    assert json.loads(result.stdout) == []


def test_two_lists_with_a_paragraph_between_stay_two():
    doc = _doc("two-lists-paragraph.md")
    section = doc.sections[0]
    assert [type(entry).__name__ for entry in section.content] == ["List", "Block", "List"]
    assert [[p.number for p in lst.items] for lst in section.lists] == [["1", "2"], ["1", "2"]]
    html_section = format_markdown(doc).split("## Talks we skip")[0]
    assert html_section.index("Partial indexes") < html_section.index("design doc") < html_section.index("Feature flags")


def test_fmt_keeps_interleaved_text_in_place_and_adds_no_headings():
    doc = _doc("interleaved-session.md")
    text = format_markdown(doc, source=(REAL / "interleaved-session.md").read_text(encoding="utf-8"))
    order = [
        "Memoisation by hand",
        "const count",
        "Only the effect",
        "signal-graph.png",
        "built at runtime",
        "Solid and Preact",
        "spreadsheet model",
        "Nobody on the panel",
    ]
    positions = [text.index(snippet) for snippet in order]
    assert positions == sorted(positions)
    assert text == (REAL / "interleaved-session.md").read_text(encoding="utf-8")  # already canonical: unchanged
    for path in sorted(REAL.glob("*.md")):
        source = read_source(path)
        doc = parse_source(source)
        if not doc.sections and doc.meta.title_origin not in ("heading", "inferred"):
            assert not any(line.startswith("#") for line in format_markdown(doc, source=source.text).splitlines()), path.name


def test_every_inferred_node_sits_in_order():
    """Spans grow through the content: nothing is placed before what it follows."""
    from confnotes.model import walk_content

    for path in CHECKED:
        doc = parse_source(read_source(path))
        starts = [entry.span.start for entry in walk_content(doc.content) if type(entry) in (Block, Node)]
        assert starts == sorted(starts), path.name


def test_talk_notes_whose_sections_hold_a_link_each_are_notes_not_a_reading_list():
    assert _doc("talk-links-sections.md").meta.kind == "notes"
    keynote = parse(
        "Keynote: The Log\n\n## Slides\n\nhttps://example.org/a\n\n## Video\n\nhttps://example.org/b\n\n## Code\n\nhttps://example.org/c\n"
    )
    assert keynote.meta.kind == "notes"
    speakers = parse("---\nspeakers: [Tyler Hale]\n---\n# The Log\n\n## Slides\n\nDeck.\n\n## Video\n\nTalk.\n\n## Code\n\nRepo.\n")
    assert speakers.meta.kind == "notes"
    # reading lists stay reading lists
    for name in ("reading-list-links.md", "reading-list-bare.md"):
        assert _doc(name).meta.kind == "reading-list", name
    assert parse_source(read_source(ROOT / "notes" / "scaling-reading-list.md")).meta.kind == "reading-list"


def test_commands_sentences_urls_and_rules_are_never_headings():
    doc = _doc("pasted-commands-and-sentences.md")
    assert [s.title for s in doc.sections] == ["Kubernetes autoscaling deep dive", "Cost dashboards"]
    assert format_markdown(doc, convert=True).count("\n## ") == 2


def test_a_dash_line_under_a_quote_is_its_attribution_not_a_pasted_bullet():
    """``— Maya Okafor`` right under a quote stays the paragraph it is (fmt keeps it byte for byte);
    dash lines elsewhere are still a paste's bullets."""
    text = (
        "# Keynote notes\n\n## What I believe now\n\n> Boring is a feature.\n\n— Maya Okafor, PlatformCon 2026\n\n"
        "## Takeaways\n\nFrom the hallway:\n\n— pin your base images\n— page on symptoms\n"
    )
    doc = parse(text)
    believe, takeaways = doc.sections
    assert [block.kind for block in believe.content] == ["quote", "paragraph"]
    assert believe.content[1].text == "— Maya Okafor, PlatformCon 2026"
    assert [entry.title for entry in takeaways.content if type(entry) is List for entry in entry.items] == [
        "pin your base images",
        "page on symptoms",
    ]
    assert format_markdown(doc, source=text).startswith(text.split("## Takeaways")[0])


def test_bold_talk_lines_over_their_lists_are_sections_without_their_stars():
    """Four ``**Talk: X**`` lines, each over its list, in a note with no heading: the docs say two or
    more Talk: lines are sections; they read as 0 sections (each was the group line of its list)."""
    doc = _doc("bold-talks-typed.md")
    assert [(node.title, node.level, node.origin) for node in doc.nodes] == [
        ("Talk: Alert fatigue is a design problem", 2, "bold"),
        ("Talk: SLOs in practice", 2, "bold"),
        ("Talk: Tracing without going broke", 2, "bold"),
        ("Talk: Chaos days at a bank", 2, "bold"),
    ]
    text = (REAL / "bold-talks-typed.md").read_text(encoding="utf-8")
    assert format_markdown(doc, source=text) == text  # fmt writes the bold lines back as they were


def test_bold_talk_lines_after_a_talk_heading_are_its_peers():
    """``## Talk: A`` then ``**Talk: B**``: B is A's peer (level 2), not a part of A (it was ###);
    a bold line that is no session (``**Q&A**``) is still a part of the talk it stands in."""
    doc = _doc("talk-heading-then-bold-talks.md")
    assert [(node.title, node.level) for node in doc.nodes] == [
        ("Talk: Alert fatigue is a design problem", 2),
        ("Talk: SLOs in practice", 2),
        ("Talk: Tracing without going broke", 2),
    ]
    last = doc.nodes[-1]
    assert [(node.title, node.level) for node in last.content if isinstance(node, Node) and node.is_section] == [("Q&A", 3)]


def test_every_bold_talk_line_after_questions_is_a_peer_however_often():
    """A talk's ``**Q&A**`` then the next ``**Talk: …**`` line: that talk is a peer of the others,
    the second time as the first. Peers were known by their builders' ids, and a closed builder's id
    is another's later, so the second such talk was nested under the questions before it, or not,
    by what the process had freed (found trying the editor: two readings of one text differed)."""
    talks = "".join(
        f"**Talk: {name}**\n\n- point {k}\n\n" + ("**Q&A**\n\n- question\n\n" if k % 2 else "")
        for k, name in enumerate(["SLOs", "Tracing", "Chaos", "Costs", "Postgres", "Queues", "Caches"])
    )
    doc = parse("# DevOpsDays, day 2\n\n## Talk: Alert fatigue\n\n- page on symptoms\n\n" + talks)
    talk_levels = {node.title: node.level for node in doc.nodes}
    assert talk_levels == dict.fromkeys(
        ["Talk: Alert fatigue", *(f"Talk: {name}" for name in ["SLOs", "Tracing", "Chaos", "Costs", "Postgres", "Queues", "Caches"])], 2
    )


def test_a_bold_line_among_bold_session_lines_is_their_peer():
    """``**Session 1: …**``, ``**Session 2: …**`` then ``**Takeaways**`` over a list: the last is
    written as the others are, a section beside them (it stayed the group line of its list, inside
    Session 2); a bold ``**Q&A**`` under a plain ``Talk:`` line stays a part of that talk."""
    text = (
        "# Velocity Berlin — hallway track\n\nNotes from the **performance** room.\n\n"
        "**Session 1: Core Web Vitals in 2026**\n\n- INP replaced FID\n\n"
        "**Session 2: Edge Caching**\n\n- Cache keys include the device class\n\nSpeaker: Olu Adeyemi\n\n"
        "**Takeaways**\n\n1. Measure field data\n2. Ship less JavaScript\n"
    )
    doc = parse(text, "velocity.md")
    assert [(node.title, node.level) for node in doc.nodes] == [
        ("Session 1: Core Web Vitals in 2026", 2),
        ("Session 2: Edge Caching", 2),
        ("Takeaways", 2),
    ]
    assert format_markdown(doc, source=text) == text


def test_a_lone_bold_line_naming_a_part_of_a_talk_is_its_sub_heading():
    """Word's and Docs' notes of talks under ``Talk:`` lines with one ``**Q&A**`` over a list: one
    bold line alone is emphasis, except one naming a part every talk may have (it stayed text)."""
    text = (
        "SREcon Americas notes\n\nTalk: Incident Command at Scale\n\n- Roles before tools\n\n"
        "Talk: Error Budgets That Teams Actually Use\n\n- Budgets per user journey\n\n**Q&A**\n\n"
        "- How to start? Pick one journey and one SLO\n\nKeynote: Reliability Is a Product Feature\n\n- Customers notice p99\n"
    )
    doc = parse(text, "srecon.md")
    budgets = doc.nodes[1]
    assert [(node.title, node.level) for node in budgets.content if isinstance(node, Node) and node.is_section] == [("Q&A", 3)]
    lone = parse("# Notes\n\n## Talk\n\n**Interesting aside**\n\n- a point\n", "n.md")
    assert not [node for node in lone.nodes[0].content if isinstance(node, Node) and node.is_section]


@pytest.mark.parametrize(
    ("line", "header"),
    [
        ("Sam Lee  2:11 PM", True),
        ("Priya Raman 14:37", True),
        ("[14:11] Sam Lee:", True),
        ("[2:11 PM] Sam Lee: do we have the slides?", True),
        ("[14:11] Sam Lee 14:12", False),
        ("the demo started at 10:45", False),
        ("Measure adoption, not features", False),
    ],
)
def test_a_chat_messages_header_is_told_from_text(line, header):
    """The line a chat message opens with (Slack's and Teams' name and time, or a copied log's
    ``[time] name:``) breaks a list a paste has no blank lines around; a sentence with a time does not."""
    from confnotes.parse.recover import is_chat_header

    assert is_chat_header(line) is header


def test_a_bare_q_and_a_between_talks_is_a_part_of_the_talk_above():
    """A Word paste of talks under ``Talk:`` lines lost its bold: ``Q&A`` on a line of its own
    between two talks is the first talk's questions (it was a talk of its own, a peer of both)."""
    text = (
        "SREcon Americas notes\n\nTalk: Incident Command at Scale\n\nSpeaker: Dana Whitfield, Stripe\n\n"
        "• Roles before tools\n• Declare early\n\nTalk: Error Budgets That Teams Actually Use\n\n"
        "Speaker: Marco Bianchi\n\n• Budgets per user journey\n\nQ&A\n\n• How to start? Pick one journey\n\n"
        "Keynote: Reliability Is a Product Feature\n\n• Customers notice p99\n"
    )
    doc = parse(text, "srecon.md")
    assert [(node.title, node.level) for node in doc.nodes] == [
        ("Talk: Incident Command at Scale", 2),
        ("Talk: Error Budgets That Teams Actually Use", 2),
        ("Keynote: Reliability Is a Product Feature", 2),
    ]
    parts = [(node.title, node.level) for node in doc.nodes[1].content if isinstance(node, Node) and node.is_section]
    assert parts == [("Q&A", 3)]


def test_a_bare_demo_in_the_notes_of_one_talk_is_a_section_beside_the_others():
    """Notes of one talk, its parts as bare lines: ``Demo`` and ``Q&A`` are parts like
    ``Architecture``, not parts of it, because no section is a talk."""
    text = (
        "Notes: Streaming at Scale\n\n• Ines opened with the outage story\n\n"
        "Architecture\n\n• Brokers per region\n• Idempotent producers\n\nDemo\n\n• Live replay of a topic\n\n"
        "Q&A\n\n• Cost of exactly-once?\n"
    )
    doc = parse(text, "streaming.md")
    sections = [(node.title, node.level) for node in doc.nodes if isinstance(node, Node) and node.is_section]
    assert sections == [("Architecture", 2), ("Demo", 2), ("Q&A", 2)]
