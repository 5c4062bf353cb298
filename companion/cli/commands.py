"""Typed commands for manual entry ("plant Ben blue 2", "trade Cid up soy get red") into moves.

Pure: a line of text and the current state in, a move out, or ``ValueError`` with help.
"""

from __future__ import annotations

from companion.cards import CATALOGUE
from companion.rules import BuyField, Draw, EndTrading, GameState, Harvest, Move, Phase, Plant, Source, Trade, TurnOver
from companion.rules.town import Build

HELP = """\
  plant [PLAYER] BEAN [FIELD]     plant a card (phase 1: from hand; phase 3: turned-over or received)
  turn BEAN [BEAN]                phase 2: the cards turned over from the draw pile
  trade PLAYER [up BEAN..] [hand BEAN..] [get BEAN..]
                                  active player gives turned-over (up) and hand cards, gets hand cards
  end                             end trading (phase 2 -> phase 3)
  harvest PLAYER FIELD            harvest a whole field (fields count from 1)
  buy PLAYER                      buy a third field
  build PLAYER BUILDING PRICE     High Bohn: buy a building card, any time (build Ann saloon 3)
  draw                            phase 4: the active player draws
  do N                            make the N-th move listed under "now" (asks for what it leaves open)
  undo [N]   repair   show   help   quit
                                  (repair: undo a stored event that no longer replays, and those after it)"""


def seat_of(state: GameState, word: str) -> int:
    """A player by seat number or (case-insensitive) name."""
    if word.isdecimal() and int(word) < len(state.players):
        return int(word)
    for seat, name in enumerate(state.names):
        if name.lower() == word.lower():
            return seat
    raise ValueError(f"no player {word!r}; players: {', '.join(state.names)}")


def _bean(word: str) -> str:
    word = word.lower()
    if word in CATALOGUE:
        return word
    matches = [b for b in CATALOGUE if b.startswith(word)]
    if len(matches) == 1:
        return matches[0]
    raise ValueError(f"no bean {word!r}; beans: {', '.join(CATALOGUE)}")


def _field(word: str) -> int:
    if not word.isdecimal() or int(word) < 1:
        raise ValueError(f"fields are numbered from 1, not {word!r}")
    return int(word) - 1


def parse_command(state: GameState, line: str) -> Move:
    """The move a command line stands for."""
    words = line.split()
    if not words:
        raise ValueError("type a command; 'help' lists them")
    verb, rest = words[0].lower(), words[1:]
    if verb == "plant":
        return _plant(state, rest)
    if verb == "turn":
        return TurnOver(state.active, tuple(_bean(w) for w in rest))
    if verb == "trade":
        return _trade(state, rest)
    if verb == "end":
        return EndTrading(state.active)
    if verb == "harvest" and len(rest) == 2:
        return Harvest(seat_of(state, rest[0]), _field(rest[1]))
    if verb == "buy" and len(rest) == 1:
        return BuyField(seat_of(state, rest[0]))
    if verb == "build" and len(rest) == 3 and rest[2].isdecimal():
        return Build(seat_of(state, rest[0]), rest[1].lower(), int(rest[2]))
    if verb == "draw":
        return Draw(state.active)
    raise ValueError(f"cannot read {line!r}; 'help' lists the commands")


def _plant(state: GameState, words: list[str]) -> Plant:
    seat = state.active
    if len(words) >= 2 and not words[1].isdecimal():
        seat, words = seat_of(state, words[0]), words[1:]
    if not 1 <= len(words) <= 2:
        raise ValueError("plant [PLAYER] BEAN [FIELD]")
    bean = _bean(words[0])
    field = _field(words[1]) if len(words) == 2 else None
    if state.phase is Phase.PLANT:
        source = Source.HAND
    elif seat == state.active and bean in state.face_up:
        source = Source.FACE_UP
    else:
        source = Source.RECEIVED
    return Plant(seat, bean, source, field)


def _trade(state: GameState, words: list[str]) -> Trade:
    if not words:
        raise ValueError("trade PLAYER [up BEAN..] [hand BEAN..] [get BEAN..]")
    partner = seat_of(state, words[0])
    parts: dict[str, list[str]] = {"up": [], "hand": [], "get": []}
    current = None
    for word in words[1:]:
        if word.lower() in parts:
            current = word.lower()
        elif current is None:
            raise ValueError("say 'up', 'hand' or 'get' before the beans")
        else:
            parts[current].append(_bean(word))
    return Trade(state.active, partner, tuple(parts["up"]), tuple(parts["hand"]), tuple(parts["get"]))
