"""Bean fields seen from above: each column of overlapping cards counted, turned the right way, and named.

Tables are rendered fresh (seeds no training used): columns of 1 to 12 cards laid as players
lay them, facing all four table edges, degraded as the camera degrades them. The band network
was trained on the shipped deck and the training renderer's designs; the unseen art styles here
are ones it never saw.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from companion.vision.columns import ColumnReader, evidence, self_similarity, tiling
from companion.vision.manifest import load_manifest
from companion.vision.scene import SceneReader
from companion.vision.strips import CARD_ROWS, find_outlines
from models import train_bands
from models.evaluate_columns import render_table
from models.fields import lay_field
from models.render import house_design, render_face, unseen_deck
from models.tabletop import wooden_table

UNSEEN_SHARE = 0.35
"""Measured before the likeness to the top card: 9 of these 24 unseen-style columns counted right (65 % on the
held-out tables, 75 % with it, models/BAND_MODEL_CARD.md), far from the 99 % target; a step back fails."""


@pytest.fixture(scope="module")
def columns(classifier) -> ColumnReader:  # noqa: ANN001 - the session's shipped classifier
    return ColumnReader(classifier.manifest)


def far_end_right(found: np.ndarray, true: np.ndarray) -> bool:
    """Whether ``found``'s first side is the column's far end (the true outline's first side)."""
    far = (true[0] + true[1]) / 2
    return bool(np.linalg.norm((found[0] + found[1]) / 2 - far) < np.linalg.norm((found[2] + found[3]) / 2 - far))


@pytest.mark.parametrize(("style", "share"), [("shipped", 1.0), ("unseen", UNSEEN_SHARE)])
def test_every_column_is_counted_and_turned_the_right_way(columns, kit, style, share):
    right, total, extra = 0, 0, 0
    for k in range(3):
        seed = kit.seed + 2 * k + (style == "unseen")
        frame, fields = render_table(seed, unseen_deck(seed) if style == "unseen" else None)
        found = [c for c in columns.read(frame, find_outlines(frame)) if c is not None]
        extra += max(0, len(found) - len(fields))
        for laid in fields:
            column = min(found, key=lambda c: float(np.linalg.norm(c.outline.mean(0) - laid.outline.mean(0))))
            total += 1
            right += column.count == laid.count and (laid.count == 1 or far_end_right(column.outline, laid.outline))
    assert extra == 0  # no column where there is none
    assert right >= share * total, (right, total)


def test_the_top_card_is_the_one_laid_last(columns, kit):
    frame, fields = render_table(kit.seed + 20, None)
    found = [c for c in columns.read(frame, find_outlines(frame)) if c is not None]
    for laid in fields:
        column = min(found, key=lambda c: float(np.linalg.norm(c.outline.mean(0) - laid.outline.mean(0))))
        card_height = float(np.linalg.norm(laid.top[3] - laid.top[0]))
        assert np.abs(column.top - laid.top).max() < 0.12 * card_height


def test_a_long_box_without_cards_is_no_column(columns, kit):
    """A phone or a card box lies on the table: card-shaped or column-shaped, but no card top shows."""
    rng = np.random.default_rng(kit.seed)
    frame = wooden_table(rng, (640, 480))
    frame[100:380, 200:300] = (40, 40, 45)  # a dark phone, column-shaped
    frame[150:280, 400:484] = (200, 120, 60)  # a plain box lid, card-shaped
    outlines = find_outlines(frame)
    assert len(outlines) == 2
    assert columns.read(frame, outlines) == [None, None]


def test_card_tops_must_tile_the_column_as_cards_lie():
    """The first top at the far edge, each band at least 12 % of a card, the last top a card length from the end."""
    rows = int(CARD_ROWS * 1.5)
    tops = [1, int(CARD_ROWS * 0.25), int(CARD_ROWS * 0.5)]
    logits = np.full(rows, -4.0, np.float32)
    logits[tops] = 3.0
    logits[tops[1] + 3] = 2.0  # too near the top before it: a band that thin is no card's
    logits[tops[2] + int(CARD_ROWS * 0.5)] = 3.0  # inside the top card: a card there would be half a card long
    assert tiling(logits, rows) == (9.0, tops)
    assert tiling(np.full(rows, -4.0, np.float32), rows)[0] < 0  # no top anywhere: nothing believed


def laid_strip(design: np.ndarray, tops: list[int]) -> np.ndarray:
    """A strip of cards of one design, each laid at its top row over the one before, the last one whole."""
    rows = tops[-1] + len(design)
    strip = np.zeros((rows, design.shape[1], 3), np.uint8)
    for top in tops:
        strip[top:top + len(design)] = design
    return strip


def test_each_band_starts_like_the_top_card_whatever_the_art():
    """Every card of a column shows one design: the rows where a band starts look like the top card's first rows."""
    design = np.random.default_rng(7).integers(0, 256, (int(CARD_ROWS), 32, 3), dtype=np.uint8)
    tops = [0, 10, 21, 30]
    strip = laid_strip(design, tops)
    rows = len(strip)
    believed = np.full(rows, -2.0, np.float32)
    believed[tops[-1]] = 1.0  # the network knows only where the top card starts
    alike = self_similarity(strip, rows, believed)
    assert np.all(alike[tops] > 0.99) and np.median(alike[:rows - 6]) < 0.3
    assert tiling(evidence(strip, rows, believed), rows)[1] == tops
    plain = np.full_like(strip, 90)  # a phone: every row alike, so no row is evidence
    assert np.all(evidence(plain, rows, believed) <= believed)


def test_the_scene_names_each_field_and_its_count(classifier, kit):
    scene = SceneReader(classifier)
    rng = np.random.default_rng(kit.seed + 1)
    frame = wooden_table(rng, (960, 540))
    laid = [lay_field(frame, render_face(house_design(bean)), bean, count, far, 110, facing, rng)
            for bean, count, far, facing in (("blue", 4, (200, 120), 0), ("chili", 1, (480, 270), 90),
                                             ("stink", 7, (760, 420), 180))]
    read = scene.read(frame)
    assert sorted((s.bean, s.count) for s in read.stacks) == sorted((f.bean, f.count) for f in laid)
    assert len(read.cards) == 3


def test_the_band_network_trains_and_exports_a_model_the_runtime_reads(tmp_path):
    shutil.copy(Path(train_bands.MODEL_DIR) / "manifest.json", tmp_path / "manifest.json")
    assert train_bands.main(["--columns", "3", "--epochs", "1", "--workers", "1", "--out", str(tmp_path)]) == 0
    manifest = load_manifest(tmp_path)
    assert manifest.bands.file == "band_net.onnx" and (tmp_path / "band_net.onnx").exists()
    reader = ColumnReader(manifest, directory=tmp_path)
    assert reader.infer([np.zeros((256, 32, 3), np.uint8)]).shape == (1, 256)
