"""Editions with the expansion beans: 000's variants 1 and 2, and the expansion set (003, Plus in 004).

Where the books differ or are silent, the choice is an option or written here:

- 000 variant 1 deals five cards to everyone and lets every player draw one in phase 4, whatever the
  player count; 001 and 003 deal 3/4/5/6 and draw four with six or seven: option ``deal_6_7``.
- When the draw pile runs out for the last time while the players draw their one card each, the game
  ends at once and the players after draw nothing (000 ends the game when the pile runs out; only a
  pile that runs out in phase 2 lets the turn finish phases 2 and 3).
- The expansion set removes the Coffee beans and "either the Cocoa or the Field beans" with four or
  five players: option ``removed_4_5``, the Cocoa beans by default, so that the Field beans are played.
- The expansion set's twelve beans: 003 adds Coffee, Brandy ("Weinbrandbohnen"), Cocoa and Field beans
  to the eight-bean basic game; the Plus expansion adds the Field beans to the Rio Grande basic game,
  whose 22-card bean is the Wax bean. The cards are the same but for the name: option ``basic_game``
  (catalogue ids ``brandy`` or ``wax``), Brandy by default as 003 lists it. Wax and Brandy are never
  both in play.
- The expansion set's bean protection: 003's text and the Plus expansion state the lenient reading
  (003's translator argues for the strict one): lenient by default, option ``protection``. Its tie-break
  is not written: the most cards in hand, as in the classic basic game the Plus is played with (001).
"""

from __future__ import annotations

from companion.rules.editions import (
    BASE_BEANS,
    PROTECTION_LENIENT,
    TIE_FURTHEST,
    TIE_MOST_CARDS,
    Edition,
    register_edition,
    staggered_deal,
)
from companion.rules.parts import Option

DEAL_FIVE = "five"
DEAL_STAGGERED = "3-4-5-6"
DEAL_6_7 = Option("deal_6_7", {
    DEAL_FIVE: "With six or seven players everyone starts with five cards and every player draws one in phase 4 "
               "(AMIGO edition, variant 1).",
    DEAL_STAGGERED: "With six or seven players the deal is 3, 4, 5, then 6 cards each and the active player draws "
                    "four in phase 4 (classic edition, expansion set).",
}, "Deal and draw with six or seven players")  # fmt: skip


@register_edition
class AmigoNewBeans(Edition):
    """000 variant 1: the base game plus cocoa, brandy and coffee, for 3 to 7 players."""

    name = "amigo-25-new-beans"
    title = "Bohnanza, AMIGO 25th-anniversary edition: variant 1, three new bean types"
    book = "000_7919b706fb618356.txt, variant 1"
    about = "Cocoa, Brandy and Coffee beans for 3 to 7 players; in phase 4 every player draws one card."
    max_players = 7
    options = (*Edition.options, DEAL_6_7)
    defaults = {"protection": PROTECTION_LENIENT, "tie_break": TIE_FURTHEST, "deal_6_7": DEAL_FIVE}

    def beans_in_play(self) -> tuple[str, ...]:
        removed = {3: {"cocoa"}, 4: {"coffee"}, 5: {"coffee"}}.get(self.players, {"cocoa", "garden"})
        return tuple(b for b in ("coffee", "brandy", *BASE_BEANS, "cocoa") if b not in removed)

    def _staggered(self) -> bool:
        return self.players >= 6 and self.rules.options.get("deal_6_7") == DEAL_STAGGERED

    def hand_sizes(self) -> tuple[int, ...]:
        return staggered_deal(self.players) if self._staggered() else super().hand_sizes()

    def draws(self, active: int) -> list[tuple[int, int]]:
        if self._staggered():
            return [(active, 4)]
        return [((active + i) % self.players, 1) for i in range(self.players)]

    def end_pass(self) -> int:
        return 2 if self.players == 3 else 3


@register_edition
class AmigoFieldBeans(AmigoNewBeans):
    """000 variant 2: the base game plus Field and Brandy beans for 4 or 5, played as variant 1."""

    name = "amigo-25-field-beans"
    title = "Bohnanza, AMIGO 25th-anniversary edition: variant 2, the Field beans"
    book = "000_7919b706fb618356.txt, variant 2"
    about = "Field and Brandy beans for 4 or 5 players: two Field beans harvested give a third field."
    min_players = 4
    max_players = 5
    options = Edition.options
    defaults = {"protection": PROTECTION_LENIENT, "tie_break": TIE_FURTHEST}
    always_modules = ("field-beans",)

    def beans_in_play(self) -> tuple[str, ...]:
        return ("brandy", *BASE_BEANS, "field")


BASIC_AMIGO = "amigo"
BASIC_RIO_GRANDE = "rio-grande"
BASIC_GAME = Option("basic_game", {
    BASIC_AMIGO: "The expansion set with the eight-bean basic game: its 22 Brandy beans are added (003).",
    BASIC_RIO_GRANDE: "The Plus expansion with the eleven-bean Rio Grande basic game: the 22-card bean is the "
                      "Wax bean (004).",
}, "The basic game it is played with")  # fmt: skip

REMOVE_COCOA = "cocoa"
REMOVE_FIELD = "field"
REMOVED_4_5 = Option("removed_4_5", {
    REMOVE_COCOA: "With four or five players the Cocoa beans are removed (with the Coffee beans).",
    REMOVE_FIELD: "With four or five players the Field beans are removed (with the Coffee beans).",
}, "Beans removed with four or five players")  # fmt: skip


@register_edition
class ExpansionSet(Edition):
    """The expansion set (003) and the Plus expansion (004): twelve beans for 3 to 7, field cards, a third field to buy.

    Three players start with all three field cards and buy none; with four to seven the third
    field costs 4 or 3 coins. Its Field beans are always played (module ``field-beans``).
    """

    name = "expansion-set"
    title = "Bohnanza expansion set (Erweiterungs-Set) and Plus expansion"
    book = "003_e82e8ed7cf5f5c14.txt; 004_e13a5e0396bac44f.txt, Plus expansion"
    about = "The basic game with Coffee, Brandy (Wax in the Plus), Cocoa and Field beans for 3 to 7; buy a third field."
    max_players = 7
    always_modules = ("field-beans",)
    options = (*Edition.options, REMOVED_4_5, BASIC_GAME)
    defaults = {"protection": PROTECTION_LENIENT, "tie_break": TIE_MOST_CARDS, "removed_4_5": REMOVE_COCOA,
                "basic_game": BASIC_AMIGO}  # fmt: skip

    def beans_in_play(self) -> tuple[str, ...]:
        if self.players == 3:
            removed = {"cocoa", "field"}
        elif self.players <= 5:
            removed = {"coffee", str(self.rules.options.get("removed_4_5", REMOVE_COCOA))}
        else:
            removed = {"garden", "cocoa", "field"}
        twenty_two = "wax" if self.rules.options.get("basic_game") == BASIC_RIO_GRANDE else "brandy"
        return tuple(b for b in ("coffee", twenty_two, *BASE_BEANS, "cocoa", "field") if b not in removed)

    def hand_sizes(self) -> tuple[int, ...]:
        return super().hand_sizes() if self.players < 6 else staggered_deal(self.players)

    def third_field_price(self) -> int | None:
        if self.players == 3:
            return None  # everyone starts with all three field cards
        return 3 if self.players >= 6 else 4

    def draws(self, active: int) -> list[tuple[int, int]]:
        return [(active, 4 if self.players >= 6 else 3)]

    def end_pass(self) -> int:
        return 2 if self.players == 3 else 3
