"""What the camera sees of a game, in the rules' terms: each seat's field columns and the face-up beans.

A :class:`TableView` is what the table tracker compares with the game. Fields are kept as a
sorted tuple of (bean, count) per seat: which column is which field does not matter to the
rules' check (a move names its field, and the engine's legal moves say which fields may
change), so players may lay their fields in any order. A column the classifier was unsure of
keeps its count and leaves its bean open (``None``): the game's own bean stands in for it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, NamedTuple, cast

import numpy as np

from companion.cards import BEAN_IDS, CATALOGUE
from companion.vision.classifier import LIKELY_LEAST, UNKNOWN, Likely
from companion.vision.scene import Scene, Stack

if TYPE_CHECKING:
    from companion.rules.state import GameState

Column = tuple[str | None, int]
"""One field column: its bean (None when the camera is unsure) and card count."""
Part = int | str
"""A part of the table a view tells: a seat's fields (the seat), the face-up area (``FACE_UP``) or the discard
pile (``DISCARD``)."""
Told = tuple[Column, ...] | tuple[str, ...]
"""What a view tells of one part: a seat's columns, the face-up beans, or the discard pile's top bean (none when
the pile is empty)."""

UnsureColumns = tuple[tuple[int, tuple[tuple[int, Likely], ...]], ...]
"""Per seat, each column the camera was unsure of: its count and the beans its top card may be."""

Place = tuple[float, float, float]
"""Where a card lies: its middle (x, y) in frame pixels and the way its long side runs, in degrees from 0 to 180."""

SURE = 0.9
"""Least confidence of a top card's name for its column's bean to count; below it the game's bean stands in."""
NAMELESS_FLOOR = 1 / 7
"""Least share of its first bean's odds the camera gives each bean a card it named nothing may be (:func:`nearest`): no
bean then holds :data:`SURE` of what it gave that bean and another (at most 1 / (1 + 1/7) = 0.875)."""
LANDED = (4.0, 8.0)
"""How far (pixels) the pile's top card must lie from where it lay, or how much (degrees) it must be turned, to
have landed there since: a card thrown on the pile never lies just where the last one did, while one card read
frame after frame moves by about a pixel and turns by up to 3 degrees (measured on the rendered table's frames)."""
FIELDS_PREFIX = "fields-"
FACE_UP = "face-up"
DISCARD = "discard"


class Reading(NamedTuple):
    """What the camera took a card for, as the game's deck allows (:func:`as_dealt`): the bean, whether it named it
    surely, and the beans it may be (most probable first)."""

    bean: str
    named: bool
    likely: Likely

    def column(self, count: int) -> Column:
        """The field column of ``count`` cards this card tops: its bean, or None where it was not named surely."""
        return (self.bean if self.named else None), count


@dataclass(frozen=True, slots=True)
class TableView:
    """Per seat, its non-empty fields as sorted (bean, count) pairs; the face-up beans, sorted (None when the
    camera has no face-up zone); the discard pile's top bean, or nothing when it is empty (None when the camera
    has no discard zone, or cannot tell the top card); and where the pile's top card lies (None where untold: not
    part of what the view tells the rules, only whether a card landed on the pile since, :func:`landed`)."""

    fields: tuple[tuple[int, tuple[Column, ...]], ...]
    face_up: tuple[str, ...] | None = None
    discard: tuple[str, ...] | None = None
    pile_top: Place | None = field(default=None, compare=False)
    guesses: tuple[tuple[int, tuple[Column, ...]], ...] = field(default=(), compare=False)
    """Per seat, the columns whose bean the camera was unsure of, with the bean it took them for (not part of what
    the view tells the rules: a guess only ranks the moves that explain a change, :func:`guessed`)."""
    pile_guess: tuple[str, ...] | None = field(default=None, compare=False)
    """The bean the camera took the discard pile's top card for, where it was unsure of it (not part of what the view
    tells the rules: it ranks the moves as a column's guess does, and lets a harvest be seen taken by the pile,
    :func:`~companion.tracker.table.discarded`)."""
    face_up_unsure: bool = field(default=False, compare=False)
    """Whether the camera named some face-up card with less than sure confidence: the beans it tells are then what the
    camera took them for, and a turn-over made of them waits for a tap."""
    likely: UnsureColumns = field(default=(), compare=False)
    """Per seat, the columns of :attr:`guesses` in their order, each as its count and the beans it may be (not part
    of what the view tells the rules: it weighs the moves that explain a change, :func:`likelihood`)."""
    face_up_likely: tuple[Likely, ...] = field(default=(), compare=False)
    """Per face-up card the camera named with less than sure confidence, the beans it may be (not part of what the
    view tells the rules: the beans the rules allow weigh it, :func:`share`)."""
    held: frozenset[Part] = field(default=frozenset(), compare=False)
    """The parts a settled view tells as they last settled while half the still frames read them otherwise
    (:class:`~companion.tracker.table.Steadiness`): the view stands only where the rest's change is explained
    without them."""
    pile_likely: Likely = field(default=(), compare=False)
    """Of the discard pile's top card, where the camera was unsure of it (:attr:`pile_guess`), the beans it may be (not
    part of what the view tells the rules: the pile's old and new top beans weigh it,
    :func:`~companion.tracker.table.discarded`)."""

    @property
    def pile_unnamed(self) -> bool:
        """Whether the camera saw one card on the discard pile and was unsure of its name (it then agrees with any
        top bean in the votes over still frames)."""
        return self.discard is None and self.pile_top is not None

    def seats(self) -> dict[int, tuple[Column, ...]]:
        return dict(self.fields)

    def parts(self) -> dict[Part, Told]:
        """What the view tells of each part of the table in sight: each seat's columns, the face-up beans and the
        discard pile's top."""
        told: dict[Part, Told] = dict(self.fields)
        if self.face_up is not None:
            told[FACE_UP] = self.face_up
        if self.discard is not None:
            told[DISCARD] = self.discard
        return told

    def telling(self, part: Part, told: Told) -> TableView:
        """The view with ``part`` told as ``told`` (the camera's guesses at it dropped)."""
        return replace(TableView.of_parts({**self.parts(), part: told}),
                       guesses=tuple(g for g in self.guesses if g[0] != part),
                       likely=tuple(g for g in self.likely if g[0] != part),
                       pile_guess=None if part == DISCARD else self.pile_guess,
                       pile_likely=() if part == DISCARD else self.pile_likely,
                       face_up_unsure=self.face_up_unsure and part != FACE_UP,
                       face_up_likely=() if part == FACE_UP else self.face_up_likely)

    @classmethod
    def of_parts(cls, told: dict[Part, Told]) -> TableView:
        """The view that tells ``told`` (as :meth:`parts` gives it)."""
        fields = tuple(sorted((seat, cast(tuple[Column, ...], columns)) for seat, columns in told.items()
                              if isinstance(seat, int)))
        return cls(fields, cast("tuple[str, ...] | None", told.get(FACE_UP)),
                   cast("tuple[str, ...] | None", told.get(DISCARD)))


def sorted_columns(columns: Iterable[Column]) -> tuple[Column, ...]:
    """A seat's columns in the order a view keeps them (an open bean first)."""
    return tuple(sorted(columns, key=lambda c: (c[0] or "", c[1])))


def view_of(scene: Scene, seats: Iterable[int], sure: float, beans: Collection[str] | None = None,
            game: Mapping[int, tuple[Column, ...]] | None = None) -> TableView:
    """The view of a scene placed in its zones, for ``seats``: a seat whose fields zone is out of sight, or a
    face-up area or discard pile out of sight, is left out (not seen empty). A top card named with less than
    ``sure`` confidence leaves its column's bean open (its bean a guess); the discard pile's top card, the pile untold
    (its bean a guess); a face-up card, its name told but the view unsure of the face-up area; a face-up card or the
    pile's top card named nothing, as :func:`_laid_out` takes it. Where the pile's top card lies is told where the
    pile is one stack, sure or not. Each card is taken as the game's deck ``beans`` allows (:func:`as_dealt`)."""
    face_up: list[str] = []
    face_up_likely: list[Likely] = []
    discarded: list[Reading] = []
    pile_top: Place | None = None
    loose = (FACE_UP, DISCARD)  # cards out of the fields
    laid = [(as_dealt(stack, sure, beans), stack) for stack in scene.stacks if stack.zone in loose]
    laid += [(reading, stack) for stack in scene.unnamed
             if stack.zone in loose and (reading := _laid_out(stack, beans))]
    for reading, stack in laid:
        if stack.zone == FACE_UP:
            face_up += [reading.bean] * stack.count
            face_up_likely += [] if reading.named else [reading.likely] * stack.count
        elif stack.zone == DISCARD:
            discarded.append(reading)
            pile_top = place_of(stack.top.corners)
    by_seat = seat_columns(scene, sure, beans, game)
    zones = set(scene.zones)
    fields = tuple((seat, sorted_columns(reading.column(stack.count) for reading, stack in by_seat.get(seat, ())))
                   for seat in sorted(set(seats)) if f"{FIELDS_PREFIX}{seat}" in zones)  # fmt: skip
    pile = top_of_pile([(reading.bean, reading.named) for reading in discarded]) if DISCARD in zones else None
    unsure = [(seat, sorted(((reading.bean, stack.count), reading.likely) for reading, stack in stacks
                            if not reading.named and reading.bean != UNKNOWN))
              for seat, stacks in sorted(by_seat.items())]  # fmt: skip
    top = discarded[0] if len(discarded) == 1 else None
    guess = top if top is not None and pile is None and top.bean != UNKNOWN else None
    guesses = tuple((seat, tuple(column for column, _ in told)) for seat, told in unsure if told)
    likely = tuple((seat, tuple((count, odds) for (_, count), odds in told)) for seat, told in unsure if told)
    seen_up = FACE_UP in zones
    return TableView(fields, tuple(sorted(face_up)) if seen_up else None, pile, pile_top if top is not None else None,
                     guesses, (guess.bean,) if guess is not None else None, bool(face_up_likely) and seen_up, likely,
                     tuple(face_up_likely) if seen_up else (), pile_likely=guess.likely if guess is not None else ())


def part_of(zone: str) -> Part | None:
    """The part of the table a zone named ``zone`` shows: a seat's fields (the seat), the face-up area or the discard
    pile; None for another zone."""
    if zone.startswith(FIELDS_PREFIX):
        return int(zone[len(FIELDS_PREFIX):])
    return zone if zone in (FACE_UP, DISCARD) else None


def parts_of(zones: Iterable[str] | None) -> frozenset[Part] | None:
    """The parts of the table the zones named ``zones`` show (None stays None: untold)."""
    if zones is None:
        return None
    return frozenset(part for zone in zones if (part := part_of(zone)) is not None)


def view_in_game(scene: Scene, state: GameState, sure: float) -> TableView:
    """The view of a scene for every seat of ``state``'s game, each card taken as the game's deck allows, and a column
    naming nothing as the game's fields allow (:func:`seat_columns`). A discard pile the camera sees empty while the
    game's has cards is untold: the camera may have lost its top card (far off at a slant, under a glare spot), and a
    pile is emptied only by a reshuffle (a draw, entered on the tablet) or by a move that takes its cards elsewhere (a
    building's, the Duel's), which the rest of the table then tells."""
    game = {seat: game_fields(state, seat) for seat in range(len(state.players))}
    view = view_of(scene, range(len(state.players)), sure, state.deck_counts, game)
    return replace(view, discard=None) if view.discard == () and state.discard else view


def game_fields(state: GameState, seat: int) -> tuple[Column, ...]:
    """A seat's non-empty fields as the game has them: sorted (bean, count) pairs."""
    return tuple(sorted((f.bean or "", f.count) for f in state.players[seat].fields if f.count))


def as_dealt(stack: Stack, sure: float, beans: Collection[str] | None = None) -> Reading:
    """What the camera took a stack's top card for, as the game's deck (``beans``; any bean where None) allows: named
    surely at ``sure`` or more, the beans it may be those of the deck. A card named a bean the deck has none of is no
    card the camera named surely: it is taken for the likeliest bean the deck has (a stink card of a group's deck lost
    to a coffee in an Amigo game, which has no coffee, is its likeliest Amigo bean, a stink). A card back, or a card
    named nothing, stays as it is."""
    bean, named, likely = stack.bean, stack.top.confidence >= sure, stack.top.likely
    if beans is None or bean not in CATALOGUE:
        return Reading(bean, named, likely)
    dealt = _dealt(likely, beans)
    if bean in beans:
        return Reading(bean, named, dealt)
    return Reading(dealt[0][0] if dealt else bean, False, dealt)


def face_up_as(seen: TableView, game: tuple[str, ...]) -> TableView:
    """``seen`` with its face-up area told as the game has it (``game``) where the two differ only by cards the camera
    named unsurely, as many cards either way: a turn-over the camera took a card of for another bean, corrected on the
    tablet, leaves the camera taking the card so until it is planted, and the face-up area then holds back no change
    elsewhere (a card named surely, or one more or fewer, still tells the face-up area)."""
    if seen.face_up is None or not seen.face_up_unsure or len(seen.face_up) != len(game):
        return seen
    unsure = Counter(likely[0][0] for likely in seen.face_up_likely if likely)
    extra = Counter(seen.face_up) - Counter(game)
    return replace(seen, face_up=tuple(sorted(game))) if extra and not extra - unsure else seen


def seat_columns(scene: Scene, sure: float, beans: Collection[str] | None = None,
                 game: Mapping[int, tuple[Column, ...]] | None = None) -> dict[int, list[tuple[Reading, Stack]]]:
    """Each seat's field columns in a scene placed in its zones: what the camera took each top card for, as the game's
    deck ``beans`` allows (:func:`as_dealt`), with its stack. A column whose top card names nothing
    (:attr:`~companion.vision.scene.Scene.unnamed`: a far card at a slant, too small to name) is a field of a bean the
    camera does not know where one of the seat's ``game`` fields that no named column there tells may be it, as it is
    or grown (its harvest is then not read into an empty place, and a card laid on it is that field's bean); elsewhere
    it is a new field of the bean its top card came nearest (:func:`nearest`), a guess never sure by itself (the rules
    may settle it: a bean taken from the face-up area), or left out where it came nearest no bean. Without the
    ``game``'s fields, every such column is a field of some bean."""
    by_seat = {seat: [(as_dealt(stack, sure, beans), stack) for stack in stacks]
               for seat, stacks in _in_fields(scene.stacks).items()}
    for seat, stacks in _in_fields(scene.unnamed).items():
        named = [reading.column(stack.count) for reading, stack in by_seat.get(seat, [])]
        kept = stacks if game is None else _as_game_fields(stacks, named, game.get(seat, ()))
        fields = {id(stack) for stack in kept}
        new = [(guess, stack) for stack in stacks if id(stack) not in fields and (guess := nearest(stack, beans))]
        if kept or new:
            by_seat.setdefault(seat, []).extend([*((Reading(stack.bean, False, ()), stack) for stack in kept), *new])
    return by_seat


def nearest(stack: Stack, beans: Collection[str] | None) -> Reading | None:
    """The bean a card the camera named nothing (a column's top card, a face-up card, the pile's top card) came nearest
    below the classifier's threshold, as the game's deck ``beans`` allows, told unsure, with every bean of the deck it
    may be: the odds the camera gave each, at least :data:`NAMELESS_FLOOR` of the first's (so that they rank the
    beans, and never hold :data:`SURE` of what it gave the first and any other); None where it came nearest no bean (a
    card back) or none of the deck's."""
    likely = stack.top.likely
    if not likely or likely[0][0] not in CATALOGUE:
        return None
    dealt = _dealt(likely, beans)
    if not dealt:
        return None
    least = dealt[0][1] * NAMELESS_FLOOR
    given = dict(dealt)
    odds = {bean: max(given.get(bean, 0.0), least) for bean in (BEAN_IDS if beans is None else beans)}
    return Reading(dealt[0][0], False, tuple(sorted(odds.items(), key=lambda item: (item[0] != dealt[0][0], -item[1]))))


def _dealt(likely: Likely, beans: Collection[str] | None) -> Likely:
    """The labels of ``likely`` that are beans the game's deck ``beans`` has (any bean where None), in their order."""
    return tuple((label, odds) for label, odds in likely if label in CATALOGUE and (beans is None or label in beans))


def _laid_out(stack: Stack, beans: Collection[str] | None) -> Reading | None:
    """What a card the camera named nothing, lying face up or topping the discard pile, is taken for: the bean it
    came nearest (:func:`nearest`); where it came nearest none, nothing face up, and on the pile a card of no name (the
    pile is not empty: its top is untold)."""
    reading = nearest(stack, beans)
    return Reading(stack.bean, False, ()) if reading is None and stack.zone == DISCARD else reading


def _in_fields(stacks: Iterable[Stack]) -> dict[int, list[Stack]]:
    """The ``stacks`` placed in a seat's fields zone, by seat."""
    by_seat: dict[int, list[Stack]] = {}
    for stack in stacks:
        if stack.zone and isinstance(seat := part_of(stack.zone), int):
            by_seat.setdefault(seat, []).append(stack)
    return by_seat


def _as_game_fields(unnamed: list[Stack], named: list[Column], fields: tuple[Column, ...]) -> list[Stack]:
    """Of a seat's columns naming nothing, those that one of its game ``fields`` may be, as it is or grown (a field of
    as many cards or fewer), each field taken once, the largest left, by the ``named`` columns first (a sure one by its
    bean, an unsure one by its count)."""
    left = sorted(fields, key=lambda field: -field[1])

    def taken(bean: str | None, count: int) -> bool:
        match = next((field for field in left if field[1] <= count and bean in (None, field[0])), None)
        if match is not None:
            left.remove(match)
        return match is not None

    for bean, count in sorted(named, key=lambda column: -column[1]):
        taken(bean, count)
    return [stack for stack in sorted(unnamed, key=lambda stack: -stack.count) if taken(None, stack.count)]


def guessed(game: TableView, seen: TableView) -> int:
    """How many of the camera's guesses (:attr:`TableView.guesses`, :attr:`TableView.pile_guess`) the game's table
    bears out: columns it was unsure of whose seat in the game has a column of the bean it took them for and of their
    count, and the discard pile's top card, where the game's pile is topped with the bean it took that for."""
    ours = game.seats()
    columns = sum(column in ours.get(seat, ()) for seat, columns in seen.guesses for column in columns)
    return columns + (seen.pile_guess is not None and game.discard == seen.pile_guess)


def likelihood(game: TableView, seen: TableView) -> float:
    """How likely the camera's readings of the columns it was unsure of (:attr:`TableView.likely`) find the game's
    table: per such column, the probability it gave the bean of the game's column it stands for (of that seat's
    columns of its count that its columns named surely leave, the likeliest, :func:`chance`), all multiplied."""
    ours, sure = game.seats(), seen.seats()
    total = 1.0
    for seat, columns in seen.likely:
        left = list(ours.get(seat, ()))
        for column in sure.get(seat, ()):
            if column[0] is not None and column in left:
                left.remove(column)
        for count, likely in columns:
            fitting = [chance(likely, bean or "") if n == count else -1.0 for bean, n in left]
            best = max(range(len(left)), key=fitting.__getitem__, default=None)
            if best is None or fitting[best] < 0:
                return 0.0
            total *= fitting[best]
            del left[best]
    return total


def share(likely: Likely, allowed: Iterable[str]) -> float:
    """What the camera's first bean for a card (``likely``) holds of what it gave the beans ``allowed`` alone
    (:func:`chance`): 0 where that bean is not allowed, or where it named none."""
    allowed = set(allowed)
    if not likely or likely[0][0] not in allowed:
        return 0.0
    return likely[0][1] / sum(chance(likely, bean) for bean in allowed)


def chance(likely: Likely, bean: str) -> float:
    """The probability the camera gave ``bean`` for a card (``likely``): at most
    :data:`~companion.vision.classifier.LIKELY_LEAST` where it left the bean out, so counted as that."""
    return next((odds for named, odds in likely if named == bean), LIKELY_LEAST)


def guesses(seen: TableView) -> int:
    """How many guesses the camera made in ``seen``: columns it was unsure of, and the discard pile's top card."""
    return sum(len(columns) for _, columns in seen.guesses) + (seen.pile_guess is not None)


def place_of(corners: np.ndarray) -> Place:
    """Where a card with these 4 corners lies (:data:`Place`)."""
    pts = np.asarray(corners, np.float64).reshape(4, 2)
    sides = [pts[1] - pts[0], pts[2] - pts[1]]
    dx, dy = max(sides, key=lambda side: float(np.hypot(*side)))
    x, y = pts.mean(axis=0)
    return float(x), float(y), math.degrees(math.atan2(dy, dx)) % 180.0


def landed(before: Place | None, now: Place | None) -> bool:
    """Whether a card landed on the discard pile between two sightings of its top card: it lies elsewhere now, or
    turned (:data:`LANDED`); False where either sighting is missing."""
    if before is None or now is None:
        return False
    turned = abs(before[2] - now[2]) % 180.0
    return (math.hypot(now[0] - before[0], now[1] - before[1]) > LANDED[0]
            or min(turned, 180.0 - turned) > LANDED[1])


def top_of_pile(stacks: Sequence[tuple[str, bool]]) -> tuple[str, ...] | None:
    """What the discard zone's stacks (bean, named surely) tell of the pile: its top bean, nothing for an empty
    zone, None when the camera cannot tell (a top card it is unsure of, or cards of several beans)."""
    if not stacks:
        return ()
    beans = {bean for bean, _ in stacks}
    return (beans.pop(),) if len(beans) == 1 and all(sure for _, sure in stacks) else None


def mismatch(game: TableView, seen: TableView) -> int:
    """How many columns and face-up beans differ between the game's view and the camera's, and whether the
    discard pile's top does (0: they agree).

    A seen column with an open bean matches a game column of the same count and any bean. Seats, a face-up area
    or a discard pile the camera does not see are not compared.
    """
    ours = game.seats()
    differ = sum(columns_differing(ours.get(seat, ()), columns) for seat, columns in seen.fields)
    if seen.face_up is not None and game.face_up is not None:
        a, b = Counter(game.face_up), Counter(seen.face_up)
        differ += sum(((a - b) + (b - a)).values())
    if seen.discard is not None and game.discard is not None:
        differ += seen.discard != game.discard
    return differ


def distance(game: TableView, seen: TableView) -> tuple[int, int]:
    """How far the game's table lies from the camera's: the columns and face-up beans that differ
    (:func:`mismatch`), then the cards by which the seats' columns differ, so that a field one card short of
    what the camera sees is nearer than one two cards short."""
    ours = game.seats()
    cards = sum(cards_differing(ours.get(seat, ()), columns) for seat, columns in seen.fields)
    return mismatch(game, seen), cards


def cards_differing(game: Sequence[Column], seen: Sequence[Column]) -> int:
    """How many cards one seat's columns differ by: each seen column against the game's column of its bean
    nearest in count (a seen column of open bean: any column), and every column left over whole."""
    left = list(game)
    apart = 0
    for bean, count in sorted(seen, key=lambda c: c[0] is None):
        near = [k for k, (b, _) in enumerate(left) if bean is None or b == bean]
        if not near:
            apart += count
            continue
        k = min(near, key=lambda k: abs(left[k][1] - count))
        apart += abs(left[k][1] - count)
        del left[k]
    return apart + sum(n for _, n in left)


def columns_differing(game: Sequence[Column], seen: Sequence[Column]) -> int:
    """How many of one seat's columns differ between two readings of it (the game's, or a still frame's, and the
    camera's): a column with an open bean, on either side, matches a column of the same count and any bean."""
    left = list(game)
    rest = []
    for column in seen:  # the same bean and count first, so that an open column is left for the others
        if column[0] is not None and column in left:
            left.remove(column)
        else:
            rest.append(column)
    unmatched = 0
    for bean, count in sorted(rest, key=lambda c: c[0] is None):
        found = next((k for k, (b, n) in enumerate(left) if n == count and None in (bean, b)), None)
        if found is None:
            unmatched += 1
        else:
            del left[found]
    return max(unmatched, len(left))


def fits(part: Part, reading: Told, told: Told, unsure: Counter[str] | None = None) -> bool:
    """Whether a frame's ``reading`` of a part may show ``told``: the same, but for columns of open bean in either, and
    for face-up cards the frame named unsurely (``unsure``: the names it gave them), as many cards either way (a chili
    named a red at 0.7 may be the chili another frame named surely)."""
    if isinstance(part, int):
        return columns_differing(cast(tuple[Column, ...], told), cast(tuple[Column, ...], reading)) == 0
    if unsure and len(reading) == len(told):
        return not (Counter(cast(tuple[str, ...], reading)) - Counter(cast(tuple[str, ...], told))) - unsure
    return reading == told


def unsure_face_up(view: TableView) -> Counter[str]:
    """The names ``view`` gave the face-up cards it named unsurely."""
    return Counter(likely[0][0] for likely in view.face_up_likely if likely)


def named(told: Told) -> int:
    """How much of a part's reading is named: its columns of known bean, or its face-up beans."""
    return sum(1 for item in told if not isinstance(item, tuple) or item[0] is not None)
