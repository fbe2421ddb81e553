"""What a note is: front matter, the title and the rest of ``Meta`` (the title by the order of evidence of
docs/design.md, "Recovering pasted notes")."""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import PurePath
from typing import Any

from confnotes.errors import input_error
from confnotes.markup.escape import display_text
from confnotes.model import Block, Document, Entry, List, Meta, Node, Span
from confnotes.parse import recover
from confnotes.parse.blocks import Top
from confnotes.parse.lines import span_of
from confnotes.parse.markdown import plain_text
from confnotes.parse.recover import is_title_case
from confnotes.parse.state import ParseState

#: front matter keys the model reads into Meta (an editor completes them; the rest stay in Meta.extra)
KNOWN_META = {"title", "event", "date", "speakers", "speaker", "author", "authors", "tags", "lang", "source_name", "kind"}
_KEY_LINE = re.compile(r"^[A-Za-z_][\w -]*:(?:\s|$)", re.MULTILINE)


class NotFrontMatter(Exception):
    """A ``---`` block at the top that is not a YAML mapping: the note's text, not its meta."""


class RefusedValue(Exception):
    """A YAML mapping (front matter, then) holding a value confnotes refuses: ``error`` says where."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def read_front_matter(state: ParseState, token: Any) -> tuple[dict[str, Any], Span]:
    """The front matter's mapping; raises ``NotFrontMatter`` when the block is plain text.

    Every value is checked here, the one place front matter is read: plain data only (text, whole
    numbers, finite numbers, true/false, null, dates, lists and mappings whose keys are text, at any
    depth); a date that is no date, a number too long to print, ``.nan``/``.inf`` or binary data is
    one error line at its place."""
    a, b = token.map
    span = Span(a + 1, b)
    if not token.content.strip():
        return {}, span
    import yaml

    try:
        # plain data only: an alias (*name) can expand a few hundred bytes into gigabytes
        for event in yaml.parse(token.content, Loader=front_matter_loader()):
            if isinstance(event, yaml.AliasEvent):
                line = event.start_mark.line + a + 2 if event.start_mark is not None else a + 1
                raise input_error("front matter uses a YAML alias (*name); write the value out instead", state.path, line, 1)
        data = _load_checked(token.content)
    except (yaml.YAMLError, RefusedValue) as caught:
        exc = caught.error if isinstance(caught, RefusedValue) else caught
        if not isinstance(caught, RefusedValue) and not _KEY_LINE.search(token.content):
            raise NotFrontMatter from None  # no "key:" line: text between two rules, not broken YAML
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or "invalid YAML"
        line = mark.line + 2 if mark is not None else a + 1
        col = mark.column + 1 if mark is not None else 1
        if isinstance(exc, yaml.reader.ReaderError):  # a control character YAML cannot hold raw
            before = token.content[: exc.position]
            line, col = before.count("\n") + 2, len(before) - before.rfind("\n")
            problem = f"YAML cannot hold U+{exc.character:04X} as it is; write it as \\u{exc.character:04x} in double quotes"
        raise input_error(f"front matter: {problem}", state.path, line, col) from None
    if data is None:
        return {}, span
    return data, span


#: front matter keys whose value is one piece of text (a number or a date is read as its text)
_TEXT_KEYS = frozenset(("title", "event", "date", "lang", "kind", "source_name"))
#: front matter keys whose value is a list of texts (or one text)
_LIST_KEYS = frozenset(("speakers", "speaker", "author", "authors", "tags"))
_YAML = "tag:yaml.org,2002:"
#: how an error line names a YAML tag (a key must be text: "keys must be words, not a date")
_TAG_WORDS = {"int": "a number", "float": "a number", "bool": "true/false", "null": "null", "timestamp": "a date"}


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def _load_checked(content: str) -> dict[str, Any] | None:
    """The YAML mapping of ``content`` (None when empty), its known keys' value shapes checked on
    the way. A YAML error is the text's (it may be no front matter at all); a document that is not
    a mapping is ``NotFrontMatter``; a mapping with a value confnotes refuses is ``RefusedValue``."""
    from yaml import YAMLError
    from yaml.constructor import ConstructorError
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    loader = front_matter_loader()(content)
    try:
        node = loader.get_single_node()
        if node is None or isinstance(node, ScalarNode) and node.tag == _YAML + "null":
            return None
        if not isinstance(node, MappingNode):
            raise NotFrontMatter
        try:
            loader.flatten_mapping(node)
            for key_node, value_node in node.value:
                if not isinstance(key_node, ScalarNode):
                    continue  # refused by the constructor, at the key's place
                if key_node.value in _TEXT_KEYS and not isinstance(value_node, ScalarNode):
                    kind = "a list" if isinstance(value_node, SequenceNode) else "a mapping"
                    raise ConstructorError(None, None, f"'{key_node.value}' must be text, not {kind}", value_node.start_mark)
                if key_node.value in _LIST_KEYS and isinstance(value_node, SequenceNode):
                    for item in value_node.value:
                        if not isinstance(item, ScalarNode):
                            raise ConstructorError(None, None, f"'{key_node.value}' must list texts, one an item", item.start_mark)
            data = loader.construct_document(node)
        except YAMLError as exc:
            raise RefusedValue(exc) from None
        assert isinstance(data, dict)
        return data
    finally:
        loader.dispose()


def _refusal(problem: str, node: Any) -> Exception:
    from yaml.constructor import ConstructorError

    return ConstructorError(None, None, problem, node.start_mark)


def _why_not(exc: Exception, node: Any) -> str:
    """What the error line adds to "'x' is not a date": the date's own problem, or the digit limit."""
    if "digits" in str(exc):  # Python converts at most 4,300 digits between text and int
        return " (longer than the 4,300 digits Python reads)"
    if node.tag == _YAML + "timestamp" and isinstance(exc, ValueError):
        return f" ({_clip(str(exc), 60)})"
    return ""


def _checked(construct: Any, what: str) -> Any:
    """PyYAML's constructor ``construct``, its failures (a ``ValueError`` for 2024-13-45, a
    ``KeyError`` for ``!!bool maybe``) and non-finite numbers each turned into one refusal."""

    def constructor(loader: Any, node: Any) -> Any:
        written = _clip(str(node.value))
        try:
            value = construct(loader, node)
            if isinstance(value, int):
                str(value)  # Python prints at most 4,300 digits; a longer number could never be shown
        except (ValueError, OverflowError, KeyError, AttributeError, TypeError, IndexError) as exc:
            raise _refusal(f"'{written}' is not {what}{_why_not(exc, node)}; quote it to keep it as text", node) from None
        if isinstance(value, float) and not math.isfinite(value):
            raise _refusal(f"'{written}' is not a finite number; quote it to keep it as text", node)
        return value

    return constructor


def _refused(tag: str) -> Any:
    def constructor(_loader: Any, node: Any) -> Any:
        raise _refusal(f"!!{tag} values are not read; write text, numbers, dates, lists or mappings", node)

    return constructor


def _construct_mapping(loader: Any, node: Any, deep: bool = False) -> Any:
    """SafeConstructor's mapping, refusing a key that is not text (a number, a date, a list) at its place."""
    from yaml.constructor import BaseConstructor
    from yaml.nodes import MappingNode, ScalarNode

    if isinstance(node, MappingNode):
        loader.flatten_mapping(node)
    for key_node, _ in node.value:
        if key_node.tag != _YAML + "str":
            tag = key_node.tag.rsplit(":", 1)[-1]
            what = _TAG_WORDS.get(tag, "a list" if tag == "seq" else "a mapping" if tag == "map" else f"!!{tag}")
            shown = f" '{_clip(key_node.value)}'" if isinstance(key_node, ScalarNode) else ""
            raise _refusal(f"keys must be words, not {what}{shown} (quote it)", key_node)
    return BaseConstructor.construct_mapping(loader, node, deep=deep)


@lru_cache(maxsize=1)
def front_matter_loader() -> Any:
    """PyYAML's safe loader (libyaml's when installed) whose constructors check what they build:
    each problem is a ``ConstructorError`` at the value's place, never a ``ValueError`` from deep
    inside PyYAML (``date: 2024-13-45``) or a value no output can write (``.nan``, a key that is a
    date, ``!!binary``)."""
    import yaml
    from yaml.constructor import SafeConstructor

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader: Any = type("FrontMatterLoader", (base,), {"construct_mapping": _construct_mapping})
    loader.yaml_constructors = dict(base.yaml_constructors)
    for tag, construct, what in (
        ("int", SafeConstructor.construct_yaml_int, "a whole number confnotes can read"),
        ("float", SafeConstructor.construct_yaml_float, "a number"),
        ("timestamp", SafeConstructor.construct_yaml_timestamp, "a date"),
        ("bool", SafeConstructor.construct_yaml_bool, "true or false"),
    ):
        loader.add_constructor(_YAML + tag, _checked(construct, what))
    for tag in ("binary", "set", "omap", "pairs"):
        loader.add_constructor(_YAML + tag, _refused(tag))
    return loader


#: A paragraph that only shows pictures: a banner (``![banner](banner.png)``) or a row of badges
#: (``[![build](badge.svg)](https://ci.example.org)``), as READMEs and blog posts open.
_DECORATION = re.compile(r"^\s*(?:\[?!\[(?:[^\]\\]|\\.)*\]\(\s*<?[^)\s>]*>?(?:\s+\"[^\"]*\")?\s*\)(?:\]\([^)\s]*\))?\s*)+$")


def _title_heading(content: list[Top], headings: list[Top]) -> Top | None:
    """The heading that opens the note and is its title: the one ``#`` heading; the first of several
    ``#`` headings when it heads nothing but the next; an opening heading alone at the top heading
    level; or one that names the notes over peers that do not."""
    leading = 0
    while leading < len(content) - 1 and content[leading].kind == "paragraph" and _DECORATION.match(content[leading].content):
        leading += 1  # a banner picture or a row of badges above the title heading
    opening = content[leading] if content and content[leading].kind == "heading" else None
    if opening is None:
        return None
    content = content[leading:]
    level_one = [top for top in headings if top.level == 1]
    if len(level_one) == 1 and opening is level_one[0]:
        return opening
    if len(level_one) > 1 and opening is level_one[0] and len(content) > 1 and content[1].kind == "heading":
        return opening
    if not level_one and sum(1 for top in headings if top.level <= opening.level) == 1:
        return opening
    return opening if _names_the_notes(opening, headings) else None


def _names_the_notes(opening: Top, headings: list[Top]) -> bool:
    """``# KubeCon EU 2026 notes`` over ``# Day 1`` and ``# Day 2``: a heading that opens the note and
    names it (a year, *notes*, *recap*…) while no other heading of its level or above does; where
    its peers name things the same way (``# Day 1`` … ``# Day 2``) they are all sections."""
    if not recover.names_notes(opening.content):
        return False
    return not any(top is not opening and top.level <= opening.level and recover.names_notes(top.content) for top in headings)


def find_title(state: ParseState, blocks: list[Top], fm: dict[str, Any]) -> tuple[str, str, Span | None, Top | None]:
    """``(title, origin, span, the block it came from)`` — the first rule that applies wins:
    front matter › the one ``#`` heading, when it opens the note (one below text or lists is a section:
    a title taken from there would print above what it follows) › the first of several ``#`` headings when it heads only
    the next › an opening heading alone at the top heading level › the subject of a pasted e-mail ›
    a bare line opening a pasted note (not heading a list as the sections do) › a first line that
    names the notes (a year, "notes", "recap"…) › the lede's emphasised phrase › the file's stem."""
    lines = state.lines
    headings = [top for top in blocks if top.kind == "heading"]
    level_one = [top for top in headings if top.level == 1]
    if isinstance(fm.get("title"), str) and fm["title"].strip():
        # a "# Title" that repeats the front matter's title is the title heading, not a section over the note
        if len(level_one) == 1 and recover.same_title(level_one[0].content, fm["title"]):
            top = level_one[0]
            return top.content, "heading", span_of(lines, top.a, top.b), top
        return fm["title"].strip(), "front-matter", None, None
    content = [top for top in blocks if top.role not in ("filename", "skip", "email") and top.kind not in ("html_block", "reference")]
    heading = _title_heading(content, headings)
    if heading is not None:
        return heading.content, "heading", span_of(lines, heading.a, heading.b), heading
    email = next((top for top in blocks if top.role == "email"), None)
    if email is not None:
        headers = recover.email_headers(email.content) or {}
        state.recovered.add("email-headers")
        return headers["subject"], "lede", span_of(lines, email.a, email.b), None
    if content and content[0].role == "heading" and _opens_as_title(content):
        top = content[0]
        state.recovered.add("inferred-title")
        return top.content, "inferred", span_of(lines, top.a, top.b), top
    if len(content) > 1 and content[0].kind == "paragraph" and not content[0].role and content[0].b - content[0].a == 1:
        top = content[0]
        if recover.is_note_title(top.content) and not recover.is_label_line(top.content):
            state.recovered.add("inferred-title")  # the first line of a paste names the notes
            return top.content.strip(), "inferred", span_of(lines, top.a, top.b), top
    for top in blocks:
        if top.kind == "heading" or top.role in ("heading", "bold-heading"):
            break  # the lede ends at the first section
        if top.kind == "paragraph" and not top.role:
            phrase = recover.lede_title(top.content.split("\n")[-1] if top.content else "")
            if phrase:
                state.recovered.add("lede-title")
                return phrase, "lede", span_of(lines, top.a, top.b), None
            break
    # a file name that is not UTF-8 names the note with U+FFFD: a title is text every output can hold
    stem = display_text(PurePath(state.path).stem) if not state.path.startswith("<") else "Untitled"
    return stem, "stem", None, None


_LIST_KINDS = frozenset(("bullet_list", "ordered_list", "glyph"))


def _opens_as_title(content: list[Top]) -> bool:
    """A bare line that opens a pasted note is its title — unless it heads a list just as the
    sections after it do (then it is the first of them)."""
    rest = content[1:]
    following = next((index for index, top in enumerate(rest) if top.kind == "heading" or top.role == "heading"), None)
    if following is None:
        return True
    return not any(top.kind in _LIST_KINDS for top in rest[:following])


def _text_of(fm: dict[str, Any], key: str) -> str | None:
    value = fm.get(key)
    return None if value is None else str(value).strip()


def _list_of(fm: dict[str, Any], *keys: str) -> tuple[str, ...]:
    """A list-valued key (a YAML list or a comma-separated string); empty entries add nothing."""
    for key in keys:
        value = fm.get(key)
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            return tuple(str(v).strip() for v in value if v is not None and str(v).strip())
        return tuple(part.strip() for part in str(value).split(",") if part.strip())
    return ()


def build_meta(
    fm: dict[str, Any],
    fm_span: Span | None,
    fm_text: str | None,
    title: tuple[str, str, Span | None, int],
    source_name: Any,
    source_span: Span | None,
    content: list[Entry],
    default_lang: str = "en",
) -> Meta:
    speakers = _list_of(fm, "speakers", "speaker", "authors", "author")
    kind = _text_of(fm, "kind") or infer_kind(content, title[0], bool(_list_of(fm, "speakers", "speaker")))
    extra = {key: value for key, value in fm.items() if key not in KNOWN_META}
    return Meta(
        title=title[0],
        title_origin=title[1],
        title_span=title[2],
        title_level=title[3],
        event=_text_of(fm, "event"),
        date=_text_of(fm, "date"),
        speakers=speakers,
        tags=_list_of(fm, "tags"),
        lang=_text_of(fm, "lang") or default_lang,
        kind=kind,
        source_name=None if source_name is None else str(source_name),
        source_name_span=source_span,
        front_matter=fm_text,
        front_matter_span=fm_span,
        extra=extra,
        title_plain=plain_text(title[0]),
    )


#: Label lines that say a note is about a talk (``Speaker: Priya Raman``), not a list of readings.
_TALK_LABELS = frozenset(
    ("speaker", "speakers", "presenter", "presenters", "host", "hosts", "moderator", "panelists", "session", "track", "room")
)


#: Words of prose (links and URLs aside) that make a paragraph an entry's annotation, not a link to it.
_ANNOTATION_WORDS = 8
_LINK_OR_URL = re.compile(r"!?\[([^\]]*)\]\([^)]*\)|<[a-z][\w+.-]*:[^>]*>|\b[a-z][\w+.-]*://\S+", re.IGNORECASE)


def is_annotation(text: str) -> bool:
    """Whether a paragraph says something about what it follows: prose, not a bare link or a few words."""
    return len(_LINK_OR_URL.sub(" ", text).split()) >= _ANNOTATION_WORDS


def infer_kind(content: list[Entry], title: str = "", has_speakers: bool = False) -> str:
    """A reading list: several sections and nothing else, none with lists or subsections, each at
    most one paragraph (its annotation), and most of them annotated with prose (a talk page of
    ``Slides`` / ``Video`` / ``Code`` sections holding a link each is notes). A note that says it
    is about a talk (speakers in its front matter, a ``Speaker:`` or ``Room:`` line before its first
    section, a ``Talk: …`` or ``Keynote: …`` title) is notes, whatever its sections hold."""
    sections = [entry for entry in content if type(entry) is Node]
    if len(sections) < 3 or any(type(entry) is List for entry in content):
        return "notes"
    if has_speakers or _about_a_talk(content, title):
        return "notes"
    for section in sections:
        if section.sections or section.notes or len(section.body) + len(section.lists) > 1:
            return "notes"
        if section.body and section.body[0].kind != "paragraph":
            return "notes"
    if any(lst.ordered for section in sections for lst in section.lists):
        return "notes"  # numbered points are a talk's, not an entry's annotation
    prose = sum(1 for section in sections if section.body and is_annotation(section.body[0].text))
    annotated = sum(1 for section in sections if _annotated(section))
    works = sum(1 for section in sections if names_a_work(section.title))
    # most entries annotated, most in prose (bullets annotate one entry among them), most naming a work
    return "reading-list" if annotated * 2 > len(sections) and prose * 2 >= len(sections) and works * 2 > len(sections) else "notes"


def _annotated(section: Node) -> bool:
    """An entry says something about the work it names: a paragraph of prose, or bullets that add
    up to one (``- tiered retrieval narrows the pool``)."""
    if section.body:
        return is_annotation(section.body[0].text)
    words = " ".join(item.title for lst in section.lists for item in lst.items)
    return bool(section.lists) and is_annotation(words)


#: Headings that name a part of a talk's notes, not a work one reads.
_TALK_PART = re.compile(
    r"^(?:q ?& ?a|questions|takeaways?|key takeaways|summary|demo|intro(?:duction)?|motivation|background|"
    r"results?|resources|links|references|next steps|conclusions?|wrap[- ]up|agenda|overview)$",
    re.IGNORECASE,
)


def names_a_work(title: str) -> bool:
    """Whether a heading names something one reads (a paper, a post, a book): a link, or a title in
    title case of two or more longer words (``RAG at Planet Scale``); a sentence-like topic (``What
    we learned``) or a talk's part (``Takeaways``) is not one."""
    plain = plain_text(title).strip()
    if _LINK_OR_URL.search(title) is not None:
        return True
    if _TALK_PART.match(plain.rstrip(":")):
        return False
    longer = [word for word in re.findall(r"[^\W\d_][\w'-]*", plain) if len(word) > 3]
    return len(longer) >= 2 and is_title_case(plain)


def _about_a_talk(content: list[Entry], title: str) -> bool:
    if recover.is_session_line(title):
        return True
    for entry in content:
        if type(entry) is Node:
            return False
        if type(entry) is Block and entry.kind == "paragraph":
            for line in entry.text.split("\n"):
                label = recover.split_label(line.strip())
                if recover.is_session_line(line) or label is not None and label.strip("*_ ").casefold() in _TALK_LABELS:
                    return True
    return False


def front_matter_line(doc: Document, key: str) -> int | None:
    """The line of a top-level front matter key (for error messages)."""
    span = doc.meta.front_matter_span
    if span is None or doc.meta.front_matter is None:
        return None
    pattern = re.compile(rf"^{re.escape(key)}\s*:")
    for offset, line in enumerate(doc.meta.front_matter.split("\n")):
        if pattern.match(line):
            return span.start + offset + (0 if doc.meta.front_matter.startswith("---") else 1)
    return span.start
