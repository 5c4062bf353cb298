"""The game state: one object, changed only by pushing moves.

``check`` says whether a move is legal (and which rule it breaks if not);
``apply`` carries a checked move out; ``push`` does both and logs the move.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from companion.rules.drawing import TakePlan, plan_take
from companion.rules.hidden import SinceReshuffle, take
from companion.rules.legal import LegalMove
from companion.rules.moves import Move, Plant
from companion.rules.phases import Phase
from companion.rules.rulesets import Rules, ruleset
from companion.rules.setup import Setup
from companion.rules.violations import IllegalMove, RuleViolation
from companion.rules.zones import DrawPile, Field, Hand


class PlayerState:
    """One player's cards: hand, fields, coin pile and cards received in trades."""

    __slots__ = ("name", "hand", "fields", "coins", "received", "bought_field")

    def __init__(self, name: str, hand: Hand, fields: int):
        self.name = name
        self.hand = hand
        self.fields = [Field() for _ in range(fields)]
        self.coins: list[str] = []
        """The coin pile: the bean on each coin card's other side, latest last."""
        self.received: list[str] = []
        """Cards received in trades, lying beside the fields until planted."""
        self.bought_field = False

    def __deepcopy__(self, memo: dict[int, Any]) -> PlayerState:
        twin = PlayerState.__new__(PlayerState)
        twin.name, twin.bought_field = self.name, self.bought_field
        twin.hand, twin.fields = copy.deepcopy(self.hand, memo), copy.deepcopy(self.fields, memo)
        twin.coins, twin.received = list(self.coins), list(self.received)  # bean names
        return twin


class GameState:
    """A game of Bohnanza, from a real table (hidden hands) or a known deck."""

    def __init__(self, setup: Setup):
        self.setup = setup
        self.rules: Rules = ruleset(setup.ruleset, len(setup.players), setup.options)
        self.deck_counts: dict[str, int] = self.rules.deck()
        self.seed = setup.deck.seed if setup.deck else 0
        self.active = setup.start_player
        self.phase = Phase.PLANT
        self.plants_this_turn = 0
        self.face_up: list[str] = []
        self.discard: list[str] = []
        self.unseen: Counter[str] = Counter(self.deck_counts)
        self.hidden: SinceReshuffle | None = None
        """What is known of the hidden cards since the last reshuffle (None before the first)."""
        self.passes = 0
        self.last_pass = False
        """The draw pile ran out for the last time: the game ends after this turn's phase 3."""
        self.game_over = False
        self.turn = 1
        self.draws_due: list[tuple[int, int]] = []
        """Phase 4: who still draws how many cards, in order."""
        self.parts: dict[str, Any] = {}
        """Each module's own state, by module name."""
        self.move_stack: list[Move] = []
        self.players: list[PlayerState] = []
        self._deal()
        self.rules.setup(self)

    def _deal(self) -> None:
        n = len(self.setup.players)
        sizes = self.rules.hand_sizes()
        fields = self.rules.starting_fields()
        order = self._known_order()
        hands: dict[int, Hand] = {}
        for offset, size in enumerate(sizes):
            seat = (self.setup.start_player + offset) % n
            if order is None:
                hands[seat] = Hand(size=size)
            else:
                hands[seat] = Hand([order.pop() for _ in range(size)])
        self.players = [PlayerState(name, hands[i], fields) for i, name in enumerate(self.setup.players)]
        total = sum(self.deck_counts.values())
        self.draw = DrawPile(order) if order is not None else DrawPile(size=total - sum(sizes))

    def _known_order(self) -> list[str] | None:
        """The deck with its top card last, in a known-deck game."""
        deck = self.setup.deck
        if deck is None:
            return None
        if deck.order is not None:
            if Counter(deck.order) != Counter(self.deck_counts):
                raise ValueError(f"the deck order does not hold the {self.rules.name} ruleset's cards")
            return list(reversed(deck.order))
        cards = [bean for bean, count in self.deck_counts.items() for _ in range(count)]
        random.Random(deck.seed).shuffle(cards)
        return cards

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        """A copy to play on apart from this one. The ruleset (never changed once built) and the logged moves (value
        types) are shared rather than copied: they are most of the copying's work, and a search of the moves that
        explain a change of the table copies the state for every move it tries."""
        twin = GameState.__new__(GameState)
        memo[id(self)] = twin
        memo[id(self.rules)] = self.rules
        for name, value in vars(self).items():
            setattr(twin, name, list(value) if name == "move_stack" else copy.deepcopy(value, memo))
        return twin

    # --- moves ----------------------------------------------------------------

    @property
    def known(self) -> bool:
        """Whether hands and the draw pile are known (full-information mode)."""
        return self.draw.cards is not None

    def resolve(self, move: Move) -> Move:
        """The move with defaults filled in (a plant's field)."""
        if isinstance(move, Plant) and move.field is None and 0 <= move.player < len(self.players):
            fields = self.players[move.player].fields
            fits = [i for i in range(len(fields)) if self.rules.accepts(self, move.player, i, move.bean)]
            target = next((i for i in fits if fields[i].bean == move.bean), None)
            if target is None:
                target = next((i for i in fits if fields[i].bean is None), None)
            if target is not None:
                return Plant(move.player, move.bean, move.source, target)
        return move

    def check(self, move: Move) -> RuleViolation | None:
        """None if ``move`` is legal now, else the rule it breaks."""
        return self.rules.check(self, self.resolve(move))

    def is_legal(self, move: Move) -> bool:
        return self.check(move) is None

    def apply(self, move: Move) -> None:
        """Carry out a move already checked (and resolved)."""
        self.rules.apply(self, move)

    def push(self, move: Move) -> Move:
        """Check, apply and log a move; returns it as logged. ``IllegalMove`` if refused."""
        move = self.resolve(move)
        violation = self.check(move)
        if violation is not None:
            raise IllegalMove(violation)
        self.rules.apply(self, move)
        self.move_stack.append(move)
        return move

    @classmethod
    def replayed(cls, setup: Setup, moves: list[Move]) -> GameState:
        """The state after pushing ``moves`` from the start."""
        state = cls(setup)
        for move in moves:
            state.push(move)
        return state

    def pop(self, count: int = 1) -> list[Move]:
        """Undo the last ``count`` moves; returns them, oldest first."""
        count = min(count, len(self.move_stack))
        undone = self.move_stack[len(self.move_stack) - count :]
        fresh = GameState.replayed(self.setup, self.move_stack[: len(self.move_stack) - count])
        self.__dict__.update(fresh.__dict__)
        return undone

    # --- the draw pile ----------------------------------------------------------

    def plan_take(self, wanted: int) -> TakePlan:
        """What taking ``wanted`` cards from the draw pile would do (no change)."""
        return plan_take(
            self.draw.cards, self.draw.size, self.discard, self.passes,
            self.rules.end_pass(), wanted, self.seed,
        )  # fmt: skip

    def commit_take(self, plan: TakePlan, shown: tuple[str, ...] | None = None) -> None:
        """Carry out a planned take: ``shown``, the cards turned over, or None for cards drawn unseen.

        The cards themselves go where the caller puts them.
        """
        self.draw.cards, self.draw.size = plan.pile, plan.pile_size
        self.discard, self.passes = plan.discard, plan.passes
        self.hidden, self.unseen, _ = take(self.hidden, self.unseen, plan.piles, shown)
        self.last_pass = self.last_pass or plan.last_pass

    # --- questions --------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """Who must act now, first to act first (empty once the game is over)."""
        return self.rules.to_act(self)

    def legal_moves(self, seat: int) -> list[LegalMove]:
        """Every kind of move ``seat`` may make now."""
        return self.rules.legal_moves(self, seat)

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.players

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % len(self.players)

    def pending_cards(self) -> int:
        """Turned-over and received cards still waiting to be planted."""
        return len(self.face_up) + sum(len(p.received) for p in self.players)

    def total_cards(self) -> int:
        """Every card in play, wherever it lies (for conservation checks)."""
        in_fields = sum(f.count for p in self.players for f in p.fields)
        in_piles = sum(len(p.coins) + len(p.received) + p.hand.size for p in self.players)
        held = self.rules.cards_held(self)
        return self.draw.size + len(self.discard) + len(self.face_up) + in_fields + in_piles + held
