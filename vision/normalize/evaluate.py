"""How a read hand compares with the hand a synthetic photo really shows (vision.synth's layout ground truth).

Two figures: ``exact`` (concealed tiles, winning tile and every meld with its type equal) and ``decidable`` (equal up
to what no photo can show: an added kong laid out like an exposed one, and the kind of a kong shown as four backs,
which the reader reports as a warning for the user to name).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from vision.normalize.result import ReadHand


@dataclass(frozen=True)
class Match:
    exact: bool
    decidable: bool


def _melds(pairs: Iterable[tuple[str, Iterable[int]]], merge_kongs: bool) -> Counter:
    out: Counter = Counter()
    for meld_type, tiles in pairs:
        if merge_kongs and meld_type == "kong_added":
            meld_type = "kong_exposed"
        out[(meld_type, tuple(sorted(tiles)))] += 1
    return out


def compare(read: ReadHand, concealed: Iterable[int], melds: Iterable[tuple[str, Iterable[int]]],
            win_tile: int | None, stacked_added: int = 0) -> Match:
    """``melds`` as (type, tiles) pairs; ``stacked_added``: how many added kongs show their 4th tile on the claimed
    one (those are decidable, the others look like exposed kongs)."""
    truth = list(melds)
    same_closed = Counter(read.concealed) == Counter(concealed) and read.win_tile == win_tile
    got = [(m.type.value, m.tiles) for m in read.melds]
    exact = same_closed and not read.unresolved_kongs and _melds(got, False) == _melds(truth, False)
    merge = sum(t == "kong_added" for t, _ in truth) > stacked_added
    want = _melds(truth, merge)
    have = _melds(got, merge)
    for _ in range(read.unresolved_kongs):  # a four-back kong left for the user to name matches any concealed kong
        hidden = [k for k in want if k[0] == "kong_concealed" and want[k] > have[k]]
        if not hidden:
            break
        want[hidden[0]] -= 1
    want += Counter()  # drop the zero counts
    return Match(exact, same_closed and have == want)
