"""Which paths a directory walk skips: ``.gitignore`` patterns, ``--exclude`` globs and a config's ``exclude``."""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path
from typing import NamedTuple


class _Pattern(NamedTuple):
    base: Path
    glob: str
    anchored: bool
    dir_only: bool
    negated: bool

    def matches(self, path: Path, is_dir: bool) -> bool:
        if self.dir_only and not is_dir:
            return False
        try:
            rel = path.relative_to(self.base).as_posix()
        except ValueError:
            return False
        if self.anchored:
            return fnmatch.fnmatchcase(rel, self.glob)
        return fnmatch.fnmatchcase(path.name, self.glob) or fnmatch.fnmatchcase(rel, self.glob)


def _parse(base: Path, line: str) -> _Pattern | None:
    line = line.rstrip()
    if not line or line.startswith("#"):
        return None
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    dir_only = line.endswith("/")
    line = line.rstrip("/")
    anchored = "/" in line
    line = line.lstrip("/")
    if not line:
        return None
    return _Pattern(base, line, anchored, dir_only, negated)


class Exclude(NamedTuple):
    """A config's ``exclude`` glob and the folder it is relative to: the config file's, as documented
    (``notes/drafts/*`` in a root config skips ``notes/drafts/d.md`` whichever folder is walked).
    A plain string glob (``--exclude``) is relative to the folder walked."""

    glob: str
    base: str


def config_excludes(globs: tuple[str, ...], config_path: str | None) -> tuple[str | Exclude, ...]:
    """A config file's ``exclude`` globs, each relative to that file's folder."""
    if not config_path:
        return tuple(globs)
    base = os.path.dirname(os.path.abspath(config_path))
    return tuple(Exclude(glob, base) for glob in globs)


class IgnoreRules(NamedTuple):
    patterns: tuple[_Pattern, ...]

    @classmethod
    def for_root(cls, root: Path, exclude: tuple[str | Exclude, ...] = ()) -> IgnoreRules:
        """Collect ``.gitignore`` files from ``root`` up to the repository top, plus excludes: a config's
        relative to its folder, a plain glob (``--exclude``) relative to ``root``."""
        patterns: list[_Pattern] = []
        folder = Path(os.path.abspath(root))
        chain = [folder, *folder.parents]
        gitignores: list[Path] = []
        for candidate in chain:
            if (candidate / ".gitignore").is_file():
                gitignores.append(candidate / ".gitignore")
            if (candidate / ".git").exists():
                break
        for gitignore in reversed(gitignores):
            try:
                lines = gitignore.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                continue
            for line in lines:
                pattern = _parse(gitignore.parent, line)
                if pattern is not None:
                    patterns.append(pattern)
        for entry in exclude:
            base, glob = (Path(entry.base), entry.glob) if isinstance(entry, Exclude) else (folder, entry)
            glob = glob.strip("/")
            patterns.append(_Pattern(base, glob, "/" in glob, False, False))
        return cls(tuple(patterns))

    def ignored(self, path: Path, is_dir: bool) -> bool:
        resolved = Path(os.path.abspath(path))
        verdict = False
        for pattern in self.patterns:
            if pattern.matches(resolved, is_dir):
                verdict = not pattern.negated
        return verdict
