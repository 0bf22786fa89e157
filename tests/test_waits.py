"""Waits: which kinds complete a 13-tile hand (+ melds) under the allowed shapes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.hand import HandError, Meld
from scoring.shapes import (
    ALL_SHAPES,
    HONORS_AND_KNITTED,
    KNITTED_STRAIGHT,
    PLAIN,
    SEVEN_PAIRS,
    SHAPE_ORDER,
    THIRTEEN_ORPHANS,
    find_shapes,
)
from scoring.shapes.samples import cut, random_complete, spoil
from scoring.tiles import format_compact, parse_tiles
from scoring.waits import waiting_tiles

PLAIN_ONLY = frozenset({PLAIN})
PLAIN_AND_PAIRS = frozenset({PLAIN, SEVEN_PAIRS})


def meld(type_: str, tiles: str) -> Meld:
    return Meld.parse(type_, tiles)


@pytest.mark.parametrize(
    ("concealed", "melds", "shapes", "waits"),
    [
        ("1112345678999m", [], ALL_SHAPES, "123456789m"),  # nine gates
        ("123m456m789p234s5z", [], ALL_SHAPES, "5z"),
        ("123m456m789p23s55z", [], ALL_SHAPES, "14s"),
        ("123m456m789p24s55z", [], ALL_SHAPES, "3s"),
        ("123m456m789p55s55z", [], ALL_SHAPES, "5s5z"),
        ("11m22m55p77p99s11z5z", [], ALL_SHAPES, "5z"),
        ("11m22m55p77p99s11z5z", [], PLAIN_ONLY, ""),
        ("1122334455667m", [], PLAIN_ONLY, "147m"),
        ("1122334455667m", [], PLAIN_AND_PAIRS, "147m"),
        ("1122334455669m", [], PLAIN_AND_PAIRS, "9m"),
        ("19m19p19s1234567z", [], ALL_SHAPES, "19m19p19s1234567z"),  # thirteen-sided
        ("19m19p19s1234567z", [], PLAIN_AND_PAIRS, ""),
        ("119m19p19s123456z", [], ALL_SHAPES, "7z"),
        ("147m258p369s1234z", [], ALL_SHAPES, "567z"),  # 全不靠 with all 9 knitted tiles
        ("147m258p369s1234z", [], frozenset({HONORS_AND_KNITTED}), "567z"),
        ("147m25p369s12345z", [], ALL_SHAPES, "8p67z"),
        ("147m258p369s789m5z", [], ALL_SHAPES, "5z"),  # 组合龙 waiting on the pair
        ("14m258p369s789m55z", [], ALL_SHAPES, "7m"),  # 组合龙 waiting on a knitted tile
        ("14m258p369s789m55z", [], frozenset({KNITTED_STRAIGHT}), "7m"),
        ("14m258p369s789m55z", [], PLAIN_AND_PAIRS, ""),
        ("147m258p369s9m", [("chow", "567p")], ALL_SHAPES, "9m"),
        ("147m258p369s9m", [("chow", "567p")], PLAIN_ONLY, ""),
        ("5m", [("pung", "111m"), ("pung", "999m"), ("pung", "222s"), ("pung", "444s")], ALL_SHAPES, "5m"),
        ("5m", [("pung", "555m"), ("pung", "999m"), ("pung", "222s"), ("pung", "444s")], ALL_SHAPES, ""),
        ("1111m", [("pung", "111z"), ("pung", "222z"), ("pung", "333z")], ALL_SHAPES, ""),
        ("1111m234p", [("kong_concealed", "5555s"), ("pung", "666s")], ALL_SHAPES, ""),
        ("1111m22m33m44m55m6m", [], frozenset({SEVEN_PAIRS}), "6m"),
        ("1111m22m33m44m55m6m", [], ALL_SHAPES, "2356m"),
        ("123m456p789s11z22z", [], ALL_SHAPES, "12z"),
        ("19m19p19s1234567z", [], frozenset({THIRTEEN_ORPHANS}), "19m19p19s1234567z"),
    ],
)
def test_waits(concealed: str, melds: list[tuple[str, str]], shapes: frozenset[str], waits: str) -> None:
    got = waiting_tiles(parse_tiles(concealed), [meld(t, m) for t, m in melds], shapes)
    assert format_compact(got) == format_compact(parse_tiles(waits))


def test_a_kind_held_four_times_is_no_wait() -> None:
    """All four copies of 1m are the player's own (concealed or melded), so 1m is never listed even where a 5th
    copy would complete the shape (1111m + three pungs: 111m + 11m)."""
    concealed = parse_tiles("1111m2m456p789s55z")
    assert format_compact(waiting_tiles(concealed)) == "3m"
    assert 0 not in waiting_tiles(parse_tiles("1111m"), [meld("pung", "111z"), meld("pung", "222z"),
                                                         meld("pung", "333z")])


@pytest.mark.parametrize(
    ("concealed", "melds"),
    [("123m456m789p234s55z", []), ("123m456m789p2s", []), ("123m456p789p55z", [("pung", "111z")])],
)
def test_wrong_count(concealed: str, melds: list[tuple[str, str]]) -> None:
    with pytest.raises(HandError) as info:
        waiting_tiles(parse_tiles(concealed), [meld(t, m) for t, m in melds])
    assert info.value.code == "wrong_tile_count"


def test_fifth_copy() -> None:
    with pytest.raises(HandError) as info:
        waiting_tiles(parse_tiles("1m234p567p89s5z"), [meld("kong_concealed", "1111m")])
    assert info.value.code == "invalid_tiles"


@settings(max_examples=250, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.sets(st.sampled_from(SHAPE_ORDER), min_size=1))
def test_every_wait_wins_and_nothing_else_does(seed: int, spoiled: bool, allowed: set[str]) -> None:
    rng = random.Random(seed)
    hand = random_complete(rng)
    if spoiled:
        hand = spoil(rng, hand)
    hand = cut(rng, hand)
    shapes = frozenset(allowed)
    waits = waiting_tiles(hand.closed, hand.melds, shapes)
    own = list(hand.closed) + [k for m in hand.melds for k in m.tiles]
    for kind in range(34):
        if own.count(kind) == 4:
            assert kind not in waits
            continue
        wins = bool(set(find_shapes(list(hand.closed) + [kind], hand.melds).shapes) & shapes)
        assert (kind in waits) == wins, kind
