"""Videos a note shows (``![demo](demo.mp4)``): which references are videos, the check every output
makes before it uses one, and the poster frame printed outputs show in its place (the frame a second in).

A video is checked like an image (``edges.images.locate``: a file inside the note's folder), its
kind read from its bytes (an MP4/QuickTime ``ftyp`` box, WebM's EBML header, an Ogg page), never
from its name, and its size bounded. The HTML page and deck play it (controls, no autoplay unless
its title asks: ``![demo](demo.mp4 "autoplay loop")``); PDF, PNG and the handout print its
frame a second in with a link to the file; PPTX embeds it as a movie with that frame as its
poster; Word and Marp link it. The frame is decoded by PyAV (the ``video`` extra), from at most a
bounded number of packets of a bounded picture; without PyAV, or from a file it cannot read, the
poster is a drawn play mark, with one warning.
"""

from __future__ import annotations

import base64
import hashlib
import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from confnotes.edges.images import is_web, locate, shown_source

#: the file suffixes of videos: what a picture reference names to be played, and what the live
#: preview watches
VIDEO_SUFFIXES = (".mp4", ".m4v", ".mov", ".webm", ".ogv")
#: A video larger than this is not embedded in a page, a deck or a PPTX: it is linked instead.
MAX_VIDEO_BYTES = 64 * 1024 * 1024
#: A poster frame is decoded only from a picture at most this wide and high ...
MAX_VIDEO_SIDE = 8192
#: ... within this many packets of the file's first video stream.
MAX_POSTER_PACKETS = 256
#: The poster is the frame shown this many seconds in (many videos open on black), or the last
#: one decoded before it.
POSTER_SECONDS = 1.0
#: A poster is scaled down to at most this many pixels a side.
MAX_POSTER_SIDE = 1920
#: the words a video's title may hold to ask the HTML outputs to play it so (a title of other
#: words is a tooltip)
PLAYBACK = ("autoplay", "loop", "muted")


@dataclass(frozen=True, slots=True)
class Video:
    """A video file a note names, checked: where it is, its MIME type and its size in bytes."""

    path: Path
    mime: str
    size: int


def is_video(src: str) -> bool:
    """Whether the picture reference ``src`` names a video (by its path's suffix: ``demo.mp4``,
    ``clips/intro.webm?t=3``), local or not."""
    if src[:5].lower() == "data:":
        return src[5:11].lower() == "video/"
    return Path(unquote(urlsplit(src).path)).suffix.lower() in VIDEO_SUFFIXES


def video_mime(head: bytes) -> str | None:
    """The MIME type of the video whose first bytes are ``head``, or None when they hold none."""
    if head[4:8] == b"ftyp":
        return "video/quicktime" if head[8:10] == b"qt" else "video/mp4"
    if head[:4] == b"\x1a\x45\xdf\xa3":
        return "video/webm"
    if head[:4] == b"OggS":
        return "video/ogg"
    return None


def check_video(src: str, root: Path | str | None, embedded: bool = True) -> tuple[Video | None, str | None]:
    """The video ``src`` names inside the note's folder ``root``, or why it cannot be used, in the
    words every output warns with; neither for a web video (linked, nothing fetched). An output
    that only links its videos (Word, Marp) asks with ``embedded`` False: no bound on the size."""
    if is_web(src):
        return None, None
    path, problem = locate(src, root)
    if path is None:
        return None, (problem or f"image {shown_source(src)} not embedded").replace("image ", "video ", 1)
    size = path.stat().st_size
    with path.open("rb") as handle:
        mime = video_mime(handle.read(16))
    if mime is None:
        return None, f"video {shown_source(src)} is not a video (MP4, QuickTime, WebM or Ogg); not embedded"
    if embedded and size > MAX_VIDEO_BYTES:
        return None, f"video {shown_source(src)} is larger than {MAX_VIDEO_BYTES >> 20} MB; linked, not embedded"
    return Video(path, mime, size), None


def video_link(src: str, video: Video | None, output_dir: str | Path | None) -> str:
    """The address an output that links a video writes: the file from the folder the output goes
    to (``RenderOptions.output_dir``), or ``src`` as written when it is no file found here."""
    import os
    from urllib.parse import quote

    if video is None or output_dir is None:
        return src
    return quote(Path(os.path.relpath(video.path, Path(output_dir).resolve())).as_posix(), safe="/")


def playback(title: str) -> tuple[str, ...]:
    """The playback a picture's title asks for (``"autoplay loop"``), or none when the title is text
    of its own (a tooltip, shown as such)."""
    words = tuple(title.lower().split())
    return words if words and all(word in PLAYBACK for word in words) else ()


@dataclass(frozen=True, slots=True)
class Poster:
    """The picture shown for a video where it cannot play: PNG bytes and their size in pixels (the
    video's frame a second in), or a drawn play mark with why no frame was read (``problem``)."""

    png: bytes
    size: tuple[int, int]
    problem: str | None = None

    @property
    def data_uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


def poster(video: Video) -> Poster:
    """The video's frame a second in as a PNG, at most ``MAX_POSTER_SIDE`` pixels a side, or a play
    mark and why; cached by the file's path, size and time of change (a render does not read a
    video of many megabytes again to know it)."""
    stat = video.path.stat()
    digest = hashlib.sha256(f"{video.path}\0{stat.st_size}\0{stat.st_mtime_ns}".encode("utf-8", "surrogatepass")).hexdigest()
    return _poster(str(video.path), digest)


@lru_cache(maxsize=32)
def _poster(path: str, digest: str) -> Poster:
    from confnotes.edges.cachedir import keep, read_cached
    from confnotes.edges.extras import missing

    cached = read_cached("posters", digest, ".png.b64")
    if cached is not None:
        return _poster_of(base64.b64decode(cached))
    need = missing("av", "a video's poster frame")
    if need is not None:
        return _play_mark(need)
    frame, problem = _first_frame(path)
    if frame is None:
        return _play_mark(problem)
    keep("posters", digest, ".png.b64", base64.b64encode(frame).decode("ascii"))
    return _poster_of(frame)


def _first_frame(path: str) -> tuple[bytes | None, str]:
    """The frame a second into the file's first video stream (or the last one decoded before it),
    as PNG bytes, or why none."""
    import av

    try:
        with av.open(path, mode="r") as container:
            if not container.streams.video:
                return None, "it holds no video stream"
            stream = container.streams.video[0]
            width, height = stream.codec_context.width, stream.codec_context.height
            if not 0 < width <= MAX_VIDEO_SIDE or not 0 < height <= MAX_VIDEO_SIDE:
                return None, f"its picture is {width}x{height} pixels"
            chosen = None
            for count, packet in enumerate(container.demux(stream)):
                if count >= MAX_POSTER_PACKETS:
                    break
                for frame in packet.decode():
                    chosen = frame
                    if frame.time is None or frame.time >= POSTER_SECONDS:
                        break
                else:
                    continue
                break
            if chosen is not None:
                picture = chosen.to_image()  # type: ignore[no-untyped-call]
                picture.thumbnail((MAX_POSTER_SIDE, MAX_POSTER_SIDE))  # a 4K frame need not weigh on every page
                out = io.BytesIO()
                picture.save(out, format="PNG")
                return out.getvalue(), ""
    except (av.FFmpegError, OSError, ValueError) as exc:
        return None, f"it cannot be read ({str(exc) or type(exc).__name__})"
    return None, "no frame could be decoded"


def _poster_of(png: bytes) -> Poster:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        return Poster(png, (image.width, image.height))


@lru_cache(maxsize=8)
def _play_mark(problem: str) -> Poster:
    """A 16:9 dark frame with a white play triangle: the poster of a video whose frame is not read."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (640, 360), (32, 36, 44))
    ImageDraw.Draw(image).polygon([(280, 130), (280, 230), (370, 180)], fill=(255, 255, 255))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return Poster(out.getvalue(), (640, 360), problem)


def poster_warning(src: str, shown: Poster) -> str | None:
    """The one warning for a poster that is a play mark: why the frame was not read."""
    if shown.problem is None:
        return None
    return f"video {shown_source(src)}: no poster frame, a play mark is shown ({shown.problem})"
