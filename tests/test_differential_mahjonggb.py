"""Differential test against PyMahjongGB (a test-only dependency): a CI-sized sample of seeded hands.

Complete-size hands (half of them spoiled by one swapped tile) must get the same verdicts from our find_shapes as
from PyMahjongGB's shanten functions (per shape: the rest is tenpai on the last tile) and its fan calculator (win
or not; 七对 / 十三幺 / 全不靠 / 七星不靠 / 组合龙 named). One-tile-short hands must get the same wait lists per
shape. The full >= 20k-hand run is `benchmarks/scoring.py --differential N`.
"""

from __future__ import annotations

from collections import Counter

import pytest

pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed (pip install -e '.[test]')")

from scoring.shapes import find_shapes  # noqa: E402
from scoring.shapes.crosscheck import complete_disagreements, gb_fans, gb_pack, waiting_disagreements  # noqa: E402
from scoring.shapes.samples import random_hands  # noqa: E402
from scoring.tiles import format_compact, parse_tiles  # noqa: E402
from scoring.hand import Meld  # noqa: E402

N_COMPLETE = 3000
N_WAITING = 1500


def describe(closed, melds) -> str:
    return format_compact(closed, sort=False) + "".join(f" [{m.type.value} {format_compact(m.tiles)}]" for m in melds)


def test_complete_hands_agree() -> None:
    hands = random_hands(20260, N_COMPLETE)
    problems = []
    seen: Counter = Counter()
    for hand in hands:
        shapes = find_shapes(hand.closed, hand.melds).shapes
        seen.update(shapes or ("none",))
        seen["with_melds" if hand.melds else "no_melds"] += 1
        for problem in complete_disagreements(hand.closed, hand.melds):
            problems.append(f"{describe(hand.closed, hand.melds)}: {problem}")
    assert not problems, "\n".join(problems[:20])
    # the sample must exercise every verdict, or agreement means little
    for key in ("none", "plain", "seven_pairs", "thirteen_orphans", "honors_and_knitted",
                "greater_honors_and_knitted", "knitted_straight", "knitted_straight_in_hk", "with_melds"):
        assert seen[key] >= 20, (key, seen)
    assert 0.3 < seen["none"] / N_COMPLETE < 0.7


def test_waiting_hands_agree() -> None:
    hands = random_hands(20261, N_WAITING, waiting=True)
    problems = [
        f"{describe(hand.closed, hand.melds)}: {problem}"
        for hand in hands
        for problem in waiting_disagreements(hand.closed, hand.melds)
    ]
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize(
    ("closed", "melds", "fans"),
    [
        ("147m258p369s12345z", [], {"全不靠", "组合龙"}),
        ("147m25p36s1234567z", [], {"七星不靠"}),
        ("1123m47m258p369s55z", [], {"组合龙"}),
        ("147m258p369s99m", [("chow", "567p")], {"组合龙"}),
        ("19m19p19s12345677z", [], {"十三幺"}),
        ("11m22m55p77p99s11z55z", [], {"七对"}),
    ],
)
def test_fan_calculator_names_our_special_shapes(closed: str, melds: list[tuple[str, str]], fans: set[str]) -> None:
    """Anchors for the tile-name mapping and pack format the differential run relies on."""
    got = gb_fans(parse_tiles(closed), [Meld.parse(t, m) for t, m in melds])
    assert got is not None and fans <= set(got)


def test_not_a_win_is_none() -> None:
    assert gb_fans(parse_tiles("123m456m789p235s55z"), []) is None


def test_pack_format() -> None:
    assert gb_pack(Meld.parse("chow", "567p")) == ("CHI", "B6", 1)
    assert gb_pack(Meld.parse("kong_concealed", "1111z")) == ("GANG", "F1", 0)
    assert gb_pack(Meld.parse("kong_exposed", "5555s", 2)) == ("GANG", "T5", 1)
    assert gb_pack(Meld.parse("pung", "777z")) == ("PENG", "J3", 1)
