"""Waits per rule set (``scoring.scorer.waits``): each winning tile with what it would score in the hand's context."""

from __future__ import annotations

from scoring.scorer import parse_hand, waits


def wait_tiles(hand, ruleset, melds=(), **context):
    return [(w["tile"], w["result"].valid) for w in waits(parse_hand(hand, None, list(melds), context), ruleset)]


def test_seven_pairs_wait_counts_only_where_seven_pairs_wins():
    hand = "11m22m55p77p99s11z5z"  # 13 tiles: seven pairs waiting on 5z
    assert wait_tiles(hand, "shaanxi", winner=1, discarder=2) == [("C", True)]
    assert wait_tiles(hand, "xian", winner=1, discarder=2) == []


def test_thirteen_orphans_thirteen_sided_wait_in_shaanxi_136_only():
    hand = "19m19p19s1234567z"
    listed = wait_tiles(hand, "shaanxi", winner=1, self_draw=True)
    assert len(listed) == 13 and all(valid for _, valid in listed)
    assert wait_tiles(hand, "shaanxi108", winner=1, self_draw=True) == []  # plain hands only there


def test_weinan_waits_carry_the_eligibility_verdict():
    """A plain 缺p hand waiting on 2s/5s: fine on a self-draw, refused on a discard (1番不能接炮)."""
    hand = "123m456m789m234s5s"
    assert wait_tiles(hand, "weinan", winner=1, self_draw=True, missing_suit="p") == [("2s", True), ("5s", True)]
    assert wait_tiles(hand, "weinan", winner=1, discarder=2, missing_suit="p") == [("2s", False), ("5s", False)]


def test_xian_wait_scores_show_the_single_wait_bonus():
    entries = waits(parse_hand("123p789p345s55s46m", None, [], {"winner": 2, "discarder": 3}), "xian")
    assert [e["tile"] for e in entries] == ["5m"]
    assert entries[0]["result"].item_pairs() == [["discard", 1], ["jiazhang_or_dandiao(jiazhang)", 2]]
