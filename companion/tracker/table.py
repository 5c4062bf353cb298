"""The table tracker: settled camera views become the moves that explain them, proposed once.

Each analysed frame gives a :class:`~companion.tracker.view.TableView` and whether the table
was moving (a hand over it, a card being laid). :class:`Steadiness` lets a view count only
while the table is still, and settles each part of the table (a seat's fields, the face-up
area, the discard pile) when most of the last still frames that saw it agree, so a hand, a shadow
or a half-laid card changes nothing, a marker hidden for a frame holds nothing back, and a real
change is reported once.
:class:`TableTracker` then asks the rules which moves explain the settled change
(:func:`~companion.tracker.explain.explanations`; where none explains the whole table, one part that disagrees
with the game may be set aside, :func:`~companion.tracker.explain.set_aside`; where neither explains it, one part as
one of the last still frames read it otherwise, :func:`as_a_frame_read`, or else one column as the game's field a
card longer, :func:`as_counted_short`, or one column named otherwise told of any bean, :func:`as_named_otherwise`,
said too; never sure) and proposes them: ``sure`` when every column it may change was named with confidence, or else
the rules and the camera's guesses (those most still frames made) leave one explanation (:func:`by_rules`: a group's
own deck is named less surely than the house deck; the camera's belief counts among the beans the rules allow
alone), any beans turned over were named with
confidence among the beans they may be (:func:`turned_by_rules`), and nothing in it is seen only as cards gone (a
harvest) unless the discard pile was seen to take them, so the table may push it without a tap. The camera's
own proposals still waiting for a tap count as made (:func:`believed`), so a hand resting over a field after a
harvest still waits is not taken for a second harvest that the pile would hide; where the table later settles on a
view that makes the camera sure of them, it says so (:func:`sure_of`), and the table may confirm them without a tap.
A view that no move explains is said (so that the group enters what happened) only where the table settles on it
before anything else since a hand was over it: once a change of that still period was explained, or the table agreed
with the game, nothing on it can change until a hand comes back, and such a view is the camera misreading it.
"""

from __future__ import annotations

import json
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from companion.rules.moves import Move, move_to_dict, move_type
from companion.rules.state import GameState
from companion.tracker.alternatives import alternatives
from companion.tracker.explain import (
    ABSENCES,
    Explained,
    anywhere,
    changed_by_moves,
    explain,
    explained,
    game_view,
    likeliest,
    made,
    takes_cards,
    turnable,
    unplaced,
)
from companion.tracker.view import (
    DISCARD,
    FACE_UP,
    SURE,
    Column,
    Part,
    Place,
    TableView,
    Told,
    UnsureColumns,
    chance,
    face_up_as,
    fits,
    guessed,
    guesses,
    landed,
    likelihood,
    named,
    share,
    sorted_columns,
    unsure_face_up,
)
from companion.vision.classifier import Likely

STILL_FRAMES = 4
"""Still frames a view is voted over."""
VOTES = 3
"""Of those that saw a part of the table, how many must agree to settle it on something new."""
GUESS_MARGIN = 2
"""Where explanations bring other beans onto the table, how many more of the camera's guesses the one it proposes must
bear out than each other one (:func:`by_rules`): one guess read wrong never decides the bean."""
T = TypeVar("T")
Fields = frozenset[tuple[int, str, int]]
"""Fields of a view named: (seat, bean, count) each."""


class Steadiness:
    """Motion gating and votes over the last still frames, part by part of the table.

    Each seat's fields and the face-up area are voted on apart, by the frames that saw them: a
    frame whose markers left a seat out of sight neither confirms nor contradicts that seat. A
    part settles on something new when ``votes`` of those frames agree (a column whose bean a frame
    was unsure of agrees with any bean of its count, in either frame, a face-up card a frame named unsurely with
    any other bean where no reading is otherwise agreed on and one has more frames behind it so than every other, and
    a discard pile whose top card a frame was unsure of with any top; the reading naming most wins); a part whose frames
    mostly still show what it settled on stays as it is; while a part is neither, nothing settles,
    so the table's changes are told together (a bean taken from the face-up area and planted is
    one change, not two). A part half of whose frames still show what it settled on (a column the camera reads as one
    card in one frame and two in the next) is held so (:attr:`~companion.tracker.view.TableView.held`): the change of
    the other parts is told, but taken as settled only once the tracker explains it without that part
    (:meth:`settle`). A part where the camera saw nothing change since its frames agreed on what it settled on, in an
    earlier still period, and that settled on what the game has, is not voted on: it stays so (:meth:`feed`).
    """

    def __init__(self, window: int = STILL_FRAMES, votes: int = VOTES) -> None:
        self.votes = votes
        self.recent: deque[tuple[dict[Part, Told], TableView]] = deque(maxlen=window)
        """The last still frames: what each tells of each part, and its view (with the camera's guesses)."""
        self.told: dict[Part, Told] = {}
        """What each part of the table last settled on."""
        self.period = 0
        """How many times the table has moved: the still frames between two moves are one still period, in which
        nothing on the table can change."""
        self.unchanged: set[Part] = set()
        """The parts whose still frames agreed on what they settled on in an earlier still period, and where no still
        frame read since differs from the one before it."""
        self.agreed: set[Part] = set()
        """The parts whose still frames agree on what they settled on in this still period, since it last changed."""
        self.doubted = False
        """Whether the last view given was unsure of the face-up area (:meth:`_face_up_doubts`)."""

    @property
    def settled(self) -> TableView | None:
        """Everything the table has settled on, part by part (None before it first settles)."""
        return TableView.of_parts(self.told) if self.told else None

    def moved(self) -> None:
        """The table moved (a hand over it): the votes start again, in a new still period."""
        self.recent.clear()
        self.period += 1
        self.unchanged |= self.agreed
        self.agreed = set()

    def feed(self, view: TableView, moving: bool, changed: frozenset[Part] | None = None,
             game: TableView | None = None) -> TableView | None:
        """The view the table settled on, when this frame settles it on something new (only the parts the last
        frames saw), or when the last still frames now name surely the face-up cards that the view given last was
        unsure of (the same view, now sure of them); else None. The frame differs from the last still one read in the
        parts ``changed`` (None: untold, any may have); a part that has not changed since its frames agreed on what it
        settled on in an earlier still period, and that settled on what the ``game`` has, stays so (:meth:`_kept`): a
        frame reading it otherwise misreads it."""
        if moving:
            self.moved()
            return None
        if changed is None:
            self.unchanged, self.agreed = set(), set()
        else:
            self.unchanged -= changed
            self.agreed -= changed
        kept = self._kept(game)
        self.recent.append(({part: kept.get(part, told) for part, told in view.parts().items()}, view))
        seen = {part for told, _ in self.recent for part in told}
        now: dict[Part, Told] = {part: told for part, told in kept.items() if part in seen}
        held, changing = set(), False
        for part in seen - now.keys():
            ballots = [(told[part], unsure_face_up(view) if part == FACE_UP else None)
                       for told, view in self.recent if part in told]
            blanks = sum(view.pile_unnamed for _, view in self.recent) if part == DISCARD else 0
            support = {told: _backing(part, told, ballots, blanks) for told, _ in reversed(ballots)}
            winner = max(support, key=lambda told: (support[told], named(told)))
            was = self.told.get(part)
            loose = _loosely(part, winner, support, ballots, blanks, was, self.votes) if any(
                unsure for _, unsure in ballots) else None
            if loose is not None:  # a face-up card named unsurely may be another bean
                winner, support[winner] = loose
            steady = winner == was and 2 * support[winner] > len(ballots) + blanks
            if steady and support[winner] >= self.votes:
                self.agreed.add(part)  # its frames agree on what it settled on
            if not steady and support[winner] < self.votes:
                if was is None or 2 * _backing(part, was, ballots, blanks) < len(ballots) + blanks:
                    changing = True  # this part is still changing, or its frames disagree
                    continue
                held.add(part)  # half its frames still show what it settled on: held so, for now
                winner = was
            now[part] = winner
        cleared = self.doubted and self._face_up_named_surely(now)
        if changing or (not cleared and all(self.told.get(part) == told for part, told in now.items())):
            return None
        if not held:
            self.told.update(now)
        guesses, doubts, (pile, pile_likely) = self._guesses(now), self._face_up_doubts(now), self._pile_guess(now)
        self.doubted = doubts is not None
        return replace(TableView.of_parts(now), guesses=guesses, pile_guess=pile, face_up_unsure=doubts is not None,
                       likely=self._likely(now, guesses), face_up_likely=doubts or (), held=frozenset(held),
                       pile_likely=pile_likely)

    def _kept(self, game: TableView | None) -> dict[Part, Told]:
        """The parts that stay as they settled, whatever a frame reads: unchanged since their frames agreed on what
        they settled on in an earlier still period (:attr:`unchanged`), and settled on what ``game`` has (a part the
        camera settled on misread, with no change since, is voted on as any other)."""
        ours = game.parts() if game is not None else {}
        return {part: self.told[part] for part in self.unchanged
                if part in ours and fits(part, self.told[part], ours[part])}

    def settle(self, view: TableView) -> None:
        """Take ``view``, which :meth:`feed` gave with parts held as they were (:attr:`TableView.held`), as what the
        table settled on: the change of the other parts is explained without them."""
        self.told.update(view.parts())

    def _reading(self, part: Part, now: dict[Part, Told]) -> list[TableView]:
        """The views of the last still frames that read ``part`` as ``now`` settled it (or, as it, not at all)."""
        return [view for told, view in self.recent if told.get(part) == now.get(part)]

    def _guesses(self, now: dict[Part, Told]) -> tuple[tuple[int, tuple[Column, ...]], ...]:
        """Per seat settled on in ``now``, the guesses of its open columns that most of the last still frames reading
        it so made (the latest of them where they split evenly; a frame that guessed none abstains)."""
        voted = []
        for seat in sorted(part for part in now if isinstance(part, int)):
            if best := _most([dict(view.guesses).get(seat, ()) for view in self._reading(seat, now)]):
                voted.append((seat, best))
        return tuple(voted)

    def _likely(self, now: dict[Part, Told], guesses: tuple[tuple[int, tuple[Column, ...]], ...]) -> UnsureColumns:
        """Per seat of ``guesses`` (as :meth:`_guesses` voted them), the beans its columns may be, as the latest of the
        last still frames that made those guesses read them."""
        likely = []
        for seat, voted in guesses:
            voters = [view for view in self._reading(seat, now) if dict(view.guesses).get(seat) == voted]
            if odds := dict(voters[-1].likely).get(seat):
                likely.append((seat, odds))
        return tuple(likely)

    def _pile_guess(self, now: dict[Part, Told]) -> tuple[tuple[str, ...] | None, Likely]:
        """The discard pile's top card's guess that most of the last still frames telling the pile as ``now`` made, and
        the beans it may be as the latest of those frames read it (none without a guess)."""
        reading = self._reading(DISCARD, now)
        guess = _most([view.pile_guess for view in reading])
        voters = [view for view in reading if view.pile_guess == guess] if guess is not None else []
        return guess, voters[-1].pile_likely if voters else ()

    def _face_up_named_surely(self, now: dict[Part, Told]) -> bool:
        """Whether most of the last still frames that saw the face-up area told it as ``now`` does, naming every card
        in it surely."""
        if FACE_UP not in now:
            return False
        seeing = sum(FACE_UP in told for told, _ in self.recent)
        return 2 * sum(not view.face_up_unsure for view in self._reading(FACE_UP, now)) > seeing

    def _face_up_doubts(self, now: dict[Part, Told]) -> tuple[Likely, ...] | None:
        """Where at least half the last still frames telling the face-up area as ``now`` named a card in it unsurely,
        the beans the latest of those took each such card for; None where most named every card surely."""
        reading = self._reading(FACE_UP, now)
        unsure = [view for view in reading if view.face_up_unsure]
        return unsure[-1].face_up_likely if 2 * len(unsure) >= len(reading) > 0 else None


Ballots = Sequence[tuple[Told, Counter[str] | None]]
"""A part's readings in the last still frames, each with the names the frame gave the face-up cards it named unsurely
(None for other parts)."""


def _backing(part: Part, told: Told, ballots: Ballots, blanks: int, loosely: bool = False) -> int:
    """How many of a part's readings in the last still frames (``ballots``) may show ``told`` (``loosely``: a face-up
    card a frame named unsurely as any other bean), and, for a pile with a top, the ``blanks`` of frames that saw one
    card on it without naming it."""
    return sum(fits(part, ballot, told, unsure if loosely else None) for ballot, unsure in ballots) + (
        blanks if told else 0)


def _loosely(part: Part, winner: Told, support: dict[Told, int], ballots: Ballots, blanks: int, was: Told | None,
             votes: int) -> tuple[Told, int] | None:
    """Where a frame named a face-up card unsurely, so that it may be any other bean: the reading of the part to take
    instead of ``winner`` (the one most frames back, ``support``), and how many frames back it so; None where none.
    That is what the part settled on (``was``), where more frames back it so than ``winner``; else, where ``winner``
    lacks ``votes`` frames, the reading that has them so and more than every other. Three frames unsure of a card
    turned over, a chili and a red by turns, and a fourth naming it a chili surely: a chili, and a later frame unsure
    of it does not make it a red."""
    readings: list[Told] = [*support, *([was] if was is not None else [])]
    loose = {told: _backing(part, told, ballots, blanks, loosely=True) for told in readings}
    if was is not None and was != winner and loose[was] > loose[winner]:
        return was, loose[was]
    if support[winner] >= votes:
        return None
    best = max(loose, key=lambda told: (loose[told], support.get(told, 0)))
    return (best, loose[best]) if loose[best] >= votes and all(
        loose[told] < loose[best] for told in loose if told != best) else None


def _most(ballots: Sequence[T | None]) -> T | None:
    """The ballot most often cast, the latest of those cast as often; a frame that guessed nothing (``None`` or
    empty) abstains; None where every frame did."""
    cast = [ballot for ballot in ballots if ballot]
    return max(reversed(cast), key=cast.count) if cast else None


NAMED_OTHERWISE = ("the camera names a card as no move the rules allow lays it; proposed as the rules allow it: "
                   "check the card before confirming")
"""Said with moves proposed for a view the rules allow only with a card named otherwise (:func:`as_named_otherwise`):
the camera misnamed it, or a player laid what the rules refuse."""


@dataclass(frozen=True, slots=True)
class Observation:
    """A settled change of the table: the moves that explain it (record events, oldest first), whether the table
    may push them without a tap, and a sentence when no legal moves explain what the camera sees (or explain it only
    with a card named otherwise, :data:`NAMED_OTHERWISE`)."""

    events: tuple[dict[str, Any], ...]
    sure: bool
    note: str | None = None
    sure_after_waiting: bool = False
    """Whether the table may push them without a tap once the proposals waiting on the tablet are confirmed as they
    are: sure but for presupposing those (a plant of a bean whose turn-over still waits)."""
    sure_of_waiting: bool = False
    """Whether the camera, seeing no change beyond its proposals waiting on the tablet, is now sure of them all (no
    events of its own): the table may confirm them without a tap (:func:`sure_of`)."""
    alternatives: tuple[tuple[dict[str, Any], ...], ...] = field(default=(), compare=False)
    """Per event, the other events the rules allow in its place, likeliest first (:func:`alternatives`): one-tap
    corrections on the tablet."""

    def offers(self) -> Iterator[tuple[dict[str, Any], tuple[dict[str, Any], ...]]]:
        """Each event with its alternatives (none where the observation names none)."""
        return zip(self.events, self.alternatives or ((),) * len(self.events))


def named_fields(view: TableView) -> Fields:
    """The fields of ``view`` whose bean it names: (seat, bean, count) each."""
    return frozenset((seat, bean, count) for seat, columns in view.fields for bean, count in columns if bean)


def by_rules(found: Sequence[tuple[GameState, Sequence[Move]]], seen: TableView, before: GameState) -> bool:
    """Whether the rules, with the camera's guesses, settle what the camera was unsure of in ``seen``: it named every
    column the change may touch (nothing to settle), or else it took every such column it was unsure of for some bean;
    its explanations (:func:`~companion.tracker.explain.explanations`) that bear out every guess leave one game, by
    the same events (whichever of two like fields they name, in any order); and either they all bring the same beans
    onto the table, or every other one leaves a game that ``GUESS_MARGIN`` of the guesses belie, or the camera's
    probabilities, weighed over the explanations' tables alone, give that game at least ``SURE``
    (:func:`~companion.tracker.view.likelihood`).

    A card laid on a blue field of 3, now of 4, is a blue, and the camera took it for one; a card laid on one of three
    fields of one card each is of the bean the camera took the column of two for, where it took the two others for
    the game's beans of theirs; a bean planted into an empty field, of the two received in a trade, is the one the
    camera took it for, at 0.6, where it gave the other 0.05; a bean from the hand planted into an empty field may be
    any bean still unseen, so the camera's belief counts over all of those. Which of two fields was harvested is told
    by the beans the camera took the one left and the pile's new top card for. Only the seats the explanations change
    from ``before`` (the game), and the pile where they change its top, are asked about, and of those seats only the
    columns of a count some explanation changes (:func:`_changing`): what the camera was unsure of elsewhere lies as
    the game has it, whatever it took it for (a chili field it named nothing while a harvest cleared another)."""
    every = tuple(range(len(before.players)))
    games = [game_view(after, every) for after, _ in found]
    seen = _changing(seen, games, game_view(before, every))
    unsure = sum(bean is None for _, columns in seen.fields for bean, _ in columns)
    if unsure == 0:
        return True
    guessing = guesses(seen)
    if guessing < unsure:
        return False
    borne = {(game, _events(path)) for game, (_, path) in zip(games, found) if guessed(game, seen) == guessing}
    if len(borne) != 1:
        return False
    if len({brought(path) for _, path in found}) == 1:
        return True
    chosen = next(iter(borne))
    if all(guessed(game, seen) <= guessing - GUESS_MARGIN for game in games if game != chosen[0]):
        return True
    if not seen.likely:  # every table alike likely: the chosen one holds no more than half
        return False
    weights = {(game, _events(path)): likelihood(game, seen) for game, (_, path) in zip(games, found)}
    return weights[chosen] > 0 and weights[chosen] >= SURE * sum(weights.values())


def _events(moves: Sequence[Move]) -> tuple[str, ...]:
    """The events ``moves`` make, without the fields they name, in any order: two explanations by the same events
    are one."""
    return tuple(sorted(json.dumps(unplaced(move_to_dict(m)), sort_keys=True) for m in moves))


def _changing(seen: TableView, games: Sequence[TableView], was: TableView) -> TableView:
    """``seen`` with only the seats some explanation's table ``games`` changes from the game's table ``was``, and the
    pile's guess only where one changes its top. Of those seats, a column the camera was unsure of is left out, with
    its guess, where its count is that of no column that some explanation has and not every one leaves as it was
    (:func:`_varying`): it stands for a field no explanation touches, and what the camera took it for tells nothing of
    the change (a stink left beside a harvested green, which a group's deck lost to a soy)."""
    before, after = was.seats(), [game.seats() for game in games]
    changed = {seat for seats in after for seat, columns in seats.items() if columns != before[seat]}
    pile = any(game.discard != was.discard for game in games)
    varying = {seat: _varying(before[seat], [seats.get(seat, ()) for seats in after]) for seat in changed}

    def kept(seat: int, column: Column) -> bool:
        return column[0] is not None or column[1] in varying[seat]

    return replace(seen, fields=tuple((seat, tuple(c for c in columns if kept(seat, c)))
                                      for seat, columns in seen.fields if seat in changed),
                   guesses=tuple((seat, open_guesses) for seat, columns in seen.guesses if seat in changed
                                 if (open_guesses := tuple(c for c in columns if c[1] in varying[seat]))),
                   likely=tuple((seat, odds) for seat, columns in seen.likely if seat in changed
                                if (odds := tuple(c for c in columns if c[0] in varying[seat]))),
                   pile_guess=seen.pile_guess if pile else None)


def _varying(before: tuple[Column, ...], after: Sequence[tuple[Column, ...]]) -> set[int]:
    """The counts of a seat's columns that some explanation's table (``after``) has and not every one, with the game
    as it was (``before``), leaves as they were."""
    common = Counter(before)
    for columns in after:
        common &= Counter(columns)
    return {count for columns in after for _, count in Counter(columns) - common}


def brought(moves: Sequence[Move]) -> tuple[str, ...]:
    """The beans ``moves`` bring onto the table: planted, or turned over."""
    events = [move_to_dict(m) for m in moves]
    return tuple(sorted([e["bean"] for e in events if e["type"] == "plant"]
                        + [bean for e in events if e["type"] == "turn-over" for bean in e["beans"]]))


def before_waiting(state: GameState, events: Sequence[dict[str, Any]], waiting: Sequence[dict[str, Any]]) -> bool:
    """Whether the game takes ``events`` before the proposals ``waiting``, still takes as many of those after them, and
    comes to the table it comes to the other way round: a turn-over pushed while a plant from the hand waits would end
    the planting, and the plant could not follow; a harvest pushed while a plant into that field waits would leave the
    plant's card in the field, where the table shows it gone to the pile with the others."""
    first, done = made(state, events)
    if done != len(events):
        return False
    then, taken = made(first, waiting)
    camera, taking = made(state, waiting)
    every = tuple(range(len(state.players)))
    return taken >= taking and game_view(then, every) == game_view(made(camera, events)[0], every)


def apart(events: Sequence[dict[str, Any]], waiting: Sequence[dict[str, Any]]) -> bool:
    """Whether ``events`` change the fields of no seat whose fields a proposal still ``waiting`` changes: a change at
    such a seat was explained with that proposal made, right or wrong, so it waits for it to be confirmed as it is (a
    harvest proposed where the camera lost a lone soy, the soy seen again taken for a chili planted there, and a
    black-eyed planted next beside the chili are not sure while the first two wait)."""
    def seats(moves: Sequence[dict[str, Any]]) -> set[int]:
        return {move["player"] for move in moves if move["type"] in ("plant", "harvest")}
    return not seats(events) & seats(waiting)


def believed(state: GameState, waiting: Sequence[dict[str, Any]]) -> GameState:
    """The game as the camera believes it: ``state`` with the camera's proposals still waiting on the tablet made in
    order (one the game no longer allows, and those after it, left out). A change is explained against it, so a
    proposal waiting for a tap is never proposed again, and a table that settles back on what it showed before (a
    hand rested on a field and left) proposes nothing."""
    return made(state, waiting)[0] if waiting else state


def also_made(events: Sequence[dict[str, Any]], state: GameState, settled: TableView,
              waiting: Sequence[dict[str, Any]], after: GameState) -> list[dict[str, Any]]:
    """Of ``events`` (explaining ``settled`` against the game with the proposals ``waiting`` made, to the game
    ``after``), those that the game's own explanation of it also makes beyond the waiting ones (a plant into whichever
    field: the two may fill the fields in another order); all of them where the game's own explains nothing (several
    proposals waiting). A hand resting over fields hides the cards of a plant still waiting as it hides the others:
    the game, which has no such plant, sees no harvest of it. Where the game's own table already agrees with what the
    camera settled on, none, unless the camera's guesses bear out ``after``'s table better than the game's: columns of
    beans the camera was unsure of may look alike (a blue planted into Ben's third field, still waiting, and then his
    green field harvested, leave him two fields of one card, as before the blue)."""
    own = explain(state, settled)
    if own is None:
        return list(events)
    if not own:
        seats = tuple(seat for seat, _ in settled.fields)
        better = guessed(game_view(after, seats), settled) > guessed(game_view(state, seats), settled)
        return list(events) if better else []
    beyond = _split([move_to_dict(m) for m in own], waiting)[1]
    return _split(events, beyond, anywhere)[0]


def _split(events: Sequence[dict[str, Any]], pool: Sequence[dict[str, Any]],
           key: Callable[[dict[str, Any]], dict[str, Any]] = lambda event: event,
           ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``events`` that match one of ``pool`` by ``key`` (each of ``pool`` standing for one), and the others."""
    left = [key(event) for event in pool]
    matched, others = [], []
    for event in events:
        if key(event) in left:
            left.remove(key(event))
            matched.append(event)
        else:
            others.append(event)
    return matched, others


def discarded(state: GameState, settled: TableView, after: GameState, grew: bool = False) -> bool:
    """Whether the camera saw the discard pile take new beans, ``after`` being the game once the change's explanation
    is made: its top, settled, is another than the game's before the change (the explanation has made it the game's
    after it), or a card was seen to land on it (``grew``: the same bean harvested again). A top card the camera was
    unsure of counts only where a card was seen to land and the camera took it for the top bean ``after`` has, or gave
    that bean at least ``SURE`` of what it gave it and the bean the top card was before (:func:`landed_anew`). A hand
    resting over a field hides it as a harvest clears it, but lays nothing on the pile."""
    if settled.discard is not None:
        return settled.discard != tuple(state.discard[-1:]) or grew
    top = tuple(after.discard[-1:])
    return grew and (settled.pile_guess == top or landed_anew(settled.pile_likely, state.discard[-1:], top))


def left_on_top(state: GameState, moves: Sequence[Move], after: GameState) -> bool:
    """Whether the discard pile ``after`` the explanation's ``moves`` (made on ``state``) is as their last harvest
    left it: a card laid on it later (a magpie played) hides what the harvest put there, so a field the camera missed
    looks harvested and the pile's new top tells nothing of it."""
    last = max(k for k, move in enumerate(moves) if move_type(move) in ABSENCES)
    return made(state, [move_to_dict(move) for move in moves[: last + 1]])[0].discard == after.discard


def landed_anew(likely: Likely, was: Sequence[str], top: Sequence[str]) -> bool:
    """Whether the camera's beans for a pile's top card that it was unsure of (``likely``) tell a card of the bean
    ``top`` from the card of the bean it ``was``: the new bean holds at least ``SURE`` of what the camera gave the two.
    A top card seen elsewhere is either a card that landed or the last one, bumped: a stink card named a coffee at
    0.6, a stink at 0.05 and a blue at 0.001 is a stink landed on a blue, not the blue moved."""
    if not likely or not was or not top or tuple(was) == tuple(top):
        return False
    new = chance(likely, top[0])
    return new >= SURE * (new + chance(likely, was[0]))


def turned_by_rules(state: GameState, events: Sequence[dict[str, Any]], seen: TableView) -> bool:
    """Whether every face-up card the camera named unsurely in ``seen`` is named surely of the beans the rules allow
    the cards turned over by ``events`` (made on ``state``) to be (:func:`turnable`): its name holds at least ``SURE``
    of what the camera gave them (:func:`~companion.tracker.view.share`). A turned-over card can only be a bean still
    unseen, or the one the rules know where the deck is known: a card taken for a chili at 0.7, where the camera gave
    a coffee 0.25 and the Amigo deck has none, is a chili at 0.93."""
    turn = next(k for k, event in enumerate(events) if event["type"] == "turn-over")
    allowed = turnable(made(state, events[:turn])[0], events[turn]["player"])
    return bool(seen.face_up_likely) and all(share(likely, allowed) >= SURE for likely in seen.face_up_likely)


def as_a_frame_read(state: GameState, settled: TableView,
                    recent: Sequence[tuple[dict[Part, Told], TableView]]) -> Explained | None:
    """Where no moves explain ``settled``: the view with one part as one of the ``recent`` still frames read it
    otherwise (the latest first), with the moves that explain it so: a column most frames counted one card short, and
    one frame counted right (the tracker proposes these moves, never sure). None where no such reading is explained.
    A reading two frames made is searched once: the moves that explain a view do not hang on the camera's guesses."""
    told = settled.parts()
    tried: set[tuple[Part, Told]] = set()
    for parts, frame in reversed(recent):
        for part, reading in parts.items():
            if part not in told or fits(part, reading, told[part]) or (part, reading) in tried:
                continue
            tried.add((part, reading))
            seen = settled.telling(part, reading)
            if isinstance(part, int):  # the frame's guesses at that seat's open columns come with its reading
                seen = replace(seen, guesses=seen.guesses + tuple(g for g in frame.guesses if g[0] == part),
                               likely=seen.likely + tuple(g for g in frame.likely if g[0] == part))
            if found := changed_by_moves(state, seen):
                return seen, found
    return None


def as_counted_short(state: GameState, settled: TableView) -> Explained | None:
    """Where no moves explain ``settled``: the view with one column told as the game's field one card longer, of its
    bean (or of any bean, where the camera was unsure of the column's), with the moves that explain it so, where they
    lay cards (a plant, a turn-over) and no other such column does: a column of two whose covered card shows a band
    too thin for the camera is read as one card in every frame (the tracker proposes these moves, never sure). None
    where no column, or more than one, does so."""
    game = game_view(state, tuple(seat for seat, _ in settled.fields)).seats()
    longer = (settled.telling(seat, sorted_columns(columns[:k] + (fuller,) + columns[k + 1:]))
              for seat, columns in settled.fields for k, (bean, count) in enumerate(columns)
              for fuller in {(b, n) for b, n in game[seat] if n == count + 1 and bean in (None, b)})
    return _the_one_laying_cards(state, longer)


def _the_one_laying_cards(state: GameState, views: Iterable[TableView]) -> Explained | None:
    """The one of ``views`` that moves explain against ``state`` by laying cards alone (a plant, a turn-over), with
    those moves; None where none of them, or more than one, is so explained."""
    kept = [(seen, found) for seen in views if (found := changed_by_moves(state, seen)) and not takes_cards(found)]
    return kept[0] if len(kept) == 1 else None


def grounded(found: Sequence[tuple[GameState, Sequence[Move]]], settled: TableView, before: GameState,
             chosen: tuple[GameState, Sequence[Move]], events: Sequence[dict[str, Any]], grew: bool) -> bool:
    """Whether the camera is sure of ``events``, proposed of the ``chosen`` explanation (the game after it, and its
    moves) of ``settled`` against the game ``before``, of the explanations ``found``: the rules and its guesses settle
    what it was unsure of (:func:`by_rules`), any cards gone were seen to go onto the discard pile (:func:`discarded`;
    ``grew``: a card was seen to land on it), and any beans turned over were named surely among those they may be
    (:func:`turned_by_rules`)."""
    after, moves = chosen
    absences = sum(e["type"] in ABSENCES for e in events)
    seen_gone = absences == 0 or (absences == 1 and discarded(before, settled, after, grew)
                                  and left_on_top(before, moves, after))
    turned_named = (not settled.face_up_unsure or all(e["type"] != "turn-over" for e in events)
                    or turned_by_rules(before, events, settled))
    return by_rules(found, settled, before) and seen_gone and turned_named


def sure_of(waiting: Sequence[dict[str, Any]], state: GameState, settled: TableView, grew: bool) -> bool:
    """Whether the camera is now sure of its proposals ``waiting`` on the tablet, where ``settled`` agrees with the
    game ``state`` with them made: explained against ``state`` alone, ``settled`` is explained by those very events
    (whichever of like fields they name), and the camera is sure of that explanation (:func:`grounded`). A plant
    proposed for a tap while the frames named its card a bean no move lays there, and then named it nothing: the
    later frames make the plant as sure as it would have been had they come first."""
    explaining = explained(state, settled) if waiting else None
    if explaining is None:
        return False
    seen, found = explaining
    after, moves = likeliest(found, seen)
    events = [move_to_dict(m) for m in moves]
    matched, others = _split(events, waiting, anywhere)
    return not others and len(matched) == len(waiting) and grounded(found, seen, state, (after, moves), events, grew)


def as_named_otherwise(state: GameState, settled: TableView) -> Explained | None:
    """Where no moves explain ``settled``: the view with one column the camera named, but as no column the game has at
    its seat, told of any bean, with the moves that explain it so, where they lay cards (a plant, a turn-over) and no
    other such column does: a chili received in a trade and planted into an empty field, named a red surely in every
    frame (the tracker proposes these moves, never sure). None where no column, or more than one, does so."""
    game = game_view(state, tuple(seat for seat, _ in settled.fields)).seats()
    opened = (settled.telling(seat, sorted_columns(columns[:k] + ((None, count),) + columns[k + 1:]))
              for seat, columns in settled.fields for k, (bean, count) in enumerate(columns)
              if bean is not None and (bean, count) not in game[seat])
    return _the_one_laying_cards(state, opened)


def _lays_cards(explaining: Explained | None, settled: TableView) -> bool:
    """Whether moves explain the change of ``settled`` whole, no part set aside, and every explanation only lays cards
    (a plant, a turn-over): while a part of the table is held as it was, its frames split, the camera may be misreading
    the rest as well, and two cards it reads as one column look like a field harvested (:func:`takes_cards`)."""
    return explaining is not None and explaining[0] == settled and not takes_cards(explaining[1])


class TableTracker:
    """One game's camera referee: feed it each frame's view; it answers a settled change with an observation."""

    def __init__(self, steadiness: Steadiness | None = None) -> None:
        self.steadiness = steadiness or Steadiness()
        self.agrees = False
        """Whether the table last settled on what the game has (nothing to explain, nothing to say)."""
        self.pile: Place | None = None
        """Where the discard pile's top card lay when the table last settled (None where unseen)."""
        self.pile_empty = False
        """Whether the discard pile was last seen empty when the table settled (a card lying there now landed)."""
        self.unexplained: tuple[object, ...] | None = None
        """The last view given with parts held (:attr:`~companion.tracker.view.TableView.held`) whose change no moves
        explained without them, with the game and proposals it was weighed against."""
        self.accounted: int | None = None
        """The still period (:attr:`Steadiness.period`) in which the table last settled on a view that moves explained
        or that agreed with the game: no hand has been over the table since, so a later view of it that no move
        explains is a misreading (a field of two counted one in 3 of 4 frames, a chili named a red), not news."""
        self.claimed: Fields = frozenset()
        """The fields (seat, bean, count) that the camera's proposals brought onto the table, still read so, and not in
        the game (:meth:`_turned_down`)."""

    def observe(self, view: TableView, moving: bool, state: GameState,
                waiting: Sequence[dict[str, Any]] = (), changed: frozenset[Part] | None = None
                ) -> Observation | None:
        """The observation a frame's ``view`` settles, against the game as it stands in ``state`` with the camera's
        proposals ``waiting`` on the tablet (record events, oldest first) taken as made (:func:`believed`); only the
        events the game's own explanation makes too are proposed (:func:`also_made`), and they are sure only where
        the game takes them before the waiting ones (auto-accept pushes them at once); where it takes them only after,
        they are sure once the waiting ones are confirmed as they are (``sure_after_waiting``: a tap on a turn-over
        still waiting settles the plants of its beans too). Where the view agrees with the game with the waiting ones
        made, and makes the camera sure of them all, the observation says so (``sure_of_waiting``, no events). The
        frame differs from the last still frame read in the parts ``changed`` (None: untold); a part that has not
        changed since it settled on what the game has stays so (:meth:`Steadiness.feed`)."""
        camera = believed(state, waiting)
        game = None if moving else game_view(camera, tuple(range(len(camera.players))))
        told = self.steadiness.feed(view, moving, changed, game)
        if told is None or game is None:  # a moving frame settles nothing
            return None
        settled = face_up_as(told, tuple(camera.face_up))
        tried = (told.parts(), told.held, len(state.move_stack), list(waiting)) if told.held else None
        if tried is not None and tried == self.unexplained:
            return None  # tried on the last frame: the search is not made again for every frame read
        explaining = explained(camera, settled)
        if tried is not None:
            if not _lays_cards(explaining, settled):
                self.unexplained = tried
                return None  # the change may be that of a part still held as it was too (a face-up bean being planted)
            self.steadiness.settle(told)
        grew = landed(self.pile, view.pile_top) or (self.pile_empty and view.pile_top is not None)
        self.pile = view.pile_top or self.pile
        self.pile_empty = view.discard == () or (self.pile_empty and view.pile_top is None)
        read_otherwise, note = explaining is None, None
        if read_otherwise:
            explaining = (as_a_frame_read(camera, settled, self.steadiness.recent)
                          or as_counted_short(camera, settled))
        if read_otherwise and explaining is None and (explaining := as_named_otherwise(camera, settled)):
            note = NAMED_OTHERWISE
        if explaining is None:
            self.agrees = False
            if self.accounted == self.steadiness.period:
                return None  # the table has not moved since its change was accounted for: the camera misreads it
            return Observation((), False, "the camera sees a table that no move the rules allow now explains; "
                                          "check the fields and enter what happened")
        self.accounted = self.steadiness.period
        settled, found = explaining
        after, moves = likeliest(found, settled)
        events = [move_to_dict(m) for m in moves]
        otherwise = dict(zip(map(id, events), alternatives(found, (after, events), settled, camera)))
        if events and waiting:
            events = also_made(events, state, settled, waiting, after)
        self.agrees = not events
        turned_down = self._turned_down(settled, state, game)
        if not events:
            return Observation((), False, sure_of_waiting=True) if sure_of(waiting, state, settled, grew) else None
        alone = not waiting or (before_waiting(state, events, waiting) and apart(events, waiting))
        sure = grounded(found, settled, camera, (after, moves), events, grew) and not read_otherwise and not turned_down
        return Observation(tuple(events), sure and alone, note, sure_after_waiting=sure and not alone,
                           alternatives=tuple(otherwise[id(event)] for event in events))

    def _turned_down(self, settled: TableView, state: GameState, game: TableView) -> bool:
        """Whether ``settled`` reads a field as the camera's proposals brought it onto the table, where the group
        turned them down (dismissed or corrected them, or undid them): it is in neither the game ``state`` nor the
        ``game`` with the proposals waiting made (its view). A lone pale card misread as two cards every frame would
        otherwise be proposed, sure, with each change of its seat, and auto-accept would push it each time. The
        fields claimed are kept while they are read so and the game has not taken them."""
        read, waiting = named_fields(settled), named_fields(game)
        taken = named_fields(game_view(state, tuple(seat for seat, _ in settled.fields)))
        turned_down = bool(self.claimed & (read - waiting))
        self.claimed = (self.claimed & (read - taken)) | (read - waiting)
        return turned_down
