"""Emoji shortcodes (``:rocket:``, ``:+1:``, ``:white_check_mark:``) as the emoji they name.

Chat pastes (Slack, GitHub, Discord) are full of them. The table is the ``emoji`` package's: its
aliases (GitHub's and Slack's names) and Unicode's CLDR names. A ``:word:`` that names no emoji
stays as written (``10:30:00``, ``:not_a_code:``); code spans and blocks are never touched.
"""

from __future__ import annotations

import re

#: Where a shortcode may be: ``:`` word characters, ``+`` or ``-`` ``:`` (the fast paths test this first).
MAY_BE_SHORTCODE = re.compile(r":[\w+-]+:")


def emojized(text: str) -> str:
    """``text`` with each shortcode the table knows as its emoji."""
    if MAY_BE_SHORTCODE.search(text) is None:
        return text
    import emoji

    return str(emoji.emojize(text, language="alias"))
