"""The site's search: each note's sections as documents of words, and one index for the whole site.

A note's build records, per section (and one for the note's title, speakers and opening), the
section's anchor on the note's page, its title and its distinct words (``note_documents``). The
index step joins them into ``_site/search/`` (``site_index``): the sorted words in parts of about
128 KB by their first letters, each word with the documents that hold it as base-36 gaps, and the
documents, a few thousand a file. The page's script (``site.js``) loads the parts a query needs by
``<script>`` elements — so search works from ``file://`` as well as from a server, and a query on a
10,000-note site loads a few of its hundreds of parts — looks words up by prefix with a binary
search, intersects their documents, and loads the titles of the page of results it shows.

Words are what ``words`` makes of a text, the same in Python and in ``site.js``: decomposed, marks
dropped, lower-cased, runs of letters and digits; Chinese, Japanese and Korean characters each a
word of their own (they are written without spaces).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from confnotes.model import Document, Entry
    from confnotes.render.options import RenderOptions

#: Each note's search documents, one file a note (``.confnotes-search/talk.md.<key>.json``), named
#: in the manifest with its size and hash, as its outline is.
SEARCH_FILES = ".confnotes-search"
#: A note indexes at most this many distinct words (over all its sections): a 20 MB note of random
#: words would otherwise make an index larger than its pages.
MAX_NOTE_WORDS = 20_000
#: Longer "words" (hashes, base64) are not looked for.
MAX_WORD = 60

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_WORD = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+")
_URL = re.compile(r"\]\([^)\s]*\)|<?https?://\S+")


#: Letters that are no letter and an accent in Unicode, but that a reader types without: Weiß as
#: weiss, Søren as soren, Łukasz as lukasz, Yıldız as yildiz (``site.js`` has the same table)
_LETTERS = str.maketrans({"ß": "ss", "ø": "o", "ł": "l", "đ": "d", "ı": "i", "æ": "ae", "œ": "oe", "þ": "th", "ð": "d", "ħ": "h"})


def folded(text: str) -> str:
    """``text`` decomposed, its marks dropped, lower-cased, the letters above spelt as typed."""
    return "".join(char for char in unicodedata.normalize("NFKD", text) if unicodedata.category(char) != "Mn").lower().translate(_LETTERS)


def words(text: str) -> list[str]:
    """The words of ``text`` as search sees them (``site.js`` does the same to a query)."""
    return [word for word in _WORD.findall(folded(text)) if len(word) <= MAX_WORD and word != "_"]


def note_documents(doc: Document, options: RenderOptions, base_dir: Path | None) -> list[list[str]]:
    """``[anchor, title, "word word …"]`` for the note (anchor ``""``: its title, speakers, event,
    tags and opening) and each of its sections (its title and what it holds above its subsections)."""
    from confnotes.model import Block, List, Node
    from confnotes.render.html import anchors, inline_renderer

    md, _ = inline_renderer(doc, options, base_dir)
    ids = anchors(doc, md.plain)
    meta = doc.meta
    place = [str(meta.extra.get(key) or "") for key in ("room", "track")]  # searchable: "hall a", "data ai"
    found: list[tuple[str, str, list[str]]] = [
        ("", md.plain(meta.title), [meta.title, *meta.speakers, meta.event or "", *meta.tags, *place])
    ]
    stack: list[tuple[Entry, int]] = [(entry, 0) for entry in reversed(doc.content)]
    while stack:  # depth-first, in source order; a section starts a document of its own
        entry, owner = stack.pop()
        if type(entry) is Node and entry.is_section:
            found.append((ids.get(id(entry), ""), md.plain(entry.title), [entry.title]))
            owner = len(found) - 1
        elif type(entry) is Node:
            found[owner][2].append(entry.title)
        elif type(entry) is Block and entry.kind not in ("note", "comment", "reference", "html"):
            found[owner][2].append(entry.text)
        inner: Iterable[Entry] = entry.items if type(entry) is List else entry.content if type(entry) is Node else ()
        stack.extend((child, owner) for child in reversed(tuple(inner)))
    seen: set[str] = set()  # the note's distinct words so far: a new one counts against MAX_NOTE_WORDS
    documents = []
    for anchor, title, texts in found:
        own: dict[str, None] = {}
        for text in texts:
            for word in words(_URL.sub(" ", text)):
                if word in seen or len(seen) < MAX_NOTE_WORDS:
                    seen.add(word)
                    own[word] = None
        documents.append([anchor, title, " ".join(own)])
    return documents


def recorded_documents(out_dir: Path, entry: dict[str, Any]) -> list[list[str]]:
    """A note's search documents, read from its file as its build recorded it (none when the file
    is missing or changed: the next build renders that note again)."""
    import json

    from confnotes.build.manifest import _recorded_pieces
    from confnotes.errors import NotesError

    record = entry.get("search")
    if not isinstance(record, dict):
        return []
    try:
        data = json.loads(b"".join(_recorded_pieces(out_dir, record["file"], record, f"the search words of {entry['rel']}")))
    except (NotesError, ValueError, KeyError):
        return []
    ok = isinstance(data, list) and all(isinstance(d, list) and len(d) == 3 and all(isinstance(p, str) for p in d) for d in data)
    return data if ok else []


#: Documents (sections) per file of the index (``_site/search/d-N.js``): a page of results loads
#: the few files that hold its sections, not every title of the site.
DOCS_PER_FILE = 2000
#: The index's files, in the site.
SEARCH_FOLDER = "_site/search"


_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
#: A file of words holds about this many bytes at most: one with more is split by the next letter
#: of its words (a word with a very long list of sections stays a file of its own). Loading a part
#: is what a reader waits for when a query starts a new word; 128 KB load in a few milliseconds.
PART_BYTES = 128_000


def shard_of(term: str) -> str:
    """The first key of the index's parts for ``term``: its first letter or digit (a part is split
    further by ``shard_keys``), else ``u-`` and the block of 256 code points of its first
    character (``site.js`` does the same)."""
    return term[0] if term[0] in _ALNUM else f"u-{ord(term[0]) >> 8:x}"


def shard_keys(terms: list[str], size: dict[str, int]) -> dict[str, list[str]]:
    """The index's parts: by a key each, the terms it holds (in ``terms``' order). A key is a
    beginning of its words (or ``u-…``, ``shard_of``); a part over ``PART_BYTES`` is split by the
    next letter or digit of its words, the words that end there (or go on with another character)
    staying at its key. A word is in the part of the longest key it begins with."""
    out: dict[str, list[str]] = {}

    def place(key: str, members: list[str]) -> None:
        if key.startswith("u-") or sum(size[t] for t in members) <= PART_BYTES:
            out[key] = members
            return
        deeper: dict[str, list[str]] = {}
        kept = []
        for term in members:
            if len(term) > len(key) and term[len(key)] in _ALNUM:
                deeper.setdefault(term[: len(key) + 1], []).append(term)
            else:
                kept.append(term)
        if kept:
            out[key] = kept
        for child, held in deeper.items():
            place(child, held)

    first: dict[str, list[str]] = {}
    for term in terms:
        first.setdefault(shard_of(term), []).append(term)
    for key, members in first.items():
        place(key, members)
    return out


def site_index(out_dir: Path, notes: list[dict[str, Any]], href: Any) -> dict[str, str]:
    """The site's search index for the notes (manifest entries, in the index's order), split so a
    query loads only what it needs (``site.js``), by its name in the site:

    - ``_site/search/index.js``: the files there are, and how many sections;
    - ``t-<key>.js``: the words that begin with ``key`` (``shard_keys``), sorted as JavaScript
      compares strings, and for each the sections that hold it and those whose title holds it, as
      base-36 gaps;
    - ``d-<n>.js``: ``DOCS_PER_FILE`` sections each — their note, anchor and title — and the title
      and page of each note they belong to.
    """
    from confnotes.markup.escape import strict_json

    listed: list[list[Any]] = []
    documents: list[list[Any]] = []
    postings: dict[str, list[int]] = {}
    titled: dict[str, list[int]] = {}
    for entry in notes:
        page = entry["outputs"].get("html")
        if not page:
            continue
        listed.append([entry["title"], href(page)])
        for anchor, title, text in recorded_documents(out_dir, entry):
            number = len(documents)
            documents.append([len(listed) - 1, anchor, title])
            for word in text.split(" "):
                if word:
                    postings.setdefault(word, []).append(number)
            for word in dict.fromkeys(words(title)):
                titled.setdefault(word, []).append(number)
    terms = sorted(postings, key=lambda term: term.encode("utf-16-be"))  # site.js bisects them as JavaScript compares
    gapped = {term: (_gaps(postings[term]), _gaps(titled.get(term, []))) for term in terms}
    shards = shard_keys(terms, {term: len(term) + sum(map(len, gapped[term])) + 8 for term in terms})

    def part(name: str, data: Any) -> str:
        return f"window.CONFNOTES_SEARCH_PART({strict_json(name)}," + strict_json(data, compact=True) + ");\n"

    files = {
        f"{SEARCH_FOLDER}/t-{key}.js": part(
            f"t-{key}", {"terms": held, "postings": [gapped[t][0] for t in held], "titles": [gapped[t][1] for t in held]}
        )
        for key, held in shards.items()
    }
    for first in range(0, len(documents), DOCS_PER_FILE):
        chunk = documents[first : first + DOCS_PER_FILE]
        own = {str(number): listed[number] for number in sorted({doc[0] for doc in chunk})}
        files[f"{SEARCH_FOLDER}/d-{first // DOCS_PER_FILE}.js"] = part(f"d-{first // DOCS_PER_FILE}", {"docs": chunk, "notes": own})
    meta = {"version": 2, "shards": sorted(shards), "docs": len(documents), "perFile": DOCS_PER_FILE, "notes": len(listed)}
    files[f"{SEARCH_FOLDER}/index.js"] = "window.CONFNOTES_SEARCH = " + strict_json(meta, compact=True) + ";\n"
    return files


def _gaps(numbers: list[int]) -> str:
    """Ascending numbers as base-36 gaps: ``[3, 5, 40]`` -> ``"3,2,z"`` (none: ``""``)."""
    out, last = [], 0
    for number in numbers:
        out.append(_base36(number - last))
        last = number
    return ",".join(out)


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, rest = divmod(number, 36)
        text = digits[rest] + text
        if not number:
            return text
