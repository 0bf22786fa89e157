"""Win shapes (SPEC.md §1, PyMahjongGB semantics): which shapes a 14-tile hand (+ declared melds) completes.

``find_shapes`` reports every shape that holds with every reading; ``is_complete`` is the fast yes/no used by
wait lists and benchmarks. Both take the concealed tiles plus the winning tile (``Hand.closed_tiles``):
14 - 3 * len(melds) kinds.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.hand import HandError, Meld
from scoring.shapes.knitted import (
    KNITTED_SETS,
    honors_and_knitted,
    is_knitted_straight,
    knitted_straight_decompositions,
)
from scoring.shapes.plain import is_plain, plain_decompositions
from scoring.shapes.report import (
    ALL_SHAPES,
    GREATER_HONORS_AND_KNITTED,
    HONORS_AND_KNITTED,
    KNITTED_STRAIGHT,
    KNITTED_STRAIGHT_IN_HK,
    PLAIN,
    SEVEN_PAIRS,
    SHAPE_ORDER,
    THIRTEEN_ORPHANS,
    Block,
    Decomposition,
    ShapeReport,
)
from scoring.shapes.seven_pairs import seven_pairs_quads
from scoring.shapes.thirteen_orphans import is_thirteen_orphans
from scoring.tiles import COPIES_PER_KIND, N_KINDS, TILE_NAMES

__all__ = [
    "ALL_SHAPES",
    "GREATER_HONORS_AND_KNITTED",
    "HONORS_AND_KNITTED",
    "KNITTED_SETS",
    "KNITTED_STRAIGHT",
    "KNITTED_STRAIGHT_IN_HK",
    "PLAIN",
    "SEVEN_PAIRS",
    "SHAPE_ORDER",
    "THIRTEEN_ORPHANS",
    "Block",
    "Decomposition",
    "ShapeReport",
    "closed_counts",
    "counts_complete",
    "find_shapes",
    "is_complete",
]


def closed_counts(closed: Sequence[int], melds: Sequence[Meld] = (), *, extra: int = 0) -> list[int]:
    """The 34 counts of the closed tiles, after checking their number and the 4-copy limit (melds included).

    ``extra`` is how many tiles short of a complete hand the caller passes (1 for a waiting hand).
    Raises HandError (code ``wrong_tile_count`` or ``invalid_tiles``).
    """
    want = 14 - extra - 3 * len(melds)
    if len(melds) > 4 or len(closed) != want:
        raise HandError(
            f"{len(closed)} closed tiles with {len(melds)} meld(s): the shape check needs {max(want, 0)}",
            "wrong_tile_count",
        )
    counts = [0] * N_KINDS
    try:
        for kind in closed:
            counts[kind] += 1
    except (IndexError, TypeError):
        bad = next(k for k in closed if not isinstance(k, int) or not 0 <= k < N_KINDS)
        raise HandError(f"{bad!r} is not a tile kind (0-33)", "invalid_tiles") from None
    if min(closed, default=0) < 0:
        raise HandError(f"{min(closed)!r} is not a tile kind (0-33)", "invalid_tiles")
    if max(counts) > COPIES_PER_KIND or melds:
        total = list(counts)
        for meld in melds:
            for kind in meld.tiles:
                total[kind] += 1
        for kind, count in enumerate(total):
            if count > COPIES_PER_KIND:
                raise HandError(
                    f"{count} copies of {TILE_NAMES[kind]} (melds included): a set has only {COPIES_PER_KIND}",
                    "invalid_tiles",
                )
    return counts


def find_shapes(closed: Sequence[int], melds: Sequence[Meld] = ()) -> ShapeReport:
    """Every shape the closed tiles (+ declared melds) complete, with every plain and 组合龙 reading."""
    counts = closed_counts(closed, melds)
    n_melds = len(melds)
    holding: set[str] = set()
    plain = plain_decompositions(counts, melds)
    if plain:
        holding.add(PLAIN)
    quads = seven_pairs_quads(counts, n_melds)
    if quads is not None:
        holding.add(SEVEN_PAIRS)
    if is_thirteen_orphans(counts, n_melds):
        holding.add(THIRTEEN_ORPHANS)
    hk = honors_and_knitted(counts, n_melds)
    if hk is not None:
        holding.add(HONORS_AND_KNITTED)
        greater, all_knitted = hk
        if greater:
            holding.add(GREATER_HONORS_AND_KNITTED)
        if all_knitted:
            holding.add(KNITTED_STRAIGHT_IN_HK)
    knitted = knitted_straight_decompositions(counts, melds)
    if knitted:
        holding.add(KNITTED_STRAIGHT)
    return ShapeReport(
        shapes=tuple(s for s in SHAPE_ORDER if s in holding),
        plain=plain,
        knitted_straight=knitted,
        seven_pairs_quads=quads or 0,
    )


def is_complete(closed: Sequence[int], melds: Sequence[Meld] = (), shapes: frozenset[str] = ALL_SHAPES) -> bool:
    """Whether the closed tiles (+ melds) complete at least one of ``shapes``; same checks as find_shapes."""
    counts = closed_counts(closed, melds)
    return counts_complete(counts, len(melds), shapes)


def counts_complete(counts: list[int], n_melds: int, shapes: frozenset[str]) -> bool:
    """The shape test on validated counts (cheapest checks first)."""
    if PLAIN in shapes and is_plain(counts):
        return True
    if n_melds > 1:
        return False
    if not n_melds:
        if SEVEN_PAIRS in shapes and seven_pairs_quads(counts) is not None:
            return True
        if THIRTEEN_ORPHANS in shapes and is_thirteen_orphans(counts):
            return True
        if shapes & _HK_SHAPES:
            hk = honors_and_knitted(counts)
            if hk is not None:
                greater, all_knitted = hk
                if (
                    HONORS_AND_KNITTED in shapes
                    or (greater and GREATER_HONORS_AND_KNITTED in shapes)
                    or (all_knitted and KNITTED_STRAIGHT_IN_HK in shapes)
                ):
                    return True
    return KNITTED_STRAIGHT in shapes and is_knitted_straight(counts, n_melds)


_HK_SHAPES = frozenset({HONORS_AND_KNITTED, GREATER_HONORS_AND_KNITTED, KNITTED_STRAIGHT_IN_HK})
