"""The pure rules engine of the card game: no I/O, no web, no camera."""

from companion.rules.legal import Choice, LegalMove, legal_moves
from companion.rules.moves import BuyField, Draw, EndTrading, Harvest, Move, Plant, Source, Trade, TurnOver
from companion.rules.phases import Phase
from companion.rules.rulesets import RULESETS, Rules, ruleset
from companion.rules.setup import KnownDeck, Setup
from companion.rules.state import GameState
from companion.rules.views import PlayerView, PublicView, player_view, public_view
from companion.rules.violations import IllegalMove, RuleViolation

__all__ = [
    "BuyField", "Choice", "Draw", "EndTrading", "GameState", "Harvest", "IllegalMove", "KnownDeck", "LegalMove",
    "Move", "Phase", "Plant", "PlayerView", "PublicView", "RULESETS", "RuleViolation", "Rules", "Setup", "Source",
    "Trade", "TurnOver", "legal_moves", "player_view", "public_view", "ruleset",
]
