"""Thirteen orphans 十三幺: one of each terminal and honour plus a duplicate of one of them; no melds."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.tiles import TERMINALS_AND_HONORS

_OTHERS = tuple(k for k in range(34) if k not in TERMINALS_AND_HONORS)


def is_thirteen_orphans(counts: Sequence[int], n_melds: int = 0) -> bool:
    if n_melds or sum(counts) != 14:
        return False
    if any(counts[k] for k in _OTHERS):
        return False
    return all(counts[k] for k in TERMINALS_AND_HONORS)
