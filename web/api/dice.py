"""The dice game's own API: the group's harvest-card catalogue, exact odds, virtual rolls and deals.

Moves themselves go to ``POST /api/games/<id>/moves``; these endpoints add what the
dice screen needs around them.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from flask.blueprints import BlueprintSetupState

from companion.dice.catalogue import (
    ORDERS_PER_CARD,
    HarvestCard,
    HarvestCatalogue,
    card_to_data,
    load_catalogue,
    sample_catalogue,
    save_catalogue,
)
from companion.dice.config import DEFAULT_DICE, DiceSet
from companion.dice.game import DiceGame
from companion.dice.matching import impossible_reason
from companion.dice.moves import checked_percentage, move_to_dict, order_problem
from companion.dice.notation import Order, OrderSyntaxError, parse_order
from companion.dice.odds import check_printed
from companion.session import GameSession
from web.api.body import json_object, query_int
from web.errors import ApiError
from web.present import odds_json, order_odds
from web.tables import tables

bp = Blueprint("dice", __name__, url_prefix="/api/dice")

CATALOGUE_FILE = "dice_harvest_cards.json"
GROUP_NAME = "Our table"
MAX_ORDER_TEXT = 200
MAX_ID = 40
_rng = random.SystemRandom()


class CatalogueFile:
    """The group's harvest-card catalogue, kept as a JSON file in the instance folder."""

    def __init__(self, path: Path):
        self.path = path
        self._lock = threading.Lock()

    def load(self) -> HarvestCatalogue:
        """The catalogue (empty until the first card is entered); 422 if the file is damaged."""
        with self._lock:
            return self._load()

    def add(self, card: HarvestCard) -> tuple[HarvestCard, bool]:
        """Store ``card``; returns the stored card and whether it is new."""
        with self._lock:
            catalogue = self._load()
            before = len(catalogue.cards)
            try:
                stored = catalogue.add(card)
            except ValueError as exc:
                raise ApiError(409, str(exc)) from None
            added = len(catalogue.cards) > before
            if added:
                save_catalogue(catalogue, self.path)
            return stored, added

    def _load(self) -> HarvestCatalogue:
        if not self.path.exists():
            return HarvestCatalogue(GROUP_NAME)
        try:
            return load_catalogue(self.path)
        except ValueError as exc:
            raise ApiError(422, f"the group's harvest card file is damaged: {exc}") from None


@bp.record_once
def _setup(state: BlueprintSetupState) -> None:
    state.app.extensions["dice_catalogue"] = CatalogueFile(Path(state.app.instance_path) / CATALOGUE_FILE)


def _catalogue_file() -> CatalogueFile:
    return current_app.extensions["dice_catalogue"]


# ----------------------------------------------------------------- catalogue


@bp.get("/catalogue")
def list_catalogue() -> Response:
    """The group's catalogue and the labelled sample catalogue, every order with its odds."""
    return jsonify({"group": _catalogue_json(_catalogue_file().load()), "sample": _catalogue_json(sample_catalogue())})


@bp.post("/catalogue")
def add_card() -> tuple[Response, int]:
    """Enter a harvest card: five orders bottom to top, optional printed percentages and id."""
    data = json_object()
    card = _card_from_request(data)
    stored, added = _catalogue_file().add(card)
    return jsonify({"card": _card_json(stored), "added": added}), 201 if added else 200


def _catalogue_json(catalogue: HarvestCatalogue) -> dict[str, Any]:
    return {"name": catalogue.name, "sample": catalogue.sample, "cards": [_card_json(c) for c in catalogue.cards]}


def _card_json(card: HarvestCard, dice: DiceSet = DEFAULT_DICE) -> dict[str, Any]:
    return {**card_to_data(card), "odds": [odds_json(order_odds(o, dice)) for o in card.orders]}


def _card_from_request(data: dict[str, Any]) -> HarvestCard:
    """A checked card: every order parsed and possible, every printed percentage agreeing."""
    texts = data.get("orders")
    if not isinstance(texts, list) or len(texts) != ORDERS_PER_CARD or not all(isinstance(t, str) for t in texts):
        raise ApiError(400, f'"orders" must be a list of {ORDERS_PER_CARD} order texts, bottom to top')
    printed = data.get("printed") or [None] * ORDERS_PER_CARD
    if not isinstance(printed, list) or len(printed) != ORDERS_PER_CARD:
        raise ApiError(400, f'"printed" must be a list of {ORDERS_PER_CARD} percentages (null where not typed)')
    card_id = data.get("id", "")
    if not isinstance(card_id, str) or len(card_id.strip()) > MAX_ID:
        raise ApiError(400, f'"id" must be a label of at most {MAX_ID} characters')
    orders = tuple(_possible_order(text, index) for index, text in enumerate(texts))
    for index, (order, value) in enumerate(zip(orders, printed)):
        if value is None or value == "":
            continue
        verdict = _printed_check(order, value, index)
        if not verdict["agrees"]:
            raise ApiError(422, f"order {index + 1} (from the bottom), '{order}', is printed {value} % but computes to "
                                f"{verdict['computed']} %: check the card and the dice", order_index=index,
                           computed=verdict["computed"])  # fmt: skip
    clean = tuple(None if p is None or p == "" else str(p).strip() for p in printed)
    return HarvestCard(orders, card_id.strip(), clean if any(p is not None for p in clean) else ())


def _possible_order(text: str, index: int | None = None, dice: DiceSet = DEFAULT_DICE) -> Order:
    """Parse ``text``; 400 with the position of a syntax error, 422 if these dice can never meet it."""
    where = "" if index is None else f"order {index + 1} (from the bottom): "
    details = {} if index is None else {"order_index": index}
    if len(text) > MAX_ORDER_TEXT:
        raise ApiError(400, f"{where}an order is at most {MAX_ORDER_TEXT} characters", **details)
    try:
        order = parse_order(text)
    except OrderSyntaxError as exc:
        raise ApiError(400, f"{where}{exc.reason} at position {exc.position + 1}", position=exc.position,
                       reason=exc.reason, pointer=exc.pointer(), **details) from None  # fmt: skip
    reason = order_problem(order) or impossible_reason(order, dice)
    if reason:
        raise ApiError(422, f"{where}this order is impossible: {reason}", impossible=True, **details)
    return order


def _printed_check(
    order: Order, printed: Any, index: int | None = None, dice: DiceSet = DEFAULT_DICE
) -> dict[str, Any]:
    try:
        verdict = check_printed(order, checked_percentage(printed), dice)
    except ValueError as exc:
        where = "" if index is None else f"order {index + 1} (from the bottom): "
        raise ApiError(400, f"{where}{exc}") from None
    return {"value": str(verdict.printed), "agrees": verdict.agrees, "computed": str(verdict.percent)}


# ----------------------------------------------------------------- odds


@bp.get("/odds")
def odds() -> Response:
    """The exact odds that one roll of all dice meets ``order`` (``printed``: check a card's percentage;
    ``game``: use that game's dice)."""
    text = request.args.get("order")
    if not text or not text.strip():
        raise ApiError(400, 'give the order to compute, e.g. "?order=2x green or 2x soy"')
    dice = _dice_of(query_int("game", "a game id"))
    order = _possible_order(text, dice=dice)
    p = order_odds(order, dice)
    result: dict[str, Any] = {"order": str(order), **odds_json(p), "probability": float(p)}
    printed = request.args.get("printed")
    if printed:
        result["printed"] = _printed_check(order, printed, dice=dice)
    return jsonify(result)


def _dice_of(game_id: int | None) -> DiceSet:
    return DEFAULT_DICE if game_id is None else _dice_game(tables().session(game_id)).dice


# ----------------------------------------------------------------- chance on the server


@bp.post("/games/<int:game_id>/roll")
def virtual_roll(game_id: int) -> Response:
    """Roll the dice due to be rolled with random faces (virtual dice); 409 with the rule if no roll is due."""
    session = tables().session(game_id)
    move = _dice_game(session).random_roll(_rng)
    stored = tables().push(game_id, move_to_dict(move), source="virtual")
    return jsonify({**tables().snapshot(session), "event": stored})


@bp.post("/games/<int:game_id>/deal")
def deal(game_id: int) -> Response:
    """Draw the harvest card due from a known (sample or listed) deck."""
    session = tables().session(game_id)
    game = _dice_game(session)
    if not game.pending_draws:
        raise ApiError(409, "Nobody is due to draw a harvest card now.", rule="dice.no-draw-due")
    if game.deck is None:
        raise ApiError(409, "The harvest deck is hidden: pick or type the card drawn.", rule="dice.deck-hidden")
    stored = tables().push(game_id, move_to_dict(game.deal()), source="tablet")
    return jsonify({**tables().snapshot(session), "event": stored})


def _dice_game(session: GameSession) -> DiceGame:
    if not isinstance(session.state, DiceGame):
        raise ApiError(400, f"game {session.game_id} is not a dice game")
    return session.state
