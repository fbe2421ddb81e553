"""``confnotes doctor``: what this machine has and lacks for each output, with the line that installs it."""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass

from confnotes.edges.fonts import SCRIPTS, used_scripts
from confnotes.edges.fonts import families as font_families

#: Scripts a note may be written in: (name, fontconfig language, characters of the script, Debian package).


@dataclass(frozen=True)
class Check:
    """One thing confnotes may use: whether it is here, what it is for and how to install it."""

    name: str
    ok: bool
    detail: str
    needed_for: str
    install: str = ""
    required: bool = False

    def line(self) -> str:
        mark = "ok     " if self.ok else ("MISSING" if self.required else "missing")
        text = f"{mark}  {self.name}: {self.detail} ({self.needed_for})"
        return text if self.ok or not self.install else f"{text}\n         install: {self.install}"


def _weasyprint() -> list[Check]:
    from confnotes.errors import NotesError
    from confnotes.render.pdf import load_weasyprint

    try:
        weasyprint = load_weasyprint()
        from weasyprint.text.ffi import harfbuzz_subset, pango
    except (ImportError, OSError, NotesError) as failure:
        exc = failure.__cause__ or failure
        return [
            Check(
                "WeasyPrint",
                False,
                f"cannot load: {exc}",
                "PDF, slides PDF, handout",
                "apt-get install libpango-1.0-0 libpangoft2-1.0-0",
                required=True,
            )
        ]
    version = pango.pango_version()
    pango_text = f"{version // 10000}.{version // 100 % 100}.{version % 100}"
    return [
        Check("WeasyPrint", True, f"{weasyprint.__version__} with Pango {pango_text}", "PDF, slides PDF, handout"),
        Check(
            "HarfBuzz subset",
            harfbuzz_subset is not None,
            "found" if harfbuzz_subset is not None else "not found: fonts are subset with fontTools (slower, and WeasyPrint warns)",
            "small, fast PDFs",
            "apt-get install libharfbuzz-subset0",
        ),
    ]


def _fonts(text: str | None) -> list[Check]:
    if shutil.which("fc-list") is None:
        return [Check("fontconfig", False, "fc-list not found", "choosing fonts for PDFs", "apt-get install fontconfig")]
    checks = []
    used = None if text is None else {lang for _, lang, _ in used_scripts(text)}
    for name, lang, _, package in SCRIPTS:
        if used is not None and lang != "en" and lang not in used:
            continue
        families = list(font_families(lang))
        checks.append(
            Check(
                f"fonts for {name}",
                bool(families),
                ", ".join(families[:3]) or "none",
                f"{name} text in PDFs, else it prints as boxes",
                f"apt-get install {package}",
                required=lang == "en",
            )
        )
    return checks


def _programs() -> list[Check]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    return [
        Check("Chromium", chromium is not None, chromium or "not found", "browser tests of pages and decks", "apt-get install chromium"),
        Check(
            "LibreOffice", soffice is not None, soffice or "not found", "opening PPTX decks in tests", "apt-get install libreoffice-impress"
        ),
        *_diagram_tools(),
        Check(
            "pdftotext",
            shutil.which("pdftotext") is not None,
            shutil.which("pdftotext") or "not found",
            "reading PDFs in tests",
            "apt-get install poppler-utils",
        ),
    ]


def _diagram_tools() -> list[Check]:
    from confnotes.markup.diagrams import INSTALL, program

    mermaid, dot = program("mermaid"), program("dot")
    return [
        Check(
            "mermaid-cli", mermaid is not None, mermaid or "not found (or no chromium)", "drawing ```mermaid diagrams", INSTALL["mermaid"]
        ),
        Check("Graphviz", dot is not None, dot or "not found", "drawing ```dot diagrams", INSTALL["dot"]),
    ]


def _extras() -> list[Check]:
    """Each optional part of confnotes (``edges.extras``): installed or not, and the line that installs it."""
    from confnotes.edges.extras import EXTRAS, available

    found = []
    for extra in EXTRAS:
        absent = [dist for module, dist in zip(extra.modules, extra.distributions, strict=True) if not available(module)]
        detail = "installed" if not absent else f"not installed ({', '.join(absent)})"
        found.append(Check(f"confnotes[{extra.name}]", not absent, detail, extra.gives, f"pip install 'confnotes[{extra.name}]'"))
    return found


def checks(note_text: str | None = None) -> list[Check]:
    """Everything ``doctor`` looks at; with ``note_text``, fonts only for the scripts the note uses."""
    python = Check("Python", sys.version_info >= (3, 11), sys.version.split()[0], "confnotes", required=True)
    return [python, *_extras(), *_weasyprint(), *_fonts(note_text), *_programs()]
