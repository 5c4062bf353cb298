"""High Bohn and its Cognac variant, as book 004 tells them."""

from __future__ import annotations

import pytest

from companion.rules import BuyField, EndTrading, Harvest, Plant, Source, TurnOver, public_view
from companion.rules.card_data import default_card_data
from companion.rules.rulesets import ruleset
from companion.rules.town import Build, EndBuilding
from companion.rules.wording import describe
from companion.rules.zones import Field
from support.tables import NAMES, given_draw_pile, refused, table

COGNAC = {"modules": ["cognac"]}
BEAN = {"gold-mine": "garden", "tipi": "red", "bank": "black-eyed", "farm": "soy", "saloon": "green",
        "general-store": "stink", "blacksmith": "chili", "jail": "blue", "distillery": "cognac"}  # fmt: skip


def high_bohn(players: int = 4, **options):
    return table("high-bohn", players, **options)


def built(game, seat: int, *cards: tuple[str, int]) -> None:
    """``seat`` earns the thalers for each building card and buys it."""
    for building, price in cards:
        game.players[seat].coins.extend([BEAN[building]] * price)
        game.push(Build(seat, building, price))


def breakdown(game, seat: int = 0) -> dict[str, int]:
    return public_view(game).to_dict()["score_breakdown"][NAMES[seat]]


def buildings(game) -> dict:
    return public_view(game).to_dict()["buildings"]


# --- the edition --------------------------------------------------------------------------


def test_high_bohn_uses_every_bean_but_cocoa_coffee_and_wax():
    assert high_bohn().deck_counts == {"blue": 20, "chili": 18, "stink": 16, "green": 14, "soy": 12,
                                       "black-eyed": 10, "red": 8, "garden": 6}  # fmt: skip


def test_the_cognac_variant_adds_the_cognac_beans_and_the_distilleries():
    assert "distillery" not in buildings(high_bohn())["left"]
    game = high_bohn(**COGNAC)
    assert game.deck_counts["cognac"] == 22 and sum(game.deck_counts.values()) == 126
    assert buildings(game)["left"]["distillery"] == [1, 2, 3, 4]


def test_the_game_ends_at_the_third_pass_with_three_or_four_players_and_the_fourth_with_five():
    assert [ruleset("high-bohn", n).end_pass() for n in (3, 4, 5)] == [3, 3, 4]


def test_high_bohn_is_played_with_the_basic_game_only():
    with pytest.raises(ValueError, match="basic game only"):
        ruleset("high-bohn", 4, {"modules": ["magpie"]})
    with pytest.raises(ValueError, match="played with High Bohn"):
        ruleset("classic", 4, COGNAC)
    with pytest.raises(ValueError, match="3-5 players"):
        ruleset("high-bohn", 6)


def test_three_players_start_with_the_third_field_as_in_the_basic_game():
    game = high_bohn(3)
    assert len(game.players[0].fields) == 3
    game.players[0].coins = ["blue"] * 3
    assert refused(game, BuyField(0)) == "field.no-purchase"


# --- buying buildings -----------------------------------------------------------------------


def test_a_building_is_paid_only_with_thalers_of_its_bean_which_go_to_the_discard_pile():
    game = high_bohn()
    game.players[0].coins = ["blue", "blue", "blue", "green"]
    assert refused(game, Build(0, "saloon", 2)) == "building.thalers"
    game.players[0].coins.append("green")
    before, discarded = game.total_cards(), len(game.discard)
    game.push(Build(0, "saloon", 2))
    assert game.players[0].coins == ["blue"] * 3
    assert game.discard[discarded:] == ["green", "green"] and game.total_cards() == before
    assert buildings(game)["owned"][0] == {"saloon": 2}


def test_buildings_are_bought_at_any_time_even_out_of_turn():
    game = high_bohn()
    built(game, 2, ("jail", 3), ("tipi", 1))  # Cid, while Ann plays
    assert buildings(game)["owned"][2] == {"jail": 3, "tipi": 1}


def test_a_player_buys_only_one_building_of_each_type():
    game = high_bohn()
    built(game, 0, ("saloon", 1))
    game.players[0].coins = ["green"] * 4
    assert refused(game, Build(0, "saloon", 4)) == "building.one-of-each"


def test_each_building_card_is_bought_once():
    game = high_bohn()
    built(game, 1, ("bank", 3))
    game.players[0].coins = ["black-eyed"] * 3
    assert refused(game, Build(0, "bank", 3)) == "building.taken"
    game.push(Build(0, "bank", 1))


def test_with_three_players_two_owners_remove_the_other_two_cards_of_the_type():
    game = high_bohn(3)
    built(game, 0, ("farm", 2))
    built(game, 1, ("farm", 4))
    assert buildings(game)["left"]["farm"] == []
    game.players[2].coins = ["soy"] * 4
    assert refused(game, Build(2, "farm", 1)) == "building.removed"


def test_with_four_players_three_owners_remove_the_fourth_card():
    game = high_bohn(4)
    built(game, 0, ("bank", 1))
    built(game, 1, ("bank", 3))
    assert buildings(game)["left"]["bank"] == [2, 4]
    built(game, 2, ("bank", 4))
    game.players[3].coins = ["black-eyed"] * 2
    assert refused(game, Build(3, "bank", 2)) == "building.removed"


def test_with_five_players_all_four_cards_of_a_type_are_bought():
    game = high_bohn(5)
    for seat, price in enumerate((4, 3, 2, 1)):
        built(game, seat, ("jail", price))
    game.players[4].coins = ["blue"] * 4
    assert refused(game, Build(4, "jail", 1)) == "building.taken"


def test_a_building_not_in_the_game_is_refused():
    game = high_bohn()
    game.players[0].coins = ["cognac"]
    assert refused(game, Build(0, "distillery", 1)) == "building.not-in-game"


def test_legal_moves_offer_only_the_buildings_a_player_can_pay_for():
    game = high_bohn()
    built(game, 1, ("saloon", 2))
    game.players[0].coins = ["green", "green", "blue"]
    offered = {(m.fields["building"], m.fields["price"]) for m in game.legal_moves(0) if m.type == "build"}
    assert offered == {("saloon", 1), ("jail", 1)}


def test_a_building_event_reads_as_the_book_names_the_card():
    event = {"type": "build", "player": 0, "building": "saloon", "price": 3}
    assert describe(event, NAMES[:4]) == "Ann built the 3 Saloon with 3 Green Bean thalers"


# --- what the buildings do ------------------------------------------------------------------


def test_the_2_gold_mine_makes_the_third_field_cost_one_thaler():
    game = high_bohn()
    game.players[0].coins = ["blue"] * 2
    assert refused(game, BuyField(0)) == "field.price"  # three thalers otherwise
    built(game, 0, ("gold-mine", 2))
    game.push(BuyField(0))
    assert len(game.players[0].fields) == 3 and game.players[0].coins == ["blue"]


def test_the_3_gold_mine_harvests_garden_beans_by_its_beanometer_and_a_single_one_at_any_time():
    game = high_bohn()
    fields = game.players[0].fields
    fields[0].cards, fields[1].cards = ["blue"] * 3, ["garden"]
    assert refused(game, Harvest(0, 1)) == "harvest.protection"
    built(game, 0, ("gold-mine", 3))
    game.push(Harvest(0, 1))
    assert game.players[0].coins == ["garden"] * default_card_data()["gold-mine-3"].coins_for(1)
    fields[1].cards = ["red"]
    assert refused(game, Harvest(0, 1)) == "harvest.protection"  # only garden beans


def test_the_4_gold_mine_is_one_more_field_and_a_bought_third_makes_four():
    game = high_bohn()
    built(game, 0, ("gold-mine", 4))
    assert len(game.players[0].fields) == 3
    game.players[0].coins = ["blue"] * 3
    game.push(BuyField(0))
    assert len(game.players[0].fields) == 4
    assert len(high_bohn(3).players[0].fields) == 3


@pytest.mark.parametrize(("price", "coins", "tipi"), [(1, 20, 0), (2, 16, 2), (3, 17, 2), (4, 10, 2)])
def test_the_tipi_earns_a_thaler_for_each_8_6_or_5_thalers(price, coins, tipi):
    game = high_bohn()
    built(game, 0, ("tipi", price))
    game.players[0].coins = ["blue"] * coins
    assert breakdown(game)["tipi"] == tipi


def test_the_3_farm_plants_up_to_three_cards_from_the_hand():
    game = high_bohn()
    game.players[0].fields.append(Field())
    game.push(Plant(0, "blue"))
    game.push(Plant(0, "red"))
    assert refused(game, Plant(0, "soy")) == "phase1.third-plant"
    built(game, 0, ("farm", 3))
    game.push(Plant(0, "soy"))
    assert refused(game, Plant(0, "soy")) == "phase1.third-plant"


def test_the_4_farm_turns_a_harvest_of_exactly_four_thalers_into_five():
    game = high_bohn()
    built(game, 0, ("farm", 4))
    fields = game.players[0].fields
    fields[0].cards, fields[1].cards = ["blue"] * 10, ["blue"] * 8
    game.push(Harvest(0, 0))
    assert game.players[0].coins == ["blue"] * 5
    game.push(Harvest(0, 1))  # three thalers stay three
    assert len(game.players[0].coins) == 8


def test_the_4_farm_with_the_3_jail_harvests_eight_blue_beans_for_five_thalers():
    game = high_bohn()
    built(game, 0, ("farm", 4), ("jail", 3))
    game.players[0].coins = []
    game.players[0].fields[0].cards = ["blue"] * 8
    game.push(Harvest(0, 0))
    assert game.players[0].coins == ["blue"] * 5


def test_the_2_jail_harvests_blue_beans_by_its_beanometer():
    game = high_bohn()
    built(game, 0, ("jail", 2))
    game.players[0].coins = []
    game.players[0].fields[0].cards = ["blue"] * 7
    game.push(Harvest(0, 0))
    assert len(game.players[0].coins) == default_card_data()["jail-2"].coins_for(7)


def test_the_4_jail_takes_a_thaler_from_the_discard_pile_for_any_paying_blue_harvest():
    game = high_bohn()
    built(game, 1, ("jail", 4))
    ben = list(game.players[1].coins)
    game.players[0].fields[0].cards = ["blue"] * 3  # pays nothing
    game.push(Harvest(0, 0))
    assert game.players[1].coins == ben
    game.players[0].fields[0].cards = ["blue"] * 4
    game.push(Harvest(0, 0))
    assert game.players[1].coins == [*ben, "blue"] and game.players[0].coins == ["blue"]
    game.players[1].fields[0].cards = ["blue"] * 6  # the owner's own harvest too
    game.push(Harvest(1, 0))
    assert len(game.players[1].coins) == len(ben) + 1 + 2 + 1  # Ann's bonus, two for six blue, the bonus


def test_the_3_blacksmith_harvests_chili_beans_by_its_beanometer():
    game = high_bohn()
    built(game, 0, ("blacksmith", 3))
    game.players[0].coins = []
    game.players[0].fields[0].cards = ["chili"] * 4
    game.push(Harvest(0, 0))
    assert len(game.players[0].coins) == default_card_data()["blacksmith-3"].coins_for(4)


def test_the_4_blacksmith_harvests_any_single_bean():
    game = high_bohn()
    fields = game.players[0].fields
    fields[0].cards, fields[1].cards = ["blue"] * 3, ["red"]
    assert refused(game, Harvest(0, 1)) == "harvest.protection"
    built(game, 0, ("blacksmith", 4))
    game.push(Harvest(0, 1))


def test_the_4_distillery_harvests_cognac_beans_by_its_beanometer():
    game = high_bohn(**COGNAC)
    built(game, 0, ("distillery", 4))
    game.players[0].coins = []
    game.players[0].fields[0].cards = ["cognac"] * 5
    game.push(Harvest(0, 0))
    assert len(game.players[0].coins) == default_card_data()["distillery-4"].coins_for(5)


# --- the end and the score ----------------------------------------------------------------------


def test_the_books_example_scores_29():
    game = high_bohn()
    built(game, 0, ("saloon", 2), ("blacksmith", 2), ("jail", 4), ("gold-mine", 3), ("tipi", 4), ("farm", 4))
    game.players[0].coins = ["blue"] * 6
    assert breakdown(game) == {"coins": 6, "stew": 0, "buildings": 19, "tipi": 1, "bonus": 3}
    assert public_view(game).to_dict()["scores"]["Ann"] == 29


@pytest.mark.parametrize(
    ("bonus", "table"), [({}, [0, 1, 2, 3, 5, 8]), ({"building_bonus": "summary-card"}, [0, 1, 2, 3, 4, 5])]
)
def test_four_or_more_buildings_earn_a_bonus_by_either_table_the_book_prints(bonus, table):
    game = high_bohn(**bonus)
    found = []
    for building in ("gold-mine", "tipi", "bank", "farm", "saloon", "general-store", "blacksmith", "jail"):
        built(game, 0, (building, 1))
        found.append(breakdown(game)["bonus"])
    assert found[2:] == table


def test_at_the_end_the_fields_are_harvested_then_everyone_may_buy_in_turn_from_the_active_player():
    game = high_bohn()
    given_draw_pile(game, 2, passes=2, keep=("blue",))
    game.players[0].coins, game.players[2].coins = ["green"] * 2, ["red"]
    game.players[0].fields[0].cards = ["blue"] * 2
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("blue", "blue")))
    game.push(EndTrading(0))
    game.push(Plant(0, "blue", Source.FACE_UP))
    game.push(Plant(0, "blue", Source.FACE_UP))
    assert not game.game_over and game.to_act() == (0,)
    assert all(f.count == 0 for p in game.players for f in p.fields)  # harvested first: five blue paid one
    game.push(Build(0, "saloon", 2))
    assert [m.type for m in game.legal_moves(0)] == ["build", "end-building"]  # the jail, with the last thaler
    assert refused(game, Build(2, "tipi", 1)) == "building.final-round"
    game.push(EndBuilding(0))
    assert game.to_act() == (2,)  # Ben can pay for nothing and is passed over
    assert refused(game, BuyField(2)) == "building.final-round"
    game.push(Build(2, "tipi", 1))  # Cid can pay for no more, nor can Dee: the game is over
    assert game.game_over
    assert public_view(game).to_dict()["scores"] == {"Ann": 3, "Ben": 0, "Cid": 1, "Dee": 0}


def test_the_table_shows_each_players_thalers_by_bean_and_buildings():
    game = high_bohn()
    game.players[0].coins = ["blue"]
    built(game, 0, ("tipi", 2))
    notes = public_view(game).to_dict()["notes"]
    assert "Ann's thalers: 1 Blue Bean" in notes  # the two red thalers paid for the tipi
    assert any(note.startswith("Ann owns ") and "2" in note for note in notes)
