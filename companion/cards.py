"""The card catalogue: every bean card id, how many exist, and its beanometer.

These ids are used everywhere: game records, the web API and the vision labels.
"""

from __future__ import annotations

from dataclasses import dataclass

BACK = "back"
"""Label of the card back (coin side), as seen by the camera."""


@dataclass(frozen=True, slots=True)
class Bean:
    """One kind of bean card."""

    id: str
    name: str
    count: int
    beanometer: tuple[int | None, int | None, int | None, int | None]
    """Cards needed for 1, 2, 3 and 4 coins; None where the card prints no step."""
    plantable: bool = True

    def coins_for(self, cards: int) -> int:
        """Coins paid by harvesting a field of ``cards`` of this bean."""
        coins = 0
        for step, needed in enumerate(self.beanometer, start=1):
            if needed is not None and cards >= needed:
                coins = step
        return coins


def _bean(id: str, name: str, count: int, *steps: int | None, plantable: bool = True) -> Bean:
    return Bean(id, name, count, tuple(steps), plantable)  # type: ignore[arg-type]


CATALOGUE: dict[str, Bean] = {
    b.id: b
    for b in (
        _bean("coffee", "Coffee Bean", 24, 4, 7, 10, 12),
        _bean("wax", "Wax Bean", 22, 4, 7, 9, 11),
        _bean("brandy", "Brandy Bean", 22, 4, 7, 9, 11),
        _bean("blue", "Blue Bean", 20, 4, 6, 8, 10),
        _bean("chili", "Chili Bean", 18, 3, 6, 8, 9),
        _bean("stink", "Stink Bean", 16, 3, 5, 7, 8),
        _bean("green", "Green Bean", 14, 3, 5, 6, 7),
        _bean("soy", "Soy Bean", 12, 2, 4, 6, 7),
        _bean("black-eyed", "Black-eyed Bean", 10, 2, 4, 5, 6),
        _bean("red", "Red Bean", 8, 2, 3, 4, 5),
        _bean("garden", "Garden Bean", 6, None, 2, 3, None),
        _bean("cocoa", "Cocoa Bean", 4, None, 2, 3, 4),
        # Two harvested Field beans give a third field instead of coins (see rulesets).
        _bean("field", "Field Bean", 3, None, None, 3, None),
        _bean("magpie", "Magpie Bean", 6, None, None, None, None, plantable=False),
        # Cognac's beanometer is printed only on its card: brandy's by default.
        _bean("cognac", "Cognac Bean", 22, 4, 7, 9, 11),
    )
}

BEAN_IDS: tuple[str, ...] = tuple(CATALOGUE)
"""All bean ids, most numerous first."""

VISION_LABELS: tuple[str, ...] = BEAN_IDS + (BACK,)
"""Every label a card picture can have."""


def bean(bean_id: str) -> Bean:
    """The catalogue entry for ``bean_id``; ``KeyError`` names the unknown id."""
    try:
        return CATALOGUE[bean_id]
    except KeyError:
        raise KeyError(f"unknown bean {bean_id!r}; known beans: {', '.join(BEAN_IDS)}") from None


def with_beanometer(bean_id: str, steps: tuple[int | None, int | None, int | None, int | None]) -> Bean:
    """A copy of a catalogue bean with another beanometer (e.g. a group's Cognac cards)."""
    base = bean(bean_id)
    return Bean(base.id, base.name, base.count, steps, base.plantable)
