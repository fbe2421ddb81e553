"""A deterministic corpus of conference notes (Markdown and pasted style) for benchmarks."""

from __future__ import annotations

import random
from pathlib import Path

WORDS = (
    "scaling",
    "reliability",
    "latency",
    "throughput",
    "cluster",
    "training",
    "inference",
    "cache",
    "shard",
    "replica",
    "failover",
    "pipeline",
    "tensor",
    "gradient",
    "checkpoint",
    "budget",
    "incident",
    "rollback",
    "deploy",
    "canary",
    "observability",
    "trace",
    "metric",
    "queue",
    "backpressure",
    "schema",
    "migration",
    "index",
    "partition",
    "consensus",
    "quorum",
    "leader",
    "follower",
)


def _sentence(rng: random.Random, low: int = 6, high: int = 16) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    return " ".join(words).capitalize()


def markdown_note(rng: random.Random, index: int, target: int = 5000) -> str:
    out = [
        f'---\ntitle: "Talk {index}: {_sentence(rng, 3, 5)}"\nevent: Conf {index % 7}\ntags: [t{index % 5}]\n---\n',
        _sentence(rng, 12, 24) + ".\n",
    ]
    section = 0
    while sum(len(part) for part in out) < target:
        section += 1
        out.append(f"## Section {section} {_sentence(rng, 2, 4)}\n")
        for point in range(1, rng.randint(2, 4) + 1):
            out.append(f"{point}. {_sentence(rng, 3, 6)}")
            for _ in range(rng.randint(1, 4)):
                label = rng.choice(WORDS).capitalize()
                out.append(f"   - {label}: {_sentence(rng)}.")
            out.append("")
        if rng.random() < 0.5:
            out.append(_sentence(rng, 20, 40) + ".\n")
    return "\n".join(out) + "\n"


def pasted_note(rng: random.Random, index: int, target: int = 5000) -> str:
    out = [f"notes for the **Conference {index}**, structured for clarity:\n", f"talk{index}.md\n"]
    section = 0
    while sum(len(part) for part in out) < target:
        section += 1
        out.append(f"Section {section} {_sentence(rng, 2, 4)}\n")
        for point in range(1, rng.randint(2, 4) + 1):
            out.append(f"{point}. {_sentence(rng, 3, 6)}\n")
            for _ in range(rng.randint(1, 4)):
                out.append(f"   • {rng.choice(WORDS).capitalize()}: {_sentence(rng)}.")
            out.append("")
        out.append("---\n")
    out.append("Conclusion\n\n" + _sentence(rng, 20, 30) + ".")
    return "\n".join(out) + "\n"


def write_corpus(folder: Path, count: int, style: str = "mixed", seed: int = 2025, size: int = 5000) -> list[Path]:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        kind = style if style != "mixed" else ("markdown" if index % 2 == 0 else "pasted")
        text = markdown_note(rng, index, size) if kind == "markdown" else pasted_note(rng, index, size)
        path = folder / f"note{index:04d}.md"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def hundred_page_docx() -> bytes:
    """Conference notes over about 100 pages (LibreOffice counts 103): 68 talks, each with a heading,
    a speaker line, nested bullets, a bold sub-heading, a paragraph, code, a table; a screenshot
    every tenth talk. Words vary (a fixed seed), so the file compresses as real notes do."""
    import io
    import random

    import docx
    from docx.shared import Inches
    from PIL import Image

    rng = random.Random(2026)
    vocabulary = (Path(__file__).resolve().parent.parent / "notes" / "scale2025.md").read_text(encoding="utf-8").split() * 3
    vocabulary += [f"{word}{n}" for n, word in enumerate(("service", "cluster", "latency", "budget", "rollout", "queue"))]

    def words(count: int) -> str:
        return " ".join(rng.choice(vocabulary).strip("*#•") or "x" for _ in range(count))

    picture = io.BytesIO()
    Image.new("RGB", (640, 360), (30, 60, 110)).save(picture, "PNG")
    document = docx.Document()
    document.add_heading("A conference, one hundred pages of notes", 0)
    for talk in range(68):
        document.add_heading(f"Talk {talk}: {words(5)}", 1)
        document.add_paragraph(f"Speaker: {words(2)}, {words(1)}")
        for _ in range(8):
            document.add_paragraph(words(14), style="List Bullet")
            for _ in range(2):
                document.add_paragraph(words(9), style="List Bullet 2")
        document.add_paragraph().add_run("Q&A").bold = True
        document.add_paragraph(words(30))
        for line in range(4):
            document.add_paragraph().add_run(f"kubectl get pods -n team-{talk} -l app={words(1)}-{line}").font.name = "Courier New"
        table = document.add_table(rows=4, cols=3)
        for row in range(4):
            for col in range(3):
                table.cell(row, col).text = words(2)
        if talk % 10 == 0:
            picture.seek(0)
            document.add_picture(picture, width=Inches(4))
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
