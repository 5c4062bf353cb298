"""Which moves the rules allow that turn the game's table into what the camera sees.

The search asks the engine only: its legal moves for every seat, each open
choice filled from what the camera saw (a bean, a field, the beans newly face up), checked
and applied to a copy of the state. A move is kept when it brings the table closer to the
camera's view (fewer columns apart, or as many and fewer cards: two beans planted at once in
one field); the first sequence (at most ``DEPTH`` moves) that makes them agree explains the
change. Moves the camera cannot see (a draw, a trade from hand) change nothing on the table,
so they never explain anything and stay a tap on the tablet.
"""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from companion.rules.legal import Choice, LegalMove
from companion.rules.moves import Move, move_from_dict, move_type
from companion.rules.state import GameState
from companion.rules.violations import IllegalMove
from companion.tracker.view import TableView, distance, fits, game_fields, guessed, likelihood

DEPTH = 3
"""Most moves one settled change of the table may stand for (two face-up beans planted, and a harvest)."""
ABSENCES = {"harvest"}
"""Events the camera sees only as cards gone: a hand resting still over a field hides it as well as a harvest
clears it, so these wait for a tap (``python -m models.evaluate_referee examples/records/amigo-25-3p.jsonl
--resting``: 8 proposals of events no one made, 2 of them harvests the camera was sure of before, none now),
unless the discard pile is seen to take the harvested beans (:func:`~companion.tracker.table.discarded`), and
never rest on a part of the table set aside (:func:`set_aside`)."""
MOST_OPTIONS = 64
"""A legal move with more ways to fill its choices than this is not tried (it is not something a camera sees)."""


def game_view(state: GameState, seats: tuple[int, ...]) -> TableView:
    """The table as the game has it, for ``seats``: each one's non-empty fields, the face-up beans, and the discard
    pile's top bean."""
    fields = tuple((seat, game_fields(state, seat)) for seat in seats)
    return TableView(fields, tuple(sorted(state.face_up)), tuple(state.discard[-1:]))


def _new_beans(state: GameState, seen: TableView) -> Counter[str]:
    """Beans the camera sees face up that the game has not turned over yet."""
    return Counter(seen.face_up or ()) - Counter(state.face_up)


def _options(name: str, choice: Choice, state: GameState, seen: TableView) -> list[Any] | None:
    """The values worth trying for one open choice, or None when the camera cannot fill it."""
    if not choice.many:
        return list(choice.options)
    if choice.exactly is None:
        return None
    new = _new_beans(state, seen)
    picks = [bean for bean in choice.options if bean in new]
    pool = [bean for bean in picks for _ in range(new[bean])]
    return sorted({tuple(sorted(combo)) for combo in itertools.combinations(pool, choice.exactly)})


def _filled(legal: LegalMove, state: GameState, seen: TableView) -> Iterator[dict[str, Any]]:
    """Each way of filling ``legal``'s open choices from what the camera saw."""
    names = list(legal.choose)
    values = []
    for name in names:
        options = _options(name, legal.choose[name], state, seen)
        if options is None:
            return
        values.append([list(v) if isinstance(v, tuple) else v for v in options])
    total = 1
    for options in values:
        total *= len(options)
    if total > MOST_OPTIONS:
        return
    for combo in itertools.product(*values):
        yield dict(zip(names, combo))


def candidates(state: GameState, seen: TableView) -> Iterator[tuple[Move, bool]]:
    """The moves any seat may make now (a harvest may come at any time), their choices filled from the camera's
    view; each with whether it is a step (a move with nothing to choose, such as ending the trading)."""
    for seat in range(len(state.players)):
        for legal in state.legal_moves(seat):
            for chosen in _filled(legal, state, seen):
                try:
                    yield legal.move(**chosen), not legal.choose
                except ValueError:
                    continue


def explanations(state: GameState, seen: TableView) -> list[tuple[GameState, list[Move]]] | None:
    """Every shortest sequence of legal moves (oldest first, at most ``DEPTH``) that turns the game's table into
    ``seen``, each with the game after it: one empty sequence when they agree already, None when none does."""
    seats = tuple(seat for seat, _ in seen.fields)
    start = distance(game_view(state, seats), seen)
    if start[0] == 0:
        return [(state, [])]
    frontier: list[tuple[GameState, list[Move], tuple[int, int]]] = [(state, [], start)]
    for _ in range(DEPTH):
        grown, done = [], []
        for current, path, far in frontier:
            for move, step in candidates(current, seen):
                after = copy.deepcopy(current)
                try:
                    logged = after.push(move)
                except IllegalMove:
                    continue
                left = distance(game_view(after, seats), seen)
                if left[0] == 0:
                    done.append((after, path + [logged]))
                elif left < far or (step and left == far):
                    grown.append((after, path + [logged], left))
        if done:
            return done
        frontier = grown
    return None


def likeliest(found: list[tuple[GameState, list[Move]]], seen: TableView) -> tuple[GameState, list[Move]]:
    """Of explanations of ``seen`` (:func:`explanations`), the first that bears out the most of the camera's guesses
    of what it was unsure of, columns and the discard pile's top card (:func:`~companion.tracker.view.guessed`); of
    those that bear out as many, the one the camera's readings find likeliest
    (:func:`~companion.tracker.view.likelihood`)."""
    seats = tuple(seat for seat, _ in seen.fields)
    return max(found, key=lambda done: (guessed(table := game_view(done[0], seats), seen), likelihood(table, seen)))


def explain(state: GameState, seen: TableView) -> list[Move] | None:
    """The moves (oldest first) that turn the game's table into ``seen``: [] when they agree already, None
    when no sequence of at most ``DEPTH`` legal moves does. Of the shortest sequences that do, the first that bears
    out the most of the camera's guesses of columns it was unsure of (:func:`likeliest`): a card it took for a chili,
    unsure, is planted as a chili rather than as the first bean the rules allow."""
    found = explanations(state, seen)
    return None if found is None else likeliest(found, seen)[1]


Explained = tuple[TableView, list[tuple[GameState, list[Move]]]]
"""A view of the table and the shortest sequences of moves that turn the game's table into it (:func:`explanations`)."""


def explained(state: GameState, seen: TableView) -> Explained | None:
    """``seen`` with its explanations (:func:`explanations`), or, where none explains it whole, the view with one part
    set aside and its explanations (:func:`set_aside`); None where neither."""
    found = explanations(state, seen)
    return (seen, found) if found is not None else set_aside(state, seen)


def changed_by_moves(state: GameState, seen: TableView) -> list[tuple[GameState, list[Move]]] | None:
    """The explanations of ``seen`` (:func:`explanations`) where they make some move; None where none explains it, or
    where it is the game's table already."""
    found = explanations(state, seen)
    return found if found is not None and any(moves for _, moves in found) else None


def set_aside(state: GameState, seen: TableView) -> Explained | None:
    """Where no moves explain ``seen`` whole: the view with the one part of the table (a seat's fields, the face-up
    area or the discard pile) that disagrees with the game told as the game has it, where moves then explain a change
    of the rest, with those explanations (a column the camera has lost, or a count it misreads in every frame, then
    holds back no change elsewhere); None where no part, or more than one, does so, or where some explanation takes
    cards away (:data:`ABSENCES`: a hand over the table may hide the part set aside and more, so only cards laid count
    here). A part whose change is all there is to explain is never set aside: the rules refuse it, and the tablet says
    so; nor is a part where the game has no cards: cards lying there were laid, not misread (a game started while the
    table still shows another game's cards, its discard pile among them)."""
    game = game_view(state, tuple(seat for seat, _ in seen.fields)).parts()
    kept = []
    for part, reading in seen.parts().items():
        if fits(part, reading, game[part]) or not game[part]:
            continue  # agreeing with the game is evidence; cards where the game has none were laid, not misread
        rest = seen.telling(part, game[part])
        if found := changed_by_moves(state, rest):
            kept.append((rest, found))
    if len(kept) != 1 or takes_cards(kept[0][1]):
        return None
    return kept[0]


def takes_cards(found: Sequence[tuple[GameState, Sequence[Move]]]) -> bool:
    """Whether some of the explanations ``found`` take cards away (:data:`ABSENCES`): a hand over the table, or a
    misread, hides cards as a harvest clears them."""
    return any(move_type(move) in ABSENCES for _, moves in found for move in moves)


def made(state: GameState, events: Sequence[dict[str, Any]]) -> tuple[GameState, int]:
    """A copy of ``state`` with ``events`` made in order, as far as the game allows them; how many it did."""
    after = copy.deepcopy(state)
    for done, event in enumerate(events):
        try:
            after.push(move_from_dict(event))
        except (ValueError, IllegalMove):
            return after, done
    return after, len(events)


def turnable(state: GameState, seat: int) -> frozenset[str]:
    """The beans the cards ``seat`` turns over now may be, as the engine's legal turn-over has them: those of its open
    choice, or the beans it fixes where the deck is known (none where ``seat`` may not turn over)."""
    for legal in state.legal_moves(seat):
        if legal.type == "turn-over":
            return frozenset(legal.choose["beans"].options if "beans" in legal.choose else legal.fields["beans"])
    return frozenset()


def unplaced(event: dict[str, Any]) -> dict[str, Any]:
    """An event without the field it names: which field is told by the table it leaves."""
    return {k: v for k, v in event.items() if k != "field"}


def anywhere(event: dict[str, Any]) -> dict[str, Any]:
    """A plant without the field it went to; any other event as it is."""
    return unplaced(event) if event["type"] == "plant" else event
