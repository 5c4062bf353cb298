"""``companion vision watch SOURCE``: the camera referee in a terminal, printing proposed events as they happen.

Each frame is read (columns counted and named; while the table is still, now and then:
:class:`~companion.vision.table_reader.TableReader`), placed in the table zones (printed
markers, or a zone file), gated for motion and voted over; each settled change of the table is
explained by the rules of the game ``--game`` names (from the game store) and printed as the
events it stands for, one JSON object per line with ``--json``. The events go to the watch's own
copy of the game, never to the store: the tablet is where a group confirms them.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.cli.common import add_db_option, db_path, fail
from companion.rules.moves import move_from_dict
from companion.rules.state import GameState
from companion.rules.wording import describe
from companion.session import GameSession
from companion.storage.store import GameStore, StoreError
from companion.tracker.table import Observation, TableTracker
from companion.tracker.view import SURE, parts_of, view_in_game
from companion.vision.errors import VisionError
from companion.vision.profile import DeckProfile
from companion.vision.scene import SceneReader
from companion.vision.sources import CameraOffline, open_source
from companion.vision.table_reader import TableReader
from companion.vision.zones import TableZones, read_zone_file


def _game(args: argparse.Namespace) -> GameState:
    """The card game ``--game`` names, as it stands in the store; ``ValueError`` with a sentence if it cannot be."""
    try:
        with GameStore(db_path(args)) as store:
            session = GameSession.resume(store, args.game)
    except KeyError:
        raise ValueError(f"there is no game {args.game} in {db_path(args)} (`companion records list`)") from None
    except (StoreError, ValueError) as exc:
        raise ValueError(f"game {args.game} cannot be opened: {exc}") from None
    if not isinstance(session.state, GameState):
        raise ValueError(f"game {args.game} is a dice game; the camera referees card games")
    return session.state


def _report(frame: int, observation: Observation, state: GameState, as_json: bool) -> None:
    texts = [describe(event, state.names) for event in observation.events]
    if as_json:
        out: dict[str, Any] = {"frame": frame, "events": list(observation.events), "text": texts,
                               "sure": observation.sure, "note": observation.note}
        print(json.dumps(out), flush=True)
        return
    if observation.note:
        print(f"frame {frame}: {observation.note}", flush=True)
    if texts:
        marks = "" if observation.sure else " (unsure: confirm on the tablet)"
        print(f"frame {frame}: " + "; ".join(texts) + marks, flush=True)


def watch(args: argparse.Namespace) -> int:
    """Read frames until the source ends (a file or folder) or Ctrl-C; print each settled change's events."""
    try:
        state = _game(args)
        zones = read_zone_file(Path(args.zones)) if args.zones else TableZones()
        reader = SceneReader()
        gallery = DeckProfile.load(args.deck, reader.classifier).gallery if args.deck else None
    except (ValueError, VisionError) as exc:
        return fail(str(exc))
    source = open_source(args.source, loop=False)
    if gallery is not None and source.house_cards:
        return fail(f"--deck: {args.source!r} shows house cards, not your deck's; give --deck with a camera, "
                    "a video or a folder of frames of your table")
    table, tracker, number = TableReader(reader, zones), TableTracker(), 0
    try:
        source.open()
        while True:
            frame = source.read()
            number += 1
            reading = table.read(frame, gallery)
            if not reading.news:
                continue
            view = view_in_game(reading.scene, state, args.sure)
            observation = tracker.observe(view, reading.moving, state, changed=parts_of(reading.changed))
            if observation is None:
                continue
            _report(number, observation, state, args.json)
            for event in observation.events:
                state.push(move_from_dict(event))
    except CameraOffline as exc:
        if number == 0:
            return fail(str(exc))
    except KeyboardInterrupt:
        pass
    finally:
        source.close()
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``watch`` to the ``vision`` command group."""
    wat = commands.add_parser("watch", help="referee a game from the camera: print proposed events as they happen")
    wat.add_argument("source", metavar="SOURCE",
                     help='a camera index ("0"), a video file or URL, a folder of frames, "synthetic", or "demo" (a '
                          'recorded 4-player game played on a rendered table: watch an amigo-25 game of Ann, Ben, Cid '
                          'and Dee, Ann first)')
    wat.add_argument("--game", type=int, required=True, metavar="ID", help="the card game the camera watches")
    wat.add_argument("--deck", metavar="PROFILE", help="a deck profile from `companion vision enroll`")
    wat.add_argument("--zones", metavar="FILE", help="a zone file (default: zones from the printed markers in sight)")
    wat.add_argument("--sure", type=float, default=SURE, metavar="P",
                     help=f"least confidence for a column's bean to count (default {SURE})")
    wat.add_argument("--json", action="store_true",
                     help='one JSON object per change: {"frame", "events", "text", "sure", "note"}')
    add_db_option(wat)
    wat.set_defaults(func=watch)
