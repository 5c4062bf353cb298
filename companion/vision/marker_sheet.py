"""A printable A4 sheet of the table markers (:mod:`companion.vision.zones`), each with a caption under it."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np

from companion.vision.zones import ANCHOR_IDS, DICTIONARY, DISCARD_ID, FACE_UP_ID, FIELDS_ID, SEATS

MARKER_CM = 4.0
"""Printed marker side (the zone layout's unit)."""
PAGE_CM = (21.0, 29.7)
"""A4, portrait."""
COLUMNS = 3
CELL_HEIGHT_CM = 6.5
"""One marker with its quiet border and caption."""
TOP_CM = 2.0
"""Room for the sheet's title."""
DPI_RANGE = (72, 600)


def sheet_markers(seats: int) -> list[tuple[int, str]]:
    """The markers on a sheet for ``seats`` players: (id, caption)."""
    return [*((FIELDS_ID + s, f"Player {s + 1} fields") for s in range(seats)),
            (FACE_UP_ID, "Face-up area"), (DISCARD_ID, "Discard pile"),
            *((a, f"Table corner {a + 1}") for a in ANCHOR_IDS)]


def _centred_text(sheet: np.ndarray, text: str, centre_x: int, baseline: int, height: int) -> None:
    """``text`` in black, ``height`` pixels tall, centred on ``centre_x``."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = height / cv2.getTextSize("H", font, 1.0, 1)[0][1]
    thickness = max(1, round(scale * 1.5))
    width = cv2.getTextSize(text, font, scale, thickness)[0][0]
    cv2.putText(sheet, text, (centre_x - width // 2, baseline), font, scale, 0, thickness, cv2.LINE_AA)


def marker_sheet(seats: int, dpi: int) -> np.ndarray:
    """The A4 page (grayscale) at ``dpi``: the markers for ``seats`` players, each ``MARKER_CM`` wide and captioned,
    in cells outlined for cutting; :class:`ValueError` for a seat count or dpi out of range."""
    if not 1 <= seats <= SEATS:
        raise ValueError(f"{seats} seats: the markers are for 1 to {SEATS} players")
    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise ValueError(f"{dpi} dpi: print the sheet at {DPI_RANGE[0]} to {DPI_RANGE[1]} dpi")

    def px(cm: float) -> int:
        return round(cm / 2.54 * dpi)

    sheet = np.full((px(PAGE_CM[1]), px(PAGE_CM[0])), 255, np.uint8)
    for baseline, line in ((1.0, f"Bohnanza table markers - print at 100%: each square {MARKER_CM:g} cm wide"),
                           (1.6, "Cut out with the caption; lay a fields marker before your fields, caption to you")):
        _centred_text(sheet, line, sheet.shape[1] // 2, px(baseline), px(0.35))
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    side, cell_w, cell_h = px(MARKER_CM), sheet.shape[1] // COLUMNS, px(CELL_HEIGHT_CM)
    for k, (marker_id, caption) in enumerate(sheet_markers(seats)):
        row, col = divmod(k, COLUMNS)
        cell_x, cell_y = col * cell_w, px(TOP_CM) + row * cell_h
        x, y = cell_x + (cell_w - side) // 2, cell_y + px(0.8)
        sheet[y:y + side, x:x + side] = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        _centred_text(sheet, caption, cell_x + cell_w // 2, y + side + px(0.9), px(0.4))
        cv2.rectangle(sheet, (cell_x, cell_y), (cell_x + cell_w - 1, cell_y + cell_h - 1), 200, 1)
    return sheet


def encode_png(image: np.ndarray, dpi: int) -> bytes:
    """``image`` as PNG bytes that tell a printer its resolution (a ``pHYs`` chunk after the header)."""
    ok, data = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("the marker sheet could not be encoded as PNG")
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    png = data.tobytes()
    header_end = 8 + 25  # the signature, then the IHDR chunk
    return png[:header_end] + chunk + png[header_end:]
