"""High Bohn at the table: each seat's thalers by bean and buildings, the buildings it may buy (any time, any
seat), bean stews and one-bean fields named, and the values a group's own cards print entered at the start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.records import load_record
from companion.records.replay import replay_log

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "records" / "high-bohn-4p-known-deck.jsonl"


def first_chance_to_build() -> tuple[str, int, dict[str, Any]]:
    """The example record cut where a seat that does not act now could buy a building, and that building."""
    record = load_record(EXAMPLE)
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    for cut in range(len(record.events)):
        state = replay_log(record.header, [data for _, data in record.events[:cut]]).state
        for seat in range(len(state.players)):
            builds = [m.fields for m in state.legal_moves(seat) if m.type == "build"]
            if builds and seat not in state.to_act():
                return "\n".join(lines[: 1 + cut]) + "\n", seat, builds[0]
    raise AssertionError("the example never lets a waiting seat build")


def test_a_seat_builds_from_its_own_panel_at_any_time_paid_with_thalers_of_its_bean(page: Any, api: Any) -> None:
    record, seat, build = first_chance_to_build()
    response = api.post("/api/games/import", data=record.encode(), content_type="text/plain")
    assert response.status_code == 201, response.get_json()
    game_id = response.get_json()["game_id"]
    page.open(f"/games/{game_id}")
    page.until(page.facts, "no table drawn")
    page.unlock()
    panel = f'.town[data-seat="{seat}"]'
    before = api.get(f"/api/games/{game_id}").get_json()["state"]
    building, price = build["building"], build["price"]
    bean = before["buildings"]["kinds"][building]["bean"]
    assert f"{before['players'][seat]['coins_by_bean'][bean]}" in page.text(f'{panel} .thaler[data-bean="{bean}"]')
    page.tap(f'{panel} button.build[data-building="{building}"][data-price="{price}"]')
    page.until(lambda: page.visible(f'{panel} .building[data-building="{building}"]'), "the building is not shown")
    after = api.get(f"/api/games/{game_id}").get_json()["state"]
    assert after["buildings"]["owned"][seat] == {building: price}
    assert after["players"][seat]["coins"] == before["players"][seat]["coins"] - price
    assert not page.visible(f'{panel} button.build[data-building="{building}"]')  # one of each type


def turn(api: Any, game_id: int, seat: int, hand: list[str], turned: list[str], fields: list[int | None]) -> None:
    """One plain turn entered as a table would: plants from hand, two cards turned over and planted, the draw."""
    events = [{"type": "plant", "player": seat, "bean": bean, "source": "hand"} for bean in hand]
    events += [{"type": "turn-over", "player": seat, "beans": turned}, {"type": "end-trading", "player": seat}]
    events += [{"type": "plant", "player": seat, "bean": bean, "source": "face-up",
                **({"field": f} if f is not None else {})} for bean, f in zip(turned, fields)]
    events.append({"type": "draw", "player": seat})
    for event in events:
        response = api.post(f"/api/games/{game_id}/moves", event)
        assert response.status_code == 200, response.get_json()


def test_a_bean_stew_is_named_on_its_field(page: Any, api: Any) -> None:
    game_id = api.start(ruleset="high-bohn", players=["Ann", "Ben", "Cid", "Dee"])["game_id"]
    turn(api, game_id, 0, ["green", "green"], ["green", "green"], [None, None])
    for seat in (1, 2, 3):
        turn(api, game_id, seat, ["chili"], ["soy", "soy"], [None, None])
    for event in ({"type": "plant", "player": 0, "bean": "green", "source": "hand"},
                  {"type": "plant", "player": 0, "bean": "green", "source": "hand"},
                  {"type": "harvest", "player": 0, "field": 0},  # six green: three thalers
                  {"type": "build", "player": 0, "building": "saloon", "price": 3}):
        response = api.post(f"/api/games/{game_id}/moves", event)
        assert response.status_code == 200, response.get_json()
    turn(api, game_id, 0, [], ["red", "blue"], [1, 1])  # one of each bean in one field: a stew
    page.open(f"/games/{game_id}")
    page.until(page.facts, "no table drawn")
    assert page.text('.field-plot[data-seat="0"][data-field="1"] .field-kind') == "stew: Red, Blue"
    assert "3 Saloon" in page.text('.town[data-seat="0"] .building[data-building="saloon"]')


def test_the_group_enters_what_its_own_cards_print_when_the_game_starts(page: Any, server: Any) -> None:
    page.open("/new")
    page.unlock()
    page.tap('[data-game="bohnanza"]')
    page.tap('[data-ruleset="high-bohn"]')
    for index, name in enumerate(["Ann", "Ben", "Cid"]):
        page.type(f'.player-row[data-seat="{index}"] .player-name', name)
    page.tap("#card-data summary")
    assert "default, not from the book" in page.text("#card-jail-2")
    step = page.find('#card-jail-2 input.step')
    step.clear()
    step.send_keys("2")
    page.tap("#start-game")
    page.until(lambda: "/games/" in page.driver.current_url, "the table did not open")
    game_id = int(page.driver.current_url.rstrip("/").rsplit("/", 1)[1])
    header = server.app.extensions["tables"].session(game_id).header
    assert header.options["card_data"] == {"jail-2": {"beanometer": [2, 5, 7, 9]}}


def test_the_end_of_the_game_shows_what_buildings_added_to_each_score(page: Any, api: Any) -> None:
    response = api.post("/api/games/import", data=EXAMPLE.read_bytes(), content_type="text/plain")
    assert response.status_code == 201, response.get_json()
    game_id = response.get_json()["game_id"]
    state = api.get(f"/api/games/{game_id}").get_json()["state"]
    assert state["game_over"]
    page.open(f"/games/{game_id}")
    page.until(lambda: page.visible("#ranking"), "no ranking at the end")
    for name, parts in state["score_breakdown"].items():
        row = next(r for r in page.text("#ranking").splitlines() if r.startswith(name))
        for kind, n in parts.items():
            if kind != "coins" and n:
                assert f"+ {kind} {n}" in row, (name, kind, row)
