"""Citations as pandoc and Quarto users write them: ``[@key]``, ``[@a; @b, p. 3]``, ``[see @a, ch. 2]``
with front matter ``bibliography: refs.bib`` (BibTeX) or ``refs.json`` (CSL JSON), formatted by a
CSL style (citeproc-py; front matter ``csl: style.csl``, else Harvard, Cite Them Right).

``cited`` is the one place it happens: every output renders the note it returns — each citation
written as its style formats it, and a *References* section at the end listing what the note
cites — so the page, the PDF, the decks (a References slide), PPTX, Marp, Word and the outline all
agree. A key the bibliography lacks stays as written, and lint names it (CN212); so does a
bibliography that cannot be read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from confnotes.model import Block, Document, List, Node, Span

#: A citation group: brackets holding at least one ``@key`` (not a link: no ``](`` after it)
GROUP = re.compile(r"\[([^\[\]]*?-?@[A-Za-z0-9_][^\[\]]*)\](?![(\[:])")
_ITEM = re.compile(r"^(?P<prefix>.*?)(?P<suppress>-?)@(?P<key>[A-Za-z0-9_][\w:.#$%&+?<>~/-]*?)(?P<suffix>(?:,.*)?)$", re.S)
#: A locator's words, as pandoc reads them: the label CSL knows for each
_LOCATORS = {
    "p": "page", "pp": "page", "page": "page", "pages": "page",
    "ch": "chapter", "chap": "chapter", "chapter": "chapter", "chapters": "chapter",
    "sec": "section", "section": "section", "§": "section", "fig": "figure", "figure": "figure",
    "vol": "volume", "para": "paragraph", "l": "line", "line": "line",
}  # fmt: skip
#: A bibliography is a few hundred KB; a larger one is refused before it is parsed.
MAX_BIBLIOGRAPHY_BYTES = 8 * 1024 * 1024
#: What a bibliography's ``@string`` macros may grow it to, expanded: a bibliography whose macros
#: name each other over and over (a "macro bomb") is refused before it is parsed.
MAX_EXPANDED_CHARS = 4 * MAX_BIBLIOGRAPHY_BYTES
DEFAULT_STYLE = "harvard-cite-them-right"
#: Citations a note has formatted (a few milliseconds each); the rest stay as written, with a warning.
MAX_CITATIONS = 2_000
REFERENCES = "References"


@dataclass(frozen=True)
class Cited:
    key: str
    prefix: str = ""
    locator: tuple[str, str] | None = None  # (label, value)
    suppress: bool = False  # -@key: the year only


def groups(text: str) -> list[tuple[re.Match[str], list[Cited]]]:
    """Each citation group in ``text`` (outside code spans), with its items."""
    found = []
    for match in GROUP.finditer(text):
        if text.count("`", 0, match.start()) % 2:
            continue  # inside a code span
        items = [_item(part) for part in match.group(1).split(";")]
        if all(item is not None for item in items):
            found.append((match, [item for item in items if item is not None]))
    return found


def _item(part: str) -> Cited | None:
    match = _ITEM.match(part.strip())
    if match is None:
        return None
    suffix = match.group("suffix").lstrip(",").strip()
    locator = None
    if suffix:
        words = re.match(r"^([^\s\d.]+)\.?\s*(.+)$", suffix)
        label = _LOCATORS.get(words.group(1).lower()) if words else None
        locator = (label, words.group(2)) if words and label else ("page", suffix) if re.match(r"^[\d,–-]+$", suffix) else None
    return Cited(match.group("key"), match.group("prefix").strip(), locator, bool(match.group("suppress")))


@dataclass
class Bibliography:
    """A note's bibliography and style, read once; ``problems`` says what could not be read."""

    engine: Any = None
    keys: frozenset[str] = frozenset()
    problems: list[str] = field(default_factory=list)

    def cite(self, items: list[Cited]) -> str:
        from citeproc import Citation, CitationItem, Locator

        def item(cited: Cited) -> Any:
            given: dict[str, Any] = {}
            if cited.prefix:
                given["prefix"] = cited.prefix + " "
            if cited.locator:
                given["locator"] = Locator(*cited.locator)
            return CitationItem(cited.key.lower(), **given)

        citation = Citation([item(cited) for cited in items])
        self.engine.register(citation)
        return str(self.engine.cite(citation, lambda _item: None))

    def references(self) -> list[str]:
        self.engine.sort()
        return [str(entry) for entry in self.engine.bibliography()]


def bibliography(doc: Document, base_dir: Path | None) -> Bibliography | None:
    """The note's bibliography (front matter ``bibliography:``), None when it names none."""
    named = doc.meta.extra.get("bibliography")
    if not named:
        return None
    names = [str(name) for name in (named if isinstance(named, list) else [named])]
    found = Bibliography()
    from confnotes.edges.extras import missing

    if (line := missing("citeproc", "formatting citations")) is not None:  # the citations stay as written
        found.problems.append(line)
        return found
    sources = []
    for name in names:
        source = _source(name, base_dir, found.problems)
        if source is not None:
            sources.append(source)
    if not sources:
        return found
    import warnings

    from citeproc import CitationStylesBibliography, formatter

    merged = sources[0]
    for source in sources[1:]:
        merged.update(source)
    style = _style(doc, base_dir, found.problems)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # citeproc warns of fields it does not read
        found.engine = CitationStylesBibliography(style, merged, formatter.plain)
    found.keys = frozenset(str(key).lower() for key in merged)
    return found


def _read(name: str, base_dir: Path | None, what: str, problems: list[str]) -> bytes | None:
    from confnotes.edges.images import locate
    from confnotes.edges.source import read_bytes
    from confnotes.errors import NotesError

    path, why = locate(name, base_dir)
    if path is None:
        problems.append((why or f"image {name} not found").replace("image ", f"{what} ", 1))
        return None
    try:
        return read_bytes(str(path), what, MAX_BIBLIOGRAPHY_BYTES)
    except NotesError as exc:
        problems.append(f"{what} {name}: {exc.message}")
        return None


def _source(name: str, base_dir: Path | None, problems: list[str]) -> Any:
    """A BibTeX (``.bib``) or CSL JSON (``.json``) bibliography, or None and why in ``problems``."""
    import io
    import json
    import warnings

    data = _read(name, base_dir, "bibliography", problems)
    if data is None:
        return None
    try:
        text = data.decode("utf-8-sig")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if name.lower().endswith(".json"):
                from citeproc.source.json import CiteProcJSON

                return CiteProcJSON(json.loads(text))
            from citeproc.source.bibtex import BibTeX

            if (size := expanded_size(text)) > MAX_EXPANDED_CHARS:
                problems.append(
                    f"bibliography {name} not read: its @string macros expand to {size:,} characters, more than "
                    f"{MAX_EXPANDED_CHARS:,} (the limit for one bibliography)"
                )
                return None
            return BibTeX(io.StringIO(text))
    except RecursionError:  # a CSL JSON of 100,000 nested lists, or braces as deep
        problems.append(f"bibliography {name} cannot be read: it nests deeper than a bibliography does")
    except Exception as exc:  # noqa: BLE001 - the parsers raise many kinds for a broken file
        problems.append(f"bibliography {name} cannot be read: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
        return None


_STRING = re.compile(r"@string\s*[{(]\s*([A-Za-z_][\w:.+-]*)\s*=", re.I)
#: a macro named in a value: after ``=`` or ``#``, a bare word (quoted and braced text start otherwise)
_NAMED = re.compile(r"[=#]\s*([A-Za-z_][\w:.+-]*)")


def expanded_size(text: str) -> int:
    """How many characters a BibTeX file grows to once its ``@string`` macros are expanded, counted
    without expanding them: a macro's size is its own text's plus that of each macro it names (a
    1 KB file of 29 macros, each naming the one before four times, would grow to 10^17 characters)."""
    sizes: dict[str, int] = {}
    for match in _STRING.finditer(text):
        value = _value(text, match.end())
        sizes[match.group(1).lower()] = len(value) + sum(sizes.get(name.lower(), 0) for name in _NAMED.findall("=" + value))
    if not sizes:
        return len(text)
    return len(text) + sum(sizes.get(name.lower(), 0) for name in _NAMED.findall(text))


def _value(text: str, start: int) -> str:
    """A ``@string``'s value: from ``start`` to the brace or parenthesis that closes its entry."""
    depth = 0
    for index in range(start, min(len(text), start + MAX_BIBLIOGRAPHY_BYTES)):
        char = text[index]
        if char in "{(":
            depth += 1
        elif char in "})":
            if depth == 0:
                return text[start:index]
            depth -= 1
    return text[start:]


def _style(doc: Document, base_dir: Path | None, problems: list[str]) -> Any:
    from citeproc import CitationStylesStyle

    named = doc.meta.extra.get("csl")
    if named:
        data = _read(str(named), base_dir, "citation style", problems)
        if data is not None:
            import io

            try:
                style = CitationStylesStyle(io.BytesIO(data), validate=False)
            except Exception as exc:  # noqa: BLE001
                problems.append(f"citation style {named} cannot be read: {str(exc) or type(exc).__name__}")
            else:
                if getattr(style.root, "citation", None) is not None:
                    return style
                problems.append(
                    f"citation style {named} has no <citation> (a dependent style names its parent: use that style's file); "
                    "the default style is used"
                )
    return CitationStylesStyle(DEFAULT_STYLE, validate=False)


def cited(doc: Document, base_dir: Path | None) -> tuple[Document, list[str]]:
    """``doc`` with its citations formatted and its references listed at the end, and the warnings
    (a bibliography that cannot be read, keys it lacks); ``doc`` itself when it cites nothing."""
    if "bibliography" not in doc.meta.extra:
        return doc, []
    found = bibliography(doc, base_dir)
    if found is None:
        return doc, []
    warnings = list(found.problems)
    if found.engine is None:
        return doc, warnings
    unknown: list[str] = []
    done = [0]

    def text(value: str) -> str:
        if "@" not in value:
            return value
        out, last = [], 0
        for match, items in groups(value):
            if done[0] >= MAX_CITATIONS:
                break
            done[0] += 1
            missing = [item.key for item in items if item.key.lower() not in found.keys]
            if missing:
                unknown.extend(key for key in missing if key not in unknown)
                continue
            out += [value[last : match.start()], _escaped(found.cite(items))]
            last = match.end()
        return "".join(out) + value[last:]

    content = _mapped(doc.content, text)
    warnings += [f"citation @{key} is not in the bibliography; shown as written" for key in unknown]
    if done[0] >= MAX_CITATIONS:
        warnings.append(f"the note's first {MAX_CITATIONS:,} citations are formatted; the rest are shown as written")
    references = found.references()
    if references:
        end = Span(doc.line_count + 1, doc.line_count + 1)
        items = tuple(Node("item", _escaped(entry), end, "list", 1) for entry in references)
        content = (*content, Node("section", REFERENCES, end, "atx", 2, content=(List(items, end, origin="list"),)))
    return replace(doc, content=content), warnings


def _escaped(text: str) -> str:
    """Formatted text as Markdown that shows it as it is."""
    return re.sub(r"([\\`*_\[\]<>#|$~])", r"\\\1", text)


def _mapped(content: tuple[Any, ...], text: Any) -> tuple[Any, ...]:
    out: list[Any] = []
    for entry in content:
        if type(entry) is Node:
            out.append(replace(entry, title=text(entry.title), content=_mapped(entry.content, text)))
        elif type(entry) is List:
            out.append(replace(entry, items=_mapped(entry.items, text)))
        elif type(entry) is Block and entry.kind not in ("code", "math", "html", "comment", "reference"):
            out.append(replace(entry, text=text(entry.text)))
        else:
            out.append(entry)
    return tuple(out)
