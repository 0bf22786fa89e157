"""Plain shape 平胡: 4 sets + 1 pair; declared melds are fixed sets, the concealed tiles make up the rest.

Suits are read from the per-suit table; honours never chow, so each honour count must be 0, 2 (the pair) or 3.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from scoring.hand import Meld
from scoring.shapes.report import CHOW, KONG, PUNG, Block, Decomposition
from scoring.shapes.tables import SUIT_READINGS

_HONOR_OK = (True, False, True, True, False)  # honour count 0, 2 or 3 fits a plain hand


def is_plain(counts: Sequence[int]) -> bool:
    """Whether 34 concealed counts (3k+2 tiles) split into sets + exactly one pair."""
    pairs = 0
    for start in (0, 9, 18):
        key = tuple(counts[start : start + 9])
        if key not in SUIT_READINGS:
            return False
        if sum(key) % 3 == 2:
            pairs += 1
    for count in counts[27:34]:
        if not _HONOR_OK[count]:
            return False
        if count == 2:
            pairs += 1
    return pairs == 1


def plain_decompositions(counts: Sequence[int], melds: Sequence[Meld] = ()) -> tuple[Decomposition, ...]:
    """Every plain reading of the concealed counts, with the declared melds appended as fixed blocks."""
    if not is_plain(counts):
        return ()
    honor_pair: int | None = None
    honor_blocks: list[Block] = []
    for kind in range(27, 34):
        if counts[kind] == 2:
            honor_pair = kind
        elif counts[kind] == 3:
            honor_blocks.append(Block(PUNG, (kind, kind, kind)))
    meld_blocks = tuple(meld_block(m) for m in melds)
    per_suit = [SUIT_READINGS[tuple(counts[s * 9 : s * 9 + 9])] for s in range(3)]
    out: list[Decomposition] = []
    for readings in product(*per_suit):
        pair = honor_pair
        blocks: list[Block] = []
        for suit, (suit_pair, sets) in enumerate(readings):
            base = suit * 9
            if suit_pair is not None:
                pair = base + suit_pair
            for set_type, rank in sets:
                first = base + rank
                tiles = (first, first + 1, first + 2) if set_type == CHOW else (first, first, first)
                blocks.append(Block(set_type, tiles))
        assert pair is not None  # is_plain guaranteed exactly one pair
        out.append(Decomposition(pair, tuple(blocks) + tuple(honor_blocks) + meld_blocks))
    return tuple(out)


def meld_block(meld: Meld) -> Block:
    """A declared meld as a fixed block."""
    if meld.is_kong:
        return Block(KONG, meld.tiles, meld)
    return Block(meld.type.value, meld.tiles, meld)
