"""``confnotes render --to html``: a self-contained page with everything the note says."""

from __future__ import annotations

import re
from html import escape as html_escape
from pathlib import Path

import pytest

from conftest import NOTES
from helpers import html_text, pdf_reading_text, tiny_png, words

SEEDS = ["scale2025.md", "scaling-reading-list.md"]


def _render(cli, note: Path | str, *args: str) -> str:
    result = cli("render", str(note), "--to", "html", "-o", "-", *args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("name", SEEDS)
def test_every_word_of_the_note_is_in_the_page(cli, name):
    html = _render(cli, NOTES / name)
    source = (NOTES / name).read_text(encoding="utf-8")
    missing = words(source) - words(html_text(html))
    assert not missing


def test_page_structure(cli):
    html = _render(cli, NOTES / "scale2025.md")
    assert html.startswith("<!DOCTYPE html>")
    assert '<html lang="en">' in html
    assert "<title>System &amp; Reliability @scale Conference</title>" in html
    assert re.search(r"<link[^>]+stylesheet|<script src|https?://", html) is None, "page must be self-contained"
    ids = re.findall(r'<section id="([^"]+)"', html)
    assert ids == [
        "core-principles-for-scaling-systems",
        "key-challenges-in-scaling",
        "case-studies-strategies",
        "future-directions",
        "conclusion",
    ]
    toc = re.findall(r'<a class="toc-link" href="#([^"]+)"', html)
    assert toc == ids
    assert html.count('<li value="1"') == 4 and html.count('<li value="3"') == 4
    assert '<strong class="label">Checkpointing limits:</strong> Frequent saves' in html
    assert '<strong class="label">Benefits:</strong>' in html
    # heading order: one h1, sections h2
    assert html.count("<h1") == 1 and html.count("<h2>") == 5


def test_reading_list_entries(cli):
    """Each entry is a section with its title as a heading and its annotation after it, in order."""
    from confnotes.load import load_note

    html = _render(cli, NOTES / "scaling-reading-list.md")
    doc = load_note(str(NOTES / "scaling-reading-list.md")).doc
    sections = re.findall(r'<section id="[^"]+" class="([^"]+)">\s*<h2>(.*?)</h2>(.*?)</section>', html, re.S)
    assert [title for _, title, _ in sections] == [html_escape(s.title) for s in doc.sections]
    for (classes, title, body), section in zip(sections, doc.sections, strict=True):
        annotated = bool(section.body)
        assert ("no-annotation" in classes) is not annotated, title
        if annotated:
            assert html_text(body).split() == section.body[0].text.split()


def test_speaker_notes_hidden_unless_asked(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## Part\n\n<!-- notes: secret reminder -->\n\n- point\n\n::: notes\nsecond secret\n:::\n")
    hidden = _render(cli, note)
    assert "secret" not in hidden
    shown = _render(cli, note, "--notes")
    assert "secret reminder" in shown and "second secret" in shown and shown.count('class="speaker-notes"') == 2
    assert "notes:" not in html_text(shown)
    # each note where the author wrote it: before the list, and after it
    text = html_text(shown)
    assert text.index("secret reminder") < text.index("point") < text.index("second secret")


def test_note_paragraphs_are_printed_unless_config_opts_in(cli, tmp_path):
    """ "Note: …" is the author's text; reveal.js users can opt in to reading it as a speaker note."""
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n## Part\n\nNote: the venue changed to Hall B.\n\n- point\n")
    assert "Note: the venue changed to Hall B." in html_text(_render(cli, note))
    (tmp_path / "confnotes.toml").write_text("note_lines = true\n")
    assert "Hall B" not in _render(cli, note)
    assert "Hall B" in _render(cli, note, "--notes")


def test_meta_from_front_matter(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text("---\ntitle: Rust\nevent: RustConf\ndate: 2026-09-10\nspeakers: [Ada, Grace]\n---\n\n## A\n\n- b\n")
    html = _render(cli, note)
    assert '<span class="event">RustConf</span>' in html and "2026-09-10" in html
    assert '<meta name="author" content="Ada, Grace">' in html


def test_default_output_next_to_note_and_atomic(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n\n- a\n")
    result = cli("render", str(note))
    assert result.exit_code == 0
    assert (tmp_path / "talk.html").read_text().startswith("<!DOCTYPE html>")
    assert not list(tmp_path.glob(".*.tmp"))


def test_refuses_to_overwrite_the_note(cli, tmp_path):
    note = tmp_path / "talk.md"
    note.write_text("# Talk\n")
    result = cli("render", str(note), "-o", str(note))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{note}: output would overwrite the note itself; choose another -o"
    assert note.read_text() == "# Talk\n"


def test_themes_and_extra_css(cli, tmp_path):
    listed = cli("render", "--list-themes").stdout.split()
    assert {"default", "serif", "dark"} <= set(listed)
    note = tmp_path / "t.md"
    note.write_text("# T\n\n- a\n")
    serif = _render(cli, note, "--theme", "serif")
    assert "DejaVu Serif" in serif
    css = tmp_path / "extra.css"
    css.write_text("body { border-top: 7px solid hotpink; }")
    assert "hotpink" in _render(cli, note, "--css", str(css))
    bad = cli("render", str(note), "-o", "-", "--theme", "nope")
    assert bad.exit_code == 2 and "unknown theme 'nope'" in bad.stderr


def test_user_template_overrides_and_extends(cli, tmp_path):
    note = tmp_path / "t.md"
    note.write_text("# T\n\n- a\n")
    templates = tmp_path / "tpl"
    templates.mkdir()
    (templates / "_node.html").write_text("{% macro render_content(content, depth) %}<p>CUSTOM {{ content | length }}</p>{% endmacro %}")
    html = _render(cli, note, "--templates", str(templates))
    assert "<p>CUSTOM 1</p>" in html


def test_overriding_one_block_of_the_built_in_changes_the_output(cli, tmp_path):
    """The worked example of docs/templates.md: one block overridden via !default/, super() kept."""
    note = tmp_path / "t.md"
    note.write_text("---\nevent: KubeCon\n---\n# Platform day\n\n## Keynote\n\n- golden paths\n\n## Panel\n\n- on-call\n")
    plain = _render(cli, note)
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "note.html").write_text(
        '{% extends "!default/note.html" %}\n'
        '{% block header %}<p class="brand">ACME Engineering</p>{{ super() }}{% endblock %}\n'
        '{% block footer %}<footer class="colophon">© ACME — {{ meta.event }}</footer>{% endblock %}\n'
    )
    (tmp_path / "confnotes.toml").write_text('templates = "templates"\n')
    html = _render(cli, note)
    assert '<p class="brand">ACME Engineering</p>' in html and "© ACME — KubeCon" in html
    assert "Made with confnotes" in plain and "Made with confnotes" not in html
    assert html.index("ACME Engineering") < html.index('<h1 class="title"')  # super() kept the title block
    assert '<nav class="toc"' in html and "golden paths" in html  # the other blocks are the built-in's
    doc = (Path(__file__).parents[1] / "docs" / "templates.md").read_text()
    assert "{% block footer %}" in doc and "!default/note.html" in doc


def test_deck_blocks_can_be_overridden(cli, tmp_path):
    note = tmp_path / "t.md"
    note.write_text("# Talk\n\n## Part\n\n- point\n\n<!-- notes: say hello -->\n")
    templates = tmp_path / "tpl"
    templates.mkdir()
    (templates / "deck.html").write_text(
        '{% extends "!default/deck.html" %}\n'
        '{% block title_slide %}<section class="slide kind-title" id="slide-{{ number }}">'
        "<h1>ACME {{ slide.title }}</h1></section>{% endblock %}\n"
        '{% block notes %}<p class="cue">Cue:</p>{{ super() }}{% endblock %}\n'
    )
    html = cli("render", str(note), "--to", "slides", "--templates", str(templates), "-o", "-").stdout
    assert "<h1>ACME Talk</h1>" in html and '<p class="cue">Cue:</p><p dir="auto">say hello</p>' in html
    assert html.count('<section class="slide') == 3


def test_template_from_config(cli, tmp_path):
    (tmp_path / "confnotes.toml").write_text('templates = "tpl"\n')
    (tmp_path / "tpl").mkdir()
    (tmp_path / "tpl" / "note.html").write_text("<p>{{ meta.title }} from config</p>")
    note = tmp_path / "t.md"
    note.write_text("# Hello\n")
    assert _render(cli, note).strip() == "<p>Hello from config</p>"


def test_missing_template_is_a_clear_error(cli, tmp_path):
    note = tmp_path / "t.md"
    note.write_text("# T\n")
    templates = tmp_path / "tpl"
    templates.mkdir()
    (templates / "note.html").write_text('{% include "nope.html" %}')
    result = cli("render", str(note), "-o", "-", "--templates", str(templates))
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("confnotes: template not found: nope.html")


def test_hostile_note_is_escaped(cli, tmp_path):
    note = tmp_path / "evil.md"
    note.write_text(
        "# Evil <script>alert(1)</script>\n\n## Part\n\n<script>alert(2)</script>\n\n"
        "- [click](javascript:alert(3)) and [data](data:text/html,<b>x</b>)\n"
        "- <img src=x onerror=alert(4)>\n- [fine](https://example.org)\n"
    )
    html = _render(cli, note)
    body = html.split("<body", 1)[1]
    assert "<script>" not in body and "alert(2)" not in body and "onerror" not in body  # a script block prints nothing
    assert "javascript:" not in html and 'href="data:' not in html
    assert "click" in html_text(html) and "<img src=x" not in html
    assert '<a href="https://example.org">fine</a>' in html


def test_disallowed_raw_html_prints_its_text_not_its_tags(cli, tmp_path, weasyprint):
    note = tmp_path / "n.md"
    note.write_text(
        '# Pasted from a CMS\n\nThe answer was <span style="font-size: 50px">?</span> and <b>bold</b>.\n\n'
        '<div class="callout">\n<p>Note <em>this</em> &amp; that</p>\n<style>p { color: red }</style>\n</div>\n\n'
        "![Grafana board](https://grafana.example.org/board.png)\n"
    )
    html = _render(cli, note)
    text = html_text(html)
    assert "The answer was ? and bold." in " ".join(text.split())
    assert "Note this & that" in " ".join(text.split())
    assert "span" not in text and "font-size" not in text and "color: red" not in text
    assert '<a class="remote-image" href="https://grafana.example.org/board.png"' in html
    pdf = tmp_path / "n.pdf"
    assert cli("render", str(note), "--to", "pdf", "-o", str(pdf)).exit_code == 0
    printed = pdf_reading_text(pdf)
    if printed is not None:
        flat = " ".join(printed.split())
        assert "The answer was ? and bold." in flat and "<span" not in flat
        assert "Image: Grafana board (https://grafana.example.org/board.png)" in flat


def test_allow_html_from_config(cli, tmp_path):
    (tmp_path / "confnotes.toml").write_text("allow_html = true\n")
    note = tmp_path / "t.md"
    note.write_text('# T\n\n## A\n\n<div class="keep">raw</div>\n')
    assert '<div class="keep">raw</div>' in _render(cli, note)


def test_local_image_is_embedded_and_missing_one_warns(cli, tmp_path):
    (tmp_path / "pic.png").write_bytes(tiny_png())
    note = tmp_path / "t.md"
    note.write_text("# T\n\n## A\n\n![a picture](pic.png)\n\n![gone](missing.png)\n\n![remote](https://example.org/x.png)\n")
    result = cli("render", str(note), "-o", str(tmp_path / "out.html"))
    assert result.exit_code == 0
    html = (tmp_path / "out.html").read_text()
    assert 'src="data:image/png;base64,' in html
    assert "image 'missing.png' not found" in result.stderr
    assert (
        '<a class="remote-image" href="https://example.org/x.png" title="Image (not embedded): https://example.org/x.png">remote</a>'
        in html
    )


def test_label_lines_keep_their_lines(cli, tmp_path):
    """`Speaker: …` over `Room: …` (a talk page) and `Q:` over `A:` stay lines; wrapped prose is still one paragraph."""
    note = tmp_path / "n.md"
    note.write_text(
        "# KubeCon EU — Inside the Scheduler\n\nSpeaker: Aldo Culquicondor (Google)\nRoom: Hall 7, Level 1\n\n"
        "## Q&A\n\n> Q: Should every company build a platform team?\n> A: Only once you have three teams.\n\n"
        "A paragraph wrapped by its author\nacross two lines: it stays one.\n"
    )
    html = _render(cli, note)
    assert "Speaker: Aldo Culquicondor (Google)<br />\nRoom: Hall 7, Level 1" in html
    assert "Q: Should every company build a platform team?<br />\nA: Only once" in html
    assert "A paragraph wrapped by its author\nacross two lines" in html


@pytest.fixture
def template_cache(tmp_path, monkeypatch):
    """A fresh folder for compiled templates, and environments that have not compiled anything yet."""
    from confnotes import templating

    folder = tmp_path / "compiled"
    monkeypatch.setenv("CONFNOTES_TEMPLATE_CACHE", str(folder))
    templating.environment.cache_clear()
    yield folder
    templating.environment.cache_clear()


def test_compiled_templates_are_kept_and_reused(cli, tmp_path, template_cache, monkeypatch):
    import jinja2

    from confnotes import templating

    deck = tmp_path / "deck.html"
    first = cli("render", str(NOTES / "scale2025.md"), "--to", "slides", "-o", str(deck))
    assert first.exit_code == 0 and len(list(template_cache.iterdir())) >= 3  # deck.html, _head.html, _slide.html
    compiled: list[str] = []
    original = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    templating.environment.cache_clear()  # as a new process would start
    again = tmp_path / "again.html"
    assert cli("render", str(NOTES / "scale2025.md"), "--to", "slides", "-o", str(again)).exit_code == 0
    assert compiled == [] and again.read_bytes() == deck.read_bytes()
    # an edited template is compiled again, not served stale
    (tmp_path / "tpl").mkdir()
    note = tmp_path / "t.md"
    note.write_text("# Hello\n")
    for word in ("one", "two"):
        (tmp_path / "tpl" / "note.html").write_text(f"<p>{word} {{{{ meta.title }}}}</p>")
        templating.environment.cache_clear()
        out = cli("render", str(note), "--templates", str(tmp_path / "tpl"), "-o", "-").stdout
        assert out.strip() == f"<p>{word} Hello</p>"
    assert compiled.count("note.html") == 2


@pytest.mark.parametrize("damage", ["garbage", "unwritable"])
def test_a_damaged_or_unwritable_template_cache_never_fails_a_render(cli, tmp_path, template_cache, monkeypatch, damage):
    from confnotes import templating

    expected = cli("render", str(NOTES / "scale2025.md"), "--to", "html", "-o", "-").stdout
    templating.environment.cache_clear()
    if damage == "garbage":
        for entry in template_cache.iterdir():
            entry.write_bytes(b"j2\x00 not a compiled template")
    else:
        blocker = tmp_path / "a-file"
        blocker.write_text("not a folder")
        monkeypatch.setenv("CONFNOTES_TEMPLATE_CACHE", str(blocker / "compiled"))
    result = cli("render", str(NOTES / "scale2025.md"), "--to", "html", "-o", "-")
    assert result.exit_code == 0 and result.stdout == expected and result.stderr == ""


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"note.html": "line one\n{{ 1/0 }}\n"}, "note.html:2: template error: ZeroDivisionError: division by zero"),
        ({"note.html": '{% include "note.html" %}'}, "template note.html: templates include or extend each other without end"),
        ({"note.html": b"\xff\xfe{{ meta.title }}"}, "template note.html: not UTF-8 text (byte 0xff at offset 0)"),
        ({"note.html": 'ok {% include "inc.html" %}', "inc.html": b"\xff"}, "template used by note.html: not UTF-8 text"),
        ({"note.html": 'ok {% include "inc.html" %}', "inc.html": "{% if %}"}, "inc.html:1: template syntax error"),
    ],
    ids=["raises", "includes-itself", "not-utf8", "include-not-utf8", "include-syntax"],
)
def test_a_broken_user_template_is_one_line_not_a_traceback(cli, tmp_path, files, expected):
    from confnotes import templating

    templating.environment.cache_clear()
    folder = tmp_path / "tpl"
    folder.mkdir()
    for name, content in files.items():
        path = folder / name
        path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content)
    note = tmp_path / "t.md"
    note.write_text("# T\n\n## A\n\n- x\n")
    result = cli("render", str(note), "-o", "-", "--templates", str(folder))
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0]
    templating.environment.cache_clear()


def test_a_bug_under_a_built_in_template_is_not_passed_off_as_a_template_error(cli, tmp_path, monkeypatch):
    """Only a user template's own mistakes become one line: confnotes' bugs stay visible as bugs."""
    from confnotes.render import marp

    def broken(scale):
        raise KeyError("title")

    monkeypatch.setattr(marp, "fit_sizes", broken)
    note = tmp_path / "t.md"
    note.write_text("# T\n\n## A\n\n- x\n")
    with pytest.raises(KeyError):
        cli("render", str(note), "--to", "marp", "-o", "-")
