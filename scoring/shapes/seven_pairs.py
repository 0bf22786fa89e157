"""Seven pairs 七对: the 14 concealed tiles form 7 pairs; four identical tiles count as two pairs (MCR)."""

from __future__ import annotations

from collections.abc import Sequence


def seven_pairs_quads(counts: Sequence[int], n_melds: int = 0) -> int | None:
    """The number of 4-of-a-kind groups when seven pairs holds, None when it does not (no melds allowed)."""
    if n_melds:
        return None
    quads = 0
    for count in counts:
        if count & 1:
            return None
        if count == 4:
            quads += 1
    return quads if sum(counts) == 14 else None
