"""The five bean dice as data: which bean each face shows.

The book prints no face table; the default is reconstructed from the player aid
(two dark dice, three light dice) and a group may load its own from JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.cards import CATALOGUE

FACES_PER_DIE = 6


@dataclass(frozen=True, slots=True)
class Die:
    """One bean die: a name ("dark", "light") and its six faces, face 1 first."""

    kind: str
    faces: tuple[str, ...]

    def bean(self, face: int) -> str:
        """The bean on face ``face`` (1-6); ``ValueError`` for a face the die lacks."""
        if not 1 <= face <= len(self.faces):
            raise ValueError(f"a {self.kind} die has faces 1-{len(self.faces)}, not {face}")
        return self.faces[face - 1]


@dataclass(frozen=True, slots=True)
class DiceSet:
    """The dice in die order (as the electronic dice report them)."""

    dice: tuple[Die, ...]

    def beans(self, faces: list[int] | tuple[int, ...]) -> list[str]:
        """Beans shown by a roll given as face indices, one per die in order."""
        if len(faces) != len(self.dice):
            raise ValueError(f"a roll has {len(self.dice)} dice, got {len(faces)} faces")
        return [die.bean(face) for die, face in zip(self.dice, faces)]


DARK = Die("dark", ("blue", "garden", "stink", "stink", "soy", "soy"))
LIGHT = Die("light", ("stink", "red", "blue", "blue", "green", "green"))
DEFAULT_DICE = DiceSet((DARK, DARK, LIGHT, LIGHT, LIGHT))


def dice_from_data(data: Any) -> DiceSet:
    """A dice set from ``{"dice": [{"kind": ..., "faces": [6 bean ids]}, ...]}``; ``ValueError`` if not."""
    try:
        dice = tuple(Die(str(d["kind"]), tuple(d["faces"])) for d in data["dice"])
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a dice configuration ({exc!r})") from None
    if not dice:
        raise ValueError("a dice configuration needs at least one die")
    for die in dice:
        if len(die.faces) != FACES_PER_DIE:
            raise ValueError(f"a {die.kind} die needs {FACES_PER_DIE} faces, has {len(die.faces)}")
        unknown = [str(f) for f in die.faces if f not in CATALOGUE]
        if unknown:
            raise ValueError(f"unknown bean(s) {', '.join(unknown)} on a {die.kind} die")
    return DiceSet(dice)


def dice_to_data(dice: DiceSet) -> dict[str, Any]:
    """The JSON form read by :func:`dice_from_data`."""
    return {"dice": [{"kind": d.kind, "faces": list(d.faces)} for d in dice.dice]}


def load_dice(path: str | Path) -> DiceSet:
    """Read a dice configuration file (the format of :func:`dice_from_data`)."""
    try:
        return dice_from_data(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: {exc}") from None
