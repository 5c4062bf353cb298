"""A picture's size in pixels from its header bytes alone, to refuse huge pictures before decoding them.

A few MB of PNG can hold 30000 x 30000 pixels: decoding it takes gigabytes. :func:`image_size`
reads (width, height) from the header of a PNG, JPEG, BMP, GIF or WebP picture without decoding
anything; :func:`check_picture` refuses pictures above :data:`MAX_PIXELS` and pictures whose
size it cannot read.
"""

from __future__ import annotations

import struct

from companion.vision.errors import VisionError

MAX_PIXELS = 40_000_000
"""Largest picture accepted, in pixels: 40 megapixels, far above any webcam or phone photo of a card."""
ACCEPTED = "PNG, JPEG, BMP, GIF or WebP"

_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
"""Start-of-frame markers (baseline, progressive, lossless, arithmetic): they carry the size."""
_JPEG_NO_LENGTH = frozenset([0x01, *range(0xD0, 0xD9)])
"""Markers without a length field: TEM, RST0-7, SOI."""


class UnknownFormat(ValueError):
    """The bytes are not a picture in one of the formats read here."""


class DamagedHeader(ValueError):
    """The picture's format is known but its header is cut short or does not give a size."""


class PictureRefused(VisionError):
    """A picture that is not decoded: unreadable size, or too many pixels."""


class PictureTooLarge(PictureRefused):
    """A picture with more than :data:`MAX_PIXELS` pixels."""


def image_size(data: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, JPEG, BMP, GIF or WebP picture, from its header.

    :class:`UnknownFormat` for other bytes, :class:`DamagedHeader` when the header gives no size.
    """
    try:
        if data.startswith(_PNG):
            return _png(data)
        if data.startswith(b"\xff\xd8"):
            return _jpeg(data)
        if data.startswith(b"BM"):
            return _bmp(data)
        if data.startswith((b"GIF87a", b"GIF89a")):
            return struct.unpack_from("<HH", data, 6)
        if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
            return _webp(data)
    except (struct.error, IndexError):
        raise DamagedHeader("the header is cut short") from None
    raise UnknownFormat(f"not a {ACCEPTED} picture")


def check_picture(name: str, data: bytes) -> tuple[int, int]:
    """(width, height) of a picture fit to decode; :class:`PictureRefused` naming ``name`` otherwise."""
    if not data:
        raise PictureRefused(f"{name}: not a readable image (the file is empty); take the photo again as PNG or JPEG")
    try:
        width, height = image_size(data)
    except UnknownFormat:
        raise PictureRefused(f"{name}: not a readable image (not a {ACCEPTED} picture); "
                             "take the photo again as PNG or JPEG") from None
    except DamagedHeader as exc:
        raise PictureRefused(f"{name}: not a readable image (empty or corrupt? {exc}); "
                             "take the photo again as PNG or JPEG") from None
    if not width or not height:
        raise PictureRefused(f"{name}: not a readable image (its header says {width} x {height} pixels); "
                             "take the photo again as PNG or JPEG")
    if width * height > MAX_PIXELS:
        raise PictureTooLarge(f"{name}: the picture is {width} x {height} pixels ({width * height / 1e6:.1f} "
                              f"megapixels); at most {MAX_PIXELS / 1e6:.0f} megapixels are accepted: scale it down")
    return width, height


def _png(data: bytes) -> tuple[int, int]:
    length, kind, width, height = struct.unpack_from(">I4sII", data, 8)
    if kind != b"IHDR" or length != 13:
        raise DamagedHeader("the PNG does not start with its IHDR chunk")
    return width, height


def _jpeg(data: bytes) -> tuple[int, int]:
    """The size in the first start-of-frame segment, walking the segments from the start."""
    pos = 2
    while True:
        while data[pos] != 0xFF:  # IndexError below: cut short
            pos += 1  # stray bytes between segments: skipped, as decoders do
        while data[pos] == 0xFF:  # fill bytes
            pos += 1
        marker = data[pos]
        pos += 1
        if marker in _JPEG_NO_LENGTH:
            continue
        if marker in (0xD9, 0xDA):  # end of image, or the scan data, before any frame header
            raise DamagedHeader("the JPEG has no frame header before its image data")
        (length,) = struct.unpack_from(">H", data, pos)
        if marker in _JPEG_SOF:
            height, width = struct.unpack_from(">HH", data, pos + 3)
            if height == 0:
                raise DamagedHeader("the JPEG gives its height later (DNL), which is not supported")
            return width, height
        if length < 2:
            raise DamagedHeader("a JPEG segment has a length below 2")
        pos += length


def _bmp(data: bytes) -> tuple[int, int]:
    (header,) = struct.unpack_from("<I", data, 14)
    if header == 12:  # OS/2 BITMAPCOREHEADER: 16-bit sizes
        return struct.unpack_from("<HH", data, 18)
    width, height = struct.unpack_from("<ii", data, 18)
    return abs(width), abs(height)  # a negative height: rows top-down


def _webp(data: bytes) -> tuple[int, int]:
    chunk = data[12:16]
    if chunk == b"VP8 ":  # lossy: a key frame's start code, then 14-bit sizes
        if data[23:26] != b"\x9d\x01\x2a":
            raise DamagedHeader("the WebP (VP8) frame has no start code")
        width, height = struct.unpack_from("<HH", data, 26)
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":  # lossless: a signature byte, then 14-bit sizes less one
        if data[20] != 0x2F:
            raise DamagedHeader("the WebP (VP8L) image has no signature")
        (bits,) = struct.unpack_from("<I", data, 21)
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":  # extended: the canvas size, 24-bit sizes less one
        if len(data) < 30:
            raise DamagedHeader("the header is cut short")
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    raise DamagedHeader(f"the WebP file has an unknown first chunk {chunk!r}")
