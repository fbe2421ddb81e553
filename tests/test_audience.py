"""The audience following a talk (``serve --audience``): phones at the follow address show the slide
the presenter shows, without speaker notes, and cannot move the talk; a wrong token or key is
refused; the follow address and its QR code are on the title slide."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

import pytest

from test_browser_stage import paused_context

NOTE = """---
title: "Shipping Safely at Scale: How Forty-One Teams Learned to Deploy Without Fear"
speakers: [Ana Costa]
kind: talk
---

## Why Fridays

- Small changes ship any day

::: notes
The okapi story goes here.
:::

## How we ship

- Canary first, then half the fleet

## What broke

- One config change, once
"""


# ------------------------------------------------------------------ in process


def _one_off(secret: str) -> str:
    """``secret`` with its last character changed (replacing it with a fixed one failed 1 time in 64,
    when the random secret already ended with it)."""
    return secret[:-1] + ("y" if secret.endswith("x") else "x")


def test_a_presenters_report_is_read_only_when_it_is_a_slide_of_a_deck():
    from confnotes.audience import new_audience

    audience = new_audience("127.0.0.1", 8000)
    pages = {"talk.slides.html": "talk.md", "talk.html": "talk.md"}
    good = {"page": "talk.slides.html", "index": 2, "step": 1, "screen": "black"}
    assert json.loads(audience.publish(json.dumps(good).encode(), pages) or "null") == good
    assert audience.page == "talk.slides.html"
    for bad in (
        {**good, "page": "talk.html"},  # a page, not a deck
        {**good, "page": "../../etc/passwd.slides.html"},  # not a page of the site
        {**good, "index": -1},
        {**good, "index": "3"},
        {**good, "screen": "red"},
        {"page": "talk.slides.html"},
    ):
        assert audience.publish(json.dumps(bad).encode(), pages) is None, bad
    assert audience.publish(b"\xff not json", pages) is None
    first, late = ({**good, "from": "a1", "n": n, "index": n} for n in (7, 6))
    assert audience.publish(json.dumps(first).encode(), pages)
    assert audience.publish(json.dumps(late).encode(), pages) == ""  # sent before the one applied: dropped
    assert json.loads(audience.shown)["index"] == 7
    reloaded = {**good, "from": "b2", "n": 1, "index": 3}  # the presenter's page loaded again counts anew
    assert json.loads(audience.publish(json.dumps(reloaded).encode(), pages) or "null")["index"] == 3
    assert audience.follows(audience.token) and not audience.follows(_one_off(audience.token))
    assert len(audience.key) >= 32 and audience.key != audience.token
    assert new_audience("127.0.0.1", 8000).token != audience.token  # random for each preview


def test_the_presenters_deck_carries_the_follow_address_and_its_qr_code_on_the_title_slide():
    import segno

    from confnotes.audience import new_audience, presenter_page

    audience = new_audience("127.0.0.1", 8000)
    deck = (
        b'<html><head></head><body><main class="slides"><section class="slide title-slide" id="s1"><h1>T</h1></section>'
        b'<section class="slide">2</section></main></body></html>'
    )
    page = presenter_page(deck, audience, "talk.slides.html").decode()
    first = page.split('<section class="slide">')[0]
    assert "confnotes-follow" in first and audience.follow_url in first and "<svg" in first
    expected = segno.make(audience.follow_url, error="m")  # the code of the follow address, not of another
    assert expected.designator in ("1-M", "2-M", "3-M", "4-M") and 'aria-label="QR code of the follow address"' in first
    assert "+'slide'" in page and audience.key not in page.replace(audience.follow_url, "")  # the key is the page's address
    assert 'class="confnotes-follow-slide slide title-slide"' in first and ".confnotes-follow-slide > " in page.split("</head>")[0]


class _Refused(Exception):
    pass


def _route(path: str, client: str, server: str = "192.0.2.2"):
    """How a request for ``path`` from ``client`` is routed under ``serve --audience --host 0.0.0.0``
    on a machine at ``server``: ``(goes on as the site's, presenting, status sent or None, whether
    its error page may show the build's errors)``."""
    from confnotes.audience import new_audience
    from confnotes.serve import PreviewHandler

    audience = new_audience("0.0.0.0", 8000)
    audience.address = f"http://{server}:8000"
    handler = object.__new__(PreviewHandler)
    handler.audience, handler.path, handler.client_address = audience, path.format(key=audience.key, token=audience.token), (client, 5000)
    handler.connection = type("Socket", (), {"getsockname": lambda _socket: (server, 8000)})()
    sent: list[int] = []
    handler.send_error = lambda code, *_: sent.append(int(code))  # type: ignore[method-assign]
    handler._follow = lambda rest: sent.append(200 if audience.follows(rest.partition("/")[0]) else 404)  # type: ignore[method-assign]
    handler.trusted = True  # the request named the server's address (``_answer``)
    goes_on = handler._audience_route()
    return goes_on, handler.presenting, (sent[0] if sent else None), handler.trusted


@pytest.mark.parametrize(
    ("path", "client", "expected"),
    [
        ("/talk.slides.html", "192.0.2.77", (False, False, 404, False)),  # a phone: not the site, notes and all
        ("/present/{key}/talk.slides.html", "192.0.2.77", (False, False, 404, False)),  # nor with the key off the projector
        ("/present/{key}/slide", "192.0.2.77", (False, False, 404, False)),
        ("/__confnotes/events", "192.0.2.77", (False, False, 404, False)),
        ("/follow/{token}/", "192.0.2.77", (False, False, 200, False)),  # the follow address: anyone with its token
        ("/follow/x{token}/", "192.0.2.77", (False, False, 404, False)),
        ("/talk.slides.html", "127.0.0.1", (True, False, None, True)),  # this machine: the preview as ever
        ("/present/{key}/talk.slides.html", "192.0.2.2", (True, True, None, True)),  # the laptop at its own address
        ("/present/x{key}/talk.slides.html", "127.0.0.1", (False, False, 404, True)),
        ("/talk.slides.html", "::ffff:127.0.0.1", (True, False, None, True)),
    ],
)
def test_another_machine_reaches_only_the_follow_address(path, client, expected):
    assert _route(path, client) == expected


# ------------------------------------------------------------------ in Chromium, under serve


@pytest.fixture
def talk_served(tmp_path):
    from helpers import start_serve

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "talk.md").write_text(NOTE, encoding="utf-8")
    proc, port = start_serve(notes / "talk.md", None, "--audience")
    lines = [proc.stdout.readline() for _ in range(5)]
    follow = next(re.search(r"Audience: (\S+)", line).group(1) for line in lines if line.startswith("Audience:"))
    present = next(line.strip() for line in lines if "/present/" in line)
    yield follow, present, port
    proc.kill()
    proc.wait()


def _slide(page) -> int:
    return int(page.get_attribute("body", "data-slide") or 0)


def test_two_phones_follow_the_presenter_and_a_wrong_token_is_refused(browser, talk_served):
    follow, present, port = talk_served
    phones = [paused_context(browser, (390, 844)) for _ in range(2)]
    laptop = paused_context(browser, (1280, 720))
    try:
        followers = [context.new_page() for context in phones]
        for page in followers:  # before the talk starts: a page that waits for it
            page.goto(follow)
            assert "has not started yet" in page.content()
        presenter = laptop.new_page()
        presenter.goto(present)
        title = presenter.locator(".slide.current .confnotes-follow")
        assert title.is_visible() and follow in title.inner_text() and title.locator("svg").count() == 1
        card, heading = title.bounding_box(), presenter.locator(".slide.current .slide-title").bounding_box()
        assert card and heading and heading["x"] + heading["width"] <= card["x"]  # a long title wraps beside the card
        for page in followers:  # the talk started: each phone loads the deck, at the presenter's slide
            page.wait_for_function("() => document.body.getAttribute('data-slide') === '1'")
            assert "okapi" not in page.content() and page.locator(".confnotes-follow").count() == 0
        presenter.keyboard.press("ArrowRight")
        presenter.keyboard.press("ArrowRight")
        for page in followers:
            page.wait_for_function("() => document.body.getAttribute('data-slide') === '3'")
        followers[0].keyboard.press("ArrowRight")  # a phone may look ahead, but cannot move the talk
        assert _slide(presenter) == 3 and _slide(followers[1]) == 3
        presenter.keyboard.press("b")  # a black screen reaches the phones too
        followers[1].wait_for_function("() => document.body.getAttribute('data-screen') === 'black'")
        stranger = browser.new_page()
        answer = stranger.goto(follow.replace("/follow/", "/follow/x"))
        assert answer is not None and answer.status == 404 and "Forty-One" not in stranger.content()
        stranger.close()
    finally:
        for context in (*phones, laptop):
            context.close()
    key = present.split("/present/")[1].split("/")[0]
    with pytest.raises(urllib.error.HTTPError) as refused:  # a report without the key moves nothing
        body = json.dumps({"page": "talk.slides.html", "index": 0, "step": 0}).encode()
        urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/present/{_one_off(key)}/slide", body, method="POST"))
    assert refused.value.code == 404


def test_beyond_this_machine_only_the_follow_and_presenter_addresses_answer(tmp_path, processes):
    from helpers import start_serve

    (tmp_path / "talk.md").write_text(NOTE, encoding="utf-8")
    proc, port = start_serve(tmp_path / "talk.md", None, "--audience", "--host", "0.0.0.0")
    try:
        lines = [proc.stdout.readline() for _ in range(5)]
        follow = next(re.search(r"Audience: (\S+)", line).group(1) for line in lines if line.startswith("Audience:"))
        present = next(line.strip() for line in lines if "/present/" in line)
        outside = follow.split("/follow/")[0]
        if outside.startswith("http://127."):
            pytest.skip("this machine has no network address besides loopback")

        def status(url: str) -> int:
            try:
                with urllib.request.urlopen(url, timeout=30) as answer:
                    return answer.status
            except urllib.error.HTTPError as exc:
                return exc.code

        assert status(f"http://127.0.0.1:{port}/talk.slides.html") == 200  # this machine's own preview
        assert status(f"{outside}/talk.slides.html") == 200  # the laptop at its own network address: this machine too
        assert status(follow) == 200 and status(present) == 200
        assert status(follow.replace("/follow/", "/follow/A")) == 404
        with urllib.request.urlopen(follow.rstrip("/"), timeout=30) as answer:  # typed without its last "/"
            assert answer.url == follow
        key_base = present.rsplit("/", 1)[0]
        with urllib.request.urlopen(f"{key_base}/__confnotes/events?page=talk.slides.html", timeout=30) as events:
            assert events.headers["Content-Type"] == "text/event-stream"  # the presenter's deck reloads on save
            assert events.readline() == b": connected\n"

        def report(body: bytes, length: str | None = None) -> int:
            request = urllib.request.Request(f"{key_base}/slide", body, method="POST")
            if length is not None:
                request.add_unredirected_header("Content-Length", length)
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    return answer.status
            except urllib.error.HTTPError as exc:
                return exc.code

        assert report(json.dumps({"page": "talk.slides.html", "index": 1, "step": 0}).encode()) == 204
        assert report(b"{not json") == 400
        assert report(json.dumps({"page": "../../etc/passwd", "index": 1, "step": 0}).encode()) == 400
        assert report(b"x" * 2048) == 400  # over the report's kilobyte: refused unread
        assert status(present.replace("/present/", "/present/A")) == 404
    finally:
        proc.kill()
        proc.wait()


def test_a_phone_waits_on_a_deck_that_cannot_be_shown_without_reloading_in_a_loop():
    """A deck the server cannot render for phones (its file gone mid-build): the page waits for the
    deck's build or another deck, not for a slide of this one, which every stream gets on opening."""
    from confnotes.audience import unavailable

    page = unavailable("day 1/talk.slides.html").decode()
    assert "cannot be shown just now" in page and 'var page="day 1/talk.slides.html"' in page
    assert "addEventListener('rebuilt',function(){location.reload();})" in page
    assert "JSON.parse(e.data).page!==page)location.reload()" in page  # another deck: load it
