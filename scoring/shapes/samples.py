"""Seeded random hands of each win shape, for property tests, the differential test and the benchmark.

Uniformly random tiles almost never win, so hands are built from shapes (random sets + pair, random pairs,
random knitted hands...) and then optionally spoiled (one tile swapped) or cut to 13 tiles to ask for waits.
Every hand respects the 4-copy limit, melds included.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from scoring.hand import Meld, MeldType
from scoring.shapes.knitted import KNITTED_SETS
from scoring.tiles import COPIES_PER_KIND, N_KINDS, TERMINALS_AND_HONORS

SAMPLE_KINDS = ("plain", "seven_pairs", "thirteen_orphans", "honors_and_knitted", "knitted_straight")


@dataclass(frozen=True)
class SampleHand:
    """Closed tiles (concealed + winning tile, or 13 - 3*melds tiles for a waiting hand) and declared melds."""

    closed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    built_as: str = ""  # the shape it was built from, before any spoiling


def _random_set(rng: random.Random, used: Counter, suit: int | None = None) -> tuple[int, ...] | None:
    """A random chow or pung (of ``suit`` when given) that still fits the 4-copy limit, or None after a few
    failed tries."""
    for _ in range(20):
        if rng.random() < 0.5:
            rank = rng.randrange(7)
            base = (rng.randrange(3) if suit is None else suit) * 9
            tiles = (base + rank, base + rank + 1, base + rank + 2)
        else:
            kind = rng.randrange(N_KINDS) if suit is None else suit * 9 + rng.randrange(9)
            tiles = (kind, kind, kind)
        if all(used[k] + tiles.count(k) <= COPIES_PER_KIND for k in set(tiles)):
            used.update(tiles)
            return tiles
    return None


def _random_pair(rng: random.Random, used: Counter, suit: int | None = None) -> int:
    kinds = range(N_KINDS) if suit is None else range(suit * 9, suit * 9 + 9)
    kind = rng.choice([k for k in kinds if used[k] <= 2])
    used.update((kind, kind))
    return kind


def _as_meld(rng: random.Random, tiles: tuple[int, ...], used: Counter) -> Meld:
    """Declare a set: a chow stays a chow; a pung becomes a pung or, when the 4th copy is free, a kong."""
    if tiles[0] != tiles[1]:
        return Meld(MeldType.CHOW, tiles, 0)
    kind = tiles[0]
    if used[kind] < COPIES_PER_KIND and rng.random() < 0.4:
        used[kind] += 1
        kong = rng.choice((MeldType.KONG_EXPOSED, MeldType.KONG_ADDED, MeldType.KONG_CONCEALED))
        return Meld(kong, (kind,) * 4, 0 if kong is MeldType.KONG_EXPOSED else None)
    return Meld(MeldType.PUNG, tiles, 0)


def random_plain(rng: random.Random, n_melds: int = 0, suit: int | None = None) -> SampleHand:
    """4 random sets + a pair, the first ``n_melds`` sets declared; all in one suit when ``suit`` is given (many
    readings and long waits: where shape bugs hide)."""
    while True:
        used: Counter = Counter()
        sets = [_random_set(rng, used, suit) for _ in range(4)]
        if any(s is None for s in sets):
            continue
        pair = _random_pair(rng, used, suit)
        melds = tuple(_as_meld(rng, s, used) for s in sets[:n_melds])  # type: ignore[arg-type]
        closed = [k for s in sets[n_melds:] for k in s] + [pair, pair]  # type: ignore[union-attr]
        return SampleHand(tuple(closed), melds, "plain")


def random_seven_pairs(rng: random.Random) -> SampleHand:
    """Seven random pairs; a kind drawn twice makes a quad (two pairs)."""
    used: Counter = Counter()
    closed: list[int] = []
    for _ in range(7):
        kind = _random_pair(rng, used)
        closed += [kind, kind]
    return SampleHand(tuple(closed), (), "seven_pairs")


def random_thirteen_orphans(rng: random.Random) -> SampleHand:
    return SampleHand(TERMINALS_AND_HONORS + (rng.choice(TERMINALS_AND_HONORS),), (), "thirteen_orphans")


def random_honors_and_knitted(rng: random.Random) -> SampleHand:
    knitted = rng.choice(KNITTED_SETS)
    n_suited = rng.choice((7, 8, 9))
    suited = rng.sample(knitted, n_suited)
    honors = rng.sample(range(27, 34), 14 - n_suited)
    return SampleHand(tuple(suited + honors), (), "honors_and_knitted")


def random_knitted_straight(rng: random.Random, n_melds: int = 0) -> SampleHand:
    knitted = rng.choice(KNITTED_SETS)
    while True:
        used: Counter = Counter(knitted)
        extra = _random_set(rng, used)
        if extra is None:
            continue
        pair = _random_pair(rng, used)
        if n_melds:
            meld = _as_meld(rng, extra, used)
            return SampleHand(tuple(knitted) + (pair, pair), (meld,), "knitted_straight")
        return SampleHand(tuple(knitted) + extra + (pair, pair), (), "knitted_straight")


def random_complete(rng: random.Random, kind: str | None = None, n_melds: int | None = None) -> SampleHand:
    """A complete hand built as ``kind`` (random when None); melds only where the shape allows them."""
    kind = kind or rng.choice(SAMPLE_KINDS)
    if kind == "plain":
        suit = rng.randrange(3) if rng.random() < 0.3 else None
        return random_plain(rng, rng.choice((0, 0, 1, 2, 3, 4)) if n_melds is None else n_melds, suit)
    if kind == "knitted_straight":
        return random_knitted_straight(rng, rng.choice((0, 1)) if n_melds is None else n_melds)
    builder = {
        "seven_pairs": random_seven_pairs,
        "thirteen_orphans": random_thirteen_orphans,
        "honors_and_knitted": random_honors_and_knitted,
    }[kind]
    return builder(rng)


def _own_counts(hand: SampleHand) -> Counter:
    return Counter(hand.closed) + Counter(k for m in hand.melds for k in m.tiles)


def spoil(rng: random.Random, hand: SampleHand) -> SampleHand:
    """Swap one closed tile for another kind (often a neighbour, so near misses dominate); may still win."""
    closed = list(hand.closed)
    own = _own_counts(hand)
    index = rng.randrange(len(closed))
    own[closed[index]] -= 1
    while True:
        old = closed[index]
        new = old + rng.choice((-2, -1, 1, 2)) if rng.random() < 0.6 else rng.randrange(N_KINDS)
        if 0 <= new < N_KINDS and new != old and own[new] < COPIES_PER_KIND:
            closed[index] = new
            rng.shuffle(closed)
            return SampleHand(tuple(closed), hand.melds, hand.built_as)


def cut(rng: random.Random, hand: SampleHand) -> SampleHand:
    """Remove one closed tile: a 13-tile (+ melds) hand that waits on at least that tile."""
    closed = list(hand.closed)
    closed.pop(rng.randrange(len(closed)))
    rng.shuffle(closed)
    return SampleHand(tuple(closed), hand.melds, hand.built_as)


def random_hands(seed: int, n: int, *, waiting: bool = False) -> list[SampleHand]:
    """``n`` seeded hands: complete ones (half of them spoiled by one swapped tile) or, with waiting, 13-tile
    hands cut from complete or spoiled ones."""
    rng = random.Random(seed)
    out: list[SampleHand] = []
    for _ in range(n):
        hand = random_complete(rng)
        if rng.random() < 0.5:
            hand = spoil(rng, hand)
        out.append(cut(rng, hand) if waiting else hand)
    return out
