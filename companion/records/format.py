"""The record header and its validation (see docs/record-format.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FORMAT = "bohnanza-record"
VERSION = 1
GAMES = ("bohnanza", "dice")


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
        """Validate a header object; ``RecordError`` names what is wrong."""
        if not isinstance(data, dict):
            raise RecordError(line, "the header must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(line, f"not a game record: the header needs \"format\": \"{FORMAT}\"")
        version = data.get("version")
        if version != VERSION:
            raise RecordError(line, f"record version {version!r} is not supported (this companion reads {VERSION})")
        known = {"format", "version", "game", "ruleset", "options", "players", "start_player", "deck", "meta"}
        if extra := sorted(set(data) - known):
            raise RecordError(line, f"unknown header field(s): {', '.join(extra)}")
        game = data.get("game", "bohnanza")
        if game not in GAMES:
            raise RecordError(line, f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
            raise RecordError(line, "\"players\" must be a list of names in seating order")
        start = data.get("start_player", 0)
        if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < len(players):
            raise RecordError(line, f"\"start_player\" must be a seat from 0 to {len(players) - 1}")
        for key, kind in (("ruleset", str), ("options", dict), ("meta", dict)):
            if key in data and not isinstance(data[key], kind):
                raise RecordError(line, f"\"{key}\" must be a {'string' if kind is str else 'JSON object'}")
        if "ruleset" not in data:
            raise RecordError(line, "the header needs a \"ruleset\"")
        deck = data.get("deck")
        if deck is not None and not isinstance(deck, dict):
            raise RecordError(line, "\"deck\" must be a JSON object or null")
        return cls(game, data["ruleset"], tuple(players), start, dict(data.get("options", {})), deck,
                   dict(data.get("meta", {})))  # fmt: skip


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
