"""10./11. 根胡/根炸 2番 and extra 根 ([A13]).

A 根 is all four copies of a kind held without declaring a kong: a pung plus the 4th tile in hand, or four
concealed tiles used in sets. Declared kongs are never roots (the table fails 24 rows if the 杠上花 kong counts).
"双根、三根…番数上面还要加2番": by default +2 for every root after the first; ``weinan.extra_root=once`` adds
2 once however many extra roots there are.
"""

from __future__ import annotations

from collections import Counter

from scoring.hand import Hand
from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item
from scoring.tiles import COPIES_PER_KIND, TILE_NAMES


class Gen(Item):
    name = "根"
    zh = "根"
    en = "root (four of a kind, not konged)"
    fan = 2


class ExtraGen(Item):
    name = "extra根"
    zh = "加根"
    en = "extra root"
    fan = 2

    def evaluate(self, sit: Situation, extra: int) -> ScoreItem | None:
        """Item for ``extra`` roots beyond the first (0 gives None)."""
        if extra <= 0:
            return None
        mode = sit.options.weinan.extra_root
        sit.decide(f"A13 weinan.extra_root={mode}")
        value = self.fan * extra if mode == "per_root" else self.fan
        how = f"{extra} extra root(s) × 2" if mode == "per_root" else f"{extra} extra root(s), +2 once"
        return self.make(value, how)


def roots(hand: Hand) -> list[int]:
    """Kinds held four times outside declared kongs (concealed, winning tile and pungs)."""
    counts = Counter(hand.closed_tiles)
    for meld in hand.melds:
        if not meld.is_kong:
            counts.update(meld.tiles)
    return sorted(kind for kind, n in counts.items() if n == COPIES_PER_KIND)


def root_items(sit: Situation, kinds: list[int]) -> list[ScoreItem]:
    """根 for the first root, extra根 for the rest."""
    if not kinds:
        return []
    names = " ".join(TILE_NAMES[k] for k in kinds)
    items = [Gen.make(Gen.fan, f"four {TILE_NAMES[kinds[0]]} held without a kong")]
    extra = ExtraGen().evaluate(sit, len(kinds) - 1)
    if extra is not None:
        extra.reason += f" (roots: {names})"
        items.append(extra)
    return items
