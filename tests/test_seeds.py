"""The user's two example notes give exactly the outlines their users expect (docs/design.md, "Recovering pasted notes")."""

from __future__ import annotations

import json

from confnotes.edges.source import read_source
from conftest import NOTES
from helpers import json_blocks, json_children, json_sections


def _outline(cli, name: str) -> dict:
    result = cli("outline", str(NOTES / name), "--format", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


#: The user's example notes, byte for byte as they gave them (sha256).
SEED_DIGESTS = {
    "scale2025.md": "a59d23d2e28078496afa18f7ab2d05d3234790538287d88f7133e30e724b183f",
    "scaling-reading-list.md": "f7b1e98e5631af85142b9c570434ab48900dc3670eb09187ee692daaf0ab612f",
}


def test_seeds_ship_verbatim():
    import hashlib

    for name, digest in SEED_DIGESTS.items():
        assert hashlib.sha256((NOTES / name).read_bytes()).hexdigest() == digest, f"notes/{name} was changed"


def test_scale2025_outline(cli):
    data = _outline(cli, "scale2025.md")
    meta = data["meta"]
    assert meta["title"] == "System & Reliability @scale Conference"
    assert meta["title_origin"] == "lede"
    assert meta["source_name"] == "scale2025.md"
    sections = json_sections(data)
    assert [s["kind"] for s in sections] == ["section"] * 5
    assert [s["title"] for s in sections] == [
        "Core Principles for Scaling Systems",
        "Key Challenges in Scaling",
        "Case Studies & Strategies",
        "Future Directions",
        "Conclusion",
    ]
    assert all(s["origin"] == "inferred" for s in sections)
    points = [[c for c in json_children(s) if c["number"] is not None] for s in sections]
    assert [len(p) for p in points] == [3, 3, 3, 3, 0]
    assert [[p["number"] for p in ps] for ps in points[:4]] == [["1", "2", "3"]] * 4
    assert [p["title"] for p in points[1]] == ["Distributed Training", "Distributed Inference", "Reasoning Models at Scale"]
    twine = points[2][1]
    assert twine["title"] == "Twine Gang Scheduling"
    assert len(json_children(twine)) == 1
    benefits = json_children(twine)[0]
    assert benefits["label"] == "Benefits" and benefits["text"] == "" and benefits["origin"] == "glyph"
    assert [c["label"] for c in json_children(benefits)] == ["Reliability", "Efficiency", "Scalability"]
    assert json_children(benefits)[0]["text"] == "Atomic task orchestration."
    checkpoint = json_children(points[1][0])[0]
    assert checkpoint["label"] == "Checkpointing limits"
    assert checkpoint["text"].startswith("Frequent saves risk I/O bottlenecks")
    conclusion = sections[4]
    assert json_children(conclusion) == []
    assert [b["kind"] for b in conclusion["content"]] == ["paragraph"]
    assert conclusion["content"][0]["text"].startswith("Scaling systems demands proactive design")
    lede = [entry for entry in data["content"] if entry["kind"] != "section"]
    assert [b["kind"] for b in lede] == ["paragraph"]
    assert lede[0]["text"].startswith("notes for the **System & Reliability")
    # each section's points are one numbered list, as written
    assert [[e["kind"] for e in s["content"]] for s in sections[:4]] == [["list"]] * 4
    assert len(data["breaks"]) == 4
    # spans are 1-based source lines
    assert sections[0]["span"][0] == 5 and points[0][0]["span"][0] == 7


def test_reading_list_outline(cli):
    data = _outline(cli, "scaling-reading-list.md")
    assert data["meta"]["title"] == "Scaling"
    assert data["meta"]["title_origin"] == "inferred"
    assert data["meta"]["kind"] == "reading-list"
    entries = json_sections(data)
    assert len(entries) == 14 and entries == data["content"]
    assert all(e["kind"] == "section" and json_children(e) == [] for e in entries)
    annotated = [e for e in entries if json_blocks(e)]
    assert len(annotated) == 13
    bare = [e["title"] for e in entries if not json_blocks(e)]
    assert bare == ["Wide Attention Is The Way Forward for Transformers"]
    assert entries[0]["title"] == "PaLM: Scaling Language Modeling with Pathways"
    assert entries[-1]["title"] == "What Now: Scaling the Sales Organization"
    assert all(len(e["content"]) == 1 and e["content"][0]["kind"] == "paragraph" for e in annotated)


def test_seeds_are_lossless():
    from confnotes.parse import parse_source
    from helpers import assert_lossless

    for name in ("scale2025.md", "scaling-reading-list.md"):
        source = read_source(NOTES / name)
        assert_lossless(source.text, parse_source(source))
