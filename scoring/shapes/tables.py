"""Precomputed per-suit decomposition table.

A suit's tiles are a 9-long count vector. ``SUIT_READINGS`` maps every vector that splits completely into sets
(chows and pungs) plus at most one pair to all of its readings, ``(pair_rank | None, ((type, rank), ...))`` with
ranks 0-8. Whether a reading has a pair follows from the tile count (3k: no pair, 3k+2: one pair), so one table
serves both. Built once at import by enumerating the multisets of up to 4 sets (16 kinds: 7 chows, 9 pungs) and
the 10 pair choices — about 50k candidates, a fraction of a second.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from scoring.shapes.report import CHOW, PUNG

SuitSet = tuple[str, int]  # ("chow" | "pung", rank of its lowest tile 0-8)
SuitReading = tuple[int | None, tuple[SuitSet, ...]]

MAX_SETS = 4


def _set_ranks(suit_set: SuitSet) -> tuple[int, int, int]:
    kind, rank = suit_set
    return (rank, rank + 1, rank + 2) if kind == CHOW else (rank, rank, rank)


# In tile order (111 before 123 before 222), so every reading lists its sets in tile order.
_SUIT_SETS: tuple[SuitSet, ...] = tuple(
    sorted([(CHOW, r) for r in range(7)] + [(PUNG, r) for r in range(9)], key=_set_ranks)
)


def _build() -> dict[tuple[int, ...], tuple[SuitReading, ...]]:
    readings: dict[tuple[int, ...], list[SuitReading]] = {}
    for n_sets in range(MAX_SETS + 1):
        for sets in combinations_with_replacement(_SUIT_SETS, n_sets):
            counts = [0] * 9
            for suit_set in sets:
                for rank in _set_ranks(suit_set):
                    counts[rank] += 1
            if max(counts) > 4:
                continue
            readings.setdefault(tuple(counts), []).append((None, sets))
            for pair in range(9):
                if counts[pair] <= 2:
                    counts[pair] += 2
                    readings.setdefault(tuple(counts), []).append((pair, sets))
                    counts[pair] -= 2
    return {key: tuple(value) for key, value in readings.items()}


SUIT_READINGS: dict[tuple[int, ...], tuple[SuitReading, ...]] = _build()
