"""The conference notes behind the import fixtures, as a small neutral structure every writer renders.

A note is a list of elements:

- ``("title", text)``, ``("subtitle", text)``, ``("h", level, text)``
- ``("p", inline)`` — a paragraph; ``inline`` is a string or a list of parts: ``str``,
  ``("b", text)``, ``("i", text)``, ``("code", text)``, ``("link", text, url)``
- ``("bold", text)`` — a bold-only line (a sub-heading typed by hand)
- ``("ul", items)`` / ``("ol", items)`` — ``items``: ``(inline, [sub-items])``, sub-items of the same kind
  as their list unless given as ``("ul", items)``
- ``("code", text)``, ``("table", rows)``, ``("img", alt)``
"""

from __future__ import annotations

from typing import Any

Note = list[tuple[Any, ...]]

KUBECON: Note = [
    ("title", "KubeCon EU 2026 — Day 1"),
    ("subtitle", "London, ExCeL · notes by Sam"),
    ("h", 1, "Keynote: The Next Ten Years of Cloud Native"),
    ("p", "Speaker: Priya Raman, CNCF"),
    (
        "ul",
        [
            (
                "Adoption is now boring, which is the goal",
                [("87% of orgs run Kubernetes in production", []), ("the hard part moved to platform teams", [])],
            ),
            (
                "Three bets for the decade",
                [
                    ("WebAssembly beside containers", [("cold starts under 5 ms", []), ("same OCI registries", [])]),
                    ("AI inference as a workload class", []),
                ],
            ),
            (["Slides: ", ("link", "kccnc.eu/keynote-day1", "https://kccnc.eu/keynote-day1")], []),
        ],
    ),
    ("img", "Keynote slide: adoption curve 2016–2026"),
    ("h", 1, "Talk: Gateway API in Practice"),
    ("p", "Speaker: Luis Ortega, Tetrate"),
    ("bold", "Migration path"),
    (
        "ol",
        [
            ("Inventory every Ingress annotation", []),
            ("Map annotations to HTTPRoute filters", [("rewrites and redirects map one to one", [])]),
            ("Run both side by side for a sprint", []),
        ],
    ),
    ("p", ["Check the CRDs first with ", ("code", "kubectl get crd | grep gateway"), " before anything else."]),
    ("code", "kubectl apply -f https://example.com/gateway-api/v1.2/standard-install.yaml\nkubectl get gatewayclasses"),
    ("bold", "Q&A"),
    (
        "ul",
        [("Does it replace service mesh? No, it is the API a mesh can implement", []), ("Status conditions are the debugging tool", [])],
    ),
    (
        "table",
        [
            ["Feature", "Ingress", "Gateway API"],
            ["Header matching", "annotation", "built in"],
            ["Traffic split", "no", "weights"],
            ["Role model", "one object", "three roles"],
        ],
    ),
]

SRECON: Note = [
    ("p", "SREcon Americas notes"),
    ("p", "Talk: Incident Command at Scale"),
    ("p", "Speaker: Dana Whitfield, Stripe"),
    ("ul", [("Roles before tools", [("incident commander", []), ("scribe and comms lead", [])]), ("Declare early, downgrade freely", [])]),
    ("p", "Talk: Error Budgets That Teams Actually Use"),
    ("p", "Speaker: Marco Bianchi"),
    ("ul", [("Budgets per user journey, not per service", []), ("Burn rate alerts at 2% and 5%", [("page on fast burn only", [])])]),
    ("bold", "Q&A"),
    ("ul", [("How to start? Pick one journey and one SLO", [])]),
    ("p", "Keynote: Reliability Is a Product Feature"),
    ("ul", [("Customers notice p99, not averages", []), ("Publish the status page numbers", [])]),
]

PYCON: Note = [
    ("title", "PyCon US 2026: Typing Talks"),
    ("h", 1, "Typing Large Codebases Gradually"),
    ("p", ["Speaker: Ana Lima · ", ("i", "Instagram server team")]),
    (
        "ol",
        [
            ("Start at the leaves", [("ul", [("utility modules first", []), ("then the data models", [])])]),
            ("Turn on strict per package", [("ul", [(["use ", ("code", "[[tool.mypy.overrides]]")], [])])]),
            ("Count untyped defs every week", []),
        ],
    ),
    ("code", '[tool.mypy]\nstrict = true\n\n[[tool.mypy.overrides]]\nmodule = "legacy.*"\nignore_errors = true'),
    ("h", 1, "Protocols vs ABCs"),
    ("p", "Speaker: Ben Carter"),
    (
        "ul",
        [("Protocols check structure, ABCs check ancestry", []), (["Read ", ("link", "PEP 544", "https://peps.python.org/pep-0544/")], [])],
    ),
    ("ol", [("Define the protocol where it is used", []), ("Keep it to two or three methods", [])]),
    ("p", "A protocol that grows past five methods is usually an ABC in disguise, said the speaker."),
]

PLATFORM: Note = [
    ("title", "Platform Engineering Day"),
    ("p", "Date: 2026-03-23 · Event: KubeCon co-located"),
    ("h", 1, "Golden Paths Without the Gold Plating"),
    ("p", "Speaker: Hannah Ortiz, Spotify"),
    (
        "ul",
        [
            ("A golden path is a paved road, not a fence", [("teams may leave it, and pay the toll", [])]),
            ("Measure adoption, not features", []),
        ],
    ),
    ("h", 2, "What they measured"),
    (
        "table",
        [["Metric", "Before", "After"], ["Lead time", "9 days", "2 days"], ["Onboarding", "3 weeks", "4 days"], ["Templates", "41", "6"]],
    ),
    ("img", "Screenshot of the Backstage template catalogue"),
    ("h", 1, "Internal Developer Portals: Year Two"),
    ("p", "Speaker: Wei Zhang"),
    ("ul", [("Year one is the catalogue", []), ("Year two is scorecards", [("owners must see their own score first", [])])]),
    ("p", ["Run ", ("code", "backstage-cli versions:bump"), " monthly, not yearly."]),
]

VELOCITY: Note = [
    ("p", "Velocity Berlin — hallway track"),
    ("p", ["Notes from the ", ("b", "performance"), " room, typed on a phone between sessions."]),
    ("bold", "Session 1: Core Web Vitals in 2026"),
    ("ul", [("INP replaced FID two years ago", []), ("Long tasks are still the enemy", [("break work with scheduler.yield", [])])]),
    ("bold", "Session 2: Edge Caching"),
    ("ul", [("Cache keys include the device class", []), ("Stale while revalidate everywhere", [])]),
    ("p", "Speaker: Olu Adeyemi"),
    ("code", "Cache-Control: max-age=60, stale-while-revalidate=600"),
    ("bold", "Takeaways"),
    ("ol", [("Measure field data, not lab data", []), ("Ship less JavaScript", [])]),
]

DATACOUNCIL: Note = [
    ("title", "Data Council: Streaming Track"),
    ("h", 1, "Exactly Once Is a Lie We Tell Politely"),
    ("p", "Speaker: Ines Duarte, Confluent"),
    ("ol", [("Idempotent producers", []), ("Transactional writes", []), ("Consumers that dedupe", [])]),
    ("p", "Then the second half of the talk restarted the numbering:"),
    ("ol", [("Checkpoint barriers", []), ("Two phase commit sinks", [])]),
    ("h", 2, "Demo"),
    ("code", "SELECT user_id, count(*)\nFROM clicks\nGROUP BY user_id, TUMBLE(ts, INTERVAL '1' MINUTE);"),
    ("h", 1, "Lakehouse Tables for Streams"),
    ("p", "Speaker: Tom Becker"),
    (
        "ul",
        [
            (["Iceberg ", ("i", "and"), " Delta both compact small files"], [("compaction every 15 minutes", [])]),
            ("Schema evolution needs a registry", []),
        ],
    ),
]

NOTES: dict[str, Note] = {
    "kubecon": KUBECON,
    "srecon": SRECON,
    "pycon": PYCON,
    "platform": PLATFORM,
    "velocity": VELOCITY,
    "datacouncil": DATACOUNCIL,
}


def parts(inline: Any) -> list[tuple[str, ...]]:
    """Inline content as ``(kind, text[, url])`` parts: kind ``t`` (plain), ``b``, ``i``, ``code``, ``link``."""
    if isinstance(inline, str):
        return [("t", inline)]
    return [("t", part) if isinstance(part, str) else part for part in inline]


def sub_list(kind: str, children: list[Any]) -> tuple[str, list[Any]] | None:
    """The sub-list of an item: ``(kind, items)``, or None."""
    if not children:
        return None
    if isinstance(children[0], tuple) and len(children) == 1 and children[0][0] in ("ul", "ol") and isinstance(children[0][1], list):
        return children[0][0], children[0][1]
    return kind, children


def screenshot_png(alt: str) -> bytes:
    """A small slide-like picture (a title bar and bars of a chart): a screenshot's shape, not its weight."""
    import io
    import zlib

    width, height = 160, 90
    rows = []
    seed = zlib.crc32(alt.encode())
    for y in range(height):
        row = bytearray([0])
        for x in range(width):
            if y < 14:
                pixel = (30, 60, 110)
            elif y > 20 and (x // 20) % 2 == 0 and y > 88 - ((seed >> (x // 20)) % 60):
                pixel = (240, 140, 40)
            else:
                pixel = (250, 250, 250)
            row += bytes(pixel)
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        import struct

        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    import struct

    out = io.BytesIO()
    out.write(b"\x89PNG\r\n\x1a\n")
    out.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
    out.write(chunk(b"IDAT", raw))
    out.write(chunk(b"IEND", b""))
    return out.getvalue()
