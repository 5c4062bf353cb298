"""Carved block capitals: a 5 x 7 bitmap alphabet drawn as rough-edged blocks (no Hershey font)."""

from __future__ import annotations

import cv2
import numpy as np

from models.heldout.beans import Colour

GLYPHS: dict[str, str] = {
    "A": ".###. #...# #...# ##### #...# #...# #...#", "B": "####. #...# #...# ####. #...# #...# ####.",
    "C": ".###. #...# #.... #.... #.... #...# .###.", "D": "####. #...# #...# #...# #...# #...# ####.",
    "E": "##### #.... #.... ####. #.... #.... #####", "F": "##### #.... #.... ####. #.... #.... #....",
    "G": ".###. #...# #.... #.### #...# #...# .####", "H": "#...# #...# #...# ##### #...# #...# #...#",
    "I": ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.", "J": "..### ...#. ...#. ...#. ...#. #..#. .##..",
    "K": "#...# #..#. #.#.. ##... #.#.. #..#. #...#", "L": "#.... #.... #.... #.... #.... #.... #####",
    "M": "#...# ##.## #.#.# #.#.# #...# #...# #...#", "N": "#...# #...# ##..# #.#.# #..## #...# #...#",
    "O": ".###. #...# #...# #...# #...# #...# .###.", "P": "####. #...# #...# ####. #.... #.... #....",
    "Q": ".###. #...# #...# #...# #.#.# #..#. .##.#", "R": "####. #...# #...# ####. #.#.. #..#. #...#",
    "S": ".#### #.... #.... .###. ....# ....# ####.", "T": "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "U": "#...# #...# #...# #...# #...# #...# .###.", "V": "#...# #...# #...# #...# #...# .#.#. ..#..",
    "W": "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.", "X": "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
    "Y": "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..", "Z": "##### ....# ...#. ..#.. .#... #.... #####",
    "0": ".###. #...# #..## #.#.# ##..# #...# .###.", "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
    "2": ".###. #...# ....# ...#. ..#.. .#... #####", "3": "##### ...#. ..#.. ...#. ....# #...# .###.",
    "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.", "5": "##### #.... ####. ....# ....# #...# .###.",
    "6": "..##. .#... #.... ####. #...# #...# .###.", "7": "##### ....# ...#. ..#.. .#... .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# .###.", "9": ".###. #...# #...# .#### ....# ...#. .##..",
    "-": "..... ..... ..... ##### ..... ..... .....", " ": "..... ..... ..... ..... ..... ..... .....",
}
"""Each glyph as 7 rows of 5 cells, top row first ("#" inked)."""


def bitmap(text: str) -> np.ndarray:
    """``text`` (upper-cased) as a 0/1 array, 7 cells high, one blank column between glyphs."""
    cells = [np.array([[c == "#" for c in row] for row in GLYPHS[ch].split()], np.uint8) for ch in text.upper()]
    gaps = [np.zeros((7, 1), np.uint8)] * len(cells)
    return np.hstack([part for pair in zip(cells, gaps) for part in pair][:-1]) if cells else np.zeros((7, 1), np.uint8)


def carve(img: np.ndarray, text: str, box: tuple[int, int, int, int], colour: Colour,
          rng: np.random.Generator) -> None:
    """Print ``text`` in ``box`` = (x0, y0, x1, y1) of ``img``, centred and as large as fits,
    each block's edges chewed as a hand-cut wood block's are."""
    x0, y0, x1, y1 = box
    cells = bitmap(text)
    cell = min((x1 - x0) / cells.shape[1], (y1 - y0) / cells.shape[0])
    w, h = max(1, int(cells.shape[1] * cell)), max(1, int(cells.shape[0] * cell))
    ink = cv2.resize(cells.astype(np.float32), (w, h), interpolation=cv2.INTER_NEAREST)
    rough = cv2.GaussianBlur(ink, (0, 0), max(0.6, cell * 0.12)) + 0.18 * rng.standard_normal(ink.shape, np.float32)
    mask = rough > 0.5
    left, top = x0 + (x1 - x0 - w) // 2, y0 + (y1 - y0 - h) // 2
    region = img[top:top + h, left:left + w]
    region[mask[:region.shape[0], :region.shape[1]]] = colour
