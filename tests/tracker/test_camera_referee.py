"""The camera referee end to end: a recorded game drawn frame by frame, hands passing over the table, read by
the real pipeline (markers, columns, band network, classifier, zones, motion, votes, the rules).

What the camera can see (plants, turned-over beans, harvests) must come back as the record's
events in order; what it cannot (trades, ending the trading, draws) is entered as a tap would
enter it (:mod:`models.evaluate_referee`). The target is every visible event and nothing else;
the test holds the figures measured today (``SHARE_FOUND``, ``SPURIOUS``), so that any step back
fails. Events are compared by who, what and which bean.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.records.jsonl import load_record
from companion.rules.moves import move_from_dict
from companion.rules.setup import Setup
from companion.rules.state import GameState
from companion.tracker.lessons import PER_BEAN
from companion.vision.changes import changed_boxes, small
from companion.vision.scene import SceneReader
from companion.vision.sight import parts_to_read, sight
from models.evaluate_referee import GroupDeck, common, main, referee, table_frames
from models.render import house_design, render_face

RECORD = Path(__file__).resolve().parents[2] / "examples" / "records" / "amigo-25-3p.jsonl"
EVENTS = 40
"""Events of the record played: about four turns."""
SHARE_FOUND = 0.96
"""Measured on this record (see the closing note of issue 20): all 29 visible events come back, in order, with
none extra (26 and one extra before each part of the table was voted on apart, cards side by side whose edges
the light joins were read apart and a coin-sized glare spot was cut off a card). The test allows one event
fewer and one extra, for the last bits of another machine's arithmetic."""
SPURIOUS = 1
"""Extra events allowed (measured: none)."""
SURE_HARVESTS = 7
"""Harvests the camera must be sure of, seeing their beans land on the discard pile (measured: all 8; 7 before the
pile's top card was seen to land elsewhere, the eighth harvesting the bean already on top). The test allows one
fewer."""


@pytest.mark.slow
def test_a_recorded_game_seen_by_the_camera_gives_back_its_visible_events():
    events = list(referee(RECORD, 0, EVENTS))
    expected = [e.expected for e in events]
    proposed = [p for e in events for p in e.proposed]
    assert len(expected) >= 20
    assert sum(e.notes for e in events) == 0  # every settled view was explained
    found = common(expected, proposed)
    assert found >= SHARE_FOUND * len(expected), (found, len(expected), proposed)
    assert len(proposed) - found <= SPURIOUS, proposed
    harvests = [e for e in events if e.expected[0] == "harvest"]
    sure = [e.made_sure for e in harvests]
    assert len(harvests) == 8 and sum(sure) >= SURE_HARVESTS, sure
    assert not any(e.wrong_sure for e in events)  # none wrong and sure


GROUP_EVENTS = 26
"""Events of the record played with a group's deck: about three turns (the house deck's four take twice as long)."""
GROUP_FOUND = 0.6
"""Share of the visible events found with a held-out woodcut deck on the table, enrolled from one photo per bean and
learning in play (measured on these 26 events, deck seed 515: 17 of 18, none extra, none wrong and sure, 10 cards
learnt, one of them flagged, in session 55; 15 of 18 with 4 cards learnt earlier; on 40 events, 25 of 29, none
extra, 6 cards learnt, one of them flagged, and 22 of 29 and one extra when the test was written)."""


@pytest.mark.slow
def test_a_groups_own_deck_on_the_table_is_named_against_its_profile_and_learnt_in_play():
    reader = SceneReader()
    group = GroupDeck("woodcut", 515, reader.classifier, learn=True)
    events = list(referee(RECORD, 0, GROUP_EVENTS, reader, group=group))
    expected = [e.expected for e in events]
    proposed = [p for e in events for p in e.proposed]
    assert len(expected) >= 15
    assert common(expected, proposed) >= GROUP_FOUND * len(expected), (expected, proposed)
    assert not any(e.wrong_sure for e in events)
    assert sum(map(len, group.learnt.values())) >= 1
    assert all(len(cards) <= PER_BEAN for cards in group.learnt.values())
    assert group.lessons >= sum(map(len, group.learnt.values())) and 0 <= group.flagged <= group.lessons


def test_two_cards_of_a_groups_deck_side_by_side_are_not_taken_for_one_unsure_card():
    """Seat 2's blue and chili of a held-out watercolour deck lie side by side (`classic-4p+magpie`, event 310): their
    edges close one outline around both, about as squat as one card, which the deck enrolled from one photo per bean
    named a garden at 0.57-0.66. Its two card-shaped pieces name the blue and the chili more surely, and are taken."""
    record = load_record(RECORD.parent / "classic-4p+magpie.jsonl")
    header = record.header
    state = GameState(Setup(header.ruleset, tuple(header.players), header.start_player, dict(header.options)))
    for _, event in record.events[:311]:
        state.push(move_from_dict(event))
    reader = SceneReader()
    group = GroupDeck("watercolour", 1544584577, reader.classifier, learn=False)
    frame = table_frames(state, group.faces, 310, np.random.default_rng(8), still=1)[-1]
    scene = reader.read(frame, group.profile.gallery)
    there = [s for s in scene.stacks if 960 < s.corners[:, 0].mean() < 1070 and 430 < s.corners[:, 1].mean() < 575]
    assert sorted((s.bean, s.count) for s in there) == [("blue", 1), ("chili", 1)], [
        (s.bean, s.count, s.top.confidence) for s in there]


def test_the_evaluation_command_refuses_a_bad_range(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([str(RECORD), "--events", "ten:20"])
    assert exit_info.value.code == 2
    assert "not a range of events" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main([str(RECORD), "--still", "0"])
    assert exit_info.value.code == 2
    assert "at least 1 frame" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main([str(tmp_path / "none.jsonl")])
    assert exit_info.value.code == 2
    assert "no record at" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main([str(RECORD), "--bumped", "--no-discard"])
    assert exit_info.value.code == 2
    assert "needs the discard pile" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main([str(RECORD), "--learn"])
    assert exit_info.value.code == 2
    assert "--learn needs --deck" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main([str(RECORD), "--deck", "oils:1"])
    assert exit_info.value.code == 2
    assert "--deck takes FAMILY:SEED" in capsys.readouterr().err


def test_a_resting_hand_is_drawn_still_over_the_table_and_then_gone():
    state = GameState(Setup("amigo-25", ("Ann", "Ben", "Cid")))
    faces = {bean: render_face(house_design(bean)) for bean in state.deck_counts}
    plain = table_frames(state, faces, 5, np.random.default_rng(1), still=2)
    rested = table_frames(state, faces, 5, np.random.default_rng(1), still=2, resting=True)
    assert len(plain) == 4 and len(rested) == 8
    assert all(np.array_equal(a, b) for a, b in zip(plain, rested))  # the same until the hand comes to rest
    hand, after = rested[4:6], rested[6:]
    assert np.abs(hand[0].astype(int) - hand[1].astype(int)).mean() < 3  # still: only the sensor differs
    assert np.abs(hand[0].astype(int) - after[0].astype(int)).mean() > 3  # and then gone


def test_a_pile_bumped_while_a_hand_rests_lies_elsewhere_from_halfway_through_the_rest():
    state = GameState(Setup("amigo-25", ("Ann", "Ben", "Cid")))
    state.discard.append("blue")
    faces = {bean: render_face(house_design(bean)) for bean in state.deck_counts}
    rested = table_frames(state, faces, 5, np.random.default_rng(1), still=4, resting=True)
    bumped = table_frames(state, faces, 5, np.random.default_rng(1), still=4, resting=True, bumped=True)
    assert len(bumped) == len(rested) == 14
    same = [np.array_equal(a, b) for a, b in zip(rested, bumped)]
    assert same == [True] * 8 + [False] * 6  # the pile lies as it did until halfway through the hand's rest


def test_on_one_table_two_events_frames_differ_only_where_the_table_changed():
    """``--one-table``: the wood, the cards' places and the light stay from one event to the next, as at a real
    table; by default each event has a table and a light of its own."""
    state = GameState(Setup("amigo-25", ("Ann", "Ben", "Cid")))
    faces = {bean: render_face(house_design(bean)) for bean in state.deck_counts}
    state.players[0].fields[0].cards = ["blue", "blue"]
    before = table_frames(state, faces, 5, np.random.default_rng(1), still=1, table_seed=5)[-1]
    state.players[0].fields[0].cards.append("blue")
    after = table_frames(state, faces, 6, np.random.default_rng(1), still=1, table_seed=5)[-1]
    parts = parts_to_read(sight(before), changed_boxes(small(before), small(after)) or [], 1280, 720)
    assert parts is not None and len(parts.boxes) == 1 and parts.again  # around the blue field only
    apart = table_frames(state, faces, 6, np.random.default_rng(1), still=1)[-1]
    assert changed_boxes(small(before), small(apart)) is None
