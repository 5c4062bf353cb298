"""The camera referee on the server: settled table views become proposals on the tablet, each proposed once."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from flask import Flask

from companion.vision.scene import Scene, SeenCard, Stack
from companion.vision.sources import SyntheticTable
from support.camera_scenes import table
from support.web_client import Editor
from web.camera import Camera
from web.proposals import Proposals


def still(app: Flask, scene: Scene, frames: int = 4) -> None:
    referee = app.extensions["hardware"].referee
    for _ in range(frames):
        referee.frame(scene, False)


def camera_proposals(editor: Editor, game_id: int) -> list[dict]:
    return [p["event"] for p in editor.get(f"/api/games/{game_id}").get_json()["proposals"]
            if p["source"] == "camera"]


def test_a_plant_the_table_shows_again_after_a_hand_rested_on_it_is_proposed_once(app, editor):
    game_id = editor.start()["game_id"]
    referee = app.extensions["hardware"].referee
    still(app, table())
    referee.frame(table(), True)  # Ann's hand lays a blue
    still(app, table((0, "blue", 1)))
    plant = {"type": "plant", "player": 0, "bean": "blue", "source": "hand", "field": 0}
    assert camera_proposals(editor, game_id) == [plant]
    referee.frame(table(), True)
    still(app, table())  # her hand rests on the field: the card is out of sight
    referee.frame(table(), True)
    still(app, table((0, "blue", 1)))  # and leaves
    assert camera_proposals(editor, game_id) == [plant]



def test_two_like_plants_seen_at_once_are_both_proposed(app, editor):
    """Ann plants two blues from her hand before the camera settles: two events alike, both wanted."""
    game_id = editor.start()["game_id"]
    still(app, table())
    app.extensions["hardware"].referee.frame(table(), True)
    still(app, table((0, "blue", 2)))
    assert [e["type"] for e in camera_proposals(editor, game_id)] == ["plant", "plant"]


def two_blues_planted(app: Flask, editor: Editor) -> int:
    """A game whose table has a discard pile in sight, with auto-accept on and Ann's two blues planted (sure,
    entered by the camera): its id."""
    game_id = editor.start()["game_id"]
    referee = app.extensions["hardware"].referee
    referee.auto = True
    still(app, table(pile=""))
    referee.frame(table(pile=""), True)
    still(app, table((0, "blue", 2), pile=""))
    assert editor.get(f"/api/games/{game_id}").get_json()["events"] == 2
    return game_id


def test_with_auto_accept_a_harvest_seen_landing_on_the_discard_pile_is_entered(app, editor):
    game_id = two_blues_planted(app, editor)
    app.extensions["hardware"].referee.frame(table(pile=""), True)
    still(app, table(pile="blue"))  # Ann harvests: the field is gone, its beans lie on the pile
    assert editor.get(f"/api/games/{game_id}").get_json()["events"] == 3
    assert camera_proposals(editor, game_id) == []


def test_with_auto_accept_a_groups_deck_named_unsure_is_entered_where_the_rules_leave_one_bean(app, editor):
    """A group's own deck: the camera names every card at 0.6, right. Ann's first blue, planted into an empty field,
    could be any bean: it waits on the tablet for a tap. Her second, laid on the blue, can only be a blue, and her
    harvest onto the empty pile is seen landing there: both are entered."""
    game_id = editor.start()["game_id"]
    referee = app.extensions["hardware"].referee
    referee.auto = True
    still(app, table(pile="", confidence=0.6))
    referee.frame(table(pile=""), True)
    still(app, table((0, "blue", 1), pile="", confidence=0.6))
    first = {"type": "plant", "player": 0, "bean": "blue", "source": "hand", "field": 0}
    assert camera_proposals(editor, game_id) == [first]
    (waiting,) = editor.get(f"/api/games/{game_id}").get_json()["proposals"]
    offered = waiting["alternatives"]  # the camera gave no other bean any belief: the rules' first others
    assert len(offered) == 3 and all(o["event"] == {**first, "bean": o["event"]["bean"]} != first for o in offered)
    assert editor.post(f"/api/games/{game_id}/proposals/{waiting['id']}/confirm").status_code == 200
    referee.frame(table(pile=""), True)
    still(app, table((0, "blue", 2), pile="", confidence=0.6))
    assert editor.get(f"/api/games/{game_id}").get_json()["events"] == 2  # the second, on the blue: entered
    referee.frame(table(pile=""), True)
    still(app, table(pile="blue", confidence=0.6))
    assert editor.get(f"/api/games/{game_id}").get_json()["events"] == 3  # the harvest: entered
    assert camera_proposals(editor, game_id) == []


def blue_named_unsurely_then_surely(app: Flask, editor: Editor, auto: bool) -> int:
    """A group's own deck: Ann's blue, planted into an empty field, is named at 0.6 by the first still frames (it
    could be any bean: it waits for a tap), then at 0.99 by the next frames of the same still period. Its game's id."""
    game_id = editor.start()["game_id"]
    referee = app.extensions["hardware"].referee
    referee.auto = auto
    still(app, table(pile=""))
    referee.frame(table(pile=""), True)
    still(app, table((0, "blue", 1), pile="", confidence=0.6))
    assert camera_proposals(editor, game_id) == [{"type": "plant", "player": 0, "bean": "blue", "source": "hand",
                                                  "field": 0}]
    still(app, table((0, "blue", 1), pile=""))
    return game_id


def test_with_auto_accept_a_plant_waiting_goes_in_once_later_frames_name_its_card_surely(app, editor):
    game_id = blue_named_unsurely_then_surely(app, editor, auto=True)
    game = editor.get(f"/api/games/{game_id}").get_json()
    assert game["events"] == 1 and game["proposals"] == []
    assert game["state"]["players"][0]["fields"][0] == {"bean": "blue", "count": 1}
    assert app.extensions["hardware"].referee.last["pushed"]


def test_without_auto_accept_a_plant_the_camera_became_sure_of_still_waits_for_its_tap(app, editor):
    game_id = blue_named_unsurely_then_surely(app, editor, auto=False)
    game = editor.get(f"/api/games/{game_id}").get_json()
    assert game["events"] == 0 and len(camera_proposals(editor, game_id)) == 1


def test_a_field_gone_with_nothing_laid_on_the_pile_is_not_taken_for_a_harvest(app, editor):
    """Ann's hand rests on her field: it is out of sight, but the pile shows no new beans."""
    game_id = two_blues_planted(app, editor)
    referee = app.extensions["hardware"].referee
    referee.frame(table(pile=""), True)
    still(app, table(pile=""))
    assert editor.get(f"/api/games/{game_id}").get_json()["events"] == 2
    assert camera_proposals(editor, game_id) == []
    assert "no move the rules allow" in referee.last["note"]  # the camera page says what it cannot explain
    referee.frame(table(pile=""), True)
    still(app, table((0, "blue", 2), pile=""))  # the hand leaves: the table agrees with the game again
    assert referee.last["note"] is None and referee.last["agrees"] and referee.last["events"] == []


def test_a_hand_resting_on_a_field_after_a_harvest_still_waiting_is_not_a_second_harvest(app, editor):
    """Ann harvests her blue, whose proposal waits for a tap (no auto-accept); then her hand rests on her soy. The blue
    still tops the pile, so the soy is not harvested: nothing more is proposed (before, harvesting the soy under the
    blue explained the table, and the soy was proposed)."""
    game_id = editor.start()["game_id"]
    for bean in ("blue", "soy"):
        assert editor.post(f"/api/games/{game_id}/moves",
                           {"type": "plant", "player": 0, "bean": bean, "source": "hand"}).status_code == 200
    referee = app.extensions["hardware"].referee
    still(app, table((0, "blue", 1), (0, "soy", 1), pile=""))
    referee.frame(table(pile=""), True)
    still(app, table((0, "soy", 1), pile="blue"))  # the harvest
    harvest = {"type": "harvest", "player": 0, "field": 0}
    assert camera_proposals(editor, game_id) == [harvest]
    referee.frame(table(pile=""), True)
    still(app, table(pile="blue"))  # her hand rests on the soy
    assert camera_proposals(editor, game_id) == [harvest]
    assert "no move the rules allow" in referee.last["note"]
    referee.frame(table(pile=""), True)
    still(app, table((0, "soy", 1), pile="blue"))  # and leaves
    assert camera_proposals(editor, game_id) == [harvest] and referee.last["note"] is None


def harvest_then_plant_waiting(app: Flask, editor: Editor) -> tuple[int, dict, dict]:
    """Auto-accept on, no discard pile in sight: Ann harvests her blue (its proposal waits for a tap: nothing is seen
    to take the beans) and plants a soy in the field it emptied, a plant the camera is sure of but for the harvest.
    The game's id, and the two proposals as the tablet lists them."""
    game_id = editor.start()["game_id"]
    assert editor.post(f"/api/games/{game_id}/moves",
                       {"type": "plant", "player": 0, "bean": "blue", "source": "hand"}).status_code == 200
    referee = app.extensions["hardware"].referee
    referee.auto = True
    still(app, table((0, "blue", 1)))
    referee.frame(table(), True)
    still(app, table())
    referee.frame(table(), True)
    still(app, table((0, "soy", 1)))
    harvest, plant = editor.get(f"/api/games/{game_id}").get_json()["proposals"]
    assert harvest["event"] == {"type": "harvest", "player": 0, "field": 0} and harvest["after"] is None
    assert plant["event"]["bean"] == "soy" and plant["after"] == [harvest["id"]]
    return game_id, harvest, plant


def test_with_auto_accept_a_plant_waiting_only_on_a_harvest_goes_in_once_the_harvest_is_confirmed(app, editor):
    game_id, harvest, plant = harvest_then_plant_waiting(app, editor)
    assert editor.get(f"/api/games/{game_id}").get_json()["events"] == 1  # neither went in by itself
    assert editor.post(f"/api/games/{game_id}/proposals/{harvest['id']}/confirm").status_code == 200
    game = editor.get(f"/api/games/{game_id}").get_json()
    assert game["events"] == 3 and game["proposals"] == []  # one tap: the harvest, and the plant after it
    assert game["state"]["players"][0]["fields"][0]["bean"] == "soy"


def test_a_plant_waiting_on_a_harvest_dismissed_waits_for_its_own_tap(app, editor):
    game_id, harvest, plant = harvest_then_plant_waiting(app, editor)
    assert editor.delete(f"/api/games/{game_id}/proposals/{harvest['id']}").status_code == 200
    game = editor.get(f"/api/games/{game_id}").get_json()
    assert game["events"] == 1 and [(p["id"], p["after"]) for p in game["proposals"]] == [(plant["id"], None)]


def test_turning_auto_accept_off_leaves_every_proposal_to_its_own_tap(app, editor):
    game_id, harvest, plant = harvest_then_plant_waiting(app, editor)
    hardware = app.extensions["hardware"]
    hardware.camera = Camera(SyntheticTable(seed=3), app.extensions["deck"], hardware.publish)  # never started
    turned_off = editor.client.put("/api/camera/auto-accept", json={"on": False},
                                   headers={"X-CSRF-Token": editor.token})
    assert turned_off.status_code == 200 and not hardware.referee.auto
    assert [p["after"] for p in editor.get(f"/api/games/{game_id}").get_json()["proposals"]] == [None, None]
    assert editor.post(f"/api/games/{game_id}/proposals/{harvest['id']}/confirm").status_code == 200
    game = editor.get(f"/api/games/{game_id}").get_json()
    assert game["events"] == 2 and [p["id"] for p in game["proposals"]] == [plant["id"]]


def test_proposals_waiting_on_others_are_released_one_by_one_as_those_are_confirmed():
    """A turn-over, then two plants of its beans: the first plant waits on the turn-over, the second on both."""
    proposals = Proposals()
    turn = proposals.add(1, {"type": "turn-over"}, "camera")
    first = proposals.add(1, {"type": "plant"}, "camera", frozenset({turn.id}))
    second = proposals.add(1, {"type": "plant"}, "camera", frozenset({turn.id, first.id}))
    other_game = proposals.add(2, {"type": "plant"}, "camera", frozenset({turn.id}))
    assert proposals.take(1, turn.id) == turn
    assert proposals.confirmed(1, turn.id) == [replace(first, after=frozenset())]
    assert proposals.pending(1) == [replace(second, after=frozenset({first.id}))]
    assert proposals.confirmed(1, first.id) == [replace(second, after=frozenset())] and proposals.pending(1) == []
    proposals.hold(2, turn.id)
    assert proposals.pending(2) == [replace(other_game, after=None)]


def test_a_proposal_offers_the_alternatives_the_rules_allow_now_and_one_is_confirmed_in_its_place(app, editor):
    game_id = editor.start()["game_id"]
    plant = {"type": "plant", "player": 0, "bean": "chili", "source": "hand"}
    stink, draw = {**plant, "bean": "stink"}, {"type": "draw", "player": 0}
    made = editor.post(f"/api/games/{game_id}/proposals",
                       {"event": plant, "source": "camera", "alternatives": [stink, draw]})
    assert made.status_code == 201
    offered = made.get_json()["alternatives"]
    assert offered == [{"event": stink, "text": "Ann planted a Stink Bean (from hand)"}]  # no draw now
    confirmed = editor.post(f"/api/games/{game_id}/proposals/{made.get_json()['id']}/confirm", {"event": stink})
    assert confirmed.status_code == 200 and confirmed.get_json()["state"]["players"][0]["fields"][0]["bean"] == "stink"
    for bad in ({"alternatives": "stink"}, {"alternatives": [stink] * 6}, {"alternatives": ["stink"]}):
        refused = editor.post(f"/api/games/{game_id}/proposals", {"event": plant, **bad})
        assert refused.status_code == 400 and "alternatives" in refused.get_json()["error"]
    assert editor.get(f"/api/games/{game_id}").get_json()["proposals"] == []  # a refused request holds nothing


def test_with_auto_accept_a_plant_the_group_undid_waits_for_a_tap_when_the_camera_shows_it_again(app, editor):
    """The camera reads Ann's one blue as two in every frame and enters a second blue by itself; the group undoes it.
    When Ann turns over two beans, the camera, still reading two blues, proposes the plant again with the turn-over,
    but both wait for a tap: it is not entered again to be undone again."""
    game_id = editor.start()["game_id"]
    referee = app.extensions["hardware"].referee
    referee.auto = True
    still(app, table())
    for view in (table((0, "blue", 1)), table((0, "blue", 2))):
        referee.frame(table(), True)
        still(app, view)
    assert editor.get(f"/api/games/{game_id}").get_json()["events"] == 2
    assert editor.post(f"/api/games/{game_id}/undo", {"count": 1}).get_json()["events"] == 1
    corners = np.zeros((4, 2), np.float32)
    face_up = tuple(Stack(bean, 1, corners, SeenCard(corners, bean, 0.99), "face-up") for bean in ("chili", "soy"))
    turned = table((0, "blue", 2))
    referee.frame(turned, True)
    still(app, replace(turned, stacks=turned.stacks + face_up))
    game = editor.get(f"/api/games/{game_id}").get_json()
    assert game["events"] == 1
    assert [p["event"]["type"] for p in game["proposals"]] == ["plant", "turn-over"]
