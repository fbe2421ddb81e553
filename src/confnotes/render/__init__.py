"""Renderers: each takes a Document (or a Deck) and returns text or bytes; none re-parses notes."""
