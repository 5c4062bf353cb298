"""Picture files for the size checks: real PNGs of any size, made without holding their pixels."""

from __future__ import annotations

import struct
import zlib

BAND_ROWS = 100
"""Rows compressed at once; the band's compressed form is repeated for the rest of the picture."""


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_header(width: int, height: int) -> bytes:
    """The signature and IHDR chunk of an 8-bit RGB PNG: all a header reader needs."""
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))


def black_png(width: int, height: int) -> bytes:
    """A valid PNG of a black ``width`` x ``height`` picture (8-bit RGB), a few MB even for 30000 x 30000.

    Its pixel data is all zero bytes (filter byte 0 and black pixels), so one band of rows is
    compressed once, flushed so that it stands alone, and repeated; the zlib checksum of n zero
    bytes is ``(n mod 65521) << 16 | 1``.
    """
    row = 1 + 3 * width
    deflate = zlib.compressobj(9)

    def rows(count: int) -> bytes:
        return deflate.compress(bytes(row * count)) + deflate.flush(zlib.Z_FULL_FLUSH)

    bands, rest = divmod(height, BAND_ROWS)
    stream = rows(min(height, BAND_ROWS))  # with the zlib header in front
    if bands:
        stream += rows(BAND_ROWS) * (bands - 1) + (rows(rest) if rest else b"")
    stream += deflate.flush()[:-4]  # the final block, without the checksum of only what was compressed here
    checksum = struct.pack(">I", (row * height % 65521) << 16 | 1)
    return png_header(width, height) + _chunk(b"IDAT", stream + checksum) + _chunk(b"IEND", b"")
