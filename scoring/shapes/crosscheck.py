"""Cross-check against PyMahjongGB (import name ``MahjongGB``, a test-only dependency, imported lazily).

``gb_verdicts`` asks PyMahjongGB's shanten functions and fan calculator about a hand and returns, per shape name,
whether it holds; ``disagreements`` lists where our ``find_shapes`` / ``waiting_tiles`` say otherwise. Used by
tests/test_differential_mahjonggb.py (a CI sample) and benchmarks/scoring.py --differential (the full run).

Mapping: 1-9m = W1-W9, 1-9p = B1-B9, 1-9s = T1-T9, E S W N = F1-F4, C F P = J1-J3.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.hand import Meld, MeldType
from scoring.shapes import (
    ALL_SHAPES,
    GREATER_HONORS_AND_KNITTED,
    HONORS_AND_KNITTED,
    KNITTED_STRAIGHT,
    KNITTED_STRAIGHT_IN_HK,
    PLAIN,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
    find_shapes,
)
from scoring.tiles import TILE_NAMES

GB_NAMES: tuple[str, ...] = (
    tuple(f"W{n}" for n in range(1, 10))
    + tuple(f"B{n}" for n in range(1, 10))
    + tuple(f"T{n}" for n in range(1, 10))
    + ("F1", "F2", "F3", "F4", "J1", "J2", "J3")
)
_GB_KIND = {name: kind for kind, name in enumerate(GB_NAMES)}

WIN = "win"  # the verdict "completes some shape"
_SHANTEN_FUNCTIONS = {  # shape -> PyMahjongGB function name and how many melds it allows
    PLAIN: ("RegularShanten", 4),
    SEVEN_PAIRS: ("SevenPairsShanten", 0),
    THIRTEEN_ORPHANS: ("ThirteenOrphansShanten", 0),
    HONORS_AND_KNITTED: ("HonorsAndKnittedTilesShanten", 0),
    KNITTED_STRAIGHT: ("KnittedStraightShanten", 1),
}


def _gb() -> Any:
    import MahjongGB  # test-only dependency

    return MahjongGB


def gb_pack(meld: Meld) -> tuple[str, str, int]:
    """A meld as a PyMahjongGB pack: (CHI with its middle tile | PENG | GANG, tile, offer; 0 = concealed kong)."""
    if meld.type is MeldType.CHOW:
        return ("CHI", GB_NAMES[meld.tiles[1]], 1)
    if meld.is_kong:
        return ("GANG", GB_NAMES[meld.kind], 0 if meld.type is MeldType.KONG_CONCEALED else 1)
    return ("PENG", GB_NAMES[meld.kind], 1)


def gb_waits(standing: Sequence[int], n_melds: int) -> dict[str, set[int]]:
    """Per shape with a PyMahjongGB shanten function: the kinds it lists as winning tiles (tenpai), else {}."""
    gb = _gb()
    names = tuple(GB_NAMES[k] for k in standing)
    out: dict[str, set[int]] = {}
    for shape, (function, max_melds) in _SHANTEN_FUNCTIONS.items():
        if n_melds > max_melds:
            out[shape] = set()
            continue
        shanten, useful = getattr(gb, function)(names)
        out[shape] = {_GB_KIND[t] for t in useful} if shanten == 0 else set()
    return out


def gb_fans(closed: Sequence[int], melds: Sequence[Meld]) -> list[str] | None:
    """PyMahjongGB's fan names for a self-drawn win on the last closed tile; None for ERROR_NOT_WIN."""
    gb = _gb()
    names = tuple(GB_NAMES[k] for k in closed)
    packs = tuple(gb_pack(m) for m in melds)
    try:
        fans = gb.MahjongFanCalculator(packs, names[:-1], names[-1], 0, True, False, False, False, 0, 0)
    except TypeError as exc:
        if "ERROR_NOT_WIN" in str(exc):
            return None
        raise
    return [name for _, name in fans]


def gb_verdicts(closed: Sequence[int], melds: Sequence[Meld] = ()) -> dict[str, bool]:
    """PyMahjongGB's view of a complete-size hand: per shape from the shanten functions (the last tile is
    the winning tile: the rest must be tenpai on it), plus WIN from the fan calculator."""
    waits = gb_waits(closed[:-1], len(melds))
    verdicts = {shape: closed[-1] in tiles for shape, tiles in waits.items()}
    verdicts[WIN] = gb_fans(closed, melds) is not None
    return verdicts


def fan_shapes(fans: Sequence[str]) -> set[str]:
    """The special shapes a PyMahjongGB fan list names."""
    shapes = set()
    if "七对" in fans or "连七对" in fans:
        shapes.add(SEVEN_PAIRS)
    if "十三幺" in fans:
        shapes.add(THIRTEEN_ORPHANS)
    if "全不靠" in fans:
        shapes.add(HONORS_AND_KNITTED)
    if "七星不靠" in fans:
        shapes.update((HONORS_AND_KNITTED, GREATER_HONORS_AND_KNITTED))
    if "组合龙" in fans:
        shapes.add(KNITTED_STRAIGHT)
    return shapes


def complete_disagreements(closed: Sequence[int], melds: Sequence[Meld] = ()) -> list[str]:
    """Where find_shapes disagrees with PyMahjongGB on a 14 - 3*melds tile hand (empty list = agreement)."""
    ours = set(find_shapes(closed, melds).shapes)
    gb = gb_verdicts(closed, melds)
    problems = [
        f"{shape}: ours {shape in ours}, PyMahjongGB {gb[shape]}"
        for shape in _SHANTEN_FUNCTIONS
        if (shape in ours) != gb[shape]
    ]
    if bool(ours) != gb[WIN]:
        problems.append(f"win: ours {bool(ours)}, PyMahjongGB fan calculator {gb[WIN]}")
    fans = gb_fans(closed, melds) or []
    named = fan_shapes(fans)
    # The fan calculator keeps the best reading: a special shape it names must hold for us; one we find must be
    # named unless a plain reading also holds (then it may have scored that one instead).
    ours_named = {s if s != KNITTED_STRAIGHT_IN_HK else KNITTED_STRAIGHT for s in ours} - {PLAIN}
    for shape in named - ours_named:
        problems.append(f"fan calculator names {shape}, ours {sorted(ours)}")
    for shape in ours_named - named:
        if PLAIN not in ours and shape != GREATER_HONORS_AND_KNITTED:
            problems.append(f"ours {shape}, fan calculator {fans}")
    return problems


def _names(kinds: Sequence[int]) -> str:
    return " ".join(TILE_NAMES[k] for k in kinds)


def waiting_disagreements(concealed: Sequence[int], melds: Sequence[Meld] = ()) -> list[str]:
    """Where waiting_tiles disagrees with PyMahjongGB's tenpai tiles on a 13 - 3*melds tile hand, per shape and
    for all shapes together (PyMahjongGB's lists are filtered by our rule: no wait on a kind we hold 4 of)."""
    from scoring.waits import waiting_tiles

    own = list(concealed) + [k for m in melds for k in m.tiles]
    gb = gb_waits(concealed, len(melds))
    problems = []
    for shape, gb_tiles in gb.items():
        allowed = frozenset({shape})
        if shape == HONORS_AND_KNITTED:
            allowed = frozenset({HONORS_AND_KNITTED, GREATER_HONORS_AND_KNITTED, KNITTED_STRAIGHT_IN_HK})
        expected = sorted(k for k in gb_tiles if own.count(k) < 4)
        ours = waiting_tiles(concealed, melds, allowed)
        if ours != expected:
            problems.append(f"{shape} waits: ours [{_names(ours)}], PyMahjongGB [{_names(expected)}]")
    union = sorted({k for tiles in gb.values() for k in tiles if own.count(k) < 4})
    ours_all = waiting_tiles(concealed, melds, ALL_SHAPES)
    if ours_all != union:
        problems.append(f"waits over all shapes: ours [{_names(ours_all)}], PyMahjongGB [{_names(union)}]")
    return problems
