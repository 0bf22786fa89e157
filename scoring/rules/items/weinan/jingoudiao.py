"""7. 金钩钓 3番: four melds down and one tile left in hand; replaces 大对子."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item
from scoring.shapes import Decomposition


class JinGouDiao(Item):
    name = "金钩钓"
    zh = "金钩钓"
    en = "single tile left"
    fan = 3

    def evaluate(self, sit: Situation, reading: Decomposition) -> ScoreItem | None:
        if len(sit.hand.melds) != 4:
            return None
        return self.make(self.fan, "four melds down, won on the single tile left")
