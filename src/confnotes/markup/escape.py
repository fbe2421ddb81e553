"""Note text on its way out: characters XML cannot hold, control sequences a terminal would obey,
and JSON that every parser reads (no NaN, no raw C1 controls or lone surrogates)."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from typing import Any

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: C0 and C1 controls (ESC of ANSI and OSC sequences, BEL, CR among them) and lone surrogates (the
#: bytes of a file name that is not UTF-8, as Python's ``surrogateescape`` holds them)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_OR_LINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
#: what JSON may hold raw but a terminal, a JavaScript string or a UTF-8 encoder may not
_JSON_RAW = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def xml_safe(text: str) -> str:
    """Text an XML 1.0 document can hold: other control characters (and the lone surrogates of a file
    name that is not UTF-8) become U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def xml_text(text: str) -> str:
    """``text`` as XML character data: ``xml_safe``, then ``&``, ``<`` and ``>`` escaped. With
    ``xml_attr``, what every XML confnotes writes as text goes through (JUnit, OPML, the feed, the
    sitemap; Word and PPTX clean their text with ``xml_ready``/``xml_safe`` before lxml)."""
    from xml.sax.saxutils import escape

    return escape(xml_safe(text))


def xml_attr(text: str) -> str:
    """``text`` as a quoted XML attribute value (``xml_safe``, then quoted and escaped)."""
    from xml.sax.saxutils import quoteattr

    return quoteattr(xml_safe(text))


def xml_ready(value: Any) -> Any:
    """``value`` (a model: frozen dataclasses, tuples, named tuples, dicts and strings) with every
    string ``xml_safe``: the one cleaning a writer that hands text to lxml (Word) does before it
    starts, so no run, comment or property can carry a form feed or U+FFFE. Returns ``value`` itself
    when it holds nothing to clean (the usual case: one scan, no copy)."""
    return _cleaned(value) if _holds_unsafe(value) else value


def _holds_unsafe(value: Any) -> bool:
    if type(value) is str:
        return _NOT_XML.search(value) is not None
    if isinstance(value, (tuple, list)):
        return any(_holds_unsafe(item) for item in value)
    if isinstance(value, dict):
        return any(_holds_unsafe(key) or _holds_unsafe(item) for key, item in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(_holds_unsafe(getattr(value, field.name)) for field in dataclasses.fields(value))
    return False


def _cleaned(value: Any) -> Any:
    if type(value) is str:
        return xml_safe(value)
    if isinstance(value, tuple):
        items = [_cleaned(item) for item in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)  # a named tuple keeps its type
    if isinstance(value, list):
        return [_cleaned(item) for item in value]
    if isinstance(value, dict):
        return {_cleaned(key): _cleaned(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {field.name: _cleaned(getattr(value, field.name)) for field in dataclasses.fields(value) if field.init}
        return dataclasses.replace(value, **changes)
    return value


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a file name that is not UTF-8: shown as that byte
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_safe(text: str, one_line: bool = False) -> str:
    """Text to print: every control character (ESC of ANSI and OSC sequences, BEL, CR) shown as
    ``\\x1b``, never sent raw to the terminal; tabs and newlines stay unless ``one_line`` (a path,
    a title or a message inside a line: a newline there would forge a line of its own). The bytes
    of a file name that is not UTF-8 are shown as ``\\xff``. Every text output goes through here."""
    return (_CONTROL_OR_LINE if one_line else _CONTROL).sub(_shown, text)


def display_text(text: str) -> str:
    """Text for a document (an HTML page, a title): the bytes of a file name that is not UTF-8,
    which no UTF-8 document can hold, become U+FFFD."""
    return re.sub("[\ud800-\udfff]", "\ufffd", text)


def _finite(value: Any) -> Any:
    """``value`` with every NaN or infinity written as text (``"nan"``, ``"inf"``, ``"-inf"``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


def strict_json(value: Any, *, indent: int | None = None, sort_keys: bool = False, compact: bool = False, default: Any = None) -> str:
    """JSON as RFC 8259 has it, the one way confnotes writes JSON: never ``NaN`` or ``Infinity``
    (``allow_nan=False``; a non-finite number that reaches output is written as a string, but front
    matter refuses them before that), and C1 controls, U+2028/U+2029 and lone surrogates (a file
    name that is not UTF-8) written as ``\\u`` escapes, so the text is valid UTF-8 and reads back
    to the same strings."""
    options: dict[str, Any] = {"indent": indent, "sort_keys": sort_keys, "default": default}
    if compact:
        options["separators"] = (",", ":")
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, **options)
    except ValueError as exc:
        if "Out of range float" not in str(exc):
            raise
        text = json.dumps(_finite(value), ensure_ascii=False, allow_nan=False, **options)
    # these characters can stand only inside JSON strings, where a \u escape means the same
    return _JSON_RAW.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def read_json(text: str) -> Any:
    """JSON a file of confnotes' own holds (a manifest, a cache): strict, so ``NaN`` is as
    malformed as a truncated file; raises ``ValueError`` for both, and for nesting too deep to read."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    try:
        return json.loads(text, parse_constant=refuse)
    except RecursionError:
        raise ValueError("nested too deeply") from None
