"""Parsing: text to the outline model (``parse``), via markdown-it tokens and recovery rules."""

from __future__ import annotations

from confnotes.parse.build import parse, parse_source
from confnotes.parse.state import ParseOptions

__all__ = ["ParseOptions", "parse", "parse_source"]
