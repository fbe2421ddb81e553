"""The edges that touch the world: a note's bytes (``source``), archives, atomic writes (``output``),
the cache folder, sandboxed programs, pictures, fonts and untrusted XML. Everything above them is
pure: it takes and returns values (docs/design.md, "The folders and their layers")."""
