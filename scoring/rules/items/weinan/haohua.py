"""4. 豪华七小对 5番: seven pairs holding four identical tiles (the first quad is included; more are extra 根)."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.items.base import Item


class HaoHuaQiXiaoDui(Item):
    name = "豪华七小对"
    zh = "豪华七小对"
    en = "luxury seven pairs"
    fan = 5

    def evaluate(self, quads: int) -> ScoreItem | None:
        if quads < 1:
            return None
        return self.make(self.fan, f"seven pairs with {quads} set(s) of four identical tiles")
