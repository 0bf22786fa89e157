"""9. 地胡 5番: a non-dealer wins on the dealer's first discard; the dealer pays."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item


class DiHu(Item):
    name = "地胡"
    zh = "地胡"
    en = "earthly hand"
    fan = 5

    def evaluate(self, sit: Situation) -> ScoreItem | None:
        ctx = sit.ctx
        if not ctx.earthly:
            return None
        return self.make(self.fan, "won on the dealer's first discard")
