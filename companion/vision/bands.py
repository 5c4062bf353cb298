"""How a column's strip is explained as cards: covered bands that each start like the top card.

Every card of a bean field shows the same design, so each covered card's visible band is the
top card's first rows. A strip (read from one end) is explained by where the top card starts
and how the rows before it split into bands, each between ``BAND`` of the top card's length:
every covered row earns its band's likeness to the top card's first rows (normalised cross
correlation) less ``BAR``, and every card top the band network's logit there, less what it costs
where the rows across it run on as the top card's own rows do (:func:`running_on`). The best
explanation is found by dynamic programming, for all strips of a frame in one batch. This holds
for art no network was trained on: it compares the column with itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from companion.vision.strips import CARD_ROWS

BAND = (0.1, 0.3)
"""Shortest and longest visible band of a covered card, as a share of the top card's length."""
LAST = (0.65, 1.1)
"""Shortest and longest the top card may be, in card lengths of the strip (cards that slip sideways widen a
column's outline, and so shrink its cards in the strip)."""
LONGEST_TOP = 1.05
"""Longest the top card of a column of several may be, in lengths of a card as wide as the column's outline as
found: no card is wider than the outline (on 160 rendered tables the longest was 1.02), and a camera tilted some 18
degrees across a column foreshortens its width by 5 %. A longer one has taken the last covered card's band in. (A
lone card is its whole outline, up to ``LAST``: its outline may take in a shadow.)"""
FIRST = 0.08
"""Furthest the first card's top may lie from the column's far edge, in card lengths."""
BAR = 0.6
"""Likeness a covered row must beat to count for its band: below it a row speaks against the band."""
ABOVE_TYPICAL = 0.1
"""A band must also look this much more like the top card than the strip's rows typically do (the median over
all rows and top card starts): on a ruler or a phone every row looks alike, and none is evidence."""
TYPICAL_BAND = 8
"""Band length (rows) at which the typical likeness is taken."""
PLAIN = 2e-3
"""Variance (per value, colours in [0, 1]) added to both sides of a likeness, so plain rows (a phone, a box
lid) look like nothing rather than like anything."""
LONGEST = round(BAND[1] * LAST[1] * CARD_ROWS)
"""Longest band in strip rows."""
RUN_ON = 3
"""Rows either side of a card top whose stretch is looked for in the top card (:func:`running_on`)."""
RUNS_ON_BAR = 0.5
"""Likeness above which the rows across a card top run on as the top card's own rows do, or the strip's typical such
likeness (the median over its rows and top card starts) where that is higher: where the rows across every card top
match some stretch of the top card (a plain card with a picture in its middle), running on is no evidence."""
RUNS_ON_COST = 8.0
"""What a card top costs per unit of likeness above the bar (logits)."""


@dataclass(frozen=True)
class Explained:
    """A strip's best explanation: its ``score`` (logits), the card tops, far end first (the last one the
    top card's), and what its card tops ``cost`` for rows running on across them (:func:`running_on_costs`, taken off
    the score): it weighs where the tops lie, not whether the strip holds cards."""

    score: float
    tops: tuple[int, ...]
    cost: float


@dataclass(frozen=True)
class Rows:
    """A strip's rows as its explanation compares them: their Gram matrix (colours in [0, 1]), the running sums of
    their values and of their squares (from 0), and how many values a row holds."""

    gram: np.ndarray
    sums: np.ndarray
    squares: np.ndarray
    width: int

    @classmethod
    def of(cls, strip: np.ndarray, rows: int) -> Rows:
        """The first ``rows`` rows of ``strip``."""
        x = strip[:rows].reshape(rows, -1).astype(np.float32) / np.float32(255.0)
        gram = x @ x.T
        return cls(gram, np.concatenate([np.zeros(1, np.float32), np.cumsum(x.sum(axis=1))]),
                   np.concatenate([np.zeros(1, np.float32), np.cumsum(np.diag(gram))]), x.shape[1])

    @property
    def count(self) -> int:
        """How many rows."""
        return len(self.gram)


def starts(rows: int) -> np.ndarray:
    """Strip rows where the top card may start, for a strip of ``rows`` rows."""
    low = max(0, int(rows - LAST[1] * CARD_ROWS))
    return np.arange(low, max(low, int(rows - LAST[0] * CARD_ROWS)) + 1)


def longest_bands(rows: int, tops: np.ndarray) -> np.ndarray:
    """The longest band (rows) a covered card may show under a top card starting at each of ``tops``, in a strip of
    ``rows`` rows."""
    return np.floor(BAND[1] * (rows - tops)).astype(int)


def likeness(strip: Rows, tops: np.ndarray) -> np.ndarray:
    """(T, S, LONGEST + 1): the correlation of the strip's rows ``s:s + b`` with its rows ``t:t + b``, for each top card
    start ``t`` of ``tops`` (from :func:`starts`), row ``s`` before the last of them (``S``) and band length
    ``b``. Every such band lies inside the strip: the top card is longer than the longest band."""
    gram, sums, squares = strip.gram, strip.sums, strip.squares
    s, t = np.arange(int(tops.max())), tops
    if int(t.max()) + LONGEST > strip.count or np.any(np.diff(t) != 1):
        raise ValueError("top card starts must be consecutive rows at least the longest band from the end")
    step = gram.strides[1]  # pairs[i, s, r] = gram[s + r, t_i + r], the tops being consecutive rows
    pairs = np.lib.stride_tricks.as_strided(gram[0, int(t[0]):], (len(t), len(s), LONGEST),
                                            (step, gram.strides[0], gram.strides[0] + step), writeable=False)
    products = np.zeros((len(t), len(s), LONGEST + 1), np.float32)
    np.cumsum(pairs, axis=2, out=products[:, :, 1:])
    b = np.arange(LONGEST + 1)
    n = (np.maximum(b, 1) * strip.width).astype(np.float32)
    sx, sxx = sums[s[:, None] + b] - sums[s, None], squares[s[:, None] + b] - squares[s, None]
    sy, syy = sums[t[:, None] + b] - sums[t, None], squares[t[:, None] + b] - squares[t, None]
    own, top = _inverse_spread(sxx, sx, n), _inverse_spread(syy, sy, n)
    products -= sx[None] * (sy / n)[:, None]
    products *= own[None]
    products *= top[:, None]
    return products


def _inverse_spread(squares: np.ndarray, sums: np.ndarray, n: np.ndarray | np.float32) -> np.ndarray:
    """1 / the spread of stretches of ``n`` values with these sums of squares and sums, :data:`PLAIN` added to each
    value's variance: the scale that makes a sum of products a correlation."""
    return np.asarray(1 / np.sqrt(np.maximum(squares - sums * sums / n + n * PLAIN, 1e-12)))


def running_on(strip: Rows, tops: np.ndarray) -> np.ndarray:
    """(T, S): how well the rows across row ``s`` (``RUN_ON`` either side) match any stretch of the top card starting
    at ``tops[i]``, within its first band's length: the best correlation. Where a covered card's band is read as
    two, the rows across the second top run on as the card's own rows do; across a true card top, one band ends and
    the next card starts, which no stretch of one card shows (its first rows follow nothing). 0 where the rows
    either side do not fit in the strip."""
    gram, sums, squares, rows = strip.gram, strip.sums, strip.squares, strip.count
    span = 2 * RUN_ON
    windows = rows - span + 1  # window w holds rows w to w + span
    out = np.zeros((len(tops), int(tops.max())), np.float32)
    first, lasts = int(tops[0]), np.minimum(tops + longest_bands(rows, tops) - RUN_ON, windows - 1)
    across = np.arange(RUN_ON, min(out.shape[1], windows + RUN_ON))  # rows s whose window (s - RUN_ON) fits
    if not len(across) or lasts.max() < first:
        return out
    own, card = across - RUN_ON, np.arange(first, int(lasts.max()) + 1)
    cross = sum(gram[own[0] + r:own[-1] + r + 1, card[0] + r:card[-1] + r + 1] for r in range(span))
    n = np.float32(span * strip.width)
    total = sums[span:span + windows] - sums[:windows]
    scale = _inverse_spread(squares[span:span + windows] - squares[:windows], total, n)
    alike = (cross - np.outer(total[own], total[card] / n)) * np.outer(scale[own], scale[card])
    out[:, across] = _range_max(alike, tops - first, lasts - first).T
    return out


def _range_max(values: np.ndarray, starts_at: np.ndarray, ends_at: np.ndarray) -> np.ndarray:
    """(R, K): the most of each row of ``values`` over columns ``starts_at[k]`` to ``ends_at[k]`` (both included;
    0 where the range is empty), by doubling spans (a sparse table)."""
    out = np.zeros((values.shape[0], len(starts_at)), np.float32)
    lengths = ends_at - starts_at + 1
    spans, level = values, 0
    while True:
        pick = np.flatnonzero((lengths >= 1 << level) & (lengths < 2 << level))
        if len(pick):
            out[:, pick] = np.maximum(spans[:, starts_at[pick]], spans[:, ends_at[pick] - (1 << level) + 1])
        if (2 << level) > lengths.max():
            return out
        spans = np.maximum(spans[:, :-(1 << level)], spans[:, 1 << level:])
        level += 1


def running_on_costs(strip: Rows, tops: np.ndarray) -> np.ndarray:
    """(T, S): what a card top at row ``s`` costs an explanation whose top card starts at ``tops[i]``: how far
    :func:`running_on` lies above the bar, times :data:`RUNS_ON_COST`."""
    runs = running_on(strip, tops)
    if runs.shape[1] <= RUN_ON:
        return np.zeros_like(runs)
    bar = max(RUNS_ON_BAR, float(np.median(runs[:, RUN_ON:])))
    return np.float32(RUNS_ON_COST) * np.maximum(runs - np.float32(bar), 0)


def band_scores(strip: Rows, logits: np.ndarray, tops: np.ndarray) -> np.ndarray:
    """(T, S, LONGEST + 1): what a band from row ``s`` of length ``b`` adds to an explanation whose top card
    starts at ``tops[i]``: its rows' likeness less ``BAR``, and the network's logit for a card top at ``s``;
    -inf for a band too short or too long for that top card."""
    alike = likeness(strip, tops)
    bar = max(BAR, float(np.median(alike[:, :, TYPICAL_BAND])) + ABOVE_TYPICAL)
    b = np.arange(LONGEST + 1)
    card = (strip.count - tops)[:, None]
    fits = (b >= np.maximum(3, np.ceil(BAND[0] * card))) & (b <= longest_bands(strip.count, tops)[:, None])
    scores = alike  # worked out in place: the arrays are the frame's largest
    scores -= np.float32(bar)
    scores *= b.astype(np.float32)
    scores += logits[:alike.shape[1], None].astype(np.float32)
    np.copyto(scores, np.float32(-np.inf), where=~fits[:, None, :])
    return scores


def explain(strips: Sequence[np.ndarray], sizes: Sequence[int], logits: np.ndarray,
            card_rows: Sequence[float] | None = None) -> list[Explained | None]:
    """Each strip's best explanation as a column of cards (None where no top card start fits), by dynamic
    programming over all strips and top card starts at once. ``card_rows``: per strip, the rows of a card as wide
    as the column's outline as found (by default ``CARD_ROWS`` each), which bound the top card of a column of several
    (:data:`LONGEST_TOP`)."""
    cases = [(k, tops) for k, rows in enumerate(sizes) if len(tops := starts(rows))]
    if not cases:
        return [None] * len(strips)
    ends = np.concatenate([tops for _, tops in cases])
    owner = [k for k, tops in cases for _ in tops]
    table = np.full((len(ends), int(ends.max()) + 1, LONGEST + 1), -np.inf, np.float32)
    costs = np.zeros(table.shape[:2], np.float32)
    at = 0
    for k, tops in cases:
        if tops.max() > 0:  # a lone card (its top at the far edge) has no bands
            compared = Rows.of(strips[k], sizes[k])
            scores = band_scores(compared, logits[k], tops)
            cost = running_on_costs(compared, tops)
            costs[at:at + len(tops), :cost.shape[1]] = cost
            table[at:at + len(tops), :scores.shape[1]] = scores - cost[:, :scores.shape[1], None]
        at += len(tops)
    best, back = _tile(table, round(FIRST * CARD_ROWS))
    found: list[Explained | None] = [None] * len(strips)
    card_length = card_rows or [CARD_ROWS] * len(strips)
    for case, (k, end) in enumerate(zip(owner, ends.tolist())):
        score = float(best[case, end] + logits[k][end])
        current = found[k]
        if np.isfinite(score) and (current is None or score > current.score):
            laid = _tops(back[case], end)
            if len(laid) == 1 or sizes[k] - end <= LONGEST_TOP * card_length[k]:
                found[k] = Explained(score, laid, float(costs[case, list(laid[:-1])].sum()))
    return found


def _tile(table: np.ndarray, first: int) -> tuple[np.ndarray, np.ndarray]:
    """The best sum of band scores ending at each row (a column may start at any row up to ``first``), and the
    band length ending there (0 at a start). ``table[case, s, b]`` scores a band of ``b`` rows from row ``s``.
    Rows lead in the work arrays, so each row's step reads slices of them, not gathered copies."""
    cases, rows, lengths = table.shape[0], table.shape[1] + 1, table.shape[2]
    ending = np.full((rows, lengths, cases), -np.inf, np.float32)
    for size in range(1, min(lengths, rows)):
        ending[size:, size] = table[:, :rows - size, size].T
    best = np.full((rows, cases), -np.inf, np.float32)
    best[:first + 1] = 0.0
    back = np.zeros((rows, cases), np.int32)
    every = np.arange(cases)
    for end in range(1, rows):
        most = min(lengths - 1, end)
        options = best[end - most:end][::-1] + ending[end, 1:most + 1]  # band lengths 1 to most, shortest first
        pick = np.argmax(options, axis=0)
        value = options[pick, every]
        better = value > best[end]
        best[end] = np.where(better, value, best[end])
        back[end] = np.where(better, pick + 1, 0)
    return best.T.copy(), back.T.copy()


def _tops(back: np.ndarray, end: int) -> tuple[int, ...]:
    """The card tops of the explanation whose top card starts at ``end``, far end first."""
    tops = [end]
    while back[tops[-1]] > 0:
        tops.append(tops[-1] - int(back[tops[-1]]))
    return tuple(reversed(tops))
