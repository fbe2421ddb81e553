"""Render settings: the one resolution of defaults < config < front matter < command line.

``render``, ``build`` and ``serve`` all call ``resolve_render_options``, so a note renders
the same whichever command renders it. Options a user did not pass are ``None`` in
``RenderOverrides`` and never override the config.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from confnotes.config import Config
from confnotes.config.settings import SlideSettings
from confnotes.errors import render_error
from confnotes.model import Document
from confnotes.slides import Decks, slide_settings


@dataclass(frozen=True)
class RenderOptions:
    """What a renderer is told: the resolved settings for one note."""

    theme: str = "default"
    css: tuple[str, ...] = ()
    templates: tuple[str, ...] = ()
    notes: bool = False
    paper: str = "a4"
    per_page: int = 3  # handout: slides a page (1, 2 or 3)
    allow_html: bool = False
    mode: str = "html"
    tagged: bool = True
    slides: SlideSettings = field(default_factory=SlideSettings)  # the note's: config < front matter < command line
    trust_templates: bool = False  # run user templates outside Jinja's sandbox
    reference_pptx: str | None = None  # a PowerPoint template whose layouts and theme PPTX output uses
    reference_docx: str | None = None  # a Word document whose styles, page setup, headers and footers Word output uses
    output_dir: str | None = None  # where the output goes (None: beside the note); Marp links images from there
    allow_remote: bool = False  # Marp: let the deck load web images and emoji images when it is opened
    #: a page of a built site: the way up to the site's root (``../`` a folder), and the page's own
    #: name in the site; the page then loads the site's search box and its previous/next links
    site_root: str | None = None
    site_page: str | None = None
    #: decks already built for this note (a build shares one between its formats and the note's lint run)
    decks: Decks | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class RenderOverrides:
    """What the user asked for on the command line; ``None`` means "not given"."""

    theme: str | None = None
    css: tuple[str, ...] = ()
    templates: str | None = None
    notes: bool | None = None
    paper: str | None = None
    per_page: int | None = None
    tagged: bool | None = None
    max_items: int | None = None
    max_words: int | None = None
    agenda: bool | None = None
    steps: bool | None = None
    trust_templates: bool = False
    reference_pptx: str | None = None
    reference_docx: str | None = None
    allow_remote: bool = False


def resolve_render_options(config: Config, doc: Document, overrides: RenderOverrides | None = None) -> RenderOptions:
    """Defaults < config < the note's front matter < the command line."""
    given = overrides or RenderOverrides()
    slides = slide_settings(config.slides, doc).overridden(
        max_items=given.max_items, max_words=given.max_words, agenda=given.agenda, steps=given.steps
    )
    templates = given.templates or config.templates
    return RenderOptions(
        theme=given.theme or config.theme,
        css=given.css,
        templates=(templates,) if templates else (),
        notes=bool(given.notes) if given.notes is not None else False,
        paper=(given.paper or config.paper).lower(),
        per_page=given.per_page or 3,
        allow_html=config.allow_html,
        tagged=given.tagged if given.tagged is not None else True,
        slides=slides,
        trust_templates=given.trust_templates,
        reference_pptx=given.reference_pptx or config.reference_pptx,
        reference_docx=given.reference_docx or config.reference_docx,
        allow_remote=given.allow_remote,
    )


#: A stylesheet is a few kilobytes; one larger than this is refused (``--css /dev/zero`` reads nothing).
MAX_CSS_BYTES = 2 * 1024 * 1024


def user_css(options: RenderOptions) -> str:
    """The user's extra stylesheets (``--css``), read once for every output as every file is
    (``source.read_bytes``: a regular file, at most ``MAX_CSS_BYTES``); one clear error otherwise."""
    from confnotes.edges.source import read_bytes
    from confnotes.errors import NotesError

    parts: list[str] = []
    for path in options.css:
        try:
            parts.append(read_bytes(path, "stylesheet", MAX_CSS_BYTES).decode("utf-8"))
        except NotesError as exc:
            raise render_error(f"cannot read stylesheet: {exc.message}", path) from None
        except UnicodeDecodeError:
            raise render_error("cannot read stylesheet: not UTF-8 text", path) from None
    return "\n".join(parts)
