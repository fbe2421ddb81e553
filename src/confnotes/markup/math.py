"""TeX math (``$…$`` in text, ``$$…$$`` on its own lines) typeset without a browser or TeX.

One formula, three forms, each made here and nowhere else:

- **MathML** for what a browser shows (the HTML page, the HTML deck): latex2mathml writes MathML
  Core, which Chromium and Firefox typeset themselves, selectable and at the text's own size.
- **SVG** for what WeasyPrint prints (PDF, slides PDF, handout), which has no MathML: ziamath lays
  the formula out in its bundled STIX Two Math font and writes paths, filled with the text's
  colour (``currentColor``), so a formula is legible on a dark theme too.
- **PNG** (with the SVG beside it) for PPTX, whose pictures python-pptx writes as raster images:
  resvg draws the SVG at three times its size.

ziamath was chosen over MathJax and KaTeX (a JavaScript engine in a browser: confnotes prints
without one) and matplotlib's mathtext (a TeX subset, 40 MB); it reads its TeX with latex2mathml,
so every output reads a formula the same way, and refuses the same invalid TeX.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

#: A formula longer than this (characters) is shown as its TeX: no slide or page holds one, and
#: the typesetters' time grows with it.
MAX_TEX = 4000
#: Nesting (braces, ``\left``…) deeper than this is refused before a typesetter recurses on it.
MAX_DEPTH = 40
_NESTING = re.compile(r"\\[{}\\]|[{}]|\\left\b|\\right\b")
_VIEWBOX = re.compile(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"')


class MathError(ValueError):
    """TeX a typesetter cannot read; the message says what, in a few words."""


class NoteBudgetError(MathError):
    """The note's formulas so far have cost all that drawing one note may (``NOTE_LAYOUTS``):
    not a fault of this formula, so never cached; the next build draws on from the cache."""


#: What drawing one note's formulas may cost together, in layout steps (``_layouts``), inside
#: ``note_budget()``: past it, the rest of the note's formulas are shown as TeX, with a warning.
NOTE_LAYOUTS = 250_000
_SPENT: ContextVar[list[int] | None] = ContextVar("confnotes_math_spent", default=None)


@contextmanager
def note_budget() -> Iterator[None]:
    """Count what drawing formulas costs while one note is rendered (every renderer enters it)."""
    token = _SPENT.set([0])
    try:
        yield
    finally:
        _SPENT.reset(token)


def _charge(cost: int) -> None:
    spent = _SPENT.get()
    if spent is None:
        return
    if spent[0] + cost > NOTE_LAYOUTS:
        raise NoteBudgetError(f"the note's formulas cost more than {NOTE_LAYOUTS:,} layout steps together; the next build draws on")
    spent[0] += cost


@dataclass(frozen=True, slots=True)
class Drawn:
    """A formula drawn as SVG: its markup and its size in px at the size asked for; ``depth`` is
    how far it reaches below the text's baseline (for inline formulas)."""

    svg: str
    width: float
    height: float
    depth: float


#: Commands that reach outside a formula — a link, a style, a class or id, HTML, a file — are not
#: typeset in any output: a formula is markup, not a way into the page (links belong in the text,
#: where confnotes checks their scheme).
_UNSAFE = frozenset(("href", "url", "style", "class", "cssId", "id", "includegraphics", "input", "include", "require", "unicode", "bbox"))
_COMMAND = re.compile(r"\\([A-Za-z]+|.)", re.S)


def check(tex: str) -> None:
    """Raise ``MathError`` for TeX no typesetter should be given: too long, nested too deep, or with
    a command that reaches outside the formula."""
    if len(tex) > MAX_TEX:
        raise MathError(f"a formula of {len(tex):,} characters (at most {MAX_TEX:,})")
    for match in _COMMAND.finditer(tex):
        name = match.group(1)
        if name in _UNSAFE or name.startswith("html"):
            raise MathError(f"\\{name} reaches outside the formula (links, styles, files): not typeset")
    depth = deepest = braces = 0
    for match in _NESTING.finditer(tex):
        token = match.group(0)
        if token in ("\\{", "\\}", "\\\\"):
            continue  # a brace drawn, or a line break: no group
        step = 1 if token in ("{", "\\left") else -1
        depth += step
        deepest = max(deepest, depth)
        if token in ("{", "}"):
            braces += step
            if braces < 0:
                raise MathError("a } closes no {")
    if deepest > MAX_DEPTH:
        raise MathError(f"nested {deepest} levels deep (at most {MAX_DEPTH})")
    if braces > 0:
        raise MathError("a { is never closed" if braces == 1 else f"{braces} {{ are never closed")


#: latex2mathml's refusals, in a writer's words
_REASONS = {
    "NoAvailableTokensError": "it ends too early: a brace, argument or \\end is missing",
    "NumeratorNotFoundError": "a fraction has no numerator",
    "DenominatorNotFoundError": "a fraction has no denominator",
    "ExtraLeftOrMissingRightError": "a \\left has no \\right",
    "MissingSuperScriptOrSubscriptError": "a ^ or _ has nothing after it",
    "DoubleSubscriptsError": "two subscripts in a row (write x_{ab})",
    "DoubleSuperscriptsError": "two superscripts in a row (write x^{ab})",
    "MissingEndError": "a \\begin has no \\end",
    "InvalidAlignmentError": "an array's column alignment is not l, c or r",
    "InvalidWidthError": "a width it cannot read",
    "InvalidStyleForGenfracError": "a \\genfrac style it cannot read",
    "LimitsMustFollowMathOperatorError": "\\limits after something that is not an operator",
}


def _reason(exc: BaseException) -> str:
    known = _REASONS.get(type(exc).__name__)
    if known:
        return known
    name = re.sub(r"(?<!^)(?=[A-Z])", " ", type(exc).__name__.removesuffix("Error")).lower()
    detail = " ".join(str(exc).split())
    return f"{name}: {detail}"[:120] if detail else name


@lru_cache(maxsize=1)
def _stamp() -> str:
    """What a cached formula was typeset with: the typesetters' files (a new version typesets again)."""
    import importlib.util
    import os

    parts = [f"confnotes:{os.stat(__file__).st_mtime_ns}"]  # this module's forms of a formula too
    for name in ("latex2mathml", "ziamath"):
        spec = importlib.util.find_spec(name)
        try:
            parts.append(f"{name}:{os.stat(spec.origin).st_mtime_ns}" if spec and spec.origin else name)
        except OSError:
            parts.append(name)
    return ";".join(parts)


def _cached(form: str, tex: str, display: bool, size: float, make: Any) -> dict[str, Any]:
    """A formula's ``form`` from the cache folder (``confnotes.edges.cachedir``: a rebuild imports no
    typesetter), else made by ``make`` and kept; a refusal is kept too, and raised again."""
    import hashlib
    import json

    from confnotes.edges.cachedir import keep, read_cached

    key = hashlib.sha256("\0".join((form, _stamp(), tex, str(display), f"{float(size):g}")).encode("utf-8", "surrogatepass")).hexdigest()
    found = read_cached("math", key, ".json")
    data: Any = None
    if found is not None:
        try:
            data = json.loads(found)
        except ValueError:
            data = None
    if not isinstance(data, dict):
        try:
            data = make()
        except NoteBudgetError:
            raise
        except MathError as exc:
            data = {"error": str(exc)}
        keep("math", key, ".json", json.dumps(data))
    if isinstance(data.get("error"), str):
        raise MathError(data["error"])
    return dict(data)


@lru_cache(maxsize=2048)
def mathml(tex: str, display: bool) -> str:
    """The formula as a ``<math>`` element (MathML Core); ``MathError`` for TeX it cannot read."""
    return _read(tex, display)[0]


@lru_cache(maxsize=2048)
def _read(tex: str, display: bool) -> tuple[str, int]:
    """The formula's MathML and what drawing it costs (``_layouts``), or ``MathError``."""
    check(tex)
    found = _cached("mathml", tex, display, 0, lambda: _mathml(tex, display))
    if not isinstance(found.get("mathml"), str) or not isinstance(found.get("cost"), int):
        raise MathError("the cache holds no formula")
    return str(found["mathml"]), int(found["cost"])


#: What a formula's MathML may hold: MathML Core's elements that latex2mathml writes, and the
#: presentation attributes; a value is a word, a length, a colour or a list of them — no
#: parenthesis, colon, quote or slash, so no ``url(…)``, scheme or script can be one.
_ELEMENTS = frozenset(
    [
        "math",
        "mrow",
        "mi",
        "mn",
        "mo",
        "mtext",
        "ms",
        "mspace",
        "mstyle",
        "mfrac",
        "msqrt",
        "mroot",
        "msub",
        "msup",
        "msubsup",
        "munder",
        "mover",
        "munderover",
        "mtable",
        "mtr",
        "mtd",
        "menclose",
        "mpadded",
        "mphantom",
        "merror",
        "mmultiscripts",
        "mprescripts",
        "none",
        "semantics",
    ]
)
_ATTRIBUTES = frozenset(
    [
        "xmlns",
        "display",
        "displaystyle",
        "scriptlevel",
        "mathvariant",
        "mathcolor",
        "mathbackground",
        "mathsize",
        "stretchy",
        "fence",
        "separator",
        "form",
        "lspace",
        "rspace",
        "minsize",
        "maxsize",
        "symmetric",
        "largeop",
        "movablelimits",
        "accent",
        "accentunder",
        "linethickness",
        "columnalign",
        "columnlines",
        "columnspacing",
        "rowalign",
        "rowlines",
        "rowspacing",
        "width",
        "height",
        "depth",
        "voffset",
        "notation",
        "linebreak",
    ]
)
_VALUE = re.compile(r"[\w#.,+\- %]{0,80}")
_NAMESPACE = "http://www.w3.org/1998/Math/MathML"
#: ziamath lays each child of a row out twice (once to measure, once to place), so nested rows
#: cost 2^depth: a formula whose drawing takes more layout steps than this is shown as its TeX.
MAX_LAYOUTS = 25_000
#: the elements ziamath lays out as a node with its own children, not a row (a table's rows are its own)
_ONCE = frozenset(["mfrac", "mroot", "msub", "msup", "msubsup", "munder", "mover", "munderover", "mmultiscripts", "mtable", "mtr"])
_LEAVES = frozenset(["mi", "mn", "mo", "mtext", "ms", "mspace", "mprescripts"])


def _mathml(tex: str, display: bool) -> dict[str, Any]:
    from html import unescape
    from xml.etree import ElementTree

    from latex2mathml.converter import convert_to_element

    try:
        root = convert_to_element(tex, display="block" if display else "inline")
    except RecursionError:
        raise MathError("nested too deeply") from None
    except Exception as exc:  # noqa: BLE001 - latex2mathml raises a dozen classes for bad TeX
        raise MathError(_reason(exc)) from None
    for node in root.iter():
        tag = node.tag
        if tag not in _ELEMENTS:
            raise MathError(f"it makes a <{tag[:20]}>, which is not MathML")
        for name, value in list(node.attrib.items()):
            keep = value == _NAMESPACE if name == "xmlns" else name in _ATTRIBUTES and _VALUE.fullmatch(value) is not None
            if not keep:
                del node.attrib[name]
        # latex2mathml keeps character references in its text (and unescapes its serialised
        # output, tags and all): the text as characters, for ElementTree to escape
        node.text = unescape(node.text) if node.text else node.text
        node.tail = unescape(node.tail) if node.tail else node.tail
        if tag == "mi" and node.text and node.text.startswith("\\") and node.text[1:].isalpha():
            node.text = node.text[1:]  # an operator name latex2mathml does not know (\arg): its name
    cost = _layouts(root)
    if cost > MAX_LAYOUTS:
        raise MathError(f"nested too deeply to draw in time ({cost:,} layout steps, at most {MAX_LAYOUTS:,})")
    return {"mathml": ElementTree.tostring(root, encoding="unicode", short_empty_elements=False), "cost": cost}


def _layouts(node: Any, budget: int = MAX_LAYOUTS) -> int:
    """How many nodes ziamath lays out to draw ``node``: once for most, twice for a row's children
    (and a root or enclosure with several children is a row); stops counting past ``budget``."""
    tag = node.tag
    if tag in _LEAVES:
        return 1
    children = list(node)
    twice = tag not in _ONCE and not (tag in ("msqrt", "menclose") and len(children) == 1)
    total = 1
    for child in children:
        total += (2 if twice else 1) * _layouts(child, budget)
        if total > budget:
            return total
    return total


@lru_cache(maxsize=2048)
def svg(tex: str, display: bool, size: float) -> Drawn:
    """The formula drawn as SVG paths at ``size`` px, in the text's colour."""
    _, cost = _read(tex, display)  # the same refusals as the browser's form
    found = _cached("svg", tex, display, size, lambda: _drawn(tex, display, size, cost))
    try:
        return Drawn(str(found["svg"]), float(found["width"]), float(found["height"]), float(found["depth"]))
    except (KeyError, TypeError, ValueError):
        raise MathError("the cache holds no drawing") from None


def _drawn(tex: str, display: bool, size: float, cost: int) -> dict[str, Any]:
    _charge(cost)
    with warnings.catch_warnings():  # ziamath finds its font with a deprecated importlib call
        warnings.simplefilter("ignore", DeprecationWarning)
        import ziamath as imported

    ziamath: Any = imported  # (the package re-exports its classes without saying so)
    ziamath.config.svg2 = False  # paths, no <symbol>/<use>: ids would clash between formulas on one page
    ziamath.config.precision = 2
    try:
        drawn = ziamath.Latex(tex, size=size, inline=not display, color="currentColor").svg()
    except RecursionError:
        raise MathError("nested too deeply") from None
    except Exception as exc:  # noqa: BLE001 - ziamath and its font raise their own classes
        raise MathError(_reason(exc)) from None
    box = _VIEWBOX.search(drawn)
    if box is None:
        raise MathError("the typesetter drew nothing")
    _, top, width, height = (float(value) for value in box.groups())
    return {"svg": drawn, "width": width, "height": height, "depth": max(0.0, height + top)}


@lru_cache(maxsize=256)
def png(tex: str, display: bool, size: float, ink: str, zoom: int = 3) -> bytes:
    """The formula drawn as a PNG, ``zoom`` times its size in px (for a sharp picture in PPTX), in ``ink``."""
    import resvg_py

    drawn = svg(tex, display, size).svg.replace('"currentColor"', f'"{ink}"')
    return bytes(resvg_py.svg_to_bytes(svg_string=drawn, zoom=zoom, skip_system_fonts=True))


#: ``$$…$$`` standing alone as a paragraph (the form ``fmt`` keeps and the outline reads as one block).
_DISPLAY = re.compile(r"\A\s*\$\$(?P<tex>.+?)\$\$\s*\Z", re.S)


def display_tex(text: str) -> str | None:
    """The TeX of a paragraph that is one display formula (``$$…$$``), else None."""
    match = _DISPLAY.match(text)
    if match is None or "$$" in match.group("tex"):
        return None
    return match.group("tex").strip()


_SUPERSCRIPTS = str.maketrans("0123456789+-=()niax", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵃˣ")
_SUBSCRIPTS = str.maketrans("0123456789+-=()aeioxjkmnt", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑᵢₒₓⱼₖₘₙₜ")
_MATHML = "{http://www.w3.org/1998/Math/MathML}"
#: an accent over a letter (\hat, \bar, \tilde, \vec, \dot, \ddot) as the combining mark a line of text can hold
_ACCENTS = {
    "^": "\u0302",
    "ˆ": "\u0302",
    "¯": "\u0304",
    "‾": "\u0305",
    "~": "\u0303",
    "˜": "\u0303",
    "→": "\u20d7",
    "˙": "\u0307",
    "¨": "\u0308",
}
_SPACED = frozenset(("=", "+", "−", "-", "<", ">", "≤", "≥", "≈", "→", "×", "·", "≠", "∈"))


@lru_cache(maxsize=2048)
def linear(tex: str) -> str:
    """The formula as one line of plain text, as far as Unicode writes it (``x²``, ``a/b``, ``√(x)``,
    ``θᵢ``): for text that cannot hold a drawing, such as a PPTX run; the TeX itself when it cannot
    be read."""
    from xml.etree import ElementTree

    try:
        root = ElementTree.fromstring(mathml(tex, False))
    except (MathError, ElementTree.ParseError):
        return tex
    import unicodedata

    return unicodedata.normalize("NFC", " ".join(_linear(root).split()))  # ŷ as one character where Unicode has one


def _script(text: str, table: dict[int, Any], mark: str) -> str:
    mapped = text.translate(table)
    if all(char != original or char.isspace() for char, original in zip(mapped, text, strict=True)):
        return mapped
    grouped = len(text) <= 1 or (text.startswith("(") and text.endswith(")"))
    return f"{mark}{text}" if grouped else f"{mark}({text})"


def _grouped(text: str) -> str:
    return text if len(text) <= 1 or text.isalnum() else f"({text})"


def barless(node: Any) -> bool:
    """Whether an ``mfrac`` is drawn without its bar (``\\binom``'s, ``linethickness`` 0)."""
    return node.get("linethickness") in ("0", "0px", "0em")


def _linear(node: object) -> str:
    from xml.etree.ElementTree import Element

    assert isinstance(node, Element)
    tag = node.tag.removeprefix(_MATHML)
    children = list(node)
    parts = [_linear(child) for child in children]
    if tag in ("mi", "mn", "mo", "mtext", "ms"):
        text = node.text or ""
        spaced = (tag == "mo" and text in _SPACED) or (tag == "mi" and len(text) > 1)  # a = b, log x
        return f" {text} " if spaced else text
    if tag == "mspace":
        return " "
    if tag in ("msup", "msub", "msubsup", "munder", "munderover") and parts:
        out = parts[0].strip()
        if tag in ("msub", "msubsup", "munder", "munderover") and len(parts) > 1:
            out += _script("".join(parts[1].split()), _SUBSCRIPTS, "_")
        if tag in ("msup", "msubsup", "munderover") and len(parts) > 2 - (tag == "msup"):
            out += _script("".join(parts[-1].split()), _SUPERSCRIPTS, "^")
        return out + " " if tag in ("munder", "munderover") else out
    if tag == "mover" and parts:
        mark = _ACCENTS.get(parts[-1].strip()) if len(parts) == 2 else None
        return parts[0].strip() + mark if mark else parts[0]
    if tag == "mfrac" and len(parts) == 2:
        top, bottom = (part.strip() for part in parts)
        if barless(node):  # \binom: one over the other, no bar to read as "/"
            return f"{_grouped(top)} {_grouped(bottom)}"
        return f"{_grouped(top)}/{_grouped(bottom)}"
    if tag == "mroot" and len(parts) == 2:  # the index before the sign: ⁿ√(0.99)
        return f"{_script(''.join(parts[1].split()), _SUPERSCRIPTS, '^').removeprefix('^')}√({parts[0].strip()})"
    if tag == "msqrt":
        return f"√({''.join(parts).strip()})"
    return "".join(parts)


def _escaped(text: str, index: int) -> bool:
    """Whether the character at ``index`` follows an odd number of backslashes."""
    count = 0
    while index - count - 1 >= 0 and text[index - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _closing(text: str, index: int) -> int:
    """Where the formula opened by the ``$`` (or ``$$``) at ``index`` closes (its last dollar), or -1:
    mdit-py-plugins' dollarmath rule with pandoc's options (``render_parser``), step for step."""
    size = len(text)
    if index + 1 >= size or text[index + 1].isspace() or (index > 0 and text[index - 1].isdigit()) or _escaped(text, index):
        return -1
    double = text[index + 1] == "$"
    position = index + 1 + double
    while True:
        end = text.find("$", position)
        if end == -1:
            return -1
        if _escaped(text, end):
            position = end + 1
            continue
        if double:
            if end + 1 >= size:
                return -1
            if text[end + 1] != "$":
                position = end + 1
                continue
            end += 1
        break
    if text[end - 1].isspace() or (end + 1 < size and text[end + 1].isdigit()):
        return -1
    if end - index - 1 - 2 * double < 0 or (double and end - index <= 3) or (not double and end == index + 1):
        return -1
    return end


def math_pieces(text: str) -> list[tuple[bool, str]]:
    """``text`` (inline Markdown, outside code spans) cut into formulas and what is between them, as
    the render parser reads them (pandoc's rule): ``$$…$$``; ``$…$`` with no space inside either
    dollar, no digit right after the closing one nor right before the opening one, and no ``\\``
    before either dollar. Each formula keeps its dollars."""
    pieces: list[tuple[bool, str]] = []
    done = index = 0
    while (index := text.find("$", index)) != -1:
        end = _closing(text, index)
        if end == -1:
            index += 1
            continue
        if index > done:
            pieces.append((False, text[done:index]))
        pieces.append((True, text[index : end + 1]))
        done = index = end + 1
    if done < len(text):
        pieces.append((False, text[done:]))
    return pieces
