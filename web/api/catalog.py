"""What the engine offers: rulesets with their options, the beans, and the hardware (status, emulated dice)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.cards import CATALOGUE
from companion.dice.options import MAX_PLAYERS, MIN_PLAYERS
from companion.rules.listing import rules_catalogue
from web.hardware import hardware

bp = Blueprint("catalog", __name__, url_prefix="/api")


@bp.get("/rulesets")
def rulesets() -> Response:
    """Every game and ruleset the companion referees, with player counts and options."""
    listing = rules_catalogue()
    dice = {
        "name": "dice", "title": "Bohnanza – Das Würfelspiel", "min_players": MIN_PLAYERS, "max_players": MAX_PLAYERS,
        "options": [{"name": "harvest_cards", "title": "Harvest cards", "default": "table", "choices": [
            {"value": "table", "about": "The harvest cards on your table, entered as they are drawn."},
            {"value": "sample", "about": "A sample deck the companion deals (for trying the game out)."}]}],
    }  # fmt: skip
    return jsonify({"games": [
        {"game": "bohnanza", "title": "Bohnanza (card game)", "rulesets": listing["editions"],
         "turns": listing["turns"], "modules": listing["modules"]},
        {"game": "dice", "title": "Bohnanza – Das Würfelspiel", "rulesets": [dice]},
    ]})  # fmt: skip


@bp.get("/beans")
def beans() -> Response:
    """The card catalogue: id, name, cards in the game and beanometer of every bean."""
    return jsonify({"beans": [
        {"id": b.id, "name": b.name, "count": b.count, "beanometer": list(b.beanometer), "plantable": b.plantable}
        for b in CATALOGUE.values()
    ]})  # fmt: skip


@bp.get("/hardware")
def hardware_status() -> Response:
    """Camera and dice status, as shown inline on every page."""
    return jsonify(hardware().status())


@bp.post("/hardware/dice/throw")
def throw_dice() -> tuple[Response, int]:
    """Throw the emulated dice (``--dice emulate``): the roll goes through the bridge into the waiting game."""
    roll = hardware().throw_dice()
    return jsonify({"seq": roll.seq, "faces": list(roll.faces)}), 202
