"""How well the camera referees a game: a recorded game drawn frame by frame and read by the whole pipeline.

    .venv/bin/python -m models.evaluate_referee examples/records/classic-3p.jsonl --events 60:130

Each event of the record that changes what lies on the table (a plant, beans turned over, a
harvest) is drawn as the table then stands (1280 x 720, 3 seats, the face-up area and the discard
pile at their printed markers, the house deck, or with ``--deck`` a held-out family's deck enrolled from one photo per
bean): two frames of a hand reaching over it, then still
ones, under one light per event, each frame with its own sensor noise, blur and compression. The frames go
through the table reader (markers, columns, band network, classifier, zones, motion) and the
table tracker (votes, the rules' legal moves). What a camera cannot see (trades, ending the
trading, draws) is entered as a tap would enter it, and after each event the group confirms the
record's own event. Prints how many of the visible events come back in order, the extra ones,
and each miss. Events before the range are played without being drawn. With ``--late`` the group
goes to the tablet only to enter what the camera cannot see, auto-accept on, and its taps are
counted (:mod:`models.late_tablet`).
"""

from __future__ import annotations

import argparse
import copy
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cards import VISION_LABELS
from companion.records.format import Record
from companion.records.jsonl import load_record
from companion.rules.moves import Move, move_from_dict
from companion.rules.setup import Setup
from companion.rules.state import GameState
from companion.tracker.explain import game_view
from companion.tracker.lessons import PER_BEAN, Teacher
from companion.tracker.table import Observation, TableTracker, believed
from companion.tracker.view import SURE, Part, Told, parts_of, view_in_game
from companion.vision.classifier import CardClassifier
from companion.vision.keypoints import DETAIL_SIZE
from companion.vision.profile import enroll, relearnt
from companion.vision.rectify import warp_card
from companion.vision.scene import Scene, SceneReader
from companion.vision.table_reader import TableReader
from models.camera import lamp, sensor
from models.game_table import SEATS_AT, SIZE, draw_table, hand_over
from models.heldout.families import FAMILIES
from models.heldout.measure import deck_seed, enrollment_shots
from models.heldout.photos import shoot
from models.late_tablet import LateTablet, Seen, Taps, substance
from models.render import FACE_H, FACE_W, house_design, render_face
from models.tilt import tilted

STILL = 9
"""Still frames after each change (0.3 s at 30 frames a second): the table reader reads the 1st, 2nd, 4th and 8th
of them, four votes."""
BUMP = (10.0, 20.0)
"""How far (pixels, each way) a bumped discard pile's top card is pushed."""
BUMP_TURN = (8.0, 15.0)
"""How much (degrees, either way) a bumped discard pile's top card is turned."""
TAPS = {"trade", "end-trading", "draw"}
"""What the camera cannot see: entered by a tap."""


def after(state: GameState, move: Move) -> GameState:
    """A copy of ``state`` with ``move`` made."""
    moved = copy.deepcopy(state)
    moved.push(move)
    return moved


def table_frames(state: GameState, faces: dict[str, np.ndarray], seed: int, rng: np.random.Generator,
                 still: int = STILL, resting: bool = False, discard: bool = True, bumped: bool = False,
                 table_seed: int | None = None, tilt: float | None = None) -> list:
    """The table as it stands (with ``discard``, its discard pile beside the discard marker), under the same light,
    each frame with its own sensor noise, blur and compression; the table's wood, the cards' places and the light are
    drawn from ``table_seed`` (``seed`` by default): two frames with a hand reaching in and out, then
    ``still`` still ones; ``resting``: then as many with a hand resting still over one seat's fields, and as many
    without it again; ``bumped``: halfway through the hand's rest, the discard pile's top card is pushed
    :data:`BUMP` pixels and turned :data:`BUMP_TURN` degrees (each either way), and stays so; ``tilt``: seen by a
    camera tilted that many degrees from straight down (:func:`models.tilt.tilted`).

    A shadow cast across the cards for good is left out: it joins the cards' outlines (see the model card)."""
    fields = {seat: [(f.bean, f.count) for f in player.fields if f.bean and f.count]
              for seat, player in enumerate(state.players)}
    pile = list(state.discard) if discard else None
    drawn = seed if table_seed is None else table_seed
    table = draw_table(fields, list(state.face_up), faces, drawn, pile)
    frames = [hand_over(table, rng), hand_over(table, rng)] + [table] * still
    if resting:
        (x, y), _ = SEATS_AT[int(rng.integers(len(state.players)))]
        later = table
        if bumped:
            push = np.random.default_rng([seed, 10])
            dx, dy = push.uniform(*BUMP, 2) * push.choice([-1, 1], 2)
            later = draw_table(fields, list(state.face_up), faces, drawn, pile,
                               (float(dx), float(dy), float(push.uniform(*BUMP_TURN) * push.choice([-1, 1]))))
        resting_on = [hand_over(frame, np.random.default_rng([seed, 9]), at=(x + 40, y - 60))
                      for frame in ([table, later] if bumped else [table])]  # the same hand, before and after
        half = still // 2
        frames += [resting_on[0]] * half + [resting_on[-1]] * (still - half) + [later] * still
    lit = lamp(table.shape, np.random.default_rng([drawn, 3]), shadow=False)  # the same light over every frame
    pictures = {id(frame): frame for frame in frames}  # each picture lit once
    shone = {key: lit.shine(frame) for key, frame in pictures.items()}
    if tilt is not None:
        matrix = tilted(SIZE, tilt)
        shone = {key: cv2.warpPerspective(frame, matrix, SIZE, flags=cv2.INTER_AREA) for key, frame in shone.items()}
    return [sensor(shone[id(frame)], np.random.default_rng([seed, k])) for k, frame in enumerate(frames)]


@dataclass(frozen=True)
class Refereed:
    """One visible event of the record: what the table showed of it, and what the camera proposed meanwhile."""

    number: int
    expected: Seen
    proposed: tuple[Seen, ...]
    sure: tuple[bool, ...]
    """For each proposal, whether the camera was sure of it, at once or later in its still frames (auto-accept would
    push it, or confirm it by itself)."""
    notes: int
    """Settled views no legal move explained (said on the tablet)."""
    offered: tuple[Seen, ...] = ()
    """The other readings the proposals offered (one-tap corrections on the tablet)."""

    @property
    def made_sure(self) -> bool:
        """Whether the event made was proposed, and the camera was sure of it."""
        return any(s for p, s in zip(self.proposed, self.sure) if p == self.expected)

    @property
    def wrong_sure(self) -> int:
        """Proposals of events other than the one made that the camera was sure of."""
        return sum(s for p, s in zip(self.proposed, self.sure) if p != self.expected)


class GroupDeck:
    """A held-out family's deck on the table (:mod:`models.heldout`), enrolled from one photo per bean as a group
    would, and, with ``learn``, learning in play as the server does (:mod:`companion.tracker.lessons`)."""

    def __init__(self, family: str, seed: int, classifier: CardClassifier, learn: bool) -> None:
        deck = deck_seed(seed, 0)
        self.faces = {label: cv2.resize(face, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
                      for label, face in zip(VISION_LABELS, FAMILIES[family].deck(deck))}
        enrolled = shoot(enrollment_shots(family, seed, 0, 1), classifier.manifest)
        self.photos = {label: [views.framings] for label, views in zip(VISION_LABELS, enrolled)}
        self.classifier = classifier
        self.profile = enroll(classifier, self.photos)
        self.teacher = Teacher() if learn else None
        self.learnt: dict[str, list[np.ndarray]] = {}
        self.lessons = self.flagged = 0
        """Lessons taken in play, and how many of them the camera took for another bean than the game's."""

    def learn(self, frame: np.ndarray, scene: Scene, state: GameState, told: Mapping[Part, Told]) -> None:
        """Learn the lessons of one analysed frame: each bean given a card enrolled again (the newest
        :data:`~companion.tracker.lessons.PER_BEAN` it was given)."""
        if self.teacher is None:
            return
        for lesson in self.teacher.new(scene, state, told, SURE):
            self.lessons += 1
            self.flagged += lesson.taken_for is not None
            cards = self.learnt.setdefault(lesson.bean, [])
            cards[:] = [*cards, warp_card(frame, lesson.corners, DETAIL_SIZE)][-PER_BEAN:]
            self.profile = relearnt(self.profile, self.classifier, lesson.bean, self.photos[lesson.bean], cards)


def referee(path: Path, start: int, stop: int, reader: SceneReader | None = None, still: int = STILL,
            resting: bool = False, discard: bool = True, bumped: bool = False,
            group: GroupDeck | None = None, one_table: bool = False, tilt: float | None = None) -> Iterator[Refereed]:
    """Each visible event of the record's events ``start``..``stop``, refereed by the camera (see the module), the
    table still for ``still`` frames after each (and a hand resting on it for as long, with ``resting``; the discard
    pile bumped meanwhile, with ``bumped``); without ``discard``, the table has no discard marker; with ``group``,
    the table shows that deck's cards, named against its profile, instead of the house deck; with ``one_table``, every
    event is drawn on the same table under the same light (``start``'s), its cards lying where they lay, as at a real
    table, instead of each on a table of its own."""
    record, truth, ours, faces = _table(path, group)
    seats = tuple(range(len(truth.players)))
    table, tracker = TableReader(reader or SceneReader()), TableTracker()
    table_seed = start if one_table else None
    rng = np.random.default_rng(8)
    for number, (_, event) in enumerate(record.events[:stop]):
        move = move_from_dict(event)
        if number < start or event["type"] in TAPS or game_view(truth, seats) == game_view(after(truth, move), seats):
            truth.push(move)
            ours.push(move)
            continue
        expected = substance(event, truth)
        truth.push(move)
        proposed: list[Seen] = []
        waiting: list[dict[str, Any]] = []  # what the tablet shows to be confirmed, taken as made until then
        sure: list[bool] = []
        offered: list[Seen] = []
        notes = 0
        frames = table_frames(truth, faces, number, rng, still, resting, discard, bumped, table_seed, tilt)
        for observation in _observations(frames, table, tracker, ours, waiting.copy, group):
            notes += observation.note is not None
            for event, others in observation.offers():
                camera = believed(ours, waiting)
                proposed.append(substance(event, camera))
                offered.extend(substance(other, camera) for other in others)
                waiting.append(event)
            sure = [True] * len(sure) if observation.sure_of_waiting else sure + [observation.sure] * len(
                observation.events)
        yield Refereed(number, expected, tuple(proposed), tuple(sure), notes, tuple(offered))
        ours.push(move)  # the group confirms the record's own event


def referee_late(path: Path, start: int, stop: int, reader: SceneReader | None = None,
                 group: GroupDeck | None = None, one_table: bool = False) -> Taps:
    """The record's events ``start``..``stop`` refereed by the camera as :func:`referee` does (on ``one_table`` as
    there), auto-accept on, for a group that goes to the tablet only to enter what the camera cannot tell
    (:class:`~models.late_tablet.LateTablet`):
    a trade, a draw, or any other event that changes nothing on the table but the end of the trading (which the
    camera tells with the plants after it). The taps, once the group has visited the tablet after the last event."""
    record, truth, ours, faces = _table(path, group)
    seats = tuple(range(len(truth.players)))
    table, tracker, tablet = TableReader(reader or SceneReader()), TableTracker(), LateTablet(ours)
    table_seed = start if one_table else None
    rng = np.random.default_rng(8)
    for number, (_, event) in enumerate(record.events[:stop]):
        move = move_from_dict(event)
        visible = game_view(truth, seats) != game_view(after(truth, move), seats)
        truth.push(move)
        if number < start:
            ours.push(move)
        elif event["type"] != "end-trading" and (event["type"] in TAPS or not visible):
            tablet.visit()
            ours.push(move)
        else:
            tablet.due.append(event)
            frames = table_frames(truth, faces, number, rng, table_seed=table_seed) if visible else []
            for observation in _observations(frames, table, tracker, ours, lambda: tablet.waiting, group):
                tablet.observed(observation)
    tablet.visit()
    return tablet.taps


def _observations(frames: list[np.ndarray], table: TableReader, tracker: TableTracker, ours: GameState,
                  waiting: Callable[[], Sequence[dict[str, Any]]], group: GroupDeck | None) -> Iterator[Observation]:
    """What the camera makes of ``frames``: each observation the tracker settles against the tablet's game ``ours``
    with the proposals ``waiting`` then (asked at each frame); ``group``'s deck, if any, learns as it goes."""
    for frame in frames:
        reading = table.read(frame, group.profile.gallery if group else None)
        if not reading.news:
            continue
        view = view_in_game(reading.scene, ours, SURE)
        observation = tracker.observe(view, reading.moving, ours, waiting(), parts_of(reading.changed))
        if group and not reading.moving:
            group.learn(frame, reading.scene, ours, tracker.steadiness.told)
        if observation is not None:
            yield observation


def _table(path: Path, group: GroupDeck | None) -> tuple[Record, GameState, GameState, dict[str, np.ndarray]]:
    """A record, its game twice (as played at the table, and as the tablet has it) and the faces of its cards: the
    house deck's, or ``group``'s."""
    record = load_record(path)
    header = record.header
    setup = Setup(header.ruleset, tuple(header.players), header.start_player, dict(header.options))
    truth = GameState(setup)
    faces = group.faces if group else {bean: render_face(house_design(bean)) for bean in truth.deck_counts}
    return record, truth, GameState(setup), faces


def common(wanted: list[Seen], found: list[Seen]) -> int:
    """How many of ``wanted`` come back in ``found`` in the same order (the longest common subsequence)."""
    table = [[0] * (len(found) + 1) for _ in range(len(wanted) + 1)]
    for i, a in enumerate(wanted):
        for j, b in enumerate(found):
            table[i + 1][j + 1] = table[i][j] + 1 if a == b else max(table[i][j + 1], table[i + 1][j])
    return table[-1][-1]


def _span(text: str) -> tuple[int, int]:
    first, _, last = text.partition(":")
    try:
        return int(first or 0), int(last)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a range of events such as 0:40") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record", type=Path)
    parser.add_argument("--events", type=_span, default=(0, 40), help="the record's events played, FIRST:LAST")
    parser.add_argument("--still", type=int, default=STILL,
                        help=f"still frames after each change (default {STILL}: 0.3 s at 30 frames a second)")
    parser.add_argument("--resting", action="store_true",
                        help="after each change, a hand rests still over one seat's fields, then leaves")
    parser.add_argument("--no-discard", action="store_true", help="a table without the discard marker and pile")
    parser.add_argument("--bumped", action="store_true",
                        help="as --resting, and the discard pile's top card is bumped while the hand rests")
    parser.add_argument("--deck", metavar="FAMILY:SEED",
                        help=f"the table shows a held-out deck ({', '.join(FAMILIES)}) enrolled from 1 photo per bean")
    parser.add_argument("--learn", action="store_true", help="with --deck: the deck learns in play")
    parser.add_argument("--one-table", action="store_true",
                        help="every event on the same table under the same light, as at a real table (by default each "
                             "event is drawn on a table and under a light of its own)")
    parser.add_argument("--tilt", type=float,
                        help="degrees the camera looks from straight down (default: straight down)")
    parser.add_argument("--late", action="store_true",
                        help="auto-accept on, and the group goes to the tablet only to enter what the camera cannot "
                             "see (a trade, a draw): count its taps")
    args = parser.parse_args(argv)
    if args.still < 1:
        parser.error("--still must be at least 1 frame")
    if not args.record.is_file():
        parser.error(f"no record at {args.record}")
    if args.bumped and args.no_discard:
        parser.error("--bumped needs the discard pile: leave out --no-discard")
    if args.learn and not args.deck:
        parser.error("--learn needs --deck: only an enrolled deck learns in play")
    first, last = args.events
    resting = args.resting or args.bumped
    reader, group = SceneReader(), None
    if args.deck:
        family, _, seed = args.deck.partition(":")
        if family not in FAMILIES or not seed.isdecimal():
            parser.error(f"--deck takes FAMILY:SEED, a family of {', '.join(FAMILIES)} and a number")
        group = GroupDeck(family, int(seed), reader.classifier, args.learn)
    if args.late:
        if args.still != STILL or resting or args.no_discard or args.tilt is not None:
            parser.error("--late plays the table as it is by default: leave out --still, --resting, --bumped, "
                         "--no-discard and --tilt")
        taps = referee_late(args.record, first, last, reader, group, args.one_table)
        print(f"{args.record.name} events {first}:{last}, a group tapping late: {taps.pushed} events entered by the "
              f"camera at once, {taps.released} went in once the proposals they waited on were confirmed, "
              f"{taps.became_sure} once the camera became sure of them, "
              f"{taps.confirmed} proposals confirmed with a tap, {taps.corrected} corrected with a tap on another "
              f"reading, {taps.by_hand} events entered by hand "
              f"({taps.ends_by_hand} of them the end of the trading), {taps.dismissed} proposals dismissed, "
              f"{taps.wrong} wrong entries undone; {taps.total} taps ({taps.total + taps.released} without the "
              "proposals that go in by themselves)")
        return 0
    events = list(referee(args.record, first, last, reader, still=args.still, resting=resting,
                          discard=not args.no_discard, bumped=args.bumped, group=group, one_table=args.one_table,
                          tilt=args.tilt))
    for event in events:
        if event.expected not in event.proposed:
            print(f"missed event {event.number}: {event.expected}; proposed {list(event.proposed)}"
                  + (", offered as another reading" if event.expected in event.offered else ""))
        elif len(event.proposed) > 1:
            others = list(event.proposed)
            others.remove(event.expected)
            print(f"event {event.number}: {event.expected}, and besides it {others}")
    wanted = [e.expected for e in events]
    proposed = [p for e in events for p in e.proposed]
    found = common(wanted, proposed)
    sure_extra = sum(e.wrong_sure for e in events)
    harvests = [e for e in events if e.expected[0] == "harvest"]
    sure_harvests = sum(e.made_sure for e in harvests)
    sure_made = sum(e.made_sure for e in events)
    corrected = sum(e.expected not in e.proposed and e.expected in e.offered for e in events)
    table = (f"{args.still} still frames{', a hand resting' * resting}{', the pile bumped' * args.bumped}"
             f"{', no discard pile' * args.no_discard}"
             + (f", the camera tilted {args.tilt:g} degrees" if args.tilt else ""))
    print(f"{args.record.name} events {first}:{last}, {table}: "
          f"{found} of {len(wanted)} visible events in order, {len(proposed) - found} extra ({sure_extra} of the "
          f"proposals other than the event made were sure), {sum(e.notes for e in events)} views no move explained; "
          f"{sure_made} of {len(wanted)} events proposed sure (auto-accept pushes them), {sure_harvests} of "
          f"{len(harvests)} harvests; {corrected} of the events missed offered as another reading of a proposal")
    if group is not None:
        print(f"{args.deck} deck enrolled from 1 photo per bean, "
              + (f"{sum(map(len, group.learnt.values()))} cards learnt in play ({group.flagged} of {group.lessons} "
                 "lessons flagged as taken for another bean)" if args.learn else "no learning"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
