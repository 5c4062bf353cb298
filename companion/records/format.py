"""The record header and its validation (see docs/record-format.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.records.checked import clean_text, shown, value_problem

FORMAT = "bohnanza-record"
VERSION = 1
GAMES = ("bohnanza", "dice")
MAX_PLAYERS = 20
"""More seats than any ruleset has; the ruleset refuses its own count."""
MAX_NAME = 40
MAX_TITLE = 200
MAX_DECK = 1000
KNOWN_FIELDS = ("format", "version", "game", "ruleset", "options", "players", "start_player", "deck", "meta")


class RecordError(ValueError):
    """A record that cannot be read: which line, and what is wrong with it."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True, slots=True)
class Header:
    """The first line of a record: which game, under which rules, with whom."""

    game: str
    ruleset: str
    players: tuple[str, ...]
    start_player: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    deck: dict[str, Any] | None = None
    """Card game only: a known deck (``{"seed": int, "order": [...]}``) for full-information mode."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Free information: title, date, place, notes."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "ruleset": self.ruleset,
            "options": self.options,
            "players": list(self.players),
            "start_player": self.start_player,
        }
        if self.deck is not None:
            data["deck"] = self.deck
        if self.meta:
            data["meta"] = self.meta
        return data

    @classmethod
    def from_dict(cls, data: Any, line: int = 1) -> Header:
        """Validate a header object, every field's type and range; ``RecordError`` names what is wrong.

        Player names and the title are NFC-normalised; lone surrogates, control characters and
        numbers beyond ``MAX_INT`` are refused anywhere in the header.
        """
        try:
            return cls._checked(data)
        except ValueError as exc:
            raise RecordError(line, str(exc)) from None

    @classmethod
    def _checked(cls, data: Any) -> Header:
        if not isinstance(data, dict):
            raise ValueError("the header must be a JSON object")
        if data.get("format") != FORMAT:
            raise ValueError(f"not a game record: the header needs \"format\": \"{FORMAT}\"")
        version = data.get("version")
        if type(version) is not int or version != VERSION:
            raise ValueError(f"record version {shown(version)} is not supported (this companion reads {VERSION})")
        if extra := sorted(str(key) for key in set(data) - set(KNOWN_FIELDS)):
            raise ValueError(f"unknown header field(s): {shown(', '.join(extra))}; known: {', '.join(KNOWN_FIELDS)}")
        game = data.get("game", "bohnanza")
        if not isinstance(game, str) or game not in GAMES:
            raise ValueError(f"unknown game {shown(game)}; expected one of {', '.join(GAMES)}")
        players = data.get("players")
        if not isinstance(players, list) or not 0 < len(players) <= MAX_PLAYERS:
            raise ValueError(f"\"players\" must be a list of 1 to {MAX_PLAYERS} names in seating order")
        names = tuple(clean_text(p, f"the name of player {seat + 1}", MAX_NAME) for seat, p in enumerate(players))
        start = data.get("start_player", 0)
        if type(start) is not int or not 0 <= start < len(players):
            raise ValueError(f"\"start_player\" must be a seat from 0 to {len(players) - 1}")
        if "ruleset" not in data:
            raise ValueError("the header needs a \"ruleset\"")
        ruleset = clean_text(data["ruleset"], "\"ruleset\"", MAX_NAME)
        options, meta, deck = _object(data, "options"), _object(data, "meta"), _deck(data)
        if "title" in meta:
            meta["title"] = clean_text(meta["title"], "the title", MAX_TITLE)
        return cls(game, ruleset, names, start, options, deck, meta)


def _object(data: dict[str, Any], key: str) -> dict[str, Any]:
    """A copy of the optional object ``data[key]``, checked to hold only JSON within range."""
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ValueError(f"\"{key}\" must be a JSON object")
    problem = value_problem(value)
    if problem:
        raise ValueError(f"\"{key}\" holds {problem}")
    return dict(value)


def _deck(data: dict[str, Any]) -> dict[str, Any] | None:
    """A known deck (an integer ``seed``, optionally an ``order`` of bean ids), or None for a real table."""
    if data.get("deck") is None:
        return None
    deck = _object(data, "deck")
    seed = deck.get("seed", 0)
    if type(seed) is not int:
        raise ValueError(f"the deck's \"seed\" must be a whole number, not {shown(seed)}")
    order = deck.get("order")
    if order is not None and not (isinstance(order, list) and len(order) <= MAX_DECK
                                  and all(isinstance(b, str) and len(b) <= MAX_NAME for b in order)):  # fmt: skip
        raise ValueError(f"the deck's \"order\" must be a list of at most {MAX_DECK} bean ids")
    return deck


@dataclass(frozen=True, slots=True)
class BadLine:
    """An event line that is not valid JSON; replay stops there with ``message``."""

    message: str


@dataclass(frozen=True, slots=True)
class Record:
    """A whole record: the header and the events with their line numbers."""

    header: Header
    events: tuple[tuple[int, Any], ...]
    """(line number, decoded JSON value or ``BadLine``) per event line."""
