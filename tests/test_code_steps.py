"""Code walked through step by step (``{2|4-5|all}`` on a fence, as reveal.js and Slidev write it):
the HTML deck highlights the first step's lines as the slide arrives and each next step on the next
key, in the audience's window and the presenter's; a deck printed whole shows the last step."""

from __future__ import annotations

import pytest

from confnotes.markup.codesteps import code_steps

TALK = """---
title: Retries done right
duration: 10min
---

# Retries done right

## The retry loop

```python {2|4-5|all}
def fetch(url):
    session = make_session()
    for attempt in range(5):
        response = session.get(url, timeout=2)
        if response.ok:
            return response
    raise TimeoutError(url)
```

<!-- notes: Walk through the loop: the session, the call, then the whole. -->

## Takeaways

- back off, with jitter
"""


@pytest.mark.parametrize(
    ("info", "lines", "steps"),
    [
        ("python {2|4-5}", 7, ({2}, {4, 5})),
        ("python {all|2}", 7, (None, {2})),
        ("js {1,3-4|6}", 7, ({1, 3, 4}, {6})),
        ("python {2|40-50}", 7, ({2}, set())),  # lines past the end are left out
        ("python {2}", 7, ()),  # one group: no walk-through
        ("python {.numberLines}", 7, ()),
        ("python", 7, ()),
    ],
)
def test_the_steps_a_fence_names(info, lines, steps):
    assert code_steps(info, lines) == tuple(None if step is None else frozenset(step) for step in steps)


def _deck(cli, tmp_path, to="slides"):
    note = tmp_path / "retries.md"
    note.write_text(TALK, encoding="utf-8")
    out = tmp_path / ("retries.slides.html" if to == "slides" else "retries.slides.pdf")
    result = cli("render", str(note), "--to", to, "-o", str(out))
    assert result.exit_code == 0, result.output
    return out


def _lines(page, state: str) -> list[int]:
    return page.locator(f"section.slide:has(pre.code-steps) .line.{state}").evaluate_all("all => all.map(l => Number(l.dataset.line))")


def _code_slide(page) -> int:
    return int(page.locator("section.slide:has(pre.code-steps)").get_attribute("data-index"))


def test_the_deck_highlights_each_step_in_turn(cli, tmp_path, open_page):
    deck = _deck(cli, tmp_path)
    page, errors, _ = open_page(deck)
    number = _code_slide(page)
    page.keyboard.press("End")
    page.keyboard.press("Home")
    for _ in range(number - 1):
        page.keyboard.press("ArrowRight")
    assert page.locator("body").get_attribute("data-slide") == str(number)
    assert _lines(page, "hl") == [2] and _lines(page, "dim") == [1, 3, 4, 5, 6, 7]  # the first step as it arrives
    page.keyboard.press("ArrowRight")
    assert _lines(page, "hl") == [4, 5] and page.locator("body").get_attribute("data-slide") == str(number)
    page.keyboard.press("ArrowRight")
    assert _lines(page, "hl") == [] and _lines(page, "dim") == []  # all: the whole block, plain
    page.keyboard.press("ArrowLeft")
    assert _lines(page, "hl") == [4, 5]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # past the last step: the next slide
    assert page.locator("body").get_attribute("data-slide") == str(number + 1)
    # the code is one line per line of the fence: a copied command stays whole
    assert page.locator("section.slide:has(pre.code-steps) .line").count() == 7 and errors == []


def test_the_presenter_names_the_next_step_s_lines(cli, tmp_path, browser):
    deck = _deck(cli, tmp_path)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        html = deck.read_text(encoding="utf-8")
        number = html[: html.index('<pre class="code highlight code-steps"')].count('<section class="slide')  # the code's slide
        page.goto(deck.resolve().as_uri() + f"#presenter:{number}")
        page.wait_for_selector(".presenter-view")
        assert "Next item (1 of 2): lines 4\u20135" in page.locator(".pv-next-notes").inner_text()
        page.keyboard.press("ArrowRight")
        assert "Next item (2 of 2): all lines" in page.locator(".pv-next-notes").inner_text()
    finally:
        context.close()


def test_a_printed_deck_shows_the_last_step(cli, tmp_path, weasyprint):
    """The slides PDF lays the deck out once (no key moves it on): the walk-through's last step."""
    from confnotes.load import load_note
    from confnotes.render.formats import render_note
    from confnotes.render.options import resolve_render_options

    note = tmp_path / "retries.md"
    note.write_text(TALK.replace("{2|4-5|all}", "{2|4-5}"), encoding="utf-8")
    loaded = load_note(str(note))
    from confnotes.render.deck import deck_pdf

    job = deck_pdf("deck.html", loaded.doc, resolve_render_options(loaded.config, loaded.doc), tmp_path, mode="pdf")
    assert 'class="line hl" data-line="4"' in job.html and 'class="line dim" data-line="2"' in job.html
    assert 'class="fragment code-step"' not in job.html  # nothing to step through on paper
    data, _ = render_note(loaded.doc, "slides-pdf", resolve_render_options(loaded.config, loaded.doc), tmp_path)
    assert data.startswith(b"%PDF")
