"""Picture sizes from headers alone, and huge pictures refused before they are decoded.

The header reader is checked against pictures that OpenCV itself writes in every accepted
format, whose decoded shape must agree; a real 30000 x 30000 PNG (2.6 MB, 2.7 GB decoded)
is refused by ``companion vision classify`` without the memory a decode would take.
"""

from __future__ import annotations

import resource
import struct

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision.image_size import (
    MAX_PIXELS,
    DamagedHeader,
    PictureRefused,
    PictureTooLarge,
    UnknownFormat,
    check_picture,
    image_size,
)
from companion.vision.imageio import read_image
from support.pictures import black_png, png_header

HUGE = (30000, 30000)
RSS_GROWTH_MAX = 1 << 30
"""Bytes the process may grow by while refusing the huge picture: a decode would take 2.7 GB or more."""

ENCODINGS = {
    "png": (".png", []),
    "jpeg": (".jpg", []),
    "jpeg-progressive": (".jpg", [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]),
    "bmp": (".bmp", []),
    "gif": (".gif", []),
    "webp-lossless": (".webp", [cv2.IMWRITE_WEBP_QUALITY, 101]),  # VP8L
    "webp-lossy": (".webp", [cv2.IMWRITE_WEBP_QUALITY, 80]),  # VP8
}


def encoded(extension: str, picture: np.ndarray, params: list[int]) -> bytes:
    ok, data = cv2.imencode(extension, picture, params)
    assert ok
    return data.tobytes()


def _peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kB on Linux


@pytest.mark.parametrize("name", sorted(ENCODINGS))
@pytest.mark.parametrize("shape", [(37, 53), (1, 1), (480, 640), (1000, 7)])
def test_the_header_size_agrees_with_the_decoded_picture(name: str, shape: tuple[int, int]) -> None:
    picture = np.random.default_rng(list(shape)).integers(0, 256, (*shape, 3), np.uint8)
    data = encoded(*ENCODINGS[name][:1], picture, ENCODINGS[name][1])
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    assert image_size(data) == (decoded.shape[1], decoded.shape[0]) == (shape[1], shape[0])
    assert check_picture("photo", data) == (shape[1], shape[0])


def test_webp_with_alpha_is_read_from_its_extended_header() -> None:
    picture = np.zeros((45, 71, 4), np.uint8)
    picture[..., 3] = 128
    data = encoded(".webp", picture, [cv2.IMWRITE_WEBP_QUALITY, 80])
    assert data[12:16] == b"VP8X"
    assert image_size(data) == (71, 45)


def test_jpeg_segments_before_the_frame_header_are_skipped() -> None:
    data = encoded(".jpg", np.zeros((30, 40, 3), np.uint8), [])
    text = (b"\xff\xc0 not a frame header " * 3000)[:60000]  # a frame marker inside the text must be skipped
    comment = b"\xff\xfe" + struct.pack(">H", 2 + len(text)) + text  # a COM segment of 60 kB
    padded = data[:2] + b"\xff\xff" + comment + data[2:]  # fill bytes, then the comment
    assert image_size(padded) == (40, 30)
    assert cv2.imdecode(np.frombuffer(padded, np.uint8), cv2.IMREAD_COLOR).shape == (30, 40, 3)


def test_a_top_down_bmp_has_a_positive_height() -> None:
    data = bytearray(encoded(".bmp", np.zeros((12, 9, 3), np.uint8), []))
    data[22:26] = struct.pack("<i", -12)
    assert image_size(bytes(data)) == (9, 12)


@pytest.mark.parametrize("extension", [".tiff", ".ppm", ".pgm"])
def test_other_formats_are_refused_naming_the_accepted_ones(extension: str) -> None:
    data = encoded(extension, np.zeros((8, 8, 3 if extension != ".pgm" else 1), np.uint8), [])
    with pytest.raises(UnknownFormat):
        image_size(data)
    with pytest.raises(PictureRefused, match=r"^scan\.x: not a readable image \(not a PNG, JPEG, BMP, GIF or WebP"):
        check_picture("scan.x", data)


@pytest.mark.parametrize(
    "data",
    [
        png_header(640, 480)[:20],  # cut inside the IHDR chunk
        b"\xff\xd8\xff\xe0\x00\x10JFIF",  # a JPEG cut before its frame header
        b"\xff\xd8\xff\xda\x00\x08" + bytes(6),  # image data before any frame header
        b"\xff\xd8 not really a jpeg",
        b"GIF89a\x05",
        b"RIFF\x00\x00\x00\x00WEBPVP8 \x00\x00\x00\x00" + bytes(12),  # no VP8 start code
        b"BM\x00",
    ],
)
def test_damaged_headers_are_refused(data: bytes) -> None:
    with pytest.raises(DamagedHeader):
        image_size(data)
    with pytest.raises(PictureRefused, match=r"^p\.img: not a readable image \(empty or corrupt\?"):
        check_picture("p.img", data)


def test_empty_and_zero_sized_pictures_are_refused() -> None:
    with pytest.raises(PictureRefused, match="the file is empty"):
        check_picture("empty.png", b"")
    with pytest.raises(PictureRefused, match=r"its header says 0 x 480 pixels"):
        check_picture("zero.png", png_header(0, 480))


def test_the_limit_is_40_megapixels() -> None:
    assert MAX_PIXELS == 40_000_000
    assert check_picture("at-limit.png", png_header(8000, 5000)) == (8000, 5000)
    with pytest.raises(PictureTooLarge) as refused:
        check_picture("over.png", png_header(8000, 5001))
    assert str(refused.value) == ("over.png: the picture is 8000 x 5001 pixels (40.0 megapixels); "
                                  "at most 40 megapixels are accepted: scale it down")


def test_a_real_30000_by_30000_png_is_refused_before_decoding(tmp_path) -> None:
    path = tmp_path / "huge.png"
    path.write_bytes(black_png(*HUGE))
    assert path.stat().st_size < 4_000_000  # 2.7 GB of pixels in a few MB
    before = _peak_rss()
    with pytest.raises(PictureTooLarge, match=r"huge\.png: the picture is 30000 x 30000 pixels \(900\.0 megapixels\)"):
        read_image(path)
    assert _peak_rss() - before < RSS_GROWTH_MAX


def test_classify_refuses_the_huge_png_with_exit_2_and_a_sentence(tmp_path, capsys) -> None:
    path = tmp_path / "huge.png"
    path.write_bytes(black_png(*HUGE))
    before = _peak_rss()
    code = main(["vision", "classify", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "Traceback" not in err
    assert err == (f"error: {path}: the picture is 30000 x 30000 pixels (900.0 megapixels); "
                   "at most 40 megapixels are accepted: scale it down\n")
    assert _peak_rss() - before < RSS_GROWTH_MAX
