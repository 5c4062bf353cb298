"""The dice tracker on a real game store: each roll goes to the dice game waiting for one, and only there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.dice.config import DEFAULT_DICE
from companion.dice.game import DiceGame
from companion.dice.moves import Harvest, Save
from companion.records.format import Header
from companion.session import GameSession
from companion.storage.store import GameStore, StoreError
from companion.tracker.dice import DiceTracker, RollReport, TableError

FACES = (1, 2, 3, 4, 5)
ANY_BEAN = "1x(blue|garden|stink|soy|red|green)"
EASY_CARDS = [{"id": f"easy-{n}", "orders": [ANY_BEAN] * 5} for n in range(12)]
"""Harvest cards whose five orders one roll completes, so that a game can end within a turn."""


class StoredTables:
    """The tracker's view of a real store, each game opened from it as the web app opens it.

    It lists every dice game, finished ones too, so that only the engine can pass them over.
    """

    def __init__(self, store: GameStore):
        self.store = store

    def dice_games(self) -> list[int]:
        return [game.id for game in self.store.games() if game.header is not None and game.header.game == "dice"]

    def dice_state(self, game_id: int) -> DiceGame:
        return self._session(game_id).state

    def push(self, game_id: int, event: dict[str, Any]) -> None:
        self._session(game_id).push(event)

    def _session(self, game_id: int) -> GameSession:
        try:
            return GameSession.resume(self.store, game_id)
        except (StoreError, ValueError) as exc:
            raise TableError(f"game {game_id} cannot be opened: {exc}") from None


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    with GameStore(tmp_path / "games.sqlite3") as opened:
        yield opened


@pytest.fixture
def tracker(store: GameStore) -> DiceTracker:
    return DiceTracker(StoredTables(store))


def _start(store: GameStore, **options: Any) -> int:
    header = Header("dice", "dice", ("Ann", "Ben"), 0, {"harvest_cards": "sample", **options})
    return GameSession.start(store, header).game_id


def _deal(store: GameStore, game_id: int) -> GameSession:
    """Make the opening draws: then the start player must roll."""
    session = GameSession.resume(store, game_id)
    while session.state.pending_draws:
        session.push(session.state.deal())
    return session


def _ready(store: GameStore) -> int:
    game_id = _start(store)
    _deal(store, game_id)
    return game_id


def test_a_roll_goes_into_the_waiting_game_and_is_logged(store: GameStore, tracker: DiceTracker) -> None:
    game_id = _ready(store)
    assert tracker.roll(FACES) == RollReport(game_id, None)
    assert store.events(game_id)[-1] == {"type": "roll", "beans": DEFAULT_DICE.beans(list(FACES))}
    assert GameSession.resume(store, game_id).state.phase == "save"


def test_with_no_game_waiting_the_roll_is_not_counted(store: GameStore, tracker: DiceTracker) -> None:
    assert tracker.roll(FACES) == RollReport(None, "no dice game is waiting for a roll")
    drawing = _start(store)  # the opening draws are due: nobody may roll yet
    assert tracker.roll(FACES) == RollReport(None, "no dice game is waiting for a roll")
    assert store.events(drawing) == []


@pytest.mark.parametrize(("faces", "why"), [
    ((1, 2, 3), "the game has 5 dice, got 3 faces"),
    ((1, 2, 3, 4, 5, 6), "the game has 5 dice, got 6 faces"),
    ((None, 2, 3, 4, 5), "die 1 was rolled but reported no face"),
])  # fmt: skip
def test_a_refused_roll_changes_nothing(
    store: GameStore, tracker: DiceTracker, faces: tuple[int | None, ...], why: str
) -> None:
    game_id = _ready(store)
    events = store.events(game_id)
    assert tracker.roll(faces) == RollReport(game_id, f"roll refused: {why}")
    assert store.events(game_id) == events
    assert GameSession.resume(store, game_id).state.awaiting_roll()


def test_the_most_recently_played_waiting_game_gets_the_roll(store: GameStore, tracker: DiceTracker) -> None:
    older, newer = _start(store), _start(store)
    _deal(store, newer)
    _deal(store, older)  # played last, though started first
    assert tracker.roll(FACES).game_id == older
    assert tracker.roll(FACES).game_id == newer  # the older game now waits for a save, not a roll
    assert [e["type"] for e in store.events(older)][-1:] == [e["type"] for e in store.events(newer)][-1:] == ["roll"]
    assert tracker.roll(FACES) == RollReport(None, "no dice game is waiting for a roll")


def test_a_finished_game_is_passed_over(store: GameStore, tracker: DiceTracker) -> None:
    waiting = _ready(store)
    finished = _start(store, harvest_cards=EASY_CARDS, target_dollars=1)
    session = _deal(store, finished)
    session.push(session.state.roll_from_faces(list(FACES)))  # Ben completes all five orders at once
    session.push(Save(tuple(range(5))))
    session.push(Harvest(1))  # Ben reaches the target: the game ends
    assert session.finished and [g.finished for g in store.games() if g.id == finished] == [True]
    events = store.events(finished)
    assert tracker.roll(FACES) == RollReport(waiting, None)
    assert store.events(finished) == events


def test_a_game_that_cannot_be_opened_stops_the_roll(store: GameStore, tracker: DiceTracker) -> None:
    waiting = _ready(store)
    broken = store.create_game(Header("dice", "dice", ("Ann", "Ben"), 0, {"deck_size": 1}))  # too few cards
    report = tracker.roll(FACES)
    assert report.game_id is None and report.note is not None
    assert report.note.startswith(f"roll not counted: game {broken} cannot be opened: ")
    assert store.events(waiting)[-1]["type"] == "draw"
