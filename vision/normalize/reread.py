"""Re-reading a hand that does not win: the likeliest other readings of a few tiles that make it a winning hand.

A photo is taken to score a win, so a read hand with the right number of tiles that completes no win shape (or
shows a fifth copy of a tile, or a face-down tile in the concealed row: a blank 白 read as a back) holds a misread.
The crop classifier's runner-up is usually the right face (2m read as 3m, 9s as 6s: the confusions of a tile set
it never saw). This module searches the readings that change at most
``max_changes`` units — one concealed tile, or the kind of a whole pung or kong — among each unit's options, and
returns the winning one that costs least, the cost of a unit's change being -log(p_new / p_now) summed over its
face-up tiles. Nothing here knows about photos: the reader builds the units and applies the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

import numpy as np

from scoring.hand import HandError, Meld
from scoring.shapes import ALL_SHAPES, is_complete
from scoring.tiles import BACK, N_KINDS, is_honor, rank_of

# Chosen on the hold-out proxy (benchmarks/results/normalizer_unseen_*: whole hands of a tile set the classifier
# never saw) and checked on the drawn sets: 0.02 / 3 options / 2 changes read 1-3 points fewer hands right there.
MIN_PROBABILITY = 0.01  # a reading the classifier gives less than this is not an option
OPTIONS_PER_UNIT = 5
MAX_SINGLE_CHANGES = 30  # the cheapest single changes combined into pairs and triples (4,525 readings at most)
CHOICE_PROBABILITY = 0.05  # a face this likely is offered to the user as a quick fix (ReadTile.choices)
CHOICES = 3
WARNING_CODES = frozenset({"meld_reread", "reread_to_win"})  # the reader's warnings for a tile it re-read


@dataclass(frozen=True)
class Option:
    """Another reading of a unit and what it costs: -log(p_new / p_now), summed over the unit's face-up tiles."""

    kind: int
    cost: float


@dataclass(frozen=True)
class Unit:
    """What can be re-read as one: a concealed (or winning) tile, or the kind of a pung or kong.

    ``meld`` is the index of the meld in the hand's meld list, None for a concealed tile. A concealed tile read as
    no face (``back``) must be re-read for the hand to win.
    """

    kind: int
    options: tuple[Option, ...]
    meld: int | None = None


def likely_choices(probs: np.ndarray, now: int) -> tuple[int, ...]:
    """The classes (faces or ``back``) other than ``now`` the classifier gives at least CHOICE_PROBABILITY, best
    first, at most CHOICES: what the app offers first when the user taps the tile to correct it."""
    order = np.argsort(-np.asarray(probs), kind="stable")
    return tuple(int(k) for k in order if k != now and k <= BACK and probs[k] >= CHOICE_PROBABILITY)[:CHOICES]


def tile_options(probs: np.ndarray, now: int) -> tuple[Option, ...]:
    """The options of one tile read as class ``now`` from its 36 class probabilities (faces only, best first)."""
    return meld_options(probs[None, :], now)


def meld_options(probs: np.ndarray, now: int) -> tuple[Option, ...]:
    """The options of a pung or kong of ``now`` from the 36 class probabilities of its face-up tiles (rows)."""
    rows = np.clip(np.asarray(probs, dtype=np.float64), 1e-9, 1.0)
    if not len(rows):
        return ()
    faces = rows[:, :N_KINDS]
    plausible = (faces >= MIN_PROBABILITY).all(axis=0)
    if now < N_KINDS:
        plausible[now] = False
    cost = (np.log(rows[:, now:now + 1]) - np.log(faces)).sum(axis=0)
    kinds = [int(k) for k in np.flatnonzero(plausible)]
    kinds.sort(key=lambda k: cost[k])
    return tuple(Option(k, max(float(cost[k]), 0.0)) for k in kinds[:OPTIONS_PER_UNIT])


def best_winning_reading(
    units: Sequence[Unit], melds: Sequence[Meld], max_changes: int, shapes: frozenset[str] = ALL_SHAPES
) -> dict[int, Option] | None:
    """The cheapest set of changes ({unit index: option}) after which the hand wins; {} when it already wins, None
    when no reading within ``max_changes`` does or the tile count cannot make a hand.

    ``units`` hold every concealed tile (the winning tile included) and every pung or kong whose kind may change;
    ``melds`` are all declared melds (a unit's meld is read with its kind replaced).
    """
    closed = [u for u in units if u.meld is None]
    if len(closed) != 14 - 3 * len(melds):
        return None
    if _wins({}, units, melds, shapes):
        return {}
    forced = {index for index, unit in enumerate(units) if unit.kind >= N_KINDS}
    if len(forced) > max_changes:
        return None
    singles = sorted(
        ((option.cost, index, option) for index, unit in enumerate(units) for option in unit.options),
        key=lambda single: single[0],
    )
    singles = [s for s in singles if s[1] in forced] + [s for s in singles if s[1] not in forced][:MAX_SINGLE_CHANGES]
    candidates = []
    for size in range(max(len(forced), 1), max_changes + 1):
        for combo in combinations(singles, size):
            indices = {index for _, index, _ in combo}
            if len(indices) == size and forced <= indices:
                candidates.append((sum(cost for cost, _, _ in combo), combo))
    candidates.sort(key=lambda candidate: candidate[0])
    for _, combo in candidates:
        changes = {index: option for _, index, option in combo}
        if _wins(changes, units, melds, shapes):
            return changes
    return None


def _wins(changes: dict[int, Option], units: Sequence[Unit], melds: Sequence[Meld], shapes: frozenset[str]) -> bool:
    kinds = [changes[index].kind if index in changes else unit.kind for index, unit in enumerate(units)]
    if max(kinds) >= N_KINDS:
        return False
    melds = list(melds)
    for kind, unit in zip(kinds, units):
        if unit.meld is not None and kind != melds[unit.meld].kind:
            meld = melds[unit.meld]
            melds[unit.meld] = Meld(meld.type, (kind,) * len(meld.tiles))
    try:  # the scorer's own check: the tile count, the four-copy limit (melds included), the win shapes
        return is_complete([k for k, unit in zip(kinds, units) if unit.meld is None], melds, shapes)
    except HandError:
        return False


def cheapest_meld(probs: np.ndarray, classes: Sequence[int]) -> tuple[list[int], float] | None:
    """The likeliest reading of a group of 3 or 4 tiles (rows of 36 class probabilities, row order) as a pung, chow
    or kong (face-down tiles stay face down), and its cost over the group as read; None when none is plausible."""
    rows = np.clip(np.asarray(probs, dtype=np.float64), 1e-9, 1.0)
    n = len(classes)
    faces = [i for i, c in enumerate(classes) if c != BACK]
    if n not in (3, 4) or not faces or (n == 3 and len(faces) < 3):
        return None
    now = np.log(rows[np.arange(n), list(classes)])
    logs = np.log(rows[:, :N_KINDS])
    plausible = rows[:, :N_KINDS] >= MIN_PROBABILITY
    readings: list[list[int]] = []
    if n == 3:
        for first in range(N_KINDS):
            if not is_honor(first) and rank_of(first) <= 7:  # a chow's lowest tile
                readings += [list(p) for p in permutations((first, first + 1, first + 2))]
    readings += [[k if i in faces else BACK for i in range(n)] for k in range(N_KINDS)]
    best: tuple[list[int], float] | None = None
    for reading in readings:
        if not all(plausible[i, reading[i]] for i in faces):
            continue
        cost = float(sum(now[i] - logs[i, reading[i]] for i in faces))
        if best is None or cost < best[1]:
            best = (reading, max(cost, 0.0))
    return best
