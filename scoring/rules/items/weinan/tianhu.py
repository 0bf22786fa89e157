"""8. 天胡 6番: the dealer complete after the deal (a self-draw)."""

from __future__ import annotations

from scoring.result import ScoreItem
from scoring.rules.base import Situation
from scoring.rules.items.base import Item


class TianHu(Item):
    name = "天胡"
    zh = "天胡"
    en = "heavenly hand"
    fan = 6

    def evaluate(self, sit: Situation) -> ScoreItem | None:
        ctx = sit.ctx
        if not ctx.heavenly:
            return None
        return self.make(self.fan, "dealer complete after the deal")
