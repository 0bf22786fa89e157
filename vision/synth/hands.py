"""Random hands as players show them: mostly winning hands (pair + 4 sets with declared melds, seven pairs,
thirteen orphans, honours-and-knitted), some 13-tile hands, and Weinan-style hands drawn from the suits only.

Copies are limited to four per kind across the hand; `HandSpec.pool` is what is left for discards and clutter.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scoring.tiles import TERMINALS_AND_HONORS, format_compact

SUITED = tuple(range(27))
ALL_KINDS = tuple(range(34))


@dataclass(frozen=True)
class MeldSpec:
    type: str  # "chow" | "pung" | "kong_exposed" | "kong_added" | "kong_concealed"
    tiles: tuple[int, ...]  # sorted

    def to_json(self) -> dict[str, str]:
        return {"type": self.type, "tiles": format_compact(self.tiles)}


@dataclass(frozen=True)
class HandSpec:
    concealed: tuple[int, ...]  # sorted, without the winning tile
    melds: tuple[MeldSpec, ...]
    win_tile: int | None
    shape: str  # how it was made: plain, seven_pairs, thirteen_orphans, honors_and_knitted, not_winning
    pool: tuple[int, ...]  # copies left per kind (34 counts)

    def to_json(self) -> dict:
        return {
            "concealed": format_compact(self.concealed),
            "melds": [m.to_json() for m in self.melds],
            "win_tile": format_compact([self.win_tile]) if self.win_tile is not None else None,
        }


class _PoolEmpty(Exception):
    pass


def random_hand(rng: np.random.Generator) -> HandSpec:
    """One hand; the mix favours plain winning hands with melds, the shapes the scorer meets most."""
    kinds = _suit_restriction(rng)
    roll = rng.random()
    for _ in range(50):
        try:
            if roll < 0.62:
                return _plain(rng, kinds)
            if roll < 0.72:
                return _seven_pairs(rng, kinds)
            if roll < 0.75:
                return _thirteen_orphans(rng)
            if roll < 0.78:
                return _honors_and_knitted(rng)
            return _not_winning(rng, kinds)
        except _PoolEmpty:
            continue
    return _plain(rng, ALL_KINDS)


def _suit_restriction(rng: np.random.Generator) -> tuple[int, ...]:
    """Weinan plays the suits only (often two suits after 定缺); some hands are one suit (清一色)."""
    roll = rng.random()
    if roll < 0.25:
        return SUITED
    if roll < 0.40:
        keep = rng.choice(3, size=2, replace=False)
        return tuple(k for k in SUITED if k // 9 in keep)
    if roll < 0.47:
        suit = int(rng.integers(3))
        return tuple(range(suit * 9, suit * 9 + 9))
    return ALL_KINDS


def _take(pool: list[int], kind: int, n: int) -> None:
    if pool[kind] < n:
        raise _PoolEmpty
    pool[kind] -= n


def _plain(rng: np.random.Generator, kinds: tuple[int, ...]) -> HandSpec:
    pool = [4 if k in kinds else 0 for k in range(34)]
    n_melds = int(rng.choice(5, p=[0.3, 0.25, 0.22, 0.13, 0.1]))
    melds: list[MeldSpec] = []
    closed: list[int] = []
    suited = [k for k in kinds if k < 27 and k % 9 <= 6]
    for i in range(4):
        declared = i < n_melds
        if suited and rng.random() < 0.55:
            start = int(rng.choice(suited))
            for k in (start, start + 1, start + 2):
                _take(pool, k, 1)
            tiles, mtype = (start, start + 1, start + 2), "chow"
        else:
            kind = int(rng.choice(kinds))
            kong = rng.random() < (0.3 if declared else 0.07)
            _take(pool, kind, 4 if kong else 3)
            tiles = (kind,) * (4 if kong else 3)
            if kong:
                mtype = "kong_concealed" if not declared or rng.random() < 0.35 else (
                    "kong_exposed" if rng.random() < 0.6 else "kong_added")
                declared = True
            else:
                mtype = "pung"
        if declared:
            melds.append(MeldSpec(mtype, tiles))
        else:
            closed.extend(tiles)
    pair = int(rng.choice([k for k in kinds if pool[k] >= 2] or [0]))
    _take(pool, pair, 2)
    closed.extend((pair, pair))
    return _with_win(rng, closed, melds, "plain", pool)


def _with_win(rng: np.random.Generator, closed: list[int], melds: list[MeldSpec], shape: str,
              pool: list[int]) -> HandSpec:
    win = closed.pop(int(rng.integers(len(closed))))
    return HandSpec(tuple(sorted(closed)), tuple(melds), win, shape, tuple(pool))


def _seven_pairs(rng: np.random.Generator, kinds: tuple[int, ...]) -> HandSpec:
    pool = [4 if k in kinds else 0 for k in range(34)]
    closed: list[int] = []
    for _ in range(7):
        choices = [k for k in kinds if pool[k] >= 2]
        if not choices:
            raise _PoolEmpty
        # Mostly distinct pairs; sometimes four of a kind counts as two pairs (豪华七对).
        kind = int(rng.choice(choices))
        if kind in closed and rng.random() < 0.8:
            fresh = [k for k in choices if k not in closed]
            kind = int(rng.choice(fresh)) if fresh else kind
        _take(pool, kind, 2)
        closed.extend((kind, kind))
    return _with_win(rng, closed, [], "seven_pairs", pool)


def _thirteen_orphans(rng: np.random.Generator) -> HandSpec:
    pool = [4] * 34
    closed = list(TERMINALS_AND_HONORS) + [int(rng.choice(TERMINALS_AND_HONORS))]
    for k in closed:
        _take(pool, k, 1)
    return _with_win(rng, closed, [], "thirteen_orphans", pool)


def _honors_and_knitted(rng: np.random.Generator) -> HandSpec:
    """全不靠 / 七星不靠 style: 14 distinct tiles from one knitted pattern (147/258/369 over the suits) and honours."""
    pool = [4] * 34
    ranks = rng.permutation(3)  # suit s takes ranks {1,4,7} + ranks[s]
    knitted = [s * 9 + r - 1 for s in range(3) for r in (1 + ranks[s], 4 + ranks[s], 7 + ranks[s])]
    candidates = knitted + list(range(27, 34))
    closed = [int(k) for k in rng.choice(candidates, size=14, replace=False)]
    for k in closed:
        _take(pool, k, 1)
    return _with_win(rng, closed, [], "honors_and_knitted", pool)


def _not_winning(rng: np.random.Generator, kinds: tuple[int, ...]) -> HandSpec:
    """A 13-tile hand (a photo taken while waiting, or a wrong count the reader must flag)."""
    pool = [4 if k in kinds else 0 for k in range(34)]
    melds: list[MeldSpec] = []
    for _ in range(int(rng.choice(4, p=[0.5, 0.25, 0.15, 0.1]))):
        kind = int(rng.choice(kinds))
        _take(pool, kind, 3)
        melds.append(MeldSpec("pung", (kind,) * 3))
    closed: list[int] = []
    for _ in range(13 - 3 * len(melds)):
        choices = [k for k in kinds if pool[k] > 0]
        kind = int(rng.choice(choices))
        _take(pool, kind, 1)
        closed.append(kind)
    return HandSpec(tuple(sorted(closed)), tuple(melds), None, "not_winning", tuple(pool))
