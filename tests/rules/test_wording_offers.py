"""An offer waiting for its answer is worded as an offer; once made, the trade is worded as done."""

from __future__ import annotations

from companion.rules.wording import describe, propose

NAMES = ("Ann", "Ben", "Cid")


def test_a_trade_waiting_for_its_partner_reads_as_an_offer_in_the_present() -> None:
    trade = {"type": "trade", "player": 0, "partner": 2, "give_face_up": ["soy"], "give_hand": ["blue"],
             "receive": ["red", "red"]}
    assert propose(trade, NAMES) == "Ann offers Cid Soy, Blue for Red, Red"
    assert describe(trade, NAMES) == "Ann traded Soy, Blue with Cid for Red, Red"


def test_gifts_either_way_are_offered_and_asked_for() -> None:
    assert propose({"type": "trade", "player": 0, "partner": 1, "give_hand": ["chili"]}, NAMES) == (
        "Ann offers Ben Chili as a gift")
    assert propose({"type": "trade", "player": 0, "partner": 1, "receive": ["wax"]}, NAMES) == (
        "Ann asks Ben for Wax as a gift")


def test_any_other_proposed_event_reads_as_the_event() -> None:
    plant = {"type": "plant", "player": 1, "bean": "blue", "source": "hand", "field": 0}
    assert propose(plant, NAMES) == describe(plant, NAMES)
