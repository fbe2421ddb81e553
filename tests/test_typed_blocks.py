"""Model 2: every block carries the typed value ``parse`` read it as, and outputs read the value.

docs/design.md, "Typed blocks": a table's cells, a fence's language and lines, a diagram, a formula,
a quote's lines, a callout, a paragraph of pictures are recognised once, in ``parse``; the fit engine,
the outputs and the lint rules match on the value's type. The layer test below fails when a module
outside ``parse`` calls one of the recognisers on text.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from confnotes.model import Block, walk_content
from confnotes.model.values import BodyLine, Callout, Code, Diagram, Math, Pictures, Quote, Table
from confnotes.parse import parse
from test_layers import SOURCES, module_name

NOTE = """\
# Capacity review

## Numbers

| Region | Tier | Monthly |
|:--|:-:|--:|
| eu-west | a \\| b | 1,200 € |
| us-east | c | 980 € |

```python {2|4-5}
def plan(load):
\treturn load * 2
```

```dot
digraph { a -> b }
```

$$
L = \\lambda W
$$

> - 09:12 pager fired
> - 09:20 rollback started
>
> Then it was quiet.

> [!faq]- Why *two* regions?
> Latency.

::: {.callout-tip title="Three habits"}
- Write the timeline first
- Name no one
:::

![Queue depth](queue.png "after the fix") ![Latency](latency.png)
"""


def _blocks(text: str) -> list[Block]:
    return [entry for entry in walk_content(parse(text).content) if type(entry) is Block]


def _value(text: str, kind: type) -> object:
    return next(block.value for block in _blocks(text) if type(block.value) is kind)


def test_a_table_is_its_header_rows_and_alignments():
    table = _value(NOTE, Table)
    rows = (("eu-west", "a \\| b", "1,200 €"), ("us-east", "c", "980 €"))
    assert table == Table(("Region", "Tier", "Monthly"), rows, ("left", "center", "right"))
    assert table.part(range(1, 2)).rows == (("us-east", "c", "980 €"),) and table.columns == 3


def test_code_is_its_language_attributes_and_lines():
    code = _value(NOTE, Code)
    assert code == Code("python", "{2|4-5}", ("def plan(load):", "    return load * 2"))


def test_a_diagram_is_its_tool_and_source():
    diagram = _value(NOTE, Diagram)
    assert diagram.tool == "dot" and diagram.source == "digraph { a -> b }" and diagram.code.language == "dot"


def test_a_formula_is_its_tex():
    assert _value(NOTE, Math) == Math("L = \\lambda W")


def test_a_quote_holding_a_list_is_its_items_then_its_paragraph():
    quote = _value(NOTE, Quote)
    assert quote.lines == (BodyLine("09:12 pager fired", "-"), BodyLine("09:20 rollback started", "-"), BodyLine("Then it was quiet."))


def test_callouts_of_every_writer_are_one_value():
    found = [block.value for block in _blocks(NOTE) if type(block.value) is Callout]
    faq, tip = found
    assert (faq.kind, faq.title, faq.fold, faq.written) == ("question", "Why *two* regions?", "-", "faq")
    assert faq.body == Quote("Latency.", (BodyLine("Latency."),))
    assert (tip.kind, tip.title, tip.holds) == ("tip", "Three habits", 1)
    assert tip.body is not None and [line.text for line in tip.body.lines] == ["Write the timeline first", "Name no one"]


def test_a_paragraph_of_pictures_is_its_pictures():
    pictures = _value(NOTE, Pictures)
    shown = [(p.src, p.alt, p.title) for p in pictures.pictures]
    assert shown == [("queue.png", "Queue depth", "after the fix"), ("latency.png", "Latency", "")]


def test_a_div_that_pairs_with_nothing_is_no_callout():
    blocks = _blocks("# T\n\n::: {.callout-tip}\nnever closed\n")
    assert all(block.value is None for block in blocks if block.kind == "div")


def test_the_deck_carries_the_values_to_every_output():
    from confnotes.slides import build_deck

    entries = [entry for slide in build_deck(parse(NOTE)).slides for entry in slide.content if hasattr(entry, "value")]
    kinds = {type(entry.value) for entry in entries}
    assert {Table, Code, Math, Quote, Callout, Pictures} <= kinds
    assert all(entry.value is not None for entry in entries if entry.kind in ("table", "code", "math", "quote", "image", "diagram"))


# ---------------------------------------------------------------- recognised once, in parse

#: The functions that recognise structure in a block's text. Only ``parse`` (and the module that
#: defines each) may call them; everything else reads ``Block.value``.
RECOGNISERS = {
    "confnotes.markup.callouts": {"callout", "quote_callout", "div_callout", "quote_value", "quote_body", "body_lines"},
    "confnotes.parse.values": {"table_rows", "table_alignments", "table_value", "code_lines", "code_value", "pictures_value", "value_of"},
    "confnotes.markup.math": {"display_tex"},
    "confnotes.parse.directives": {"read"},
}
#: Where a recogniser is called outside ``parse``, and why it may be: none may.
ALLOWED: dict[str, set[str]] = {}


def recogniser_calls(path: Path, me: str) -> list[str]:
    """Each import of a recogniser in ``path`` (the module ``me``), outside ``parse`` and its own module."""
    if me == "confnotes.parse" or me.startswith("confnotes.parse."):
        return []
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module in RECOGNISERS and node.module != me:
            found += [
                f"{me}:{node.lineno} imports {node.module}.{alias.name}"
                for alias in node.names
                if alias.name in RECOGNISERS[node.module] and alias.name not in ALLOWED.get(me, set())
            ]
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_only_parse_recognises_structure_in_a_blocks_text(path: Path):
    assert recogniser_calls(path, module_name(path)) == []


def test_a_renderer_recognising_a_callout_is_caught(tmp_path):
    """The check itself: a renderer that reads a quote's text for a callout again fails it."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f(block):\n    from confnotes.markup.callouts import quote_callout\n    return quote_callout(block.text)\n")
    assert recogniser_calls(bad, "confnotes.render.docx") == ["confnotes.render.docx:2 imports confnotes.markup.callouts.quote_callout"]
    assert recogniser_calls(bad, "confnotes.parse.values") == []


def test_a_slide_directive_is_read_once_into_its_value():
    from confnotes.api import parse_text
    from confnotes.model import Block, walk_content
    from confnotes.model.values import Directives

    doc = parse_text("# Talk\n\n## Results\n<!-- slide background: #0b1f3a; class: wide; hidden -->\n\n- p99 down 40%\n")
    found = [entry.value for entry in walk_content(doc.content) if type(entry) is Block and type(entry.value) is Directives]
    assert len(found) == 1
    assert (found[0].background, found[0].classes) == ("#0b1f3a", ("wide",))
    assert found[0].problems == ("unknown slide directive 'hidden' (known: layout, class, background, notes, hide, incremental)",)
