"""The kinds of game the companion referees, behind one small interface.

Records, storage and the web page handle every game through a ``GameKind``:
start a state from a record header, turn events into moves and back, push
moves, and summarise the state as JSON.
"""

from __future__ import annotations

from typing import Any, Protocol

from companion.dice import moves as dice_moves
from companion.dice.game import DiceGame
from companion.records.format import Header
from companion.rules import GameState, KnownDeck, Setup, public_view
from companion.rules.moves import move_from_dict, move_to_dict
from companion.rules.violations import RuleViolation


class GameKind(Protocol):
    """What the rest of the companion needs from a game's rules engine."""

    name: str

    def new_state(self, header: Header) -> Any:
        """A fresh state (with a ``game_over`` flag); ``ValueError`` for a header these rules cannot start from."""

    def move_from_dict(self, data: Any) -> Any:
        """A move from its record form; ``ValueError`` for a malformed event."""

    def move_to_dict(self, move: Any) -> dict[str, Any]:
        """The record form of a move."""

    def check(self, state: Any, move: Any) -> RuleViolation | None:
        """None if legal, else the broken rule."""

    def push(self, state: Any, move: Any) -> Any:
        """Apply a legal move and return it as it is logged; ``IllegalMove`` if refused."""

    def summary(self, state: Any) -> dict[str, Any]:
        """The state as JSON: players, scores, winners, game_over and more."""


class CardGame:
    """Bohnanza, the card game, in every ruleset of ``companion.rules``."""

    name = "bohnanza"

    def new_state(self, header: Header) -> GameState:
        deck = None
        if header.deck is not None:
            order = header.deck.get("order")
            seed = header.deck.get("seed", 0)
            if not isinstance(seed, int) or (order is not None and not isinstance(order, list)):
                raise ValueError("\"deck\" needs an integer \"seed\" and optionally an \"order\" list")
            deck = KnownDeck(seed, tuple(order) if order is not None else None)
        return GameState(Setup(header.ruleset, header.players, header.start_player, header.options, deck))

    def move_from_dict(self, data: Any) -> Any:
        return move_from_dict(data)

    def move_to_dict(self, move: Any) -> dict[str, Any]:
        return move_to_dict(move)

    def check(self, state: GameState, move: Any) -> RuleViolation | None:
        return state.check(move)

    def push(self, state: GameState, move: Any) -> Any:
        return state.push(move)

    def summary(self, state: GameState) -> dict[str, Any]:
        return public_view(state).to_dict()


class DiceGameKind:
    """Bohnanza – Das Würfelspiel (``companion.dice``)."""

    name = "dice"

    def new_state(self, header: Header) -> DiceGame:
        return DiceGame.new(list(header.players), header.start_player, header.options)

    def move_from_dict(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError("an event must be a JSON object")
        return dice_moves.move_from_dict(data)

    def move_to_dict(self, move: Any) -> dict[str, Any]:
        return dice_moves.move_to_dict(move)

    def check(self, state: DiceGame, move: Any) -> RuleViolation | None:
        return state.check(move)

    def push(self, state: DiceGame, move: Any) -> Any:
        state.push(move)
        return move

    def summary(self, state: DiceGame) -> dict[str, Any]:
        return state.summary()


GAME_KINDS: dict[str, GameKind] = {"bohnanza": CardGame(), "dice": DiceGameKind()}


def game_kind(name: str) -> GameKind:
    """The game kind ``name``; ``ValueError`` if unknown."""
    try:
        return GAME_KINDS[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAME_KINDS)}") from None
