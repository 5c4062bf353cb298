"""The page holds no rule of its own: a module written in this test, and the Duel, are played by tapping."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from companion.rules import moves, parts, wording
from companion.rules.legal import LegalMove
from companion.rules.parts import MoveRule, Part


@dataclass(frozen=True, slots=True)
class Cheer:
    player: int


class Cheering(Part):
    """A made-up module: the active player may cheer once per game, for one point."""

    name = "cheering"
    title = "Cheering (a test module)"
    book = "none"
    about = "Cheer once a game for a point."

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {Cheer: MoveRule(self.check, self.apply, self.offer)}

    def check(self, state: Any, move: Cheer) -> Any:
        from companion.rules.violations import RuleViolation

        if move.player in state.parts.get(self.name, set()):
            return RuleViolation("cheering.once", "Only one cheer a game.")
        return None

    def apply(self, state: Any, move: Cheer) -> None:
        state.parts.setdefault(self.name, set()).add(move.player)

    def offer(self, state: Any, seat: int) -> list[LegalMove]:
        if seat != state.active or self.check(state, Cheer(seat)):
            return []
        return [LegalMove("cheer", {"player": seat}, "Cheer for a point")]

    def score(self, state: Any, seat: int) -> dict[str, int]:
        return {"cheers": int(seat in state.parts.get(self.name, set()))}


@pytest.fixture
def cheering() -> Iterator[None]:
    """Register the module and its move for one test, without touching web/."""
    parts.MODULES[Cheering.name] = Cheering
    moves.register_move("cheer")(Cheer)
    wording.wording("cheer")(lambda e, who: f"{who(e['player'])} cheered")
    yield
    del parts.MODULES[Cheering.name], moves.MOVE_TYPES["cheer"], wording.WORDINGS["cheer"]


def test_a_module_added_in_a_test_is_playable_in_the_browser(page: Any, api: Any, cheering: None) -> None:
    game_id = api.start(ruleset="amigo-25", players=["Ann", "Ben", "Cid"], options={"modules": ["cheering"]})["game_id"]
    page.open(f"/games/{game_id}")
    page.until(page.facts, "no table drawn")
    page.unlock()
    page.tap('#other-moves button.move[data-type="cheer"]')
    page.until(lambda: page.text("#last-move") == "Last: Ann cheered", "the move's sentence is not shown")
    state = api.get(f"/api/games/{game_id}").get_json()["state"]
    assert state["score_breakdown"]["Ann"] == {"coins": 0, "cheers": 1}
    page.until(lambda: not page.visible('#other-moves button.move[data-type="cheer"]'), "a spent move is still offered")
    page.tap("#undo")
    page.until(lambda: page.text("#last-move") == "Undone: Ann cheered", "undo does not say what it undid")


def test_the_duel_is_played_from_the_moves_the_engine_offers(page: Any, api: Any) -> None:
    game_id = api.start(ruleset="amigo-25-duel", players=["Ann", "Ben"])["game_id"]
    page.open(f"/games/{game_id}")
    page.until(page.facts, "no table drawn")
    page.unlock()
    assert "turn over 3" in page.text("#phase")
    page.tap('#other-moves button.move[data-type="discard"]')
    page.until(lambda: page.text("#last-move") == "Last: Ann discarded a Coffee Bean from hand", "no discard")
    state = api.get(f"/api/games/{game_id}").get_json()["state"]
    assert state["players"][0]["hand_size"] == 4 and state["discard_pile"] == 1
    assert not any(m["type"] == "discard" for m in state["legal"][0])  # only one discard a turn


def test_the_new_game_screen_offers_the_modules_the_books_allow(page: Any, api: Any, server: Any) -> None:
    page.open("/new")
    page.unlock()
    page.tap('[data-game="bohnanza"]')
    page.tap('[data-ruleset="amigo-25-duel"]')
    assert page.visible("#module-magpie") and not page.visible("#module-bean-coin")  # the coin is for 3 to 5
    page.tap('[data-ruleset="amigo-25"]')
    for index, name in enumerate(["Ann", "Ben", "Cid"]):
        page.type(f'.player-row[data-seat="{index}"] .player-name', name)
    assert "draws four cards" in page.text('label[for="module-bean-coin"]')
    page.tap("#module-bean-coin")
    page.tap("#start-game")
    page.until(lambda: "/games/" in page.driver.current_url, "the table did not open")
    game_id = int(page.driver.current_url.rstrip("/").rsplit("/", 1)[1])
    header = server.app.extensions["tables"].session(game_id).header
    assert header.options["modules"] == ["bean-coin"]
    page.until(page.facts, "no table drawn")
    assert api.get(f"/api/games/{game_id}").get_json()["state"]["bean_coin"]["holder"] == 2

