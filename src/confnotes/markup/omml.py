"""Formulas as Word's own equations (Office Math, OMML) for ``render --to docx``.

The formula's MathML is the one every output draws (``confnotes.markup.math.mathml``: whitelisted
elements, bounded cost), so this reads a known, small vocabulary: rows, identifiers, numbers,
operators and text become math runs; fractions, radicals, scripts, n-ary operators (∑ ∫ with
their limits, the operand beside them), accents, bars, braces, fences, matrices and boxes become
their OMML structures. Word and LibreOffice Writer (with its Math module) draw them as equations
that can be edited. Text is set as element text, so nothing in a formula can become markup.
"""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree

from lxml import etree

from confnotes.markup.math import barless

M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
_MATHML = "{http://www.w3.org/1998/Math/MathML}"
#: Operators Word sets as n-ary: a symbol with limits and an operand.
_NARY = frozenset("∑∏∐∫∬∭∮∯∰⋃⋂⋁⋀⨁⨂⨀")
#: Marks over a letter (``\hat``, ``\vec``…) as the combining characters OMML's accent takes.
_ACCENTS = {
    "^": "\u0302",
    "ˆ": "\u0302",
    "~": "\u0303",
    "˜": "\u0303",
    "→": "\u20d7",
    "˙": "\u0307",
    "¨": "\u0308",
    "ˇ": "\u030c",
    "˘": "\u0306",
    "´": "\u0301",
    "`": "\u0300",
}
#: Lines over or under: a bar.
_BARS = frozenset("¯―‾_")
#: Braces over or under (``\overbrace``, ``\underbrace``): a group character.
_GROUPS = frozenset("⏞⏟⏜⏝")
_OPEN = frozenset("([{|‖⟨⌊⌈")
#: Function names whose subscript is a limit set under them (``\\lim_{x→0}``), not a subscript (``\\log_2``).
_LIMITS = frozenset(["lim", "liminf", "limsup", "max", "min", "sup", "inf", "argmax", "argmin", "det", "gcd", "Pr"])
_CLOSE = frozenset(")]}|‖⟩⌋⌉")
#: Rows that only group what they hold.
_ROWS = frozenset(["math", "mrow", "mstyle", "mpadded", "merror", "mtd", "semantics"])


def _m(tag: str, *children: Any) -> Any:
    """An OMML element holding ``children``."""
    element = etree.Element(f"{{{M}}}{tag}", nsmap={"m": M})
    for child in children:
        if child is not None:
            element.append(child)
    return element


def _prop(tag: str, value: str) -> Any:
    element = _m(tag)
    element.set(f"{{{M}}}val", value)
    return element


def _run(text: str, style: str | None) -> Any:
    """A math run: ``style`` ``p`` (upright), ``nor`` (ordinary text), or None (math italic)."""
    run = _m("r")
    if style == "nor":
        run.append(_m("rPr", _m("nor")))
    elif style:
        run.append(_m("rPr", _prop("sty", style)))
    text_el = _m("t")
    text_el.text = text
    text_el.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    run.append(text_el)
    return run


def _wrap(tag: str, nodes: list[Any]) -> Any:
    """An argument (``m:e``, ``m:num``, ``m:sub``…) holding ``nodes``."""
    return _m(tag, *nodes)


def omml(tex: str, display: bool) -> Any:
    """The formula as an ``m:oMath`` element (display formulas inside ``m:oMathPara``);
    ``MathError`` for TeX no output can read."""
    from confnotes.markup.math import mathml

    math = omml_of(ElementTree.fromstring(mathml(tex, display)))
    return _m("oMathPara", math) if display else math


def omml_of(root: Any) -> Any:
    """The ``m:oMath`` of a MathML ``<math>`` element (ElementTree's or lxml's): a formula's MathML
    from confnotes or from another program (LibreOffice keeps an ODF formula's as MathML; ``import``
    reads it through this and ``importers.equations``). Only the elements and attributes named here
    are read, and text is set as text. ``MathError`` for one nested past what can be read."""
    from confnotes.markup.math import MathError

    try:
        return _m("oMath", *_row([child for child in root if isinstance(child.tag, str)]))
    except RecursionError:
        raise MathError("nested too deeply") from None


def _name(node: Any) -> str:
    return str(node.tag).removeprefix(_MATHML)


def _text(node: Any) -> str:
    return "".join(node.itertext())


def _row(children: list[Any]) -> list[Any]:
    """The OMML of a row's children in order: brackets that pair up around a part of the row are a
    delimiter (with the script written on the closing one, ``(1-p)^n``, on the whole); an n-ary
    operator or a function takes what follows as its operand; an upright word is one run."""
    fenced = _fence(children)
    if fenced is not None:
        return [fenced]
    out: list[Any] = []
    index = 0
    while index < len(children):
        child = children[index]
        paired = _paired(children, index)
        if paired is not None:
            out.append(paired[0])
            index = paired[1]
            continue
        word = _upright_word(children, index)
        if word is not None:
            out.append(_run(word[0], "p"))
            index = word[1]
            continue
        taking = _taking(child, index + 1 < len(children))
        if taking is not None:  # ∑, lim or ¹⁴ with what follows as its operand
            operand, index = _operand(children, index + 1)
            taking.append(_wrap("e", operand))
            out.append(taking)
            continue
        out.extend(_node(child))
        index += 1
    return out


def _taking(node: Any, followed: bool) -> Any | None:
    """An operator that takes what follows as its operand (``∑``, ``lim``, scripts on nothing), as
    OMML without that operand; None for any other child."""
    for found in (_nary(node), _function(node), _prescript(node, followed)):
        if found is not None:
            return found
    return None


def _operand(children: list[Any], index: int) -> tuple[list[Any], int]:
    """What an n-ary operator or a function at ``index - 1`` takes: a bracketed group, another
    operator with its own operand (``\\max_\\theta \\sum_i …``), or the next child; and where the
    row goes on."""
    if index >= len(children):
        return [], index
    paired = _paired(children, index)
    if paired is not None:
        return [paired[0]], paired[1]
    child = children[index]
    taking = _taking(child, index + 1 < len(children))
    if taking is not None:
        operand, after = _operand(children, index + 1)
        taking.append(_wrap("e", operand))
        return [taking], after
    return _node(child), index + 1


def _closer(node: Any) -> str | None:
    """The bracket a child closes with: a closing ``mo``, or the base of a script on one (``)^n``)."""
    if _name(node) == "mo":
        return _text(node)
    if _name(node) in ("msub", "msup", "msubsup") and len(node) and _name(node[0]) == "mo":
        return _text(node[0])
    return None


def _paired(children: list[Any], index: int) -> tuple[Any, int] | None:
    """A bracket at ``index`` and the one that closes it in the same row (``(`` with ``)``, ``|``
    with the next ``|``), as a delimiter around what stands between, the closing one's script on
    the whole; with where the row goes on. None when nothing closes it."""
    opening = children[index]
    if _name(opening) != "mo" or (char := _text(opening)) not in _OPEN:
        return None
    if index + 2 < len(children) and _bracketed(children[index : index + 3]):
        return _fence(children[index : index + 3]), index + 3  # \binom, a matrix in brackets
    depth = 0
    for at in range(index + 1, len(children)):
        closing = _closer(children[at])
        if char == "|" and closing == "|" or char != "|" and closing in _CLOSE and depth == 0:
            if at == index + 1:
                return None  # "()" or "||": nothing between
            props = _m("dPr", _prop("begChr", char), _prop("endChr", closing or ""))
            fenced = _m("d", props, _wrap("e", _row(children[index + 1 : at])))
            last = children[at]
            if _name(last) == "mo":
                return fenced, at + 1
            scripts = list(last)[1:]
            wrapped = _scripts(_name(last), [fenced, *scripts], built=True)
            return wrapped, at + 1
        if char != "|" and _name(children[at]) == "mo" and _text(children[at]) in _OPEN - {"|"}:
            depth += 1
        elif char != "|" and closing in _CLOSE - {"|"}:
            depth -= 1
    return None


def _upright_word(children: list[Any], index: int) -> tuple[str, int] | None:
    """``\\mathrm{acc}``: upright letters one after another, as one run (Writer spaced them apart)."""
    letters = []
    at = index
    while at < len(children) and _name(children[at]) == "mi" and children[at].get("mathvariant") == "normal":
        letters.append(_text(children[at]))
        at += 1
    return ("".join(letters), at) if len(letters) > 1 else None


def _fence(children: list[Any]) -> Any | None:
    """A row between fences (``\\left( … \\right)``, ``cases``) or one thing between brackets
    (``\\binom``, ``pmatrix``): a delimiter around the rest."""
    if len(children) < 2 or not _is_mo(children[0], _OPEN):
        return None
    last = children[-1]
    closes = _is_mo(last, _CLOSE)
    if children[0].get("fence") != "true" and not (closes and len(children) == 3):
        return None
    inner = children[1:-1] if closes else children[1:]
    props = _m("dPr", _prop("begChr", _text(children[0])), _prop("endChr", _text(last) if closes else ""))
    return _m("d", props, _wrap("e", _row(inner)))


def _bracketed(three: list[Any]) -> bool:
    """``(`` a fraction without its bar, or a matrix ``)``: one thing its brackets belong to."""
    middle = three[1]
    held = _name(middle) == "mtable" or (_name(middle) == "mfrac" and barless(middle))
    return held and _is_mo(three[0], _OPEN) and _is_mo(three[2], _CLOSE)


def _is_mo(node: Any, chars: frozenset[str]) -> bool:
    return _name(node) == "mo" and _text(node) in chars


def _nary(node: Any) -> Any | None:
    """A scripted n-ary operator (``\\sum_{i=1}^n``, ``\\int_0^1``) as ``m:nary`` without its operand."""
    name = _name(node)
    children = list(node)
    if name == "mo" and _text(node) in _NARY:
        base, sub, sup = node, None, None
    elif name in ("msub", "munder") and len(children) == 2:
        base, sub, sup = children[0], children[1], None
    elif name in ("msup", "mover") and len(children) == 2:
        base, sub, sup = children[0], None, children[1]
    elif name in ("msubsup", "munderover") and len(children) == 3:
        base, sub, sup = children
    else:
        return None
    if _name(base) != "mo" or _text(base) not in _NARY:
        return None
    place = "undOvr" if name.startswith("mu") else "subSup"
    props = _m("naryPr", _prop("chr", _text(base)), _prop("limLoc", place))
    if sub is None:
        props.append(_prop("subHide", "1"))
    if sup is None:
        props.append(_prop("supHide", "1"))
    return _m("nary", props, _wrap("sub", _node(sub) if sub is not None else []), _wrap("sup", _node(sup) if sup is not None else []))


def _function(node: Any) -> Any | None:
    """``\\lim_{x→0}``, ``\\max_i``: a function name with a limit under it, as ``m:func`` without
    its operand (Word's own shape; a bare lower limit is not one)."""
    name = _name(node)
    children = list(node)
    if name not in ("msub", "munder") or len(children) != 2:
        return None
    base = children[0]
    if _name(base) not in ("mo", "mi") or not _text(base).isalpha() or len(_text(base)) < 2:
        return None
    name_run = _wrap("e", [_run(_text(base), "p")])
    if _text(base) in _LIMITS or _name(node) == "munder":
        return _m("func", _wrap("fName", [_m("limLow", name_run, _wrap("lim", _node(children[1])))]))
    return _m("func", _wrap("fName", [_m("sSub", name_run, _wrap("sub", _node(children[1])))]))  # \\log_2


def _prescript(node: Any, followed: bool) -> Any | None:
    """``{}^{14}C``: scripts on nothing, before what follows, as ``m:sPre`` without its base."""
    name = _name(node)
    children = list(node)
    if not followed or name not in ("msub", "msup", "msubsup") or not children or len(children[0]) or _text(children[0]):
        return None
    sub = _node(children[1]) if name != "msup" and len(children) > 1 else []
    sup = _node(children[-1]) if name != "msub" and len(children) > 1 else []
    empty = [_run("\u200b", "p")]  # an empty script is a placeholder box to Writer; a zero-width space is nothing
    return _m("sPre", _wrap("sub", sub or empty), _wrap("sup", sup or empty))


def _node(node: Any) -> list[Any]:
    """The OMML of one MathML element."""
    name = _name(node)
    children = list(node)
    if name in _ROWS:
        return _row(children[:1] if name == "semantics" else children)
    if name in ("mi", "mn", "mo", "mtext", "ms"):
        return _leaf(node, name)
    if name == "mspace":
        wide = node.get("width", "").removesuffix("em")
        return [_run("\u2003" if wide.replace(".", "", 1).isdigit() and float(wide) >= 1 else "\u2009", "p")]
    if name == "mfrac" and len(children) == 2:
        frac = _m("f", _wrap("num", _node(children[0])), _wrap("den", _node(children[1])))
        if barless(node):
            frac.insert(0, _m("fPr", _prop("type", "noBar")))
        return [frac]
    if name in ("msqrt", "mroot"):
        return [_radical(children, name == "mroot")]
    if name in ("msub", "msup", "msubsup") and len(children) == (3 if name == "msubsup" else 2):
        return [_scripts(name, children)]
    if name in ("msub", "msup") and len(children) > 2:  # a base of several parts (a bracketed matrix): a row
        return [_scripts(name, [_m("e", *_row(children[:-1])), children[-1]], built=True)]
    if name in ("munder", "mover", "munderover"):
        return _limits(name, children)
    if name == "mtable":
        rows = [_m("mr", *(_wrap("e", _node(cell)) for cell in row)) for row in children]
        return [_m("m", *rows)]
    if name == "mtr":
        return [node for cell in children for node in _node(cell)]
    if name == "menclose":
        return [_m("borderBox", _wrap("e", _row(children)))]
    if name == "mphantom":
        return [_m("phant", _wrap("e", _row(children)))]
    if name == "mmultiscripts":
        return _multiscripts(children)
    return _row(children)  # none, mprescripts alone: what they hold, if anything


#: Characters latex2mathml writes as ASCII that Word's and Writer's equations read otherwise (``~``
#: is a space to Writer): the operator each stands for.
_OPERATORS = str.maketrans({"~": "∼", "-": "−", "*": "∗"})


def _leaf(node: Any, name: str) -> list[Any]:
    text = _text(node)
    if not text:
        return []
    if name != "mtext" and name != "ms" and len(text) == 1:
        text = text.translate(_OPERATORS)
    if name == "mtext":
        return [_run(text, "nor")]
    if name == "ms":
        return [_run(f"“{text}”", "nor")]
    variant = node.get("mathvariant")
    if name == "mi":
        style = "p" if variant == "normal" or (variant is None and len(text) > 1) else None
        return [_run(text, "b" if variant == "bold" else style)]
    return [_run(text, "b" if variant == "bold" else "p")]


def _radical(children: list[Any], indexed: bool) -> Any:
    if indexed and len(children) == 2:
        return _m("rad", _wrap("deg", _node(children[1])), _wrap("e", _node(children[0])))
    return _m("rad", _m("radPr", _prop("degHide", "1")), _m("deg"), _wrap("e", _row(children)))


def _scripts(name: str, children: list[Any], built: bool = False) -> Any:
    """``msub``/``msup``/``msubsup`` as OMML; with ``built``, the base is OMML already."""
    base = _wrap("e", [children[0]] if built else _node(children[0]))
    if name == "msub":
        return _m("sSub", base, _wrap("sub", _node(children[1])))
    if name == "msup":
        return _m("sSup", base, _wrap("sup", _node(children[1])))
    return _m("sSubSup", base, _wrap("sub", _node(children[1])), _wrap("sup", _node(children[2])))


def _limits(name: str, children: list[Any]) -> list[Any]:
    """Accents, bars and braces over or under a base; other limits (``\\lim_{x→0}`` set under)."""
    if len(children) != (3 if name == "munderover" else 2):
        return _row(children)
    base = _wrap("e", _node(children[0]))
    if name == "munderover":
        lower = _m("limLow", base, _wrap("lim", _node(children[1])))
        return [_m("limUpp", _wrap("e", [lower]), _wrap("lim", _node(children[2])))]
    mark = children[1]
    char = _text(mark) if _name(mark) == "mo" else ""
    top = name == "mover"
    if char in _ACCENTS and top:
        return [_m("acc", _m("accPr", _prop("chr", _ACCENTS[char])), base)]
    if char in _BARS:
        return [_m("bar", _m("barPr", _prop("pos", "top" if top else "bot")), base)]
    if char in _GROUPS:
        props = _m("groupChrPr", _prop("chr", char), _prop("pos", "top" if top else "bot"), _prop("vertJc", "bot" if top else "top"))
        return [_m("groupChr", props, base)]
    return [_m("limUpp" if top else "limLow", base, _wrap("lim", _node(mark)))]


def _multiscripts(children: list[Any]) -> list[Any]:
    """``mmultiscripts``: the base, scripts after it in pairs, ``mprescripts``, scripts before it."""
    if not children:
        return []
    split = next((index for index, child in enumerate(children) if _name(child) == "mprescripts"), len(children))
    post, pre = children[1:split], children[split + 1 :]
    base: list[Any] = _node(children[0])
    if len(post) >= 2:
        base = [_m("sSubSup", _wrap("e", base), _wrap("sub", _node(post[0])), _wrap("sup", _node(post[1])))]
    if len(pre) >= 2:
        return [_m("sPre", _wrap("sub", _node(pre[0])), _wrap("sup", _node(pre[1])), _wrap("e", base))]
    return base
