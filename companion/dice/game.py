"""The dice game referee: one state object, moves checked apart from applied.

Every roll is scored at once: after a roll, each other player's bottom-most
uncovered orders are checked against the dice just rolled, several in a row if
they can; at the end of a turn the active player checks against the five saved
dice; a harvest checks the new top card at once.  ``last_completions`` tells who
completed what with the last move pushed.
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.dice.catalogue import ORDERS_PER_CARD, HarvestCard
from companion.dice.matching import meets
from companion.dice.moves import (
    MAX_NUMBER,
    DrawCard,
    EndTurn,
    Exchange,
    Harvest,
    Move,
    Roll,
    Save,
    UseBeanPiece,
    checked_card,
)
from companion.dice.notation import Order
from companion.dice.options import AID_CARDS, MAX_PLAYERS, MIN_PLAYERS, DiceOptions, options_from_dict
from companion.rules.violations import IllegalMove, RuleViolation

HARVEST_MINIMUM = 3
MOST_DOLLARS = ORDERS_PER_CARD - HARVEST_MINIMUM + 1
"""The largest harvest (all five orders), which takes that many cards from the deck."""
AID_VALUE = 5
MAX_DICE = 8
"""Most dice a game may have: the exact odds weigh every outcome of one roll (6^dice) in 64-bit integers,
and beyond about 8 dice they take seconds, beyond 24 they overflow."""


class Phase(StrEnum):
    """Where the active player's turn stands."""

    ROLL = "roll"
    """The dice not in the bean field must be rolled."""
    SAVE = "save"
    """Dice were just rolled: save at least one (or use the bean piece)."""
    TURN_END = "turn-end"
    """All dice are saved and checked: pass the bean piece."""
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Completion:
    """``player`` completed the order at ``index`` (0 = bottom) of their top card."""

    player: int
    index: int
    order: Order


@dataclass(slots=True)
class PlayerState:
    """One player's harvest cards and dollars."""

    name: str
    top: HarvestCard | None = None
    bottom: HarvestCard | None = None
    completed: int = 0
    """How many orders of the top card are covered, from the bottom."""
    dollar_cards: list[HarvestCard | None] = field(default_factory=list)
    """Single dollars (harvest cards on their dollar side; None where never seen)."""
    aid_cards: int = 0

    @property
    def dollars(self) -> int:
        return len(self.dollar_cards) + AID_VALUE * self.aid_cards


class DiceGame:
    """The state of one game of Bohnanza – Das Würfelspiel."""

    def __init__(self, players: list[str], start_player: int, options: DiceOptions):
        self.options = options
        self.dice = options.dice
        self.players = [PlayerState(name) for name in players]
        self.active = start_player
        self.phase = Phase.ROLL
        self.saved: list[str | None] = [None] * len(self.dice.dice)
        self.shown: list[str | None] = [None] * len(self.dice.dice)
        """The bean each die shows from a roll of this turn (None before its first roll)."""
        self.last_roll: tuple[str | None, ...] | None = None
        self.bean_piece_used = False
        self.rng = random.Random(options.seed)
        self.deck: list[HarvestCard] | None = None
        if options.cards is not None:
            self.deck = list(options.cards)
            self.rng.shuffle(self.deck)
        self.deck_left = options.deck
        self.aid_cards_left = AID_CARDS
        self.pending_draws: deque[int] = deque(seat for seat in range(len(players)) for _ in range(2))
        self.final_phase = False
        self.game_over = False
        self.last_completions: tuple[Completion, ...] = ()
        self.log: list[Move] = []

    @classmethod
    def new(cls, players: list[str], start_player: int, options: dict[str, Any]) -> DiceGame:
        """A new game (before the opening draws); ``ValueError`` for bad players or options."""
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise ValueError("players must be a list of names")
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"the dice game is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {len(players)}")
        if len(set(players)) != len(players):
            raise ValueError("player names must differ")
        if not isinstance(start_player, int) or isinstance(start_player, bool) or not 0 <= start_player < len(players):
            raise ValueError(f"start_player must be a seat from 0 to {len(players) - 1}, got {start_player!r}")
        check_dice_config(options.get("dice") if isinstance(options, dict) else None)
        _check_cards(options.get("harvest_cards") if isinstance(options, dict) else None)
        return cls(list(players), start_player, options_from_dict(options, len(players)))

    # ----------------------------------------------------------------- checking

    def check(self, move: Move) -> RuleViolation | None:
        """Why ``move`` is illegal now, or None if it may be pushed."""
        if self.game_over:
            return RuleViolation("dice.game-over", "The game is over.")
        if isinstance(move, DrawCard):
            return self._check_draw(move)
        if self.pending_draws:
            name = self.players[self.pending_draws[0]].name
            return RuleViolation("dice.draw-pending", f"{name} must first draw a harvest card.")
        if isinstance(move, Roll):
            return self._check_roll(move)
        if isinstance(move, Save):
            return self._check_save(move)
        if isinstance(move, UseBeanPiece):
            if self.phase is not Phase.SAVE:
                return RuleViolation("dice.bean-piece-after-roll", "The bean piece repeats a roll just made.")
            if self.bean_piece_used:
                return RuleViolation("dice.bean-piece-once", "The bean piece was already used this turn.")
            return None
        if isinstance(move, Harvest):
            return self._check_harvest(move)
        if isinstance(move, EndTurn):
            if self.phase is not Phase.TURN_END:
                return RuleViolation("dice.turn-not-over", "The turn ends once all dice are in the bean field.")
            return None
        if isinstance(move, Exchange):
            return self._check_exchange(move)
        return RuleViolation("dice.unknown-move", f"{move!r} is not a move of the dice game.")

    def _seat(self, seat: int) -> RuleViolation | None:
        if not 0 <= seat < len(self.players):
            return RuleViolation("dice.no-such-player", f"There is no player in seat {seat}.")
        return None

    def _check_draw(self, move: DrawCard) -> RuleViolation | None:
        if not self.pending_draws:
            return RuleViolation("dice.no-draw-due", "Nobody is due to draw a harvest card now.")
        if move.player != self.pending_draws[0]:
            name = self.players[self.pending_draws[0]].name
            return RuleViolation("dice.draw-wrong-player", f"{name} draws the next harvest card.")
        reason = move.card.impossible_reason(self.dice)
        if reason:
            return RuleViolation("dice.order-impossible", f"This harvest card cannot be right: {reason}.")
        if holder := self._holder(move.card.id):
            return RuleViolation("dice.card-in-play", f"Harvest card {move.card.id} is already in play ({holder}): "
                                 "it cannot be drawn again.")  # fmt: skip
        if self.deck_left < 1:
            return RuleViolation("dice.deck-empty", "The harvest deck is empty.")
        if self.deck is not None and move.card != self.deck[0]:
            return RuleViolation("dice.draw-not-deck-top", "That is not the card on top of the harvest deck.")
        return None

    def _holder(self, card_id: str) -> str | None:
        """Whose card (in words) the harvest card labelled ``card_id`` is, if in play; a card without a label: None."""
        for player in self.players if card_id else ():
            for place, card in (("top", player.top), ("bottom", player.bottom)):
                if card is not None and card.id == card_id:
                    return f"{player.name}'s {place} card"
        return None

    def _check_roll(self, move: Roll) -> RuleViolation | None:
        if self.phase is Phase.SAVE:
            return RuleViolation("dice.save-at-least-one", "Save at least one die before rolling again.")
        if self.phase is not Phase.ROLL:
            return RuleViolation("dice.turn-over", "All dice are in the bean field: pass the bean piece.")
        count = len(self.dice.dice)
        if len(move.beans) != count:
            return RuleViolation("dice.roll-dice-count", f"The game has {count} dice; this roll has {len(move.beans)}.")
        for index, (bean, saved) in enumerate(zip(move.beans, self.saved)):
            die = self.dice.dice[index]
            if saved is not None and bean is not None:
                return RuleViolation("dice.roll-saved-die", f"Die {index + 1} is in the bean field and stays there.")
            if saved is None and bean is None:
                return RuleViolation("dice.roll-all-dice", f"Die {index + 1} is not in the bean field: roll it too.")
            if bean is not None and bean not in die.faces:
                return RuleViolation("dice.face-not-on-die", f"Die {index + 1} ({die.kind}) has no {bean} face.")
        return None

    def _check_save(self, move: Save) -> RuleViolation | None:
        if self.phase is not Phase.SAVE:
            return RuleViolation("dice.save-after-roll", "Dice are saved right after a roll.")
        if not move.dice:
            return RuleViolation("dice.save-at-least-one", "Save at least one die after every roll.")
        if len(set(move.dice)) != len(move.dice):
            return RuleViolation("dice.save-die-twice", "Each die can be saved only once.")
        for index in move.dice:
            if not 0 <= index < len(self.dice.dice):
                return RuleViolation("dice.no-such-die", f"There is no die {index + 1}.")
            if self.saved[index] is not None:
                return RuleViolation("dice.save-already-saved", f"Die {index + 1} is already in the bean field.")
        return None

    def _check_harvest(self, move: Harvest) -> RuleViolation | None:
        wrong_seat = self._seat(move.player)
        if wrong_seat:
            return wrong_seat
        player = self.players[move.player]
        if player.completed < HARVEST_MINIMUM:
            return RuleViolation(
                "dice.harvest-needs-three",
                f"{player.name} has completed {player.completed} order(s); harvesting needs {HARVEST_MINIMUM}.",
            )
        needed = self._payout(player)
        if self.deck_left < needed:
            return RuleViolation(
                "dice.deck-empty",
                f"The harvest deck has {self.deck_left} card(s), this harvest needs {needed}: "
                f"first exchange five single dollars for a player aid card.",
            )
        return None

    def _check_exchange(self, move: Exchange) -> RuleViolation | None:
        wrong_seat = self._seat(move.player)
        if wrong_seat:
            return wrong_seat
        if self.deck_left >= MOST_DOLLARS:
            return RuleViolation("dice.deck-not-empty", "Player aid cards are exchanged only when the deck runs out.")
        if self.aid_cards_left == 0:
            return RuleViolation("dice.no-aid-card", "No player aid card is left to exchange.")
        if len(self.players[move.player].dollar_cards) < AID_VALUE:
            name = self.players[move.player].name
            return RuleViolation("dice.exchange-needs-five", f"{name} has fewer than {AID_VALUE} single dollars.")
        return None

    # ----------------------------------------------------------------- applying

    def push(self, move: Move) -> None:
        """Apply ``move``; ``IllegalMove`` if :meth:`check` refuses it."""
        violation = self.check(move)
        if violation:
            raise IllegalMove(violation)
        completions: list[Completion] = []
        if isinstance(move, DrawCard):
            self._draw(move)
        elif isinstance(move, Roll):
            completions = self._roll(move)
        elif isinstance(move, Save):
            completions = self._save(move)
        elif isinstance(move, UseBeanPiece):
            self.bean_piece_used = True
            self.phase = Phase.ROLL
        elif isinstance(move, Harvest):
            completions = self._harvest(move.player)
        elif isinstance(move, EndTurn):
            completions = self._end_turn()
        else:
            self._exchange(move.player)
        self.log.append(move)
        self.last_completions = tuple(completions)

    def _draw(self, move: DrawCard) -> None:
        self.pending_draws.popleft()
        if self.deck is not None:
            self.deck.pop(0)
        self.deck_left -= 1
        player = self.players[move.player]
        if player.top is None:
            player.top = move.card
        else:
            player.bottom = move.card

    def _roll(self, move: Roll) -> list[Completion]:
        self.last_roll = move.beans
        for index, bean in enumerate(move.beans):
            if bean is not None:
                self.shown[index] = bean
        self.phase = Phase.SAVE
        rolled = [b for b in move.beans if b is not None]
        return [c for seat in self._others() for c in self._complete(seat, rolled)]

    def _save(self, move: Save) -> list[Completion]:
        for index in move.dice:
            self.saved[index] = self.shown[index]
        if any(bean is None for bean in self.saved):
            self.phase = Phase.ROLL
            return []
        self.phase = Phase.TURN_END
        return self._complete(self.active, [b for b in self.saved if b is not None])

    def _harvest(self, seat: int) -> list[Completion]:
        player = self.players[seat]
        self._pay(player)
        self.pending_draws.append(seat)
        completions = self._complete(seat, self._window(seat))
        if player.dollars >= self.options.target_dollars:
            self.final_phase = True
        others_reached = any(self.players[s].dollars >= self.options.target_dollars for s in self._others())
        if self.final_phase and others_reached:
            completions += self._finish()
        return completions

    def _end_turn(self) -> list[Completion]:
        if self.final_phase:
            return self._finish()
        self.active = (self.active + 1) % len(self.players)
        self.phase = Phase.ROLL
        self.saved = [None] * len(self.dice.dice)
        self.shown = [None] * len(self.dice.dice)
        self.last_roll = None
        self.bean_piece_used = False
        return []

    def _exchange(self, seat: int) -> None:
        player = self.players[seat]
        returned = player.dollar_cards[-AID_VALUE:]
        del player.dollar_cards[-AID_VALUE:]
        player.aid_cards += 1
        self.aid_cards_left -= 1
        self.deck_left += AID_VALUE
        if self.deck is not None:
            cards = [c for c in returned if c is not None]
            self.rng.shuffle(cards)
            self.deck.extend(cards)

    def _finish(self) -> list[Completion]:
        """The final phase: the active player saves all dice and checks, everyone harvests."""
        completions: list[Completion] = []
        if self.phase is not Phase.TURN_END:
            self.saved = list(self.shown)
            completions = self._complete(self.active, [b for b in self.saved if b is not None])
        for player in self.players:
            if player.completed >= HARVEST_MINIMUM:
                self._pay(player)
        self.pending_draws.clear()
        self.phase = Phase.OVER
        self.game_over = True
        return completions

    def _pay(self, player: PlayerState) -> None:
        """Harvest: flip the top card to its dollar side, take the other dollar cards from the deck."""
        dollars = self._payout(player)
        taken = min(dollars - 1, self.deck_left)
        cards = [self.deck.pop(0) if self.deck is not None else None for _ in range(taken)]
        player.dollar_cards += [player.top, *cards] + [None] * (dollars - 1 - taken)
        self.deck_left -= taken
        player.top, player.bottom, player.completed = player.bottom, None, 0

    def _complete(self, seat: int, beans: list[str]) -> list[Completion]:
        """Cover every bottom-most order of ``seat``'s top card met by ``beans``, in a row."""
        player = self.players[seat]
        done: list[Completion] = []
        while beans and player.top is not None and player.completed < ORDERS_PER_CARD:
            order = player.top.orders[player.completed]
            if not meets(order, beans):
                break
            done.append(Completion(seat, player.completed, order))
            player.completed += 1
        return done

    def _window(self, seat: int) -> list[str]:
        """The dice ``seat`` may check against right now (after a harvest)."""
        if self.phase is Phase.SAVE and seat != self.active and self.last_roll is not None:
            return [b for b in self.last_roll if b is not None]
        if self.phase is Phase.TURN_END and seat == self.active:
            return [b for b in self.saved if b is not None]
        return []

    def _others(self) -> list[int]:
        return [seat for seat in range(len(self.players)) if seat != self.active]

    @staticmethod
    def _payout(player: PlayerState) -> int:
        return player.completed - HARVEST_MINIMUM + 1

    # ----------------------------------------------------------------- chance and choices

    def awaiting_roll(self) -> bool:
        """Whether the active player must roll now (no harvest card is due to be drawn first)."""
        return self.phase is Phase.ROLL and not self.pending_draws

    def to_roll(self) -> list[int]:
        """The dice the next roll must include (those not in the bean field)."""
        return [i for i, bean in enumerate(self.saved) if bean is None]

    def random_roll(self, rng: random.Random) -> Roll:
        """A roll of the dice due to be rolled, faces drawn with ``rng``."""
        due = set(self.to_roll())
        return Roll(tuple(rng.choice(d.faces) if i in due else None for i, d in enumerate(self.dice.dice)))

    def roll_from_faces(self, faces: list[int | None] | tuple[int | None, ...]) -> Roll:
        """A roll as electronic dice report it (face 1-6 per die); faces of saved dice are ignored."""
        if len(faces) != len(self.dice.dice):
            raise ValueError(f"the game has {len(self.dice.dice)} dice, got {len(faces)} faces")
        due = set(self.to_roll())
        beans: list[str | None] = []
        for index, (die, face) in enumerate(zip(self.dice.dice, faces)):
            if index not in due:
                beans.append(None)
            elif face is None:
                raise ValueError(f"die {index + 1} was rolled but reported no face")
            else:
                beans.append(die.bean(face))
        return Roll(tuple(beans))

    def deal(self) -> DrawCard:
        """The next draw of a full-information deck; ``ValueError`` if none is due or the deck is hidden."""
        if not self.pending_draws:
            raise ValueError("no harvest card is due to be drawn")
        if self.deck is None:
            raise ValueError("the harvest deck is hidden: the draw event must name the card drawn")
        return DrawCard(self.pending_draws[0], self.deck[0])

    def legal_moves(self) -> list[Move]:
        """The decisions open now (and a due draw of a full-information deck); rolls are chance."""
        if self.game_over:
            return []
        if self.pending_draws:
            return [self.deal()] if self.deck is not None else []
        candidates: list[Move] = [Harvest(s) for s in range(len(self.players))]
        candidates += [Exchange(s) for s in range(len(self.players))]
        if self.phase is Phase.SAVE:
            due = self.to_roll()
            candidates += [Save(c) for r in range(1, len(due) + 1) for c in itertools.combinations(due, r)]
            candidates.append(UseBeanPiece())
        candidates.append(EndTurn())
        return [m for m in candidates if self.check(m) is None]

    # ----------------------------------------------------------------- reporting

    def scores(self) -> dict[str, int]:
        """Dollars by player name."""
        return {p.name: p.dollars for p in self.players}

    def winners(self) -> list[str]:
        """The players with the most dollars once the game is over (ties share), else empty."""
        if not self.game_over:
            return []
        best = max(p.dollars for p in self.players)
        return [p.name for p in self.players if p.dollars == best]

    def summary(self) -> dict[str, Any]:
        """The state as JSON-serialisable data for the tablet and the records."""
        return {
            "game": "dice",
            "players": [self._player_summary(seat) for seat in range(len(self.players))],
            "active_player": self.active,
            "phase": self.phase.value,
            "pending_draw": self.pending_draws[0] if self.pending_draws else None,
            "dice": [
                {"kind": die.kind, "bean": self.shown[i], "saved": self.saved[i] is not None}
                for i, die in enumerate(self.dice.dice)
            ],
            "saved_dice": [b for b in self.saved if b is not None],
            "last_roll": None if self.last_roll is None else list(self.last_roll),
            "bean_piece_used": self.bean_piece_used,
            "harvest_deck_left": self.deck_left,
            "aid_cards_left": self.aid_cards_left,
            "target_dollars": self.options.target_dollars,
            "final_phase": self.final_phase,
            "game_over": self.game_over,
            "winners": self.winners(),
            "scores": self.scores(),
            "last_completions": [
                {"player": c.player, "name": self.players[c.player].name, "index": c.index, "order": str(c.order)}
                for c in self.last_completions
            ],
        }

    def _player_summary(self, seat: int) -> dict[str, Any]:
        player = self.players[seat]
        top = None
        if player.top is not None:
            top = {
                "id": player.top.id,
                "orders": [
                    {"order": str(o), "completed": i < player.completed} for i, o in enumerate(player.top.orders)
                ],
            }
        return {
            "seat": seat,
            "name": player.name,
            "dollars": player.dollars,
            "aid_cards": player.aid_cards,
            "completed": player.completed,
            "top_card": top,
            "bottom_card": None if player.bottom is None else player.bottom.id,
        }


def check_dice_config(config: Any) -> None:
    """The shape of a dice configuration from outside (None: the default dice), and at most ``MAX_DICE`` dice.

    ``ValueError`` if wrong; ``companion.dice.config`` reads a configuration of this shape.
    """
    if config is None:
        return
    dice = config.get("dice") if isinstance(config, dict) else None
    if not isinstance(dice, list) or not all(
        isinstance(d, dict) and isinstance(d.get("kind"), str) and isinstance(d.get("faces"), list)
        and all(isinstance(face, str) for face in d["faces"]) for d in dice
    ):  # fmt: skip
        raise ValueError('a dice configuration is {"dice": [{"kind": "dark", "faces": [six bean ids]}, ...]}')
    if len(dice) > MAX_DICE:
        raise ValueError(f"a game has at most {MAX_DICE} dice, not {len(dice)}")


def _check_cards(cards: Any) -> None:
    """Harvest cards listed in a game's options, checked as drawn cards are (so none asks for absurd counts)."""
    if not isinstance(cards, list):
        return
    if len(cards) > MAX_NUMBER:
        raise ValueError(f'"harvest_cards" lists at most {MAX_NUMBER} cards, not {len(cards)}')
    for number, card in enumerate(cards, start=1):
        try:
            checked_card(card)
        except ValueError as exc:
            raise ValueError(f"harvest card {number}: {exc}") from None
