"""Waits: the tile kinds that complete a 13-tile hand (+ declared melds) under a rule set's allowed shapes."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.hand import Meld
from scoring.shapes import ALL_SHAPES, counts_complete, closed_counts
from scoring.tiles import COPIES_PER_KIND, N_KINDS


def waiting_tiles(
    concealed: Sequence[int], melds: Sequence[Meld] = (), shapes: frozenset[str] = ALL_SHAPES
) -> list[int]:
    """Kinds (ascending) that complete ``concealed`` (13 - 3 * len(melds) tiles) + ``melds`` under ``shapes``.

    A kind whose 4 copies are all already in the player's own tiles (concealed or melded) is not a wait: no
    5th copy can arrive. Raises HandError for a wrong tile count or a 5th copy.
    """
    counts = closed_counts(concealed, melds, extra=1)
    own = list(counts)
    for meld in melds:
        for kind in meld.tiles:
            own[kind] += 1
    n_melds = len(melds)
    waits: list[int] = []
    for kind in range(N_KINDS):
        if own[kind] >= COPIES_PER_KIND:
            continue
        counts[kind] += 1
        if counts_complete(counts, n_melds, shapes):
            waits.append(kind)
        counts[kind] -= 1
    return waits
