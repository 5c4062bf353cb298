"""Table zones from ArUco markers on rendered tabletops: found, placed, followed, saved; the marker sheet."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision.zones import DICTIONARY, LAYOUT, TableZones, Zone, carried, find_markers
from models.evaluate_columns import render_table
from models.render import house_design, render_face
from models.tabletop import card_quad, paste_card, wooden_table

SIZE = (1280, 960)
SIDE = 40.0
"""Marker side in frame pixels (a 4 cm marker seen at 10 px/cm)."""


@dataclass(frozen=True)
class Pose:
    """A marker lying on the table: its bottom-left corner (frame px) and its reader's facing (degrees)."""

    marker_id: int
    origin: tuple[float, float]
    facing: float

    def at(self, x: float, y: float) -> tuple[float, float]:
        """Frame pixels of (x, y) in the marker's own frame (marker sides, x to the right, y away)."""
        t = math.radians(self.facing)
        right, away = np.array([math.cos(t), math.sin(t)]), np.array([math.sin(t), -math.cos(t)])
        p = np.array(self.origin) + SIDE * (x * right + y * away)
        return float(p[0]), float(p[1])


PLAYERS = [Pose(10, (480, 900), 0), Pose(11, (50, 290), 90), Pose(12, (800, 60), 180), Pose(13, (1230, 670), 270)]
FACE_UP, DISCARD = Pose(20, (560, 520), 0), Pose(21, (400, 520), 0)
ANCHORS = [Pose(0, (40, 80), 0), Pose(1, (1200, 80), 0), Pose(2, (1200, 920), 0), Pose(3, (40, 920), 0)]
ALL = [*PLAYERS, FACE_UP, DISCARD, *ANCHORS]
COLUMNS = (0.9, 3.0, 5.1)
"""Field column centres (marker sides): 1.4-side cards with 0.7-side gaps."""


def _paste_marker(table: np.ndarray, pose: Pose) -> None:
    """The marker with a white quarter-side quiet border, drawn at ``pose``."""
    cells = 64
    border = cells // 4
    image = cv2.copyMakeBorder(cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(DICTIONARY),
                                                             pose.marker_id, cells),
                               border, border, border, border, cv2.BORDER_CONSTANT, value=255)
    b = border / cells
    quad = np.array([pose.at(-b, 1 + b), pose.at(1 + b, 1 + b), pose.at(1 + b, -b), pose.at(-b, -b)], np.float32)
    src = np.array([[0, 0], [image.shape[1], 0], [image.shape[1], image.shape[0]], [0, image.shape[0]]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, quad)
    warped = cv2.warpPerspective(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), matrix, SIZE, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(image.shape, 255, np.uint8), matrix, SIZE) > 127
    table[mask] = warped[mask]


def _field_cards() -> list[tuple[float, float]]:
    """Where the test lays cards in a player's fields: a short column and a long one (12 cards)."""
    return [(COLUMNS[0], 2.4 + 0.375 * k) for k in range(3)] + [(COLUMNS[2], 2.4 + 0.375 * k) for k in range(12)]


def _table(poses: list[Pose], seed: int = 7) -> np.ndarray:
    """A wooden table with the markers at ``poses`` and cards in each player's fields."""
    rng = np.random.default_rng(seed)
    table = wooden_table(rng, SIZE)
    face = render_face(house_design("blue"))
    for pose in poses:
        _paste_marker(table, pose)
        if pose in PLAYERS:
            for x, y in _field_cards():
                paste_card(table, face, card_quad(pose.at(x, y), 2.175 * SIDE, -pose.facing))
    return table


def _degrade(frame: np.ndarray, seed: int = 3) -> np.ndarray:
    """A webcam's blur and noise."""
    noise = np.random.default_rng(seed).normal(0, 4, frame.shape)
    return np.clip(cv2.GaussianBlur(frame, (0, 0), 0.8) + noise, 0, 255).astype(np.uint8)


BUMP = cv2.getPerspectiveTransform(
    np.array([[0, 0], [SIZE[0], 0], [SIZE[0], SIZE[1]], [0, SIZE[1]]], np.float32),
    np.array([[30, 12], [SIZE[0] - 8, 36], [SIZE[0] - 30, SIZE[1] - 10], [14, SIZE[1] - 30]], np.float32))
"""A bumped camera: the table shifted, turned about 1° and seen at a slightly other angle."""
NUDGE = np.vstack([cv2.getRotationMatrix2D((SIZE[0] / 2, SIZE[1] / 2), 2.0, 1.0) + [[0, 0, 15], [0, 0, -10]],
                   [0, 0, 1]])
"""A nudged camera: the table shifted and turned 2°, seen from straight above as before."""


def _bumped(frame: np.ndarray, transform: np.ndarray = BUMP) -> np.ndarray:
    return cv2.warpPerspective(frame, transform, SIZE, borderMode=cv2.BORDER_REPLICATE)


def _moved(point: tuple[float, float], transform: np.ndarray | None) -> tuple[float, float]:
    if transform is None:
        return point
    x, y = cv2.perspectiveTransform(np.array([[point]], np.float32), transform)[0, 0]
    return float(x), float(y)


def _named(zones: TableZones) -> dict[str, Zone]:
    return {z.name: z for z in zones.zones}


def _expected_zones() -> dict[str, tuple[Pose, list[tuple[float, float]], list[tuple[float, float]]]]:
    """Zone name -> its marker, points (marker sides) inside it, and points just outside it."""
    fields_in = [(0.5, 1.5), (3.0, 4.0), (5.5, 7.5), (COLUMNS[2], 2.4 + 0.375 * 11 + 1.0)]
    fields_out = [(-0.6, 3.0), (6.6, 3.0), (3.0, 8.6), (3.0, -0.6)]
    shared_out = [(-0.9, 0.5), (0.5, -1.6)]
    zones = {f"fields-{p.marker_id - 10}": (p, fields_in, fields_out) for p in PLAYERS}
    zones["face-up"] = (FACE_UP, [(2.3, 0.5), (4.8, 0.5), (3.5, 2.0), (5.5, -0.5)], [*shared_out, (6.6, 0.5)])
    zones["discard"] = (DISCARD, [(2.3, 0.5), (3.0, 1.6), (0.5, -0.6)], [*shared_out, (4.1, 0.5), (2.3, 2.6)])
    return zones


def _assert_zones_hold_their_points(zones: TableZones, transform: np.ndarray | None = None) -> None:
    for name, (pose, inside, outside) in _expected_zones().items():
        for x, y in inside:
            found = zones.zone_at(_moved(pose.at(x, y), transform))
            assert found is not None and found.name == name, (name, x, y, found and found.name)
        for x, y in outside:
            found = zones.zone_at(_moved(pose.at(x, y), transform))
            assert found is None or found.name != name, (name, x, y)


def test_markers_are_found_with_their_corners():
    markers = find_markers(_degrade(_table(ALL)))
    assert set(markers) == {p.marker_id for p in ALL}
    for pose in ALL:
        expected = np.array([pose.at(0, 1), pose.at(1, 1), pose.at(1, 0), pose.at(0, 0)])
        assert np.abs(markers[pose.marker_id] - expected).max() < 1.5, pose


def test_a_far_marker_seen_at_a_slant_in_a_small_picture_is_read():
    """A camera tilted 45 degrees, its picture 640 x 360: the far corner markers are a few pixels a cell. One of them
    is read (its cells sampled finely, their blurred rims left out), so three markers give the table's plane."""
    frame, _ = render_table(4252, None, tilt=45)
    small = cv2.resize(frame, (640, 360), interpolation=cv2.INTER_AREA)
    assert set(find_markers(small)) == {1, 2, 3}


def test_an_empty_table_has_no_markers_and_no_zones():
    frame = wooden_table(np.random.default_rng(1), SIZE)
    assert find_markers(frame) == {}
    assert TableZones().for_frame(frame).zones == ()


def test_each_zone_holds_its_points_and_no_others():
    zones = TableZones().for_frame(_degrade(_table(ALL)))
    assert set(_named(zones)) == {"fields-0", "fields-1", "fields-2", "fields-3", "face-up", "discard"}
    _assert_zones_hold_their_points(zones)
    for pose in PLAYERS:
        for x, y in _field_cards():
            assert zones.zone_at(pose.at(x, y)).name == f"fields-{pose.marker_id - 10}"
    assert zones.zone_at((450, 200)) is None


@pytest.mark.parametrize("facing", [0, 90, 180, 270, 30, 200])
def test_facing_is_the_way_the_player_looks(facing):
    pose = Pose(14, (640 - 120 * math.cos(math.radians(facing)), 480 + 120 * math.sin(math.radians(facing))), facing)
    zone = _named(TableZones().for_frame(_degrade(_table([pose]))))["fields-4"]
    assert zone.kind == "fields" and zone.seat == 4
    assert abs((zone.facing - facing + 180) % 360 - 180) < 1.5
    assert _named(TableZones().for_frame(_table(ALL)))["face-up"].facing is None


def test_marker_zones_follow_a_bumped_camera():
    zones = TableZones().for_frame(_degrade(_bumped(_table(ALL))))
    _assert_zones_hold_their_points(zones, BUMP)
    for pose in PLAYERS:
        assert abs((_named(zones)[f"fields-{pose.marker_id - 10}"].facing - pose.facing + 180) % 360 - 180) < 3


def test_a_zone_follows_its_marker_moved_on_the_table():
    moved = Pose(21, (150, 650), 90)
    zones = TableZones().for_frame(_table([*PLAYERS, FACE_UP, moved]))
    discard = _named(zones)["discard"]
    assert discard.contains(moved.at(2.3, 0.5)) and not discard.contains(DISCARD.at(2.3, 0.5))


def _hand_drawn() -> list[Zone]:
    """A discard zone and one player's fields drawn by hand (no markers of theirs on the table)."""
    square = [(400, 450), (540, 450), (540, 590), (400, 590)]
    fields = [(560, 620), (800, 620), (800, 900), (560, 900)]
    return [Zone("discard", "discard", None, np.array(square, np.float32)),
            Zone("fields-5", "fields", 5, np.array(fields, np.float32), facing=0.0)]


def test_hand_drawn_zones_follow_the_anchors_when_the_camera_is_bumped():
    table = _table([*PLAYERS[1:], FACE_UP, *ANCHORS])
    drawn = TableZones.drawn_on(_degrade(table), _hand_drawn())
    assert set(drawn.anchors) == {0, 1, 2, 3}
    located = _named(drawn.for_frame(_degrade(_bumped(table))))
    for zone in _hand_drawn():
        expected = cv2.perspectiveTransform(zone.polygon.reshape(-1, 1, 2), BUMP).reshape(-1, 2)
        assert np.abs(located[zone.name].polygon - expected).max() < 2.0, zone.name
    centre = _hand_drawn()[1].polygon.mean(axis=0)
    (x0, y0), (x1, y1) = _moved(tuple(centre), BUMP), _moved((centre[0], centre[1] - 50), BUMP)
    assert abs(located["fields-5"].facing - math.degrees(math.atan2(x1 - x0, y0 - y1)) % 360) < 0.5
    assert 0.5 < located["fields-5"].facing < 2.5
    assert {"fields-1", "fields-2", "fields-3", "face-up"} <= set(located)


def test_two_anchors_are_enough_and_one_is_not():
    table = _table([FACE_UP, *ANCHORS])
    drawn = TableZones.drawn_on(table, _hand_drawn())
    two = _bumped(_table([FACE_UP, *ANCHORS[:2]]), NUDGE)
    followed = _named(drawn.for_frame(two))["discard"].polygon
    expected = cv2.perspectiveTransform(_hand_drawn()[0].polygon.reshape(-1, 1, 2), NUDGE).reshape(-1, 2)
    assert np.abs(followed - expected).max() < 2.0
    stays = _named(drawn.for_frame(_bumped(_table([FACE_UP, ANCHORS[0]]), NUDGE)))["discard"].polygon
    assert np.array_equal(stays, _hand_drawn()[0].polygon)


def test_a_hidden_markers_zone_is_carried_by_the_anchors():
    before = TableZones().for_frame(_table([FACE_UP, *ANCHORS]))
    after = _named(before.for_frame(_bumped(_table(ANCHORS))))
    assert after["face-up"].contains(_moved(FACE_UP.at(3.0, 0.5), BUMP))


def test_a_marker_hidden_on_the_next_frame_is_carried_by_the_others():
    earlier = find_markers(_table([*PLAYERS, FACE_UP]))
    now = find_markers(_bumped(_table([*PLAYERS[1:], FACE_UP])))
    hidden = PLAYERS[0].marker_id
    assert hidden not in now
    markers = carried(now, earlier)
    expected = cv2.perspectiveTransform(earlier[hidden].reshape(-1, 1, 2), BUMP).reshape(4, 2)
    assert np.abs(markers[hidden] - expected).max() < 2.0
    assert all(np.array_equal(markers[i], c) for i, c in now.items())  # those found stay as found
    left = carried({}, earlier)  # nothing seen to follow them by: left where they were
    assert set(left) == set(earlier) and all(np.array_equal(left[i], c) for i, c in earlier.items())


def test_the_zone_file_round_trips():
    zones = TableZones.drawn_on(_table([*PLAYERS, FACE_UP, *ANCHORS]), _hand_drawn()).for_frame(_table(ALL))
    again = TableZones.from_json(json.loads(json.dumps(zones.to_json())))
    assert zones.to_json()["version"] == 1
    assert [z.to_json() for z in again.zones] == [z.to_json() for z in zones.zones]
    assert set(again.anchors) == {0, 1, 2, 3}
    assert all(np.array_equal(again.anchors[i], zones.anchors[i]) for i in again.anchors)


def _file(**changes: object) -> dict[str, object]:
    zone = {"name": "fields-1", "kind": "fields", "seat": 1, "facing": 90.0,
            "polygon": [[0, 0], [10, 0], [10, 10]]}
    data: dict[str, object] = {"version": 1, "zones": [zone], "anchors": {"0": [[0, 0], [1, 0], [1, 1], [0, 1]]}}
    for key, value in changes.items():
        if key in zone:
            zone[key] = value
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(("data", "message"), [
    ([], "not a JSON object"),
    (_file(version=2), "version 2, but only version 1 can be read"),
    ({"zones": []}, "version None"),
    (_file(zones={}), "no list of zones"),
    (_file(zones=["fields"]), "zone 1 is not a JSON object"),
    (_file(kind="hand"), "kind 'hand'; a zone is one of fields, face_up, discard"),
    (_file(seat=6), "seat 6; give a seat from 0 to 5"),
    (_file(seat=None), "seat None"),
    (_file(name="fields-2"), "named 'fields-2', but that zone is 'fields-1'"),
    (_file(polygon=[[0, 0], [1, 1]]), "zone 1 polygon is not a list of at least 3 [x, y] number pairs"),
    (_file(polygon="square"), "zone 1 polygon is not a list"),
    (_file(facing="north"), "facing 'north'; give degrees or null"),
    (_file(anchors={"7": [[0, 0], [1, 0], [1, 1], [0, 1]]}), "anchor '7', but anchors are the table-corner markers"),
    (_file(anchors={"0": [[0, 0], [1, 0]]}), "anchor 0 is not a list of 4 [x, y] number pairs"),
    (_file(anchors=[]), "anchors are not an object"),
])
def test_a_broken_zone_file_says_what_is_wrong(data, message):
    with pytest.raises(ValueError, match="^the zone file") as info:
        TableZones.from_json(data)
    assert message in str(info.value)


def test_a_zone_file_naming_a_zone_twice_is_refused():
    data = _file()
    data["zones"] = data["zones"] * 2
    with pytest.raises(ValueError, match=r"names a zone twice \(\['fields-1'\]\)"):
        TableZones.from_json(data)


def test_the_layout_fits_three_columns_of_twelve_cards():
    card_w, card_h, step = 5.6 / 4, 8.7 / 4, 1.5 / 4
    assert LAYOUT.fields.right - LAYOUT.fields.left >= 3 * card_w + 2 * 0.25
    assert LAYOUT.fields.far - 1.0 >= card_h + 11 * step


def test_markers_command_writes_a_sheet_of_readable_markers(tmp_path, capsys):
    out = tmp_path / "markers.png"
    code = main(["vision", "markers", str(out), "--seats", "4", "--dpi", "150"])
    stdout, err = capsys.readouterr()
    assert code == 0 and err == "" and f"wrote {out}" in stdout
    assert b"pHYs" in out.read_bytes()[:64]
    sheet = cv2.imread(str(out))
    assert sheet.shape[:2] == (1754, 1240)
    markers = find_markers(sheet)
    assert set(markers) == {0, 1, 2, 3, 10, 11, 12, 13, 20, 21}
    assert all(abs(np.linalg.norm(c[1] - c[0]) - 4 / 2.54 * 150) < 3 for c in markers.values())


@pytest.mark.parametrize(("argv", "message"), [
    (["{tmp}/no/such/dir/markers.png"], "cannot write the marker sheet"),
    (["{tmp}/markers.pdf"], "give a path ending in .png"),
    (["{tmp}/markers.png", "--seats", "7"], "7 seats: the markers are for 1 to 6 players"),
    (["{tmp}/markers.png", "--dpi", "20"], "20 dpi: print the sheet at 72 to 600 dpi"),
])
def test_markers_command_refuses_bad_input(tmp_path, capsys, argv, message):
    code = main(["vision", "markers", *(a.format(tmp=tmp_path) for a in argv)])
    out, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in out + err
    assert err.startswith("error: ") and message in err
    assert not (tmp_path / "markers.png").exists()
