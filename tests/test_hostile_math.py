"""TeX math is markup, not a way in (issue 50): a formula cannot put a tag, an attribute, a link or
a style into any output — the page's and deck's MathML, the PDFs' SVG, PPTX text, the Marp deck —
whatever TeX it is written in; commands that reach outside a formula are refused and the formula is
shown as its TeX, escaped, as every other refused formula is."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confnotes.markup.math import _ATTRIBUTES, _ELEMENTS, _NAMESPACE, _VALUE, MathError, linear, mathml, svg
from helpers import formats_where
from strategies import examples

#: what an attacker writes in a note, each once in every place TeX takes text or a name
PAYLOADS = (
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    "</math><script>alert(1)</script>",
    '"><iframe src="javascript:alert(1)">',
    "javascript:alert(1)",
    "url(http://attacker.example/x)",
    "&lt;img src=x onerror=alert(1)&gt;",
)
#: TeX that carries a payload: into text, into names, into links, styles and classes
CARRIERS = (
    r"\text{%s}",
    r"\mathrm{%s}",
    r"\operatorname{%s}",
    r"\mbox{%s}",
    r"\href{%s}{x}",
    r"\url{%s}",
    r"\style{%s}{x}",
    r"\class{%s}{x}",
    r"\cssId{%s}{x}",
    r"\htmlStyle{%s}{x}",
    r"\color{%s}{x}",
    r"\frac{%s}{2}",
    r"x_{%s}^{%s}",
    r"\begin{array}{c}%s\end{array}",
)
_TAGS = "|".join(_ELEMENTS)
_FORBIDDEN = re.compile(rf"<(?!/?(?:{_TAGS})\b)|\bon[a-z]+\s*=|javascript:|url\(|\bhref\b|\bstyle\s*=|\bclass\s*=|\bid\s*=", re.I)


def _check_mathml(markup: str) -> None:
    """A formula's MathML: well-formed, every element and attribute on the whitelist, no scheme or style."""
    root = ElementTree.fromstring(markup)
    for node in root.iter():
        assert node.tag.rpartition("}")[2] in _ELEMENTS, markup
        for name, value in node.attrib.items():
            assert name in _ATTRIBUTES and (_VALUE.fullmatch(value) or (name, value) == ("xmlns", _NAMESPACE)), (name, value, markup)
    tags = re.sub(r">[^<]*<", "><", markup)  # the payload as text (escaped) is what it should be: look at the tags
    assert _FORBIDDEN.search(tags) is None, markup


def _outputs(tex: str) -> list[str]:
    """Every form a formula takes, or [] when it is refused (then every output shows its TeX, escaped)."""
    try:
        return [mathml(tex, False), mathml(tex, True), svg(tex, False, 16.0).svg, linear(tex)]
    except MathError:
        return []


@pytest.mark.parametrize("carrier", CARRIERS)
@pytest.mark.parametrize("payload", PAYLOADS)
def test_no_payload_reaches_any_form_of_a_formula(carrier, payload):
    tex = carrier.replace("%s", payload)
    forms = _outputs(tex)
    if not forms:
        return
    markup, block, drawn, text = forms
    _check_mathml(markup)
    _check_mathml(block)
    assert "<img" not in drawn and "<script" not in drawn and "onload" not in drawn and "href" not in drawn
    assert "<" not in text or any(
        char in payload for char in "<&"
    )  # plain text (a character reference read as its character), for PPTX runs to escape


@pytest.mark.parametrize("tex", [r"\href{javascript:alert(1)}{x}", r"\style{background:url(http://e.x/)}{x}", r"\class{a}{x}", r"\url{x}"])
def test_commands_that_reach_outside_a_formula_are_refused(tex):
    with pytest.raises(MathError, match="reaches outside the formula"):
        mathml(tex, False)


def test_text_that_looks_like_a_tag_is_text():
    markup = mathml(r"\text{<img src=x onerror=alert(1)>} + x", False)
    _check_mathml(markup)
    assert "&lt;img" in markup and "<mtext>" in markup


def test_ordinary_formulas_keep_their_mathml():
    markup = mathml(r"\frac{a}{b} \leq \sqrt{x_i^2} + \alpha \operatorname{arg} \max_\theta \color{red}{y}", True)
    _check_mathml(markup)
    assert "<mfrac>" in markup and "<msqrt>" in markup and "≤" in markup and "α" in markup and 'mathcolor="red"' in markup


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, dict(attrs)))


def _hostile_note(folder: Path) -> Path:
    note = folder / "math.md"
    lines = ["# Hostile math", "", "## Payloads", ""]
    for index, payload in enumerate(PAYLOADS):
        for carrier in CARRIERS:
            lines.append(f"- case {index}: ${carrier.replace('%s', payload)}$")
    lines += ["", "$$", r"\text{<svg onload=alert(1)>}", "$$", ""]
    note.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return note


@pytest.mark.parametrize("to", ["html", "slides", "marp"])
def test_the_page_and_the_decks_hold_no_tag_handler_or_link_from_math(cli, tmp_path, to):
    note = _hostile_note(tmp_path)
    out = tmp_path / f"out.{to}"
    result = cli("render", str(note), "--to", to, "-o", str(out))
    assert result.exit_code == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    if to == "marp":  # Marp's own MathJax typesets what stays math: no command that reaches outside may stay
        formulas = re.findall(r"(?<![`\\])\$[^$\n]+\$", text)
        assert formulas and not any(re.search(r"\\(?:href|url|style|class|cssId|html[A-Za-z]*)\b", formula) for formula in formulas)
        return
    parser = _Tags()
    parser.feed(text)
    for tag, attrs in parser.found:
        assert tag not in ("img", "svg", "iframe", "script") or "math" not in str(attrs), (tag, attrs)
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        assert not any(value and "javascript:" in value.lower() for value in attrs.values()), (tag, attrs)
    assert "<script>alert(1)" not in text


@pytest.mark.parametrize("to", ["html", "slides"])
def test_chromium_opens_the_hostile_page_and_deck_with_no_dialog_and_no_request(cli, tmp_path, open_page, to):
    note = _hostile_note(tmp_path)
    out = tmp_path / f"math.{to}.html"
    assert cli("render", str(note), "--to", to, "-o", str(out)).exit_code == 0
    page, _errors, requests = open_page(out)
    page.clock.run_for(2000)  # let any timer a payload set go off
    if to == "slides":  # every slide shown in turn: a payload on a later slide gets its chance too
        for _ in range(page.evaluate("document.querySelectorAll('section.slide, .slide').length")):
            page.keyboard.press("ArrowRight")
            page.clock.run_for(500)
    assert page.evaluate("document.querySelectorAll('math').length") > (50 if to == "html" else 10)
    assert page.dialogs == [] and [url for url in requests if not url.startswith(("file:", "data:"))] == []


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(CARRIERS),
            st.sampled_from([r"\frac{%s}{%s}", r"\sqrt{%s}", r"\left(%s\right)", r"%s^{%s}", r"\mathbf{%s}", r"\text{%s}"]),
        ),
        min_size=1,
        max_size=4,
    ),
    st.lists(st.sampled_from([*PAYLOADS, "x", "a+b", r"\alpha", "<", ">", "&", '"', "'"]), min_size=1, max_size=4),
)
def test_tex_built_from_the_macro_table_never_carries_markup(carriers, payloads):
    tex = "x"
    for index, carrier in enumerate(carriers):
        parts = carrier.split("%s")
        filled = parts[0] + "".join(payloads[(index + k) % len(payloads)] + part for k, part in enumerate(parts[1:]))
        tex = filled if "%s" not in carrier else filled.replace("x", tex, 1) if "x" in filled else filled + tex
    for form in _outputs(tex)[:2]:
        _check_mathml(form)


# ------------------------------------------------------------------ what a formula may cost to draw


def _nested(depth: int, carrier: str = r"\frac{1}{%s}") -> str:
    tex = "x"
    for _ in range(depth):
        tex = carrier.replace("%s", tex)
    return tex


@pytest.mark.parametrize(
    "tex",
    [
        _nested(4),
        _nested(5, r"\sqrt{%s}"),
        _nested(4, r"\left(%s\right)"),
        r"\begin{array}{cc}a&b\\c&\frac{1}{2}\end{array}",
        r"\sum_{i=1}^n x_i^2 + \int_0^\infty e^{-x}\,dx",
        r"\text{abc} \mathbf{x} \color{red}{y}",
        r"\overline{\hat{x}} \underbrace{a+b}_{n} \sqrt[3]{x+y}",
    ],
)
def test_the_cost_a_formula_is_charged_bounds_what_drawing_it_takes(tex, monkeypatch):
    """``_layouts`` predicts, from the MathML, every node ziamath lays out (it lays a row's children
    out twice): never fewer, so the bound holds for what the typesetter really does."""
    from latex2mathml.converter import convert_to_element
    from ziamath.nodes import mnode

    from confnotes.markup.math import _drawn, _layouts

    made = [0]
    original = mnode.Mnode.fromelement.__func__

    def counted(cls, element, parent, **kwargs):
        made[0] += 1
        return original(cls, element, parent, **kwargs)

    monkeypatch.setattr(mnode.Mnode, "fromelement", classmethod(counted))
    _drawn(tex, False, 16.0, 0)
    assert made[0] <= _layouts(convert_to_element(tex)) <= 2 * made[0] + 20


@pytest.mark.parametrize("depth", [16, 20, 40])
def test_deep_nesting_is_refused_before_any_drawing_in_every_output(depth):
    """Nested ``\\frac`` 16 deep took 75 s to draw, 20 deep ran past 120 s: refused (each level
    doubles the work), by the same rule for the browser's form, the PDFs' and PPTX's."""
    tex = _nested(depth)
    with pytest.raises(MathError, match="nested too deeply to draw in time|levels deep"):
        mathml(tex, True)
    with pytest.raises(MathError):
        svg(tex, True, 16.0)
    assert linear(tex) == tex
    mathml(_nested(6), True)  # a real continued fraction is drawn


@pytest.mark.parametrize("to", [fmt for fmt in formats_where() if fmt != "outline"])  # the plain outline prints TeX as written
def test_a_note_of_deep_formulas_renders_with_each_shown_as_tex(cli, tmp_path, to, weasyprint):
    note = tmp_path / "deep.md"
    lines = ["# Deep", "", "## Fractions", ""]
    lines += [f"- level {depth}: ${_nested(depth)}$" for depth in (3, 14, 16, 20)]
    note.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = cli("render", str(note), "--to", to, "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    warned = [line for line in result.stderr.splitlines() if "math not typeset" in line]
    assert len(warned) == 3 and all("nested too deeply" in line for line in warned), result.stderr


def test_a_note_past_its_budget_shows_the_rest_as_tex_and_the_next_build_draws_on(cli, tmp_path, monkeypatch, weasyprint):
    """Each formula fits its own bound, but a note's together may not: past ``NOTE_LAYOUTS`` the
    rest are shown as TeX with a warning, never cached as refused, so the next build draws on."""
    import confnotes.markup.math

    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(tmp_path / "cache"))
    confnotes.markup.math.svg.cache_clear()
    note = tmp_path / "many.md"
    formulas = [_nested(5).replace("x", f"x_{index}") for index in range(8)]
    costs = {confnotes.markup.math._read(tex, False)[1] for tex in formulas}
    assert len(costs) == 1
    monkeypatch.setattr(confnotes.markup.math, "NOTE_LAYOUTS", 3 * costs.pop() + 1)  # three a build
    note.write_text("# Many\n\n## Formulas\n\n" + "".join(f"- ${tex}$\n" for tex in formulas), encoding="utf-8")
    shown: list[int] = []
    for _ in range(3):
        result = cli("render", str(note), "--to", "pdf", "-o", str(tmp_path / "many.pdf"))
        assert result.exit_code == 0, result.stderr
        shown.append(sum("cost more than" in line for line in result.stderr.splitlines()))
        confnotes.markup.math.svg.cache_clear()  # a new process: only the cache folder remembers
    assert shown == [5, 2, 0]
