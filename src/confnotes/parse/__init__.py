"""Parsing: text to the outline model (``parse``), via markdown-it tokens and recovery rules."""

from __future__ import annotations

from confnotes.parse.build import ParseOptions, parse, parse_source

__all__ = ["ParseOptions", "parse", "parse_source"]
