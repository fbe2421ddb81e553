"""Diagrams: ```` ```mermaid ```` (mermaid-cli) and ```` ```dot ```` (Graphviz) fences drawn as SVG
in every output, once per source, with no network and in bounded time; code and one warning
without the tool."""

from __future__ import annotations

import base64
import http.server
import re
import subprocess
import threading

import pytest

from conftest import FIXTURES
from helpers import rendered, rendered_deck, require, require_marp

TALK = FIXTURES / "directed" / "zero-downtime.md"


def _tools() -> None:
    from confnotes.markup.diagrams import program

    require(program("dot"), "Graphviz is not installed (apt-get install graphviz)")
    require(program("mermaid"), "mermaid-cli is not installed (PUPPETEER_SKIP_DOWNLOAD=1 npm install --prefix .ci @mermaid-js/mermaid-cli)")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of the test's own, and the in-process memo emptied."""
    from confnotes.markup import diagrams

    folder = tmp_path / "cache"
    monkeypatch.setenv("CONFNOTES_CACHE_DIR", str(folder))
    diagrams._drawn.cache_clear()
    yield folder / "diagrams"
    diagrams._drawn.cache_clear()


def _svgs(html: str) -> list[str]:
    return [base64.b64decode(data).decode("utf-8") for data in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', html)]


def test_the_page_draws_each_diagram_with_its_labels_as_text(cli, tmp_path, cache, processes):
    _tools()
    out = tmp_path / "talk.html"
    result = rendered(cli, TALK, "html", out)
    html = out.read_text(encoding="utf-8")
    assert html.count('<figure class="diagram diagram-mermaid">') == 2 and html.count('<figure class="diagram diagram-dot">') == 1
    svgs = _svgs(html)
    assert len(svgs) == 3
    request_path, rollout, schema = (" ".join(re.sub(r"<[^>]+>", " ", svg).split()) for svg in svgs)
    assert "Load balancer" in request_path and "foreignObject" not in svgs[0]  # labels are SVG text: print draws them
    assert "canary" in rollout and "rollback" in rollout
    assert "backfill in batches of 10k" in schema
    assert all(re.search(r'<svg[^>]* width="\d+" height="\d+"', svg) for svg in svgs)  # a size an image can take
    assert "ALTER TABLE orders" in re.sub(r"<[^>]+>", "", html)  # other code stays code
    assert "diagram" not in result.stderr


def test_each_diagram_is_drawn_once_and_a_rebuild_draws_none(cli, tmp_path, cache, monkeypatch, processes):
    _tools()
    from confnotes.markup import diagrams

    calls: list[str] = []
    real = diagrams._run

    def counted(command, *args):
        calls.append(command[0])
        return real(command, *args)

    monkeypatch.setattr(diagrams, "_run", counted)
    rendered(cli, TALK, "html", tmp_path / "a.html")
    rendered(cli, TALK, "slides-pdf", tmp_path / "a.pdf")
    assert len(calls) == 3  # three diagrams, drawn once for both outputs
    assert len(list(cache.glob("*.svg"))) == 3 and (cache.parent / ".gitignore").read_text().endswith("*\n")
    diagrams._drawn.cache_clear()  # a new run: only the cache folder remembers
    rendered(cli, TALK, "pptx", tmp_path / "a.pptx")
    assert len(calls) == 3
    changed = tmp_path / "changed.md"
    changed.write_text(TALK.read_text(encoding="utf-8").replace("API pod 2", "API pod 3"), encoding="utf-8")
    rendered(cli, changed, "html", tmp_path / "c.html")
    assert len(calls) == 4  # the changed diagram only


def test_without_the_tool_the_diagram_is_code_and_one_warning_names_the_install(cli, tmp_path, cache, monkeypatch, weasyprint):
    monkeypatch.setenv("CONFNOTES_DOT", str(tmp_path / "no-dot"))
    monkeypatch.setenv("CONFNOTES_MMDC", str(tmp_path / "no-mmdc"))
    from confnotes.markup import diagrams

    monkeypatch.setattr(diagrams, "program", lambda _tool: None)
    out = tmp_path / "talk.html"
    result = rendered(cli, TALK, "html", out)
    html = out.read_text(encoding="utf-8")
    text = " ".join(re.sub(r"<[^>]+>", "", html).split())
    assert '<figure class="diagram' not in html and "flowchart LR" in text and "digraph rollout {" in text
    warnings = [line for line in result.stderr.splitlines() if "diagram" in line]
    assert len(warnings) == 3
    assert "npm install -g @mermaid-js/mermaid-cli" in warnings[0] and "apt-get install graphviz" in warnings[1]
    deck = rendered_deck(TALK)
    assert not [entry for slide in deck.slides for entry in slide.content if getattr(entry, "kind", "") == "diagram"]
    for to, name in (("slides", "deck.html"), ("slides-pdf", "deck.pdf"), ("pptx", "deck.pptx"), ("marp", "deck.md"), ("outline", "o.txt")):
        result = rendered(cli, TALK, to, tmp_path / name)
        assert [line for line in result.stderr.splitlines() if "diagram" in line] == warnings, to  # the same three, in every deck


def test_a_graph_that_names_files_reads_none_of_them(tmp_path, cache, processes):
    from confnotes.markup.diagrams import draw, program

    require(program("dot"), "Graphviz is not installed (apt-get install graphviz)")
    secret = tmp_path / "secret.svg"
    secret.write_text('<svg xmlns="http://www.w3.org/2000/svg"><text>TOKEN-123</text></svg>', encoding="utf-8")
    drawn = draw("dot", f'digraph G {{ a [image="{secret}", label=""]; b [shapefile="{secret}"]; a -> b }}')
    assert drawn.svg is None or ("TOKEN-123" not in drawn.svg and str(secret) not in drawn.svg)


def test_a_diagram_that_takes_too_long_is_stopped_and_shown_as_code(tmp_path, cache, monkeypatch, processes):
    from confnotes.markup import diagrams
    from confnotes.render.markdown import InlineRenderer

    require(diagrams.program("dot"), "Graphviz is not installed (apt-get install graphviz)")
    monkeypatch.setattr(diagrams, "TIMEOUT", 0.001)
    renderer = InlineRenderer()
    html = str(renderer.blocks("```dot\ndigraph G { a -> b }\n```\n"))
    assert "<figure" not in html and "digraph G" in re.sub(r"<[^>]+>", "", html)
    assert len(renderer.warnings) == 1 and "took longer than" in renderer.warnings[0]


def test_a_huge_mermaid_graph_is_refused_in_bounded_time(tmp_path, cache):
    from confnotes.markup.diagrams import draw, program

    require(program("mermaid"), "mermaid-cli is not installed (npm install --prefix .ci @mermaid-js/mermaid-cli)")
    edges = "\n".join(f"  n{index} --> n{index + 1}" for index in range(5000))
    drawn = draw("mermaid", f"flowchart LR\n{edges}\n")
    assert drawn.svg is None and drawn.problem  # over its source limit, or mermaid's own edge limit


def test_mermaid_fetches_nothing_a_diagram_names(tmp_path, cache, processes):
    from confnotes.markup.diagrams import draw, program

    require(program("mermaid"), "mermaid-cli is not installed (npm install --prefix .ci @mermaid-js/mermaid-cli)")
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}"
        source = f'flowchart LR\n  A["<img src=\'{url}/img.png\'>"] --> B\n  click A "{url}/click"\n  style B fill:url({url}/css)\n'
        draw("mermaid", source)
    finally:
        server.shutdown()
    assert seen == []


def test_slides_give_a_diagram_a_pictures_room_and_pptx_a_picture(cli, tmp_path, cache, processes):
    _tools()
    from pptx import Presentation

    deck = rendered_deck(TALK)
    diagrams = [entry for slide in deck.slides for entry in slide.content if getattr(entry, "kind", "") == "diagram"]
    assert [entry.info for entry in diagrams] == ["mermaid", "dot", "mermaid"]
    out = tmp_path / "talk.pptx"
    rendered(cli, TALK, "pptx", out)
    pictures = [shape for slide in Presentation(str(out)).slides for shape in slide.shapes if shape.shape_type == 13]
    alts = [picture._element.nvPicPr.cNvPr.get("descr") for picture in pictures]
    assert [alt.split(":")[0] for alt in alts] == ["Mermaid diagram", "Graphviz diagram", "Mermaid diagram"]
    assert "digraph rollout" in alts[1]  # the source, for a reader who cannot see the picture
    assert all(picture.width > 3_000_000 for picture in pictures)  # as wide as a picture's room, not a thumbnail


def test_marp_embeds_each_diagram_as_a_png_that_marp_cli_shows(cli, tmp_path, cache, processes):
    _tools()
    marp = require_marp()
    out = tmp_path / "talk.marp.md"
    rendered(cli, TALK, "marp", out)
    text = out.read_text(encoding="utf-8")
    assert len(re.findall(r"!\[w:\d+ h:\d+ (?:Mermaid|Graphviz) diagram\]\(data:image/png;base64,", text)) == 3
    assert "flowchart LR" not in text
    html = tmp_path / "talk.marp.html"
    subprocess.run([marp, "--no-stdin", str(out), "-o", str(html)], check=True, capture_output=True, timeout=180)
    assert html.read_text(encoding="utf-8").count("data:image/png;base64,") >= 3


def test_doctor_lists_both_tools(cli, weasyprint):
    result = cli("doctor")
    assert "mermaid-cli" in result.stdout and "Graphviz" in result.stdout
    assert "apt-get install graphviz" in result.stdout or "ok       Graphviz" in result.stdout


def test_outline_and_fmt_keep_a_diagrams_source_in_place(cli, tmp_path):
    copy = tmp_path / TALK.name
    copy.write_bytes(TALK.read_bytes())
    assert cli("fmt", str(copy)).exit_code == 0
    fences = re.compile(r"^```.*?^```$", re.S | re.M)
    assert fences.findall(copy.read_text(encoding="utf-8")) == fences.findall(TALK.read_text(encoding="utf-8"))
    outline = cli("outline", str(TALK), "--format", "json").stdout
    assert outline.index("flowchart LR") < outline.index("digraph rollout") < outline.index("sequenceDiagram")
