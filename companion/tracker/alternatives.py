"""The other readings of a change the rules allow: one-tap corrections for a proposal the camera was unsure of.

A proposal waiting for a tap names the likeliest explanation of what the camera saw. Where the
camera was unsure, the rules often leave a few others: a plant into an empty field of another bean
the camera gave some belief, the harvest of the seat's other field, beans turned over with one
card the camera half took for another bean. :func:`alternatives` lists them per event, likeliest
first, so the tablet can offer each as a tap instead of a dismissal and an entry by hand.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from companion.rules.moves import Move, move_to_dict
from companion.rules.state import GameState
from companion.tracker.explain import anywhere, game_view, made, turnable
from companion.tracker.view import TableView, likelihood

MOST = 3
"""Other readings offered per event at most."""

Weighed = list[tuple[float, dict[str, Any]]]


def alternatives(found: Sequence[tuple[GameState, Sequence[Move]]], chosen: tuple[GameState, Sequence[dict[str, Any]]],
                 seen: TableView, state: GameState) -> tuple[tuple[dict[str, Any], ...], ...]:
    """Per event of the ``chosen`` explanation of ``seen`` (the game after it, and its events, made on ``state``), the
    other events the rules allow in its place, likeliest first (at most :data:`MOST`): those of the other explanations
    (``found``) that differ from it in that event alone and leave another table (not the harvest of a like field),
    weighed by how likely the camera's readings find their tables
    (:func:`~companion.tracker.view.likelihood`), and for beans turned over, those with one card the camera was unsure
    of taken for another bean it gave some belief and a turn-over may bring (:func:`turned_otherwise`)."""
    mine, events = chosen
    weighed: list[Weighed] = [turned_otherwise(state, events, k, seen) if event["type"] == "turn-over" else []
                              for k, event in enumerate(events)]
    seats, every = tuple(seat for seat, _ in seen.fields), tuple(range(len(state.players)))
    table = game_view(mine, every)
    for after, moves in found:
        others = [move_to_dict(m) for m in moves]
        apart = [k for k, (ours, theirs) in enumerate(zip(events, others)) if anywhere(ours) != anywhere(theirs)]
        if len(others) == len(events) and len(apart) == 1 and game_view(after, every) != table:
            weighed[apart[0]].append((likelihood(game_view(after, seats), seen), others[apart[0]]))
    return tuple(_likeliest(options, event) for options, event in zip(weighed, events))


def turned_otherwise(state: GameState, events: Sequence[dict[str, Any]], k: int, seen: TableView) -> Weighed:
    """The turn-over ``events[k]`` (the events made on ``state`` in order) with one card the camera named unsurely
    (:attr:`~companion.tracker.view.TableView.face_up_likely`) taken for another bean it gave some belief, each weighed
    by that belief, where the game allows it there."""
    if not seen.face_up_likely:
        return []
    before = made(state, events[:k])[0]
    event = events[k]
    allowed = turnable(before, event["player"])
    weighed = []
    for likely in seen.face_up_likely:
        name = likely[0][0]
        if name not in event["beans"]:
            continue
        for bean, odds in likely[1:]:
            beans = list(event["beans"])
            beans[beans.index(name)] = bean
            other = {**event, "beans": sorted(beans)}
            if bean in allowed and made(before, [other])[1] == 1:
                weighed.append((odds, other))
    return weighed


def _likeliest(options: Weighed, event: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    """Of ``options``, those the camera gave some belief, unlike ``event`` and each other but for the field a plant
    goes to, likeliest first (the first found of those alike likely), at most :data:`MOST`."""
    seen = {_key(event)}
    kept = []
    for weight, option in sorted(options, key=lambda weighed: -weighed[0]):
        if weight > 0 and _key(option) not in seen:
            seen.add(_key(option))
            kept.append(option)
    return tuple(kept[:MOST])


def _key(event: dict[str, Any]) -> str:
    return json.dumps(anywhere(event), sort_keys=True)
