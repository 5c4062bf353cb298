"""Held-out families: deterministic by seed, card-sized, every bean its own card, drawn apart from training."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from companion.cards import VISION_LABELS
from models.heldout.beans import CARD_H, CARD_W
from models.heldout.camera import empty_table, photograph
from models.heldout.families import FAMILIES

SEED = 515
HELDOUT = Path(__file__).resolve().parents[2] / "models" / "heldout"


@pytest.fixture(scope="module", params=sorted(FAMILIES))
def family(request):  # noqa: ANN001, ANN201
    return FAMILIES[request.param]


@pytest.fixture(scope="module")
def faces(family) -> list[np.ndarray]:  # noqa: ANN001
    return family.deck(SEED)


def test_a_deck_is_one_card_per_label_of_card_size(faces):
    assert len(faces) == len(VISION_LABELS)
    assert all(f.shape == (CARD_H, CARD_W, 3) and f.dtype == np.uint8 for f in faces)
    assert abs(CARD_W / CARD_H - 56 / 87) < 0.01


def test_decks_are_fixed_by_their_seed(family, faces):
    again = family.deck(SEED)
    assert all(np.array_equal(a, b) for a, b in zip(faces, again))
    other = family.deck(SEED + 1)
    assert sum(not np.array_equal(a, b) for a, b in zip(faces, other)) == len(faces)


def test_every_bean_has_its_own_card(faces):
    flat = np.stack([f.reshape(-1).astype(np.int32) for f in faces])
    for i in range(len(flat)):
        for j in range(i + 1, len(flat)):
            assert np.abs(flat[i] - flat[j]).mean() > 4, (VISION_LABELS[i], VISION_LABELS[j])


def test_photos_are_fixed_by_their_seed_and_framed_as_the_family_says(family, faces):
    rng = [np.random.default_rng([SEED, k]) for k in (1, 1, 2)]
    a, b, c = (photograph(faces[0], r, family.look, faces[1]) for r in rng)
    assert a.shape == (family.look.size[1], family.look.size[0], 3) and a.dtype == np.uint8
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    table = empty_table(np.random.default_rng(SEED), family.look)
    assert table.shape == a.shape and np.array_equal(table, empty_table(np.random.default_rng(SEED), family.look))


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, by name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return ({a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
            | {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)})


def test_held_out_code_shares_nothing_with_the_training_renderer():
    training = {"models.render", "models.camera", "models.dataset", "models.train", "models.net"}
    for path in sorted(HELDOUT.glob("*.py")):
        assert not imported(path) & training, path.name
