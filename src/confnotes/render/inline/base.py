"""What every rule of the inline renderer may use: the renderer's settings and state, and (for the
type checker) the methods one rule calls on another. ``render.markdown.InlineRenderer`` is the
one class that has them all."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markupsafe import Markup

    from confnotes.model.values import Callout
    from confnotes.render.markdown import Inks


class InlineBase:
    base_dir: Path | None
    allow_html: bool
    embed_images: bool
    code_columns: int | None
    printed: bool
    warnings: list[str]
    references: dict[str, Any]
    footnotes: Any
    footnotes_at: str
    foldable: bool
    inks: Inks
    dark: bool
    md: Any
    _dropped: list[bool]
    _embedded: dict[Path, str]
    _embedded_bytes: int
    _svg_elements: int
    code_blocks: int
    _called: set[int]

    if TYPE_CHECKING:  # each defined by one rule, called by another

        @property
        def ink(self) -> str: ...
        def inline(self, text: str) -> Markup: ...
        def unlinked(self, text: str) -> Markup: ...
        def blocks(self, text: str) -> Markup: ...
        def callout(self, found: Callout, text: str) -> Markup: ...
        def div(self, block: Any) -> Markup: ...
        def footnote_html(self, text: str, inline: bool = False) -> Markup: ...
        def _env(self) -> dict[str, Any]: ...
        def _embed(self, src: str) -> str | None: ...
        def _svg_fits(self, src: str, data: bytes) -> bool: ...
        def diagram(self, info: str, source: str, warn: bool = True) -> str | None: ...
        def slide_code(self, entry: Any) -> Markup: ...
        def _code_html(self, code: str, language: str) -> str: ...
        def _small_block(self, renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str: ...
        def _open_callout(self, state: Any, index: int, found: Any) -> str: ...
        def _math_run(
            self, tex: str, display: bool, styles: list[str], href: str | None, source: bool = False
        ) -> tuple[str, frozenset[str], str | None]: ...
