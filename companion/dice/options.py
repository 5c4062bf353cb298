"""Game options of a dice game, read from a record header's ``options``.

``harvest_cards`` says how harvest cards enter the game:

* ``"table"`` (default): the deck is hidden, as at a real table; each draw event
  carries the card, typed in or picked from the group's catalogue.  The deck
  holds ``deck_size`` cards (default 55).
* ``"sample"`` or a list of cards (``{"orders": [...]}``): full information; the
  deck is these cards shuffled with ``seed`` (default 0), so every draw is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.dice.catalogue import HarvestCard, card_from_data, sample_catalogue
from companion.dice.config import DEFAULT_DICE, DiceSet, dice_from_data

MIN_PLAYERS, MAX_PLAYERS = 2, 5
DECK_SIZE = 55
TARGET_DOLLARS = 10
AID_CARDS = 5
KNOWN = ("dice", "harvest_cards", "seed", "deck_size", "target_dollars")


@dataclass(frozen=True, slots=True)
class DiceOptions:
    """Validated options; ``cards`` is None for a hidden (table) deck."""

    dice: DiceSet = DEFAULT_DICE
    cards: tuple[HarvestCard, ...] | None = None
    seed: int = 0
    deck_size: int = DECK_SIZE
    target_dollars: int = TARGET_DOLLARS

    @property
    def deck(self) -> int:
        """How many harvest cards the deck starts with."""
        return self.deck_size if self.cards is None else len(self.cards)


def options_from_dict(options: dict[str, Any], players: int) -> DiceOptions:
    """Validate a header's options for ``players`` players; ``ValueError`` names the fault."""
    if not isinstance(options, dict):
        raise ValueError("options must be a JSON object")
    unknown = sorted(set(options) - set(KNOWN))
    if unknown:
        raise ValueError(f"unknown dice option(s) {', '.join(unknown)}; known: {', '.join(KNOWN)}")
    dice = dice_from_data(options["dice"]) if "dice" in options else DEFAULT_DICE
    source = options.get("harvest_cards", "table")
    if source == "table":
        cards = None
    elif source == "sample":
        cards = tuple(sample_catalogue().cards)
    elif isinstance(source, list):
        cards = tuple(card_from_data(c) for c in source)
    else:
        raise ValueError('"harvest_cards" is "table", "sample" or a list of cards')
    if cards is not None:
        for number, card in enumerate(cards, start=1):
            reason = card.impossible_reason(dice)
            if reason:
                raise ValueError(f"harvest card {card.id or number}: {reason}")
    result = DiceOptions(
        dice,
        cards,
        _whole(options, "seed", 0, minimum=None),
        _whole(options, "deck_size", DECK_SIZE, minimum=1),
        _whole(options, "target_dollars", TARGET_DOLLARS, minimum=1),
    )
    if result.deck < 2 * players:
        raise ValueError(f"{players} players need at least {2 * players} harvest cards, the deck has {result.deck}")
    return result


def _whole(options: dict[str, Any], key: str, default: int, minimum: int | None) -> int:
    value = options.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or (minimum is not None and value < minimum):
        bound = "" if minimum is None else f" of at least {minimum}"
        raise ValueError(f'option "{key}" must be a whole number{bound}, got {value!r}')
    return value
