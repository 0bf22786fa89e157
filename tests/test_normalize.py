"""The normalizer, rule by rule, on hand-made layouts turned on the table and seen through a tilted camera."""

from __future__ import annotations

import numpy as np
import pytest

from normalize_layouts import detections, photograph, tile_polygons
from scoring.hand import HandError
from scoring.tiles import BACK, CLASS_NAMES, FLOWER, format_compact, kind_of, parse_tiles
from vision.detections import Detections
from vision.normalize import ReadOptions, read_hand
from vision.normalize.geometry import Frame, aspect_along_row, cut_by_frame, row_directions
from vision.normalize.melds import split_into_melds, type_group
from vision.normalize.rows import fit_rows, local_reference, split_by_gaps

P = CLASS_NAMES.index("P")
C = CLASS_NAMES.index("C")
B = BACK


def melds_of(read) -> list[tuple[str, str]]:
    return sorted((m.type.value, format_compact(m.tiles)) for m in read.melds)


def read(rows, options=None, **camera):
    return read_hand(detections(rows, **camera), (1000, 800), options)


# --- geometry rules ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("angle", [0.0, 12.0, -30.0, 55.0, 90.0, 135.0, 179.0])
def test_row_direction_follows_the_layout_rotation(angle):
    corners, _ = tile_polygons(["1m 2m 3m 4m 5m 6m 7m 8m 9m", "1p 2p 3p | 4p 5p 6p"])
    boxes = photograph(corners, rotate_deg=angle)
    found = np.degrees(row_directions((boxes[:, :2] + boxes[:, 2:]) / 2)[0])
    assert abs((found - angle + 90) % 180 - 90) < 3


@pytest.mark.parametrize("angle, tilt", [(0, 0), (20, 35), (-40, 45), (90, 20)])
def test_rows_are_fitted_as_lines_not_bands(angle, tilt):
    corners, _ = tile_polygons(["1p 2p 3p | 4p 5p 6p | 7p 8p 9p", "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s"])
    boxes = photograph(corners, rotate_deg=angle, tilt_deg=tilt)
    centers = (boxes[:, :2] + boxes[:, 2:]) / 2
    xy = Frame(row_directions(centers)[0]).to_frame(centers)
    size = np.sqrt(np.prod(boxes[:, 2:] - boxes[:, :2], axis=1))
    rows = fit_rows(xy, 0.4 * size)
    assert sorted(len(r.members) for r in rows) == [9, 13]
    assert {frozenset(r.members) for r in rows} == {frozenset(range(9)), frozenset(range(9, 22))}


def test_split_by_gaps_cuts_only_where_the_limit_is_passed():
    spacings = np.array([1.0, 1.0, 1.6, 1.0, 1.4])
    assert split_by_gaps((0, 1, 2, 3, 4, 5), spacings, np.full(5, 1.3)) == [[0, 1, 2], [3, 4], [5]]


@pytest.mark.parametrize(
    "spacings, groups",
    [
        ([0.75, 0.78], [[0, 1, 2]]),  # a far row's chow: its boxes are flatter, so its spacing is wider in tile sizes
        ([0.58, 0.95], [[0, 1], [2]]),  # a tile set apart at the end of a short row
        ([0.95, 0.58], [[0], [1, 2]]),
        ([0.60, 0.62, 0.95, 0.60, 0.61], [[0, 1, 2], [3, 4, 5]]),
    ],
)
def test_a_short_row_is_split_against_its_own_spacing(spacings, groups):
    spacing = np.array(spacings)
    limits = local_reference(spacing, 0.577) * 1.25
    assert split_by_gaps(tuple(range(len(spacing) + 1)), spacing, limits) == groups


def test_a_gap_beside_a_sideways_tile_nobody_can_see_still_splits():
    # A row of melds at a 40 degree roll: boxes are near square, so the claimed tile of the last chow is not seen
    # sideways and its longer spacing (0.699) sits beside the gap (0.839) between the chow and the concealed tile.
    spacing = np.array([0.692, 0.699, 0.842, 0.695, 0.699, 0.835, 0.594, 0.595, 0.941, 0.699, 0.596, 0.839, 0.999])
    limits = local_reference(spacing, 0.694) * 1.25
    groups = split_by_gaps(tuple(range(14)), spacing, limits)
    assert groups[-3:] == [[9, 10, 11], [12], [13]]


def test_a_claimed_tile_is_read_sideways():
    hand = read(["^2p 2p 2p | 4s ^5s 6s", "1m 2m 3m 4m 5m 6m 7m | 9p"])
    sideways = [t.cls for t in hand.tiles if t.sideways]
    assert sorted(sideways) == ["2p", "5s"]


@pytest.mark.parametrize(
    "aspects, sideways",
    [
        ([56, 54, 52, 50, 48, 46, 44, 42], []),  # perspective shears the boxes along a long row: none is sideways
        ([56, 54, 30, 50, 48, 46, 44, 42], [2]),
        ([40, 40, 40, 40, 40, 62, 40], [5]),
    ],
)
def test_sideways_is_judged_against_the_aspect_along_the_row(aspects, sideways):
    x = np.arange(len(aspects), dtype=float) * 30
    aspect = np.array(aspects, dtype=float)
    reference = aspect_along_row(x, aspect, 8.0, x)
    assert list(np.flatnonzero(np.abs(aspect - reference) > 8.0)) == sideways


def test_boxes_cut_by_the_frame_are_known():
    boxes = np.array([[0, 10, 30, 50], [100, 100, 130, 140], [970, 10, 1000, 50], [500, 770, 530, 800]], float)
    assert list(cut_by_frame(boxes, (1000, 800))) == [True, False, True, True]


# --- meld typing ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "tiles, meld_type, kind, code",
    [
        ("5p 5p 5p", "pung", "5p", None),
        ("3s 5s 4s", "chow", "3s", None),
        ("C C C C", "kong_exposed", "C", "kong_type_assumed"),
        ("# C C #", "kong_concealed", "C", None),
        ("C # # C", "kong_concealed", "C", None),
        ("# P P #", "kong_concealed", "P", None),  # blank 白 between backs
        ("# P # #", "kong_concealed", "P", None),  # a back between 白 faces is a 白 by position
        ("P 9s 9s #", "kong_concealed", "9s", None),  # a 白 where a back lies is a back by position
        ("# 9s 9s 9s", "kong_concealed", "9s", "kong_face_down_count"),
        ("1m 3m 5m", None, None, "not_a_meld"),
        ("5p 5p #", None, None, "face_down_outside_kong"),
        ("1z 1z 1z 2z", None, None, "not_a_meld"),
    ],
)
def test_type_group(tiles, meld_type, kind, code):
    classes = [B if t == "#" else kind_of(t) for t in tiles.split()]
    reading = type_group(classes, "kong_exposed")
    assert reading.code == code
    if meld_type is None:
        assert reading.meld is None
    else:
        assert reading.meld.type.value == meld_type and reading.meld.kind == kind_of(kind)


def test_four_backs_need_the_kind_named():
    reading = type_group([B, B, B, B], "kong_exposed")
    assert reading.meld is None and reading.needs_kind and reading.code == "kong_kind_unknown"
    named = type_group([B, B, B, B], "kong_exposed", named_kind=C)
    assert named.meld.type.value == "kong_concealed" and named.meld.kind == C


@pytest.mark.parametrize(
    "tiles, cuts",
    [("2p 2p 2p 4s 5s 6s", [(0, 3), (3, 6)]), ("# C C # 7m 7m 7m", [(0, 4), (4, 7)]), ("1m 2m 4m 5m 7m 9m", None)],
)
def test_touching_melds_are_cut_apart(tiles, cuts):
    classes = [B if t == "#" else kind_of(t) for t in tiles.split()]
    assert split_into_melds(classes, "kong_exposed") == cuts


# --- whole layouts -------------------------------------------------------------------------------------------------
CAMERAS = [
    {},
    {"rotate_deg": 15, "tilt_deg": 30},
    {"rotate_deg": -35, "tilt_deg": 20, "jitter": 1.0},
    {"rotate_deg": 90, "tilt_deg": 40},
    {"rotate_deg": 178, "tilt_deg": 10},
]
LAYOUTS = [
    # rows (top = far from the camera), concealed (no winning tile), melds, winning tile
    (["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 5s | 5s"], "123456789m11p55s", [], "5s"),
    (["^2p 2p 2p | 4s ^5s 6s", "1m 2m 3m 4m 5m 6m 7m | 9p"], "1234567m", [("chow", "456s"), ("pung", "222p")], "9p"),
    (["1m 2m 3m 4m 5m 6m 7m | 9p | ^2p 2p 2p | # C C #"], "1234567m", [("kong_concealed", "5555z"), ("pung", "222p")], "9p"),
    (["3s 3s ^3s | 7p ^8p 9p", "^1m 1m 1m 1m", "E E E 9p | 9p"],  # two rows of melds above the hand
     "9p111z", [("chow", "789p"), ("kong_exposed", "1111m"), ("pung", "333s")], "9p"),
    (["# W W # | # 8m 8m #", "1s 2s 3s 4s 5s 6s 7s | 9s"],  # 16 tiles: two concealed kongs
     "1234567s", [("kong_concealed", "3333z"), ("kong_concealed", "8888m")], "9s"),
]


@pytest.mark.parametrize("camera", CAMERAS, ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()) or "flat")
@pytest.mark.parametrize("rows, concealed, melds, win", LAYOUTS, ids=range(len(LAYOUTS)))
def test_layouts_read_right_under_rotation_and_perspective(rows, concealed, melds, win, camera):
    hand = read(rows, **camera)
    assert (format_compact(hand.concealed), melds_of(hand), format_compact([hand.win_tile])) == (concealed, melds, win)
    assert not {"wrong_tile_count", "not_a_meld", "too_many_copies"} & set(hand.warning_codes)
    hand.to_hand()  # the scorer takes it


def test_melds_in_line_with_the_hand_on_both_sides():
    hand = read(["# 5p 5p # | 1m 2m 3m 4m 5m 6m 7m | 9p | ^E E E"], rotate_deg=10, tilt_deg=25)
    assert melds_of(hand) == [("kong_concealed", "5555p"), ("pung", "111z")]
    assert format_compact(hand.concealed) == "1234567m" and hand.win_tile == kind_of("9p")


def test_a_tile_knocked_askew_stays_in_the_hand():
    hand = read(["1m 2m 3m 4m ~5m 6m 7m 8m 9m 1p 1p 5s 5s | 5s"], rotate_deg=8, tilt_deg=20)
    assert format_compact(hand.concealed) == "123456789m11p55s" and hand.win_tile == kind_of("5s")


def test_added_kong_with_its_fourth_tile_on_the_claimed_one():
    corners, classes = tile_polygons(["1m 2m 3m 4m 5m 6m 7m | 9p | 3p ^3p 3p"])
    # the fourth 3p lies on the far side of the sideways one, touching it
    claimed = corners[-2]
    on_top = claimed - [0.0, np.ptp(claimed[:, 1])]
    corners = np.concatenate([corners, on_top[None]])
    classes = np.append(classes, kind_of("3p"))
    boxes = photograph(corners, rotate_deg=12, tilt_deg=25)
    hand = read_hand(Detections(boxes, np.full(len(classes), 0.9), classes), (1000, 800))
    assert melds_of(hand) == [("kong_added", "3333p")]
    assert "kong_type_assumed" not in hand.warning_codes


@pytest.mark.parametrize("rotate_deg", [0, 150, 180, -160])
def test_melds_beyond_the_row_tell_which_way_is_the_players_right(rotate_deg):
    # No tile set apart: the winning tile is the player's right-most, which an upside-down photo shows on the left.
    hand = read(["^2p 2p 2p | 4s ^5s 6s", "1m 2m 3m 4m 5m 6m 7m 9m"], rotate_deg=rotate_deg, tilt_deg=10)
    assert (format_compact(hand.concealed), format_compact([hand.win_tile])) == ("1234567m", "9m")
    assert melds_of(hand) == [("chow", "456s"), ("pung", "222p")]


def test_the_winning_tile_is_the_last_one_when_none_is_set_apart():
    hand = read(["^2p 2p 2p", "1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m"])
    assert hand.win_tile == kind_of("9m") and format_compact(hand.concealed) == "1234567899m"
    assert "win_tile_not_set_apart" in hand.warning_codes


def test_a_thirteen_tile_photo_has_no_winning_tile():
    hand = read(["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 5s"])
    assert hand.win_tile is None and len(hand.concealed) == 13
    assert "no_win_tile" in hand.warning_codes and "wrong_tile_count" not in hand.warning_codes
    assert hand.to_hand().win_tile is None


def test_discards_far_from_the_hand_are_ignored():
    rows = ["1p 4s 9m 2z 7s 3m", "", "", "^2p 2p 2p", "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s | 1s"]
    hand = read([r for r in rows], row_gap=1.0)
    assert format_compact(hand.concealed) == "123456789m1s" and melds_of(hand) == [("pung", "222p")]
    assert "far_from_hand" in hand.warning_codes


@pytest.mark.parametrize("camera", [{}, {"rotate_deg": 10, "tilt_deg": 25}, {"rotate_deg": -30, "tilt_deg": 40}])
def test_a_row_of_discards_with_the_right_count_does_not_beat_a_winning_tile_set_apart(camera):
    # Five discards make a 4-tile row plus a winning tile taken from it; the hand's own row has its winning tile set
    # apart, as the convention asks, and is the one read.
    hand = read(["7p 5m 7m 7m 3p", "4p 4p 4p | 7z 7z 7z | 9p 9p 9p | 7p 6z 6z 7p | 6z"], indent=[3.0, 0.0],
                row_gap=1.0, **camera)
    assert (format_compact(hand.concealed), format_compact([hand.win_tile])) == ("77p66z", "6z")
    assert melds_of(hand) == [("pung", "444p"), ("pung", "777z"), ("pung", "999p")]
    assert "win_tile_not_set_apart" not in hand.warning_codes


@pytest.mark.parametrize("heap", ["# # S #", "# S # #", "# 5p # #"])
@pytest.mark.parametrize("camera", [{}, {"rotate_deg": 15, "tilt_deg": 30}])
def test_a_kong_with_one_or_three_backs_gives_way_to_a_four_back_kong(heap, camera):
    # A heap of loose tiles beyond the hand reads as a kong showing three backs; the hand's own four-back kong is
    # the meld the count asks for.
    hand = read([heap, "^3s 3s 3s | 6m 7m 8m | # # # # | 2p 2p 3s 5s | 4s"], row_gap=1.0, **camera)
    assert (format_compact(hand.concealed), format_compact([hand.win_tile])) == ("22p35s", "4s")
    assert melds_of(hand) == [("chow", "678m"), ("pung", "333s")] and "kong_kind_unknown" in hand.warning_codes


@pytest.mark.parametrize("grid_turn", [90.0, 80.0])
@pytest.mark.parametrize("camera", [{}, {"rotate_deg": 20, "tilt_deg": 40}, {"rotate_deg": -35, "tilt_deg": 30}])
def test_a_turned_grid_of_discards_does_not_set_the_row_direction(grid_turn, camera):
    # Another player's discards, turned toward their seat, outnumber the hand's tiles: the hand's direction is the
    # one with the longest row.
    hand, hand_classes = tile_polygons(["1m 4m 7m 2p 5p 8p 3s 6s 9s 1z 2z 3z 4z | 5z"])
    grid, grid_classes = tile_polygons(["1p 2p 3p 4p 5p 6p 7p", "1s 2s 3s 4s 5s 6s 7s", "8m 9m 8m 9m 8m 9m 8m"],
                                       row_gap=0.0)
    t = np.radians(grid_turn)
    middle = grid.reshape(-1, 2).mean(axis=0)
    grid = (grid - middle) @ np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]).T + [200.0, -250.0]
    corners = np.concatenate([hand, grid])
    classes = np.concatenate([hand_classes, grid_classes])
    read = read_hand(Detections(photograph(corners, **camera), np.full(len(classes), 0.95), classes), (1000, 800))
    assert (format_compact(read.concealed), format_compact([read.win_tile])) == ("147m258p369s1234z", "5z")


@pytest.mark.parametrize("camera", [{}, {"rotate_deg": 10, "tilt_deg": 25}, {"rotate_deg": -30, "tilt_deg": 40}])
def test_the_place_of_an_ignored_flower_is_no_gap(camera):
    # A flower among the discards leaves a hole once it is ignored; the tile beyond it is not set apart, so the
    # discards do not make a 4-tile row with its winning tile, and the hand (winning tile not set apart) is read.
    corners, classes = tile_polygons(["7m 1m 3p 1p 9s 2m", "1p 2p 3p | 5p 6p 7p | 4s 4s 4s 4s | 7p 9p 9p 9p 7p"],
                                     row_gap=1.0)
    classes[4] = FLOWER
    hand = read_hand(Detections(photograph(corners, **camera), np.full(len(classes), 0.95), classes), (1000, 800))
    assert (format_compact(hand.concealed), format_compact([hand.win_tile])) == ("7999p", "7p")
    assert melds_of(hand) == [("chow", "123p"), ("chow", "567p"), ("kong_exposed", "4444s")]


# --- options: what the photo cannot tell, the user switches -------------------------------------------------------
FACE_UP_KONG = ["^2p 2p 2p 2p", "1m 2m 3m 4m 5m 6m 7m | 9p"]


def test_face_up_kong_default_is_exposed_with_a_warning():
    hand = read(FACE_UP_KONG)
    assert melds_of(hand) == [("kong_exposed", "2222p")] and "kong_type_assumed" in hand.warning_codes


@pytest.mark.parametrize(
    "options", [ReadOptions(face_up_kong="kong_added"), ReadOptions(meld_types={0: "kong_added"})]
)
def test_face_up_kong_can_be_switched(options):
    hand = read(FACE_UP_KONG, options)
    assert melds_of(hand) == [("kong_added", "2222p")]


def test_a_wrong_meld_type_switch_is_a_warning():
    hand = read(FACE_UP_KONG, ReadOptions(meld_types={0: "chow"}))
    assert melds_of(hand) == [("kong_exposed", "2222p")] and "meld_type_rejected" in hand.warning_codes


def test_a_meld_type_switch_for_a_meld_not_shown_is_a_warning():
    hand = read(FACE_UP_KONG, ReadOptions(meld_types={3: "kong_added"}))
    assert melds_of(hand) == [("kong_exposed", "2222p")]
    assert [w.message for w in hand.warnings if w.code == "meld_type_rejected"] == [
        "meld 3: no such meld (the photo shows 1)"]


def test_four_backs_need_a_named_kind_to_score():
    rows = ["# # # # | ^E E E", "1m 2m 3m 4m 5m 6m 9p | 9p"]
    unnamed = read(rows)
    assert unnamed.unresolved_kongs == 1 and "kong_kind_unknown" in unnamed.warning_codes
    with pytest.raises(HandError) as err:
        unnamed.to_hand()
    assert err.value.code == "kong_kind_unknown"
    named = read(rows, ReadOptions(concealed_kong_kinds=["C"]))
    assert melds_of(named) == [("kong_concealed", "5555z"), ("pung", "111z")]
    named.to_hand()


@pytest.mark.parametrize(
    "options, concealed, win",
    [
        (ReadOptions(), "123456789m11p55s", "5s"),
        (ReadOptions(win_tile="none"), "123456789m11p555s", None),
        (ReadOptions(win_tile_kind="1p"), "123456789m1p555s", "1p"),
    ],
)
def test_winning_tile_convention_is_overridable(options, concealed, win):
    hand = read(["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 5s | 5s"], options)
    assert format_compact(hand.concealed) == concealed
    assert hand.win_tile == (kind_of(win) if win else None)


@pytest.mark.parametrize(
    "options, win, message",
    [
        (ReadOptions(win_tile_kind="7p"), "5s", "the named winning tile 7p is not among the concealed tiles: 5s was "
                                                "taken as the winning tile, as the layout shows it"),
        (ReadOptions(win_tile="none", win_tile_kind="7p"), None,
         "the named winning tile 7p is not among the concealed tiles: no winning tile was taken"),
    ],
)
def test_a_named_winning_tile_that_is_not_there_says_which_was_taken(options, win, message):
    hand = read(["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 5s | 5s"], options)
    assert hand.win_tile == (kind_of(win) if win else None)
    assert [w.message for w in hand.warnings if w.code == "win_tile_not_found"] == [message]


# --- warnings as data, never a crash -------------------------------------------------------------------------------
def test_wrong_tile_count_is_a_warning():
    hand = read(["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p | 5s"])
    assert "wrong_tile_count" in hand.warning_codes


def test_wrong_tile_count_of_a_thirteen_tile_hand_counts_no_winning_tile():
    hand = read(["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 5s 5s"], ReadOptions(win_tile="none"))
    [message] = [w.message for w in hand.warnings if w.code == "wrong_tile_count"]
    assert message == ("14 tiles read with 0 meld(s) and 0 kong(s): a 13-tile hand has 13 (13 concealed; "
                       "14 concealed read)")


def test_more_than_four_copies_is_a_warning():
    hand = read(["1m 1m 1m 1m 1m 6m 7m 8m 9m 1p 1p 5s 5s | 5s"])
    assert "too_many_copies" in hand.warning_codes


def test_low_confidence_tiles_are_flagged():
    dets = detections(["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 5s | 5s"])
    conf = dets.confidence.copy()
    conf[3] = 0.3
    hand = read_hand(Detections(dets.xyxy, conf, dets.class_id), (1000, 800))
    low = [w for w in hand.warnings if w.code == "low_confidence"]
    assert low and low[0].tiles == (3,)
    assert hand.tiles[3].conf == pytest.approx(0.3)


def test_duplicate_boxes_and_flowers_are_dropped():
    dets = detections(["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 5s | 5s"])
    extra = Detections(dets.xyxy[[2]] + 1.5, [0.6], [kind_of("4m")])
    flower = Detections([[5, 5, 40, 50]], [0.9], [CLASS_NAMES.index("flower")])
    merged = Detections(
        np.concatenate([dets.xyxy, extra.xyxy, flower.xyxy]),
        np.concatenate([dets.confidence, extra.confidence, flower.confidence]),
        np.concatenate([dets.class_id, extra.class_id, flower.class_id]),
    )
    hand = read_hand(merged, (1000, 800))
    assert format_compact(hand.concealed) == "123456789m11p55s"
    assert {"duplicate_removed", "flower_ignored"} <= set(hand.warning_codes)
    assert hand.tiles[14].group == "ignored" and hand.tiles[15].group == "ignored"


@pytest.mark.parametrize("seed", range(25))
def test_random_boxes_never_crash(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 30))
    xy = rng.uniform(0, 900, (n, 2))
    wh = rng.uniform(1, 80, (n, 2))
    dets = Detections(np.c_[xy, xy + wh], rng.uniform(0, 1, n), rng.integers(0, 36, n))
    hand = read_hand(dets, (1000, 1000))
    data = hand.to_json()
    assert set(data) == {"concealed", "melds", "win_tile", "tiles", "warnings"}
    assert len(data["tiles"]) == n
    parse_tiles(data["concealed"], check_copies=False)


def test_no_tiles_is_a_warning():
    hand = read_hand(Detections.empty(), (640, 480))
    assert hand.concealed == [] and hand.warning_codes == ["no_tiles"]


def test_to_json_schema():
    hand = read(["^2p 2p 2p | 4s ^5s 6s", "1m 2m 3m 4m 5m 6m 7m | 9p"])
    data = hand.to_json()
    assert data["concealed"] == "1234567m" and data["win_tile"] == "9p"
    assert {"type": "pung", "tiles": "222p"} in data["melds"]
    groups = [t["group"] for t in data["tiles"]]
    assert groups.count("concealed") == 7 and groups.count("win") == 1 and groups.count("meld") == 6
    assert all(set(t) >= {"cls", "conf", "box", "group"} for t in data["tiles"])
