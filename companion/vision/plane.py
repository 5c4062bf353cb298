"""The table seen from straight above: a camera at a slant, its frame warped onto the table's plane.

A webcam on a stand at the table's side looks down at a slant: a card lying along its view looks shorter than one
lying across it, and a far card smaller than a near one, where the cards' outlines and the columns' bands are read by
a card's shape. The printed markers lying on the table are squares, so the homography that makes every marker in
sight square again (:func:`rectifying`, least squares over all of them) takes the frame to the table's plane, up to
where it lies and how large. :func:`table_plane` says where that warp is worth making (:data:`SLANT`) and how large the
view is. Pure: corners in, matrices and images out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

SLANT = 1.15
"""Least slant worth warping a frame for: the most a card's shape (its length over its width) changes with the way it
lies, anywhere between the markers. Up to it the frame is read as it is: markers 34 px a side, seen from straight
above, give up to 1.09 from their corners' noise alone (the median 1.01); and a camera tilted 12 degrees (about 1.1),
its frames read as they are, refereed the development game as well as one tilted 20 degrees read on the plane."""
LEAST_MARKERS = 3
"""Least markers in sight to fit the table's plane by: one or two markers' corners tell how the table recedes only
by extrapolating a few pixels' worth across the frame (one 50 px marker, its corners off by a third of a pixel: a
slant of 1.7 read into a frame seen from straight above; an affine fit to one or two leaves a tilted frame's far
corners as slanted as before)."""
STEPS = 30
"""Most Levenberg-Marquardt steps of :func:`rectifying`."""
MOST_PIXELS = 2.0
"""Most pixels of the view, as a share of the frame's."""
AROUND = 0.15
"""How much of the table beyond the markers the view shows, as a share of their bounding box's size, each way."""
MOVED = 4.0
"""How far (frame pixels, the median over the markers) the markers move before the camera is taken to have moved, and
the table's plane is found again: a small far marker's corners are found up to 3 pixels apart from frame to frame."""


_SQUARE = np.array([-1 - 1j, 1 - 1j, 1 + 1j, -1 + 1j]) / 2
"""A marker's own corners (TL, TR, BR, BL), as complex numbers about its middle."""


def _homography(params: np.ndarray) -> np.ndarray:
    """The homography of ``params`` = (vanishing line's two terms, shear, aspect): an affine map times a pure
    projective one (the similarity left out)."""
    l1, l2, shear, aspect = params
    affine = np.array([[1.0, shear, 0.0], [0.0, np.exp(aspect), 0.0], [0.0, 0.0, 1.0]])
    return affine @ np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [l1, l2, 1.0]])


def mapped(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``points`` (N x 2) mapped by the 3 x 3 ``matrix``."""
    return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), matrix).reshape(-1, 2)


def _out_of_square(params: np.ndarray, markers: np.ndarray) -> np.ndarray:
    """Each marker's corners, mapped by ``params``, less the square nearest them, in shares of that square's side."""
    square = mapped(_homography(params), markers.reshape(-1, 2)).reshape(-1, 4, 2)
    points = square[:, :, 0] + 1j * square[:, :, 1]
    points = points - points.mean(axis=1, keepdims=True)
    fit = (points @ _SQUARE.conj()) / float(np.sum(np.abs(_SQUARE) ** 2))  # each marker's best similarity
    off = (points - fit[:, None] * _SQUARE) / np.maximum(np.abs(fit)[:, None], 1e-9)
    return np.concatenate([off.real.ravel(), off.imag.ravel()])


def rectifying(markers: Mapping[int, np.ndarray], size: tuple[int, int]) -> np.ndarray | None:
    """The homography (3 x 3) from a ``size`` = (width, height) frame's pixels to the table's plane, up to a
    similarity: the one under which the ``markers`` (id -> 4 corners) come out most square; None without markers
    or with fewer than :data:`LEAST_MARKERS` of them."""
    if len(markers) < LEAST_MARKERS:
        return None
    width, height = size
    scale = max(width, height) / 2
    normal = np.array([[1 / scale, 0, -width / 2 / scale], [0, 1 / scale, -height / 2 / scale], [0, 0, 1]])
    corners = mapped(normal, np.concatenate([np.asarray(c, np.float64).reshape(4, 2) for c in markers.values()]))
    params, damping = np.zeros(4), 1e-3
    off = _out_of_square(params, corners)
    for _ in range(STEPS):
        jacobian = np.stack([(_out_of_square(params + step, corners) - off) / 1e-6
                             for step in np.eye(4) * 1e-6], axis=1)
        normal_eq = jacobian.T @ jacobian
        move = np.linalg.solve(normal_eq + damping * np.diag(np.diag(normal_eq) + 1e-9), -jacobian.T @ off)
        trial = _out_of_square(params + move, corners)
        if trial @ trial < off @ off:
            params, off, damping = params + move, trial, damping / 3
            if np.abs(move).max() < 1e-7:
                break
        else:
            damping *= 4
    if not np.all(np.isfinite(params)):
        return None
    return _homography(params) @ normal


def slant(matrix: np.ndarray, box: tuple[float, float, float, float]) -> float:
    """How much ``matrix`` (frame -> plane) changes a card's shape with the way it lies, at worst over ``box`` = (x0,
    y0, x1, y1) of the frame: the largest ratio of its local stretches, at the box's corners and middle."""
    x0, y0, x1, y1 = box
    worst = 1.0
    for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1), ((x0 + x1) / 2, (y0 + y1) / 2)):
        here = mapped(matrix, np.array([[x, y], [x + 1.0, y], [x, y + 1.0]]))
        stretches = np.linalg.svd(np.stack([here[1] - here[0], here[2] - here[0]], axis=1), compute_uv=False)
        worst = max(worst, float(stretches[0] / max(stretches[1], 1e-12)))
    return worst


@dataclass(frozen=True)
class TablePlane:
    """A frame's warp onto the table's plane: ``matrix`` from frame pixels to the view's, a ``size`` = (width,
    height) view."""

    matrix: np.ndarray
    size: tuple[int, int]
    back: np.ndarray = field(init=False, repr=False)
    """``matrix`` inverted: from the view's pixels back to the frame's."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "back", np.linalg.inv(self.matrix))

    def view(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` as seen from straight above."""
        return cv2.warpPerspective(frame, self.matrix, self.size, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))

    def to_frame(self, points: np.ndarray) -> np.ndarray:
        """View pixels (N x 2) back in the frame."""
        return mapped(self.back, points).astype(np.float32)


def table_plane(markers: Mapping[int, np.ndarray], size: tuple[int, int]) -> TablePlane | None:
    """The warp of a ``size`` frame onto the table's plane where its ``markers`` show it at a slant beyond
    :data:`SLANT` between them (beyond them the fit only extrapolates); else None (read the frame as it is). The view
    shows every marker as large as the frame shows the largest (the nearest: far cards are drawn larger, none
    smaller, so none loses pixels) and the table around them (their bounding box, :data:`AROUND` larger each way), in
    at most :data:`MOST_PIXELS` times the frame's pixels."""
    matrix = rectifying(markers, size)
    corners = [np.asarray(c, np.float64).reshape(4, 2) for c in markers.values()]
    if matrix is None or slant(matrix, (*np.min(corners, axis=(0, 1)), *np.max(corners, axis=(0, 1)))) < SLANT:
        return None
    flat = [mapped(matrix, c) for c in corners]
    zoom = max(_side(c) / max(_side(f), 1e-12) for c, f in zip(corners, flat))
    low, high = np.min([f.min(axis=0) for f in flat], axis=0), np.max([f.max(axis=0) for f in flat], axis=0)
    low, high = low - AROUND * (high - low), high + AROUND * (high - low)
    zoom = min(zoom, float(np.sqrt(MOST_PIXELS * size[0] * size[1] / np.prod(high - low))))
    place = np.array([[zoom, 0, -zoom * low[0]], [0, zoom, -zoom * low[1]], [0, 0, 1]])
    view = (int(np.ceil(zoom * (high[0] - low[0]))), int(np.ceil(zoom * (high[1] - low[1]))))
    return TablePlane(place @ matrix, view)


def _side(corners: np.ndarray) -> float:
    """A quadrilateral's mean side."""
    return float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))


def moved(before: Mapping[int, np.ndarray], now: Mapping[int, np.ndarray]) -> bool:
    """Whether the markers seen both ``before`` and ``now`` moved by more than :data:`MOVED` pixels (the median of
    their corners' furthest moves)."""
    moves = [float(np.abs(now[i] - corners).max()) for i, corners in before.items() if i in now]
    return bool(moves) and float(np.median(moves)) > MOVED
