"""Word's equations (Office Math, OMML) read back as TeX, so ``import`` keeps a document's formulas
as ``$…$`` and ``$$…$$`` that every confnotes output typesets.

The structures are OMML's: fractions, radicals, scripts, n-ary operators with their limits and
operand, delimiters, accents, bars, group characters, limits, functions, matrices, equation
arrays, boxes. A symbol becomes the TeX command latex2mathml (the converter every output uses)
knows for it (``∑`` → ``\\sum``, ``ℝ`` → ``\\mathbb{R}``); text the equation marks as ordinary
text becomes ``\\text{…}``. What has no TeX of its own keeps its characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
#: Accents by OMML's combining character (U+0302 when the accent names none).
_ACCENTS = {
    "\u0302": "hat",
    "\u0303": "tilde",
    "\u20d7": "vec",
    "\u0307": "dot",
    "\u0308": "ddot",
    "\u030c": "check",
    "\u0306": "breve",
    "\u0301": "acute",
    "\u0300": "grave",
    "\u0304": "bar",
    "\u0305": "bar",
}
#: Characters whose TeX is not the one latex2mathml's table names first (it reads ``\\sim`` as ``~``).
_OWN = {"∼": "\\sim", "∗": "*", "−": "-"}
#: Spaces a formula sets on purpose (``\\,`` before ``dx``); other spaces are TeX's own.
_SPACES = {"\u2009": "\\,", "\u2006": "\\,", "\u205f": "\\:", "\u2003": "\\quad ", "\u2001": "\\quad "}
_FUNCTIONS = frozenset(
    [
        "sin",
        "cos",
        "tan",
        "cot",
        "sec",
        "csc",
        "arcsin",
        "arccos",
        "arctan",
        "sinh",
        "cosh",
        "tanh",
        "log",
        "ln",
        "lg",
        "exp",
        "lim",
        "max",
        "min",
        "sup",
        "inf",
        "det",
        "gcd",
        "arg",
        "deg",
        "dim",
        "ker",
        "hom",
        "Pr",
    ]
)
_SPECIALS = re.compile(r"([{}#%&_$])")
#: What makes a delimiter's inside tall enough for brackets that grow with it.
_TALL = re.compile(r"\\(?:frac|binom|sum|prod|coprod|int|iint|iiint|oint|begin|sqrt|underbrace|overbrace|underset|overset|lim)\b")
_FENCES = {"{": "\\{", "}": "\\}", "": ".", "⟨": "\\langle", "⟩": "\\rangle", "‖": "\\|", "⌊": "\\lfloor", "⌋": "\\rfloor"}


def tex_of(math: Any) -> str:
    """The TeX of an ``m:oMath`` element (or any part of one); ``""`` for one nested past what can be
    read (the document's XML parser allows 256 levels)."""
    try:
        return re.sub(r" (?=[}_^])", "", " ".join(_tex(math).split()))
    except RecursionError:
        return ""


def _val(element: Any, path: str, default: str | None = None) -> str | None:
    """The ``m:val`` of a property (``m:naryPr/m:chr``…): ``default`` when it is missing; a
    property present without a value is on (``"1"``)."""
    found = element.find(path)
    if found is None:
        return default
    return str(found.get(f"{M}val", "1"))


def _arg(element: Any, name: str) -> str:
    found = element.find(f"{M}{name}")
    return _tex(found) if found is not None else ""


def _tex(element: Any) -> str:
    tag = str(element.tag)
    if tag == f"{W}r":
        return _run(element)
    name = tag.removeprefix(M) if tag.startswith(M) else ""
    structure = _STRUCTURES.get(name)
    if structure is not None:
        return structure(element)
    if name.endswith("Pr"):
        return ""  # properties: read where their structure is
    return "".join(_tex(child) for child in element)


def _fraction(element: Any) -> str:
    command = "binom" if _val(element, f"{M}fPr/{M}type") == "noBar" else "frac"
    return f"\\{command}{{{_arg(element, 'num')}}}{{{_arg(element, 'den')}}}"


def _radical(element: Any) -> str:
    degree = _arg(element, "deg").strip()
    hidden = _val(element, f"{M}radPr/{M}degHide") in ("1", "on", "true")
    return f"\\sqrt{{{_arg(element, 'e')}}}" if hidden or not degree else f"\\sqrt[{degree}]{{{_arg(element, 'e')}}}"


def _accent(element: Any) -> str:
    accent = _ACCENTS.get(_val(element, f"{M}accPr/{M}chr", "\u0302") or "\u0302", "hat")
    return f"\\{accent}{{{_arg(element, 'e')}}}"


def _bar(element: Any) -> str:
    line = "overline" if _val(element, f"{M}barPr/{M}pos", "bot") == "top" else "underline"
    return f"\\{line}{{{_arg(element, 'e')}}}"


def _group(element: Any) -> str:
    top = _val(element, f"{M}groupChrPr/{M}pos", "bot") == "top"
    return f"\\{'overbrace' if top else 'underbrace'}{{{_arg(element, 'e')}}}"


def _matrix(element: Any) -> str:
    rows = element.findall(f"{M}mr") if element.tag == f"{M}m" else [[cell] for cell in element.findall(f"{M}e")]
    body = " \\\\ ".join(" & ".join(_tex(cell) for cell in row) for row in rows)
    return f"\\begin{{matrix}} {body} \\end{{matrix}}"


def _run(run: Any) -> str:
    text = "".join(t.text or "" for t in run.iter(f"{M}t", f"{W}t"))
    if not text:
        return ""
    if run.find(f"{M}rPr/{M}nor") is not None or run.tag == f"{W}r":
        return "\\text{" + _SPECIALS.sub(r"\\\1", text) + "}"
    upright = _val(run, f"{M}rPr/{M}sty") in ("p", "b")
    if upright and text.isalpha() and len(text) > 1:
        return f"\\{text} " if text in _FUNCTIONS else f"\\mathrm{{{text}}}"
    return "".join(_symbol(char) for char in text)


#: Unicode's mathematical alphabets (``𝒟``, ``𝐅``, ``ℝ``) by the word their names carry, as TeX's commands.
_ALPHABETS = (
    ("BOLD ITALIC", "boldsymbol"),
    ("BOLD SCRIPT", "mathcal"),
    ("DOUBLE-STRUCK", "mathbb"),
    ("SCRIPT", "mathcal"),
    ("FRAKTUR", "mathfrak"),
    ("BLACK-LETTER", "mathfrak"),
    ("SANS-SERIF", "mathsf"),
    ("MONOSPACE", "mathtt"),
    ("BOLD", "mathbf"),
    ("ITALIC", ""),
)


def _alphabet(char: str) -> str | None:
    """``\\mathcal{D}`` for ``𝒟``, ``\\mathbb{R}`` for ``ℝ``, ``x`` for an italic ``𝑥``: a letter or
    digit of a mathematical alphabet as TeX writes it; None for any other character."""
    import unicodedata

    name = unicodedata.name(char, "")
    found = re.fullmatch(r"(?:MATHEMATICAL )?(.*?) ?(CAPITAL|SMALL|DIGIT) (\w+)", name)
    if found is None or not (name.startswith("MATHEMATICAL") or name.split()[0] in ("DOUBLE-STRUCK", "SCRIPT", "BLACK-LETTER")):
        return None
    style, case, letter = found.groups()
    base = unicodedata.lookup(f"DIGIT {letter}") if case == "DIGIT" else (letter if case == "CAPITAL" else letter.lower())
    if len(base) != 1 or not base.isascii() or case == "SMALL" and style in ("DOUBLE-STRUCK", "SCRIPT"):
        return None
    command = next((command for word, command in _ALPHABETS if style.startswith(word)), None)
    if command is None:
        return None
    return f"\\{command}{{{base}}}" if command else base


def _symbol(char: str) -> str:
    if (lettered := _alphabet(char)) is not None:
        return lettered
    if char.isascii():
        if _SPECIALS.match(char):
            return f"\\{char}"
        return {"\\": "\\backslash ", "~": "\\sim ", "^": "\\wedge "}.get(char, char)  # ~ is a space to TeX
    command = _OWN.get(char) or _commands().get(char)
    if command is None:
        return _SPACES.get(char, " ") if char.isspace() else char
    return command if len(command) == 1 else f"{command} "


@cache
def _commands() -> dict[str, str]:
    """Each character's TeX command from latex2mathml's own table: ``\\mathbb{R}`` for a
    double-struck letter, else the shortest name (``\\to`` for →, ``\\le`` for ≤)."""
    from latex2mathml.symbols_parser import SYMBOLS

    found: dict[str, str] = {}
    for command, code in SYMBOLS.items():
        if not re.fullmatch(r"\\[A-Za-z]+|\\mathbb\{[A-Z]\}|[-+=<>/*|!]", command) or not re.fullmatch(r"[0-9A-Fa-f]{4,6}", code):
            continue
        char = chr(int(code, 16))
        if char.isascii():
            continue
        known = found.get(char)
        if known is None or _rank(command) < _rank(known):
            found[char] = command
    return found


def _rank(command: str) -> tuple[int, int]:
    """A plain character first (``-`` for −), then ``\\mathbb{R}``, then the shortest command."""
    return (0 if len(command) == 1 else 1 if command.startswith("\\mathbb") else 2, len(command))


def _scripts(element: Any, name: str) -> str:
    sub = f"_{{{_arg(element, 'sub')}}}" if name != "sSup" else ""
    sup = f"^{{{_arg(element, 'sup')}}}" if name != "sSub" else ""
    if name == "sPre":
        return f"{{}}{sub}{sup}{{{_arg(element, 'e')}}}"
    return f"{{{_arg(element, 'e')}}}{sub}{sup}"


def _nary(element: Any) -> str:
    char = _val(element, f"{M}naryPr/{M}chr", "∫") or "∫"
    command = _commands().get(char, char).strip()
    hidden = {part for part in ("sub", "sup") if _val(element, f"{M}naryPr/{M}{part}Hide") in ("1", "on", "true")}
    limits = "".join(f"{'_' if part == 'sub' else '^'}{{{_arg(element, part)}}}" for part in ("sub", "sup") if part not in hidden)
    return f"{command}{limits} {_arg(element, 'e')}"


def _delimiter(element: Any) -> str:
    begin = _val(element, f"{M}dPr/{M}begChr", "(") or ""
    end = _val(element, f"{M}dPr/{M}endChr", ")") or ""
    separator = _val(element, f"{M}dPr/{M}sepChr", "|") or "|"
    parts = [_tex(part) for part in element.findall(f"{M}e")]
    if begin == "(" and end == ")" and len(parts) == 1 and parts[0].startswith("\\binom"):
        return parts[0]  # Word's binomial: a fraction without its bar in parentheses
    inner = f" {_FENCES.get(separator, separator)} ".join(parts)
    if begin and end and _TALL.search(inner) is None:  # (x), |a-b|: brackets as written; \\left…\\right for a tall inside
        return f"{_FENCES.get(begin, begin)}{inner}{_FENCES.get(end, end)}"
    return f"\\left{_FENCES.get(begin, begin)} {inner} \\right{_FENCES.get(end, end)}"


def _limit(element: Any, name: str) -> str:
    base, limit = _arg(element, "e").strip(), _arg(element, "lim")
    if base.startswith("\\") and base[1:] in _FUNCTIONS:
        return f"{base}_{{{limit}}}" if name == "limLow" else f"{base}^{{{limit}}}"
    return f"\\underset{{{limit}}}{{{base}}}" if name == "limLow" else f"\\overset{{{limit}}}{{{base}}}"


#: OMML's structures by element name, each read by its function.
_STRUCTURES: dict[str, Callable[[Any], str]] = {
    "r": _run,
    "f": _fraction,
    "rad": _radical,
    "sSup": lambda element: _scripts(element, "sSup"),
    "sSub": lambda element: _scripts(element, "sSub"),
    "sSubSup": lambda element: _scripts(element, "sSubSup"),
    "sPre": lambda element: _scripts(element, "sPre"),
    "nary": _nary,
    "d": _delimiter,
    "acc": _accent,
    "bar": _bar,
    "groupChr": _group,
    "limLow": lambda element: _limit(element, "limLow"),
    "limUpp": lambda element: _limit(element, "limUpp"),
    "func": lambda element: f"{_arg(element, 'fName')} {{{_arg(element, 'e')}}}",
    "m": _matrix,
    "eqArr": _matrix,
    "borderBox": lambda element: f"\\boxed{{{_arg(element, 'e')}}}",
    "phant": lambda element: f"\\phantom{{{_arg(element, 'e')}}}",
}
