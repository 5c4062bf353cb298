"""A real enrollment photo whose crop stays in doubt: the brandy of a held-out watercolour deck (development seed
777004), lying across the photo's top edge, so that no outline follows all four of its sides and its framings
disagree (their least matcher logit is -1.6; a card cropped well scores 15-25)."""

from __future__ import annotations

import numpy as np

from models.heldout.measure import enrollment_shots
from models.heldout.photos import photo


def card_off_the_edge() -> np.ndarray:
    """The photo (BGR)."""
    return photo(enrollment_shots("watercolour", 777004, 0, 1)[2])
