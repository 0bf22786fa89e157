"""The knitted shapes: 全不靠 / 七星不靠 and 组合龙, with PyMahjongGB's semantics (SPEC.md §1).

A knitted set gives 1-4-7, 2-5-8 and 3-6-9 one each to the three suits, each suit a different one: 6 sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from scoring.hand import Meld
from scoring.shapes.plain import is_plain, plain_decompositions
from scoring.shapes.report import Decomposition

#: The six knitted sets, each as 9 kinds in ascending order (suit by suit).
KNITTED_SETS: tuple[tuple[int, ...], ...] = tuple(
    tuple(suit * 9 + offset + step for suit, offset in enumerate(offsets) for step in (0, 3, 6))
    for offsets in permutations(range(3))
)
_KNITTED_MEMBERSHIP: tuple[frozenset[int], ...] = tuple(frozenset(s) for s in KNITTED_SETS)


def honors_and_knitted(counts: Sequence[int], n_melds: int = 0) -> tuple[bool, bool] | None:
    """For a 全不靠 hand, (is 七星不靠, holds all 9 knitted tiles); None when 全不靠 does not hold.

    全不靠: no melds, 14 distinct tiles, the suit tiles all from ONE knitted set (so 7-9 of them and 5-7 honours).
    """
    if n_melds or sum(counts) != 14 or max(counts) > 1:
        return None
    suited = {k for k in range(27) if counts[k]}
    honors = 14 - len(suited)
    if honors > 7:
        return None
    for members in _KNITTED_MEMBERSHIP:
        if suited <= members:
            return honors == 7, len(suited) == 9
    return None


def _without_knitted(counts: Sequence[int], knitted: Sequence[int]) -> list[int] | None:
    rest = list(counts)
    for kind in knitted:
        if not rest[kind]:
            return None
        rest[kind] -= 1
    return rest


def is_knitted_straight(counts: Sequence[int], n_melds: int = 0) -> bool:
    """组合龙: at most 1 meld, all 9 knitted tiles concealed, the rest (knitted tiles reusable) = 1 set + 1 pair."""
    if n_melds > 1:
        return False
    for knitted in KNITTED_SETS:
        rest = _without_knitted(counts, knitted)
        if rest is not None and is_plain(rest):
            return True
    return False


def knitted_straight_decompositions(counts: Sequence[int], melds: Sequence[Meld] = ()) -> tuple[Decomposition, ...]:
    """Every 组合龙 reading: the knitted tiles, the pair and the one extra set (a declared meld, or concealed)."""
    if len(melds) > 1:
        return ()
    out: list[Decomposition] = []
    for knitted in KNITTED_SETS:
        rest = _without_knitted(counts, knitted)
        if rest is None:
            continue
        for reading in plain_decompositions(rest, melds):
            out.append(Decomposition(reading.pair, reading.blocks, knitted))
    return tuple(out)
