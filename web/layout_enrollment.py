"""A deck laid out under the camera, one card per bean, waiting for the group to say which bean each card is.

Reading the layout keeps every card of one frame, in reading order (rows from the top, each from
the left), as its upright crop ``<instance>/deck/layout/NN.png``, with what the camera took it for
and what looks wrong about it (:mod:`companion.vision.layout_check`) in ``layout.json``. Confirming
keeps each card the group gave a bean as one photo of that bean
(:meth:`web.enrollment.Deck.add_framings`) and clears the layout. A new reading replaces the one
waiting; a waiting layout survives a restart.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cards import VISION_LABELS
from companion.records.checked import shown
from companion.vision.classifier import UNKNOWN
from companion.vision.layout_check import card_flags, reading_order
from companion.vision.rectify import warp_card
from companion.vision.scene import SeenCard
from web.enrollment import CROP_SIZE, Deck, label_name
from web.errors import ApiError

LAYOUT_FILE = "layout.json"
NO_LAYOUT = "no laid-out deck is waiting: lay the deck out under the camera and read it first"


def crop_file(index: int) -> str:
    """File name of the crop of card ``index`` (from 1)."""
    return f"{index:02d}.png"


def caption(label: str) -> str:
    """What the page calls the camera's name for a card: a bean, "card back" or "not recognised"."""
    return "not recognised" if label == UNKNOWN else label_name(label)


def in_reading_order(cards: Sequence[SeenCard]) -> list[SeenCard]:
    """``cards`` as a person reads the table: rows from the top, each from the left."""
    return [cards[k] for k in reading_order([card.corners for card in cards])]


def describe(cards: Sequence[SeenCard], seq: int, size: tuple[int, int]) -> dict[str, Any]:
    """The layout of ``cards`` (in order, found in frame number ``seq`` of ``size`` = (width, height)): per card
    its index (from 1), corners, the camera's name and confidence, and the sentences of what looks wrong."""
    flags = card_flags([c.corners for c in cards], [c.label for c in cards], [c.confidence for c in cards])
    return {"version": 1, "layout": secrets.token_hex(4), "frame": seq, "width": size[0], "height": size[1],
            "cards": [{"index": index, **card.to_json(), "confidence": round(float(card.confidence), 4),
                       "name": caption(card.label), "flags": found}
                      for index, (card, found) in enumerate(zip(cards, flags), 1)]}


def assignment(body: dict[str, Any], layout: dict[str, Any]) -> dict[int, str]:
    """Card index -> bean from a confirmation's ``{"beans": {"<index>": "<bean id>" | null}}``, cards given
    ``null`` (or left out) skipped; a 400 saying what is wrong otherwise."""
    beans = body.get("beans")
    if not isinstance(beans, dict):
        raise ApiError(400, 'send {"beans": {"<card index>": "<bean id>" or null}}, null to skip a card')
    indexes = {str(card["index"]): card["index"] for card in layout["cards"]}
    chosen: dict[int, str] = {}
    for key, bean in beans.items():
        if key not in indexes:
            raise ApiError(400, f"there is no card {shown(key)} in the laid-out deck: "
                                f"its cards are {', '.join(indexes)}")  # fmt: skip
        if bean is None:
            continue
        if not isinstance(bean, str) or bean not in VISION_LABELS:
            raise ApiError(400, f"card {key}: unknown bean {shown(bean)}: use one of {', '.join(VISION_LABELS)}, "
                                "or null to skip the card")  # fmt: skip
        twin = next((k for k, b in chosen.items() if b == bean), None)
        if twin is not None:
            raise ApiError(400, f"cards {twin} and {key} are both given {label_name(bean)}: "
                                "the laid-out deck holds one card of each bean")  # fmt: skip
        chosen[indexes[key]] = bean
    return chosen


def _well_formed(layout: Any) -> bool:
    """Whether a read ``layout.json`` is a layout as :func:`describe` makes them (not a damaged file)."""
    return (isinstance(layout, dict) and isinstance(layout.get("layout"), str) and isinstance(layout.get("cards"), list)
            and all(isinstance(card, dict) and type(card.get("index")) is int for card in layout["cards"]))


class PendingLayout:
    """The laid-out deck waiting in ``folder`` (crops and ``layout.json``); one reading or confirmation at a time."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.RLock()

    def keep(self, frame: np.ndarray, cards: Sequence[SeenCard], seq: int) -> dict[str, Any]:
        """Replace the waiting layout with ``cards`` of ``frame`` (number ``seq``); the new layout."""
        ordered = in_reading_order(cards)
        layout = describe(ordered, seq, (frame.shape[1], frame.shape[0]))
        with self._lock:
            self.clear()
            self.folder.mkdir(parents=True, exist_ok=True)
            for entry, card in zip(layout["cards"], ordered):
                cv2.imwrite(str(self.folder / crop_file(entry["index"])), warp_card(frame, card.corners, CROP_SIZE))
            written = self.folder / f"{LAYOUT_FILE}.new"
            written.write_text(json.dumps(layout))
            os.replace(written, self.folder / LAYOUT_FILE)  # the layout exists once all its crops do
        return layout

    def load(self) -> dict[str, Any] | None:
        """The waiting layout, or ``None`` (none, or a file that cannot be read)."""
        with self._lock:
            try:
                layout = json.loads((self.folder / LAYOUT_FILE).read_text())
            except (OSError, ValueError):
                return None
            return layout if _well_formed(layout) else None

    def pending(self) -> dict[str, Any]:
        """The waiting layout; a 404 saying how to make one otherwise."""
        layout = self.load()
        if layout is None:
            raise ApiError(404, NO_LAYOUT)
        return layout

    def crop_path(self, index: int) -> Path:
        """The crop of card ``index`` of the waiting layout; a 404 if there is no such card."""
        layout = self.pending()
        path = self.folder / crop_file(index)
        if not any(card["index"] == index for card in layout["cards"]) or not path.is_file():
            raise ApiError(404, f"the laid-out deck has no card {index}")
        return path

    def confirm(self, body: dict[str, Any], deck: Deck) -> list[dict[str, Any]]:
        """Keep each card given a bean in ``body`` as one photo of that bean, then clear the layout; per card
        kept its index, bean and photo number. Refused (4xx), it changes nothing."""
        with self._lock:
            layout = self.pending()
            if "layout" in body and body["layout"] != layout["layout"]:
                raise ApiError(409, "the laid-out deck was read again since: check the cards shown now")
            chosen = assignment(body, layout)
            crops = {index: self._crop(index) for index in chosen}  # all read before any is kept
            added = [{"index": index, "bean": bean, "photo": deck.add_framings(bean, [crops[index]])}
                     for index, bean in chosen.items()]
            self.clear()
            return added

    def _crop(self, index: int) -> np.ndarray:
        """The crop of card ``index``; a 409 if it is missing or damaged."""
        crop = cv2.imread(str(self.folder / crop_file(index)), cv2.IMREAD_COLOR)
        if crop is None:
            raise ApiError(409, "the pictures of the laid-out deck are missing or damaged: read the deck again")
        return crop

    def clear(self) -> None:
        """Forget the waiting layout and its crops."""
        with self._lock:
            shutil.rmtree(self.folder, ignore_errors=True)
