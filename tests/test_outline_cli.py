"""``confnotes outline`` in its four formats, and from standard input."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from conftest import NOTES
from helpers import json_children


def test_tree_shows_numbers_labels_and_counts(cli):
    result = cli("outline", str(NOTES / "scale2025.md"))
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith("System & Reliability @scale Conference  (title from lede, source scale2025.md)")
    assert "## Core Principles for Scaling Systems  [3 points]" in out
    assert "1. Embrace Failure as Inevitable" in out
    assert "- [Checkpointing limits] Frequent saves risk I/O bottlenecks" in out
    assert "5 sections" in out


def test_json_has_schema(cli):
    data = json.loads(cli("outline", str(NOTES / "scale2025.md"), "--format", "json").stdout)
    assert data["schema"] == "confnotes.outline/2"


def test_markdown_outline_is_bare(cli):
    out = cli("outline", str(NOTES / "scale2025.md"), "--format", "markdown").stdout
    lines = out.splitlines()
    assert lines[0] == "# System & Reliability @scale Conference"
    assert "## Key Challenges in Scaling" in lines
    assert "1. Embrace Failure as Inevitable" in lines
    assert "   - Benefits:" in lines and "     - Reliability: Atomic task orchestration." in lines  # under "1." as CommonMark nests
    assert not any(line.startswith("Scaling systems demands") for line in lines)


def test_opml_is_valid_opml2(cli):
    out = cli("outline", str(NOTES / "scaling-reading-list.md"), "--format", "opml").stdout
    root = ET.fromstring(out.encode())
    assert root.tag == "opml" and root.get("version") == "2.0"
    assert root.find("head/title").text == "Scaling"
    entries = root.findall("body/outline")
    assert len(entries) == 14
    assert entries[0].get("text") == "PaLM: Scaling Language Modeling with Pathways"
    assert entries[0].get("_note").startswith("PaLM is Google's 540B")


def test_stdin(cli):
    result = cli("outline", "-", "--format", "json", input="Intro\n\n• one\n  • two\n")
    data = json.loads(result.stdout)
    assert data["path"] == "<stdin>"
    assert data["meta"]["title"] == "Intro" and data["meta"]["title_origin"] == "inferred"
    assert json_children(json_children(data)[0])[0]["title"] == "two"


def test_help_explains_formats(cli):
    out = cli("outline", "--help").stdout
    for word in ("tree", "json", "markdown", "opml", "standard input"):
        assert word in out


TYPED = """# [**Scaling** Postgres](https://example.org/talk)

## The *first* part

- item with `code`

| Region | p99 |
|:--|--:|
| eu-west | 240 |

> [!TIP]- Read the plan
> - one region first

```python {2|4-5}
print("hi")
```
"""


def test_json_carries_plain_titles_and_typed_values_within_version_2(cli):
    result = cli("outline", "-", "--format", "json", input=TYPED)
    data = json.loads(result.stdout)
    assert data["schema"] == "confnotes.outline/2"  # fields added, none changed
    assert data["meta"]["title"] == "[**Scaling** Postgres](https://example.org/talk)"
    assert data["meta"]["plain_title"] == "Scaling Postgres"
    section = data["content"][0]
    assert (section["title"], section["plain_title"]) == ("The *first* part", "The first part")
    items = section["content"][0]["items"]
    assert items[0]["plain_title"] == "item with code"
    values = [entry["value"] for entry in section["content"] if "value" in entry]
    assert values == [
        {"type": "table", "header": ["Region", "p99"], "rows": [["eu-west", "240"]], "aligns": ["left", "right"]},
        {
            "type": "callout",
            "callout": "tip",
            "title": "Read the plan",
            "fold": "-",
            "written": "TIP",
            "lines": [{"text": "one region first", "marker": "-", "level": 0}],
        },
        {"type": "code", "language": "python", "attributes": "{2|4-5}"},
    ]
