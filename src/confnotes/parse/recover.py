"""Recovering structure from notes pasted out of a chat window, Docs or Word.

Each function is one rule of docs/design.md, "Recovering pasted notes"; all are pure and
work on single lines or short strings, so the builder stays linear.
"""

from __future__ import annotations

import re

from confnotes.model import Block, Node

#: Characters that start a bullet when followed by a space (``·`` and ``§`` are Word's plain-text
#: bullets, as are ``o`` lines, handled apart because ``o`` is also a word; U+F0B7, U+F0A7, U+F0D8
#: and U+F076 are the Symbol and Wingdings bullets Word's lists keep when pasted through RTF).
BULLET_GLYPHS = "•◦▪▫‣⁃●○■□➢➤–—·§\uf0b7\uf0a7\uf0d8\uf076"
_GLYPH_LINE = re.compile(r"^([ \t]*)([" + BULLET_GLYPHS + r"])[ \t]+(\S.*)?$")
_GLYPH_EMPTY = re.compile(r"^([ \t]*)([" + BULLET_GLYPHS + r"])[ \t]*$")
#: Word's second-level bullet pasted as text: a lone ``o`` then a space (or tab) then text.
_O_LINE = re.compile(r"^([ \t]*)(o)[ \t]+(\S.*)$")
_FILENAME = re.compile(
    r"^[\w][\w .@()+-]*\.(?:md|markdown|mdown|txt|text|docx?|odt|rtf|pdf|html?|pages|key|pptx?)$",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^([^:\s`\[\]()<>*_][^:`\[\]<>\n]{0,58}?):(?:[ \t]+|$)", re.MULTILINE)
_NOTE_PARAGRAPH = re.compile(r"^(?:speaker[ -]?)?notes?:(?:\s|$)", re.IGNORECASE)
_EMPHASIS = re.compile(r"\*\*(?P<a>[^*\n]+?)\*\*|__(?P<b>[^_\n]+?)__|\*(?P<c>[^*\n]+?)\*|_(?P<d>[^_\n]+?)_")
_BOLD_LABEL = re.compile(r"^(\*\*|__|\*|_)([^*_:`\[\]<>\n]{1,58}?)(?::\1|\1:)(?:[ \t]+|$)")
_HEADING_END = ".,;:!?…"
_QUOTE_START = ('"', "“", "”", "‘", "'", "«", "„", ">")
_LONE_LINK = re.compile(r"^(?:\[[^\]]*\]\([^)]*\)|<[^>\s]+>|\S+://\S+|\S+@\S+\.\w+)$")
_CLOCK_END = re.compile(r"\b\d{1,2}[:.]\d{2}(?:\s*[AaPp]\.?[Mm]\.?)?$")
#: Code a line reads as: a call, an assignment, a snake_case or dotted identifier, braces or semicolons.
_CODE_LIKE = re.compile(r"\w\(.*\)|(?<![<>!=])=(?!=)|\b[a-z0-9]+_[a-z0-9_]+\b|\b\w+\.\w+\(|[{};]|^\$ ")
_LINK_TITLE = re.compile(r"^\[((?:[^\]\\]|\\.)+)\]\([^)\s]+(?:\s+\"[^\"]*\")?\)$")
_BOLD_POINT = re.compile(r"^(\*\*|__)(\d{1,9})([.)])[ \t]+(\S.*?)\1$")
_BOLD_LINE = re.compile(r"^(\*\*|__)(?=\S)([^*_\n]+?)(?<=\S)\1$")
#: Words that make ``Word: text`` a label line (``Speaker: Priya Raman``) rather than a title with a colon.
LABEL_WORDS = frozenset(
    (
        "speaker",
        "speakers",
        "presenter",
        "presenters",
        "host",
        "hosts",
        "moderator",
        "panelists",
        "author",
        "authors",
        "by",
        "slides",
        "deck",
        "video",
        "recording",
        "blog",
        "post",
        "link",
        "links",
        "website",
        "site",
        "repo",
        "code",
        "github",
        "venue",
        "room",
        "location",
        "where",
        "date",
        "when",
        "time",
        "track",
        "session",
        "talk",
        "event",
        "level",
        "audience",
        "tags",
        "tag",
        "topic",
        "topics",
        "who",
        "company",
        "org",
        "organisation",
        "organization",
        "twitter",
        "mastodon",
        "email",
        "contact",
        "source",
        "paper",
        "duration",
        "format",
        "language",
    )
)
#: Words that open a line naming a session of a conference (``Talk: Incident Command at Scale``).
SESSION_WORDS = (
    "talk",
    "keynote",
    "session",
    "panel",
    "workshop",
    "tutorial",
    "lightning talk",
    "fireside chat",
    "opening keynote",
    "closing keynote",
)
_SESSION = re.compile(
    r"^(?:\*\*|__)?(?:" + "|".join(SESSION_WORDS) + r")(?:[ \t]+#?\d{1,2}[a-z]?)?(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]+(\S.*)$",
    re.IGNORECASE,
)
#: Any line that names a session before its colon, ``Talk 3 (room B): …`` included (an import's lede ends there).
_SESSION_START = re.compile(r"^\s*(?:\*\*|__)?(?:" + "|".join(SESSION_WORDS) + r")\b[^:]{0,20}:", re.IGNORECASE)
#: Header lines of an e-mail pasted as notes.
_EMAIL_HEADER = re.compile(r"^(subject|from|to|cc|date|sent)[ \t]*:[ \t]*(\S.*)$", re.IGNORECASE)
MAX_HEADING_WORDS = 14
DEFAULT_MAX_HEADING = 100
#: A shell command typed as a line of notes: a well-known program's name first, or an option
#: (``-n``, ``--all``) or a path among its words.
_COMMANDS = (
    "kubectl|docker|podman|git|npm|npx|yarn|pnpm|pip|pipx|uv|python3?|node|go|cargo|rustup|make|terraform|helm|aws|"
    "gcloud|az|curl|wget|ssh|scp|cd|ls|cat|grep|sed|awk|sudo|apt|apt-get|brew|systemctl|journalctl|psql|mysql|redis-cli|"
    "kind|minikube|k9s|istioctl|vault|consul|nomad|ansible|ansible-playbook|mvn|gradle|dotnet|java|ruby|gem|bundle|rails|"
    "php|composer|flux|argocd|kustomize|skaffold|tilt|gh|jq|yq|openssl|nc|dig|ping|top|htop|ps|kill|chmod|chown|mkdir|rm|cp|mv"
)
_COMMAND_LINE = re.compile(rf"^(?:\$ )?(?:{_COMMANDS})(?: +\S+)+$|(?:^| )--?[a-zA-Z][\w-]*(?: |=|$)|(?:^| )\.{{0,2}}/[\w.-]+/")
#: The words a sentence of notes starts with ("We moved to Kafka last year") that a heading does not
#: (articles are left out: "The state of the art" heads sections).
_SENTENCE_START = frozenset(
    ("i", "we", "you", "he", "she", "they", "it", "this", "that", "these", "those", "there", "my", "our", "their", "his", "her")
    + ("its", "and", "but", "so", "then", "also", "if", "when", "because", "although", "while")
)


def tab_width(text: str) -> int:
    """Column width of leading whitespace, tabs to multiples of 4 as CommonMark counts them."""
    width = 0
    for char in text:
        if char == " ":
            width += 1
        elif char == "\t":
            width += 4 - width % 4
        else:
            break
    return width


_GLYPH_SET = frozenset(BULLET_GLYPHS)
#: Where a glyph stands in the bullet cycles of Word (· o §), Google Docs (● ○ ■) and most editors
#: (• ◦ ▪): pasted without indentation, the glyph is all that says how deep a bullet is.
GLYPH_DEPTH = {"·": 0, "o": 1, "§": 2, "●": 0, "○": 1, "■": 2, "•": 0, "◦": 1, "▪": 2, "\uf0b7": 0, "\uf0a7": 2}


def may_have_glyphs(text: str) -> bool:
    """Cheap pre-check: could any line of ``text`` be a pasted bullet?"""
    return any(glyph in text for glyph in BULLET_GLYPHS)


def glyph_bullet(line: str) -> tuple[int, str, str] | None:
    """``(indent, glyph, text)`` when ``line`` is a pasted bullet such as ``   • Design…``."""
    stripped = line.lstrip(" \t")
    if not stripped or stripped[0] not in _GLYPH_SET:
        if stripped[:1] == "o" and len(stripped) > 2 and stripped[1] in " \t":
            match = _O_LINE.match(line)
            if match is not None:
                return tab_width(match.group(1)), "o", match.group(3).rstrip()
        return None  # the common case, decided without a regex
    match = _GLYPH_LINE.match(line)
    if match is None:
        match = _GLYPH_EMPTY.match(line)
        if match is None:
            return None
        return tab_width(match.group(1)), match.group(2), ""
    return tab_width(match.group(1)), match.group(2), (match.group(3) or "").rstrip()


def is_o_line(line: str) -> bool:
    """A Word ``o`` bullet line; one only counts where the note has other pasted bullets."""
    stripped = line.lstrip(" \t")
    return stripped[:1] == "o" and glyph_bullet(line) is not None


def is_glyph_line(line: str) -> bool:
    stripped = line.lstrip(" \t")
    return bool(stripped) and (stripped[0] in _GLYPH_SET or stripped[0] == "o") and glyph_bullet(line) is not None


def is_filename_line(text: str) -> bool:
    """A lone line that is just a file name, like ``scale2025.md``."""
    return "\n" not in text and len(text) <= 120 and _FILENAME.match(text.strip()) is not None


def is_note_paragraph(text: str) -> bool:
    """``Note: …`` / ``Notes: …`` / ``Speaker notes: …`` paragraphs are speaker notes."""
    return _NOTE_PARAGRAPH.match(text) is not None


def is_title_case(text: str) -> bool:
    """Most longer words capitalised, as titles of papers and talks are."""
    words = [word for word in re.findall(r"[^\W\d_][\w'-]*", text) if len(word) > 3]
    return bool(words) and sum(1 for word in words if word[0].isupper()) * 5 >= len(words) * 4


def is_heading_candidate(text: str, max_length: int = DEFAULT_MAX_HEADING, question: bool = False) -> bool:
    """One short line that reads as a heading: not a sentence, question or lead-in (end
    punctuation), not a quote, not a lone link or address, not a ``Speaker: name`` label line.
    With ``question``, a title-case question (a paper's title in a reading list) passes too."""
    stripped = text.strip()
    if question:
        link = _LINK_TITLE.match(stripped)
        if link is not None and is_title_case(link.group(1)):
            stripped = link.group(1).strip()  # a reading list's linked title
    if not stripped or "\n" in stripped or len(stripped) > max_length:
        return False
    if question and stripped.endswith("?") and is_title_case(stripped):
        stripped = stripped[:-1].rstrip() or "?"  # a reading list's question title
    if stripped[-1] in _HEADING_END or stripped.startswith(_QUOTE_START):
        return False
    if len(stripped.split()) > MAX_HEADING_WORDS:
        return False
    if is_glyph_line(stripped) or is_note_paragraph(stripped) or is_filename_line(stripped):
        return False
    if stripped.startswith(("![", "<", "|")) or _LONE_LINK.match(stripped) or is_label_line(stripped):
        return False
    if _CLOCK_END.search(stripped):
        return False  # "Priya Raman  10:42 AM": a chat message's header, not a heading
    if _CODE_LIKE.search(stripped) or stripped.startswith(("--", "==", "__", "**")) and not is_bold_line(stripped):
        return False  # build_deck(doc), parse_options, x = 1, --- lunch break: code and rules, not headings
    if _COMMAND_LINE.search(stripped) or is_sentence(stripped):
        return False  # kubectl get hpa, git push --force; "we moved to Kafka last year"
    return any(char.isalpha() for char in stripped)


def is_sentence(text: str) -> bool:
    """A line of notes that reads as a sentence, not a heading: five words or more, not in title
    case, opening with a pronoun or conjunction ("This was the best talk of the day") or
    in lower case ("speaker said the rollout took a year")."""
    words = text.split()
    if len(words) < 5 or is_title_case(text):
        return False
    first = words[0].strip("*_\"'(").casefold()
    return first in _SENTENCE_START or words[0][:1].islower()


def is_sentence_over_rule(line: str) -> bool:
    """A line over ``----`` that reads as a sentence, so the dashes separate rather than underline:
    it ends as a sentence does (``.``, ``!``, ``;``, ``,``; a question can be a heading) or reads as
    one (``is_sentence``). A heading's line (``# …``), a list item or a quote is never one."""
    stripped = line.strip()
    if not stripped or stripped.startswith(("#", ">", "|", "<")) or _LIST_MARKER.match(stripped):
        return False
    if stripped.endswith("...") or stripped.endswith("…"):
        return True
    return stripped[-1] in ".!;," or is_sentence(stripped)


def is_label_line(text: str) -> bool:
    """``Speaker: Priya Raman, CNCF`` — a known label word, or a label whose text lists or links things."""
    label = split_label(text)
    if label is None:
        return False
    from confnotes.model import after_label

    rest = after_label(text, label)
    plain = label.strip("*_ ").casefold()
    return plain in LABEL_WORDS or not rest or any(mark in rest for mark in (",", "@", "://"))


def bold_point(text: str) -> tuple[str, str, str] | None:
    """``**1. Why Rust?**`` (a chat assistant's numbered heading) → ``("1", ".", "Why Rust?")``."""
    match = _BOLD_POINT.match(text.strip())
    if match is None or "\n" in text.strip():
        return None
    return match.group(2), match.group(3), match.group(4).strip()


_EMPHASISED = re.compile(r"^(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\1$", re.S)


def emphasised_title(text: str) -> tuple[str, str] | None:
    """``(marker, inner)`` when ``text`` (one line, or a title wrapped over two) is one emphasised
    run and nothing else: ``**Cells at scale**``, ``*Why we left Kafka!*``, a bold title over two
    lines; None for text with more than the run, or the run's marker inside it."""
    match = _EMPHASISED.match(text.strip())
    if match is None or text.strip().count("\n") > 1:
        return None
    marker, inner = match.group(1), match.group(2)
    if marker[0] in inner or (len(marker) == 1 and inner.startswith(marker)):
        return None  # ``**a** and **b**``, or bold read as emphasis
    return marker, inner


def is_bold_line(text: str) -> bool:
    """A single line that is bold and nothing else (``**Session 2: Caching**``)."""
    stripped = text.strip()
    return "\n" not in stripped and _BOLD_LINE.match(stripped) is not None


def split_label(title: str) -> str | None:
    """The ``Label`` of ``Label: text`` (or of a label-only ``Label:``), if the title has one."""
    if ":" not in title:
        return None
    bold = _BOLD_LABEL.match(title)
    if bold is not None:
        label = bold.group(2).strip()
        return label if label and len(label.split()) <= 6 else None
    match = _LABEL.match(title)
    if match is None:
        return None
    label = match.group(1).rstrip()
    if label.count("(") != label.count(")") or any(quote in label for quote in '"“”') or label[0] in "'‘":
        return None  # the colon stands inside a call or a quotation: name(arg: …), "Quote: …"
    if not label or len(label.split()) > 6 or "://" in title[: match.end() + 2]:
        return None
    return label


def lede_title(text: str) -> str | None:
    """The emphasised phrase of a lede line that ends in ``:``."""
    stripped = text.strip()
    if not stripped.endswith(":"):
        return None
    match = _EMPHASIS.search(stripped)
    if match is None:
        return None
    phrase = next(group for group in match.groups() if group is not None).strip()
    return phrase or None


def is_session_line(text: str, max_length: int = DEFAULT_MAX_HEADING) -> bool:
    """``Talk: Incident Command at Scale``, ``Keynote: …``, ``Session 2: Edge Caching``: a session's
    name on a line of its own, read as a heading (not ``Talk: great energy, but the demo failed.``)."""
    stripped = text.strip()
    if "\n" in stripped or len(stripped) > max_length:
        return False
    match = _SESSION.match(stripped)
    if match is None:
        return False
    rest = match.group(1).strip().strip("*_").strip()
    if not rest or rest[-1] in _HEADING_END or rest.startswith(_QUOTE_START) or _LONE_LINK.match(rest):
        return False
    return len(rest.split()) <= MAX_HEADING_WORDS and re.search(r"[^\W\d_]{3}", rest) is not None


#: The parts only a talk has: ``Q&A``, ``Questions``, ``Demo`` on a line of their own.
_TALK_PART = re.compile(r"(?:q ?& ?a|q and a|questions(?: and answers)?|(?:live )?demo)$", re.IGNORECASE)


def is_talk_part(text: str) -> bool:
    """A line naming a part only a talk has (``Q&A``, ``Demo``), bold or not: standing after a
    talk among talks, it is a part of that talk, not a talk of its own."""
    return _TALK_PART.match(text.strip().strip("*_").strip()) is not None


def names_talk(title: str, first_line: str) -> bool:
    """Whether a section is a talk: its title is a session line (``Talk: …``), or the first line
    under it names its speakers (``Speaker: Ines Duarte``)."""
    if is_session_line(title):
        return True
    label = split_label(first_line.strip())
    return label is not None and label.strip("*_ ").casefold() in _SPEAKER_LABELS and bool(speaker_names(first_line))


def opens_with_session_word(text: str) -> bool:
    """Whether a line begins with a session word and a colon (``Tutorial: …``, ``Talk 3 (room B): …``),
    whatever follows: where the lede of an imported document ends."""
    return _SESSION_START.match(text) is not None


def is_known_label_line(text: str) -> bool:
    """``Speaker: Priya Raman``, ``Slides: …``: a line that labels what follows, never a bullet's wrapped text."""
    stripped = text.strip()
    label = split_label(stripped)
    return "\n" not in stripped and label is not None and label.strip("*_ ").casefold() in LABEL_WORDS


#: ``[10:45] Sam Lee:`` (a chat copied with its times first): the clock, then a name
_BRACKETED_CHAT_HEADER = re.compile(r"^\[\d{1,2}:\d{2}(?:\s*[AaPp][Mm])?\]\s*[^\W\d_][\w.'’ -]{0,60}?(?::|\s{2,}|\s+(?=\d))")
_LIST_MARKER = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\S")


def is_chat_header(text: str) -> bool:
    """``Sam Lee  10:45 AM`` (Slack, Teams) or ``[10:45] Sam Lee:``: the line that opens a chat
    message (a person's name, at most five words, and a clock), never a bullet's wrapped text."""
    stripped = text.strip()
    if "\n" in stripped or len(stripped) > 80:
        return False
    clock = _CLOCK_END.search(stripped)
    if stripped.startswith("[") and _BRACKETED_CHAT_HEADER.match(stripped):
        return stripped.endswith(":") or clock is None
    if clock is None:
        return False
    name = stripped[: clock.start()].strip(" ,-–—·|")
    words = name.split()
    return 1 <= len(words) <= 5 and all(word[:1].isupper() or not word[:1].isalpha() for word in words)


def breaks_lazy_line(line: str, following: str | None) -> bool:
    """A line right under a list item, not indented to its text, that starts a block of its own
    rather than continuing the item (CommonMark's lazy continuation; a chat or a paste has no blank
    lines): a session, label or chat-header line, or a short capitalised line over more bullets
    (``Takeaways``)."""
    stripped = line.strip()
    if is_session_line(stripped) or is_known_label_line(stripped) or is_chat_header(stripped):
        return True
    return (
        following is not None
        and (_LIST_MARKER.match(following) is not None or is_glyph_line(following))
        and stripped[:1].isupper()
        and len(stripped.split()) <= 6
        and is_heading_candidate(stripped)
    )


def email_headers(text: str) -> dict[str, str] | None:
    """The headers of an e-mail pasted at the top of a note (``Subject:``, ``From:``, ``Date:``…),
    by lower-cased name; None unless every line is a header and a subject or sender is among them."""
    lines = [line.strip() for line in text.strip().split("\n")]
    if len(lines) < 2:
        return None
    headers: dict[str, str] = {}
    for line in lines:
        match = _EMAIL_HEADER.match(line)
        if match is None:
            return None
        headers.setdefault(match.group(1).lower(), match.group(2).strip())
    return headers if "subject" in headers and ("from" in headers or "date" in headers or "sent" in headers) else None


_NOTE_TITLE = re.compile(
    r"\b(?:19|20)\d\d\b|\b(?:notes|recap|summary|takeaways|conference|summit|meetup|unconference|trip report|track|day \d{1,2}|day$)\b",
    re.IGNORECASE,
)


#: What names a whole set of notes rather than a part of them (``Day 2``, ``Main track`` name parts).
_NOTES_NAME = re.compile(r"\b(?:19|20)\d\d\b|\b(?:notes|recap|summary|conference|summit|meetup|unconference|trip report)\b", re.IGNORECASE)


def names_notes(text: str) -> bool:
    """A heading that names a whole set of notes (``KubeCon EU 2026``, ``Meetup recap``), not a part of them."""
    stripped = text.strip()
    return is_heading_candidate(stripped) and len(stripped.split()) <= 10 and _NOTES_NAME.search(stripped) is not None


def is_note_title(text: str) -> bool:
    """A first line that names the notes (``KubeCon EU 2026``, ``Hallway notes from Monday``): a short
    heading-like line with a year or a word such as *notes*, *recap* or *summit*."""
    stripped = text.strip()
    return is_heading_candidate(stripped) and len(stripped.split()) <= 10 and _NOTE_TITLE.search(stripped) is not None


#: Words that join the parts of a person's name in lower case (``Fatima Zahra El Amrani``, ``Ana de la Cruz``).
_NAME_PARTICLES = frozenset(
    ("van", "von", "de", "der", "den", "da", "di", "del", "della", "la", "le", "du", "dos", "bin", "al", "ter", "zu")
)
#: What parts a speaker line's names (and the names from an affiliation): a comma, ``&``, ``and``, ``/``.
_NAME_SEPARATORS = re.compile(r"\s*(?:,|&|\band\b|\bund\b|\bet\b|/|·)\s*")
#: What sets an affiliation apart from the names before it: ``(Org)``, `` - Org``, `` @ Org``, `` | Org``.
_AFFILIATION = re.compile(r"\s*\([^)]*\)|\s+(?:[-–—|]|@)\s+.*$")
_SPEAKER_LABELS = frozenset(("speaker", "speakers", "presenter", "presenters", "by", "panelists", "moderator", "host", "hosts"))


def _is_person_name(text: str) -> bool:
    """``Priya Raman``, ``Fatima Zahra El Amrani``, ``Kenji O'Brien-Watanabe``, ``田中 愛子``: two to
    five words, each capitalised (or a lower-case particle), at least two capitalised; or two to
    six CJK characters."""
    words = text.split()
    letters = "".join(words)
    if 2 <= len(letters) <= 6 and all("\u3040" <= char <= "\u9fff" or "\uac00" <= char <= "\ud7af" for char in letters):
        return True
    if not 2 <= len(words) <= 5:
        return False
    capitalised = 0
    for word in words:
        if word in _NAME_PARTICLES:
            continue
        letters = word.replace("-", "").replace("'", "").replace("’", "").rstrip(".")
        if not letters.isalpha() or not word[0].isupper():
            return False
        capitalised += 1
    return 2 <= capitalised <= 4 and not all(word.isupper() and len(word) > 1 for word in words)


def speaker_names(text: str) -> tuple[str, ...]:
    """The people a speaker line names: ``Priya Raman (CNCF)``, ``Luis Ortega, Tetrate``, ``Mara
    Lindqvist & Tom Becker``, ``Speaker: Aiko Tanaka`` — or ``()`` when the line is not one (a
    sentence, a heading, a list of things). An affiliation after the names is left out."""
    stripped = text.strip().strip("*_").strip()
    if not stripped or "\n" in stripped or len(stripped) > 120 or stripped[-1] in ".!?:;":
        return ()
    label = split_label(stripped)
    if label is not None:
        if label.strip("*_ ").casefold() not in _SPEAKER_LABELS:
            return ()
        stripped = stripped[stripped.index(":") + 1 :].strip().strip("*_").strip()
    stripped = _AFFILIATION.sub("", stripped).strip()
    parts = [part for part in _NAME_SEPARATORS.split(stripped) if part]
    if not parts or not _is_person_name(parts[0]):
        return ()
    names = [parts[0]]
    for part in parts[1:]:
        if not _is_person_name(part):
            break  # ``Luis Ortega, Tetrate``: the rest is where they work
        names.append(part)
    return tuple(names)


def talk_speakers(node: Node) -> tuple[str, ...]:
    """The speakers of a talk section: the people its speaker line (a paragraph under its title,
    ``info`` ``speakers``) names; ``()`` for any other node."""
    first = node.content[0] if node.is_section and node.content else None
    if type(first) is Block and first.info == "speakers":
        return speaker_names(first.text)
    return ()


def same_title(heading: str, title: str) -> bool:
    """The same words, whatever the case, spacing or emphasis markers (a ``# Title`` repeating the
    front matter's title)."""

    def words(text: str) -> list[str]:
        return re.sub(r"[*_`]", "", text).casefold().split()

    return words(heading) == words(title)
