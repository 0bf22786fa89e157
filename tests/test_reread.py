"""Re-reading a hand that does not win (vision.normalize.reread) and the reader's use of it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from normalize_layouts import detections
from scoring.hand import Meld, MeldType
from scoring.tiles import CLASS_NAMES, format_compact, kind_of, parse_tiles
from vision.detections import Detections
from vision.normalize import ReadOptions, read_hand
from vision.normalize.reread import (
    MIN_PROBABILITY,
    Option,
    Unit,
    best_winning_reading,
    cheapest_meld,
    likely_choices,
    meld_options,
    tile_options,
)


def probs_for(kind: int, others: dict[int, float] | None = None, top: float = 0.9) -> np.ndarray:
    """A class-probability row: ``top`` on ``kind``, ``others`` on their kinds, the rest spread thinly."""
    row = np.zeros(len(CLASS_NAMES), np.float32)
    row[kind] = top
    for other, p in (others or {}).items():
        row[other] = p
    rest = 1 - row.sum()
    row[row == 0] = rest / np.count_nonzero(row == 0)
    return row


def units_of(tiles: str, options: dict[int, list[tuple[str, float]]] | None = None) -> list[Unit]:
    """Concealed-tile units; ``options`` gives tile position -> [(kind name, cost)]."""
    return [
        Unit(kind, tuple(Option(kind_of(name), cost) for name, cost in (options or {}).get(i, [])))
        for i, kind in enumerate(parse_tiles(tiles, check_copies=False))
    ]


# --- the search ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "tiles, options, max_changes, expected",
    [
        # already wins: nothing to change
        ("123456789m11p555s", {0: [("4m", 0.1)]}, 2, {}),
        # 1m read as 2m: its runner-up makes the hand win
        ("223456789m11p555s", {0: [("1m", 1.2), ("3m", 0.3)]}, 2, {0: "1m"}),
        # two tiles misread: both re-read
        ("223456789m12p555s", {0: [("1m", 1.0)], 10: [("1p", 0.8)]}, 2, {0: "1m", 10: "1p"}),
        # ... but not when one change is allowed
        ("223456789m12p555s", {0: [("1m", 1.0)], 10: [("1p", 0.8)]}, 1, None),
        # two ways to win: the cheaper one
        ("123456789m12p555s", {10: [("1p", 2.0)], 9: [("2p", 0.5)]}, 2, {9: "2p"}),
        # no option makes it win
        ("123456789m13p555s", {10: [("4p", 0.1)]}, 2, None),
        # seven pairs count as a win
        ("1133557799m1134p", {13: [("3p", 0.4)]}, 2, {13: "3p"}),
        # five 5s complete the shape, but a set has four: no hand, and nothing to re-read
        ("123456789m55555s", {}, 2, None),
    ],
)
def test_the_cheapest_winning_reading_is_found(tiles, options, max_changes, expected):
    units = units_of(tiles, options)
    found = best_winning_reading(units, [], max_changes)
    if expected is None:
        assert found is None
    else:
        assert {i: CLASS_NAMES[o.kind] for i, o in found.items()} == expected


def test_a_pung_changes_kind_as_one_unit():
    # pung read as 2p, the pair is 2p too: five 2p; the pung's faces say 3p is close
    melds = [Meld(MeldType.PUNG, (kind_of("2p"),) * 3)]
    units = units_of("123456789m2p2p") + [Unit(kind_of("2p"), (Option(kind_of("3p"), 1.5),), meld=0)]
    found = best_winning_reading(units, melds, 1)
    assert found == {11: Option(kind_of("3p"), 1.5)}


def test_a_wrong_tile_count_is_not_re_read():
    assert best_winning_reading(units_of("23456789m11p555s", {0: [("1m", 0.1)]}), [], 3) is None


def test_options_need_the_minimum_probability_and_come_cheapest_first():
    row = probs_for(kind_of("3m"), {kind_of("2m"): 0.05, kind_of("5m"): 0.03, kind_of("9s"): MIN_PROBABILITY / 2}, top=0.8)
    options = tile_options(row, kind_of("3m"))
    assert [CLASS_NAMES[o.kind] for o in options] == ["2m", "5m"]
    assert options[0].cost == pytest.approx(math.log(0.8 / 0.05), rel=1e-4)
    assert all(o.kind < 34 for o in tile_options(probs_for(kind_of("P"), {CLASS_NAMES.index("back"): 0.1}), kind_of("P")))


def test_a_meld_option_costs_the_sum_over_its_faces_and_needs_every_face_to_allow_it():
    two, three, four = kind_of("2p"), kind_of("3p"), kind_of("4p")
    faces = np.stack([probs_for(two, {three: 0.2, four: 0.05}, 0.7), probs_for(two, {three: 0.3}, 0.6)])
    options = meld_options(faces, two)
    assert [o.kind for o in options] == [three]  # 4p is below the minimum on the second face
    assert options[0].cost == pytest.approx(math.log(0.7 / 0.2) + math.log(0.6 / 0.3), rel=1e-4)


# --- in the reader -------------------------------------------------------------------------------------------------
def with_probs(dets: Detections, rows: dict[int, np.ndarray]) -> Detections:
    """The detections with class probabilities: confident rows, except the given ones (their argmax becomes the
    detection's class)."""
    probs = np.stack([rows.get(i, probs_for(int(c))) for i, c in enumerate(dets.class_id)])
    return Detections(dets.xyxy, dets.confidence, probs.argmax(1), probs)


ROW = ["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 5s | 5s"]


def test_the_reader_re_reads_a_misread_tile_and_says_so():
    truth = detections(ROW)
    misread = with_probs(truth, {1: probs_for(kind_of("3m"), {kind_of("2m"): 0.3}, top=0.6)})  # 2m read as 3m
    assert CLASS_NAMES[misread.class_id[1]] == "3m"
    read = read_hand(misread, (1000, 800))
    assert format_compact(read.concealed) == "123456789m11p55s" and CLASS_NAMES[read.win_tile] == "5s"
    warning = next(w for w in read.warnings if w.code == "reread_to_win")
    assert warning.tiles == (1,) and "3m as 2m" in warning.message
    assert read.tiles[1].cls == "2m" and read.tiles[1].to_json()["detected_cls"] == "3m"
    assert read.tiles[1].conf == pytest.approx(0.95 * 0.3 / 0.6, rel=1e-3)  # confidence scaled by p(2m) / p(3m)
    assert read.tiles[1].to_json()["detected_conf"] == pytest.approx(0.95)  # what the detector said, kept
    assert "low_confidence" in read.warning_codes


def test_re_reading_can_be_turned_off():
    misread = with_probs(detections(ROW), {1: probs_for(kind_of("3m"), {kind_of("2m"): 0.3}, top=0.6)})
    read = read_hand(misread, (1000, 800), ReadOptions(reread_tiles=0))
    assert format_compact(read.concealed) == "133456789m11p55s"
    assert "reread_to_win" not in read.warning_codes


def test_without_class_probabilities_the_reading_stays():
    dets = detections(["1m 3m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 5s | 5s"])
    read = read_hand(dets, (1000, 800))
    assert format_compact(read.concealed) == "133456789m11p55s" and "reread_to_win" not in read.warning_codes


def test_a_hand_that_wins_is_never_re_read():
    # the runner-up of 1m would also make a win (a 1m-2m-3m run ... 2m 2m), but the hand as read already wins
    dets = with_probs(detections(ROW), {0: probs_for(kind_of("1m"), {kind_of("4m"): 0.4}, top=0.5)})
    read = read_hand(dets, (1000, 800))
    assert format_compact(read.concealed) == "123456789m11p55s" and "reread_to_win" not in read.warning_codes


def test_the_reader_re_reads_a_pung_whose_kind_makes_a_fifth_copy():
    rows = ["^2p 2p 2p", "1m 2m 3m 4m 5m 6m 7m 8m 9m 2p | 2p"]  # the pung is 3p, read as 2p (five 2p)
    dets = detections(rows)
    three = {kind_of("3p"): 0.35}
    misread = with_probs(dets, {i: probs_for(kind_of("2p"), three, top=0.55) for i in range(3)})
    read = read_hand(misread, (1000, 800))
    assert [(m.type.value, format_compact(m.tiles)) for m in read.melds] == [("pung", "333p")]
    assert format_compact(read.concealed) == "123456789m2p" and CLASS_NAMES[read.win_tile] == "2p"
    warning = next(w for w in read.warnings if w.code == "reread_to_win")
    assert sorted(warning.tiles) == [0, 1, 2] and "pung 2p as 3p" in warning.message


@pytest.mark.parametrize("named, win, reread", [(None, "1p", True), ("4p", "4p", False)])
def test_a_named_winning_tile_keeps_its_kind(named, win, reread):
    # the tile set apart reads 4p, 1p a close second: only re-reading it makes the hand win
    dets = with_probs(
        detections(["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 5s 5s 5s | 4p"]),
        {13: probs_for(kind_of("4p"), {kind_of("1p"): 0.4}, top=0.5)},
    )
    read = read_hand(dets, (1000, 800), ReadOptions(win_tile_kind=named))
    assert CLASS_NAMES[read.win_tile] == win
    assert ("reread_to_win" in read.warning_codes) is reread


def test_class_probabilities_are_checked_and_carried_by_selection():
    dets = with_probs(detections(ROW), {})
    assert dets[[0, 2]].class_probs.shape == (2, len(CLASS_NAMES))
    with pytest.raises(ValueError, match="class_probs"):
        Detections(dets.xyxy, dets.confidence, dets.class_id, dets.class_probs[:3])
    with pytest.raises(ValueError, match="class_probs"):
        Detections(dets.xyxy, dets.confidence, dets.class_id, dets.class_probs * 2)


def test_a_blank_white_read_as_a_back_in_the_row_is_re_read():
    # the pair of 白: the one in the concealed row read as a face-down tile (P its second choice)
    back = CLASS_NAMES.index("back")
    dets = with_probs(
        detections(["P 1m 2m 3m 4m 5m 6m 7m 8m 9m 5s 5s 5s | P"]),
        {0: probs_for(back, {kind_of("P"): 0.3}, top=0.65)},
    )
    read = read_hand(dets, (1000, 800))
    assert format_compact(read.concealed) == "123456789m555s7z" and CLASS_NAMES[read.win_tile] == "P"
    assert "face_down_outside_kong" not in read.warning_codes and "reread_to_win" in read.warning_codes
    assert read.tiles[0].cls == "P" and read.tiles[0].detected_cls == "back"
    # without re-reading (or without a face to re-read it as) the back is left out, as before
    for options, row in ((ReadOptions(reread_tiles=0), None), (None, probs_for(back, top=0.99))):
        dets_now = dets if row is None else with_probs(dets, {0: row})
        read = read_hand(dets_now, (1000, 800), options)
        assert "face_down_outside_kong" in read.warning_codes and "reread_to_win" not in read.warning_codes
        assert read.tiles[0].cls == "back" and format_compact(read.concealed) == "123456789m555s"


def test_a_back_must_change_and_counts_as_one_of_the_changes():
    units = units_of("123456789m555s7z") + [Unit(CLASS_NAMES.index("back"), (Option(kind_of("P"), 0.8),))]
    assert best_winning_reading(units, [], 2) == {13: Option(kind_of("P"), 0.8)}
    assert best_winning_reading(units[:-1] + [Unit(CLASS_NAMES.index("back"), ())], [], 2) is None


# --- a group that types as no meld -----------------------------------------------------------------------------------
def rows_for(tiles: list[str], second: dict[int, tuple[str, float]] | None = None) -> tuple[np.ndarray, list[int]]:
    """Probability rows for tiles read as ``tiles``; ``second`` gives position -> (runner-up, its probability)."""
    back = CLASS_NAMES.index("back")
    classes = [back if t == "#" else kind_of(t) for t in tiles]
    rows = []
    for i, kind in enumerate(classes):
        if i in (second or {}):
            name, p = second[i]
            rows.append(probs_for(kind, {kind_of(name): p}, top=0.6))
        else:
            rows.append(probs_for(kind))
    return np.stack(rows), classes


@pytest.mark.parametrize(
    "tiles, second, expected",
    [
        (["2p", "2p", "3p"], {2: ("2p", 0.3)}, ["2p", "2p", "2p"]),  # a pung with one tile misread
        (["3m", "4m", "6m"], {2: ("5m", 0.3)}, ["3m", "4m", "5m"]),  # a chow
        (["4m", "3m", "6m"], {2: ("5m", 0.3)}, ["4m", "3m", "5m"]),  # a chow with its claimed tile first
        (["#", "5s", "6s", "#"], {2: ("5s", 0.3)}, ["back", "5s", "5s", "back"]),  # a concealed kong
        (["E", "E", "S", "E"], {2: ("E", 0.3)}, ["E", "E", "E", "E"]),  # an exposed kong
        (["2p", "2p", "3p"], {}, None),  # no plausible reading: 2p is under the minimum for the third tile
        (["2p", "#", "2p"], {}, None),  # face down outside a kong
    ],
)
def test_the_cheapest_meld_reading_of_a_group(tiles, second, expected):
    rows, classes = rows_for(tiles, second)
    found = cheapest_meld(rows, classes)
    if expected is None:
        assert found is None
    else:
        assert [CLASS_NAMES[c] for c in found[0]] == expected
        assert found[1] == pytest.approx(math.log(0.6 / 0.3), rel=1e-4)


def test_the_reader_re_reads_a_meld_with_a_misread_tile_before_planning_the_hand():
    rows = ["^2p 2p 3p", "1m 2m 3m 4m 5m 6m 7m 8m 9m 5s | 5s"]  # the pung is 2p, its last tile read as 3p
    misread = with_probs(detections(rows), {2: probs_for(kind_of("3p"), {kind_of("2p"): 0.3}, top=0.6)})
    read = read_hand(misread, (1000, 800))
    assert [(m.type.value, format_compact(m.tiles)) for m in read.melds] == [("pung", "222p")]
    assert format_compact(read.concealed) == "123456789m5s" and CLASS_NAMES[read.win_tile] == "5s"
    warning = next(w for w in read.warnings if w.code == "meld_reread")
    assert warning.tiles == (2,) and warning.message.startswith("2p 2p 3p was no meld as read; re-read 3p as 2p")
    plain = read_hand(misread, (1000, 800), ReadOptions(reread_tiles=0))
    assert plain.melds == [] and "meld_reread" not in plain.warning_codes


def test_a_run_is_not_re_read_as_a_meld_by_changing_three_of_its_tiles():
    # a 4-tile concealed row, 1m 1m 1m 2m: re-reading the three 1m as 2m would make a kong of it and lose the row
    rows = ["^2p 2p 2p | 4s ^5s 6s | E ^E E", "1m 1m 1m 2m | 2m"]
    dets = detections(rows)
    ones = [i for i, c in enumerate(dets.class_id) if CLASS_NAMES[c] == "1m"]
    read = read_hand(with_probs(dets, {i: probs_for(kind_of("1m"), {kind_of("2m"): 0.3}, top=0.6) for i in ones}), (1000, 800))
    assert format_compact(read.concealed) == "1112m" and CLASS_NAMES[read.win_tile] == "2m"
    assert len(read.melds) == 3 and "meld_reread" not in read.warning_codes


# --- what the user is offered first when correcting a tile -------------------------------------------------------------
def test_likely_choices_are_the_next_faces_or_back_above_five_percent():
    back, flower = CLASS_NAMES.index("back"), CLASS_NAMES.index("flower")
    row = probs_for(kind_of("3m"), {kind_of("2m"): 0.2, flower: 0.3, back: 0.06, kind_of("5m"): 0.04}, top=0.35)
    assert [CLASS_NAMES[k] for k in likely_choices(row, kind_of("3m"))] == ["2m", "back"]  # no flower, 5m under 5 %
    many = probs_for(kind_of("1p"), {kind_of(k): 0.15 for k in ("2p", "3p", "4p", "5p")}, top=0.3)
    assert len(likely_choices(many, kind_of("1p"))) == 3


def test_read_tiles_carry_their_choices_and_a_re_read_tile_offers_what_was_detected():
    misread = with_probs(detections(ROW), {1: probs_for(kind_of("3m"), {kind_of("2m"): 0.3}, top=0.6)})
    read = read_hand(misread, (1000, 800))
    assert read.tiles[1].cls == "2m" and read.tiles[1].choices == ("3m",)
    assert read.tiles[1].to_json()["choices"] == ["3m"]
    assert read.tiles[0].choices == () and "choices" not in read.tiles[0].to_json()
    plain = read_hand(misread, (1000, 800), ReadOptions(reread_tiles=0))
    assert plain.tiles[1].cls == "3m" and plain.tiles[1].choices == ("2m",)
    assert read_hand(detections(ROW), (1000, 800)).tiles[1].choices == ()  # no class probabilities: no choices


def test_runs_are_re_read_as_melds_only_when_no_plan_of_the_hand_counts_out():
    # a stray run near a hand that reads whole: 3s 5s 8s could be re-read as a pung of 5s, but the hand needs no
    # meld, and a stray made a meld could win the plan over the right one
    rows = ["3s 5s 8s", "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 5s | 5s"]
    five = {kind_of("5s"): 0.3}
    dets = with_probs(detections(rows), {0: probs_for(kind_of("3s"), five, top=0.6), 2: probs_for(kind_of("8s"), five, top=0.6)})
    read = read_hand(dets, (1000, 800))
    assert format_compact(read.concealed) == "123456789m11p55s" and read.melds == []
    assert "meld_reread" not in read.warning_codes and [read.tiles[i].cls for i in range(3)] == ["3s", "5s", "8s"]
