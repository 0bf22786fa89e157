"""Xi'an 西安麻将 (seed 001, SPEC §3), B = 1: hand-computed cases per item and per switch; no ../shared needed."""

from __future__ import annotations

import pytest

from scoring.options import RuleOptions
from scoring.scorer import parse_hand, score

TWO_WAY = "123m456m789p55z23s"  # waits 1s / 4s
KONG = {"type": "kong_concealed", "tiles": "2222s"}


def win(hand, tile, *, melds=(), options=None, **context):
    return score(parse_hand(hand, tile, list(melds), context), "xian", options)


def opts(**pairs):
    return RuleOptions().with_overrides({k.replace("__", "."): v for k, v in pairs.items()})


@pytest.mark.parametrize(
    ("hand", "tile", "melds", "context", "items", "deltas"),
    [
        # 胡 1B from the discarder, no dealer doubling either way
        (TWO_WAY, "4s", [], {"winner": 1, "discarder": 0}, [["discard", 1]], [-1, 1, 0, 0]),
        (TWO_WAY, "4s", [], {"winner": 0, "discarder": 2}, [["discard", 1]], [1, 0, -1, 0]),
        # 自摸 2B from each
        (TWO_WAY, "4s", [], {"winner": 1, "self_draw": True}, [["self_draw", 2]], [-2, 6, -2, -2]),
        # 夹张 on a discard: 2B
        ("123p789p345s55s46m", "5m", [], {"winner": 2, "discarder": 3},
         [["discard", 1], ["jiazhang_or_dandiao(jiazhang)", 2]], [0, 0, 2, -2]),
        # 单调 self-draw: 3B each
        ("123m456m789p111s5z", "5z", [], {"winner": 2, "self_draw": True},
         [["self_draw", 2], ["jiazhang_or_dandiao(dandiao)", 3]], [-3, -3, 9, -3]),
        # 边张 (12m waiting on 3m) earns nothing
        ("12m456m789p55z234s", "3m", [], {"winner": 1, "discarder": 2}, [["discard", 1]], [0, 1, -1, 0]),
        # 杠后开花 ×2 on the self-draw base, plus the concealed kong 2B each
        ("123m456p55z78p", "9p", [KONG], {"winner": 1, "self_draw": True, "kong_replacement": True},
         [["self_draw", 2], ["gang_hou_kai_hua_x2", 4]], [-6, 18, -6, -6]),
        # 夹张 + 杠后开花: 2 -> 3 -> 6, plus the kong
        ("123m456p55z79p", "8p", [KONG], {"winner": 1, "self_draw": True, "kong_replacement": True},
         [["self_draw", 2], ["jiazhang_or_dandiao(jiazhang)", 3], ["gang_hou_kai_hua_x2", 6]], [-8, 24, -8, -8]),
        # 天胡 赢三倍 = 3 × the self-draw base
        (TWO_WAY, "4s", [], {"winner": 0, "dealer": 0, "heavenly": True}, [["tianhu_self_draw_x3", 6]],
         [18, -6, -6, -6]),
        # exposed chows are allowed; 单调 on a discard
        ("456m5z", "5z", [{"type": "chow", "tiles": "123m", "from": 0}, {"type": "pung", "tiles": "777p", "from": 2},
                          {"type": "chow", "tiles": "234s", "from": 0}], {"winner": 1, "discarder": 3},
         [["discard", 1], ["jiazhang_or_dandiao(dandiao)", 2]], [0, 2, 0, -2]),
    ],
)
def test_win_items(hand, tile, melds, context, items, deltas):
    result = win(hand, tile, melds=melds, **context)
    assert result.valid, result.error
    assert result.item_pairs() == items
    assert result.per_payer_win_base == items[-1][1]
    assert result.deltas == deltas


@pytest.mark.parametrize(
    ("context", "deltas"),
    [
        # discard: the discarder pays 1 + (bet_W + bet_L) = 1 + 2 + 3
        ({"winner": 1, "discarder": 3, "bets": [1, 2, 0, 3]}, [0, 6, 0, -6]),
        # self-draw: each pays 2 + 2·(bet_W + bet_L)
        ({"winner": 1, "self_draw": True, "bets": [1, 2, 0, 3]}, [-8, 26, -6, -12]),
    ],
)
def test_bets(context, deltas):
    assert win(TWO_WAY, "4s", **context).deltas == deltas


def test_discard_payer_switch():
    """[A8] all three settle win and bets on a discard."""
    result = win(TWO_WAY, "4s", winner=1, discarder=3, bets=[1, 2, 0, 3], options=opts(xian__discard_payer="all"))
    assert result.deltas == [-4, 13, -3, -6]
    assert "A8 xian.discard_payer=all" in result.decisions


def test_unique_wait_switch():
    """[A10] 1234m waits on 1m and 4m; winning on 4m reads as 123m + 44m 单调 only without the 独听 requirement."""
    hand = "1234m456p789p234s"
    assert win(hand, "4m", winner=1, discarder=2).item_pairs() == [["discard", 1]]
    loose = win(hand, "4m", winner=1, discarder=2, options=opts(xian__unique_wait_required=False))
    assert loose.item_pairs() == [["discard", 1], ["jiazhang_or_dandiao(dandiao)", 2]]
    assert "A10 xian.unique_wait_required=false" in loose.decisions


def test_heavenly_switch():
    """[A7] the flat reading: 3B from each."""
    result = win(TWO_WAY, "4s", winner=0, heavenly=True, options=opts(xian__heavenly="flat_3"))
    assert result.item_pairs() == [["tianhu_flat_3", 3]]
    assert result.deltas == [9, -3, -3, -3]


@pytest.mark.parametrize(("payer", "deltas"), [("each_other", [-1, 5, -1, -3]), ("feeder", [0, 3, -1, -2])])
def test_kong_payer_switch(payer, deltas):
    """[A9] 明杠 on seat 2's discard: 1B from each other player, or from seat 2 alone; 单调 2B from the discarder."""
    meld = {"type": "kong_exposed", "tiles": "2222s", "from": 2}
    result = win("123m456p789p5z", "5z", melds=[meld], winner=1, discarder=3, options=opts(xian__kong_payer=payer))
    assert result.deltas == deltas
    assert result.kong_points_to_winner == (3 if payer == "each_other" else 1)


@pytest.mark.parametrize(("multiply", "deltas"), [(False, [-8, 24, -8, -8]), (True, [-12, 36, -12, -12])])
def test_multiplier_on_bets_and_kongs_switch(multiply, deltas):
    """[A11] 杠后开花 ×2: by default only the win base (4) doubles; bets 2·(1+0) and the kong 2 stay."""
    context = {"winner": 1, "self_draw": True, "kong_replacement": True, "bets": [0, 1, 0, 0]}
    result = win("123m456p55z78p", "9p", melds=[KONG], options=opts(xian__multiply_bets_and_kongs=multiply), **context)
    assert result.deltas == deltas


@pytest.mark.parametrize(
    ("hand", "tile", "reason", "shapes"),
    [
        ("11m22m55p77p99s11z5z", "5z", "not_a_winning_shape", ["seven_pairs"]),  # only 将头 + sets win
        ("123z456m789p234s5z", "5z", "not_a_winning_shape", []),  # honours never form a chow
        ("19m19p1s12345677z", "9s", "not_a_winning_shape", ["thirteen_orphans"]),
    ],
)
def test_only_plain_hands_win(hand, tile, reason, shapes):
    result = win(hand, tile, winner=1, discarder=2)
    assert (result.valid, result.reason, result.shapes) == (False, reason, shapes)


def test_heavenly_needs_the_dealer():
    result = win(TWO_WAY, "4s", winner=2, dealer=0, heavenly=True)
    assert (result.valid, result.reason) == (False, "heavenly_not_dealer")


def test_base_points_switch():
    result = win("123m456p55z78p", "9p", melds=[KONG], winner=1, self_draw=True, kong_replacement=True,
                 options=opts(xian__base_points=5))
    assert result.per_payer_win_base == 4  # the base stays in 基数 units
    assert result.deltas == [-30, 90, -30, -30]
