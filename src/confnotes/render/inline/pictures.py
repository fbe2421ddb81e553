"""Pictures in a page or deck: embedded as data URIs within the page's budget, remote ones linked,
SVGs counted against a PDF's budget of drawn elements.
"""

from __future__ import annotations

import base64
import mimetypes
import re
from typing import Any
from urllib.parse import unquote, urlsplit

from markupsafe import escape

from confnotes.edges.images import image_warning, locate, shown_source
from confnotes.edges.video import check_video, is_video, playback, poster, poster_warning
from confnotes.render.inline.base import InlineBase
from confnotes.render.inline.links import safe_link
from confnotes.render.inline.links import scheme as scheme_of

_DATA_IMAGE = re.compile(r"^data:image/(png|jpe?g|gif|webp|svg\+xml);", re.IGNORECASE)

#: Images embedded in one page or deck, in all (each embedding counts).
MAX_PAGE_IMAGE_BYTES = 24 * 1024 * 1024

MAX_IMAGE_BYTES = 8 * 1024 * 1024

#: SVG elements a PDF draws, in all of a page's SVG images (each embedding counts): WeasyPrint took
#: 63 s and 824 MB for one 200,000-element SVG. An SVG past the budget is shown as its alt text.
MAX_PRINTED_SVG_ELEMENTS = 20_000


def _data_bytes(src: str) -> bytes:
    """The bytes a ``data:`` URL holds (base64 or percent-encoded); empty when they cannot be read."""
    import binascii
    from urllib.parse import unquote_to_bytes

    head, _, payload = src.partition(",")
    try:
        return base64.b64decode(payload) if head.lower().endswith(";base64") else unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return b""


class PictureRules(InlineBase):
    def _image(self, renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        src = token.attrGet("src") or ""
        alt = renderer.renderInlineAsText(token.children or [], options, env)
        title = token.attrGet("title")
        if is_video(src):
            return self._video(src, alt, title or "")
        title_attr = f' title="{escape(title)}"' if title else ""
        if _DATA_IMAGE.match(src):
            if self.printed and src[:19].lower() == "data:image/svg+xml;" and not self._svg_fits(src, _data_bytes(src)):
                return f'<span class="missing-image">{escape(alt)}</span>'
            return f'<img src="{escape(src)}" alt="{escape(alt)}"{title_attr}>'
        scheme = scheme_of(src)
        if scheme in ("http", "https"):  # nothing is fetched: a placeholder that links to the image
            return f'<a class="remote-image" href="{escape(src)}" title="Image (not embedded): {escape(src)}">{escape(alt or src)}</a>'
        if scheme:
            self.warnings.append(image_warning(src, self.base_dir) or f"image {shown_source(src)} not embedded")
            return f'<span class="missing-image">{escape(alt)}</span>'
        data_uri = self._embed(src)
        if data_uri == "":  # over the page's budget: linked beside the page instead
            return f'<img src="{escape(src)}" alt="{escape(alt)}"{title_attr}>'
        if data_uri is None:
            return f'<span class="missing-image" title="{escape(src)}">{escape(alt or src)}</span>'
        return f'<img src="{data_uri}" alt="{escape(alt)}"{title_attr}>'

    def _video(self, src: str, alt: str, title: str) -> str:
        """A video (``edges.video``): played in a page or deck, with its controls (autoplay, loop and
        muted only when its title asks); printed as its first frame linked to the file; a link
        where it cannot be used, with the warning every output gives."""
        label = escape(alt or src)
        # a link only to an address a reader may follow (no javascript:), as every link of the page
        link = f'<a class="video-link" href="{escape(src)}">{label}</a>' if safe_link(src) else f"<span>{label}</span>"
        video, problem = check_video(src, self.base_dir if self.embed_images else None)
        if video is None:  # (a web video: nothing is fetched, no warning)
            if problem is not None:
                self.warnings.append(problem)
            return link
        if self.printed:
            shown = poster(video)
            self._embedded_bytes += len(shown.png)  # the page's budget of pictures counts posters too
            if (why := poster_warning(src, shown)) is not None:
                self.warnings.append(why)
            name = unquote(urlsplit(src).path).rsplit("/", 1)[-1]
            caption = f'<span class="video-caption">\u25b6 {escape(name)}</span>'
            return f'<a class="video-poster" href="{escape(src)}"><img src="{shown.data_uri}" alt="{escape(alt or name)}">{caption}</a>'
        asks = playback(title)
        options = "".join(f" {word}" for word in asks) + (" muted" if "autoplay" in asks and "muted" not in asks else "")
        tip = "" if asks or not title else f' title="{escape(title)}"'
        if self._embedded_bytes + video.size > MAX_PAGE_IMAGE_BYTES:
            self.warnings.append(f"video {src!r} linked, not embedded: the page's pictures passed {MAX_PAGE_IMAGE_BYTES >> 20} MB")
            address = str(escape(src))
        else:
            self._embedded_bytes += video.size
            address = f"data:{video.mime};base64,{base64.b64encode(video.path.read_bytes()).decode('ascii')}"
        shown = poster(video)  # the frame a second in, not the black a video often opens on
        cover = f' poster="{shown.data_uri}"' if shown.problem is None else ""
        self._embedded_bytes += len(shown.png) if cover else 0
        return (
            f'<video class="video" src="{address}"{cover} controls preload="metadata" playsinline{options}'
            f' aria-label="{escape(alt or src)}"{tip}>{link}</video>'
        )

    def _embed(self, src: str) -> str | None:
        target, problem = locate(src, self.base_dir if self.embed_images else None)
        if target is None:
            self.warnings.append(problem or f"image {src!r} not embedded")
            return None
        if target.stat().st_size > MAX_IMAGE_BYTES:
            self.warnings.append(f"image {src!r} is larger than 8 MB; not embedded")
            return None
        mime = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if not mime.startswith("image/"):
            self.warnings.append(f"{src!r} is not an image")
            return None
        size = target.stat().st_size
        if self._embedded_bytes + size > MAX_PAGE_IMAGE_BYTES:
            # every embedding counts, so a note that shows one big image many times cannot blow up the page
            self.warnings.append(f"image {src!r} linked, not embedded: the page's images passed {MAX_PAGE_IMAGE_BYTES >> 20} MB")
            return ""
        if self.printed and mime == "image/svg+xml" and not self._svg_fits(src, target.read_bytes()):
            return None
        self._embedded_bytes += size
        if target not in self._embedded:
            self._embedded[target] = f"data:{mime};base64,{base64.b64encode(target.read_bytes()).decode('ascii')}"
        return self._embedded[target]

    def _svg_fits(self, src: str, data: bytes) -> bool:
        """Whether the SVG ``data`` fits what is left of the page's budget of drawn SVG elements
        (``render.svg``); a warning when it does not."""
        from confnotes.render.svg import drawn_elements

        left = MAX_PRINTED_SVG_ELEMENTS - self._svg_elements
        count = drawn_elements(data, left)
        if count > left:
            self.warnings.append(
                f"image {shown_source(src)} not drawn in the PDF: its SVG would draw more than {left:,} elements "
                f"(a PDF draws at most {MAX_PRINTED_SVG_ELEMENTS:,}, all its SVGs together); its alt text is shown"
            )
            return False
        self._svg_elements += count
        return True
