"""Note text on its way out: characters XML cannot hold, and control sequences a terminal would obey."""

from __future__ import annotations

import re

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def xml_safe(text: str) -> str:
    """Text an XML 1.0 document can hold: other control characters become U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def terminal_safe(text: str) -> str:
    """Text to print: control characters (ESC of ANSI and OSC sequences among them) shown as ``\\x1b``,
    never sent raw to the terminal; tabs and newlines stay."""
    return _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)
