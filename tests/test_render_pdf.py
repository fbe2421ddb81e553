"""``confnotes render --to pdf``: WeasyPrint PDFs with page numbers, TOC, metadata and bookmarks."""

from __future__ import annotations

import io
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import NOTES
from helpers import pdf_text, tiny_png, words

SEEDS = ["scale2025.md", "scaling-reading-list.md"]


def _pdf(cli, note: Path, tmp_path: Path, *args: str) -> tuple[bytes, str]:
    out = tmp_path / (note.stem + ".pdf")
    result = cli("render", str(note), "--to", "pdf", "-o", str(out), *args)
    assert result.exit_code == 0, result.stderr
    return out.read_bytes(), result.stderr


@pytest.fixture(scope="module")
def scale_pdf(tmp_path_factory, weasyprint) -> PdfReader:
    from click.testing import CliRunner

    from confnotes.cli import main

    out = tmp_path_factory.mktemp("pdf") / "scale2025.pdf"
    result = CliRunner().invoke(main, ["render", str(NOTES / "scale2025.md"), "--to", "pdf", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return PdfReader(io.BytesIO(out.read_bytes()))


@pytest.mark.parametrize("name", SEEDS)
def test_every_word_is_in_the_pdf(cli, tmp_path, name, weasyprint):
    data, stderr = _pdf(cli, NOTES / name, tmp_path)
    assert f"{NOTES / name}: warning:" not in stderr  # confnotes' own messages about the note
    missing = words((NOTES / name).read_text(encoding="utf-8")) - words(pdf_text(data))
    assert not missing


def test_page_numbers_and_running_header(scale_pdf):
    pages = scale_pdf.pages
    total = len(pages)
    assert total >= 2
    for number, page in enumerate(pages, 1):
        text = page.extract_text()
        assert f"{number} / {total}" in text
        if number > 1:
            assert "System & Reliability @scale Conference" in text  # the running header


def test_metadata_language_and_tagging(scale_pdf):
    assert scale_pdf.metadata.title == "System & Reliability @scale Conference"
    assert scale_pdf.metadata.subject
    root = scale_pdf.trailer["/Root"]
    assert root["/Lang"] == "en"
    assert bool(root["/MarkInfo"]["/Marked"]) and "/StructTreeRoot" in root
    width, height = (float(v) for v in scale_pdf.pages[0].mediabox[2:])
    assert round(width / 72 * 25.4) == 210 and round(height / 72 * 25.4) == 297  # A4


def test_bookmarks_for_all_sections(scale_pdf):
    titles = [item.title for item in scale_pdf.outline if not isinstance(item, list)]
    assert titles == [
        "Core Principles for Scaling Systems",
        "Key Challenges in Scaling",
        "Case Studies & Strategies",
        "Future Directions",
        "Conclusion",
    ]


def test_toc_links_resolve_to_their_sections(scale_pdf):
    named = scale_pdf.named_destinations
    links = []
    for annot in scale_pdf.pages[0].get("/Annots", []):
        annot = annot.get_object()
        if annot.get("/Subtype") == "/Link" and annot.get("/Dest") is not None:
            links.append(str(annot["/Dest"]))
    targets = list(dict.fromkeys(links))
    assert targets == [
        "core-principles-for-scaling-systems",
        "key-challenges-in-scaling",
        "case-studies-strategies",
        "future-directions",
        "conclusion",
    ]
    first_page_text = scale_pdf.pages[0].extract_text()
    for target in targets:
        page_number = scale_pdf.get_destination_page_number(named[target])
        # the TOC prints that page number next to the entry (target-counter)
        assert page_number is not None and f"{page_number + 1}" in first_page_text
    conclusion_page = scale_pdf.get_destination_page_number(named["conclusion"])
    assert "Conclusion" in scale_pdf.pages[conclusion_page].extract_text()


def test_letter_paper(cli, tmp_path, weasyprint):
    data, _ = _pdf(cli, NOTES / "scale2025.md", tmp_path, "--paper", "letter")
    width, height = (float(v) for v in PdfReader(io.BytesIO(data)).pages[0].mediabox[2:])
    assert (round(width), round(height)) == (612, 792)


def test_untagged_option(cli, tmp_path, weasyprint):
    data, _ = _pdf(cli, NOTES / "scale2025.md", tmp_path, "--untagged")
    assert "/StructTreeRoot" not in PdfReader(io.BytesIO(data)).trailer["/Root"]


def test_relative_image_is_embedded_and_broken_image_warns(cli, tmp_path, weasyprint):
    (tmp_path / "pic.png").write_bytes(tiny_png())
    note = tmp_path / "t.md"
    note.write_text("# T\n\n## A\n\n![pic](pic.png)\n\n![broken](broken.png)\n")
    (tmp_path / "broken.png").write_bytes(b"not a png")
    data, stderr = _pdf(cli, note, tmp_path)
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages[0].images) == 1
    assert "warning" in stderr and "image" in stderr.lower()


class _Recorder(BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:
        _Recorder.hits.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(tiny_png())

    def log_message(self, *args) -> None:
        pass


def test_hostile_note_fetches_nothing(cli, tmp_path, weasyprint):
    server = HTTPServer(("127.0.0.1", 0), _Recorder)
    port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    secret = tmp_path.parent / f"secret-{tmp_path.name}.png"
    secret.write_bytes(tiny_png())
    (tmp_path / "confnotes.toml").write_text("allow_html = true\n")
    note = tmp_path / "evil.md"
    note.write_text(
        "# Evil\n\n## Part\n\n"
        "![x](file:///etc/passwd)\n\n"
        f"![x](http://127.0.0.1:{port}/md.png)\n\n"
        f'<img src="http://127.0.0.1:{port}/raw.png">\n\n'
        f'<img src="file://{secret}">\n\n'
        '<img src="../' + secret.name + '">\n\n'
        f'<link rel="stylesheet" href="http://127.0.0.1:{port}/x.css">\n'
    )
    css = tmp_path / "extra.css"
    css.write_text(f"@import url(http://127.0.0.1:{port}/import.css);\nbody {{{{ background: url(file:///etc/passwd); }}}}\n")
    opened: list[str] = []
    connected: list[object] = []
    active = True

    def audit(event: str, args: tuple) -> None:
        if not active:
            return
        if event == "open" and args and isinstance(args[0], (str, bytes)) and ("passwd" in str(args[0]) or "secret-" in str(args[0])):
            opened.append(str(args[0]))
        if event == "socket.connect":
            connected.append(args[1] if len(args) > 1 else args)

    sys.addaudithook(audit)
    try:
        data, stderr = _pdf(cli, note, tmp_path, "--css", str(css))
    finally:
        active = False
        server.shutdown()
    assert data.startswith(b"%PDF")
    assert _Recorder.hits == [], "the PDF renderer made HTTP requests"
    assert connected == [], "the PDF renderer opened sockets"
    assert opened == [], "the PDF renderer read files outside the note's folder"
    assert "refused to fetch" in stderr


_LOADER_PROBE = """
import ctypes.util, sys
asked = []
real = ctypes.util.find_library
ctypes.util.find_library = lambda name: asked.append(name) or real(name)
probe = ctypes.util.find_library
{setup}
from confnotes.render.pdf import load_weasyprint
weasyprint = load_weasyprint()
assert ctypes.util.find_library is probe, "find_library is restored"
pdf = weasyprint.HTML(string="<p>loaded</p>").write_pdf()
assert pdf.startswith(b"%PDF")
print(len(asked), "lookups")
"""


def _probe(setup: str = "") -> str:
    import subprocess

    code = _LOADER_PROBE.format(setup=setup)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the slow library lookup is Linux's (ldconfig, gcc, ld)")
def test_weasyprint_loads_without_asking_ldconfig_gcc_and_ld(processes):
    # a plain import asks ctypes about the Windows and macOS names of every library first
    plain = _probe(setup="import weasyprint")
    assert int(plain.split()[0]) >= 7
    assert _probe() == "0 lookups\n"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the slow library lookup is Linux's (ldconfig, gcc, ld)")
def test_weasyprint_is_imported_the_usual_way_where_the_loader_alone_finds_nothing(processes):
    # the first import fails as it would where only ldconfig, gcc or ld know the libraries: WeasyPrint
    # prints its install advice and raises; confnotes imports it again, asking ctypes, with clean stdout
    setup = """
class FailOnce:
    failed = False
    def find_spec(self, name, path=None, target=None):
        if name == "weasyprint.text.ffi" and not FailOnce.failed:
            FailOnce.failed = True
            print("WeasyPrint could not import some external libraries")
            raise OSError("cannot load library 'libpango-1.0.so.0'")
        return None
sys.meta_path.insert(0, FailOnce())
"""
    out = _probe(setup=setup)
    assert "could not import" not in out
    assert int(out.split()[0]) >= 7


def test_without_pango_a_pdf_render_is_one_clear_error_and_stdout_stays_clean(tmp_path, processes):
    import subprocess

    note = tmp_path / "n.md"
    note.write_text("# T\n\n## A\n\n- x\n")
    code = f"""
import sys
class NoPango:
    def find_spec(self, name, path=None, target=None):
        if name == "weasyprint.text.ffi":
            print("WeasyPrint could not import some external libraries")
            raise OSError("cannot load library 'libpango-1.0.so.0'")
        return None
sys.meta_path.insert(0, NoPango())
from confnotes.cli import main
sys.argv = ["confnotes", "render", {str(note)!r}, "--to", "pdf", "-o", "-"]
main()
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "PDF output needs Pango and HarfBuzz" in lines[0] and "libpango-1.0.so.0" in lines[0] and "confnotes doctor" in lines[0]
    doctor = code.replace('"render", ' + repr(str(note)) + ', "--to", "pdf", "-o", "-"', '"doctor"')
    proc = subprocess.run([sys.executable, "-c", doctor], capture_output=True, text=True)
    assert "could not import" not in proc.stdout
    assert "MISSING  WeasyPrint: cannot load: cannot load library 'libpango-1.0.so.0'" in proc.stdout
