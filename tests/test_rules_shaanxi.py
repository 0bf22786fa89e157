"""Shaanxi 陕西麻将 (seed 000, SPEC §2): hand-computed cases that need no ../shared, per item and per switch."""

from __future__ import annotations

import pytest

from scoring.options import RuleOptions
from scoring.scorer import kong_deltas, parse_hand, score
from scoring.hand import Meld

PLAIN = "123m456m789p234s5z"  # + 5z: plain, honours pair


def win(hand, tile, *, melds=(), rules="shaanxi", options=None, **context):
    return score(parse_hand(hand, tile, list(melds), context), rules, options)


def opts(**pairs):
    return RuleOptions().with_overrides({k.replace("__", "."): v for k, v in pairs.items()})


@pytest.mark.parametrize(
    ("context", "hu", "deltas"),
    [
        # 放胡: every other player pays 1·D = 3, the dealer (seat 0) 6
        ({"winner": 1, "discarder": 2}, 12, [-6, 12, -3, -3]),
        # 自摸: 2·D = 6 each, dealer 12
        ({"winner": 1, "self_draw": True}, 24, [-12, 24, -6, -6]),
        # the dealer wins: each pays double
        ({"winner": 0, "discarder": 3}, 18, [18, -6, -6, -6]),
        ({"winner": 0, "self_draw": True}, 36, [36, -12, -12, -12]),
        # 抢杠 counts as a discard (A = 1)
        ({"winner": 2, "discarder": 1, "robbing_kong": True}, 12, [-6, -3, 12, -3]),
    ],
)
def test_hu_score_with_dealer_doubling(context, hu, deltas):
    result = win(PLAIN, "5z", **context)
    assert result.valid
    assert result.item_pairs() == [["hu", hu], ["paozi", 0]]
    assert result.deltas == deltas


def test_worked_example_1_formal_and_seed_literal():
    """Seed example 1: dealer (bet 2) wins on 对家's 2m, others bet 2/3/4. Formal 63; the seed's 51 = [A3] discarder."""
    hand, context = "13m456p789p345s55z", {"winner": 0, "discarder": 2, "bets": [2, 2, 3, 4]}
    formal = win(hand, "2m", **context)
    assert formal.item_pairs() == [["hu", 18], ["paozi", 45]]
    assert formal.deltas == [63, -18, -21, -24]
    literal = win(hand, "2m", options=opts(shaanxi__discard_payer="discarder"), **context)
    assert literal.deltas == [51, -12, -21, -18]
    assert literal.deltas[0] == 3 * 2 + (3 * 2 + 9) * 3  # the seed's 6 + 45
    assert "A3 shaanxi.discard_payer=discarder" in literal.decisions


def test_worked_example_2_formal():
    """Seed example 2: non-dealer (bet 4) self-draws; dealer bet 2, others 1 and 0 -> +114 (SPEC §2)."""
    result = win("44m55p77p22s99s55z3m", "3m", winner=1, self_draw=True, bets=[2, 4, 1, 0])
    assert result.item_pairs() == [["hu", 24], ["paozi", 90]]
    assert result.deltas == [-48, 114, -36, -30]
    assert result.scored_shape == "seven_pairs"


def test_paozi_discarder_only_switch():
    context = {"winner": 0, "discarder": 2, "bets": [2, 2, 3, 4]}
    result = win("13m456p789p345s55z", "2m", options=opts(shaanxi__paozi_discard_payer="discarder"), **context)
    assert result.item_pairs() == [["hu", 18], ["paozi", 15]]
    assert result.deltas == [33, -6, -21, -6]


def test_dealer_doubling_everything_switch():
    """[A5] the narrative reading doubles 炮子 too when the dealer is involved."""
    base = win(PLAIN, "5z", winner=1, discarder=2, bets=[1, 1, 0, 0])
    everything = opts(shaanxi__dealer_doubling="everything")
    doubled = win(PLAIN, "5z", winner=1, discarder=2, bets=[1, 1, 0, 0], options=everything)
    assert base.item_pairs() == [["hu", 12], ["paozi", 12]]  # (1+1)*3 + (0+1)*3*2
    assert doubled.item_pairs() == [["hu", 12], ["paozi", 18]]
    assert sum(doubled.deltas) == 0


@pytest.mark.parametrize(
    ("meld", "kong_points", "deltas"),
    [
        ({"type": "kong_concealed", "tiles": "2222s"}, 18, [-12, 30, -9, -9]),  # 暗杠 6 from each
        ({"type": "kong_exposed", "tiles": "2222s", "from": 3}, 6, [-6, 18, -3, -9]),  # 放杠 6 from the feeder
        ({"type": "kong_added", "tiles": "2222s"}, 9, [-9, 21, -6, -6]),  # 明杠 3 from each
    ],
)
def test_kong_payments(meld, kong_points, deltas):
    result = win("123m456p789p5z", "5z", melds=[meld], winner=1, discarder=2)
    assert result.item_pairs() == [["hu", 12], ["paozi", 0], ["kong", kong_points]]
    assert result.kong_points_to_winner == kong_points
    assert result.deltas == deltas


@pytest.mark.parametrize(("meld", "message"), [
    ({"type": "kong_exposed", "tiles": "2222s"}, "give 'from'"),
    ({"type": "kong_exposed", "tiles": "2222s", "from": 1}, "'from' is the winner's own seat 1"),
])
def test_kong_exposed_without_feeder_is_reported(meld, message):
    result = win("123m456p789p5z", "5z", melds=[meld], winner=1, discarder=2)
    assert not result.valid and result.reason == "kong_feeder_missing"
    assert message in result.error


@pytest.mark.parametrize(
    ("hand", "tile", "shape"),
    [
        ("11m22m55p77p99s11z5z", "5z", "seven_pairs"),
        ("19m19p1s12345677z", "9s", "thirteen_orphans"),
        ("147m25p369s12345z", "6z", "honors_and_knitted"),
        ("147m258p369s789m5z", "5z", "knitted_straight"),
    ],
)
def test_special_shapes_score_the_flat_base_in_136(hand, tile, shape):
    result = win(hand, tile, winner=2, discarder=0)
    assert result.valid and result.scored_shape == shape
    assert result.deltas == [-6, -3, 12, -3]


def test_variant_108_refuses_honours_and_special_shapes():
    honours = win(PLAIN, "5z", rules="shaanxi108", winner=1, discarder=2)
    assert (honours.valid, honours.reason) == (False, "honor_tiles_not_in_set")
    pairs = win("11m22m55p77p99s11s5s", "5s", rules="shaanxi108", winner=1, discarder=2)
    assert (pairs.valid, pairs.reason) == (False, "shape_not_allowed")
    assert pairs.shapes == ["seven_pairs"]
    assert win("11m22m55p77p99s11s5s", "5s", winner=1, discarder=2).valid  # the 136 variant allows it
    same = win("11m22m55p77p99s11s5s", "5s", options=opts(shaanxi__variant="108"), winner=1, discarder=2)
    assert same.reason == "shape_not_allowed"


def test_variant_108_flags_but_accepts_exposed_chows():
    result = win("456m789p345s1s", "1s", melds=[{"type": "chow", "tiles": "123m", "from": 0}], rules="shaanxi108",
                 winner=1, discarder=0)
    assert result.valid and result.ruleset == "shaanxi108"
    assert any("chow" in w for w in result.warnings)
    assert "A1 shaanxi.variant=108" in result.decisions


def test_bets_above_four_are_refused_and_max_bet_switch():
    result = win(PLAIN, "5z", winner=1, discarder=2, bets=[5, 0, 0, 0])
    assert (result.valid, result.reason) == (False, "bet_out_of_range")
    capped = win(PLAIN, "5z", winner=1, discarder=2, bets=[3, 0, 0, 0], options=opts(shaanxi__max_bet=2))
    assert capped.reason == "bet_out_of_range"


@pytest.mark.parametrize(("choice", "deltas"), [("keep", [-6, 18, -6, -6]), ("void", [0, 0, 0, 0])])
def test_kongs_in_a_drawn_hand_switch(choice, deltas):
    """[A4] 荒庄: kongs stand (立刻收取) or are voided."""
    kongs = [Meld.parse("kong_concealed", "2222s")]
    assert kong_deltas("shaanxi", 1, kongs, opts(shaanxi__kong_on_draw=choice), drawn=True) == deltas
    assert kong_deltas("shaanxi", 1, kongs, opts(shaanxi__kong_on_draw=choice)) == [-6, 18, -6, -6]  # not drawn


@pytest.mark.parametrize(
    ("hand", "tile"),
    [("123m456m789p235s5z", "5z"), ("147m258p369s1123z", "4z"), ("1479m258p36s1234z", "5z")],
)
def test_not_a_win(hand, tile):
    result = win(hand, tile, winner=1, discarder=2)
    assert (result.valid, result.reason, result.deltas) == (False, "not_a_winning_shape", None)
    assert result.error


def test_base_points_switch_scales_every_component():
    context = {"winner": 0, "discarder": 2, "bets": [2, 2, 3, 4]}
    result = win("13m456p789p345s55z", "2m", options=opts(shaanxi__base_points=1), **context)
    assert result.item_pairs() == [["hu", 6], ["paozi", 15]]
    assert result.deltas == [21, -6, -7, -8]
